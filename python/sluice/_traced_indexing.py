"""Indexing traced arrays (inside ``@sluice.jit``).

``x[key]`` of a Tracer: ``:``, ``...`` and None are a reshape; integers and
slices with any step are a ``usm.strided_view`` of the flat array, which
elementwise consumers read in place (fused with them); integer arrays are a
``usm.gather`` whose flat indices are computed elementwise; a boolean mask of
``x``'s shape is a MaskedSelection, which elementwise arithmetic keeps and
``x[mask] = ...`` assigns back through a ``where``. ``x[key] = value`` gives
the Tracer the updated array (value semantics): a ``usm.strided_insert`` for
basic keys, a ``usm.scatter`` for integer arrays, both done in place when the
old value is dead. Traced index arrays are checked after the call (see
``check_bounds``)."""

import operator

import numpy as np

from . import _dispatch, _ir, _ops
from ._advanced_indexing import is_advanced
from ._creation import arange, full
from ._errors import TracerError
from ._indexing import _expand, _is_reshape, view_of
from ._trace import ScalarTracer, Tracer


def traced_getitem(x, key):
    """Indexing a traced array (inside ``@sluice.jit``): ``:``, ``...`` and
    None are a reshape; integers and slices with any step a strided view
    (a gather where a size is not static); integer arrays are a
    ``usm.gather`` whose flat indices are computed elementwise; boolean
    masks of x's shape select for elementwise use (MaskedSelection)."""
    mask = _whole_mask(x, key)
    if mask is not None:
        return MaskedSelection(x, mask)
    if is_advanced(key):
        return _traced_advanced_getitem(x, key)
    if _is_reshape(key, x.ndim):
        k = _expand(key, x.ndim)
        shape = []
        axis = 0
        for part in k:
            if part is None:
                shape.append(1)
            else:
                shape.append(x.shape[axis])
                axis += 1
        return _ops.reshape(x, tuple(shape))
    offset, shape, strides = view_of(
        tuple(x.shape), _ops.c_strides(x.shape), 0, key
    )
    if _static(x.shape) and int(np.prod(shape, dtype=np.int64)) > 0:
        return strided_view(x, offset, shape, strides)
    return gather(x, _flat_positions(x, offset, shape, strides))


def _static(shape):
    return all(isinstance(d, (int, np.integer)) and d >= 0 for d in shape)


def strided_view(x, offset, shape, strides):
    """The basic slice of ``x`` at element ``offset`` of its C-order flat
    form with ``shape`` and element ``strides`` (a usm.strided_view of the
    flat array): elementwise consumers read it in place and fuse with it;
    any other consumer reads a contiguous copy."""
    size = int(np.prod(x.shape, dtype=np.int64))
    flat = x if x.ndim == 1 else _ops.reshape(x, (size,))
    o = _dispatch._operand(flat)
    qid, kind = _dispatch._placement([o])

    def emit(fb, vals):
        (base,) = vals
        rt = base.type.with_(shape=tuple(shape))
        idx = [_ir.index_constant(fb, v) for v in (offset, *shape, *strides)]
        nd = len(shape)
        sizes = ", ".join(v.name for v in idx[1 : 1 + nd])
        steps = ", ".join(v.name for v in idx[1 + nd :])
        return [
            fb.op(
                f"usm.strided_view {base.name}[{idx[0].name}] "
                f"sizes({sizes}) strides({steps}) : "
                f"{base.type.text()} -> {rt.text()}",
                rt,
            )
        ]

    return _dispatch._single(
        _dispatch._execute(
            ("strided_view",), [o], [None], emit, [tuple(shape)], qid, o.usm
        )
    )


def _whole_mask(x, key):
    """The mask when ``key`` is one boolean array of ``x``'s shape."""
    k = key[0] if isinstance(key, tuple) and len(key) == 1 else key
    if (
        hasattr(k, "dtype")
        and hasattr(k, "shape")
        and np.dtype(k.dtype) == np.bool_
        and tuple(k.shape) == tuple(x.shape)
        and len(x.shape)
    ):
        return k
    return None


def _masked_error():
    return TracerError(
        "x[mask] inside @sluice.jit: its size depends on the data, so it "
        "can only be computed on elementwise and assigned back through the "
        "same mask (x[mask] += 1, x[mask] = x[mask] * 2); use "
        "sluice.where(mask, a, b) otherwise"
    )


