"""max/min reductions against NumPy over the whole float domain.

Host kernels compute float max/min reductions with vector loops (LLVM's
llvm.maximum/llvm.minimum, docs/codegen.md): NaNs at every position of a
row (first, last, inside the vector body, in the scalar tail of a
length that is not a multiple of the vector width) must still give NaN,
and +-inf, -0.0, subnormals and huge values must give NumPy's results,
for every axis and keepdims. Integer dtypes and empty reductions keep
their behaviour.
"""

import os
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sluice

HEAVY = os.environ.get("SLUICE_TEST_HEAVY") == "1"
# The device fixture is the same device for every example.
HYP = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.function_scoped_fixture],
}
FLOATS = [np.float16, np.float32, np.float64]
INTS = [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64]
# Lengths around the vector widths (4, 8, 16 lanes, 4x unrolled: 64) and
# the host's 64-element work split.
SIZES = [1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 100, 127, 129]
SIZES += [255, 257, 1000, 1023, 1025, 4099]


def _skip_dtype(device, dt):
    if dt == np.float64 and not device.has_aspect_fp64:
        pytest.skip("no fp64 on this device")
    if dt == np.float16 and not device.has_aspect_fp16:
        pytest.skip("no fp16 on this device")


def _host(device):
    return device.filter_string.startswith("host")


