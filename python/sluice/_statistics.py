"""Statistics with NumPy's semantics: order statistics (median, quantile,
percentile and their nan* forms) from a sort along the axis, histograms
and bincount from per-block private counts (``_sort_kernels``), nan*
reductions, average, ptp, cov, corrcoef and digitize. Everything runs on
the array's queue; the host only reads numbers that decide a result's size
or NumPy's errors (bincount's length, histogram's range when not given).
"""

import builtins

import numpy as np

from . import _dtypes, _ops
from . import _jit_library as J
from . import _coop_kernels as C
from . import _sort_kernels as K
from . import kernel_api as kapi
from ._kernel import call_kernel
from ._sorting import (
    _array,
    _as_array_like,
    _blocks,
    _contig,
    _empty,
    _flat,
    _full,
    _norm_axis,
    _zeros,
    cooperative,
    searchsorted,
    sort,
)


def _isnan(a):
    return _ops.not_equal(a, a)


def _float(a):
    if a.dtype.kind == "f":
        return a
    from ._ops import _float_for

    return _ops.astype(a, _float_for(a))


# --- nan reductions ---------------------------------------------------------


@J.steps_by_example
def nansum(a, axis=None, dtype=None, out=None, keepdims=False):
    a = _array(a, "nansum")
    if a.dtype.kind == "f":
        a = _ops.where(_isnan(a), 0, a)
    return _ops.sum(a, axis=axis, dtype=dtype, keepdims=keepdims)


@J.steps_by_example
def nanprod(a, axis=None, dtype=None, out=None, keepdims=False):
    a = _array(a, "nanprod")
    if a.dtype.kind == "f":
        a = _ops.where(_isnan(a), 1, a)
    return _ops.prod(a, axis=axis, dtype=dtype, keepdims=keepdims)


def _nan_extreme(a, axis, keepdims, is_max):
    a = _array(a, "nanmax" if is_max else "nanmin")
    f = _ops.max if is_max else _ops.min
    if a.dtype.kind != "f":
        return f(a, axis=axis, keepdims=keepdims)
    nan = _isnan(a)
    r = f(
        _ops.where(nan, -np.inf if is_max else np.inf, a),
        axis=axis,
        keepdims=keepdims,
    )
    allnan = _ops.all(nan, axis=axis, keepdims=keepdims)
    return _ops.where(allnan, np.nan, r)


@J.steps_by_example
def nanmax(a, axis=None, out=None, keepdims=False):
    """max ignoring NaNs (an all-NaN slice gives NaN)."""
    return _nan_extreme(a, axis, keepdims, True)


@J.steps_by_example
def nanmin(a, axis=None, out=None, keepdims=False):
    return _nan_extreme(a, axis, keepdims, False)


def _nan_count(a, axis, keepdims):
    return _ops.sum(
        _ops.logical_not(_isnan(a)),
        axis=axis,
        dtype=_dtypes.int64,
        keepdims=keepdims,
    )


@J.steps_by_example
def nanmean(a, axis=None, dtype=None, out=None, keepdims=False):
    a = _array(a, "nanmean")
    if a.dtype.kind != "f":
        return _ops.mean(a, axis=axis, dtype=dtype, keepdims=keepdims)
    s = nansum(a, axis=axis, keepdims=keepdims)
    n = _nan_count(a, axis, keepdims)
    return _ops.divide(s, _ops.astype(n, s.dtype))


@J.steps_by_example
def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    a = _array(a, "nanvar")
    if a.dtype.kind != "f":
        return _ops.var(a, axis=axis, ddof=ddof, keepdims=keepdims)
    m = nanmean(a, axis=axis, keepdims=True)
    d = _ops.where(_isnan(a), 0, _ops.subtract(a, m))
    s = _ops.sum(_ops.multiply(d, d), axis=axis, keepdims=keepdims)
    n = _ops.subtract(
        _ops.astype(_nan_count(a, axis, keepdims), s.dtype), ddof
    )
    return _ops.divide(s, _ops.where(_ops.less_equal(n, 0), np.nan, n))


