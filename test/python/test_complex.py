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


FUNCTIONS = [
    "exp",
    "log",
    "sqrt",
    "sin",
    "cos",
    "tanh",
    "tan",
    "sinh",
    "cosh",
    "arcsin",
    "arccos",
    "arctan",
    "arcsinh",
    "arccosh",
    "arctanh",
    "exp2",
    "expm1",
    "log2",
    "log10",
    "log1p",
    "reciprocal",
    "sign",
    "rint",
    "square",
]
# Points on the branch cuts (signed zeros pick the side, as in NumPy) and
# the axes.
AXES = [
    0,
    1,
    -1,
    1j,
    -1j,
    0.5,
    2,
    -2,
    2j,
    -2j,
    complex(2, -0.0),
    complex(-2, -0.0),
    complex(-0.0, 2),
    complex(-0.0, -2),
    1e-8,
    complex(0, 1e-8),
    1e15 + 1e15j,
]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_functions(device, name):
    for dt in _cdtypes(device):
        a = np.concatenate([_data(dt, (64,)), np.array(AXES, dt)])
        x = sluice.asarray(a, device=device)
        got = sluice.asnumpy(getattr(sluice, name)(x))
        want = getattr(np, name)(a)
        if name == "exp2":
            # NumPy rounds y ln 2 in the dtype: a wrong angle for large y
            # (exp2(1e15 + 1e15j) in complex64); the exact reference
            import math_accuracy

            with np.errstate(all="ignore"):
                want = math_accuracy._ref_exp2(a.astype(np.clongdouble))
            want = want.astype(dt)
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


def _grid(dt):
    vals = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -2.0,
        -3.0,
        math.inf,
        -math.inf,
        math.nan,
    ]
    return np.array([complex(a, b) for a in vals for b in vals], dt)


def _same_special(got, want):
    """Equal parts, NaN where NumPy has NaN, infinities and zeros with
    their signs (but for a zero beside a NaN, whose sign C99 leaves
    open)."""
    other_nan = [np.isnan(want.imag), np.isnan(want.real)]
    for (g, w), skip in zip(
        ((got.real, want.real), (got.imag, want.imag)), other_nan
    ):
        nan = np.isnan(w)
        np.testing.assert_array_equal(np.isnan(g), nan)
        np.testing.assert_allclose(g[~nan], w[~nan], rtol=1e-5, atol=0)
        zero = (w == 0) & ~skip
        np.testing.assert_array_equal(np.signbit(g[zero]), np.signbit(w[zero]))


# expm1 at +inf follows the Array API (+inf + 0j), where NumPy gives
# inf + NaN j; it is checked at finite points (test_functions).
SPECIAL_EXACT = [f for f in FUNCTIONS if f != "expm1"]


@pytest.mark.parametrize("name", SPECIAL_EXACT)
def test_function_special_values(device, name):
    for dt in _cdtypes(device):
        a = _grid(dt)
        got = sluice.asnumpy(
            getattr(sluice, name)(sluice.asarray(a, device=device))
        )
        want = getattr(np, name)(a)
        assert got.dtype == want.dtype
        _same_special(got, want)


def test_inspection(device):
    for dt in _cdtypes(device):
        a = _grid(dt)
        x = sluice.asarray(a, device=device)
        for f in ("isnan", "isinf", "isfinite"):
            np.testing.assert_array_equal(
                sluice.asnumpy(getattr(sluice, f)(x)), getattr(np, f)(a)
            )