class MaskedSelection:
    """``x[mask]`` inside ``@sluice.jit``: the elements of ``x`` where
    ``mask`` is true, kept as the whole array. Elementwise arithmetic with
    scalars or selections of the same mask stays a selection, and
    ``x[mask] = selection`` is ``where(mask, selection, x)``; anything
    else raises TracerError."""

    __slots__ = ("full", "mask")

    def __init__(self, full, mask):
        self.full = full
        self.mask = mask

    def _other(self, o):
        if isinstance(o, MaskedSelection):
            if o.mask is not self.mask:
                raise _masked_error()
            return o.full
        if hasattr(o, "shape") and tuple(o.shape) not in ((), (1,)):
            raise _masked_error()
        return o

    def _op(self, name, o=None, reflected=False):
        fn = getattr(_ops, name)
        if o is None:
            return MaskedSelection(fn(self.full), self.mask)
        o = self._other(o)
        r = fn(o, self.full) if reflected else fn(self.full, o)
        return MaskedSelection(r, self.mask)

    def __getattr__(self, name):
        raise _masked_error()

    def __array__(self, *args, **kwargs):
        raise _masked_error()


def _masked_dunders():
    names = {
        "add": "add",
        "sub": "subtract",
        "mul": "multiply",
        "truediv": "divide",
        "floordiv": "floor_divide",
        "mod": "remainder",
        "pow": "power",
    }
    for short, name in names.items():
        setattr(
            MaskedSelection,
            f"__{short}__",
            lambda self, o, n=name: self._op(n, o),
        )
        setattr(
            MaskedSelection,
            f"__r{short}__",
            lambda self, o, n=name: self._op(n, o, True),
        )
        setattr(
            MaskedSelection,
            f"__i{short}__",
            lambda self, o, n=name: self._op(n, o),
        )
    MaskedSelection.__neg__ = lambda self: self._op("negative")
    MaskedSelection.__abs__ = lambda self: self._op("absolute")


_masked_dunders()


def _idt(x):
    """The dtype of x's flat positions: int32 while they fit (half the
    traffic of int64 index arrays), else int64."""
    return (
        np.int32 if int(np.prod(x.shape, dtype=np.int64)) < 2**31 else np.int64
    )


def _axis_term(x, n, stride, axis, ndim):
    """``arange(n) * stride`` along ``axis`` of an ``ndim``-d shape."""
    a = arange(n, dtype=_idt(x), sycl_queue=x.sycl_queue, usm_type=x.usm_type)
    if stride != 1:
        a = _ops.multiply(a, stride)
    shape = [1] * ndim
    shape[axis] = n
    return _ops.reshape(a, tuple(shape))


def _flat_positions(x, offset, shape, strides):
    """The int64 array of ``shape`` holding ``offset + sum(i_k * s_k)``."""
    nd = len(shape)
    pos = None
    for axis, (n, st) in enumerate(zip(shape, strides)):
        if n <= 1 or st == 0:
            continue
        t = _axis_term(x, n, st, axis, nd)
        pos = t if pos is None else _ops.add(pos, t)
    if pos is None:
        return full(
            tuple(shape),
            offset,
            dtype=_idt(x),
            sycl_queue=x.sycl_queue,
            usm_type=x.usm_type,
        )
    if offset:
        pos = _ops.add(pos, offset)
    if tuple(pos.shape) != tuple(shape):
        pos = _ops.broadcast_to(pos, tuple(shape))
    return pos


def gather(x, positions):
    """``x.flat[positions]`` (usm.gather; positions int64, in range)."""
    o, p = _dispatch._operand(x), _dispatch._operand(positions)
    qid, kind = _dispatch._placement([o, p])

    def emit(fb, vals):
        src, idx = vals
        rt = src.type.with_(shape=idx.type.shape)
        return [
            fb.op(
                f"usm.gather {src.name}[{idx.name}] : "
                f"{src.type.text()}, {idx.type.text()} -> "
                f"{rt.text()}",
                rt,
            )
        ]

    return _dispatch._single(
        _dispatch._execute(
            ("gather",),
            [o, p],
            [None, None],
            emit,
            [tuple(p.shape)],
            qid,
            o.usm,
        )
    )


