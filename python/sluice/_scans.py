"""Scans and differences: cumsum, cumprod (and the Array API's
cumulative_*), their nan* forms, diff and ediff1d.

A scan along an axis is blocked: rows are cut into blocks, a first kernel
sums each block, a second scans the block totals of each row, a third
rescans each block from its offset (``_sort_kernels``), all on the array's
queue. Result dtypes follow NumPy (small integers and bool accumulate in
int64 / uint64).
"""

import builtins

import numpy as np

from . import _dtypes, _host_small, _ops
from . import _jit_library as J
from . import _sort_kernels as K
from . import kernel_api as kapi
from ._kernel import call_kernel
from . import _coop_kernels as C
from ._sorting import (
    _array,
    _back,
    _empty,
    _flat,
    _full,
    _norm_axis,
    _to_last,
    _zeros,
    cooperative,
)


def _acc_dtype(dt, dtype):
    if dtype is not None:
        return _dtypes.to_dtype(dtype)
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < 8):
        return _dtypes.int64
    if dt.kind == "u" and dt.itemsize < 8:
        return _dtypes.uint64
    return dt


def _scan(x, axis, dtype, prod, name):
    x = _array(x, name)
    rdt = _acc_dtype(x.dtype, dtype)
    if axis is None:
        x = _flat(x)
        axis = 0
    if x.ndim == 0:
        x = _ops.reshape(x, (1,))
    axis = _norm_axis(axis, x.ndim)
    cdt = _dtypes.float32 if rdt == _dtypes.float16 else rdt
    # the look-back scan reads integers and bools as they are (cast as
    # they are loaded: no pass of its own); other dtypes are cast first
    raw = x.dtype.kind in "biu" and x.dtype.itemsize <= 8
    xc = x if raw else _ops.astype(x, cdt, copy=False)
    xm, inv = _to_last(xc, axis)
    n = xm.size
    if n == 0:
        return _back(_empty(xm.shape, rdt, x), inv)
    length = xm.shape[-1]
    rows = n // length
    flat = _ops.reshape(xm, (n,))
    if _cooperative_scan(x, cdt, rows, length):
        out = _lookback_scan(flat, rows, length, cdt, prod, x)
        r = _back(_ops.reshape(out, xm.shape), inv)
        return r if cdt == rdt else _ops.astype(r, rdt)
    if raw and xm.dtype != cdt:
        flat = _ops.astype(flat, cdt)
    nch = builtins.max(1, builtins.min(length // 8192, -(-64 // rows)))
    chunk = -(-length // nch)
    w = rows * nch
    out = _empty(n, cdt, x)
    offs = _empty(w, cdt, x)
    space = kapi.NdRange((w,), (1,))
    if nch > 1:
        call_kernel(
            K.k_block_total, space, flat, length, chunk, nch, int(prod), offs
        )
        call_kernel(K.k_scan_totals, kapi.Range(rows), offs, nch, int(prod))
    call_kernel(
        K.k_block_scan, space, flat, length, chunk, nch, int(prod), offs, out
    )
    r = _back(_ops.reshape(out, xm.shape), inv)
    return r if cdt == rdt else _ops.astype(r, rdt)


_COOP_DTYPES = (
    _dtypes.float32,
    _dtypes.float64,
    _dtypes.int64,
    _dtypes.uint64,
)


def _cooperative_scan(x, cdt, rows, length):
    """The look-back scan serves GPUs (and the CPU devices when forced),
    for rows long enough to fill tiles."""
    return (
        cdt in _COOP_DTYPES
        and (rows == 1 or length >= C.WG * C.scan_ipt(cdt))
        and cooperative(x)
    )


def _lookback_scan(src, rows, length, cdt, prod, like):
    """Inclusive scans of the rows of flat src (its dtype is cast to cdt
    as it is read) in one launch of ``_coop_kernels``' look-back scan."""
    cdt = _dtypes.to_dtype(cdt)
    ipt = C.scan_ipt(cdt)
    tile = C.WG * ipt
    tpr = -(-length // tile)
    ntiles = rows * tpr
    out = _empty(rows * length, cdt, like)
    flags = _zeros(ntiles + 1, _dtypes.int32, like)  # + the ticket counter
    agg = _empty(ntiles, cdt, like)
    incl = _empty(ntiles, cdt, like)
    call_kernel(
        C.SCAN[(bool(prod), ipt)],
        kapi.NdRange((ntiles * C.WG,), (C.WG,)),
        src,
        length,
        tpr,
        ntiles,
        out,
        flags,
        agg,
        incl,
        kapi.LocalAccessor((tile + tile // 32,), cdt),
        kapi.LocalAccessor((2 * C.WG + 1,), cdt),
        kapi.LocalAccessor((C.LB,), _dtypes.int32),
        kapi.LocalAccessor((C.LB,), cdt),
        kapi.LocalAccessor((3,), _dtypes.int64),
    )
    return out


@J.steps(J.along(J.accumulated))
def cumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sums along ``axis`` (None: of the flattened array)."""
    if out is None and dtype is None and _host_small.applies(a):
        return _host_small.result(a, np.cumsum(_host_small.view(a), axis=axis))
    if out is not None:
        raise TypeError("out= is not supported")
    return _scan(a, axis, dtype, False, "cumsum")


@J.steps(J.along(J.accumulated))
def cumprod(a, axis=None, dtype=None, out=None):
    if out is None and dtype is None and _host_small.applies(a):
        return _host_small.result(
            a, np.cumprod(_host_small.view(a), axis=axis)
        )
    if out is not None:
        raise TypeError("out= is not supported")
    return _scan(a, axis, dtype, True, "cumprod")


def _no_nan(a, fill):
    a = _array(a, "nancumsum")
    if a.dtype.kind != "f":
        return a
    return _ops.where(_ops.not_equal(a, a), fill, a)


@J.steps(J.along(J.accumulated))
def nancumsum(a, axis=None, dtype=None, out=None):
    """cumsum with NaNs counted as zero."""
    return cumsum(_no_nan(a, 0), axis, dtype, out)


@J.steps(J.along(J.accumulated))
def nancumprod(a, axis=None, dtype=None, out=None):
    """cumprod with NaNs counted as one."""
    return cumprod(_no_nan(a, 1), axis, dtype, out)


def _cumulative(x, axis, dtype, include_initial, prod, name):
    x = _array(x, name)
    if axis is None:
        if x.ndim > 1:
            raise ValueError(
                f"{name} needs axis= for arrays of more than one dimension"
            )
        axis = 0
    if x.ndim == 0:
        raise ValueError(f"{name} needs an array of at least one dimension")
    axis = _norm_axis(axis, x.ndim)
    r = _scan(x, axis, dtype, prod, name)
    if not include_initial:
        return r
    shape = list(r.shape)
    shape[axis] += 1
    res = _full(tuple(shape), 1 if prod else 0, r.dtype, x)
    sl = [slice(None)] * x.ndim
    sl[axis] = slice(1, None)
    if r.size:
        res[tuple(sl)] = r
    return res


@J.steps(J.cumulative)
def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative(
        x, axis, dtype, include_initial, False, "cumulative_sum"
    )


@J.steps(J.cumulative)
def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative(
        x, axis, dtype, include_initial, True, "cumulative_prod"
    )


def _join(parts, axis):
    """Concatenation along axis of arrays equal in the other axes."""
    shape = list(parts[0].shape)
    shape[axis] = builtins.sum(p.shape[axis] for p in parts)
    dt = np.result_type(*[p.dtype for p in parts])
    res = _empty(tuple(shape), dt, parts[0])
    at = 0
    for p in parts:
        k = p.shape[axis]
        if k:
            sl = [slice(None)] * len(shape)
            sl[axis] = slice(at, at + k)
            res[tuple(sl)] = p
        at += k
    return res


def _edge(v, a, axis):
    from ._array import Array
    from ._creation import asarray

    if not isinstance(v, Array):
        v = asarray(
            v,
            dtype=a.dtype
            if not isinstance(v, float) or a.dtype.kind == "f"
            else None,
            sycl_queue=a.sycl_queue,
            usm_type=a.usm_type,
        )
    if v.ndim == 0:
        shape = list(a.shape)
        shape[axis] = 1
        v = _ops.broadcast_to(v, tuple(shape))
    return v


@J.steps_by_example
def diff(a, n=1, axis=-1, prepend=None, append=None):
    """n-th differences along ``axis`` (bool: not-equal)."""
    a = _array(a, "diff")
    if n == 0:
        return a
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if a.ndim == 0:
        raise ValueError(
            "diff requires input that is at least one dimensional"
        )
    axis = _norm_axis(axis, a.ndim)
    parts = []
    if prepend is not None:
        parts.append(_edge(prepend, a, axis))
    parts.append(a)
    if append is not None:
        parts.append(_edge(append, a, axis))
    if len(parts) > 1:
        a = _join(parts, axis)
    for _ in range(n):
        m = a.shape[axis]
        hi = [slice(None)] * a.ndim
        lo = [slice(None)] * a.ndim
        hi[axis] = slice(1, None)
        lo[axis] = slice(None, builtins.max(m - 1, 0))
        x1, x0 = a[tuple(hi)], a[tuple(lo)]
        if a.dtype == _dtypes.bool_:
            a = _ops.not_equal(x1, x0)
        else:
            a = _ops.subtract(x1, x0)
    return a


@J.steps_by_example
def ediff1d(ary, to_end=None, to_begin=None):
    a = _flat(_array(ary, "ediff1d"))
    if a.dtype == _dtypes.bool_:
        raise TypeError(
            "ediff1d of booleans: numpy boolean subtract is not supported"
        )
    d = diff(a) if a.size else _empty(0, a.dtype, a)
    parts = []
    for v in (to_begin, d, to_end):
        if v is None:
            continue
        if v is not d:
            v = _flat(_edge(v, a, 0))
            v = _ops.astype(v, a.dtype)
        parts.append(v)
    return _join(parts, 0) if len(parts) > 1 else d
