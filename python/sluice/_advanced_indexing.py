"""NumPy's advanced indexing on sluice arrays: integer arrays, boolean
masks, mixed with integers, slices, ``None`` and ``...``.

``x[key]`` with arrays in ``key``:

1. boolean masks become the integer positions of their true elements
   (``nonzero``: a count, then a compaction, on the array's queue);
2. slices, ``None`` and the axes the arrays index make a view of ``x`` (no
   copy) whose indexed axes come first;
3. the index arrays broadcast together and become one flat row index
   (elementwise operations on the device, or NumPy when the indices came
   from the host), checked against the axis sizes: an index out of range
   raises IndexError at once, with NumPy's message (a device index array
   is checked by a min/max reduction read back here, so the error is
   raised on the user's line);
4. one gather kernel copies the rows; the result's axes are arranged as
   NumPy's rules say (the broadcast index axes replace the indexed axes
   when these are adjacent, else they come first).

``x[key] = value`` computes, the same way, the flat positions of the
elements ``x[key]`` selects, and scatters the broadcast value into them
(a parallel kernel when positions cannot repeat, else an ordered one, so
that the last value written wins as in NumPy). ``x[mask] = scalar`` with a
mask of ``x``'s shape is an elementwise ``where``.
"""

import builtins
import operator

import numpy as np

from . import _trace
from ._errors import TracerError
from ._indexing import view_of


def _k():
    from . import _index_kernels

    return _index_kernels


def _array_type():
    from ._array import Array

    return Array


def _is_array_key(k):
    Array = _array_type()
    return isinstance(k, (np.ndarray, list, Array)) or (
        isinstance(k, (bool, np.bool_))
    )


def is_advanced(key):
    if not isinstance(key, tuple):
        return _is_array_key(key) or isinstance(key, _trace.Tracer)
    return builtins.any(
        _is_array_key(k) or isinstance(k, _trace.Tracer) for k in key
    )


# --- keys --------------------------------------------------------------------


class _Adv:
    """One advanced index: an int64 index array (NumPy on the host or a
    sluice array) for one axis; ``from_mask`` when it came from a boolean
    mask (its positions never repeat)."""

    __slots__ = ("index", "from_mask")

    def __init__(self, index, from_mask=False):
        self.index = index
        self.from_mask = from_mask


def _as_index(k, x):
    """A key entry as a NumPy or sluice array (bool or integer)."""
    Array = _array_type()
    if isinstance(k, Array):
        if k._queue_id != x._queue_id:
            from ._errors import ExecutionPlacementError, PLACEMENT_MESSAGE

            raise ExecutionPlacementError(
                f"{PLACEMENT_MESSAGE} The array is on {x.sycl_queue!r} and "
                f"the index on {k.sycl_queue!r}; migrate the index with "
                "to_device()."
            )
        a = k
    else:
        a = np.asarray(k)
        if a.dtype.kind not in "biu" and not (
            a.size == 0 and a.dtype.kind == "f"
        ):
            raise IndexError(
                "arrays used as indices must be of integer (or boolean) type"
            )
        if a.dtype.kind == "f":
            a = a.astype(np.int64)
    if a.dtype.kind not in "biu":
        raise IndexError(
            "arrays used as indices must be of integer (or boolean) type"
        )
    return a


def _nonzero_arrays(mask, shape):
    """Integer index arrays of the true positions of ``mask`` (NumPy or
    sluice), one per axis."""
    if isinstance(mask, np.ndarray):
        return [_Adv(i.astype(np.int64), True) for i in np.nonzero(mask)]
    from . import _ops

    flat = _k().flat_true_positions(
        _ops.reshape(mask, (-1,)) if mask.ndim != 1 else mask
    )
    return [_Adv(i, True) for i in unravel(flat, shape)]


def unravel(flat, shape):
    """Per-axis coordinates of flat C-order positions (device arrays)."""
    from . import _ops

    out = []
    rest = flat
    for d in reversed(shape[1:]):
        out.append(_ops.remainder(rest, d) if d else rest)
        rest = _ops.floor_divide(rest, d) if d else rest
    out.append(rest)
    return out[::-1]


