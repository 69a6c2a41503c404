"""Reductions along an axis of 2-D and 3-D arrays against NumPy.

Host reductions whose reduced axes come first (``x.sum(axis=0)``) fold
each row into tiles of contiguous outputs, four rows at a time, the tiles
split into slices of rows when there are few outputs (docs/kernels.md,
"Column reductions"). These tests walk the shapes around those splits
(tile widths of 64 to 1024 outputs, row counts around multiples of four,
one and several slices), with NaN, +-inf and -0.0 in the columns, for
sum/mean (NumPy's value within the accumulation tolerance), max/min
(exactly, NaN as NumPy propagates it) and, in lazy graphs, reductions fed
by the operations before them (softmax along either axis).
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sluice

HYP = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.function_scoped_fixture],
    "max_examples": 25,
}
FLOATS = [np.float32, np.float64]
OPS = ["sum", "mean", "max", "min"]
# Rows around multiples of four (the fold's groups of rows) and columns
# around the tile widths (64..1024 in steps of 16) and the vector widths.
SHAPES = [
    (1, 1),
    (1, 70),
    (3, 5),
    (4, 64),
    (5, 65),
    (9, 17),
    (64, 64),
    (130, 7),
    (257, 129),
    (33, 1025),
    (6, 8200),
    (4101, 3),
    (70001, 5),
]


def _skip_dtype(device, dt):
    if dt == np.float64 and not device.has_aspect_fp64:
        pytest.skip("no fp64 on this device")


def _array(dt, shape, rng, special=True):
    a = rng.standard_normal(shape).astype(dt)
    if special and a.size >= 4:
        flat = a.reshape(-1)
        k = rng.choice(flat.size, size=min(flat.size, 6), replace=False)
        vals = [np.nan, np.inf, -np.inf, -0.0, 0.0, np.nan]
        flat[k] = np.array(vals[: len(k)], dtype=dt)
    return a


def _check(op, got, want, a, axis):
    got = np.asarray(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if op in ("max", "min"):
        np.testing.assert_array_equal(got, want)
        return
    # Sums reassociate: NumPy's value within a few ulps of the sum of
    # magnitudes along the axis (infinities and NaNs exactly).
    eps = np.finfo(a.dtype).eps
    with np.errstate(invalid="ignore", over="ignore"):
        scale = np.abs(np.where(np.isfinite(a), a, 0)).sum(
            axis=axis, keepdims=want.ndim == a.ndim
        )
        if op == "mean":
            n = a.size // max(1, want.size)
            scale = scale / max(1, n)
    n = max(1, a.size // max(1, want.size))
    tol = 4 * eps * np.sqrt(n) * scale + np.finfo(a.dtype).tiny
    fin = np.isfinite(want)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(
        got[~fin & ~np.isnan(want)], want[~fin & ~np.isnan(want)]
    )
    assert np.all(np.abs(got[fin] - want[fin]) <= tol[fin]), np.max(
        np.abs(got[fin] - want[fin]) - tol[fin]
    )


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_columns_and_rows(device, dt, shape):
    """sum/mean/max/min along axis 0 and 1 (keepdims or not) of arrays
    with NaN, +-inf and signed zeros."""
    _skip_dtype(device, dt)
    rng = np.random.default_rng(shape[0] * 7919 + shape[1])
    a = _array(dt, shape, rng)
    x = sluice.asarray(a, device=device)
    for op in OPS:
        for axis in (0, 1):
            for keepdims in (False, True):
                with np.errstate(invalid="ignore"):
                    want = getattr(a, op)(axis=axis, keepdims=keepdims)
                got = sluice.asnumpy(
                    getattr(x, op)(axis=axis, keepdims=keepdims)
                )
                _check(op, got, want, a, axis)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
def test_nan_in_every_column_position(device, dt):
    """Column j of a (n, n) array has its NaN at row j: every column max,
    min and sum is NaN, whichever row of the four-row groups holds it."""
    _skip_dtype(device, dt)
    n = 67
    a = np.random.default_rng(3).standard_normal((n, n)).astype(dt)
    a[np.arange(n), np.arange(n)] = np.nan
    x = sluice.asarray(a, device=device)
    for op in ("max", "min", "sum"):
        got = sluice.asnumpy(getattr(x, op)(axis=0))
        assert np.isnan(got).all(), (op, got)
    b = a.copy()
    b[np.arange(n), np.arange(n)] = np.arange(n, dtype=dt) + 1e30
    y = sluice.asarray(b, device=device)
    for op in ("max", "min"):
        np.testing.assert_array_equal(
            sluice.asnumpy(getattr(y, op)(axis=0)), getattr(b, op)(axis=0)
        )


def test_integer_columns(device):
    """Integer column sums (widened as NumPy widens them) and max/min are
    exact."""
    rng = np.random.default_rng(4)
    for dt in (np.int32, np.int64, np.uint8):
        a = rng.integers(0, 100, (1029, 77)).astype(dt)
        x = sluice.asarray(a, device=device)
        for op in ("sum", "max", "min"):
            got = sluice.asnumpy(getattr(x, op)(axis=0))
            want = getattr(a, op)(axis=0)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
def test_views_and_three_dims(device, dt):
    """Column reductions of strided views, and of 3-D arrays over leading
    axes, the middle axis and a pair of axes."""
    _skip_dtype(device, dt)
    rng = np.random.default_rng(5)
    a = _array(dt, (131, 90), rng)
    x = sluice.asarray(a, device=device)
    for view, ref in (
        (x[::2], a[::2]),
        (x[:, 3:], a[:, 3:]),
        (x[1:, ::3], a[1:, ::3]),
        (x.T, a.T),
    ):
        for op in OPS:
            want = getattr(ref, op)(axis=0)
            _check(op, sluice.asnumpy(getattr(view, op)(axis=0)), want, ref, 0)
    b = _array(dt, (9, 13, 70), rng)
    y = sluice.asarray(b, device=device)
    for axis in (0, 1, (0, 1), (0, 2)):
        for op in OPS:
            want = getattr(b, op)(axis=axis)
            _check(
                op, sluice.asnumpy(getattr(y, op)(axis=axis)), want, b, axis
            )


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("shape", [(64, 64), (300, 257), (1030, 70)], ids=str)
def test_softmax_and_fused_producers(device, axis, shape):
    """Reductions fed by the operations before them in one lazy graph:
    a softmax along either axis and a scaled sum, against NumPy's, with
    lazy execution on (every size recorded) and off."""
    rng = np.random.default_rng(6)
    a = rng.standard_normal(shape).astype(np.float32)
    a[0, 0] = -np.inf  # exp(-inf - m) is 0
    m = a.max(axis=axis, keepdims=True)
    e = np.exp(a - m)
    want = e / e.sum(axis=axis, keepdims=True)
    scaled = (a * 2.0 + 1.0).sum(axis=axis)
    was = sluice.lazy_enabled()
    try:
        for lazy in (True, False):
            if lazy:
                sluice.set_lazy(True, min_elements=0)
            else:
                sluice.set_lazy(False)
            x = sluice.asarray(a, device=device)
            mx = x.max(axis=axis, keepdims=True)
            ex = sluice.exp(x - mx)
            got = sluice.asnumpy(ex / ex.sum(axis=axis, keepdims=True))
            np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-7)
            got = sluice.asnumpy((x * 2.0 + 1.0).sum(axis=axis))
            _check("sum", got, scaled, a * 2.0 + 1.0, axis)
    finally:
        sluice.set_lazy(was, min_elements=None)


@settings(**HYP)
@given(
    rows=st.integers(1, 300),
    cols=st.integers(1, 300),
    op=st.sampled_from(OPS),
    axis=st.sampled_from([0, 1, -1, -2]),
    f64=st.booleans(),
    nans=st.integers(0, 3),
    seed=st.integers(0, 2**31 - 1),
)
def test_hypothesis_axis_reductions(
    device, rows, cols, op, axis, f64, nans, seed
):
    dt = np.float64 if f64 and device.has_aspect_fp64 else np.float32
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((rows, cols)).astype(dt)
    flat = a.reshape(-1)
    for k in rng.choice(flat.size, size=min(nans, flat.size), replace=False):
        flat[k] = rng.choice([np.nan, np.inf, -np.inf, -0.0])
    x = sluice.asarray(a, device=device)
    with np.errstate(invalid="ignore"):
        want = getattr(a, op)(axis=axis)
    _check(op, sluice.asnumpy(getattr(x, op)(axis=axis)), want, a, axis)