def test_prod(device):
    for dt in _cdtypes(device):
        a = _data(dt, (5, 6, 3), scale=1.2)
        x = sluice.asarray(a, device=device)
        for axis in (None, 0, 1, 2, (0, 2), (1, 2), ()):
            for keepdims in (False, True):
                _close(
                    sluice.prod(x, axis=axis, keepdims=keepdims),
                    np.prod(a, axis=axis, keepdims=keepdims),
                    dt,
                )
        _close(x.prod(axis=1), a.prod(axis=1), dt)
        _close(sluice.prod(x[:, :0]), np.prod(a[:, :0]), dt)
        _close(sluice.prod(x[:, :0], axis=1), np.prod(a[:, :0], axis=1), dt)
        # Exact where NumPy's sequential products are.
        g = np.array([1j, 2, -1j, 3 + 0j, 2j], dt)
        np.testing.assert_array_equal(
            sluice.asnumpy(sluice.prod(sluice.asarray(g, device=device))),
            np.prod(g),
        )
    if device.has_aspect_fp64:
        r = RNG.uniform(-2, 2, (4, 3)).astype(np.float32)
        y = sluice.asarray(r, device=device)
        for dt in (np.complex64, np.complex128):
            _close(
                sluice.prod(y, axis=0, dtype=dt),
                np.prod(r, axis=0, dtype=dt),
                dt,
            )
            _close(
                sluice.sum(y, axis=1, dtype=dt),
                np.sum(r, axis=1, dtype=dt),
                dt,
            )
        c = _data(np.complex64, (3, 4))
        _close(
            sluice.prod(sluice.asarray(c, device=device), dtype=np.complex128),
            np.prod(c, dtype=np.complex128),
        )


def test_var_std(device):
    for dt in _cdtypes(device):
        a = _data(dt, (6, 5))
        x = sluice.asarray(a, device=device)
        part = np.finfo(dt).dtype
        for axis in (None, 0, 1):
            for ddof in (0, 1):
                v = sluice.var(x, axis=axis, ddof=ddof)
                assert v.dtype == part
                _close(v, np.var(a, axis=axis, ddof=ddof), part)
                _close(
                    sluice.std(x, axis=axis, correction=ddof),
                    np.std(a, axis=axis, ddof=ddof),
                    part,
                )
        _close(
            x.var(axis=0, keepdims=True), a.var(axis=0, keepdims=True), part
        )


def test_where_reductions(device):
    m = RNG.uniform(size=(4, 6)) < 0.6
    m[1] = False  # a row of nothing: NaN means, as NumPy
    for dt in [np.float32] + _cdtypes(device):
        a = (
            _data(dt, (4, 6))
            if np.dtype(dt).kind == "c"
            else RNG.uniform(-3, 3, (4, 6)).astype(dt)
        )
        x = sluice.asarray(a, device=device)
        w = sluice.asarray(m, device=device)
        for axis in (None, 0, 1):
            for name in ("mean", "var", "std", "sum", "prod"):
                want = getattr(np, name)(a, axis=axis, where=m)
                got = getattr(sluice, name)(x, axis=axis, where=w)
                _close(got, want, dt)
        # where= as a NumPy mask and as a broadcast row.
        _close(
            sluice.mean(x, axis=0, where=m[0]),
            np.mean(a, axis=0, where=m[0]),
            dt,
        )
        _close(sluice.var(x, where=m, ddof=1), np.var(a, where=m, ddof=1), dt)


def test_jit_scalars(device):
    @sluice.jit
    def f(z, c):
        return z * c + (2 - 0.5j), sluice.prod(z, axis=0), sluice.var(z)

    for dt in _cdtypes(device):
        a = _data(dt, (3, 4))
        x = sluice.asarray(a, device=device)
        r, p, v = f(x, 1 + 2j)
        _close(r, a * (1 + 2j) + (2 - 0.5j), dt)
        _close(p, np.prod(a, axis=0), dt)
        _close(v, np.var(a))
        r, _, _ = f(x, 0.5)
        _close(r, a * 0.5 + (2 - 0.5j), dt)


def test_hypothesis_functions(device):
    hypothesis = pytest.importorskip("hypothesis")
    st = hypothesis.strategies
    floats = st.floats(-30, 30, width=32)
    z = st.builds(complex, floats, floats)

    @hypothesis.settings(max_examples=10, deadline=None)
    @hypothesis.given(
        st.lists(z, min_size=1, max_size=8), st.sampled_from(FUNCTIONS)
    )
    def check(p, name):
        a = np.array(p, np.complex64)
        got = sluice.asnumpy(
            getattr(sluice, name)(sluice.asarray(a, device=device))
        )
        want = getattr(np, name)(a)
        # Relative to the result's size (cancelling parts of large values
        # are compared to their neighbours').
        scale = np.maximum(np.abs(want), 1e-30)
        ok = (
            (np.abs(got - want) <= 1e-4 * scale)
            | (np.isnan(got) & np.isnan(want))
            | (got == want)
        )
        assert ok.all(), (name, a[~ok], got[~ok], want[~ok])

    check()