@J.steps_by_example
def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    return _ops.sqrt(nanvar(a, axis=axis, ddof=ddof, keepdims=keepdims))


def ptp(a, axis=None, out=None, keepdims=False):
    """max - min along axis."""
    return _ops.subtract(
        _ops.max(a, axis=axis, keepdims=keepdims),
        _ops.min(a, axis=axis, keepdims=keepdims),
    )


@J.steps_by_example
def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    a = _array(a, "average")
    if weights is None:
        r = _ops.mean(a, axis=axis, keepdims=keepdims)
        n = (
            a.size
            if axis is None
            else int(np.prod([a.shape[i] for i in np.atleast_1d(axis)]))
        )
        if returned:
            return r, _full(r.shape, n, r.dtype, a)
        return r
    w = _as_array_like(weights, a)
    if w.shape != a.shape:
        if axis is None or w.ndim != 1:
            raise TypeError(
                "Axis must be specified when shapes of a and weights differ."
            )
        ax = _norm_axis(axis, a.ndim)
        shape = [1] * a.ndim
        shape[ax] = w.shape[0]
        w = _ops.reshape(w, tuple(shape))
    a = _float(a)
    s = _ops.sum(_ops.multiply(a, w), axis=axis, keepdims=keepdims)
    sw = _ops.sum(
        _ops.broadcast_to(_ops.astype(w, a.dtype), a.shape),
        axis=axis,
        keepdims=keepdims,
    )
    r = _ops.divide(s, sw)
    return (r, sw) if returned else r


# --- order statistics --------------------------------------------------------


# NumPy's methods (Hyndman and Fan): the continuous ones as (alpha, beta)
# of the virtual index n q + alpha + q (1 - alpha - beta) - 1, interpolated
# between its neighbours; the others pick an element (or average two)
_CONTINUOUS = {
    "linear": (1.0, 1.0),
    "weibull": (0.0, 0.0),
    "hazen": (0.5, 0.5),
    "median_unbiased": (1 / 3, 1 / 3),
    "normal_unbiased": (3 / 8, 3 / 8),
    "interpolated_inverted_cdf": (0.0, 1.0),
}
_DISCRETE = (
    "lower",
    "higher",
    "nearest",
    "inverted_cdf",
    "closest_observation",
)
_METHODS = (*_CONTINUOUS, *_DISCRETE, "midpoint", "averaged_inverted_cdf")


def _positions(method, cnt, qv):
    """(lower index, weight of the next one) of quantile qv per row of
    ``cnt`` valid elements, as float64 arrays (the index unclipped)."""
    n = _ops.astype(cnt, _dtypes.float64)
    last = _ops.subtract(n, 1.0)
    if method in _CONTINUOUS:
        al, be = _CONTINUOUS[method]
        pos = _ops.add(_ops.multiply(n, qv), al + qv * (1 - al - be) - 1)
        pos = _ops.minimum(_ops.maximum(pos, 0.0), last)
        lo = _ops.floor(pos)
        return lo, _ops.subtract(pos, lo)
    zero = _ops.multiply(n, 0.0)
    if method in ("lower", "higher", "nearest", "midpoint"):
        pos = _ops.multiply(last, qv)
        fl = _ops.floor(pos)
        if method == "lower":
            return fl, zero
        if method == "higher":
            return _ops.ceil(pos), zero
        if method == "nearest":
            return _ops.round(pos), zero
        half = _ops.where(_ops.equal(pos, fl), 0.0, 0.5)
        return fl, _ops.add(zero, half)
    pos = _ops.subtract(_ops.multiply(n, qv), 1.0)
    if method == "closest_observation":
        pos = _ops.subtract(pos, 0.5)
    fl = _ops.floor(pos)
    frac_zero = _ops.equal(pos, fl)
    if method == "inverted_cdf":
        return _ops.where(frac_zero, fl, _ops.add(fl, 1.0)), zero
    if method == "averaged_inverted_cdf":
        return fl, _ops.where(frac_zero, 0.5, 1.0)
    # closest_observation: the even order statistic (1-based) of two
    # equally close ones
    odd = _ops.equal(_ops.remainder(fl, 2.0), 1.0)
    pick = _ops.logical_and(frac_zero, odd)
    return _ops.where(pick, fl, _ops.add(fl, 1.0)), zero


