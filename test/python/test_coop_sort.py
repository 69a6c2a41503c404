"""The workgroup-cooperative radix sort (sluice/_coop_sort_kernels.py)
against NumPy: sort and argsort (and what builds on them), stable, NaNs
last, -0.0 kept where the stable order puts it, descending, every dtype,
rows along any axis.

GPUs take it by themselves; on the CPU devices the tests force it with the
internal switch ``_sorting.COOPERATIVE``. Sizes: empty, off the tile and
chunk sizes, and past 2^20. The kernels' compile counts show the
cooperative path was taken."""

import numpy as np
import pytest

import sluice
from sluice import _coop_kernels as C
from sluice import _coop_sort_kernels as CS
from sluice import _sorting

A = sluice.asnumpy
BIG = (1 << 20) + 3
TILE = C.WG * CS.ipt(4)  # a scatter's tile of 4-byte keys alone
CHUNK = CS.TPW * TILE


@pytest.fixture(autouse=True)
def forced():
    old = _sorting.COOPERATIVE
    _sorting.COOPERATIVE = True
    yield
    _sorting.COOPERATIVE = old


def _compiled(*kernels):
    return sum(k.compile_count for k in kernels)


def _desc_order(a):
    """NumPy's stable order of a, descending, NaNs last."""
    if a.dtype.kind == "f":
        return np.argsort(-a, kind="stable")
    if a.dtype.kind == "b":
        return np.argsort(~a, kind="stable")
    return np.argsort(~a, kind="stable")  # ~ reverses the integers' order


def _check(x, a, axis=-1):
    got = A(sluice.sort(x, axis=axis))
    ref = np.sort(a, axis=axis, kind="stable")
    assert got.dtype == ref.dtype
    np.testing.assert_array_equal(got, ref)
    if a.dtype.kind == "f":  # -0.0 where the stable order puts it
        np.testing.assert_array_equal(np.signbit(got), np.signbit(ref))
    np.testing.assert_array_equal(
        A(sluice.argsort(x, axis=axis)),
        np.argsort(a, axis=axis, kind="stable"),
    )


@pytest.mark.parametrize(
    "n", [0, 1, TILE - 1, CHUNK + 17, 3 * CHUNK - 5, 70001, BIG]
)
def test_sizes(device, n):
    rng = np.random.default_rng(n)
    a = rng.random(n).astype(np.float32)
    _check(sluice.asarray(a, device=device), a)
    if n >= CHUNK:
        assert _compiled(*CS.kernels()) > 1


def test_special_floats_and_descending(device):
    rng = np.random.default_rng(1)
    n = 3 * TILE + 11
    for dt in (np.float32, np.float64):
        a = rng.standard_normal(n).astype(dt)
        pick = rng.integers(0, n, 600)
        a[pick[:100]] = np.nan
        a[pick[100:200]] = np.inf
        a[pick[200:300]] = -np.inf
        a[pick[300:450]] = -0.0
        a[pick[450:]] = 0.0
        x = sluice.asarray(a, device=device)
        _check(x, a)
        order = _desc_order(a)
        np.testing.assert_array_equal(
            A(sluice.argsort(x, descending=True)), order
        )
        got = A(sluice.sort(x, descending=True))
        np.testing.assert_array_equal(got, a[order])
        np.testing.assert_array_equal(np.signbit(got), np.signbit(a[order]))
    # no -0.0: the last pass writes the values itself
    b = rng.standard_normal(n).astype(np.float32)
    b[::7] = np.nan
    xb = sluice.asarray(b, device=device)
    np.testing.assert_array_equal(A(sluice.sort(xb)), np.sort(b))
    np.testing.assert_array_equal(
        A(sluice.sort(xb, descending=True)), b[_desc_order(b)]
    )


