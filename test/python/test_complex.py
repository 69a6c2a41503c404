"""Complex numbers against NumPy: creation, promotion, arithmetic, functions,
parts, reductions, DLPack, infinities and NaNs in either part."""

import math
import warnings

import numpy as np
import pytest

import sluice

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

RNG = np.random.default_rng(20261124)


def _cdtypes(device):
    out = [np.dtype(np.complex64)]
    if device.has_aspect_fp64:
        out.append(np.dtype(np.complex128))
    return out


def _data(dt, shape, scale=3.0):
    re = RNG.uniform(-scale, scale, shape)
    im = RNG.uniform(-scale, scale, shape)
    return (re + 1j * im).astype(dt)


def _tol(dt):
    return (
        dict(rtol=2e-5, atol=1e-5)
        if dt in (np.complex64, np.float32)
        else dict(rtol=1e-12, atol=1e-12)
    )


def _close(got, want, dt=None, equal_nan=True):
    got = sluice.asnumpy(got) if isinstance(got, sluice.Array) else got
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    np.testing.assert_allclose(
        got, want, equal_nan=equal_nan, **_tol(dt or want.dtype)
    )


def test_dtypes_and_round_trip(device):
    for dt in _cdtypes(device):
        a = _data(dt, (3, 5))
        x = sluice.asarray(a, device=device)
        assert x.dtype == dt and x.shape == (3, 5)
        assert x.itemsize == dt.itemsize
        np.testing.assert_array_equal(sluice.asnumpy(x), a)
        # Slices and transposes keep the (real, imaginary) layout.
        np.testing.assert_array_equal(
            sluice.asnumpy(x[1:, ::2].T), a[1:, ::2].T
        )
    assert sluice.complex64 == np.complex64
    assert sluice.complex128 == np.complex128


def test_creation(device):
    for dt in _cdtypes(device):
        for f, want in ((sluice.zeros, np.zeros), (sluice.ones, np.ones)):
            x = f((2, 3), dtype=dt, device=device)
            np.testing.assert_array_equal(sluice.asnumpy(x), want((2, 3), dt))
        x = sluice.full((4,), 1.5 - 2j, dtype=dt, device=device)
        np.testing.assert_array_equal(
            sluice.asnumpy(x), np.full((4,), 1.5 - 2j, dt)
        )
        e = sluice.empty((2,), dtype=dt, device=device)
        assert e.dtype == dt
    # Python complex data: complex128 (complex64 without fp64).
    x = sluice.asarray([1 + 2j, 3], device=device)
    want = np.complex128 if device.has_aspect_fp64 else np.complex64
    assert x.dtype == want
    assert sluice.full((2,), 1j, device=device).dtype == want


def test_arithmetic(device):
    for dt in _cdtypes(device):
        a, b = _data(dt, (4, 5)), _data(dt, (5,))
        x, y = (
            sluice.asarray(a, device=device),
            sluice.asarray(b, device=device),
        )
        _close(x + y, a + b)
        _close(x - y, a - b)
        _close(x * y, a * b)
        _close(x / y, a / b)
        _close(-x, -a)
        _close(x * 2.5, a * 2.5)
        _close(x + (1 - 2j), a + (1 - 2j))
        _close((0.5j) * x, (0.5j) * a)
        _close(x**2, a**2, dt)
        _close(sluice.abs(x), np.abs(a))
        assert sluice.abs(x).dtype == np.abs(a).dtype
        np.testing.assert_array_equal(sluice.asnumpy(x == x), a == a)
        np.testing.assert_array_equal(sluice.asnumpy(x != y), a != b)


def test_promotion(device):
    c64 = sluice.asarray(_data(np.complex64, (3,)), device=device)
    f32 = sluice.asarray(np.ones(3, np.float32), device=device)
    assert (c64 + f32).dtype == np.complex64
    assert (c64 * 2.0).dtype == np.complex64  # weak Python float
    assert (c64 * 1j).dtype == np.complex64  # weak Python complex
    assert (f32 * 1j).dtype == np.complex64
    i32 = sluice.asarray(np.arange(3, dtype=np.int32), device=device)
    if device.has_aspect_fp64:
        f64 = sluice.asarray(np.ones(3), device=device)
        assert (c64 + f64).dtype == np.complex128
        assert (c64 + i32).dtype == np.complex128
        assert (f64 * 1j).dtype == np.complex128
    _close(f32 * (2 - 1j), np.ones(3, np.float32) * np.complex64(2 - 1j))