def _index(pos):
    return _ops.astype(_ops.maximum(pos, 0.0), _dtypes.int64)


def _quantile(a, q, axis, keepdims, ignore_nan, name, method="linear"):
    if method not in _METHODS:
        raise ValueError(
            f"'{method}' is not a valid method. Use one of: {_METHODS}"
        )
    a = _array(a, name)
    qs = np.asarray(q, dtype=np.float64)
    if np.any((qs < 0) | (qs > 1)) or np.any(np.isnan(qs)):
        raise ValueError("Quantiles must be in the range [0, 1]")
    in_dtype = a.dtype
    # the methods that pick an element pick it from the integers themselves
    # (floats would round those above 2**53)
    if not (method in _DISCRETE and in_dtype.kind in "iu"):
        a = _float(a)
    nd = a.ndim
    if axis is None:
        x = _flat(a)
        ax = 0
    else:
        ax = _norm_axis(axis, nd)
        x = a
    s = sort(x, axis=ax)
    # move the sorted axis last: (rows, length)
    perm = [i for i in range(s.ndim) if i != ax] + [ax]
    s = _contig(_ops.transpose(s, perm)) if ax != s.ndim - 1 else s
    length = s.shape[-1]
    red_shape = s.shape[:-1]
    rows = int(np.prod(red_shape, dtype=np.int64))
    if length == 0:
        if name in ("quantile", "percentile"):
            raise IndexError(f"{name} of an empty axis")
        # NumPy: NaN (with a RuntimeWarning) for the median and the NaN-
        # ignoring quantiles of nothing
        a = _float(a)
        s = _full(rows * builtins.max(length, 1), np.nan, a.dtype, a)
        s = _ops.reshape(s, (*red_shape, 1))
        length = 1
    flat = _ops.reshape(s, (s.size,))
    if ignore_nan:
        cnt = _ops.reshape(_nan_count(s, -1, False), (rows,))
    else:
        cnt = _full(rows, length, _dtypes.int64, a)
    last = _ops.astype(_ops.maximum(_ops.subtract(cnt, 1), 0), _dtypes.int64)
    results = []
    for qv in qs.reshape(-1):
        lof, tf = _positions(method, cnt, float(qv))
        lo = _ops.minimum(_index(lof), last)
        hi = _ops.minimum(_index(_ops.add(lof, 1.0)), last)
        t = _ops.astype(tf, a.dtype)
        vlo = _empty(rows, a.dtype, a)
        vhi = _empty(rows, a.dtype, a)
        call_kernel(K.k_pick_rows, kapi.Range(rows), flat, lo, length, vlo)
        call_kernel(K.k_pick_rows, kapi.Range(rows), flat, hi, length, vhi)
        d = _ops.subtract(vhi, vlo)
        r = _ops.where(
            _ops.greater_equal(t, 0.5),
            _ops.subtract(vhi, _ops.multiply(d, _ops.subtract(1, t))),
            _ops.add(vlo, _ops.multiply(d, t)),
        )
        r = _ops.where(_ops.equal(vhi, vlo), vlo, r)
        if a.dtype.kind != "f":
            pass  # integers picked as they are: no NaN to propagate
        elif ignore_nan:
            r = _ops.where(_ops.less_equal(cnt, 0), np.nan, r)
        else:
            lastv = _empty(rows, a.dtype, a)
            call_kernel(
                K.k_pick_rows,
                kapi.Range(rows),
                flat,
                _full(rows, length - 1, _dtypes.int64, a),
                length,
                lastv,
            )
            r = _ops.where(_isnan(lastv), np.nan, r)
        r = _ops.reshape(r, red_shape)
        if method in _DISCRETE and in_dtype.kind in "iub":
            r = _ops.astype(r, in_dtype)  # an element: NumPy keeps its type
        if keepdims:
            if axis is None:
                r = _ops.reshape(r, (1,) * nd)
            else:
                r = _ops.expand_dims(r, ax)
        results.append(r)
    if qs.ndim == 0:
        return results[0]
    from ._creation import empty

    out = empty(
        qs.shape + results[0].shape,
        dtype=results[0].dtype,
        sycl_queue=a.sycl_queue,
        usm_type=a.usm_type,
    )
    for i, r in enumerate(results):
        out[np.unravel_index(i, qs.shape)] = r
    return out