def _has_mask(key):
    keys = key if isinstance(key, tuple) else (key,)
    return any(
        isinstance(k, (bool, np.bool_))
        or (hasattr(k, "dtype") and np.dtype(k.dtype) == np.bool_)
        or (isinstance(k, list) and np.asarray(k).dtype == np.bool_)
        for k in keys
    )


def _traced_advanced_getitem(x, key):
    """Integer arrays (traced or NumPy) mixed with basic indices, inside
    ``@sluice.jit``: a gather at the flat positions of the selection."""
    return gather(x, _advanced_positions(x, key))


def _advanced_positions(x, key):
    """The flat positions in x of ``x[key]``, a key of integer arrays
    (traced or NumPy) mixed with basic indices, laid out as NumPy lays
    out the selection; traced index arrays get bounds checks."""
    keys = key if isinstance(key, tuple) else (key,)
    if _has_mask(keys):
        raise TracerError(
            "boolean mask indexing inside @sluice.jit: the result's size "
            "depends on the data; use sluice.where(mask, a, b), or "
            "assign through the mask (x[mask] = value)"
        )
    conv = []
    for k in keys:
        if isinstance(k, list):
            k = np.asarray(k)
        conv.append(k)
    # Replace the arrays by full slices to find the basic part.
    ndim = x.ndim
    used = sum(1 for k in conv if k is not None and k is not Ellipsis)
    if used > ndim:
        raise IndexError(
            f"too many indices for array: array is "
            f"{ndim}-dimensional, but {used} were indexed"
        )
    if Ellipsis in [k for k in conv if not hasattr(k, "shape")]:
        i = [j for j, k in enumerate(conv) if k is Ellipsis][0]
        conv = conv[:i] + [slice(None)] * (ndim - used) + conv[i + 1 :]
    else:
        conv = conv + [slice(None)] * (ndim - used)
    strides = _ops.c_strides(x.shape)
    adv = []  # (key position, axis size, stride, index array)
    basic = []  # (out size, stride) of slices and None, in order
    first_adv_out = None
    offset = 0
    axis = 0
    for pos, k in enumerate(conv):
        if k is None:
            basic.append((1, 0))
            continue
        n, st = x.shape[axis], strides[axis]
        axis += 1
        if isinstance(k, slice):
            start, stop, step = k.indices(n)
            basic.append((len(range(start, stop, step)), st * step))
            offset += start * st
            continue
        if isinstance(k, Tracer) or hasattr(k, "shape"):
            if np.dtype(k.dtype).kind not in "iu":
                raise IndexError(
                    "arrays used as indices must be of integer "
                    "(or boolean) type"
                )
            if isinstance(k, Tracer):
                check_bounds(k, n, axis - 1)
            if (
                isinstance(k, np.ndarray)
                and k.size
                and ((k < -n).any() or (k >= n).any())
            ):
                v = int(k[(k < -n) | (k >= n)].reshape(-1)[0])
                raise IndexError(
                    f"index {v} is out of bounds for axis "
                    f"{axis - 1} with size {n}"
                )
        else:
            k = operator.index(k)
            if not -n <= k < n:
                raise IndexError(
                    f"index {k} is out of bounds for axis "
                    f"{axis - 1} with size {n}"
                )
        if first_adv_out is None:
            first_adv_out = len(basic)
        adv.append((pos, n, st, k))
    shapes = [
        tuple(np.shape(k)) if not isinstance(k, Tracer) else tuple(k.shape)
        for _, _, _, k in adv
    ]
    try:
        bshape = tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise IndexError(
            "shape mismatch: indexing arrays could not be "
            "broadcast together with shapes "
            + " ".join(str(s) for s in shapes)
        ) from None
    positions = [p for p, _, _, _ in adv]
    adjacent = positions == list(
        range(positions[0], positions[0] + len(positions))
    )
    at = first_adv_out if adjacent else 0
    nb = len(bshape)
    out_shape = (
        [d for d, _ in basic[:at]] + list(bshape) + [d for d, _ in basic[at:]]
    )
    nd = len(out_shape)
    total = None
    for i, (d, st) in enumerate(basic):
        if d <= 1 or st == 0:
            continue
        axis_out = i if i < at else i + nb
        t = _axis_term(x, d, st, axis_out, nd)
        total = t if total is None else _ops.add(total, t)
    for _, n, st, k in adv:
        if isinstance(k, int):
            offset += (k % n) * st
            continue
        k = (
            _ops.astype(k, np.int64)
            if not isinstance(k, np.ndarray)
            else np.where(k < 0, k + n, k).astype(_idt(x))
        )
        if not isinstance(k, np.ndarray):
            k = _ops.where(_ops.less(k, 0), _ops.add(k, n), k)
        if st != 1:
            k = k * st if isinstance(k, np.ndarray) else _ops.multiply(k, st)
        shape = (
            [1] * at
            + list((1,) * (nb - len(np.shape(k))) + tuple(np.shape(k)))
            + [1] * (nd - at - nb)
        )
        if isinstance(k, np.ndarray):
            k = _const(x, k.reshape(shape).astype(_idt(x)))
        else:
            k = _ops.reshape(k, tuple(shape))
        total = k if total is None else _ops.add(total, k)
    if total is None:
        total = full(
            tuple(out_shape),
            offset,
            dtype=_idt(x),
            sycl_queue=x.sycl_queue,
            usm_type=x.usm_type,
        )
    else:
        if offset:
            total = _ops.add(total, offset)
        if tuple(total.shape) != tuple(out_shape):
            total = _ops.broadcast_to(total, tuple(out_shape))
    return total


