"""Array manipulation with NumPy's semantics: joining, splitting, flipping,
rolling, tiling, padding, triangles and diagonals.

Every function is written with indexing (slices give views; index arrays
gather on the device), assignment into slices, ``where`` and the shape
operations, so each runs on the queue of its inputs and nothing goes
through the host. Errors are NumPy's (ValueError, AxisError, TypeError).
"""

import builtins
import operator

import numpy as np

from . import _dtypes, _trace
from ._ops import AxisError, _normalize_axes


def _ops():
    from . import _ops as ops

    return ops


def _is_usm(x):
    from ._array import Array

    return isinstance(x, (Array, _trace.Tracer))


def _usm(x, like=None):
    """``x`` as a sluice array (host data goes to ``like``'s queue, else
    the default device)."""
    if _is_usm(x):
        return x
    from ._creation import asarray

    if like is not None:
        return asarray(x, sycl_queue=like.sycl_queue, usm_type=like.usm_type)
    return asarray(x)


def _first_usm(xs):
    for x in xs:
        if _is_usm(x):
            return x
    return None


def _axis(axis, ndim):
    return _normalize_axes(axis, ndim)[0]


def _axes_in_order(axis, ndim):
    """Normalised axes in the order given (AxisError, duplicates
    ValueError)."""
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    _normalize_axes(axes, ndim)
    return tuple(operator.index(a) % ndim for a in axes)


def _empty(shape, dtype, like):
    from ._creation import empty

    return empty(
        tuple(shape),
        dtype=dtype,
        sycl_queue=like.sycl_queue,
        usm_type=like.usm_type,
    )


def _full(shape, value, dtype, like):
    from ._creation import full

    return full(
        tuple(shape),
        value,
        dtype=dtype,
        sycl_queue=like.sycl_queue,
        usm_type=like.usm_type,
    )


def _index(axis, ndim, part):
    return (slice(None),) * axis + (part,) + (slice(None),) * (ndim - axis - 1)


# --- joining -----------------------------------------------------------------


