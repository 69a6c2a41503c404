"""NumPy's indexing routines: take, put, masks, choices, nonzero and the
index generators (ix_, unravel_index, indices, tril_indices, ...).

They are built on advanced indexing (``_advanced_indexing``), whose gather,
scatter and compaction kernels run on the arrays' queue. Integer results
are int64 arrays on the queue of the input (or, for generators given only
sizes, on the device the keyword arguments name, as creation functions).
"""

import operator

import numpy as np

from . import _trace
from ._manipulation import _axis, _first_usm, _is_usm, _usm, ravel, stack


def _ops():
    from . import _ops as ops

    return ops


def _asnumpy(x):
    from ._array import asnumpy

    return asnumpy(x)


def _no_trace(a, name):
    if isinstance(a, _trace.Tracer):
        raise _trace.TracerError(
            f"{name}() inside @sluice.jit: assignment through integer "
            "positions is not supported there yet (it is eagerly)"
        )


def _check_mode(mode):
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(
            f"clipmode must be one of 'clip', 'raise', or "
            f"'wrap' (got {mode!r})"
        )


def _no_traced_check(a, name, instead):
    """Range checks read the indices: not possible on traced ones."""
    from . import _trace
    from ._errors import TracerError

    if isinstance(a, _trace.Tracer):
        raise TracerError(
            f"{name} inside @sluice.jit cannot check that traced indices "
            f"are in range: use {instead}, or call it outside"
        )


def _min_max(a):
    """The smallest and largest of a concrete array, read now (also inside
    a traced function, where operations on it would be traced)."""
    from . import _trace

    with _trace.suspended():
        return int(_ops().min(a)), int(_ops().max(a))


def _moded(indices, n, mode):
    """Indices with ``mode`` applied ('raise' leaves them to the
    indexing's check)."""
    if mode == "raise":
        return indices
    if n == 0:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    if isinstance(indices, np.ndarray) or not _is_usm(indices):
        i = np.asarray(indices)
        return np.mod(i, n) if mode == "wrap" else np.clip(i, 0, n - 1)
    r = (
        _ops().remainder(indices, n)
        if mode == "wrap"
        else _ops().clip(indices, 0, n - 1)
    )
    if isinstance(r, _trace.Tracer):
        from ._traced_indexing import mark_in_range

        mark_in_range(r, n)
    return r


def _index_array(indices):
    if _is_usm(indices):
        if indices.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer type")
        return indices
    a = np.asarray(indices)
    if a.dtype.kind not in "iu" and not (a.size == 0):
        raise IndexError("arrays used as indices must be of integer type")
    return a.astype(np.int64)


def take(a, indices, axis=None, out=None, mode="raise"):
    a = _usm(a)
    _check_mode(mode)
    idx = _index_array(indices)
    if axis is None:
        a = ravel(a)
        axis = 0
    axis = _axis(axis, a.ndim)
    idx = _moded(idx, a.shape[axis], mode)
    r = a[(slice(None),) * axis + (idx,)]
    if out is not None:
        out[...] = r
        return out
    return r


def _along_axis_key(arr, indices, axis):
    nd = arr.ndim
    if indices.ndim != nd:
        raise ValueError(
            "`indices` and `arr` must have the same number of dimensions"
        )
    key = []
    for d in range(nd):
        if d == axis:
            key.append(indices)
        else:
            shape = [1] * nd
            shape[d] = arr.shape[d]
            key.append(np.arange(arr.shape[d]).reshape(shape))
    return tuple(key)


def take_along_axis(arr, indices, axis=-1):
    arr = _usm(arr)
    idx = _index_array(indices)
    if axis is None:
        arr = ravel(arr)
        if idx.ndim != 1:
            raise ValueError(
                "when axis=None, `indices` must have a single dimension."
            )
        axis = 0
    axis = _axis(axis, arr.ndim)
    return arr[_along_axis_key(arr, idx, axis)]


def put_along_axis(arr, indices, values, axis):
    idx = _index_array(indices)
    if axis is None:
        if not arr._c_contiguous if hasattr(arr, "_c_contiguous") else False:
            raise ValueError(
                "put_along_axis with axis=None needs a contiguous array"
            )
        flat = ravel(arr)
        flat[idx] = values
        return
    axis = _axis(axis, arr.ndim)
    arr[_along_axis_key(arr, idx, axis)] = values


