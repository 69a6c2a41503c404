"""The workgroup-cooperative kernels of scans, argmax and friends,
histograms and mask compaction (sluice/_coop_kernels.py) against NumPy.

GPUs take them by themselves; on the CPU devices the tests force them with
the internal switch ``_sorting.COOPERATIVE``, so they run here too (PoCL
and the host run workgroups, barriers, workgroup memory and atomics as a
GPU does). Sizes: not multiples of a workgroup or a tile, empty, and past
2^20. The kernels' compile counts show the cooperative path was taken."""

import numpy as np
import pytest

import sluice
from sluice import _coop_kernels as C
from sluice import _sorting

A = sluice.asnumpy
BIG = (1 << 20) + 3
ST = C.WG * C.scan_ipt(np.dtype(np.float32))  # a scan's tile of float32


@pytest.fixture(autouse=True)
def forced():
    old = _sorting.COOPERATIVE
    _sorting.COOPERATIVE = True
    yield
    _sorting.COOPERATIVE = old


def _compiled(*kernels):
    return sum(k.compile_count for k in kernels)


@pytest.mark.parametrize("n", [0, ST - 1, ST, 3 * ST + 17, 70001, BIG])
@pytest.mark.parametrize("dt", ["float32", "int32", "bool"])
def test_cumsum(device, n, dt):
    rng = np.random.default_rng(n)
    a = rng.random(n)
    a = (a > 0.5) if dt == "bool" else (a * 100).astype(dt)
    got = A(sluice.cumsum(sluice.asarray(a, device=device)))
    ref = np.cumsum(a)
    assert got.dtype == ref.dtype
    if dt == "float32":
        np.testing.assert_allclose(got, ref, rtol=1e-4)
    else:
        np.testing.assert_array_equal(got, ref)
    if n == BIG:  # (small host arrays are NumPy's)
        assert _compiled(*C.SCAN.values()) > 0


def test_scan_special_values(device):
    # -0.0 leading (NumPy keeps its sign: no identity is added), then
    # NaN and infinities; a run of -0.0 longer than a tile
    a = np.full(2 * ST + 5, -0.0, np.float32)
    a[-3:] = [np.inf, np.nan, 1.0]
    x = sluice.asarray(a, device=device)
    got = A(sluice.cumsum(x))
    ref = np.cumsum(a)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(ref))
    np.testing.assert_array_equal(got, ref)
    b = np.full(70001, -0.0, np.float64)
    b[5] = -np.inf
    b[9] = np.inf
    got = A(sluice.cumsum(sluice.asarray(b, device=device)))
    np.testing.assert_array_equal(np.signbit(got[:5]), [True] * 5)
    np.testing.assert_array_equal(got, np.cumsum(b))


def test_scan_rows_and_prod(device):
    rng = np.random.default_rng(3)
    a = 1 + 1e-4 * rng.random((3, 2 * ST + 7))
    x = sluice.asarray(a, device=device)
    np.testing.assert_allclose(A(sluice.cumprod(x, axis=1)), np.cumprod(a, 1))
    np.testing.assert_allclose(A(sluice.cumsum(x, axis=1)), np.cumsum(a, 1))
    t = sluice.asarray(np.ascontiguousarray(a.T), device=device)
    np.testing.assert_allclose(A(sluice.cumsum(t, axis=0)), np.cumsum(a.T, 0))
    z = np.full((2, ST + 1), -0.0)
    got = A(sluice.cumsum(sluice.asarray(z, device=device), axis=1))
    assert np.signbit(got).all()