def check_bounds(k, n, axis):
    """Records that the traced index array ``k`` must lie in ``[-n, n)``
    along ``axis``: its minimum and maximum become hidden results of the
    program, which the jitted function reads after the call and turns
    into NumPy's IndexError (see _jit_kernels.check_indices). Inside the
    program the gather clamps, so an out-of-range index never reads
    outside the array."""
    if not _static(k.shape) or int(np.prod(k.shape, dtype=np.int64)) == 0:
        return
    tr = k._trace
    known = getattr(tr, "in_range", {}).get(id(k._v))
    if known is not None and known[0] is k._v and known[1] <= n:
        return
    checks = getattr(tr, "index_checks", None)
    if checks is None:
        checks = tr.index_checks = []
    checks.append((_ops.min(k), _ops.max(k), int(n), int(axis)))


def mark_in_range(k, n):
    """Notes that the traced index array ``k`` lies in ``[0, n)`` by
    construction (clipped or wrapped), so indexing with it needs no
    bounds check."""
    tr = k._trace
    if not hasattr(tr, "in_range"):
        tr.in_range = {}
    tr.in_range[id(k._v)] = (k._v, int(n))


def _traced_zero(x, dtype=None):
    return full(
        (),
        0,
        dtype=dtype or _idt(x),
        sycl_queue=x.sycl_queue,
        usm_type=x.usm_type,
    )


def _const(x, arr):
    """A traced array on x's queue with the values of NumPy array ``arr``
    (integers; booleans through their int values)."""
    if arr.dtype == np.bool_:
        return _ops.not_equal(_const(x, arr.astype(_idt(x))), 0)
    zero = full(
        arr.shape,
        0,
        dtype=arr.dtype,
        sycl_queue=x.sycl_queue,
        usm_type=x.usm_type,
    )
    return _ops.add(zero, arr)


def _strided_insert(x, key, value, rshape):
    """``x`` with the basic slice ``x[key]`` (of shape ``rshape``, static)
    replaced by ``value`` converted and broadcast to it: a
    usm.strided_insert, which the compiler lowers in place when x's old
    value is dead after it."""
    offset, shape, strides = view_of(
        tuple(x.shape), _ops.c_strides(x.shape), 0, key
    )
    v = _value_array(x, value, shape)
    o, d = _dispatch._operand(v), _dispatch._operand(x)
    qid, kind = _dispatch._placement([o, d])

    def emit(fb, vals):
        val, dest = vals
        idx = [_ir.index_constant(fb, i) for i in (offset, *shape, *strides)]
        nd = len(shape)
        sizes = ", ".join(i.name for i in idx[1 : 1 + nd])
        steps = ", ".join(i.name for i in idx[1 + nd :])
        return [
            fb.op(
                f"usm.strided_insert {val.name} into {dest.name}"
                f"[{idx[0].name}] sizes({sizes}) strides({steps}) : "
                f"{val.type.text()}, {dest.type.text()}",
                dest.type,
            )
        ]

    return _dispatch._single(
        _dispatch._execute(
            ("strided_insert",),
            [o, d],
            [None, None],
            emit,
            [tuple(x.shape)],
            qid,
            d.usm,
        )
    )