def _cycled(values, n, like):
    """``values`` flattened and repeated to ``n`` elements."""
    v = ravel(_usm(values, like))
    if v.shape[0] == n:
        return v
    if v.shape[0] == 0:
        raise ValueError("cannot assign from an empty array")
    if _is_usm(v) and not isinstance(v, _trace.Tracer):
        from ._creation import arange

        i = arange(
            n,
            dtype=np.int64,
            sycl_queue=like.sycl_queue,
            usm_type=like.usm_type,
        )
        return v[_ops().remainder(i, v.shape[0])]
    return v[np.arange(n) % v.shape[0]]


def put(a, ind, v, mode="raise"):
    """``a.flat[ind] = v``, ``v`` repeated as needed (in place)."""
    _no_trace(a, "put")
    _check_mode(mode)
    idx = _index_array(ind)
    idx = ravel(idx) if _is_usm(idx) else idx.reshape(-1)
    n = idx.shape[0]
    if n == 0:
        return
    idx = _moded(idx, a.size, mode)
    vals = _cycled(v, n, a)
    if a._c_contiguous:
        flat = a._view(a._offset, [a.size], [1])
        flat[idx] = (
            _ops().astype(vals, a.dtype) if vals.dtype != a.dtype else vals
        )
    else:
        tmp = _ops().copy(a)
        put(tmp, idx, vals, mode)
        a[...] = tmp


def putmask(a, mask, values):
    """``a[mask] = values`` where ``values`` repeats over ``a``'s flat
    positions (NumPy's putmask)."""
    mask = _usm(mask, a)
    if tuple(mask.shape) != tuple(a.shape):
        raise ValueError("putmask: mask and data must be the same size")
    v = _cycled(values, a.size, a)
    v = _ops().reshape(v, tuple(a.shape))
    a[...] = _ops().where(mask, _ops().astype(v, a.dtype), a)


def place(arr, mask, vals):
    """Puts the first N ``vals`` (repeated) into the N true positions of
    ``mask``."""
    _no_trace(arr, "place")
    mask = _usm(mask, arr)
    if mask.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    m = ravel(_ops().astype(mask, np.bool_))
    pos = flatnonzero(m)
    n = pos.shape[0]
    if n == 0:
        return
    vals = _cycled(vals, n, arr)
    if arr._c_contiguous:
        flat = arr._view(arr._offset, [arr.size], [1])
    else:
        raise ValueError("place needs a C-contiguous array")
    flat[pos] = vals


def compress(condition, a, axis=None, out=None):
    a = _usm(a)
    cond = _usm(condition, a)
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    if axis is None:
        a = ravel(a)
        axis = 0
    axis = _axis(axis, a.ndim)
    idx = flatnonzero(cond)
    if idx.shape[0] and int(idx[-1]) >= a.shape[axis]:
        raise IndexError(
            f"index {int(idx[-1])} is out of bounds for axis "
            f"{axis} with size {a.shape[axis]}"
        )
    return take(a, idx, axis=axis, out=out)


def extract(condition, arr):
    arr = _usm(arr)
    cond = _usm(condition, arr)
    return ravel(arr)[flatnonzero(ravel(cond))]


def choose(a, choices, out=None, mode="raise"):
    _check_mode(mode)
    a = _usm(a, _first_usm(list(choices)))
    if a.dtype.kind not in "iu":
        raise TypeError("choose: the index array must be of integer type")
    choices = [_usm(c, a) for c in choices]
    n = len(choices)
    if n == 0:
        raise ValueError("choices must not be empty")
    if mode == "raise":
        _no_traced_check(a, "choose", "mode='wrap' or mode='clip'")
        if a.size:
            lo, hi = _min_max(a)
            if lo < 0 or hi >= n:
                raise ValueError("invalid entry in choice array")
    else:
        a = _moded(a, n, mode)
    r = choices[n - 1]
    for i in range(n - 2, -1, -1):
        r = _ops().where(_ops().equal(a, i), choices[i], r)
    shape = _ops()._broadcast([a.shape] + [c.shape for c in choices])
    if tuple(r.shape) != shape:
        r = _ops().broadcast_to(r, shape)
    if out is not None:
        out[...] = r
        return out
    return r


