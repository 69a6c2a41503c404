"""Views (basic slices, transposes, negative steps) read in place by the
programs of eager and lazy operations (usm.strided_view arguments, no copy
first), against NumPy: every dtype, random views, overlapping in-place
updates, and lazy execution on and off giving identical results."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sluice
from sluice import _dispatch, _lazy

DTYPES = [
    np.float32,
    np.float64,
    np.int8,
    np.int32,
    np.uint16,
    np.int64,
    np.bool_,
    np.complex64,
]


def _sample(dt, shape, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape) * 10
    if np.dtype(dt).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dt)


@pytest.fixture(params=[False, True], ids=["eager", "lazy"])
def lazy(request):
    """Runs a test with lazy execution off and on (every operation
    recorded: no size threshold)."""
    before = _lazy.set_enabled(request.param)
    _lazy.set_min_elements(0 if request.param else None)
    yield request.param
    _lazy.set_enabled(before)
    _lazy.set_min_elements(None)


@pytest.mark.parametrize("dt", DTYPES)
def test_views_of_every_dtype(device, lazy, dt):
    a = _sample(dt, (7, 9))
    b = _sample(dt, (9, 7), seed=1)
    x = sluice.asarray(a, device=device)
    y = sluice.asarray(b, device=device)
    got = sluice.asnumpy(x[1:-1, 2:] + y.T[2:, 1:-1])
    np.testing.assert_array_equal(got, a[1:-1, 2:] + b.T[2:, 1:-1])
    if dt != np.bool_:
        got = sluice.asnumpy(x[::-1, ::2] - y.T[:, ::-2])
        np.testing.assert_array_equal(got, a[::-1, ::2] - b.T[:, ::-2])
    got = sluice.asnumpy(x.T[::-1] * x.T[::-1])
    want = a.T[::-1] * a.T[::-1]
    if np.dtype(dt).kind in "fc":  # (complex products may differ by 1 ulp)
        np.testing.assert_allclose(got, want, rtol=1e-6)
    else:
        np.testing.assert_array_equal(got, want)


def test_jacobi_matches_numpy(device, lazy):
    n = 33
    u0 = np.zeros((n, n), np.float32)
    u0[0, :] = 1.0
    u = sluice.asarray(u0, device=device)
    v = u0.copy()
    for _ in range(20):
        u[1:-1, 1:-1] = 0.25 * (
            u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
        )
        v[1:-1, 1:-1] = 0.25 * (
            v[:-2, 1:-1] + v[2:, 1:-1] + v[1:-1, :-2] + v[1:-1, 2:]
        )
    np.testing.assert_allclose(sluice.asnumpy(u), v, rtol=1e-6, atol=1e-7)


def test_overlapping_in_place_updates(device, lazy):
    a = np.arange(20, dtype=np.float32)
    x = sluice.asarray(a, device=device)
    x[1:] = x[:-1]
    a[1:] = a[:-1]
    np.testing.assert_array_equal(sluice.asnumpy(x), a)
    x[:-1] += x[1:]
    a[:-1] += a[1:]
    np.testing.assert_array_equal(sluice.asnumpy(x), a)
    x[::-1] = x * 2
    a[::-1] = a * 2
    np.testing.assert_array_equal(sluice.asnumpy(x), a)
    m = np.arange(36, dtype=np.float64).reshape(6, 6)
    y = sluice.asarray(m, device=device)
    y[...] = y.T + y[::-1, ::-1]
    m[...] = m.T + m[::-1, ::-1]
    np.testing.assert_array_equal(sluice.asnumpy(y), m)


def test_view_arguments_copy_nothing(device):
    """A view operand reaches the kernel as a view argument: the compiled
    program is marked so, and the view's memory is not copied."""
    before = _lazy.set_enabled(False)
    try:
        a = np.arange(48, dtype=np.float32).reshape(6, 8)
        x = sluice.asarray(a, device=device)
        got = sluice.asnumpy(x[1:, ::-2] - x.T[::2, :-1].T)
        np.testing.assert_array_equal(got, a[1:, ::-2] - a.T[::2, :-1].T)
        keys = [
            k
            for k in _dispatch._kernels
            if sum(
                1
                for p in k
                if isinstance(p, tuple) and len(p) == 5 and p[4] is True
            )
            == 2
        ]
        assert keys, "no eager kernel took its operands as views"
    finally:
        _lazy.set_enabled(before)


_dim = st.integers(0, 6)


@st.composite
def _views(draw):
    shape = tuple(draw(st.lists(st.integers(1, 6), min_size=1, max_size=3)))
    key = []
    for d in shape:
        start = draw(st.integers(-d, d))
        stop = draw(st.one_of(st.none(), st.integers(-d - 1, d + 1)))
        step = draw(st.sampled_from([1, 2, -1, -2, 3]))
        key.append(slice(start, stop, step))
    transpose = draw(st.booleans())
    return shape, tuple(key), transpose


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(spec=_views(), other=_views(), op=st.sampled_from(["+", "*", "-"]))
def test_random_views_against_numpy(device, spec, other, op):
    shape, key, transpose = spec
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) - 5
    va = a[key]
    if transpose:
        va = va.T
    results = []
    for on in (False, True):
        before = _lazy.set_enabled(on)
        _lazy.set_min_elements(0 if on else None)
        try:
            x = sluice.asarray(a, device=device)
            vx = x[key]
            if transpose:
                vx = vx.T
            r = {"+": vx + vx[::-1], "*": vx * vx.T.T, "-": vx - 1.5}[op]
            results.append(sluice.asnumpy(r))
            # An in-place update through the view of the same memory.
            vx += 1
            results.append(sluice.asnumpy(x))
        finally:
            _lazy.set_enabled(before)
            _lazy.set_min_elements(None)
    want = {"+": va + va[::-1], "*": va * va, "-": va - np.float32(1.5)}[op]
    b = a.copy()
    vb = b[key]
    if transpose:
        vb = vb.T
    vb += 1
    np.testing.assert_array_equal(results[0], want)
    np.testing.assert_array_equal(results[2], want)
    np.testing.assert_array_equal(results[1], b)
    np.testing.assert_array_equal(results[3], b)