def _assign_copy(x, value, *key):
    """The step behind ``x[key] = value`` with index arrays inside
    ``@sluice.jit``: x's new value, assigned eagerly into a copy (NumPy's
    checks and order: out-of-range indices raise IndexError, and where
    positions repeat the last value wins)."""
    y = x.copy()
    y[key] = value
    return y


def _advanced_assign(x, key, value):
    """``x[key] = value`` with integer index arrays (traced or NumPy)
    inside ``@sluice.jit``: a usm.scatter of the value, broadcast and
    converted, at the selection's flat positions (updated in place when
    x's old value is dead). Keys that mix boolean arrays with others are
    a step of the traced function (sluice._jit_kernels.call) that runs
    the eager assignment on a copy of x when the function is called."""
    keys = key if isinstance(key, tuple) else (key,)
    if _has_mask(keys):
        from . import _jit_kernels

        (new,) = _jit_kernels.call(
            x._trace, _assign_copy, [x, value, *keys], {}, [x._v.type]
        )
        x._v = new._v
        return
    positions = _advanced_positions(x, key)
    shape = tuple(positions.shape)
    if isinstance(value, (Tracer, np.ndarray)) or hasattr(value, "shape"):
        vshape = tuple(value.shape)
        try:
            ok = np.broadcast_shapes(vshape, shape) == shape
        except ValueError:
            ok = False
        if not ok:
            raise ValueError(
                f"shape mismatch: value array of shape {vshape} could not "
                f"be broadcast to indexing result of shape {shape}"
            )
    if int(np.prod(shape, dtype=np.int64)) == 0:
        return
    x._v = scatter(x, positions, _value_array(x, value, shape))._v


def _value_array(x, value, shape):
    """``value`` (an array or a scalar) converted to x's dtype and
    broadcast to ``shape``."""
    if isinstance(value, (Tracer, np.ndarray)) or hasattr(value, "shape"):
        v = _ops.astype(value, x.dtype) if value.dtype != x.dtype else value
        if tuple(v.shape) != tuple(shape):
            v = _ops.broadcast_to(v, tuple(shape))
        return v
    return _scalar_array(x, value, shape)


def _scalar_array(x, value, shape):
    """An array of ``shape`` and x's dtype filled with the scalar
    ``value``, a Python or NumPy scalar or a traced scalar."""
    if isinstance(value, ScalarTracer):
        zero = full(
            shape,
            0,
            dtype=x.dtype,
            sycl_queue=x.sycl_queue,
            usm_type=x.usm_type,
        )
        v = _ops.where(True, value, zero)
        return _ops.astype(v, x.dtype) if v.dtype != x.dtype else v
    return full(
        shape,
        np.asarray(value).astype(x.dtype)[()],
        dtype=x.dtype,
        sycl_queue=x.sycl_queue,
        usm_type=x.usm_type,
    )


def scatter(x, positions, value):
    """x with ``x.flat[positions] = value`` (usm.scatter; value and
    positions of one shape, positions in range)."""
    o, d, p = (
        _dispatch._operand(value),
        _dispatch._operand(x),
        _dispatch._operand(positions),
    )
    qid, kind = _dispatch._placement([o, d, p])

    def emit(fb, vals):
        val, dest, pos = vals
        return [
            fb.op(
                f"usm.scatter {val.name} into {dest.name}[{pos.name}] : "
                f"{val.type.text()}, {pos.type.text()}, {dest.type.text()}",
                dest.type,
            )
        ]

    return _dispatch._single(
        _dispatch._execute(
            ("scatter",),
            [o, d, p],
            [None, None, None],
            emit,
            [tuple(x.shape)],
            qid,
            d.usm,
        )
    )