@pytest.mark.parametrize("fn", ["argmax", "argmin", "nanargmax", "nanargmin"])
def test_arg_extremes(device, fn):
    rng = np.random.default_rng(5)
    f = getattr(sluice, fn)
    g = getattr(np, fn)
    for shape, axis in [((BIG,), None), ((3, 70001), 1), ((9, 600), -1)]:
        a = rng.random(shape).astype(np.float32)
        a.flat[[7, 100, a.size - 1]] = a.max()  # ties: the first wins
        x = sluice.asarray(a, device=device)
        np.testing.assert_array_equal(A(f(x, axis=axis)), g(a, axis=axis))
        a.flat[[a.size // 3, a.size // 2]] = np.nan
        x = sluice.asarray(a, device=device)
        np.testing.assert_array_equal(A(f(x, axis=axis)), g(a, axis=axis))
        a.flat[0] = np.nan  # the first element of a chunk
        x = sluice.asarray(a, device=device)
        np.testing.assert_array_equal(A(f(x, axis=axis)), g(a, axis=axis))
        i = (rng.random(shape) * 50).astype(np.int32)
        if not fn.startswith("nan"):
            x = sluice.asarray(i, device=device)
            np.testing.assert_array_equal(A(f(x, axis=axis)), g(i, axis=axis))
    assert _compiled(*C.ARG_GROUP.values(), *C.ARG_COMBINE.values()) > 1
    if fn.startswith("nan"):
        with pytest.raises(ValueError):
            f(
                sluice.asarray(
                    np.full(70001, np.nan, np.float32), device=device
                )
            )


@pytest.mark.parametrize("n", [1, 70001, BIG])
def test_bincount(device, n):
    rng = np.random.default_rng(n)
    for dt, hi, ml in [
        ("int32", 256, 0),
        ("int64", 3000, 0),  # past the first pass's bins: a second pass
        ("uint8", 7, 9),
        ("int16", 7, 5000),
        ("int32", 7, 10000),
    ]:
        a = rng.integers(0, hi, n).astype(dt)
        got = A(
            sluice.bincount(sluice.asarray(a, device=device), minlength=ml)
        )
        ref = np.bincount(a, minlength=ml)
        assert got.dtype == ref.dtype
        np.testing.assert_array_equal(got, ref)
    b = rng.integers(0, 5, n).astype(np.int32)
    b[n // 2] = -1
    with pytest.raises(ValueError):
        sluice.bincount(sluice.asarray(b, device=device))
    if n == BIG:
        assert C.HIST[False].compile_count
        assert C.k_bincount_minmax.compile_count


@pytest.mark.parametrize("n", [0, 70001, BIG])
def test_histogram_equal_bins(device, n):
    rng = np.random.default_rng(n)
    a = (rng.random(n) * 3 - 1).astype(np.float32)
    if n:
        a[:3] = [np.nan, 2.0, -1.0]
    x = sluice.asarray(a, device=device)
    for bins, rng_ in [(256, (0, 1)), (7, (-1, 2))]:
        got, edges = sluice.histogram(x, bins, rng_)
        ref, ref_edges = np.histogram(a, bins, rng_)
        np.testing.assert_array_equal(A(got), ref)
        np.testing.assert_array_equal(A(edges), ref_edges)


@pytest.mark.parametrize("n", [0, 1, C.TILE + 1, 70001, BIG])
@pytest.mark.parametrize("p", [0.0, 0.3, 1.0])
def test_mask_compaction(device, n, p):
    rng = np.random.default_rng(n)
    a = rng.random(n).astype(np.float32)
    m = rng.random(n) < p
    x = sluice.asarray(a, device=device)
    mk = sluice.asarray(m, device=device)
    np.testing.assert_array_equal(A(x[mk]), a[m])
    np.testing.assert_array_equal(A(sluice.nonzero(mk)[0]), np.nonzero(m)[0])
    if n:
        np.testing.assert_array_equal(A(sluice.extract(mk, x)), a[m])
    b = (a.reshape(1, -1) * [[1], [0], [2]]).astype(np.int64)
    xb = sluice.asarray(b, device=device)
    np.testing.assert_array_equal(A(xb[xb > 0]), b[b > 0])
    for g, r in zip(sluice.nonzero(xb), np.nonzero(b)):
        np.testing.assert_array_equal(A(g), r)
    if n == BIG and p:
        assert _compiled(C.k_mask_count, *C.COMPACT.values()) > 1