def _parse(x, key):
    """(entries, advanced): entries are None, slice, int or _Adv in key
    order, covering every axis of x."""
    if not isinstance(key, tuple):
        key = (key,)
    entries = []
    axis = 0
    ndim = x.ndim
    ellipsis_at = None
    # First pass: convert, and count the axes used.
    conv = []
    for k in key:
        if k is None or isinstance(k, slice):
            conv.append(k)
        elif k is Ellipsis:
            if ellipsis_at is not None:
                raise IndexError(
                    "an index can only have a single ellipsis ('...')"
                )
            ellipsis_at = len(conv)
            conv.append(k)
        elif isinstance(k, (bool, np.bool_)):
            conv.append(("bool0", bool(k)))
        elif isinstance(k, _trace.Tracer):
            raise TracerError(
                "a traced index array cannot index a concrete array"
            )
        elif _is_array_key(k) or (
            hasattr(k, "shape") and not isinstance(k, np.generic)
        ):
            a = _as_index(k, x)
            if a.dtype.kind == "b" and a.ndim == 0:
                conv.append(("bool0", bool(a)))
            else:
                conv.append(a)
        else:
            try:
                conv.append(operator.index(k))
            except TypeError:
                raise IndexError(
                    "only integers, slices (`:`), ellipsis (`...`), "
                    "numpy.newaxis (`None`) and integer or boolean arrays "
                    f"are valid indices, not {type(k).__name__}"
                ) from None

    def used(c):
        if c is None or c is Ellipsis or isinstance(c, tuple):
            return 0
        if isinstance(c, (int, slice)):
            return 1
        return c.ndim if c.dtype.kind == "b" else 1

    total = builtins.sum(used(c) for c in conv)
    if total > ndim:
        raise IndexError(
            f"too many indices for array: array is "
            f"{ndim}-dimensional, but {total} were indexed"
        )
    if ellipsis_at is None:
        conv.append(Ellipsis)
        ellipsis_at = len(conv) - 1
    conv = (
        conv[:ellipsis_at]
        + [slice(None)] * (ndim - total)
        + conv[ellipsis_at + 1 :]
    )
    # Second pass: masks become index arrays; entries then map 1:1 onto
    # the axes of the view (None and bool0 make new axes).
    for c in conv:
        if c is None:
            entries.append(None)
        elif isinstance(c, tuple):  # a scalar boolean: a new axis indexed
            entries.append(
                ("newaxis", _Adv(np.zeros(int(c[1]), np.int64), True))
            )
        elif isinstance(c, (int, slice)):
            entries.append(c)
            axis += 1
        elif c.dtype.kind == "b":
            shape = tuple(x.shape[axis : axis + c.ndim])
            if tuple(c.shape) != shape:
                for i, (s, m) in enumerate(zip(shape, c.shape)):
                    if s != m:
                        raise IndexError(
                            f"boolean index did not match indexed array "
                            f"along axis {axis + i}; size of axis is {s} "
                            f"but size of corresponding boolean axis is {m}"
                        )
            entries.extend(_nonzero_arrays(c, shape))
            axis += c.ndim
        else:
            entries.append(_Adv(c))
            axis += 1
    return entries


def _normalized(adv, size, axis):
    """The index as int64 in [0, size), checked (IndexError)."""
    a = adv.index
    if isinstance(a, np.ndarray):
        a = a.astype(np.int64, copy=False)
        if a.size:
            bad = (a < -size) | (a >= size)
            if bad.any():
                v = int(a[bad].reshape(-1)[0])
                raise IndexError(
                    f"index {v} is out of bounds for axis "
                    f"{axis} with size {size}"
                )
        return np.where(a < 0, a + size, a)
    from . import _ops

    if adv.from_mask:
        return _k()._int64(a)
    a = _k()._int64(a)
    if a.size:
        lo, hi = int(_ops.min(a)), int(_ops.max(a))
        for v in (lo, hi):
            if not -size <= v < size:
                raise IndexError(
                    f"index {v} is out of bounds for axis "
                    f"{axis} with size {size}"
                )
        if lo < 0:
            a = _ops.where(_ops.less(a, 0), _ops.add(a, size), a)
    return a