@pytest.mark.parametrize("name", ["exp", "log", "sqrt", "sin", "cos", "tanh"])
def test_functions(device, name):
    for dt in _cdtypes(device):
        a = _data(dt, (64,))
        x = sluice.asarray(a, device=device)
        got = sluice.asnumpy(getattr(sluice, name)(x))
        want = getattr(np, name)(a)
        assert got.dtype == dt
        np.testing.assert_allclose(
            got, want, **{k: v * 10 for k, v in _tol(dt).items()}
        )


def test_parts(device):
    for dt in _cdtypes(device):
        a = _data(dt, (2, 3))
        x = sluice.asarray(a, device=device)
        _close(sluice.real(x), a.real)
        _close(sluice.imag(x), a.imag)
        _close(x.real, a.real)
        _close(x.imag, a.imag)
        _close(sluice.conj(x), np.conj(a))
        _close(x.conj(), a.conj())
        _close(sluice.conjugate(x), np.conjugate(a))
        _close(sluice.angle(x), np.angle(a))
        _close(sluice.angle(x, deg=True), np.angle(a, deg=True))
        assert sluice.iscomplexobj(x) and not sluice.isrealobj(x)
        b = a.copy()
        b[0, 0] = 2.0
        y = sluice.asarray(b, device=device)
        np.testing.assert_array_equal(
            sluice.asnumpy(sluice.iscomplex(y)), np.iscomplex(b)
        )
        np.testing.assert_array_equal(
            sluice.asnumpy(sluice.isreal(y)), np.isreal(b)
        )
    r = sluice.asarray(np.array([-1.0, 0.0, 2.0], np.float32), device=device)
    assert sluice.isrealobj(r)
    _close(sluice.real(r), np.array([-1.0, 0.0, 2.0], np.float32))
    _close(sluice.imag(r), np.zeros(3, np.float32))
    _close(sluice.angle(r), np.angle(np.array([-1.0, 0.0, 2.0], np.float32)))
    np.testing.assert_array_equal(
        sluice.asnumpy(sluice.iscomplex(r)), np.zeros(3, bool)
    )


def test_proj(device):
    inf, nan = math.inf, math.nan
    a = np.array(
        [
            1 + 2j,
            complex(inf, 3),
            complex(-inf, -3),
            complex(2, inf),
            complex(nan, -inf),
            complex(nan, 1),
        ],
        np.complex64,
    )
    got = sluice.asnumpy(sluice.proj(sluice.asarray(a, device=device)))
    want = np.array(
        [
            1 + 2j,
            complex(inf, 0),
            complex(inf, -0.0),
            complex(inf, 0),
            complex(inf, -0.0),
            complex(nan, 1),
        ],
        np.complex64,
    )
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got.imag), np.signbit(want.imag))


def test_astype(device):
    for dt in _cdtypes(device):
        a = _data(dt, (6,))
        a[0] = 0
        x = sluice.asarray(a, device=device)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            for to in (np.float32, np.int32, np.bool_):
                got = sluice.asnumpy(x.astype(to))
                np.testing.assert_array_equal(got, a.astype(to))
        other = np.complex64 if dt == np.complex128 else dt
        _close(x.astype(other), a.astype(other))
        f = sluice.asarray(np.arange(4, dtype=np.float32), device=device)
        _close(f.astype(dt), np.arange(4, dtype=np.float32).astype(dt))


def test_reductions(device):
    for dt in _cdtypes(device):
        a = _data(dt, (5, 7))
        x = sluice.asarray(a, device=device)
        _close(x.sum(), a.sum(), dt)
        _close(sluice.sum(x, axis=0), a.sum(axis=0), dt)
        _close(
            sluice.sum(x, axis=1, keepdims=True),
            a.sum(axis=1, keepdims=True),
            dt,
        )
        _close(sluice.mean(x), a.mean(), dt)
        _close(sluice.mean(x, axis=1), a.mean(axis=1), dt)


