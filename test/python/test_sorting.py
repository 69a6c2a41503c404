"""Sorting, searching, sets, scans, statistics and random numbers against
NumPy (hypothesis over shapes, axes and dtypes; NaN order, empty arrays,
stability), on each device."""

import numpy as np
import pytest

import sluice

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

SETTINGS = settings(
    max_examples=15,
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
    ],
)

DTYPES = [
    np.dtype(t)
    for t in (
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float32",
        "float64",
        "bool",
    )
]
A = sluice.asnumpy


def _supported(device, dt):
    return not (dt == np.float64 and not device.has_aspect_fp64)


def _values(dt):
    if dt.kind == "f":
        # few distinct values: ties test stability; NaN and infinities
        return st.sampled_from(
            [0.0, -0.0, 1.5, -2.0, 3.25, np.inf, -np.inf, np.nan, 1e30, -1e-30]
        )
    if dt.kind == "b":
        return st.booleans()
    info = np.iinfo(dt)
    return st.sampled_from(
        sorted({int(info.min), int(info.max), 0, 1, 7, max(int(info.min), -3)})
    )


@st.composite
def _array_axis(draw, min_dims=1):
    dt = draw(st.sampled_from(DTYPES))
    shape = draw(
        hnp.array_shapes(min_dims=min_dims, max_dims=3, min_side=0, max_side=7)
    )
    a = draw(hnp.arrays(dt, shape, elements=_values(dt)))
    axis = draw(st.integers(-len(shape), len(shape) - 1) | st.none())
    return a, axis


def _eq(got, expected):
    got = A(got)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    np.testing.assert_array_equal(got, expected)


@SETTINGS
@given(data=_array_axis())
def test_sort_argsort_match_numpy(device, data):
    a, axis = data
    if not _supported(device, a.dtype):
        return
    x = sluice.asarray(a, device=device)
    _eq(sluice.sort(x, axis=axis), np.sort(a, axis=axis))
    _eq(sluice.argsort(x, axis=axis), np.argsort(a, axis=axis, kind="stable"))


@SETTINGS
@given(data=_array_axis())
def test_descending_is_stable_with_nans_last(device, data):
    a, axis = data
    if not _supported(device, a.dtype):
        return
    x = sluice.asarray(a, device=device)
    got = A(sluice.argsort(x, axis=axis, descending=True))
    if a.size == 0:
        assert got.shape == (a.reshape(-1) if axis is None else a).shape
        return
    flat = a.reshape(-1) if axis is None else np.moveaxis(a, axis, -1)
    idx = got if axis is None else np.moveaxis(got, axis, -1)
    flat = flat.reshape(-1, flat.shape[-1]) if flat.size else flat
    idx = idx.reshape(flat.shape)
    for row, ix in zip(np.atleast_2d(flat), np.atleast_2d(idx)):
        vals = row[ix]
        nan = (
            np.isnan(vals)
            if vals.dtype.kind == "f"
            else np.zeros(len(vals), bool)
        )
        # NaNs last, the rest non-increasing, ties in their first order
        assert not (nan[:-1] & ~nan[1:]).any()
        v = vals[~nan]
        assert (v[:-1] >= v[1:]).all()
        same = v[:-1] == v[1:]
        assert (ix[~nan][:-1][same] < ix[~nan][1:][same]).all()
    s = A(sluice.sort(x, axis=axis, descending=True))
    ax = -1 if axis is None else axis
    np.testing.assert_array_equal(
        s, np.take_along_axis(a.reshape(-1) if axis is None else a, got, ax)
    )


@SETTINGS
@given(data=_array_axis())
def test_scans_match_numpy(device, data):
    a, axis = data
    if not _supported(device, a.dtype):
        return
    if a.dtype.kind == "f":
        a = np.where(np.isfinite(a) & (np.abs(a) < 100), a, 1.0).astype(
            a.dtype
        )
    x = sluice.asarray(a, device=device)
    for name in ("cumsum", "cumprod"):
        exp = getattr(np, name)(a, axis=axis)
        if exp.dtype == np.float64 and not device.has_aspect_fp64:
            continue
        got = A(getattr(sluice, name)(x, axis=axis))
        assert got.dtype == exp.dtype and got.shape == exp.shape
        if exp.dtype.kind == "f":
            np.testing.assert_allclose(got, exp, rtol=1e-5)
        else:
            np.testing.assert_array_equal(got, exp)


@SETTINGS
@given(data=_array_axis())
def test_argmax_argmin_count_nonzero(device, data):
    a, axis = data
    if not _supported(device, a.dtype):
        return
    x = sluice.asarray(a, device=device)
    ax = 0 if axis is None and a.ndim == 1 else axis
    if a.size == 0 if ax is None else a.shape[ax] == 0:
        with pytest.raises(ValueError):
            sluice.argmax(x, axis=ax)
    else:
        _eq(sluice.argmax(x, axis=ax), np.argmax(a, axis=ax))
        _eq(
            sluice.argmin(x, axis=ax, keepdims=True),
            np.argmin(a, axis=ax, keepdims=True),
        )
    _eq(
        sluice.count_nonzero(x, axis=axis),
        np.asarray(np.count_nonzero(a, axis=axis), dtype=np.int64),
    )


@SETTINGS
@given(data=_array_axis())
def test_unique_family(device, data):
    a, _ = data
    if not _supported(device, a.dtype):
        return
    x = sluice.asarray(a, device=device)
    v, i, inv, c = np.unique(
        a, return_index=True, return_inverse=True, return_counts=True
    )
    got = sluice.unique(
        x, return_index=True, return_inverse=True, return_counts=True
    )
    np.testing.assert_array_equal(A(got[0]), v)
    _eq(got[1], i.astype(np.int64))
    np.testing.assert_array_equal(A(got[2]).reshape(-1), inv.reshape(-1))
    _eq(got[3], c.astype(np.int64))
    r = sluice.unique_all(x)
    assert A(r.inverse_indices).shape == a.shape
    np.testing.assert_array_equal(A(r.values)[A(r.inverse_indices)], a)


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_sort_and_unique_match_numpy(device, dt):
    """Complex numbers sort as NumPy sorts them: by (category, real,
    imaginary) with the categories R + Rj, R + nanj, nan + Rj, nan + nanj
    (stable: ties, -0.0 and 0.0 keep their order); unique counts every
    value with a NaN part as one value."""
    if dt == "complex128" and not device.has_aspect_fp64:
        pytest.skip("no fp64 on this device")
    rng = np.random.default_rng(5)
    parts = np.array([np.nan, 0.0, -0.0, 1.0, -1.0, 2.0, np.inf, -np.inf])
    for shape in ((9,), (4, 6), (2, 3, 5), (300,)):
        a = np.empty(shape, dt)
        a.real = rng.choice(parts, shape)
        a.imag = rng.choice(parts, shape)
        x = sluice.asarray(a, device=device)
        for axis in (-1, 0, None):
            e = np.sort(a, axis=axis, kind="stable")
            np.testing.assert_array_equal(A(sluice.sort(x, axis=axis)), e)
            _eq(
                sluice.argsort(x, axis=axis),
                np.argsort(a, axis=axis, kind="stable").astype(np.int64),
            )
        np.testing.assert_array_equal(A(sluice.unique_values(x)), np.unique(a))
        want = np.unique(
            a, return_index=True, return_inverse=True, return_counts=True
        )
        got = sluice.unique(
            x, return_index=True, return_inverse=True, return_counts=True
        )
        for g, w in zip(got, want):
            np.testing.assert_array_equal(A(g).reshape(-1), w.reshape(-1))


