"""DArray: an array split in blocks over the ranks of an MPI communicator,
each rank's block a sluice.Array on that rank's device queue."""

import builtins
import operator

import numpy as np

import sluice

from ._exchange import move
from ._layout import Layout, check_comms, incompatible
from ._mpi import allreduce_array, mpi, to_host_buffer, world

# Communication statistics, for benchmarks: seconds spent in exchanges
# and reductions across ranks, bytes sent. With "sync" set, each exchange
# first waits for this rank's queued work (so the seconds are
# communication only, not the wait for the data's producers).
stats = {"seconds": 0.0, "bytes": 0, "messages": 0, "sync": None}


class _timed:
    def __enter__(self):
        if stats["sync"] is not None:
            stats["sync"].wait()
        self.t = mpi().Wtime()

    def __exit__(self, *exc):
        stats["seconds"] += mpi().Wtime() - self.t
        stats["messages"] += 1


def reset_stats(sync=None):
    """Zeroes ``stats``; ``sync``: a queue to wait for before each
    exchange (benchmarks), or None."""
    stats.update(seconds=0.0, bytes=0, messages=0, sync=sync)


class DArray:
    """A distributed array: the global ``shape`` split along axis ``split``
    in blocks over the ranks of ``comm`` (``split=None``: every rank holds
    the whole array). ``local`` is this rank's block, a sluice.Array on this
    rank's queue; operations run on every rank's block where it lives and
    communicate only where the layout says they must (reductions along the
    split axis, slices that shift blocks, redistribution).

    Every rank calls every operation, in the same order (SPMD)."""

    __slots__ = ("local", "layout")
    __sluice_distributed__ = True  # @sluice.jit hands these to map_blocks

    def __init__(self, local, layout):
        if tuple(local.shape) != layout.local_shape():
            raise ValueError(
                f"block of shape {tuple(local.shape)} does not "
                f"match the layout's {layout.local_shape()} "
                f"on rank {layout.rank}"
            )
        self.local = local
        self.layout = layout

    # --- attributes ------------------------------------------------------
    comm = property(lambda self: self.layout.comm)
    shape = property(lambda self: self.layout.shape)
    split = property(lambda self: self.layout.split)
    bounds = property(lambda self: self.layout.bounds)
    dtype = property(lambda self: self.local.dtype)
    ndim = property(lambda self: len(self.layout.shape))
    size = property(
        lambda self: int(np.prod(self.layout.shape, dtype=np.int64))
    )
    device = property(lambda self: self.local.device)
    sycl_queue = property(lambda self: self.local.sycl_queue)
    usm_type = property(lambda self: self.local.usm_type)

    def __len__(self):
        return self.shape[0]

    def __reduce__(self):
        raise TypeError(
            "a DArray is one block per rank and cannot be "
            "pickled: send x.local (a sluice.Array) or "
            "x.asnumpy()"
        )

    def __repr__(self):
        return (
            f"DArray(shape={self.shape}, dtype={self.dtype}, "
            f"{self.layout.describe()}, rank {self.layout.rank} on "
            f"{self.device.filter_string})"
        )

    # --- to and from the host ---------------------------------------------
    def asnumpy(self):
        """The whole array as a NumPy array on every rank (an all-gather)."""
        if self.split is None:
            return sluice.asnumpy(self.local)
        blocks = self.comm.allgather(sluice.asnumpy(self.local))
        return np.concatenate(blocks, axis=self.split)

    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            "Implicit conversion of a DArray to a NumPy array is "
            "not allowed (its blocks live on the ranks' devices): "
            "use x.asnumpy() (an all-gather)"
        )

    def _scalar(self):
        if self.size != 1:
            raise ValueError(
                "only arrays of one element can be converted "
                f"to Python scalars (this one has shape "
                f"{self.shape})"
            )
        return self.asnumpy().reshape(()).item()

    def __float__(self):
        return float(self._scalar())

    def __int__(self):
        return int(self._scalar())

    def __bool__(self):
        return bool(self._scalar())

    def item(self):
        return self._scalar()

    # --- layouts -------------------------------------------------------------
    def redistribute(self, split="same", bounds=None):
        """This array in another layout: ``split`` (an axis, or None to
        replicate it on every rank) and ``bounds`` (block bounds per rank;
        default: balanced). Moves only the elements that change rank."""
        if split == "same":
            split = self.split
        new = Layout(self.comm, self.shape, split, bounds)
        if new == self.layout:
            return self
        if self.split is None:  # every rank has it all: cut out the block
            key = [slice(None)] * self.ndim
            key[new.split] = slice(*new.local_bounds())
            return DArray(sluice.copy(self.local[tuple(key)]), new)
        with _timed():
            local = move(self.local, self.layout, new, stats)
        return DArray(local, new)

    def to_device(self, device):
        """This array with its block on ``device`` on this rank (a copy
        where it is elsewhere)."""
        return DArray(self.local.to_device(device), self.layout)

    def astype(self, dtype):
        return DArray(self.local.astype(dtype), self.layout)

    def copy(self):
        return DArray(sluice.copy(self.local), self.layout)

    # --- indexing ------------------------------------------------------------
    def _normalize(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        if builtins.any(k is None for k in key):
            raise NotImplementedError("newaxis on a distributed array")
        n_ell = builtins.sum(k is Ellipsis for k in key)
        if n_ell > 1:
            raise IndexError("an index can only have a single ellipsis")
        if n_ell:
            i = key.index(Ellipsis)
            fill = self.ndim - (len(key) - 1)
            key = key[:i] + (slice(None),) * fill + key[i + 1 :]
        if len(key) > self.ndim:
            raise IndexError(
                f"too many indices for array: array is "
                f"{self.ndim}-dimensional, but {len(key)} were "
                "indexed"
            )
        key = key + (slice(None),) * (self.ndim - len(key))
        for k in key:
            if not isinstance(k, (slice, int, np.integer)):
                raise TypeError(
                    "distributed arrays take integers, slices "
                    f"and ... as indices, not {type(k).__name__}"
                )
        return key

    def __getitem__(self, key):
        key = self._normalize(key)
        s = self.split
        if s is None or isinstance(key[s], slice) and key[s] == slice(None):
            local = self.local[key]
            return DArray(local, _layout_after(self.layout, key, None))
        k = key[s]
        n = self.shape[s]
        if not isinstance(k, slice):  # one index along the split axis
            i = operator.index(k)
            if not -n <= i < n:
                raise IndexError(
                    f"index {i} is out of bounds for axis {s} with size {n}"
                )
            i %= n
            return self._take(s, i, key)
        start, stop, step = k.indices(n)
        if step != 1:
            raise NotImplementedError(
                "slices with a step along the split axis; redistribute to "
                "split along another axis first"
            )
        stop = builtins.max(stop, start)
        bounds = []
        local_key = list(key)
        me = self.layout.rank
        for r, (lo, hi) in enumerate(self.bounds):
            a = builtins.min(builtins.max(lo, start), stop)
            b = builtins.min(builtins.max(hi, start), stop)
            bounds.append((a - start, b - start))
            if r == me:
                local_key[s] = slice(a - lo, b - lo)
        local = self.local[tuple(local_key)]
        return DArray(local, _layout_after(self.layout, key, bounds))

    def _take(self, s, i, key):
        """``x[..., i, ...]`` along the split axis: the owner broadcasts the
        row; the result is replicated."""
        owner = next(
            r for r, (lo, hi) in enumerate(self.bounds) if lo <= i < hi
        )
        rest = list(key)
        me = self.layout.rank
        rest[s] = slice(None)
        shape = [
            len(range(*k.indices(d)))
            for k, d in zip(rest, self.shape)
            if isinstance(k, slice)
        ]
        del shape[builtins.sum(1 for k in key[:s] if isinstance(k, slice))]
        if me == owner:
            lk = list(key)
            lk[s] = i - self.bounds[owner][0]
            row = sluice.copy(self.local[tuple(lk)])
            buf = to_host_buffer(row)
        else:
            buf = sluice.empty(
                tuple(shape),
                dtype=self.dtype,
                usm_type="host",
                sycl_queue=self.sycl_queue,
            )
        with _timed():
            self.comm.Bcast(buf, root=owner)
        out = sluice.empty(
            tuple(shape),
            dtype=self.dtype,
            usm_type=self.usm_type,
            sycl_queue=self.sycl_queue,
        )
        out[...] = buf
        return DArray(out, Layout(self.comm, shape, None))

    def __setitem__(self, key, value):
        if self.split is not None and not isinstance(
            self._normalize(key)[self.split], slice
        ):
            raise NotImplementedError(
                "assignment to one index along the split axis"
            )
        target = self[key]
        target.local[...] = _aligned(value, target.layout, "assignment")

    # --- operators -----------------------------------------------------------
    def __neg__(self):
        return map_blocks(sluice.negative, self)

    def __pos__(self):
        return self

    def __abs__(self):
        return map_blocks(sluice.absolute, self)

    def __invert__(self):
        return map_blocks(sluice.invert, self)

    def sum(self, axis=None, dtype=None, keepdims=False):
        return reduce("sum", self, axis, keepdims, dtype=dtype)

    def prod(self, axis=None, dtype=None, keepdims=False):
        return reduce("prod", self, axis, keepdims, dtype=dtype)

    def max(self, axis=None, keepdims=False):
        return reduce("max", self, axis, keepdims)

    def min(self, axis=None, keepdims=False):
        return reduce("min", self, axis, keepdims)

    def mean(self, axis=None, keepdims=False):
        return mean(self, axis, keepdims)

    def all(self, axis=None, keepdims=False):
        return reduce("all", self, axis, keepdims)

    def any(self, axis=None, keepdims=False):
        return reduce("any", self, axis, keepdims)

    def __array_namespace__(self, api_version=None):
        import sluice.distributed

        return sluice.distributed

    def __matmul__(self, other):
        return matmul(self, other)

    def __rmatmul__(self, other):
        return matmul(other, self)


def _binop(fn, reflected=False):
    if reflected:
        return lambda self, o: map_blocks(fn, o, self)
    return lambda self, o: map_blocks(fn, self, o)


for _name, _fn in [
    ("add", "add"),
    ("sub", "subtract"),
    ("mul", "multiply"),
    ("truediv", "divide"),
    ("floordiv", "floor_divide"),
    ("mod", "remainder"),
    ("pow", "power"),
    ("and", "bitwise_and"),
    ("or", "bitwise_or"),
    ("xor", "bitwise_xor"),
]:
    setattr(DArray, f"__{_name}__", _binop(getattr(sluice, _fn)))
    setattr(DArray, f"__r{_name}__", _binop(getattr(sluice, _fn), True))
for _name, _fn in [
    ("eq", "equal"),
    ("ne", "not_equal"),
    ("lt", "less"),
    ("le", "less_equal"),
    ("gt", "greater"),
    ("ge", "greater_equal"),
]:
    setattr(DArray, f"__{_name}__", _binop(getattr(sluice, _fn)))
DArray.__hash__ = None


def _layout_after(layout, key, bounds):
    """The layout of ``x[key]`` (basic indices; ``bounds``: the split
    axis's new bounds, or None where it is unchanged)."""
    shape, split, axis = [], None, 0
    for d, (k, n) in enumerate(zip(key, layout.shape)):
        if isinstance(k, slice):
            if d == layout.split:
                split = axis
                shape.append(bounds[-1][1] if bounds else n)
            else:
                shape.append(len(range(*k.indices(n))))
            axis += 1
    return Layout._trusted(
        layout.comm,
        shape,
        split,
        tuple(bounds) if bounds is not None else layout.bounds,
    )


# --- compute follows data over ranks ---------------------------------------
def _darrays(args):
    return [a for a in args if isinstance(a, DArray)]


def _result_layout(args):
    """The layout of an elementwise operation's result: the broadcast
    global shape, split where the first split operand is, with its
    bounds."""
    ds = _darrays(args)
    check_comms(ds)
    shapes = [a.shape if isinstance(a, DArray) else np.shape(a) for a in args]
    try:
        shape = tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise ValueError(
            "operands could not be broadcast together with "
            "shapes " + " ".join(str(tuple(s)) for s in shapes)
        ) from None
    lead = next((a for a in ds if a.split is not None), None)
    if lead is None:
        return Layout(ds[0].comm, shape, None)
    axis = lead.split + len(shape) - lead.ndim
    for b in ds:
        if b.split is None:
            continue
        baxis = b.split + len(shape) - b.ndim
        if baxis != axis:
            raise incompatible(
                lead.layout,
                b.layout,
                f"split along axes {axis} and {baxis} of the result",
            )
    if lead.shape[lead.split] != shape[axis]:
        raise incompatible(
            lead.layout, lead.layout, "a split axis of length 1 is broadcast"
        )
    return Layout._trusted(lead.comm, shape, axis, lead.bounds)


def _aligned(x, layout, what="operation"):
    """``x``'s part of this rank's block of ``layout`` (``x`` broadcasts
    to ``layout.shape``): a DArray in another layout is realigned (moved
    between ranks: a halo exchange for a shifted slice), a replicated one
    or host data is cut locally, a scalar stays a scalar."""
    if isinstance(x, DArray):
        check_comms([x, _Proxy(layout)], what)
        if x.split is None:
            return _cut(x.local, x.ndim, layout)
        axis = x.split + len(layout.shape) - x.ndim
        if axis != layout.split:
            raise incompatible(
                x.layout,
                layout,
                f"split along axes {axis} and {layout.split} of the result",
            )
        if x.bounds == layout.bounds:
            return x.local
        target = x.layout.with_bounds(layout.bounds)
        with _timed():
            return move(x.local, x.layout, target, stats)
    if isinstance(x, sluice.Array):
        return _cut(x, x.ndim, layout)
    if isinstance(x, (list, tuple, np.ndarray)):
        a = np.asarray(x)
        if a.ndim:
            return _cut(a, a.ndim, layout)
    return x


class _Proxy:
    __slots__ = ("comm",)

    def __init__(self, layout):
        self.comm = layout.comm


def _cut(a, ndim, layout):
    """This rank's part of ``a`` (the whole array on every rank, which
    broadcasts to ``layout.shape``)."""
    if layout.split is None:
        return a
    axis = layout.split - (len(layout.shape) - ndim)
    if axis < 0 or a.shape[axis] == 1:
        return a
    key = [slice(None)] * ndim
    key[axis] = slice(*layout.local_bounds())
    return a[tuple(key)]


def map_blocks(fn, *args, **kwargs):
    """``fn`` (an elementwise function of sluice.Arrays: a sluice ufunc, a
    ``@sluice.jit`` function, ...) applied to distributed arrays block by
    block: the arguments' distributions are checked first (one
    communicator, compatible layouts: ExecutionPlacementError otherwise),
    operands in a shifted layout are realigned to the first split one, and
    each rank runs ``fn`` once on its blocks on its queue."""
    if not _darrays(args):
        return fn(*args, **kwargs)
    layout = _result_layout(args)
    local = fn(*[_aligned(a, layout) for a in args], **kwargs)
    if not isinstance(local, sluice.Array):
        local = sluice.asarray(local, sycl_queue=_queue_of(args))
    if tuple(local.shape) != layout.local_shape():
        raise ValueError(
            f"{getattr(fn, '__name__', fn)!s} is not "
            "elementwise: its block has shape "
            f"{tuple(local.shape)}, not "
            f"{layout.local_shape()}"
        )
    return DArray(local, layout)


def _queue_of(args):
    return _darrays(args)[0].sycl_queue


def elementwise(fn):
    """A function of sluice.Arrays lifted to distributed arrays (see
    ``map_blocks``); with ``@sluice.jit`` functions, each rank compiles its
    blocks' program, and a mismatch of communicators or layouts is found
    before anything is traced::

        @sluice.distributed.elementwise
        @sluice.jit
        def step(u, v, a):
            return u + a * v
    """

    def lifted(*args, **kwargs):
        return map_blocks(fn, *args, **kwargs)

    lifted.__name__ = getattr(fn, "__name__", "elementwise")
    lifted.__doc__ = fn.__doc__
    lifted.__wrapped__ = fn
    return lifted


# --- reductions ------------------------------------------------------------
_IDENTITY_FREE = {"max", "min"}


def reduce(name, x, axis=None, keepdims=False, dtype=None):
    """``sum``, ``prod``, ``max``, ``min``, ``all`` or ``any`` of a
    distributed array: each rank reduces its block on its queue; across
    the split axis the partial results are combined with MPI's Allreduce
    (the result is then replicated)."""
    fn = getattr(sluice, name)
    kw = {"dtype": dtype} if dtype is not None else {}
    nd = x.ndim
    if axis is None:
        axes = tuple(range(nd))
    else:
        axes = tuple(
            sorted(
                {
                    operator.index(a) % nd
                    if -nd <= a < nd
                    else _axis_error(a, nd)
                    for a in (axis if isinstance(axis, tuple) else (axis,))
                }
            )
        )
    local = x.local
    across = x.split is not None and x.split in axes
    if across and name in _IDENTITY_FREE and x.shape[x.split] == 0:
        raise ValueError(
            f"zero-size array to reduction operation {name} "
            "which has no identity"
        )
    if across and name in _IDENTITY_FREE and local.shape[x.split] == 0:
        # An empty block contributes the neutral element of max/min.
        part_shape = tuple(
            1 if d in axes else n for d, n in enumerate(local.shape)
        )
        neutral = _neutral(name, local.dtype)
        part = sluice.full(
            part_shape,
            neutral,
            dtype=local.dtype,
            usm_type=local.usm_type,
            sycl_queue=local.sycl_queue,
        )
        part = fn(part, axis=axes, keepdims=True, **kw)
    else:
        part = fn(local, axis=axes, keepdims=True, **kw)
    if across:
        with _timed():
            part = allreduce_array(x.comm, part, name)
    if not keepdims:
        part = sluice.reshape(
            part, tuple(n for d, n in enumerate(part.shape) if d not in axes)
        )
    if x.split is None or across:
        shape = part.shape if across or x.split is None else None
        return DArray(part, Layout(x.comm, shape, None))
    split = (
        x.split
        if keepdims
        else x.split - builtins.sum(1 for a in axes if a < x.split)
    )
    shape = list(part.shape)
    shape[split] = x.shape[x.split]
    return DArray(part, Layout(x.comm, shape, split, x.bounds))


def _axis_error(a, nd):
    raise np.exceptions.AxisError(a, nd)


def _neutral(name, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return -np.inf if name == "max" else np.inf
    if dt.kind == "b":
        return name != "max"
    info = np.iinfo(dt)
    return info.min if name == "max" else info.max


def sum(x, axis=None, dtype=None, keepdims=False):  # noqa: A001
    return reduce("sum", x, axis, keepdims, dtype)


def prod(x, axis=None, dtype=None, keepdims=False):
    return reduce("prod", x, axis, keepdims, dtype)


def max(x, axis=None, keepdims=False):  # noqa: A001
    return reduce("max", x, axis, keepdims)


def min(x, axis=None, keepdims=False):  # noqa: A001
    return reduce("min", x, axis, keepdims)


def all(x, axis=None, keepdims=False):  # noqa: A001
    return reduce("all", x, axis, keepdims)


def any(x, axis=None, keepdims=False):  # noqa: A001
    return reduce("any", x, axis, keepdims)


def mean(x, axis=None, keepdims=False):
    nd = x.ndim
    axes = (
        tuple(range(nd))
        if axis is None
        else tuple(
            a % nd for a in (axis if isinstance(axis, tuple) else (axis,))
        )
    )
    count = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
    src = (
        x
        if x.dtype.kind in "fc"
        else x.astype(sluice.float64 if _f64(x) else sluice.float32)
    )
    return reduce("sum", src, axes, keepdims) / count


def _f64(x):
    return (
        x.device.has_aspect_fp64
        if hasattr(x.device, "has_aspect_fp64")
        else True
    )


# --- matmul ----------------------------------------------------------------
def matmul(a, b):
    """``a @ b`` for 2-D arrays: ``a`` split by rows (or replicated) times
    ``b`` replicated gives a result split by rows; ``a`` split by columns
    times ``b`` split by rows in the same blocks gives partial products
    summed with Allreduce. Needs ``sluice.matmul``."""
    if not hasattr(sluice, "matmul"):
        raise NotImplementedError(
            "sluice.distributed.matmul needs sluice.matmul, which this "
            "version of sluice does not have yet"
        )
    if not isinstance(a, DArray) or not isinstance(b, DArray):
        raise TypeError("matmul of distributed arrays needs two DArrays")
    check_comms([a, b], "matmul")
    if a.ndim != 2 or b.ndim != 2:
        raise NotImplementedError("distributed matmul of 2-D arrays only")
    if a.shape[1] != b.shape[0]:
        raise ValueError(
            f"matmul: shapes {a.shape} and {b.shape} do not match"
        )
    if a.split == 1:  # contraction axis split: partial products
        if b.split != 0 or b.bounds != a.bounds:
            b = b.redistribute(split=0, bounds=a.bounds)
        part = sluice.matmul(a.local, b.local)
        with _timed():
            part = allreduce_array(a.comm, part, "sum")
        return DArray(part, Layout(a.comm, part.shape, None))
    if b.split is not None:
        b = b.redistribute(split=None)
    local = sluice.matmul(a.local, b.local)
    shape = (a.shape[0], b.shape[1])
    return DArray(local, Layout(a.comm, shape, a.split, a.bounds))


# --- making distributed arrays --------------------------------------------
def _comm(comm):
    return world() if comm is None else comm


def default_device(comm=None):
    """The device a rank uses when none is given: with GPUs on the node,
    GPU ``local_rank % n_gpus`` (ranks of one node share them round
    robin), else sluice's default device."""
    comm = _comm(comm)
    gpus = (
        sluice.get_devices(device_type="gpu")
        if sluice.has_gpu_devices()
        else []
    )
    if not gpus:
        return sluice.select_default_device()
    MPI = mpi()
    node = comm.Split_type(MPI.COMM_TYPE_SHARED)
    try:
        local_rank = node.Get_rank()
    finally:
        node.Free()
    return gpus[local_rank % len(gpus)]


def _queue(device, sycl_queue, comm):
    if sycl_queue is not None:
        return sycl_queue
    if device is None:
        device = default_device(comm)
    if callable(device) and not isinstance(device, sluice.Device):
        device = device(_comm(comm).Get_rank())
    if isinstance(device, sluice.Queue):
        return device
    if not isinstance(device, sluice.Device):
        device = sluice.Device(device)
    return device.sycl_queue


def _shape(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(d) for d in shape)


def _default_split(shape, split):
    if split == "auto":
        return 0 if len(shape) else None
    return split


def empty(
    shape,
    dtype=None,
    *,
    comm=None,
    split="auto",
    device=None,
    usm_type="device",
    sycl_queue=None,
):
    """An uninitialised distributed array: ``shape`` (global) split in
    balanced blocks along ``split`` (default 0; None: replicated) over
    ``comm`` (default ``MPI.COMM_WORLD``), each block on its rank's
    ``device`` (a filter string for every rank, a function of the rank,
    or None: ``default_device``)."""
    comm = _comm(comm)
    shape = _shape(shape)
    layout = Layout(comm, shape, _default_split(shape, split))
    q = _queue(device, sycl_queue, comm)
    local = sluice.empty(
        layout.local_shape(), dtype=dtype, usm_type=usm_type, sycl_queue=q
    )
    return DArray(local, layout)


def full(shape, fill_value, dtype=None, **kw):
    """``shape`` filled with ``fill_value`` (arguments as for ``empty``;
    the dtype follows the value, as in NumPy)."""
    return _filled(
        shape,
        fill_value,
        dtype if dtype is not None else _fill_dtype(fill_value),
        kw,
    )


def _filled(shape, value, dtype, kw):
    x = empty(shape, dtype=dtype, **kw)
    x.local.fill(value)
    return x


def _fill_dtype(v):
    if isinstance(v, bool):
        return sluice.bool_
    if isinstance(v, int):
        return sluice.int64
    return None


def zeros(shape, dtype=None, **kw):
    """Zeros (the device's default floating type unless ``dtype``)."""
    return _filled(shape, 0, dtype, kw)


def ones(shape, dtype=None, **kw):
    return _filled(shape, 1, dtype, kw)


def zeros_like(x, dtype=None):
    return _like(x, 0, dtype)


def ones_like(x, dtype=None):
    return _like(x, 1, dtype)


def empty_like(x, dtype=None):
    local = sluice.empty(
        x.local.shape,
        dtype=dtype or x.dtype,
        usm_type=x.usm_type,
        sycl_queue=x.sycl_queue,
    )
    return DArray(local, x.layout)


def full_like(x, fill_value, dtype=None):
    return _like(x, fill_value, dtype)


def _like(x, v, dtype):
    y = empty_like(x, dtype)
    y.local.fill(v)
    return y


def arange(
    start,
    stop=None,
    step=1,
    *,
    dtype=None,
    comm=None,
    device=None,
    usm_type="device",
    sycl_queue=None,
):
    """``start, start + step, ...`` below ``stop``, split in blocks; each
    rank makes its own block."""
    if stop is None:
        start, stop = 0, start
    n = len(range(0, int(np.ceil((stop - start) / step))))
    comm = _comm(comm)
    layout = Layout(comm, (n,), 0)
    lo, hi = layout.local_bounds()
    q = _queue(device, sycl_queue, comm)
    local = (
        sluice.arange(
            start + lo * step,
            start + hi * step,
            step,
            dtype=dtype,
            usm_type=usm_type,
            sycl_queue=q,
        )
        if hi > lo
        else sluice.empty(
            (0,),
            dtype=dtype or _arange_dtype(start, stop, step),
            usm_type=usm_type,
            sycl_queue=q,
        )
    )
    if local.shape[0] != hi - lo:  # rounding of float steps
        local = local[: hi - lo]
    return DArray(local, layout)


def _arange_dtype(*vs):
    return np.result_type(*[np.asarray(v) for v in vs])


def asarray(
    a,
    dtype=None,
    *,
    comm=None,
    split="auto",
    device=None,
    usm_type="device",
    sycl_queue=None,
):
    """A distributed array of ``a``, which every rank holds whole (NumPy
    data, a sequence, or a sluice.Array): each rank keeps its block of it.
    A DArray is returned as it is."""
    if isinstance(a, DArray):
        return a if dtype is None else a.astype(dtype)
    comm = _comm(comm)
    if isinstance(a, sluice.Array):
        host = a
        q = (
            a.sycl_queue
            if device is None and sycl_queue is None
            else _queue(device, sycl_queue, comm)
        )
    else:
        host = np.asarray(a, dtype=dtype)
        q = _queue(device, sycl_queue, comm)
    shape = tuple(host.shape)
    layout = Layout(comm, shape, _default_split(shape, split))
    block = _cut(host, len(shape), layout)
    if isinstance(block, sluice.Array):
        local = sluice.copy(block).to_device(q)
        if dtype is not None:
            local = local.astype(dtype)
    else:
        local = sluice.asarray(
            np.ascontiguousarray(block),
            dtype=dtype,
            usm_type=usm_type,
            sycl_queue=q,
        )
    return DArray(local, layout)


def from_local(local, *, comm=None, split=0):
    """A distributed array of the blocks the ranks hold (``local`` here):
    blocks are stacked along ``split`` in rank order; their other
    dimensions must agree."""
    comm = _comm(comm)
    split %= builtins.max(local.ndim, 1)
    shapes = comm.allgather(tuple(local.shape))
    rest = {tuple(s[:split] + s[split + 1 :]) for s in shapes}
    if len(rest) != 1:
        raise ValueError(
            f"blocks of shapes {shapes} cannot be stacked along axis {split}"
        )
    bounds, lo = [], 0
    for s in shapes:
        bounds.append((lo, lo + s[split]))
        lo += s[split]
    shape = list(shapes[0])
    shape[split] = lo
    return DArray(local, Layout(comm, shape, split, bounds))


def asnumpy(x):
    """The whole of ``x`` as a NumPy array on every rank (an all-gather of
    the blocks; sluice.Arrays and other data go through sluice.asnumpy)."""
    if isinstance(x, DArray):
        return x.asnumpy()
    return sluice.asnumpy(x)


def check_placement(*args, what="operation"):
    """ExecutionPlacementError unless the distributed arrays among
    ``args`` can meet in one elementwise operation (one communicator,
    layouts split along the same axis of the result)."""
    if _darrays(args):
        _result_layout(args)


__all__ = [
    "DArray",
    "Layout",
    "map_blocks",
    "elementwise",
    "reduce",
    "matmul",
    "empty",
    "full",
    "zeros",
    "ones",
    "arange",
    "asarray",
    "from_local",
    "asnumpy",
]