@pytest.mark.parametrize(
    "dt",
    [
        "bool",
        "int8",
        "uint8",
        "int16",
        "uint16",
        "int32",
        "uint32",
        "int64",
        "uint64",
        "float16",
    ],
)
def test_dtypes_and_ties(device, dt):
    rng = np.random.default_rng(2)
    n = 2 * CHUNK + 333
    if dt == "bool":
        a = rng.random(n) < 0.3
    elif dt == "float16":
        if not sluice.Device(device).has_aspect_fp16:
            pytest.skip("no float16 on this device")
        a = rng.standard_normal(n).astype(dt)
        a[::97] = np.nan
    else:
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        a[: n // 2] = a[: n // 2] % 5  # many ties: stability shows
        a[::101] = info.min
        a[1::103] = info.max
    x = sluice.asarray(a, device=device)
    _check(x, a)
    np.testing.assert_array_equal(
        A(sluice.argsort(x, descending=True)), _desc_order(a)
    )
    if dt in ("int64", "uint16"):
        np.testing.assert_array_equal(
            A(sluice.sort(x, descending=True)), a[_desc_order(a)]
        )


def test_rows_and_axes(device):
    rng = np.random.default_rng(3)
    a = rng.integers(0, 50, (5, 3001)).astype(np.int32)
    x = sluice.asarray(a, device=device)
    for axis in (-1, 0, None):
        _check(x, a, axis)
    f = rng.random((3, 4, 700)).astype(np.float32)
    f[1, 2, ::9] = np.nan
    xf = sluice.asarray(f, device=device)
    for axis in (2, 1, 0):
        _check(xf, f, axis)
    # 300 rows: two passes on the row's digits
    r = rng.random((300, 40)).astype(np.float64)
    _check(sluice.asarray(r, device=device), r)
    # sorted already, and all equal (no pass at all)
    s = np.sort(rng.random(CHUNK + 3).astype(np.float32))
    _check(sluice.asarray(s, device=device), s)
    e = np.full((2, TILE + 5), 7, np.int16)
    _check(sluice.asarray(e, device=device), e)


def test_built_on_sort(device):
    rng = np.random.default_rng(4)
    a = rng.integers(0, 1000, CHUNK + 77).astype(np.int32)
    f = rng.random(CHUNK + 77).astype(np.float32)
    x = sluice.asarray(a, device=device)
    xf = sluice.asarray(f, device=device)
    np.testing.assert_array_equal(A(sluice.unique(x)), np.unique(a))
    v, idx, inv, cnt = sluice.unique(
        x, return_index=True, return_inverse=True, return_counts=True
    )
    rv, ridx, rinv, rcnt = np.unique(
        a, return_index=True, return_inverse=True, return_counts=True
    )
    for g, r in ((v, rv), (idx, ridx), (inv, rinv), (cnt, rcnt)):
        np.testing.assert_array_equal(A(g), r)
    g = np.round(f * 50).astype(np.float32)
    g[::11] = np.nan
    g[1::13] = -0.0
    np.testing.assert_array_equal(
        A(sluice.unique(sluice.asarray(g, device=device))), np.unique(g)
    )
    np.testing.assert_allclose(A(sluice.median(xf)), np.median(f))
    p = A(sluice.partition(xf, 100))
    assert p[100] == np.sort(f)[100]
    assert _compiled(*CS.COOP_KEY.values()) > 0


@pytest.mark.parametrize("n", [TILE + 31, 2 * TILE + 45])
def test_sub_group_ranking(device, n):
    """The scatter ranks a tile's keys by sub-groups (warps on CUDA): runs
    where every lane holds the same digit, two alternating values and
    zeros of both signs (stability), NaNs and infinities at the end, and a
    short last sub-group (sizes off the tile and off 32)."""
    a = np.zeros(n, np.float32)
    a[::2] = -0.0
    third = n // 3
    a[third : 2 * third] = np.where(np.arange(third) % 2, 1.5, -2.5)
    a[-40:-20] = np.inf
    a[-20:-7] = -np.inf
    a[-7:] = np.nan
    _check(sluice.asarray(a, device=device), a)
    # int64 keys whose low bytes are all equal: every lane a peer there
    b = (np.arange(n, dtype=np.int64) % 3) << 40
    b[::5] = -b[::5]
    _check(sluice.asarray(b, device=device), b)
