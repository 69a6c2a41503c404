"""Property-based agreement with NumPy on random inputs (hypothesis)."""

import numpy as np
import pytest

import sluice

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

SETTINGS = settings(
    max_examples=25,
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
        "int32",
        "int64",
        "uint8",
        "uint32",
        "float32",
        "float64",
        "bool",
    )
]


def _supported(device, dt):
    return not (dt == np.float64 and not device.has_aspect_fp64)


def _values(dt):
    if dt.kind == "f":
        return st.floats(-1e3, 1e3, width=dt.itemsize * 8)
    if dt.kind == "b":
        return st.booleans()
    info = np.iinfo(dt)
    return st.integers(max(info.min, -1000), min(info.max, 1000))


@st.composite
def _pair(draw):
    """Two arrays with broadcast-compatible shapes and dtypes."""
    shapes = draw(
        hnp.mutually_broadcastable_shapes(
            num_shapes=2, min_dims=0, max_dims=3, max_side=5
        )
    )
    d1 = draw(st.sampled_from(DTYPES))
    d2 = draw(st.sampled_from(DTYPES))
    a = draw(hnp.arrays(d1, shapes.input_shapes[0], elements=_values(d1)))
    b = draw(hnp.arrays(d2, shapes.input_shapes[1], elements=_values(d2)))
    return a, b


def _check(got, expected):
    got = sluice.asnumpy(got)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if expected.dtype.kind == "f":
        tol = 1e-5 if expected.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(got, expected)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@SETTINGS
@given(
    pair=_pair(),
    op=st.sampled_from(
        [
            "add",
            "multiply",
            "maximum",
            "less",
            "equal",
            "logical_or",
            "subtract",
            "floor_divide",
        ]
    ),
)
def test_binary_ops_agree_with_numpy(device, pair, op):
    a, b = pair
    ref = getattr(np, op)
    try:
        expected = ref(a, b)
    except TypeError:  # NumPy has no loop (bool subtract): neither do we
        with pytest.raises(TypeError):
            getattr(sluice, op)(
                sluice.asarray(a, device=device),
                sluice.asarray(b, device=device),
            )
        return
    if not all(
        _supported(device, d) for d in (a.dtype, b.dtype, expected.dtype)
    ):
        return
    got = getattr(sluice, op)(
        sluice.asarray(a, device=device), sluice.asarray(b, device=device)
    )
    _check(got, expected)


@SETTINGS
@given(
    a=hnp.arrays(
        np.float32,
        hnp.array_shapes(min_dims=1, max_dims=3, max_side=6),
        elements=st.floats(-100, 100, width=32),
    ),
    keepdims=st.booleans(),
    data=st.data(),
)
def test_reductions_agree_with_numpy(device, a, keepdims, data):
    axis = data.draw(st.one_of(st.none(), st.integers(-a.ndim, a.ndim - 1)))
    x = sluice.asarray(a, device=device)
    got = sluice.sum(x, axis=axis, keepdims=keepdims)
    expected = np.sum(
        a.astype(np.float64), axis=axis, keepdims=keepdims
    ).astype(np.float32)
    np.testing.assert_allclose(
        sluice.asnumpy(got), expected, rtol=1e-4, atol=1e-3
    )
    if a.size:
        _check(
            sluice.max(x, axis=axis, keepdims=keepdims),
            np.max(a, axis=axis, keepdims=keepdims),
        )


@SETTINGS
@given(
    a=hnp.arrays(
        np.int32,
        hnp.array_shapes(min_dims=1, max_dims=3, max_side=5),
        elements=st.integers(-50, 50),
    ),
    s=st.integers(-50, 50),
    t=st.floats(-10, 10, width=32),
)
def test_jit_expressions_agree_with_numpy(device, a, s, t):
    @sluice.jit
    def f(x, s, t):
        y = (x * s - x // 3) % 7
        return sluice.where(y > 2, y * t, -y), (x + s).max()

    x = sluice.asarray(a, device=device)
    got, mx = f(x, s, t)
    y = (a * np.int32(s) - a // 3) % 7
    ft = np.float64 if device.has_aspect_fp64 else np.float32
    expected = np.where(y > 2, y * ft(t), -y)
    np.testing.assert_allclose(sluice.asnumpy(got), expected, rtol=1e-6)
    assert int(mx) == int((a + s).max())


@SETTINGS
@given(
    a=hnp.arrays(
        np.int16, hnp.array_shapes(min_dims=1, max_dims=4, max_side=4)
    ),
    data=st.data(),
)
def test_views_agree_with_numpy(device, a, data):
    def index_for(n):
        return st.one_of(
            st.integers(-n, n - 1) if n else st.nothing(),
            st.builds(
                slice,
                st.none() | st.integers(-n - 1, n + 1),
                st.none() | st.integers(-n - 1, n + 1),
                st.none() | st.sampled_from([-3, -1, 1, 2]),
            ),
        )

    key = tuple(data.draw(index_for(n)) for n in a.shape)
    x = sluice.asarray(a, device=device)
    v = x[key]
    np.testing.assert_array_equal(sluice.asnumpy(v), a[key])
    np.testing.assert_array_equal(sluice.asnumpy(v + 1), a[key] + 1)
    b = a.copy()
    b[key] = 7
    x[key] = 7
    np.testing.assert_array_equal(sluice.asnumpy(x), b)