def test_nan_order_and_searchsorted(device):
    if not device.has_aspect_fp64:
        pytest.skip("float64")
    a = np.array([3.0, np.nan, -np.inf, 1.0, -0.0, 0.0, np.inf, np.nan, 1.0])
    x = sluice.asarray(a, device=device)
    _eq(sluice.sort(x), np.sort(a))
    _eq(sluice.argsort(x), np.argsort(a, kind="stable"))
    s = np.sort(a)
    v = np.array([np.nan, 1.0, -np.inf, 5.0, np.inf])
    for side in ("left", "right"):
        _eq(
            sluice.searchsorted(
                sluice.asarray(s, device=device),
                sluice.asarray(v, device=device),
                side=side,
            ),
            np.searchsorted(s, v, side=side),
        )
    _eq(sluice.nanargmax(x), np.int64(np.nanargmax(a)))
    _eq(sluice.argmax(x), np.int64(np.argmax(a)))
    with pytest.raises(ValueError, match="All-NaN"):
        sluice.nanargmin(sluice.asarray(np.full(3, np.nan), device=device))


def test_large_sort_and_scan(device):
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(300_001) * 1e3).astype(np.float32)
    a[::1000] = np.nan
    x = sluice.asarray(a, device=device)
    _eq(sluice.sort(x), np.sort(a))
    _eq(sluice.argsort(x), np.argsort(a, kind="stable"))
    k = rng.integers(-5, 5, size=(3, 100_003)).astype(np.int32)
    xk = sluice.asarray(k, device=device)
    _eq(sluice.argsort(xk, axis=1), np.argsort(k, axis=1, kind="stable"))
    _eq(sluice.cumsum(xk, axis=1), np.cumsum(k, axis=1))
    np.testing.assert_allclose(
        A(
            sluice.cumsum(
                sluice.asarray(np.ones(300_001, np.float32), device=device)
            )
        )[-1],
        300_001,
    )


def test_partition_and_sets(device):
    rng = np.random.default_rng(4)
    a = rng.integers(0, 40, 200)
    b = rng.integers(20, 60, 150)
    x, y = (sluice.asarray(v, device=device) for v in (a, b))
    p = A(sluice.partition(x, 17))
    assert (
        p[17] == np.sort(a)[17]
        and (p[:17] <= p[17]).all()
        and (p[18:] >= p[17]).all()
    )
    ap = A(sluice.argpartition(x, 5))
    assert a[ap][5] == np.sort(a)[5]
    _eq(sluice.isin(x, y), np.isin(a, b))
    _eq(sluice.isin(x, y, invert=True), np.isin(a, b, invert=True))
    _eq(sluice.intersect1d(x, y), np.intersect1d(a, b))
    _eq(sluice.union1d(x, y), np.union1d(a, b))
    _eq(sluice.setdiff1d(x, y), np.setdiff1d(a, b))
    with pytest.raises(ValueError):
        sluice.partition(x, 500)


def test_scans_and_differences(device):
    rng = np.random.default_rng(5)
    f = rng.standard_normal((4, 9)).astype(np.float32)
    f[1, 2] = np.nan
    x = sluice.asarray(f, device=device)
    np.testing.assert_allclose(
        A(sluice.nancumsum(x, axis=1)), np.nancumsum(f, axis=1), rtol=1e-5
    )
    np.testing.assert_allclose(
        A(sluice.nancumprod(x, axis=0)), np.nancumprod(f, axis=0), rtol=1e-5
    )
    i = rng.integers(-4, 4, (3, 5))
    xi = sluice.asarray(i, device=device)
    _eq(
        sluice.cumulative_sum(xi, axis=1, include_initial=True),
        np.cumulative_sum(i, axis=1, include_initial=True),
    )
    _eq(sluice.cumulative_prod(xi, axis=0), np.cumulative_prod(i, axis=0))
    _eq(sluice.diff(xi, n=2, axis=1), np.diff(i, n=2, axis=1))
    _eq(
        sluice.diff(xi, axis=0, prepend=0, append=9),
        np.diff(i, axis=0, prepend=0, append=9),
    )
    _eq(sluice.diff(sluice.asarray(i > 0, device=device)), np.diff(i > 0))
    _eq(
        sluice.ediff1d(xi, to_begin=[-7], to_end=7),
        np.ediff1d(i, to_begin=[-7], to_end=7),
    )
    with pytest.raises(ValueError):
        sluice.cumulative_sum(xi)


