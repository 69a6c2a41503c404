"""Copies between strided views as kernels on the views' queue
(sluice/_strided_copy.py): slices, negative steps, transposes and
broadcasts of memory the host cannot reach, into and out of kernels,
against NumPy. The kernels run on every device the host cannot reach
directly here (mode "1"; by default only on non-CPU devices)."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sluice
from sluice import _sluice as ext
from sluice import _strided_copy

DTYPES = [
    np.float32,
    np.float64,
    np.int8,
    np.int16,
    np.uint64,
    np.bool_,
    np.complex64,
    np.complex128,
]
KEYS = [
    (slice(1, -1), slice(None, None, 2)),
    (slice(None, None, -1), 3),
    (Ellipsis, slice(1, 4)),
    (slice(None), slice(None), slice(None, None, -2)),
    (slice(2, 5), slice(None), slice(0, 1)),
]


@pytest.fixture
def counted():
    """Every device the host cannot reach copies with kernels; yields the
    list of kernel copies made."""
    calls = []

    def hook(*args):
        done = _strided_copy.copy(*args)
        calls.append(done)
        return done

    _strided_copy.set_mode("1")
    ext.set_strided_copy_hook(hook)
    yield calls
    ext.set_strided_copy_hook(_strided_copy.copy)
    _strided_copy.set_mode("auto")


def _reaches(device):
    x = sluice.empty(1, device=device)
    return device.backend.name != "host" and x.usm_type == "device"


def _sample(dt, shape, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape) * 10
    if np.dtype(dt).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dt)


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
def test_views_into_and_out_of_operations(device, counted, dt):
    a = _sample(dt, (7, 9, 5))
    x = sluice.asarray(a, device=device)
    for key in KEYS:
        v, w = x[key], a[key]
        # A strided operand of an operation (made contiguous first).
        got = sluice.asnumpy(sluice.where(v == v, v, v))
        np.testing.assert_array_equal(got, w)
        # Assignment into a strided destination from a strided source.
        y = sluice.asarray(a, device=device)
        b = a.copy()
        y[key] = v[..., ::-1] if w.ndim else v
        b[key] = w[..., ::-1] if w.ndim else w
        np.testing.assert_array_equal(sluice.asnumpy(y), b)
    t = sluice.asarray(a, device=device).T
    np.testing.assert_array_equal(sluice.asnumpy(t + t), a.T + a.T)
    if _reaches(device):
        assert counted and all(counted)


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
def test_scalars_into_strided_views(device, counted, dt):
    # One element filled on the device, then copied over the view by the
    # kernel (zero strides), twice each (the second from the fast path).
    a = _sample(dt, (7, 9, 5))
    x = sluice.asarray(a, device=device)
    keys = KEYS + [(slice(None), 0, 1), (1, slice(None, None, 3), 2)]
    for i, key in enumerate(keys):
        for value in (i + 2, True, 0.5 if np.dtype(dt).kind in "fc" else 3):
            for _ in range(2):
                x[key] = value
                a[key] = value
                np.testing.assert_array_equal(sluice.asnumpy(x), a)
    if _reaches(device):
        assert counted and all(counted)


def test_broadcast_and_overlapping_views(device, counted):
    a = _sample(np.float32, (6, 8))
    x = sluice.asarray(a, device=device)
    np.testing.assert_array_equal(
        sluice.asnumpy(sluice.broadcast_to(x[:, :1], (6, 8)) * 1),
        np.broadcast_to(a[:, :1], (6, 8)),
    )
    # Overlapping source and destination: NumPy's result.
    y = sluice.asarray(a, device=device)
    b = a.copy()
    y[1:, ::2] = y[:-1, ::2]
    b[1:, ::2] = b[:-1, ::2]
    np.testing.assert_array_equal(sluice.asnumpy(y), b)


def test_stencil_step(device, counted):
    n = 64
    u0 = np.zeros((n, n), np.float32)
    u0[0, :] = 1
    u = sluice.asarray(u0, device=device)
    for _ in range(3):
        u[1:-1, 1:-1] = 0.25 * (
            u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
        )
        u0[1:-1, 1:-1] = 0.25 * (
            u0[:-2, 1:-1] + u0[2:, 1:-1] + u0[1:-1, :-2] + u0[1:-1, 2:]
        )
    np.testing.assert_allclose(sluice.asnumpy(u), u0, rtol=1e-6)


def test_mode_is_checked():
    with pytest.raises(ValueError, match="mode"):
        _strided_copy.set_mode("sometimes")


_dims = st.integers(1, 6)
_steps = st.sampled_from([1, 2, -1, -3])


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    shape=st.lists(_dims, min_size=1, max_size=4),
    steps=st.lists(_steps, min_size=4, max_size=4),
    dt=st.sampled_from([np.float32, np.int16, np.complex128]),
)
def test_random_views_match_numpy(device, shape, steps, dt):
    _strided_copy.set_mode("1")
    try:
        a = _sample(dt, tuple(shape), seed=len(shape))
        key = tuple(slice(None, None, s) for s in steps[: len(shape)])
        x = sluice.asarray(a, device=device)
        np.testing.assert_array_equal(sluice.asnumpy(x[key] + 0), a[key] + 0)
        y = sluice.zeros_like(x)
        b = np.zeros_like(a)
        y[key] = x[key]
        b[key] = a[key]
        np.testing.assert_array_equal(sluice.asnumpy(y), b)
    finally:
        _strided_copy.set_mode("auto")