def select(condlist, choicelist, default=0):
    if len(condlist) != len(choicelist):
        raise ValueError(
            "list of cases must be same length as list of conditions"
        )
    if not condlist:
        raise ValueError("select with an empty condition list is not possible")
    like = _first_usm(list(condlist) + list(choicelist))
    conds = [_usm(c, like) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != np.bool_:
            raise TypeError(
                f"invalid entry {i} in condlist: should be boolean ndarray"
            )
    choices = [_usm(c, like) for c in choicelist]
    dt = np.result_type(*[c.dtype for c in choices], default)
    r = _ops().astype(_usm(np.asarray(default, dtype=dt), like), dt)
    for c, v in zip(conds[::-1], choices[::-1]):
        r = _ops().where(c, _ops().astype(v, dt), r)
    shape = _ops()._broadcast(
        [c.shape for c in conds] + [c.shape for c in choices]
    )
    if tuple(r.shape) != shape:
        r = _ops().broadcast_to(r, shape)
    return r


# --- nonzero and friends -----------------------------------------------------


def nonzero(a):
    """A tuple of int64 arrays, the indices of the non-zero elements (a
    count then a compaction on the array's queue)."""
    a = _usm(a)
    if isinstance(a, _trace.Tracer):
        raise _trace.TracerError(
            "nonzero() inside @sluice.jit: its size depends on the data; "
            "use sluice.where() or a boolean mask assignment"
        )
    if a.ndim == 0:
        raise ValueError(
            "Calling nonzero on 0d arrays is not allowed. Use "
            "np.atleast_1d(scalar).nonzero() instead."
        )
    from ._advanced_indexing import unravel
    from ._index_kernels import flat_true_positions

    # A concrete array (also one a traced function captured): computed
    # now, its arrays created outside any trace.
    with _trace.suspended():
        m = a if a.dtype == np.bool_ else _ops().not_equal(a, 0)
        flat = flat_true_positions(ravel(m))
        return tuple(unravel(flat, tuple(a.shape)))


def flatnonzero(a):
    return nonzero(ravel(_usm(a)))[0]


def argwhere(a):
    a = _usm(a)
    if a.ndim == 0:
        a = _ops().reshape(a, (1,))
        n = nonzero(a)[0].shape[0]
        from ._creation import empty

        return empty(
            (n, 0),
            dtype=np.int64,
            sycl_queue=a.sycl_queue,
            usm_type=a.usm_type,
        )
    return stack(nonzero(a), axis=1)


# --- index generators --------------------------------------------------------


def _placed(host, like=None, device=None, usm_type=None, sycl_queue=None):
    from ._creation import asarray

    if like is not None and device is None and sycl_queue is None:
        return asarray(
            host,
            sycl_queue=like.sycl_queue,
            usm_type=usm_type or like.usm_type,
        )
    return asarray(
        host, device=device, usm_type=usm_type, sycl_queue=sycl_queue
    )


def ix_(*args):
    like = _first_usm(args)
    out = []
    nd = len(args)
    for k, a in enumerate(args):
        a = (
            _usm(a, like)
            if _is_usm(a) or like is not None
            else _placed(
                np.asarray(a if np.size(a) else np.zeros(0, np.int64))
            )
        )
        if a.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if a.dtype == np.bool_:
            a = nonzero(a)[0]
        shape = [1] * nd
        shape[k] = a.shape[0]
        out.append(_ops().reshape(a, tuple(shape)))
    return tuple(out)


def unravel_index(indices, shape, order="C"):
    if order != "C":
        raise NotImplementedError("order='C' only")
    shape = (
        (shape,)
        if isinstance(shape, (int, np.integer))
        else tuple(operator.index(d) for d in shape)
    )
    size = int(np.prod(shape, dtype=np.int64))
    if not _is_usm(indices):
        return tuple(
            _placed(np.asarray(i)) for i in np.unravel_index(indices, shape)
        )
    i = indices
    if i.dtype.kind not in "iu":
        raise TypeError("only int indices permitted")
    _no_traced_check(i, "unravel_index", "indices made in range with clip")
    if i.size:
        lo, hi = _min_max(i)
        if lo < 0 or hi >= size:
            bad = lo if lo < 0 else hi
            raise ValueError(
                f"index {bad} is out of bounds for array with size {size}"
            )
    from ._advanced_indexing import unravel

    return tuple(unravel(_ops().astype(i, np.int64), shape))


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    if order != "C":
        raise NotImplementedError("order='C' only")
    dims = tuple(operator.index(d) for d in dims)
    if len(multi_index) != len(dims):
        raise ValueError(
            f"parameter multi_index must be a sequence of length {len(dims)}"
        )
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    like = _first_usm(list(multi_index))
    if like is None:
        return _placed(
            np.asarray(
                np.ravel_multi_index(
                    tuple(np.asarray(m) for m in multi_index), dims, mode=mode
                )
            )
        )
    flat = None
    for m, d, md in zip(multi_index, dims, modes):
        _check_mode(md)
        m = _usm(m, like)
        if md == "raise":
            if m.size:
                lo, hi = int(_ops().min(m)), int(_ops().max(m))
                if lo < 0 or hi >= d:
                    raise ValueError("invalid entry in coordinates array")
        else:
            m = _moded(m, d, md)
        m = _ops().astype(m, np.int64)
        flat = m if flat is None else _ops().add(_ops().multiply(flat, d), m)
    return flat


def indices(
    dimensions,
    dtype=int,
    sparse=False,
    *,
    device=None,
    usm_type="device",
    sycl_queue=None,
):
    from ._creation import arange

    dims = tuple(dimensions)
    nd = len(dims)
    out = []
    for i, d in enumerate(dims):
        shape = [1] * nd
        shape[i] = d
        a = _ops().reshape(
            arange(
                d,
                dtype=dtype,
                device=device,
                usm_type=usm_type,
                sycl_queue=sycl_queue,
            ),
            tuple(shape),
        )
        out.append(a if sparse else _ops().broadcast_to(a, dims))
    if sparse:
        return tuple(out)
    if not out:
        from ._creation import empty

        return empty(
            (0,),
            dtype=dtype,
            device=device,
            usm_type=usm_type,
            sycl_queue=sycl_queue,
        )
    return stack(out)


def diag_indices(
    n, ndim=2, *, device=None, usm_type="device", sycl_queue=None
):
    from ._creation import arange

    i = arange(
        n,
        dtype=np.int64,
        device=device,
        usm_type=usm_type,
        sycl_queue=sycl_queue,
    )
    return (i,) * ndim


def diag_indices_from(arr):
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(
        arr.shape[0],
        arr.ndim,
        sycl_queue=arr.sycl_queue,
        usm_type=arr.usm_type,
    )


def _tri_indices(n, k, m, lower, device, usm_type, sycl_queue):
    from ._creation import full
    from ._manipulation import _tri_mask

    m = n if m is None else m
    like = full(
        (),
        0,
        dtype=np.int64,
        device=device,
        usm_type=usm_type,
        sycl_queue=sycl_queue,
    )
    mask = _tri_mask(n, m, k, like, lower)
    return nonzero(mask)


def tril_indices(
    n, k=0, m=None, *, device=None, usm_type="device", sycl_queue=None
):
    return _tri_indices(n, k, m, True, device, usm_type, sycl_queue)


def triu_indices(
    n, k=0, m=None, *, device=None, usm_type="device", sycl_queue=None
):
    return _tri_indices(n, k, m, False, device, usm_type, sycl_queue)


def tril_indices_from(arr, k=0):
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(
        arr.shape[-2],
        k,
        arr.shape[-1],
        sycl_queue=arr.sycl_queue,
        usm_type=arr.usm_type,
    )


def triu_indices_from(arr, k=0):
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(
        arr.shape[-2],
        k,
        arr.shape[-1],
        sycl_queue=arr.sycl_queue,
        usm_type=arr.usm_type,
    )