@J.steps_by_example
def quantile(
    a,
    q,
    axis=None,
    out=None,
    overwrite_input=False,
    method="linear",
    keepdims=False,
    *,
    weights=None,
):
    if weights is not None:
        raise NotImplementedError("quantile(weights=...)")
    return _quantile(a, q, axis, keepdims, False, "quantile", method)


@J.steps_by_example
def nanquantile(
    a,
    q,
    axis=None,
    out=None,
    overwrite_input=False,
    method="linear",
    keepdims=False,
    *,
    weights=None,
):
    if weights is not None:
        raise NotImplementedError("nanquantile(weights=...)")
    return _quantile(a, q, axis, keepdims, True, "nanquantile", method)


@J.steps_by_example
def percentile(
    a,
    q,
    axis=None,
    out=None,
    overwrite_input=False,
    method="linear",
    keepdims=False,
    *,
    weights=None,
):
    if weights is not None:
        raise NotImplementedError("percentile(weights=...)")
    return _quantile(
        a,
        np.asarray(q, dtype=np.float64) / 100,
        axis,
        keepdims,
        False,
        "percentile",
        method,
    )


@J.steps_by_example
def nanpercentile(
    a,
    q,
    axis=None,
    out=None,
    overwrite_input=False,
    method="linear",
    keepdims=False,
    *,
    weights=None,
):
    if weights is not None:
        raise NotImplementedError("nanpercentile(weights=...)")
    return _quantile(
        a,
        np.asarray(q, dtype=np.float64) / 100,
        axis,
        keepdims,
        True,
        "nanpercentile",
        method,
    )


@J.steps_by_example
def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return _quantile(a, 0.5, axis, keepdims, False, "median")


@J.steps_by_example
def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return _quantile(a, 0.5, axis, keepdims, True, "nanmedian")


# --- covariance --------------------------------------------------------------


@J.steps_by_example
def cov(
    m,
    y=None,
    rowvar=True,
    bias=False,
    ddof=None,
    fweights=None,
    aweights=None,
    *,
    dtype=None,
):
    m = _float(_array(m, "cov"))
    if m.ndim == 1:
        m = _ops.reshape(m, (1, m.shape[0]))
    if not rowvar:
        m = _ops.transpose(m)
    if y is not None:
        y = _float(_as_array_like(y, m))
        if y.ndim == 1:
            y = _ops.reshape(y, (1, y.shape[0]))
        if not rowvar:
            y = _ops.transpose(y)
        from ._scans import _join

        m = _join([m, _ops.astype(y, m.dtype)], 0)
    if ddof is None:
        ddof = 0 if bias else 1
    nobs = m.shape[1]
    w = _cov_weights(fweights, aweights, nobs, m)
    if w is None:
        x = _ops.subtract(m, _ops.mean(m, axis=1, keepdims=True))
        xw = x
        fact = float(builtins.max(nobs - ddof, 0)) or np.nan
    else:
        w = _ops.astype(w, m.dtype)
        w_sum = float(_ops.sum(w))
        avg = _ops.divide(_ops.sum(_ops.multiply(m, w), axis=1), w_sum)
        x = _ops.subtract(m, _ops.expand_dims(avg, 1))
        xw = _ops.multiply(x, w)
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            aw = _ops.astype(_as_array_like(aweights, m), m.dtype)
            fact = w_sum - ddof * float(_ops.sum(_ops.multiply(w, aw))) / (
                w_sum
            )
        if fact <= 0:
            fact = np.nan
    prod = _ops.multiply(_ops.expand_dims(x, 1), _ops.expand_dims(xw, 0))
    c = _ops.sum(prod, axis=2)
    c = _ops.divide(c, fact)
    if c.shape == (1, 1):
        return _ops.reshape(c, ())
    return c