def test_statistics(device):
    rng = np.random.default_rng(6)
    f = rng.standard_normal((5, 37)).astype(np.float32)
    g = f.copy()
    g[2, 3] = np.nan
    x, y = (sluice.asarray(v, device=device) for v in (f, g))

    def close(got, exp, tol=1e-5):
        np.testing.assert_allclose(A(got), exp, rtol=tol, atol=tol)

    close(sluice.median(y, axis=1), np.median(g, axis=1))
    close(
        sluice.nanmedian(y, axis=1, keepdims=True),
        np.nanmedian(g, axis=1, keepdims=True),
    )
    close(
        sluice.percentile(x, [5, 50, 99], axis=0),
        np.percentile(f, [5, 50, 99], axis=0),
    )
    close(sluice.quantile(x, 0.25), np.quantile(f, 0.25))
    close(sluice.nanpercentile(y, 75), np.nanpercentile(g, 75))
    close(
        sluice.nanquantile(y, [0.1, 0.9], axis=1),
        np.nanquantile(g, [0.1, 0.9], axis=1),
    )
    close(sluice.nansum(y, axis=0), np.nansum(g, axis=0))
    close(sluice.nanprod(y, axis=1), np.nanprod(g, axis=1), 1e-4)
    close(sluice.nanmax(y, axis=1), np.nanmax(g, axis=1))
    close(sluice.nanmin(y), np.nanmin(g))
    close(sluice.nanmean(y, axis=1), np.nanmean(g, axis=1))
    close(sluice.nanvar(y, axis=1, ddof=1), np.nanvar(g, axis=1, ddof=1), 1e-4)
    close(sluice.nanstd(y), np.nanstd(g), 1e-4)
    close(sluice.ptp(x, axis=1), np.ptp(f, axis=1))
    w = np.arange(1, 38, dtype=np.float32)
    close(
        sluice.average(x, axis=1, weights=sluice.asarray(w, device=device)),
        np.average(f, axis=1, weights=w),
        1e-4,
    )
    close(sluice.average(x), np.average(f))
    close(sluice.cov(x), np.cov(f), 1e-4)
    close(
        sluice.cov(x, rowvar=False, bias=True),
        np.cov(f, rowvar=False, bias=True),
        1e-4,
    )
    close(sluice.corrcoef(x), np.corrcoef(f), 1e-4)
    assert np.isnan(
        A(
            sluice.nanmax(
                sluice.asarray(
                    np.full((2, 3), np.nan, np.float32), device=device
                ),
                axis=1,
            )
        )
    ).all()


def test_histograms_and_digitize(device):
    rng = np.random.default_rng(7)
    f = rng.standard_normal(5000).astype(np.float32)
    x = sluice.asarray(f, device=device)
    for bins, rng_ in ((10, None), (7, (-1.0, 2.0)), (64, (-3, 3))):
        h, e = sluice.histogram(x, bins=bins, range=rng_)
        eh, ee = np.histogram(f, bins=bins, range=rng_)
        _eq(h, eh)
        np.testing.assert_array_equal(A(e), ee)
    edges = np.array([-2, -0.5, 0, 0.1, 3], dtype=np.float32)
    h, _ = sluice.histogram(x, bins=sluice.asarray(edges, device=device))
    _eq(h, np.histogram(f, bins=edges)[0])
    hd, _ = sluice.histogram(x, bins=5, density=True)
    np.testing.assert_allclose(
        A(hd), np.histogram(f, 5, density=True)[0], rtol=1e-5
    )
    y = sluice.asarray(f[::-1].copy(), device=device)
    h2 = sluice.histogram2d(x, y, bins=4)
    # counts in floats, as NumPy's histogram2d and histogramdd give them
    assert A(h2[0]).dtype.kind == "f"
    np.testing.assert_array_equal(
        A(h2[0]), np.histogram2d(f, f[::-1], bins=4)[0]
    )
    i = rng.integers(0, 30, 1000)
    xi = sluice.asarray(i, device=device)
    _eq(sluice.bincount(xi), np.bincount(i))
    if device.has_aspect_fp64:
        wt = rng.random(1000)
        np.testing.assert_allclose(
            A(
                sluice.bincount(
                    xi, weights=sluice.asarray(wt, device=device), minlength=40
                )
            ),
            np.bincount(i, weights=wt, minlength=40),
        )
    with pytest.raises(ValueError):
        sluice.bincount(sluice.asarray(np.array([1, -1]), device=device))
    for bins in ([-1.0, 0.0, 0.5], [0.5, 0.0, -1.0]):
        b = np.array(bins, dtype=np.float32)
        for right in (False, True):
            _eq(
                sluice.digitize(
                    x, sluice.asarray(b, device=device), right=right
                ),
                np.digitize(f, b, right=right),
            )


def test_empty_arrays(device):
    e = sluice.asarray(np.zeros((0, 3), np.float32), device=device)
    _eq(sluice.sort(e, axis=0), np.zeros((0, 3), np.float32))
    _eq(sluice.argsort(e), np.zeros((0, 3), np.int64))
    _eq(sluice.cumsum(e, axis=1), np.zeros((0, 3), np.float32))
    assert A(sluice.unique(e)).shape == (0,)
    with pytest.raises(ValueError):
        sluice.argmax(e)


def test_random_is_reproducible_and_on_the_device(device):
    r = sluice.random.RandomState(11, device=device)
    u = r.uniform(-1, 1, size=20000)
    assert u.sycl_device == device
    un = A(u)
    assert (un >= -1).all() and (un < 1).all() and abs(un.mean()) < 0.05
    again = sluice.random.RandomState(11, device=device)
    np.testing.assert_array_equal(A(again.uniform(-1, 1, size=20000)), un)
    assert not np.array_equal(A(r.uniform(-1, 1, size=20000)), un)
    f = A(r.random_sample(1000, dtype=np.float32))
    assert f.dtype == np.float32 and (f < 1).all() and (f >= 0).all()
    z = A(r.normal(2.0, 3.0, size=20000))
    assert abs(z.mean() - 2) < 0.15 and abs(z.std() - 3) < 0.15
    k = A(r.randint(-3, 4, size=5000, dtype=np.int32))
    assert k.dtype == np.int32 and set(np.unique(k)) == set(range(-3, 4))
    p = A(r.poisson(3.0, size=20000))
    assert abs(p.mean() - 3) < 0.1 and abs(p.var() - 3) < 0.2
    b = A(r.binomial(8, 0.25, size=20000))
    assert abs(b.mean() - 2) < 0.1
    g = A(r.gamma(2.0, 1.5, size=20000))
    assert abs(g.mean() - 3) < 0.1
    assert abs(A(r.beta(2.0, 6.0, size=20000)).mean() - 0.25) < 0.02
    assert abs(A(r.exponential(0.5, size=20000)).mean() - 0.5) < 0.03
    perm = A(r.permutation(50))
    assert sorted(perm) == list(range(50))
    m = sluice.arange(12, device=device).reshape(4, 3)
    r.shuffle(m)
    assert sorted(A(m)[:, 0]) == [0, 3, 6, 9]
    assert (A(m)[:, 1] == A(m)[:, 0] + 1).all()
    c = A(r.choice(4, size=4000, p=[0.5, 0.0, 0.25, 0.25]))
    assert (c != 1).all() and abs((c == 0).mean() - 0.5) < 0.05
    c = A(r.choice(sluice.arange(10, device=device) * 3, 10, replace=False))
    assert sorted(c) == list(range(0, 30, 3))