def _plan(x, key):
    """The view, the advanced indices and the result's layout."""
    entries = _parse(x, key)
    basic = []
    adv = []  # (view axis, _Adv, key position)
    vaxis = 0
    for pos, e in enumerate(entries):
        if e is None:
            basic.append(None)
            vaxis += 1
        elif isinstance(e, tuple):  # a new axis, indexed by a bool
            basic.append(None)
            adv.append((vaxis, e[1], pos))
            vaxis += 1
        elif isinstance(e, _Adv):
            basic.append(slice(None))
            adv.append((vaxis, e, pos))
            vaxis += 1
        elif isinstance(e, int):
            # With arrays present, integers are advanced indices (0-d).
            basic.append(slice(None))
            adv.append((vaxis, _Adv(np.asarray(e, np.int64)), pos))
            vaxis += 1
        else:
            basic.append(e)
            vaxis += 1
    offset, vshape, vstrides = view_of(
        x.shape, x._strides, x._offset, tuple(basic)
    )
    return offset, vshape, vstrides, adv


def _flat_row_index(adv, vshape, like):
    """(row index of the broadcast shape, broadcast shape, adv sizes): the
    advanced indices combined into one C-order index over the indexed axes,
    on the host when every index is host data."""
    sizes = [vshape[a] for a, _, _ in adv]
    shapes = [tuple(e.index.shape) for _, e, _ in adv]
    try:
        bshape = tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise IndexError(
            "shape mismatch: indexing arrays could not be broadcast "
            "together with shapes " + " ".join(str(s) for s in shapes)
        ) from None
    norm = [_normalized(e, vshape[a], a) for a, e, _ in adv]
    if builtins.all(isinstance(n, np.ndarray) for n in norm):
        flat = np.zeros(bshape, np.int64)
        for n, s in zip(norm, sizes):
            flat = flat * s + n
        return flat.reshape(-1), bshape, sizes
    from . import _ops
    from ._array import _from_host

    norm = [
        _from_host(n, like._queue_id, like._usm_kind)
        if isinstance(n, np.ndarray)
        else n
        for n in norm
    ]
    flat = None
    for n, s in zip(norm, sizes):
        if flat is None:
            flat = n
        else:
            flat = _ops.add(_ops.multiply(flat, s), n)
    flat = (
        _ops.broadcast_to(flat, bshape)
        if tuple(flat.shape) != bshape
        else flat
    )
    return (
        _k()._contiguous(_ops.reshape(_k()._contiguous(flat), (-1,))),
        bshape,
        sizes,
    )


def _adjacent(adv):
    positions = [p for _, _, p in adv]
    return positions == list(range(positions[0], positions[0] + len(adv)))


def _host_small_keys(x, key):
    """The NumPy form of ``key`` (its sluice arrays as zero-copy views,
    which waits for their data) when x is a small array of a host queue and
    every array of the key is small and on x's queue; else None."""
    from ._array import Array
    from ._host_small import LIMIT, on_host

    if x.size > LIMIT or _trace.current() is not None:
        return None
    qid = x._queue_id
    if not on_host(qid):
        return None
    items = key if type(key) is tuple else (key,)
    keys = []
    for k in items:
        t = type(k)
        if t is Array:
            if k._queue_id != qid or k.size > LIMIT:
                return None
            keys.append(np.from_dlpack(k))
        elif (
            t in (int, slice, bool, np.ndarray, list)
            or k is None
            or (k is Ellipsis)
        ):
            keys.append(k)
        else:
            return None
    return tuple(keys)