def _cov_weights(fweights, aweights, nobs, like):
    """NumPy's checks of cov's weights; their product (None: none)."""
    w = None
    if fweights is not None:
        f = _as_array_like(fweights, like)
        if f.dtype.kind not in "iub":
            raise TypeError("fweights must be integer")
        if f.ndim > 1:
            raise RuntimeError("cannot handle multidimensional fweights")
        if f.shape[0] != nobs:
            raise RuntimeError("incompatible numbers of samples and fweights")
        if f.size and bool(_ops.any(_ops.less(f, 0))):
            raise ValueError("fweights cannot be negative")
        w = f
    if aweights is not None:
        a = _as_array_like(aweights, like)
        if a.ndim > 1:
            raise RuntimeError("cannot handle multidimensional aweights")
        if a.shape[0] != nobs:
            raise RuntimeError("incompatible numbers of samples and aweights")
        if a.size and bool(_ops.any(_ops.less(a, 0))):
            raise ValueError("aweights cannot be negative")
        w = a if w is None else _ops.multiply(w, a)
    return w


@J.steps_by_example
def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    c = cov(x, y, rowvar)
    if c.ndim == 0:
        return _ops.divide(c, c)
    n = c.shape[0]
    eye = _ops.astype(_as_array_like(np.eye(n), c), _dtypes.bool_)
    d = _ops.sum(_ops.where(eye, c, 0), axis=1)
    sd = _ops.sqrt(d)
    r = _ops.divide(
        _ops.divide(c, _ops.expand_dims(sd, 1)), _ops.expand_dims(sd, 0)
    )
    return _ops.clip(r, -1, 1)


# --- histograms --------------------------------------------------------------