def concatenate(
    arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"
):
    """Joins arrays along an existing axis (``axis=None``: flattened)."""
    arrays = list(arrays)
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    like = _first_usm(arrays)
    arrays = [_usm(a, like) for a in arrays]
    from ._dispatch import _operand, _placement

    _placement([_operand(a) for a in arrays])
    if axis is None:
        arrays = [ravel(a) for a in arrays]
        axis = 0
    nd = arrays[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    for i, a in enumerate(arrays):
        if a.ndim != nd:
            raise ValueError(
                "all the input array dimensions except for the concatenation "
                f"axis must match exactly, but along dimension 0, the array "
                f"at index 0 has {nd} dimension(s) and the array at index {i} "
                f"has {a.ndim} dimension(s)"
            )
    axis = _axis(axis, nd)
    shape = list(arrays[0].shape)
    for i, a in enumerate(arrays[1:], 1):
        for d in range(nd):
            if d != axis and a.shape[d] != shape[d]:
                raise ValueError(
                    "all the input array dimensions except for the "
                    "concatenation axis must match exactly, but along "
                    f"dimension {d}, the array at index 0 has size "
                    f"{shape[d]} and the array at index {i} has size "
                    f"{a.shape[d]}"
                )
    shape[axis] = builtins.sum(a.shape[axis] for a in arrays)
    rt = (
        np.result_type(*[a.dtype for a in arrays])
        if dtype is None
        else _dtypes.to_dtype(dtype)
    )
    for a in arrays:
        if not np.can_cast(a.dtype, rt, casting):
            raise TypeError(
                f"Cannot cast array data from {a.dtype!r} to "
                f"{np.dtype(rt)!r} according to the rule "
                f"{casting!r}"
            )
    rt = _dtypes.to_dtype(rt)
    if out is not None:
        if tuple(out.shape) != tuple(shape):
            raise ValueError("Output array has wrong dimensionality")
        r = out
    else:
        r = _empty(shape, rt, arrays[0])
    start = 0
    for a in arrays:
        n = a.shape[axis]
        if n:
            r[_index(axis, nd, slice(start, start + n))] = a
        start += n
    return r


def concat(arrays, /, *, axis=0):
    """The Array API's name of ``concatenate``."""
    return concatenate(arrays, axis=axis)


def stack(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    arrays = list(arrays)
    if not arrays:
        raise ValueError("need at least one array to stack")
    like = _first_usm(arrays)
    arrays = [_usm(a, like) for a in arrays]
    shapes = {tuple(a.shape) for a in arrays}
    if len(shapes) != 1:
        raise ValueError("all input arrays must have the same shape")
    nd = arrays[0].ndim + 1
    axis = _axis(axis, nd)
    return concatenate(
        [_ops().expand_dims(a, axis) for a in arrays],
        axis=axis,
        out=out,
        dtype=dtype,
        casting=casting,
    )


def hstack(tup, *, dtype=None, casting="same_kind"):
    arrs = atleast_1d(*tup)
    arrs = arrs if isinstance(arrs, list) else [arrs]
    axis = 0 if arrs and arrs[0].ndim == 1 else 1
    return concatenate(arrs, axis=axis, dtype=dtype, casting=casting)


def vstack(tup, *, dtype=None, casting="same_kind"):
    arrs = atleast_2d(*tup)
    arrs = arrs if isinstance(arrs, list) else [arrs]
    return concatenate(arrs, axis=0, dtype=dtype, casting=casting)


row_stack = vstack


def dstack(tup):
    arrs = atleast_3d(*tup)
    arrs = arrs if isinstance(arrs, list) else [arrs]
    return concatenate(arrs, axis=2)


def column_stack(tup):
    like = _first_usm(list(tup))
    arrs = []
    for a in tup:
        a = _usm(a, like)
        if a.ndim < 2:
            a = _ops().reshape(a, (-1, 1))
        arrs.append(a)
    return concatenate(arrs, axis=1)


# --- splitting ---------------------------------------------------------------


def array_split(ary, indices_or_sections, axis=0):
    """Views of ``ary`` split along ``axis`` (sections may differ by one)."""
    nd = ary.ndim
    axis = _axis(axis, nd)
    n = ary.shape[axis]
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        each, extra = divmod(n, sections)
        sizes = [0] + [each + 1] * extra + [each] * (sections - extra)
        bounds = np.cumsum(sizes).tolist()
    else:
        bounds = [0] + [operator.index(i) for i in indices_or_sections] + [n]
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        out.append(ary[_index(axis, nd, slice(lo, hi))])
    return out


def split(ary, indices_or_sections, axis=0):
    if isinstance(indices_or_sections, (int, np.integer)):
        n = ary.shape[_axis(axis, ary.ndim)]
        if indices_or_sections <= 0 or n % indices_or_sections:
            raise ValueError(
                "array split does not result in an equal division"
            )
    return array_split(ary, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    if ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, 2)


def unstack(x, /, *, axis=0):
    axis = _axis(axis, x.ndim)
    return tuple(x[_index(axis, x.ndim, i)] for i in range(x.shape[axis]))


# --- rearranging -------------------------------------------------------------


def flip(m, axis=None):
    """A view with the entries of ``axis`` (all axes: None) reversed."""
    nd = m.ndim
    axes = range(nd) if axis is None else _normalize_axes(axis, nd)
    key = tuple(
        slice(None, None, -1) if i in axes else slice(None) for i in range(nd)
    )
    return m[key] if key else m


def fliplr(m):
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return flip(m, 1)


def flipud(m):
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return flip(m, 0)


def roll(a, shift, axis=None):
    a = _usm(a)
    if axis is None:
        return _ops().reshape(roll(ravel(a), shift, 0), tuple(a.shape))
    shifts, axes = np.broadcast_arrays(np.asarray(shift), np.asarray(axis))
    if shifts.ndim > 1:
        raise ValueError(
            "'shift' and 'axis' should be scalars or 1D sequences"
        )
    shifts = shifts.reshape(-1).tolist()
    axes = [_axis(int(ax), a.ndim) for ax in axes.reshape(-1).tolist()]
    total = {}
    for s, ax in zip(shifts, axes):
        total[int(ax)] = total.get(int(ax), 0) + int(s)
    r = a
    for ax, s in total.items():
        n = r.shape[ax]
        if n == 0:
            continue
        s %= n
        if s:
            r = concatenate(
                [
                    r[_index(ax, r.ndim, slice(n - s, None))],
                    r[_index(ax, r.ndim, slice(0, n - s))],
                ],
                ax,
            )
    return r if r is not a else _ops().copy(a)


def rot90(m, k=1, axes=(0, 1)):
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    nd = m.ndim
    if axes[0] == axes[1] or builtins.abs(axes[0] - axes[1]) == nd:
        raise ValueError("Axes must be different.")
    if not (-nd <= axes[0] < nd and -nd <= axes[1] < nd):
        raise ValueError(f"Axes={axes} out of range for array of ndim={nd}.")
    k %= 4
    if k == 0:
        return m[...]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    perm = list(range(nd))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return _ops().transpose(flip(m, axes[1]), perm)
    return flip(_ops().transpose(m, perm), axes[1])


def moveaxis(a, source, destination):
    nd = a.ndim
    src = _axes_in_order(source, nd)
    dst = _axes_in_order(destination, nd)
    if len(src) != len(dst):
        raise ValueError(
            "`source` and `destination` arguments must have "
            "the same number of elements"
        )
    order = [i for i in range(nd) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _ops().transpose(a, order)


def rollaxis(a, axis, start=0):
    nd = a.ndim
    axis = _axis(axis, nd)
    if not -nd <= start <= nd:
        raise AxisError(
            f"'start' arg requires {-nd} <= start < {nd + 1} "
            f"but {start} was passed in"
        )
    if start < 0:
        start += nd
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    order = [i for i in range(nd) if i != axis]
    order.insert(start, axis)
    return _ops().transpose(a, order)


def _atleast(arys, nd, where):
    out = []
    for a in arys:
        a = _usm(a, _first_usm(arys))
        if a.ndim < nd:
            shape = tuple(a.shape)
            if nd == 1:
                shape = (1,) * (1 - len(shape)) + shape
            elif nd == 2:
                shape = (1,) * (2 - len(shape)) + shape
            else:
                shape = {
                    0: (1, 1, 1),
                    1: (1,) + shape + (1,),
                    2: shape + (1,),
                }[len(shape)]
            a = _ops().reshape(a, shape)
        out.append(a)
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys):
    return _atleast(arys, 1, 0)


def atleast_2d(*arys):
    return _atleast(arys, 2, 0)


def atleast_3d(*arys):
    return _atleast(arys, 3, 0)


def _fortran_order(order):
    if order in ("C", "K", "A", None):
        return False
    if order == "F":
        return True
    raise ValueError("order must be one of 'C', 'F', 'A', or 'K'")


def ravel(a, order="C"):
    """The elements of ``a`` in one dimension: in C order (a view where it
    can be) or, with ``order='F'``, in column-major order (a copy: the
    reversed axes flattened)."""
    a = _usm(a)
    if _fortran_order(order):
        return _ops().reshape(_ops().transpose(a), (-1,))
    return _ops().reshape(a, (-1,))


def flatten(a, order="C"):
    """A flattened copy (``a.flatten()`` as a function); ``order='F'``
    flattens in column-major order."""
    a = _usm(a)
    if _fortran_order(order):
        a = _ops().transpose(a)
    return _ops().reshape(a, (-1,), copy=True)


def tile(A, reps):
    A = _usm(A)
    reps = (reps,) if isinstance(reps, (int, np.integer)) else tuple(reps)
    d = builtins.max(len(reps), A.ndim)
    shape = (1,) * (d - A.ndim) + tuple(A.shape)
    reps = (1,) * (d - len(reps)) + tuple(operator.index(r) for r in reps)
    if builtins.any(r < 0 for r in reps):
        raise ValueError("negative dimensions are not allowed")
    inter = []
    big = []
    for s, r in zip(shape, reps):
        inter += [1, s]
        big += [r, s]
    x = _ops().reshape(A, tuple(inter))
    x = _ops().broadcast_to(x, tuple(big))
    return _ops().reshape(x, tuple(s * r for s, r in zip(shape, reps)))


def repeat(a, repeats, axis=None):
    a = _usm(a)
    if axis is None:
        a = ravel(a)
        axis = 0
    axis = _axis(axis, a.ndim)
    n = a.shape[axis]
    if _is_usm(repeats):
        from ._array import asnumpy

        repeats = asnumpy(repeats)  # the result's size depends on them
    r = np.asarray(repeats)
    if r.dtype.kind not in "iu" and not (r.dtype.kind == "b"):
        raise TypeError(
            "Cannot cast array data from "
            f"{r.dtype!r} to dtype('int64') according to the "
            "rule 'safe'"
        )
    if (r < 0).any():
        raise ValueError("repeats may not contain negative values.")
    if r.ndim == 0 or r.size == 1:
        k = int(r.reshape(-1)[0])
        shape = list(a.shape)
        x = _ops().expand_dims(a, axis + 1)
        big = shape[: axis + 1] + [k] + shape[axis + 1 :]
        x = _ops().broadcast_to(x, tuple(big))
        shape[axis] = n * k
        return _ops().reshape(x, tuple(shape))
    if r.shape != (n,):
        raise ValueError(
            f"operands could not be broadcast together with "
            f"shape ({n},) ({r.size},)"
        )
    from ._indexing_functions import take

    return take(a, np.repeat(np.arange(n), r), axis=axis)


def pad(array, pad_width, mode="constant", **kwargs):
    a = _usm(array)
    nd = a.ndim
    pw = np.asarray(pad_width)
    if pw.dtype.kind not in "iu":
        raise TypeError("`pad_width` must be of integral type.")
    pw = np.broadcast_to(pw, (nd, 2)).tolist()
    if builtins.any(v < 0 for p in pw for v in p):
        raise ValueError("index can't contain negative values")
    if mode == "empty":
        mode = "constant"
    if mode == "constant":
        cv = np.broadcast_to(
            np.asarray(kwargs.get("constant_values", 0)), (nd, 2)
        ).tolist()
        r = a
        for ax in range(nd):
            b, e = pw[ax]
            parts = []
            if b:
                s = list(r.shape)
                s[ax] = b
                parts.append(_full(s, cv[ax][0], a.dtype, a))
            parts.append(r)
            if e:
                s = list(r.shape)
                s[ax] = e
                parts.append(_full(s, cv[ax][1], a.dtype, a))
            if len(parts) > 1:
                r = concatenate(parts, ax)
        return r if r is not a else _ops().copy(a)
    if mode not in ("edge", "reflect", "symmetric", "wrap"):
        raise NotImplementedError(
            f"pad mode {mode!r}: sluice has constant, empty, edge, reflect, "
            "symmetric and wrap"
        )
    extra = {k: v for k, v in kwargs.items() if k == "reflect_type"}
    r = a
    from ._indexing_functions import take

    for ax in range(nd):
        b, e = pw[ax]
        if not (b or e):
            continue
        if r.shape[ax] == 0:
            raise ValueError(
                f"can't extend empty axis {ax} using modes "
                "other than 'constant' or 'empty'"
            )
        idx = np.pad(np.arange(r.shape[ax]), (b, e), mode=mode, **extra)
        if extra.get("reflect_type") == "odd":
            raise NotImplementedError("reflect_type='odd'")
        r = take(r, idx, axis=ax)
    return r if r is not a else _ops().copy(a)


def resize(a, new_shape):
    a = _usm(a)
    new_shape = (
        (new_shape,)
        if isinstance(new_shape, (int, np.integer))
        else tuple(new_shape)
    )
    if builtins.any(d < 0 for d in new_shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    total = int(np.prod(new_shape, dtype=np.int64))
    flat = ravel(a)
    if a.size == 0 or total == 0:
        return _full(new_shape, 0, a.dtype, a)
    reps = -(-total // a.size)
    flat = tile(flat, reps)[:total]
    return _ops().reshape(flat, new_shape)


def trim_zeros(filt, trim="fb"):
    filt = _usm(filt)
    if filt.ndim != 1:
        raise ValueError("trim_zeros works on 1-d arrays")
    from ._indexing_functions import flatnonzero

    nz = flatnonzero(filt)
    if nz.shape[0] == 0:
        return filt[0:0]
    trim = trim.lower()
    lo = int(nz[0]) if "f" in trim else 0
    hi = int(nz[-1]) + 1 if "b" in trim else filt.shape[0]
    return filt[lo:hi]


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    like = _first_usm(xi)
    xs = [ravel(_usm(x, like)) for x in xi]
    nd = len(xs)
    out = []
    for i, x in enumerate(xs):
        shape = [1] * nd
        shape[i] = -1
        out.append(_ops().reshape(x, tuple(shape)))
    if indexing == "xy" and nd > 1:
        for i in range(len(out)):
            s = list(out[i].shape)
            s[0], s[1] = s[1], s[0]
            out[i] = _ops().reshape(out[i], tuple(s))
    if not sparse:
        shape = _ops()._broadcast([o.shape for o in out])
        out = [_ops().broadcast_to(o, shape) for o in out]
    elif copy:
        out = [_ops().copy(o) for o in out]
    return out


class _Grid:
    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        from ._creation import arange, linspace

        keys = key if isinstance(key, tuple) else (key,)
        axes = []
        for k in keys:
            if not isinstance(k, slice):
                raise TypeError("mgrid/ogrid take slices")
            start = 0 if k.start is None else k.start
            step = 1 if k.step is None else k.step
            if isinstance(step, complex):
                n = int(builtins.abs(step))
                axes.append(linspace(start, k.stop, n))
            else:
                floats = builtins.any(
                    isinstance(v, float) for v in (start, k.stop, step)
                )
                axes.append(
                    arange(
                        start, k.stop, step, dtype=None if floats else np.int64
                    )
                )
        if not isinstance(key, tuple):
            return axes[0]
        dt = np.result_type(*[a.dtype for a in axes])
        axes = [_ops().astype(a, dt) for a in axes]
        grids = meshgrid(*axes, sparse=self.sparse, indexing="ij")
        if self.sparse:
            return tuple(grids)
        return stack(grids)


mgrid = _Grid(False)
ogrid = _Grid(True)


# --- triangles and diagonals -------------------------------------------------


def _tri_mask(n, m, k, like, lower):
    from ._creation import arange

    i = _ops().reshape(
        arange(
            n,
            dtype=np.int64,
            sycl_queue=like.sycl_queue,
            usm_type=like.usm_type,
        ),
        (n, 1),
    )
    j = arange(
        m, dtype=np.int64, sycl_queue=like.sycl_queue, usm_type=like.usm_type
    )
    d = _ops().subtract(j, i)
    return _ops().less_equal(d, k) if lower else _ops().greater_equal(d, k)


def _tri(m, k, lower):
    m = _usm(m)
    if m.ndim < 2:
        m = _ops().broadcast_to(m, (m.shape[-1] if m.ndim else 1,) * 2)
    n, c = m.shape[-2:]
    mask = _tri_mask(n, c, operator.index(k), m, lower)
    return _ops().where(
        mask, m, _ops().astype(_full((), 0, m.dtype, m), m.dtype)
    )


def tril(m, k=0):
    return _tri(m, k, True)


def triu(m, k=0):
    return _tri(m, k, False)


def diagonal(a, offset=0, axis1=0, axis2=1):
    a = _usm(a)
    nd = a.ndim
    if nd < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    a1, a2 = _axis(axis1, nd), _axis(axis2, nd)
    if a1 == a2:
        raise ValueError("axis1 and axis2 cannot be the same")
    x = moveaxis(a, (a1, a2), (nd - 2, nd - 1))
    n, m = x.shape[-2:]
    offset = operator.index(offset)
    if offset >= 0:
        length = builtins.max(0, builtins.min(n, m - offset))
        rows = np.arange(length)
        cols = rows + offset
    else:
        length = builtins.max(0, builtins.min(n + offset, m))
        cols = np.arange(length)
        rows = cols - offset
    return x[(Ellipsis, rows, cols)]


def diag(v, k=0):
    v = _usm(v)
    if v.ndim == 1:
        n = v.shape[0] + builtins.abs(k)
        out = _full((n, n), 0, v.dtype, v)
        i = np.arange(v.shape[0])
        rows, cols = (i, i + k) if k >= 0 else (i - k, i)
        out[rows, cols] = v
        return out
    if v.ndim == 2:
        return diagonal(v, k)
    raise ValueError("Input must be 1- or 2-d.")


def diagflat(v, k=0):
    return diag(ravel(_usm(v)), k)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    return _ops().sum(
        diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype, out=out
    )


def copyto(dst, src, casting="same_kind", where=True):
    """Copies ``src`` into ``dst`` (broadcast), where ``where`` is true."""
    sdt = (
        src.dtype
        if hasattr(src, "dtype") and not isinstance(src, (bool, int, float))
        else None
    )
    if sdt is not None and not np.can_cast(sdt, dst.dtype, casting):
        raise TypeError(
            f"Cannot cast array data from {np.dtype(sdt)!r} to "
            f"{dst.dtype!r} according to the rule {casting!r}"
        )
    if (
        isinstance(src, (int, float, bool))
        and casting == "same_kind"
        and isinstance(src, float)
        and dst.dtype.kind in "iub"
    ):
        raise TypeError(
            f"Cannot cast scalar from dtype('float64') to "
            f"{dst.dtype!r} according to the rule 'same_kind'"
        )
    src = _usm(src, dst)
    if isinstance(where, bool) and where:
        dst[...] = src
        return
    dst[...] = _ops().where(where, src, dst)