def _host_small_getitem(x, key):
    """``x[key]`` through NumPy (see _host_small_keys); None when that does
    not apply."""
    from ._array import _from_host

    keys = _host_small_keys(x, key)
    if keys is None:
        return None
    r = np.from_dlpack(x)[keys]
    return _from_host(np.ascontiguousarray(r), x._queue_id, x._usm_kind)


def _host_small_setitem(x, key, value):
    """``x[key] = value`` through NumPy (see _host_small_keys) for a scalar,
    a NumPy array or a small array of x's queue; False when that does not
    apply. The view of x waits for every task that uses its memory."""
    from ._array import Array
    from ._host_small import LIMIT

    if type(value) is Array:
        if value._queue_id != x._queue_id or value.size > LIMIT:
            return False
    elif not isinstance(value, (bool, int, float, complex, np.generic)) and (
        type(value) is not np.ndarray
    ):
        return False
    keys = _host_small_keys(x, key)
    if keys is None:
        return False
    if type(value) is Array:
        value = np.from_dlpack(value)
    np.from_dlpack(x)[keys] = value
    return True


def getitem(x, key):
    from . import _ops

    r = _host_small_getitem(x, key)
    if r is not None:
        return r
    mask = _full_mask(x, key)
    if mask is not None and type(mask) is _array_type():
        from ._sorting import cooperative

        if mask._queue_id == x._queue_id and cooperative(x):
            # x[mask] with a mask of x's shape: the selected elements are
            # written by the compaction itself (no positions, no gather)
            return _k().compact(_flat1(mask), _flat1(x))

    offset, vshape, vstrides, adv = _plan(x, key)
    q = x
    flat, bshape, sizes = _flat_row_index(adv, vshape, x)
    adv_axes = [a for a, _, _ in adv]
    rest = [i for i in range(len(vshape)) if i not in adv_axes]
    perm = adv_axes + rest
    view = x._view(
        offset, [vshape[i] for i in perm], [vstrides[i] for i in perm]
    )
    rows = int(np.prod(sizes, dtype=np.int64))
    rest_shape = [vshape[i] for i in rest]
    cols = int(np.prod(rest_shape, dtype=np.int64))
    src = _k()._contiguous(view)
    src2d = src._view(src._offset, [rows, cols], [cols, 1])
    if isinstance(flat, np.ndarray):
        from ._array import _from_host

        flat = _from_host(flat, q._queue_id, q._usm_kind)
    out2d = _k().gather_rows(src2d, flat)
    out = _ops.reshape(out2d, tuple(bshape) + tuple(rest_shape))
    if _adjacent(adv):
        # The index axes go where the first indexed axis was.
        first = adv_axes[0]
        before = builtins.sum(1 for i in rest if i < first)
        nb = len(bshape)
        order = (
            list(range(nb, nb + before))
            + list(range(nb))
            + list(range(nb + before, out.ndim))
        )
        if order != list(range(out.ndim)):
            out = out._view(
                out._offset,
                [out.shape[i] for i in order],
                [out._strides[i] for i in order],
            )
    return out


def _flat1(a):
    """a as a contiguous 1-d array (a view when it is contiguous)."""
    a = _k()._contiguous(a)
    return a if a.ndim == 1 else a._view(a._offset, [a.size], [1])


def _full_mask(x, key):
    """The mask when ``key`` is one boolean array of x's shape."""
    Array = _array_type()
    k = key[0] if isinstance(key, tuple) and len(key) == 1 else key
    if (
        isinstance(k, (Array, np.ndarray))
        and k.dtype == np.bool_
        and tuple(k.shape) == tuple(x.shape)
        and x.ndim > 0
    ):
        return k
    return None