def _count_bins(idx, nbins, weights, like):
    """Counts of each bin in [0, nbins) of a flat int64 index array (other
    values are skipped); weights, when given, are summed instead."""
    n = idx.size
    wdt = weights.dtype if weights is not None else _dtypes.int64
    out = _zeros(nbins, wdt, like)
    if n == 0 or nbins == 0:
        return out
    nb = builtins.max(
        1,
        builtins.min(
            _blocks(n, like), 4 * 1024 * 1024 // builtins.max(nbins, 1)
        ),
    )
    chunk = -(-n // nb)
    counts = _zeros(nb * nbins, wdt, like)
    w = weights if weights is not None else idx
    call_kernel(
        K.k_bin_counts,
        kapi.NdRange((nb,), (1,)),
        idx,
        w,
        n,
        chunk,
        nbins,
        int(weights is not None),
        counts,
    )
    call_kernel(K.k_sum_rows, kapi.Range(nbins), counts, nb, nbins, out)
    return out


def _groups(n):
    """(workgroups, chunk) of ``_coop_kernels``' histogram kernels for n
    elements: at most 4096 workgroups, at least WG * 16 elements each."""
    nb = builtins.max(1, builtins.min(4096, n // (C.WG * 16)))
    chunk = -(-n // nb)
    return -(-n // chunk), chunk


def _local_counts(x, nbins, uniform, edges=None, lo=0.0, norm=0.0):
    """Counts of bins with ``_coop_kernels``' workgroup-private counters;
    None when the bins do not fit in workgroup memory."""
    if nbins > _LOCAL_BINS:
        return None
    out = _zeros(nbins, _dtypes.int64, x)
    n = x.size
    if n == 0 or nbins == 0:
        return out
    nb, chunk = _groups(n)
    if edges is None:
        edges = out
    call_kernel(
        C.HIST[uniform],
        kapi.NdRange((nb * C.WG,), (C.WG,)),
        x,
        n,
        chunk,
        nbins,
        edges,
        float(lo),
        float(norm),
        out,
        kapi.LocalAccessor((nbins,), _dtypes.int32),
    )
    return out


_LOCAL_BINS = 8192  # int32 counters: 32 KB of workgroup memory


_GUESS_BINS = 2048  # bins bincount counts in its first pass


def _bincount_groups(x, minlength):
    """bincount of a non-empty integer array: one pass finds the minimum
    and maximum and counts the values below _GUESS_BINS (workgroup-private
    counts); the host reads the two numbers; only larger values need a
    second pass."""
    if x.dtype == _dtypes.bool_:
        x = _ops.astype(x, _dtypes.uint8)
    n = x.size
    nb, chunk = _groups(n)
    from ._creation import asarray

    mm = asarray(
        np.array([np.iinfo(np.int64).max, np.iinfo(np.int64).min]),
        sycl_queue=x.sycl_queue,
        usm_type=x.usm_type,
    )
    nloc = builtins.max(_GUESS_BINS, builtins.min(minlength, _LOCAL_BINS))
    counts = _zeros(nloc, _dtypes.int64, x)
    call_kernel(
        C.k_bincount_minmax,
        kapi.NdRange((nb * C.WG,), (C.WG,)),
        x,
        n,
        chunk,
        nloc,
        counts,
        mm,
        kapi.LocalAccessor((nloc,), _dtypes.int32),
        kapi.LocalAccessor((C.WG,), _dtypes.int64),
        kapi.LocalAccessor((C.WG,), _dtypes.int64),
    )
    lo, hi = (int(v) for v in _asnumpy(mm))
    if lo < 0:
        raise ValueError("'list' argument must have no negative elements")
    nbins = builtins.max(minlength, hi + 1)
    if hi < nloc:
        if nbins <= nloc:
            return counts if nbins == nloc else counts[:nbins]
        r = _zeros(nbins, _dtypes.int64, x)
        r[:nloc] = counts
        return r
    r = _local_counts(x, nbins, False)
    if r is None:
        r = _count_bins(
            _contig(_ops.astype(x, _dtypes.int64, copy=False)), nbins, None, x
        )
    return r


def _asnumpy(a):
    from ._array import asnumpy

    return asnumpy(a)


def bincount(x, weights=None, minlength=0):
    """Counts of each non-negative integer in 1-D ``x``."""
    x = _array(x, "bincount")
    if x.ndim != 1:
        raise ValueError("object too deep for desired array")
    if x.dtype.kind not in "iub":
        raise TypeError(
            "Cannot cast array data from dtype('float64') to "
            "dtype('int64') according to the rule 'safe'"
        )
    if weights is None and x.size and cooperative(x):
        return _bincount_groups(_contig(x), minlength)
    xi = _contig(_ops.astype(x, _dtypes.int64, copy=False))
    nbins = minlength
    if x.size:
        if int(_ops.min(xi)) < 0:
            raise ValueError("'list' argument must have no negative elements")
        nbins = builtins.max(minlength, int(_ops.max(xi)) + 1)
    w = None
    if weights is not None:
        w = _contig(
            _ops.astype(
                _as_array_like(weights, x),
                _dtypes.float64
                if x.sycl_device.has_aspect_fp64
                else _dtypes.float32,
            )
        )
    return _count_bins(xi, nbins, w, x)


def _bin_index(x, edges):
    n = x.size
    idx = _empty(n, _dtypes.int64, x)
    if n:
        call_kernel(K.k_edges_bin, kapi.Range(n), x, edges, edges.size, idx)
    return idx


def _edges(a, bins, rng):
    """Bin edges as NumPy computes them (on the host, from the range)."""
    from ._array import Array

    if isinstance(bins, Array):
        return bins
    if not np.isscalar(bins):
        return _as_array_like(np.asarray(bins), a)
    if rng is None:
        if a.size:
            lo, hi = _ops.min(a), _ops.max(a)
            lo_h = np.asarray(
                lo._item() if hasattr(lo, "_item") else float(lo),
                dtype=a.dtype,
            )
            hi_h = np.asarray(
                hi._item() if hasattr(hi, "_item") else float(hi),
                dtype=a.dtype,
            )
            sample = np.array([lo_h, hi_h], dtype=a.dtype)
        else:
            sample = np.zeros(0, dtype=a.dtype)
        e = np.histogram_bin_edges(sample, bins)
    else:
        e = np.histogram_bin_edges(np.zeros(0, dtype=a.dtype), bins, range=rng)
    return _as_array_like(e, a)


@J.steps_by_example
def histogram(a, bins=10, range=None, density=None, weights=None):
    """Counts of ``a`` in bins (NumPy's edges; the last bin is closed)."""
    a = _array(a, "histogram")
    edges = _edges(a, bins, range)
    dt = np.result_type(a.dtype, edges.dtype)
    e = _contig(_ops.astype(edges, dt, copy=False))
    w = None
    if weights is not None:
        w = _flat(_as_array_like(weights, a))
    if np.isscalar(bins) and e.size > 1 and w is None and cooperative(a):
        # (floats are read as they are: compared with the edges' dtype)
        x = _flat(a if a.dtype.kind == "f" else _ops.astype(a, dt))
        # equal bins counted in workgroup memory as they are computed
        eh = (
            np.histogram_bin_edges(np.zeros(0), bins, range) if range else None
        )
        lo, hi = (
            (float(eh[0]), float(eh[-1]))
            if eh is not None
            else (float(e[0]), float(e[e.size - 1]))
        )
        nb = e.size - 1
        hist = _local_counts(x, nb, True, e, lo, nb / (hi - lo))
        if hist is not None:
            if density:
                widths = _ops.subtract(e[1:], e[:-1])
                hist = _ops.divide(_ops.divide(hist, _ops.sum(hist)), widths)
            return hist, edges
    x = _flat(_ops.astype(a, dt, copy=False))
    if np.isscalar(bins) and e.size > 1:
        # equal bins: O(1) per value, as NumPy's own fast path
        eh = (
            np.histogram_bin_edges(np.zeros(0), bins, range) if range else None
        )
        lo, hi = (
            (float(eh[0]), float(eh[-1]))
            if eh is not None
            else (float(e[0]), float(e[e.size - 1]))
        )
        idx = _empty(x.size, _dtypes.int64, a)
        if x.size:
            call_kernel(
                K.k_uniform_bin,
                kapi.Range(x.size),
                x,
                e,
                e.size - 1,
                lo,
                (e.size - 1) / (hi - lo),
                idx,
            )
    else:
        idx = _bin_index(x, e)
    hist = _count_bins(idx, e.size - 1, w, a)
    if density:
        widths = _ops.subtract(e[1:], e[:-1])
        hist = _ops.divide(_ops.divide(hist, _ops.sum(hist)), widths)
    return hist, edges


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    return _edges(_array(a, "histogram_bin_edges"), bins, range)


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """Counts of the rows of an (N, D) sample in a D-dimensional grid."""
    sample = _array(sample, "histogramdd")
    if sample.ndim == 1:
        sample = _ops.reshape(sample, (sample.shape[0], 1))
    n, dims = sample.shape
    bl = list(bins) if not np.isscalar(bins) else [bins] * dims
    rl = list(range) if range is not None else [None] * dims
    lin = None
    edges = []
    sizes = []
    for d in builtins.range(dims):
        col = _contig(sample[:, d])
        e = _edges(col, bl[d], rl[d])
        dt = np.result_type(col.dtype, e.dtype)
        e = _contig(_ops.astype(e, dt, copy=False))
        idx = _bin_index(_ops.astype(col, dt, copy=False), e)
        nb = e.size - 1
        edges.append(e)
        sizes.append(nb)
        if lin is None:
            lin = idx
        else:
            bad = _ops.logical_or(_ops.less(lin, 0), _ops.less(idx, 0))
            lin = _ops.where(bad, -1, _ops.add(_ops.multiply(lin, nb), idx))
    w = None if weights is None else _flat(_as_array_like(weights, sample))
    hist = _count_bins(_contig(lin), int(np.prod(sizes)), w, sample)
    # NumPy counts in floats here (histogram itself counts in integers)
    hist = _float(_ops.reshape(hist, tuple(sizes)))
    if density:
        hist = _ops.divide(hist, _ops.sum(hist))
        for d, e in enumerate(edges):
            shape = [1] * dims
            shape[d] = sizes[d]
            hist = _ops.divide(
                hist, _ops.reshape(_ops.subtract(e[1:], e[:-1]), tuple(shape))
            )
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    x = _array(x, "histogram2d")
    y = _as_array_like(y, x)
    from ._scans import _join

    dt = np.result_type(x.dtype, y.dtype)
    s = _join(
        [
            _ops.reshape(_ops.astype(x, dt), (x.size, 1)),
            _ops.reshape(_ops.astype(y, dt), (y.size, 1)),
        ],
        1,
    )
    if not np.isscalar(bins) and len(bins) != 2:
        bins = [bins, bins]
    h, e = histogramdd(s, bins, range, density, weights)
    return h, e[0], e[1]


@J.steps_by_example
def digitize(x, bins, right=False):
    """Indices of the bins each value of ``x`` falls in (NumPy's rule:
    searchsorted on increasing bins, mirrored on decreasing ones)."""
    x = _array(x, "digitize")
    b = _contig(_as_array_like(bins, x))
    if b.ndim != 1:
        raise ValueError("bins must be one-dimensional")
    side = "left" if right else "right"
    if b.size > 1 and bool(_ops.less(b[b.size - 1], b[0])):
        rev = _contig(b[::-1])
        return _ops.subtract(b.size, searchsorted(rev, x, side=side))
    return searchsorted(b, x, side=side)


# --- reductions of dpnp beyond NumPy -----------------------------------------


@J.steps_by_example
def logsumexp(x, /, *, axis=None, dtype=None, keepdims=False, out=None):
    """log(sum(exp(x))) along axis, computed stably (dpnp.logsumexp)."""
    x = _float(_array(x, "logsumexp"))
    if dtype is not None:
        x = _ops.astype(x, dtype)
    m = _ops.max(x, axis=axis, keepdims=True)
    finite = _ops.equal(_ops.subtract(m, m), 0)  # not inf or NaN
    m0 = _ops.where(finite, m, 0)
    s = _ops.sum(_ops.exp(_ops.subtract(x, m0)), axis=axis, keepdims=keepdims)
    if not keepdims:
        m0 = _ops.reshape(m0, s.shape)
    return _ops.add(_ops.log(s), m0)


@J.steps_by_example
def reduce_hypot(x, /, *, axis=None, dtype=None, keepdims=False, out=None):
    """sqrt(sum(x**2)) along axis, scaled against overflow
    (dpnp.reduce_hypot)."""
    x = _float(_array(x, "reduce_hypot"))
    if dtype is not None:
        x = _ops.astype(x, dtype)
    m = _ops.max(_ops.absolute(x), axis=axis, keepdims=True)
    ok = _ops.logical_and(
        _ops.greater(m, 0), _ops.equal(_ops.subtract(m, m), 0)
    )
    scale = _ops.where(ok, m, 1)
    y = _ops.divide(x, scale)
    s = _ops.sqrt(_ops.sum(_ops.multiply(y, y), axis=axis, keepdims=keepdims))
    if not keepdims:
        scale = _ops.reshape(scale, s.shape)
        m = _ops.reshape(m, s.shape)
    r = _ops.multiply(s, scale)
    return _ops.where(_ops.equal(_ops.subtract(m, m), 0), r, m)