def test_fused_jit(device):
    @sluice.jit
    def f(z, w):
        return sluice.sum(sluice.exp(z) * w + 1j, axis=0), sluice.abs(z - w)

    a, b = _data(np.complex64, (8, 3)), _data(np.complex64, (8, 3))
    s, m = f(
        sluice.asarray(a, device=device), sluice.asarray(b, device=device)
    )
    _close(s, (np.exp(a) * b + np.complex64(1j)).sum(axis=0), np.complex64)
    _close(m, np.abs(a - b))


def test_special_values(device):
    inf, nan = math.inf, math.nan
    vals = [
        complex(inf, 0),
        complex(-inf, 0),
        complex(0, inf),
        complex(nan, 0),
        complex(0, nan),
        complex(nan, nan),
        complex(0.0, 0.0),
        complex(-0.0, 0.0),
        complex(1, -0.0),
    ]
    for dt in _cdtypes(device):
        a = np.array(vals, dt)
        x = sluice.asarray(a, device=device)
        np.testing.assert_array_equal(sluice.asnumpy(x), a)
        np.testing.assert_array_equal(sluice.asnumpy(x == x), a == a)
        np.testing.assert_array_equal(sluice.asnumpy(x != x), a != a)
        _close(sluice.abs(x), np.abs(a))
        _close(x + x, a + a)
        _close(-x, -a)
        np.testing.assert_array_equal(
            np.signbit(sluice.asnumpy(-x).real), np.signbit((-a).real)
        )
        _close(sluice.real(x), a.real)
        _close(sluice.imag(x), a.imag)
        # exp at the edges NumPy (C99 Annex G) defines exactly.
        e = np.array(
            [
                complex(0, 0),
                complex(-inf, 0),
                complex(inf, 0),
                complex(nan, 0),
            ],
            dt,
        )
        _close(sluice.exp(sluice.asarray(e, device=device)), np.exp(e))
        s = np.array(
            [complex(0, 0), complex(-4, 0), complex(4, 0), complex(inf, 1)], dt
        )
        _close(sluice.sqrt(sluice.asarray(s, device=device)), np.sqrt(s))


def test_rejected(device):
    x = sluice.asarray(_data(np.complex64, (3,)), device=device)
    for f in (
        sluice.less,
        sluice.greater,
        sluice.maximum,
        sluice.minimum,
        sluice.floor_divide,
    ):
        with pytest.raises((TypeError, sluice.CompileError)):
            f(x, x)
    with pytest.raises((TypeError, ValueError, sluice.CompileError)):
        sluice.max(x)
    with pytest.raises(TypeError):
        sluice.arange(3, dtype=np.complex64, device=device)


def test_dlpack(device):
    for dt in _cdtypes(device):
        a = _data(dt, (4, 3))
        x = sluice.asarray(a, device=device)
        if device.filter_string.startswith("host"):
            np.testing.assert_array_equal(np.from_dlpack(x), a)
        y = sluice.from_dlpack(np.ascontiguousarray(a))
        assert y.dtype == dt
        np.testing.assert_array_equal(sluice.asnumpy(y), a)


def test_hypothesis_arithmetic(device):
    hypothesis = pytest.importorskip("hypothesis")
    st = hypothesis.strategies
    floats = st.floats(-1e3, 1e3, width=32)
    z = st.builds(complex, floats, floats)

    @hypothesis.settings(max_examples=25, deadline=None)
    @hypothesis.given(
        st.lists(z, min_size=1, max_size=9),
        st.lists(z, min_size=1, max_size=9),
    )
    def check(p, q):
        n = min(len(p), len(q))
        a = np.array(p[:n], np.complex64)
        b = np.array(q[:n], np.complex64)
        x, y = (
            sluice.asarray(a, device=device),
            sluice.asarray(b, device=device),
        )
        np.testing.assert_allclose(
            sluice.asnumpy(x * y + x), a * b + a, rtol=1e-5, atol=1e-2
        )
        nz = np.abs(b) > 1e-3
        if nz.all():
            np.testing.assert_allclose(
                sluice.asnumpy(x / y), a / b, rtol=1e-4, atol=1e-4
            )

    check()