def setitem(x, key, value):
    from . import _ops
    from ._array import Array, _from_host

    if x._readonly:
        raise ValueError("assignment destination is read-only")
    if isinstance(value, (_trace.Tracer, _trace.ScalarTracer)):
        raise TracerError(
            "a traced value cannot be stored into a concrete "
            "array inside @sluice.jit"
        )
    if _host_small_setitem(x, key, value):
        return
    mask = _full_mask(x, key)
    scalar = isinstance(value, (bool, int, float, np.generic)) or (
        isinstance(value, (Array, np.ndarray)) and value.ndim == 0
    )
    if mask is not None and scalar:
        if isinstance(mask, np.ndarray):
            mask = _from_host(mask, x._queue_id, x._usm_kind)
        v = value if not isinstance(value, np.ndarray) else value[()]
        if isinstance(v, Array):
            v = _ops.astype(v, x.dtype)
        else:
            v = np.asarray(v).astype(x.dtype)[()]
        x[...] = _ops.where(mask, v, x)
        return
    pos = _positions(x)
    p = pos[key]
    if not isinstance(p, Array):
        p = _from_host(np.asarray(p), x._queue_id, x._usm_kind)
    shape = tuple(p.shape)
    if isinstance(value, Array):
        if value._queue_id != x._queue_id:
            from ._errors import ExecutionPlacementError, PLACEMENT_MESSAGE

            raise ExecutionPlacementError(
                f"{PLACEMENT_MESSAGE} The target is on {x.sycl_queue!r} and "
                f"the value on {value.sycl_queue!r}; migrate the value with "
                "to_device()."
            )
        v = value if value.dtype == x.dtype else _ops.astype(value, x.dtype)
    else:
        try:
            host = np.asarray(value)
            if host.dtype.kind in "OUSV":
                raise TypeError(host.dtype)
            host = host.astype(x.dtype)
        except (TypeError, ValueError) as e:
            raise TypeError(
                f"cannot assign {type(value).__name__} to a sluice.Array: {e}"
            ) from None
        v = _from_host(host, x._queue_id, x._usm_kind)
    if tuple(v.shape) != shape:
        try:
            ok = tuple(np.broadcast_shapes(tuple(v.shape), shape)) == shape
        except ValueError:
            ok = False
        if not ok:
            raise ValueError(
                f"shape mismatch: value array of shape {tuple(v.shape)} "
                f"could not be broadcast to indexing result of shape "
                f"{shape}"
            )
        v = _ops.broadcast_to(v, shape)
    n = int(np.prod(shape, dtype=np.int64))
    if n == 0:
        return
    p1 = _ops.reshape(_k()._contiguous(p), (n,))
    v1 = _ops.reshape(_k()._contiguous(v), (n,))
    in_order = _may_repeat(x, key)
    if x._c_contiguous:
        _k().scatter(x._view(x._offset, [x.size], [1]), p1, v1, in_order)
    else:
        tmp = x._contiguous(x._queue_id, x._usm_kind, True)
        _k().scatter(tmp._view(tmp._offset, [tmp.size], [1]), p1, v1, in_order)
        x[...] = tmp


def _may_repeat(x, key):
    """Whether the positions ``key`` selects can repeat: only integer index
    arrays repeat positions (masks, slices and integers never do)."""
    Array = _array_type()
    keys = key if isinstance(key, tuple) else (key,)
    arrays = []
    for k in keys:
        if isinstance(k, (Array, np.ndarray, list)):
            dt = (
                k.dtype
                if isinstance(k, (Array, np.ndarray))
                else np.asarray(k).dtype
            )
            if dt.kind != "b":
                arrays.append(k)
    if not arrays:
        return False
    if len(arrays) == 1 and not isinstance(arrays[0], Array):
        a = np.asarray(arrays[0]).reshape(-1)
        if a.size and (a < 0).any() and (a >= 0).any():
            return True
        return a.size > 1 and np.unique(a).size != a.size
    return builtins.any(
        int(np.prod(np.shape(a) if not isinstance(a, Array) else a.shape)) > 1
        for a in arrays
    )


def _positions(x):
    """An int64 array of x's shape holding each element's C-order flat
    position (what ``x[key]`` selects, ``positions[key]`` locates)."""
    from ._creation import arange
    from . import _ops

    a = arange(
        x.size, dtype=np.int64, sycl_queue=x.sycl_queue, usm_type=x.usm_type
    )
    return _ops.reshape(a, tuple(x.shape))