def _same(got, want):
    """Equal values, NaN where NumPy has NaN, and NumPy's dtype/shape."""
    got = np.asarray(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_array_equal(got, want)


def _values(dt, n, rng):
    """n values of dtype dt spread over its domain: signs, magnitudes from
    subnormals up to 1e30 (or the dtype's largest), zeros of both signs."""
    fi = np.finfo(dt)
    top = min(1e30, float(fi.max) / 4)
    mags = np.exp(
        rng.uniform(np.log(float(fi.smallest_subnormal)), np.log(top), n)
    )
    v = (mags * rng.choice([-1.0, 1.0], n)).astype(dt)
    special = [0.0, -0.0, fi.smallest_subnormal, -fi.smallest_subnormal]
    k = rng.integers(0, n, size=min(n, 4))
    v[k] = np.array(special[: len(k)], dtype=dt)
    return v


def _positions(n):
    """Positions that matter to a vector loop of length n: ends, middle,
    the first elements after each vector-width multiple (the tails)."""
    p = {0, n - 1, n // 2}
    for w in (4, 8, 16, 64):
        p.add((n // w) * w if (n // w) * w < n else n - 1)
        p.add(max(0, (n // w) * w - 1))
    return sorted(p)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
def test_full_nan_every_position(device, dt):
    """A 1-D max/min is NaN whatever the position of one NaN, +-inf where
    an inf wins, and NumPy's value otherwise, for lengths 1..4099."""
    _skip_dtype(device, dt)
    rng = np.random.default_rng(1)
    for n in SIZES:
        base = _values(dt, n, rng)
        cases = [base]
        for pos in _positions(n):
            for special in (np.nan, np.inf, -np.inf):
                a = base.copy()
                a[pos] = special
                cases.append(a)
        for a in cases:
            x = sluice.asarray(a, device=device)
            for f in ("max", "min"):
                _same(sluice.asnumpy(getattr(x, f)()), getattr(a, f)())


ROW_SHAPES = [(5, 17), (9, 64), (3, 1000), (2, 3, 129)]


def _rows(dt, shape, rng):
    """Rows (last axis) with a NaN at a different position in each NaN
    row (the body, the tail, the ends), rows with +-inf, an all -inf row,
    a row of mixed zeros, and plain rows."""
    a = _values(dt, int(np.prod(shape)), rng).reshape(shape)
    rows = a.reshape(-1, shape[-1])
    n = shape[-1]
    pos = _positions(n)
    for r in range(rows.shape[0]):
        kind = r % 5
        if kind == 0:
            rows[r, pos[(r // 5) % len(pos)]] = np.nan
        elif kind == 1:
            rows[r, (r * 7) % n] = np.inf
            rows[r, (r * 3) % n] = -np.inf
        elif kind == 2 and r // 5 == 0:
            rows[r, :] = -np.inf
        elif kind == 3:
            rows[r, :] = 0.0
            rows[r, ::2] = -0.0
        # kind 4 (and later kind-2 rows): plain values
    rows[-1, -1] = np.nan  # the last element of all
    return a


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", ROW_SHAPES, ids=str)
def test_axes_and_keepdims(device, dt, shape):
    """max/min along every axis (None, 0, 1, -1, a pair), with and
    without keepdims, of arrays whose rows hold NaN, +-inf, -0.0."""
    _skip_dtype(device, dt)
    rng = np.random.default_rng(2)
    a = _rows(dt, shape, rng)
    x = sluice.asarray(a, device=device)
    axes = [None, 0, 1, -1]
    if len(shape) == 3:
        axes.append((0, 2))
    for f in ("max", "min"):
        for axis in axes:
            for keepdims in (False, True):
                want = getattr(np, f)(a, axis=axis, keepdims=keepdims)
                got = getattr(sluice, f)(x, axis=axis, keepdims=keepdims)
                _same(sluice.asnumpy(got), want)
                # amax/amin are the same functions
                got = getattr(sluice, "a" + f)(x, axis=axis, keepdims=keepdims)
                _same(sluice.asnumpy(got), want)


def test_nan_in_every_row_position(device):
    """Row i of an (n, n) array has its NaN at column i: every row max
    and min is NaN (every body and tail position of a row of 67)."""
    n = 67
    a = _values(np.float32, n * n, np.random.default_rng(3)).reshape(n, n)
    a[np.arange(n), np.arange(n)] = np.nan
    x = sluice.asarray(a, device=device)
    for f in ("max", "min"):
        for axis in (0, 1):
            got = sluice.asnumpy(getattr(x, f)(axis=axis))
            assert np.isnan(got).all(), (f, axis, got)
    b = a.copy()
    b[np.arange(n), np.arange(n)] = np.arange(n, dtype=np.float32) + 1e30
    y = sluice.asarray(b, device=device)
    for f in ("max", "min"):
        for axis in (0, 1):
            _same(
                sluice.asnumpy(getattr(y, f)(axis=axis)), getattr(b, f)(axis)
            )


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
def test_signed_zeros(device, dt):
    """A max/min of zeros of both signs is a zero (NumPy's sign depends on
    the positions; any sign compares equal). On the host the result is
    IEEE 754's maximum/minimum: +0.0 for max, -0.0 for min, whatever the
    order, in full and row reductions and elementwise."""
    _skip_dtype(device, dt)
    for n in (2, 17, 1000):
        for pos in (0, n // 2, n - 1):
            for base, other in ((0.0, -0.0), (-0.0, 0.0)):
                a = np.full(n, base, dt)
                a[pos] = other
                x = sluice.asarray(a, device=device)
                rows = sluice.asarray(np.stack([a, a]), device=device)
                for f, sign in (("max", False), ("min", True)):
                    full = sluice.asnumpy(getattr(x, f)())
                    row = sluice.asnumpy(getattr(rows, f)(axis=1))
                    assert full == 0 and (row == 0).all()
                    if _host(device):
                        assert bool(np.signbit(full)) is sign, (f, n, pos)
                        assert (np.signbit(row) == sign).all(), (f, n, pos)
    z = sluice.asarray(np.array([0.0, -0.0], dt), device=device)
    nz = sluice.asarray(np.array([-0.0, 0.0], dt), device=device)
    for f, sign in (("maximum", False), ("minimum", True)):
        r = sluice.asnumpy(getattr(sluice, f)(z, nz))
        assert (r == 0).all()
        if _host(device):
            assert (np.signbit(r) == sign).all(), (f, r)


@pytest.mark.parametrize("dt", INTS, ids=lambda d: np.dtype(d).name)
def test_integers_unchanged(device, dt):
    """Integer max/min keep exact values at the dtype's extremes."""
    info = np.iinfo(dt)
    rng = np.random.default_rng(4)
    for n in (1, 17, 65, 1000):
        a = rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)
        a[n // 2] = info.max
        a[-1] = info.min
        x = sluice.asarray(a, device=device)
        _same(sluice.asnumpy(x.max()), a.max())
        _same(sluice.asnumpy(x.min()), a.min())
    b = rng.integers(info.min, info.max, size=(5, 33), dtype=dt, endpoint=True)
    b[2, 32] = info.max
    b[3, 0] = info.min
    y = sluice.asarray(b, device=device)
    for axis in (0, 1, None):
        for keepdims in (False, True):
            for f in ("max", "min"):
                want = getattr(b, f)(axis=axis, keepdims=keepdims)
                got = getattr(y, f)(axis=axis, keepdims=keepdims)
                _same(sluice.asnumpy(got), want)


@pytest.mark.parametrize(
    "shape,axis", [((0,), None), ((3, 0), 1), ((0, 3), 0), ((0, 3), None)]
)
def test_empty_raises(device, shape, axis):
    """A max/min over nothing is NumPy's ValueError; an empty result of a
    non-empty reduction is an empty array."""
    x = sluice.asarray(np.zeros(shape, np.float32), device=device)
    for f in ("max", "min"):
        with pytest.raises(ValueError, match="zero-size array"):
            getattr(x, f)(axis=axis)
    if shape == (0, 3):
        got = sluice.asnumpy(x.max(axis=1))
        assert got.shape == (0,) and got.dtype == np.float32


def test_nanmax_nanmin(device):
    """nanmax/nanmin skip the NaNs at every row position; an all-NaN row
    is NaN (NumPy warns)."""
    n = 33
    a = _values(np.float32, 6 * n, np.random.default_rng(5)).reshape(6, n)
    for r, pos in enumerate((0, 15, 16, 31, 32)):
        a[r, pos] = np.nan
    a[5, :] = np.nan
    x = sluice.asarray(a, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for f in ("nanmax", "nanmin"):
            for axis in (1, -1, 0):
                want = getattr(np, f)(a, axis=axis)
                _same(sluice.asnumpy(getattr(sluice, f)(x, axis=axis)), want)


_HYP_DTYPES = st.sampled_from(FLOATS)


@settings(max_examples=300 if HEAVY else 40, **HYP)
@given(data=st.data())
def test_hypothesis_1d(device, data):
    """Any float array (NaN, +-inf, subnormals, -0.0 included) of length
    1..1100: max and min are NumPy's."""
    dt = data.draw(_HYP_DTYPES)
    _skip_dtype(device, dt)
    n = data.draw(st.integers(1, 1100))
    elements = st.floats(
        width=np.dtype(dt).itemsize * 8,
        allow_nan=True,
        allow_infinity=True,
        allow_subnormal=True,
    )
    a = data.draw(hnp.arrays(dt, n, elements=elements))
    x = sluice.asarray(a, device=device)
    _same(sluice.asnumpy(x.max()), a.max())
    _same(sluice.asnumpy(x.min()), a.min())


@settings(max_examples=200 if HEAVY else 25, **HYP)
@given(data=st.data())
def test_hypothesis_rows(device, data):
    """Any float32 array of shape (6, 37) (NaN, +-inf, subnormals, -0.0,
    magnitudes up to 3e38): every axis, with and without keepdims."""
    elements = st.floats(
        width=32, allow_nan=True, allow_infinity=True, allow_subnormal=True
    )
    a = data.draw(hnp.arrays(np.float32, (6, 37), elements=elements))
    axis = data.draw(st.sampled_from([None, 0, 1, -1]))
    keepdims = data.draw(st.booleans())
    x = sluice.asarray(a, device=device)
    for f in ("max", "min"):
        want = getattr(np, f)(a, axis=axis, keepdims=keepdims)
        got = getattr(sluice, f)(x, axis=axis, keepdims=keepdims)
        _same(sluice.asnumpy(got), want)