def traced_setitem(x, key, value):
    """``x[key] = value`` inside ``@sluice.jit``: the Tracer ``x`` is
    rebound to a new array value: for basic keys of static shapes a
    usm.strided_insert, which the compiler updates in place when the old
    value is dead; otherwise a ``where`` over a gather of the value.
    Integers, slices (any step), ``...`` and None, and boolean masks of x's
    shape with a scalar value, and integer index arrays (a usm.scatter)
    are values in the program; keys that mix boolean arrays with others
    are a step that assigns eagerly into a copy."""
    mask = _whole_mask(x, key)
    if isinstance(value, MaskedSelection):
        if mask is None or value.mask is not mask:
            raise _masked_error()
        value = value.full
        new = _ops.where(mask, value, x)
        if new.dtype != x.dtype:
            new = _ops.astype(new, x.dtype)
        x._v = new._v
        return
    if is_advanced(key):
        if mask is not None:
            if hasattr(value, "shape") and int(np.prod(value.shape)) != 1:
                raise TracerError(
                    "x[mask] = array inside @sluice.jit: the number of "
                    "selected elements depends on the data; assign a scalar "
                    "or use sluice.where(mask, values, x)"
                )
            v = (
                value
                if not hasattr(value, "shape") or not value.shape
                else _ops.reshape(value, ())
            )
            new = _ops.where(
                mask,
                _ops.astype(v, x.dtype) if isinstance(v, Tracer) else v,
                x,
            )
            if new.dtype != x.dtype:
                new = _ops.astype(new, x.dtype)
            x._v = new._v
            return
        _advanced_assign(x, key, value)
        return
    k = _expand(key, x.ndim)
    nd = x.ndim
    # The region's shape (as x[key] has it) and, per axis of x, which
    # coordinates it covers and where they come from.
    rshape = []
    conds = []  # per axis of x: (axis, bool array of n) or None
    sources = []  # (axis of x, coordinate array of n, axis in rshape)
    axis = 0
    for part in k:
        if part is None:
            rshape.append(1)
            continue
        n = x.shape[axis]
        c = np.arange(n)
        if isinstance(part, slice):
            start, stop, step = part.indices(n)
            length = len(range(start, stop, step))
            t = c - start
            inside = (t % step == 0) & (t // step >= 0) & (t // step < length)
            conds.append((axis, inside))
            sources.append(
                (axis, np.clip(t // step, 0, max(length - 1, 0)), len(rshape))
            )
            rshape.append(length)
        else:
            i = operator.index(part)
            if not -n <= i < n:
                raise IndexError(
                    f"index {i} is out of bounds for axis {axis} with size {n}"
                )
            conds.append((axis, c == i % n))
        axis += 1
    if isinstance(value, Tracer) or hasattr(value, "shape"):
        vshape = tuple(value.shape)
    else:
        vshape = ()
    try:
        ok = tuple(np.broadcast_shapes(vshape, tuple(rshape))) == tuple(rshape)
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(
            f"could not broadcast input array from shape "
            f"{vshape} into shape {tuple(rshape)}"
        )
    if int(np.prod(rshape, dtype=np.int64)) == 0:
        return
    if _static(x.shape) and _static(vshape):
        x._v = _strided_insert(x, key, value, rshape)._v
        return
    full_cover = all(c.all() for _, c in conds)
    if not isinstance(value, (Tracer, np.ndarray)) and not hasattr(
        value, "shape"
    ):
        v = np.asarray(value).astype(x.dtype)[()]
        vsrc = None
    else:
        vv = _ops.astype(value, x.dtype) if value.dtype != x.dtype else value
        if tuple(vv.shape) != tuple(rshape):
            vv = _ops.broadcast_to(vv, tuple(rshape))
        vsrc = vv
    if vsrc is not None:
        rstr = _ops.c_strides(rshape)
        idx = None
        for ax, coords, rax in sources:
            if rshape[rax] <= 1:
                continue
            shape = [1] * nd
            shape[ax] = x.shape[ax]
            term = _const(
                x, (coords * rstr[rax]).reshape(shape).astype(_idt(x))
            )
            idx = term if idx is None else _ops.add(idx, term)
        if idx is None:
            idx = full(
                tuple(x.shape),
                0,
                dtype=_idt(x),
                sycl_queue=x.sycl_queue,
                usm_type=x.usm_type,
            )
        if tuple(idx.shape) != tuple(x.shape):
            idx = _ops.broadcast_to(idx, tuple(x.shape))
        v = gather(vsrc, idx)
    if full_cover:
        new = _ops.where(True, v, x)
    else:
        mask = None
        for ax, c in conds:
            if c.all():
                continue
            shape = [1] * nd
            shape[ax] = x.shape[ax]
            m = _const(x, c.reshape(shape))
            mask = m if mask is None else _ops.logical_and(mask, m)
        new = _ops.where(mask, v, x)
    if new.dtype != x.dtype:
        new = _ops.astype(new, x.dtype)
    x._v = new._v