def test_philox_known_answer(host):
    from sluice import _sort_kernels as K
    from sluice import kernel_api as kapi

    o = sluice.empty(1, dtype=np.float64, device=host)
    sluice.call_kernel(K.k_uniform, kapi.Range(1), o, 0, 0, 0, 0.0, 1.0, 0)
    # Random123's Philox4x32-10 of counter 0, key 0: 6627e8d5 e169c58d ...
    exp = ((0x6627E8D5 >> 5) * 2.0**26 + (0xE169C58D >> 6)) / 2.0**53
    assert A(o)[0] == exp


def test_placement_and_jit_errors(device):
    x = sluice.asarray(np.arange(5.0, dtype=np.float32), device=device)
    q = sluice.Queue(device)
    y = sluice.asarray(np.arange(5.0, dtype=np.float32), sycl_queue=q)
    with pytest.raises(sluice.ExecutionPlacementError):
        sluice.searchsorted(x, y)
    with pytest.raises(TypeError):
        sluice.sort(np.arange(3))


def test_kernels_compile_to_ptx(host):
    """Every kernel signature a small workload uses compiles for CUDA
    (PTX for sm_90) here, with no GPU: the text is built for a CUDA queue
    and lowered to device binaries."""
    from unittest import mock

    from sluice import _compiler, _kernel

    seen = {}
    orig = _kernel.KernelFunction._signature

    def record(self, rng, args):
        r = orig(self, rng, args)
        seen.setdefault((self.__name__, r[5]), (self, r))
        return r

    # (Every launch takes the full signature: none from the launch cache.)
    with (
        mock.patch.object(_kernel.KernelFunction, "_signature", record),
        mock.patch.object(_kernel, "_quick_key", lambda *args: None),
    ):
        rng = np.random.default_rng(0)
        f = sluice.asarray(
            rng.standard_normal((3, 50)).astype(np.float32), device=host
        )
        sluice.sort(f)
        sluice.argsort(f, axis=0)
        # the blocked radix sort's kernels (key, count, offsets, scatter)
        big = sluice.asarray(
            rng.standard_normal(20_000).astype(np.float32), device=host
        )
        sluice.sort(big)
        sluice.argsort(big)
        sluice.unique(sluice.astype(big, np.int32))
        sluice.cumsum(f, axis=1)
        sluice.argmax(f, axis=1)
        sluice.unique(f)
        sluice.histogram(f, 8)
        sluice.median(f, axis=0)
        sluice.random.RandomState(1, device=host).normal(size=4)
    assert len(seen) >= 15
    with (
        mock.patch.object(
            _kernel.KernelFunction, "_target", lambda self, q: "cuda"
        ),
        mock.patch.object(_kernel, "_place", lambda q: '"cuda:gpu:0"'),
    ):
        for (name, _), (k, (_, nd, ndim, sigs, qid, _)) in seen.items():
            text = k._build_text(nd, ndim, sigs, qid)
            out = _compiler.lower_text(text, "binaries", (), name)
            assert "gpu.binary @sluice_cuda_kernels" in out, name
            assert ".target sm_" in out and f".entry {name}(" in out, name


def test_logsumexp_and_reduce_hypot(device):
    if not device.has_aspect_fp64:
        pytest.skip("float64")
    h = np.random.default_rng(8).standard_normal((4, 6)) * 400
    h[2, 1] = np.inf
    x = sluice.asarray(h, device=device)
    m = h.max(1, keepdims=True)
    m0 = np.where(np.isfinite(m), m, 0)
    ref = np.log(np.exp(h - m0).sum(1)) + m0[:, 0]
    np.testing.assert_allclose(A(sluice.logsumexp(x, axis=1)), ref, rtol=1e-12)
    big = h * 1e305
    np.testing.assert_allclose(
        A(sluice.reduce_hypot(sluice.asarray(big, device=device), axis=1)),
        np.hypot.reduce(big, axis=1),
        rtol=1e-12,
    )


# --- the radix sort's paths: one block, many blocks, digits skipped,
# --- sorted input, -0.0 kept, NaNs last ------------------------------------


def _signs_equal(got, expected):
    got = A(got)
    np.testing.assert_array_equal(got, expected)
    ok = ~np.isnan(expected)
    np.testing.assert_array_equal(
        np.signbit(got[ok]), np.signbit(expected[ok])
    )


@pytest.mark.parametrize("n", [7, 1000, 13_001, 20_011])
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_sort_keeps_negative_zero_and_nans_last(device, n, dt):
    # NumPy keeps -0.0, orders -0.0 and 0.0 as equal (stable) and puts NaNs
    # last; small arrays take the one-kernel sort, large ones the blocked
    if not _supported(device, np.dtype(dt)):
        pytest.skip("float64")
    rng = np.random.default_rng(n)
    a = rng.choice(np.array([0.0, -0.0, np.nan, 2.5, -1.0, np.inf], dt), n)
    x = sluice.asarray(a, device=device)
    _signs_equal(sluice.sort(x), np.sort(a, kind="stable"))
    _eq(sluice.argsort(x), np.argsort(a, kind="stable"))
    # descending: unequal values reversed, ties (-0.0 and 0.0 too) stable,
    # NaNs last
    idx = np.argsort(-a, kind="stable")
    _eq(sluice.argsort(x, descending=True), idx)
    _signs_equal(sluice.sort(x, descending=True), a[idx])
    two = np.stack([a, a[::-1]])
    _signs_equal(
        sluice.sort(sluice.asarray(two, device=device), axis=1),
        np.sort(two, axis=1, kind="stable"),
    )
    # no -0.0: the values come back from the keys; NaN payloads may differ
    b = np.where(a == 0, 1.0, a).astype(dt)
    _signs_equal(sluice.sort(sluice.asarray(b, device=device)), np.sort(b))


@pytest.mark.parametrize(
    "dt",
    [
        "int8",
        "uint16",
        "int32",
        "uint32",
        "int64",
        "uint64",
        "float32",
        "bool",
    ],
)
def test_large_sort_every_digit(device, dt):
    # full-range keys move every digit; narrow ones skip the constant digits
    dt = np.dtype(dt)
    rng = np.random.default_rng(11)
    n = 50_021
    if dt.kind == "b":
        a = rng.integers(0, 2, n).astype(bool)
    elif dt.kind == "f":
        a = rng.standard_normal(n).astype(dt) * 1e20
    else:
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    for v in (a, (a // 7 if dt.kind in "iu" else a)):
        x = sluice.asarray(v, device=device)
        _eq(sluice.sort(x), np.sort(v))
        _eq(sluice.argsort(x), np.argsort(v, kind="stable"))
        got = A(sluice.argsort(x, descending=True))
        _eq(sluice.sort(x, descending=True), v[got])
        s = v[got]
        assert (s[:-1] >= s[1:]).all()
        same = s[:-1] == s[1:]
        assert (got[:-1][same] < got[1:][same]).all()


def test_digits_of_the_varying_bits(device):
    # the passes cover the bits that vary, from the lowest: a span that
    # starts mid-byte, two spans with constant bits between them, floats
    # of one binade (only the mantissa varies)
    rng = np.random.default_rng(14)
    n = 30_001
    v = rng.integers(0, 1 << 31, n, dtype=np.int64)
    lo = rng.integers(0, 16, n, dtype=np.int64)
    for a in (
        v << 5,
        (v & 0x1F) << 40 | lo,
        (v & 0xFF) - (1 << 40),
        (1.0 + rng.random(n)).astype(np.float32),
    ):
        x = sluice.asarray(a, device=device)
        _eq(sluice.sort(x), np.sort(a))
        _eq(sluice.argsort(x, descending=True), np.argsort(-a, kind="stable"))


def test_sorted_constant_and_reversed_inputs(device):
    # sorted keys skip every pass; constant keys have no digit that moves
    n = 30_000
    for a in (
        np.arange(n, dtype=np.int32),
        np.full(n, 5.0, np.float32),
        np.arange(n, dtype=np.float32)[::-1].copy(),
        np.repeat(np.arange(3, dtype=np.int64), n // 3),
    ):
        x = sluice.asarray(a, device=device)
        _eq(sluice.sort(x), np.sort(a))
        _eq(sluice.argsort(x), np.argsort(a, kind="stable"))
        m = a.reshape(3, -1)
        xm = sluice.asarray(m, device=device)
        _eq(sluice.sort(xm, axis=1), np.sort(m, axis=1))
        _eq(sluice.argsort(xm, axis=1), np.argsort(m, axis=1, kind="stable"))
        _eq(sluice.argsort(xm, axis=0), np.argsort(m, axis=0, kind="stable"))


@pytest.mark.parametrize("dt", ["float32", "int16", "uint8", "bool"])
def test_large_argmax_family(device, dt):
    # chunks of the blocked search and their combination: ties across
    # chunks keep the first index, NaN wins argmax and is skipped by
    # nanargmax
    dt = np.dtype(dt)
    rng = np.random.default_rng(12)
    n = 200_003
    a = (rng.integers(0, 50, n) % (2 if dt.kind == "b" else 50)).astype(dt)
    a[[1234, 150_000]] = a.max() + (0 if dt.kind == "b" else 1)
    a[[77, 190_000]] = a.min()
    x = sluice.asarray(a, device=device)
    for name in ("argmax", "argmin"):
        _eq(getattr(sluice, name)(x), np.int64(getattr(np, name)(a)))
    m = a[:200_000].reshape(4, -1)
    xm = sluice.asarray(m, device=device)
    for ax in (0, 1):
        _eq(sluice.argmax(xm, axis=ax), np.argmax(m, axis=ax))
        _eq(sluice.argmin(xm, axis=ax), np.argmin(m, axis=ax))
    if dt.kind == "f":
        f = a.copy()
        f[[5000, 120_000]] = np.nan
        xf = sluice.asarray(f, device=device)
        _eq(sluice.argmax(xf), np.int64(5000))
        _eq(sluice.argmin(xf), np.int64(5000))
        _eq(sluice.nanargmax(xf), np.int64(np.nanargmax(f)))
        _eq(sluice.nanargmin(xf), np.int64(np.nanargmin(f)))
        f[:150_000] = np.nan
        _eq(
            sluice.nanargmax(sluice.asarray(f, device=device)),
            np.int64(np.nanargmax(f)),
        )


def test_large_unique(device):
    rng = np.random.default_rng(13)
    a = rng.integers(-300, 300, 100_000).astype(np.int32)
    _eq(sluice.unique(sluice.asarray(a, device=device)), np.unique(a))
    f = rng.choice(
        np.array([np.nan, 1.5, -0.0, 0.0, np.inf, -3.0], np.float32), 100_000
    )
    got = A(sluice.unique(sluice.asarray(f, device=device)))
    exp = np.unique(f)
    assert got.dtype == exp.dtype
    np.testing.assert_array_equal(got, exp)  # one NaN, one zero
    _eq(
        sluice.unique_values(sluice.asarray(a[:0], device=device)),
        np.unique(a[:0]),
    )


JIT_CASES = [
    ("sort", {}),
    ("sort", {"axis": 0}),
    ("sort", {"axis": None}),
    ("argsort", {"axis": 1}),
    ("partition", {"kth": 2}),
    ("argpartition", {"kth": 1, "axis": 0}),
    ("cumsum", {}),
    ("cumsum", {"axis": 1}),
    ("cumprod", {"axis": 0}),
    ("nancumsum", {"axis": -1}),
    ("nancumprod", {"axis": 1}),
    ("argmax", {}),
    ("argmin", {"axis": 1}),
    ("argmax", {"axis": 0, "keepdims": True}),
    ("nanargmax", {"axis": 1}),
    ("nanargmin", {}),
    ("count_nonzero", {"axis": 0}),
]


@pytest.mark.parametrize("dt", ["float32", "int16", "uint8"])
@pytest.mark.parametrize("name,kw", JIT_CASES)
def test_sorts_and_scans_inside_jit(device, name, kw, dt):
    # A sort, scan or search inside @sluice.jit is a step between the
    # traced programs: the ops before it feed it, the ops after it use
    # its result, and the whole equals NumPy's.
    x = np.random.default_rng(3).integers(-4, 5, (6, 7)).astype(dt)
    if dt == "float32":
        x[1, 2] = -0.0
    a = sluice.asarray(x, device=device)
    fn = getattr(sluice, name)

    @sluice.jit
    def f(a):
        r = fn(a * 2 + 1, **kw)
        return r + 1, a - 1

    axis = kw.get("axis", -1)
    if name in ("argsort", "argpartition"):  # stable: a full argsort
        ref = np.argsort(x * 2 + 1, axis=axis, kind="stable") + 1
    elif name == "partition":  # a full sort satisfies partition's contract
        ref = np.sort(x * 2 + 1, axis=axis) + 1
    else:
        ref = getattr(np, name)(x * 2 + 1, **kw) + 1
    for _ in range(2):  # compiled once, then the cached steps
        got, other = f(a)
        assert got.dtype == ref.dtype
        np.testing.assert_array_equal(A(got), ref)
        np.testing.assert_array_equal(A(other), x - 1)
    got2, _ = f(a)
    assert got2 is not got  # every call gives fresh results


def test_searches_and_cumulative_inside_jit(device):
    x = np.array([5.0, -1.0, 3.0, 3.0, np.nan, 0.0], dtype=np.float64)
    v = np.array([3.0, -2.0, 9.0], dtype=np.float64)
    a = sluice.asarray(x, device=device)
    b = sluice.asarray(v, device=device)

    @sluice.jit
    def f(a, b):
        s = sluice.sort(a)
        left = sluice.searchsorted(s, b)
        right = sluice.searchsorted(s, b * 1, side="right")
        c = sluice.cumulative_sum(a[:4], include_initial=True)
        return left, right, c, a.argsort(), a.cumsum()

    left, right, c, order, cs = f(a, b)
    s = np.sort(x)
    np.testing.assert_array_equal(A(left), np.searchsorted(s, v))
    np.testing.assert_array_equal(
        A(right), np.searchsorted(s, v, side="right")
    )
    np.testing.assert_array_equal(A(c), [0.0, 5.0, 4.0, 7.0, 10.0])
    np.testing.assert_array_equal(A(order), np.argsort(x, kind="stable"))
    np.testing.assert_array_equal(A(cs), np.cumsum(x))
    text = f.lower(a, b).as_text()
    assert "// call sluice.sort(slot 0) -> slots" in text
    assert "// call sluice.searchsorted(" in text


def test_sort_method_inside_jit_sorts_in_place(device):
    x = np.array([[3, 1, 2], [9, 7, 8]], dtype=np.int32)
    a = sluice.asarray(x, device=device)

    @sluice.jit
    def f(a):
        b = a + 0
        b.sort(axis=1)
        return b

    np.testing.assert_array_equal(A(f(a)), np.sort(x, axis=1))
    np.testing.assert_array_equal(A(a), x)


def test_library_steps_inside_jit_errors(device):
    x = sluice.asarray(np.arange(5.0, dtype=np.float32), device=device)

    @sluice.jit
    def out_arg(a):
        return sluice.cumsum(a, out=a)

    with pytest.raises(sluice.TracerError, match="out="):
        out_arg(x)

    @sluice.jit
    def bad_axis(a):
        return sluice.sort(a, axis=3)

    with pytest.raises(np.exceptions.AxisError):
        bad_axis(x)

    @sluice.jit
    def scalar_across(a, k):
        k2 = k * 2  # a traced scalar the trace computed
        r = sluice.sort(a)
        return r + k2

    with pytest.raises(sluice.TracerError, match="across"):
        scalar_across(x, 3.0)

    @sluice.jit
    def array_across(a, k):
        s = a.sum() * k  # a 0-d array crosses the step
        return sluice.sort(a) + s

    np.testing.assert_array_equal(
        A(array_across(x, 2.0)), np.arange(5.0) + 20.0
    )

    # Functions whose result's size depends on the data are not steps.
    for name in ("unique", "unique_values"):
        fn = getattr(sluice, name)

        @sluice.jit
        def f(a):
            return fn(a)  # noqa: B023 (called within this iteration)

        with pytest.raises(
            sluice.TracerError, match="size depends on the data"
        ):
            f(x)


@pytest.mark.parametrize(
    "dt", ["float32", "float64", "int16", "uint8", "bool"]
)
def test_small_host_arrays_match_numpy_and_the_kernels(host, monkeypatch, dt):
    """Small host arrays are sorted, scanned and searched by NumPy on views
    (sluice._host_small): bit for bit NumPy's results (-0.0 before 0.0 in
    input order, NaNs last), and equal in value to the kernels' (taken with
    the limit at 0)."""
    from sluice import _host_small

    rng = np.random.default_rng(11)
    x = rng.integers(-3, 4, (4, 9)).astype(dt)
    if dt.startswith("float"):
        x[0, :3] = [-0.0, np.nan, 0.0]
        x[2, 4:7] = [0.0, -0.0, np.inf]
    a = sluice.asarray(x, device=host)
    cases = [
        ("sort", {}),
        ("sort", {"axis": 0}),
        ("sort", {"axis": None}),
        ("argmax", {}),
        ("argmax", {"axis": 1}),
        ("argmin", {"axis": 0, "keepdims": True}),
        ("cumsum", {}),
        ("cumsum", {"axis": 1}),
        ("cumprod", {"axis": 0}),
    ]
    for f, kw in cases:
        got = sluice.asnumpy(getattr(sluice, f)(a, **kw))
        want = np.asarray(
            getattr(np, f)(
                x, **kw, **({"kind": "stable"} if f == "sort" else {})
            )
        )
        assert got.dtype == want.dtype and got.shape == want.shape, f
        assert got.tobytes() == want.tobytes(), (f, kw, got, want)
    monkeypatch.setattr(_host_small, "LIMIT", 0)
    for f, kw in cases:
        kernels = sluice.asnumpy(getattr(sluice, f)(a, **kw))
        np.testing.assert_array_equal(kernels, getattr(np, f)(x, **kw))


def test_library_on_captured_arrays_in_jit(device):
    """Inside @sluice.jit, a library function given an array made or
    captured in the function (not a traced argument) runs its kernels at
    once: nonzero's count read back used to be a pending step's memory
    (an allocation of terabytes)."""
    c = sluice.asarray(np.array([True, False, True, True]), device=device)
    x = np.arange(20.0).reshape(4, 5)
    f = sluice.jit(lambda a: sluice.compress(c, a, axis=0))
    for k in range(2):
        np.testing.assert_array_equal(
            A(f(sluice.asarray(x + k, device=device))),
            np.compress([True, False, True, True], x + k, axis=0),
        )
    g = sluice.jit(lambda a: a[sluice.flatnonzero(c)])
    np.testing.assert_array_equal(
        A(g(sluice.asarray(x, device=device))), x[[0, 2, 3]]
    )


QUANTILE_METHODS = [
    "linear",
    "weibull",
    "hazen",
    "median_unbiased",
    "normal_unbiased",
    "interpolated_inverted_cdf",
    "lower",
    "higher",
    "nearest",
    "midpoint",
    "inverted_cdf",
    "averaged_inverted_cdf",
    "closest_observation",
]


@SETTINGS
@given(
    data=_array_axis(),
    method=st.sampled_from(QUANTILE_METHODS),
    q=st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.77, 1.0, [0.3, 0.9]]),
)
def test_quantile_methods_match_numpy(device, data, method, q):
    """Every method of NumPy's quantile/percentile (and the NaN-ignoring
    ones), integer inputs keeping their type for the methods that pick an
    element."""
    a, axis = data
    if a.dtype.kind == "b" or not _supported(device, a.dtype):
        return
    if a.dtype.kind == "f":  # finite values: NumPy's lerp of infinities
        a = np.where(np.isfinite(a), a, 2.0).astype(a.dtype)
    n = a.size if axis is None else a.shape[axis]
    x = sluice.asarray(a, device=device)
    if n == 0:
        with pytest.raises(IndexError):
            sluice.quantile(x, q, axis=axis, method=method)
        return
    exp = np.quantile(a, q, axis=axis, method=method)
    if a.dtype.kind in "iu" and exp.dtype.kind == "f":
        # NumPy interpolates small integers in their own type (int8's
        # 0 - -128 overflows); the exact values are the float64 ones
        exp = np.quantile(a.astype(np.float64), q, axis=axis, method=method)
    got = A(sluice.quantile(x, q, axis=axis, method=method))
    assert got.shape == exp.shape and got.dtype.kind == exp.dtype.kind
    np.testing.assert_allclose(got, exp, rtol=1e-5)
    got = A(
        sluice.percentile(x, np.multiply(q, 100), axis=axis, method=method)
    )
    np.testing.assert_allclose(got, exp, rtol=1e-5)
    if a.dtype.kind == "f" and a.size:
        b = a.copy()
        b.flat[0] = np.nan
        import warnings

        with warnings.catch_warnings():  # NumPy warns of all-NaN slices
            warnings.simplefilter("ignore", RuntimeWarning)
            exp = np.nanquantile(b, q, axis=axis, method=method)
        got = A(
            sluice.nanquantile(
                sluice.asarray(b, device=device), q, axis=axis, method=method
            )
        )
        np.testing.assert_allclose(got, exp, rtol=1e-5, equal_nan=True)


def test_medians_of_nothing_are_nan(device):
    import warnings

    for shape, axis in [((0,), None), ((2, 0), 1), ((0, 3), 0), ((2, 0), 0)]:
        z = np.zeros(shape, np.float32)
        x = sluice.asarray(z, device=device)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for f in ("median", "nanmedian"):
                exp = getattr(np, f)(z, axis=axis)
                got = A(getattr(sluice, f)(x, axis=axis))
                assert got.shape == np.shape(exp)
                np.testing.assert_array_equal(got, exp)
            exp = np.nanquantile(z, 0.3, axis=axis)
            np.testing.assert_array_equal(
                A(sluice.nanquantile(x, 0.3, axis=axis)), exp
            )
    with pytest.raises(ValueError):
        sluice.quantile(x, 0.5, method="bogus")


def test_cov_with_weights(device):
    if not device.has_aspect_fp64:
        pytest.skip("float64")
    m = np.array([[1.0, 2, 4, -1], [2, 1, 0, 3], [0.5, 0.5, 2, 1]])
    f = np.array([1, 3, 2, 1])
    w = np.array([1.0, 2, 1, 0.5])
    d = sluice.asarray(m, device=device)
    for kw in [
        {"aweights": w},
        {"fweights": f},
        {"aweights": w, "fweights": f},
        {"aweights": w, "ddof": 0},
        {"fweights": f, "bias": True},
    ]:
        skw = {
            k: sluice.asarray(v, device=device) if k.endswith("s") else v
            for k, v in kw.items()
        }
        np.testing.assert_allclose(A(sluice.cov(d, **skw)), np.cov(m, **kw))
        np.testing.assert_allclose(
            A(sluice.cov(d[0], **skw)), np.cov(m[0], **kw)
        )
    np.testing.assert_allclose(
        A(sluice.cov(d.T, rowvar=False, aweights=w)),
        np.cov(m.T, rowvar=False, aweights=w),
    )
    with pytest.raises(ValueError):
        sluice.cov(d, fweights=np.array([1, -1, 1, 1]))
    with pytest.raises(TypeError):
        sluice.cov(d, fweights=np.array([1.0, 1, 1, 1]))
    with pytest.raises(RuntimeError):
        sluice.cov(d, aweights=np.ones(3))


def test_histogram2d_counts_in_floats_and_ediff1d_of_bools(device):
    x = np.array([0.1, 0.5, 0.9, 0.5], np.float32)
    h, ex, ey = sluice.histogram2d(
        sluice.asarray(x, device=device), sluice.asarray(x, device=device), 2
    )
    nh = np.histogram2d(x, x, 2)
    assert A(h).dtype.kind == nh[0].dtype.kind == "f"
    np.testing.assert_array_equal(A(h), nh[0])
    hd = sluice.histogramdd(sluice.asarray(x[:, None], device=device), 3)[0]
    assert A(hd).dtype.kind == "f"
    with pytest.raises(TypeError):
        sluice.ediff1d(sluice.asarray(np.array([True, False]), device=device))


def test_flatten_and_ravel_in_fortran_order(device):
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    x = sluice.asarray(a, device=device)
    for order in "CFAK":
        np_order = "C" if order in "AK" else order
        _eq(x.flatten(order=order), a.flatten(order=np_order))
        _eq(x.ravel(order), a.ravel(order=np_order))
        _eq(sluice.ravel(x, order=order), a.ravel(order=np_order))
    _eq(sluice.ravel(x[:, ::2], order="F"), a[:, ::2].ravel(order="F"))
    with pytest.raises(ValueError):
        sluice.ravel(x, order="Q")


@SETTINGS
@given(data=_array_axis(min_dims=1))
def test_unique_along_an_axis_matches_numpy(device, data):
    a, axis = data
    if not _supported(device, a.dtype) or a.dtype.kind == "f":
        return  # (NumPy orders NaN rows by their bytes)
    axis = 0 if axis is None else axis
    a = a % 2 if a.dtype.kind in "iu" else a  # repeated slices
    try:
        exp = np.unique(
            a,
            axis=axis,
            return_index=True,
            return_inverse=True,
            return_counts=True,
        )
    except ValueError:
        return
    got = sluice.unique(
        sluice.asarray(a, device=device),
        axis=axis,
        return_index=True,
        return_inverse=True,
        return_counts=True,
    )
    for g, e in zip(got, exp):
        assert A(g).shape == e.shape
        np.testing.assert_array_equal(A(g), e)


def test_intersect1d_indices(device):
    rng = np.random.default_rng(2)
    for n1, n2 in [(10, 7), (0, 5), (5, 0), (50, 60)]:
        a = rng.integers(0, 12, n1).astype(np.int32)
        b = rng.integers(0, 12, n2).astype(np.int32)
        exp = np.intersect1d(a, b, return_indices=True)
        got = sluice.intersect1d(
            sluice.asarray(a, device=device),
            sluice.asarray(b, device=device),
            return_indices=True,
        )
        for g, e in zip(got, exp):
            _eq(
                g,
                e.astype(np.int64)
                if e.dtype.kind == "i" and e.dtype != a.dtype
                else e,
            )


@pytest.mark.parametrize("n", [3, 1000, 70_000])
def test_complex_scans(device, n):
    """cumsum/cumprod/cumulative_sum of complex arrays (the blocked scan
    kernels multiply and add complex values)."""
    rng = np.random.default_rng(n)
    for dt in (np.complex64, np.complex128):
        if dt == np.complex128 and not device.has_aspect_fp64:
            continue
        a = (
            1 + 0.01 * (rng.standard_normal(n) + 1j * rng.standard_normal(n))
        ).astype(dt)
        x = sluice.asarray(a, device=device)
        tol = 1e-3 if dt == np.complex64 else 1e-9
        np.testing.assert_allclose(A(sluice.cumsum(x)), np.cumsum(a), rtol=tol)
        np.testing.assert_allclose(
            A(sluice.cumprod(x)), np.cumprod(a), rtol=tol
        )
        c = A(sluice.cumulative_sum(x, include_initial=True))
        assert c[0] == 0 and c.dtype == dt
        np.testing.assert_allclose(c[1:], np.cumsum(a), rtol=tol)


def test_statistics_inside_jit(device):
    """Reductions, quantiles, covariances, histograms with a bin count,
    differences and isin are steps of @sluice.jit functions (their results'
    sizes follow from the shapes); bincount's does not: a TracerError."""
    if not device.has_aspect_fp64:
        pytest.skip("float64")
    h = np.random.default_rng(4).standard_normal((4, 6))
    h[1, 2] = np.nan
    g = np.nan_to_num(h)
    x = sluice.asarray(h, device=device)
    y = sluice.asarray(g, device=device)
    e = np.array([-1.0, 0.0, 1.0])
    edges = {np: e, sluice: sluice.asarray(e, device=device)}
    cases = [
        (lambda m, a: m.nansum(a, axis=0), x, h),
        (lambda m, a: m.nanmean(a, axis=1) * 2, x, h),
        (lambda m, a: m.nanstd(a, axis=1, ddof=1), x, h),
        (lambda m, a: m.nanmax(a), x, h),
        (lambda m, a: m.nanmedian(a, axis=0), x, h),
        (lambda m, a: m.median(a, axis=1) + 1, y, g),
        (lambda m, a: m.percentile(a, [10, 90], axis=0, method="lower"), y, g),
        (lambda m, a: m.average(a, axis=0), y, g),
        (lambda m, a: m.cov(a), y, g),
        (lambda m, a: m.corrcoef(a), y, g),
        (lambda m, a: m.diff(a, axis=1), y, g),
        (lambda m, a: m.ediff1d(a), y, g),
        (lambda m, a: m.histogram(a, 5, range=(-2, 2))[0], y, g),
        (lambda m, a: m.digitize(a, edges[m]), y, g),
        (lambda m, a: m.isin(a, a[0]), y, g),
    ]
    for k, (f, arr, ref) in enumerate(cases):
        exp = f(np, ref)
        got = sluice.jit(lambda a, f=f: f(sluice, a))(arr)  # noqa: B023
        np.testing.assert_allclose(A(got), exp, rtol=1e-12, err_msg=str(k))

    @sluice.jit
    def counts(a):
        return sluice.bincount(sluice.astype(a, sluice.int64))

    with pytest.raises(sluice.TracerError, match="depends on the data"):
        counts(y)


def test_isin_with_python_scalars(device):
    """isin(scalar, array) and isin(array, scalar) (the Array API's
    2025.12 form): compared by value, a scalar element giving a 0-d
    result."""
    t = np.array([1, 5, 255], np.uint8)
    d = sluice.asarray(t, device=device)
    for e in (0, 5, 300, 5.0, 5.5, True, 1):
        got = A(sluice.isin(e, d))
        assert got.shape == () and got.dtype == np.bool_
        assert bool(got) == bool(np.isin(e, t)), e
    assert A(sluice.isin(0, d[:0])).shape == ()
    x = np.array([1.0, 2, 3], np.float32)
    _eq(sluice.isin(sluice.asarray(x, device=device), 2), np.isin(x, 2))
    with pytest.raises(TypeError):
        sluice.isin("a", d)


def test_index_checks_of_captured_arrays_in_jit(device):
    """choose and unravel_index check a captured (concrete) index array's
    range inside @sluice.jit as eagerly; traced indices they cannot check
    give a TracerError that says so."""
    x = np.arange(20.0).reshape(4, 5)
    d = sluice.asarray(x, device=device)
    c = np.array([[0, 1, 0, 1, 0]] * 4)
    dc = sluice.asarray(c, device=device)
    f = sluice.jit(lambda a: sluice.choose(dc, [a, -a]))
    np.testing.assert_array_equal(A(f(d)), np.choose(c, [x, -x]))
    bad = sluice.asarray(c * 2, device=device)
    with pytest.raises(ValueError):
        sluice.jit(lambda a: sluice.choose(bad, [a, -a]))(d)
    with pytest.raises(sluice.TracerError, match="cannot check"):
        sluice.jit(
            lambda a: sluice.choose(sluice.astype(a, sluice.int64), [a, -a])
        )(d)
    i = sluice.asarray(np.array([7, 3]), device=device)
    g = sluice.jit(lambda a: a + sluice.unravel_index(i, (2, 4))[1])
    np.testing.assert_array_equal(
        A(g(sluice.zeros(2, device=device))), [3.0, 3.0]
    )


def test_picking_quantiles_of_large_integers(device):
    """lower/higher/nearest/inverted_cdf/closest_observation pick an
    element: exact for 64-bit integers past 2**53."""
    a = np.array(
        [2**63 - 1, -(2**63), 2**53 + 1, 3, 2**62 + 7], dtype=np.int64
    )
    u = np.array([2**64 - 1, 0, 2**53 + 1, 2**63 + 5], dtype=np.uint64)
    for arr in (a, u):
        x = sluice.asarray(arr, device=device)
        for m in QUANTILE_METHODS[6:9] + QUANTILE_METHODS[10:13:2]:
            for q in (0.0, 0.3, 0.5, 0.9, 1.0):
                _eq(
                    sluice.quantile(x, q, method=m),
                    np.asarray(np.quantile(arr, q, method=m)),
                )
