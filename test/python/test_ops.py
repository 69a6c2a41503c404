"""Operations against NumPy: dtypes, promotion, broadcasting, placement."""

import operator

import numpy as np
import pytest

import sluice

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

RNG = np.random.default_rng(1234)


def _data(dtype, shape, positive=False):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return RNG.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        lo = 1 if positive else (0 if dt.kind == "u" else -20)
        return RNG.integers(lo, 20, shape).astype(dt)
    v = RNG.uniform(0.1 if positive else -3, 3, shape)
    return v.astype(dt)


def _dtypes_for(device, kinds="biuf"):
    out = []
    for dt in (
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float16",
        "float32",
        "float64",
    ):
        d = np.dtype(dt)
        if d.kind not in kinds:
            continue
        if d == np.float16 and not device.has_aspect_fp16:
            continue
        if d == np.float64 and not device.has_aspect_fp64:
            continue
        out.append(d)
    return out


def _close(got, expected, dtype=None):
    got = sluice.asnumpy(got) if isinstance(got, sluice.Array) else got
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape
    if expected.dtype.kind == "f":
        tol = {2: 2e-3, 4: 2e-5, 8: 1e-12}[expected.dtype.itemsize]
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(got, expected)


BINARY = [
    ("add", operator.add, np.add),
    ("subtract", operator.sub, np.subtract),
    ("multiply", operator.mul, np.multiply),
    ("divide", operator.truediv, np.true_divide),
    ("floor_divide", operator.floordiv, np.floor_divide),
    ("remainder", operator.mod, np.remainder),
    ("maximum", None, np.maximum),
    ("minimum", None, np.minimum),
    ("equal", operator.eq, np.equal),
    ("not_equal", operator.ne, np.not_equal),
    ("less", operator.lt, np.less),
    ("less_equal", operator.le, np.less_equal),
    ("greater", operator.gt, np.greater),
    ("greater_equal", operator.ge, np.greater_equal),
    ("logical_and", None, np.logical_and),
    ("logical_or", None, np.logical_or),
    ("logical_xor", None, np.logical_xor),
]


@pytest.mark.parametrize("name,op,ref", BINARY, ids=[b[0] for b in BINARY])
def test_binary_same_dtype(device, name, op, ref):
    for dt in _dtypes_for(device):
        if dt.kind == "b" and name in ("subtract",):
            continue
        a = _data(dt, (3, 4))
        b = _data(
            dt,
            (3, 4),
            positive=name in ("floor_divide", "remainder", "divide"),
        )
        expected = ref(a, b)
        xa = sluice.asarray(a, device=device)
        xb = sluice.asarray(b, device=device)
        _close(getattr(sluice, name)(xa, xb), expected)
        if op is not None:
            _close(op(xa, xb), expected)


def test_power(device):
    for dt in _dtypes_for(device, "iuf"):
        a = _data(dt, (5,), positive=True)
        b = np.array([0, 1, 2, 3, 2], dtype=dt)
        _close(
            sluice.asarray(a, device=device)
            ** sluice.asarray(b, device=device),
            a**b,
        )


def test_bool_arithmetic_follows_numpy(device):
    a = np.array([True, False, True, False])
    b = np.array([True, True, False, False])
    xa, xb = sluice.asarray(a, device=device), sluice.asarray(b, device=device)
    _close(xa + xb, a + b)
    _close(xa * xb, a * b)
    _close(xa & xb, a & b)
    _close(xa | xb, a | b)
    _close(xa ^ xb, a ^ b)
    _close(~xa, ~a)
    with pytest.raises(TypeError):
        xa - xb
    with pytest.raises(TypeError):
        -xa
    # integers have bitwise operations too (test_elementwise.py)
    _close(sluice.arange(3, device=device) & 1, np.arange(3) & 1)


@pytest.mark.parametrize(
    "name",
    [
        "negative",
        "absolute",
        "exp",
        "log",
        "sqrt",
        "sin",
        "cos",
        "tanh",
        "logical_not",
        "square",
        "positive",
    ],
)
def test_unary(device, name):
    ref = getattr(np, name)
    for dt in _dtypes_for(device):
        if dt.kind == "b" and name in ("negative", "positive"):
            continue
        a = _data(dt, (7,), positive=name in ("log", "sqrt"))
        expected = ref(a)
        if expected.dtype == np.float16 and not device.has_aspect_fp16:
            expected = ref(a.astype(np.float32))  # float32 instead
        _close(
            getattr(sluice, name)(sluice.asarray(a, device=device)), expected
        )


def test_operators_unary(device):
    a = np.array([-2.5, 0.0, 3.0], dtype=np.float32)
    x = sluice.asarray(a, device=device)
    _close(-x, -a)
    _close(+x, +a)
    _close(abs(x), abs(a))


def test_promotion_between_dtypes(device):
    pairs = [
        ("int8", "uint8"),
        ("int32", "float32"),
        ("uint32", "int64"),
        ("bool", "int16"),
        ("uint64", "int64"),
        ("int64", "float32"),
    ]
    for d1, d2 in pairs:
        a = _data(d1, (4,))
        b = _data(d2, (4,))
        expected = a + b
        if expected.dtype == np.float64 and not device.has_aspect_fp64:
            continue
        _close(
            sluice.asarray(a, device=device)
            + sluice.asarray(b, device=device),
            expected,
        )


@pytest.mark.parametrize(
    "dtype", ["int8", "uint8", "int32", "float32", "bool"]
)
def test_python_scalars_are_weak(device, dtype):
    a = _data(dtype, (5,))
    x = sluice.asarray(a, device=device)
    for s in (2, True, 1.5):
        if (
            isinstance(s, float)
            and np.dtype(dtype).kind != "f"
            and not device.has_aspect_fp64
        ):
            continue
        _close(x * s, a * s)
        _close(s + x, s + a)
        _close(x > s, a > s)


def test_python_int_out_of_range(device):
    x = sluice.ones(3, dtype=np.int8, device=device)
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        x + 300
    u = sluice.ones(3, dtype=np.uint8, device=device)
    with pytest.raises(OverflowError):
        u - (-1)


def test_numpy_scalars_and_arrays_follow_the_array(device):
    a = _data("float32", (2, 3))
    x = sluice.asarray(a, device=device, usm_type="shared")
    r = x + np.float32(2)
    assert r.dtype == np.float32 and r.sycl_queue is x.sycl_queue
    n = np.arange(3, dtype=np.float32)
    r = x * n
    assert r.sycl_queue is x.sycl_queue and r.usm_type == "shared"
    _close(r, a * n)
    r = n - x  # NumPy defers to the sluice array
    assert isinstance(r, sluice.Array)
    _close(r, n - a)
    if device.has_aspect_fp64:
        _close(x + np.float64(1), a + np.float64(1))


def test_unsupported_operands(device):
    x = sluice.ones(3, device=device)
    with pytest.raises(TypeError, match="unsupported operand"):
        x + "a"
    assert (x + 1j).dtype.kind == "c"  # complex numbers: test_complex.py
    with pytest.raises(TypeError, match="unsupported operand"):
        x + [1, 2, 3]
    with pytest.raises(
        sluice.ExecutionPlacementError, match="must be a sluice.Array"
    ):
        sluice.add(np.ones(3), 1)


@pytest.mark.parametrize(
    "s1,s2",
    [
        ((3, 4), (4,)),
        ((3, 1), (1, 4)),
        ((2, 1, 3), (4, 1)),
        ((1,), (5,)),
        ((), (2, 2)),
        ((0, 3), (1, 3)),
        ((2, 3), (2, 3)),
        ((1, 1), (1, 1)),
    ],
)
def test_broadcasting(device, s1, s2):
    a = _data("float32", s1)
    b = _data("float32", s2)
    xa, xb = sluice.asarray(a, device=device), sluice.asarray(b, device=device)
    _close(xa * xb + xa, a * b + a)
    _close(sluice.where(xa > 0, xa, xb), np.where(a > 0, a, b))


def test_broadcasting_errors(device):
    x = sluice.ones((3, 4), device=device)
    y = sluice.ones((3,), device=device)
    with pytest.raises(ValueError, match="could not be broadcast"):
        x + y


def test_placement_error_names_both_queues(device):
    q1, q2 = sluice.Queue(device), sluice.Queue(device)
    x = sluice.ones(3, sycl_queue=q1)
    y = sluice.ones(3, sycl_queue=q2)
    with pytest.raises(sluice.ExecutionPlacementError) as info:
        x + y
    msg = str(info.value)
    assert msg.startswith(
        "Execution placement can not be unambiguously "
        "inferred from input arguments."
    )
    assert q1.name in msg and q2.name in msg and "to_device" in msg
    assert isinstance(info.value, ValueError)
    with pytest.raises(sluice.ExecutionPlacementError):
        sluice.where(x > 0, x, y)
    # Migrating one of them makes it work.
    _close(x + y.to_device(q1), np.full(3, 2.0, x.dtype))


def test_usm_type_coercion(device):
    d = sluice.ones(3, device=device, usm_type="device")
    s = sluice.ones(3, device=device, usm_type="shared")
    h = sluice.ones(3, device=device, usm_type="host")
    assert (d + s).usm_type == "device"
    assert (s + h).usm_type == "shared"
    assert (h * h).usm_type == "host"
    assert sluice.where(h > 0, s, d).usm_type == "device"


def test_where(device):
    c = _data("bool", (3, 4))
    a = _data("int32", (3, 4))
    b = _data("float32", (4,))
    xc, xa, xb = (sluice.asarray(v, device=device) for v in (c, a, b))
    _close(sluice.where(xc, xa, xb), np.where(c, a, b))
    _close(sluice.where(xa, 1, 0), np.where(a, 1, 0).astype(np.int64))
    _close(sluice.where(xc, xb, 2.5), np.where(c, b, np.float32(2.5)))


@pytest.mark.parametrize(
    "src", ["bool", "int8", "uint16", "int64", "float32", "float64"]
)
def test_astype(device, src):
    a = (
        _data(src, (6,))
        if src != "float32"
        else np.array([-2.7, -0.5, 0.0, 0.5, 3.9, 100.2], dtype=np.float32)
    )
    if np.dtype(src) == np.float64 and not device.has_aspect_fp64:
        return
    x = sluice.asarray(a, device=device)
    for dt in _dtypes_for(device):
        if (
            dt.kind in "iu"
            and a.dtype.kind == "f"
            and (dt.kind == "u" or dt.itemsize < 4)
        ):
            continue  # out-of-range float to int conversions are undefined
        _close(x.astype(dt), a.astype(dt))
    assert x.astype(x.dtype, copy=False) is x
    y = x.astype(x.dtype)
    assert y is not x and not y._same_buffer(x)
    if a.dtype != np.bool_:
        with pytest.raises(TypeError, match="casting rule"):
            x.astype(np.bool_, casting="safe")


REDUCTIONS = [
    ("sum", np.sum),
    ("prod", np.prod),
    ("max", np.max),
    ("min", np.min),
]


@pytest.mark.parametrize(
    "name,ref", REDUCTIONS, ids=[r[0] for r in REDUCTIONS]
)
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (0, 1, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions(device, name, ref, axis, keepdims):
    for dt in ("int8", "uint16", "int64", "float32", "bool"):
        if dt == "bool" and name in ("prod",):
            continue
        a = (
            _data(dt, (2, 3, 4))
            if name != "prod"
            else RNG.integers(1, 3, (2, 3, 4)).astype(dt)
        )
        x = sluice.asarray(a, device=device)
        _close(
            getattr(sluice, name)(x, axis=axis, keepdims=keepdims),
            ref(a, axis=axis, keepdims=keepdims),
        )
        _close(
            getattr(x, name)(axis=axis, keepdims=keepdims),
            ref(a, axis=axis, keepdims=keepdims),
        )


def test_axis_reductions_take_the_fast_path(device, fresh_cache):
    """A second axis reduction of the same signature skips Python's type
    resolution (one fast-path entry per (name, axis, keepdims) and operand
    signature), and entries of other axes, ranks or views never mix."""
    from sluice import _dispatch

    a = _data("float32", (3, 4, 5))
    x = sluice.asarray(a, device=device)
    before = _dispatch._ext.fast_size()
    for _ in range(2):
        for axis in (0, 1, -1, (0, 2), [0, 2]):
            for keepdims in (False, True):
                want = a.sum(
                    axis=tuple(axis) if isinstance(axis, list) else axis,
                    keepdims=keepdims,
                )
                _close(x.sum(axis=axis, keepdims=keepdims), want)
                _close(
                    x.max(axis=axis, keepdims=keepdims),
                    a.max(
                        axis=tuple(axis) if isinstance(axis, list) else axis,
                        keepdims=keepdims,
                    ),
                )
    # (axis, keepdims) pairs of sum and max: a list and its tuple are one
    # key; the second round added nothing.
    assert _dispatch._ext.fast_size() - before == 2 * 4 * 2
    # The same raw axis on another rank and on a strided view.
    b = a[:, 1:, ::2]
    _close(x[:, 1:, ::2].sum(axis=-1), b.sum(axis=-1))
    _close(x[0].sum(axis=-1, keepdims=True), a[0].sum(axis=-1, keepdims=True))
    # An unhashable axis still gets NumPy's error from the slow path.
    with pytest.raises(TypeError):
        x.sum(axis={0: 1})


@pytest.mark.parametrize("dt", ["float32", "float64", "int32", "bool"])
def test_mean_var_std_one_program(device, dt):
    """mean/var/std run as one program each (sums and divisions together),
    for every axis form, keepdims, ddof, views and a second call through
    the fast path."""
    if dt == "float64" and not device.has_aspect_fp64:
        pytest.skip("no float64 on this device")
    a = _data(dt, (3, 4, 5))
    x = sluice.asarray(a, device=device)
    tol = 1e-5 if dt != "float64" else 1e-12
    for _ in range(2):
        for axis in (None, 0, -1, (0, 2), [1, 2]):
            np_axis = tuple(axis) if isinstance(axis, list) else axis
            for keepdims in (False, True):
                for name in ("mean", "var", "std"):
                    got = getattr(x, name)(axis=axis, keepdims=keepdims)
                    want = getattr(a, name)(axis=np_axis, keepdims=keepdims)
                    if device.has_aspect_fp64 or want.dtype != np.float64:
                        assert got.dtype == want.dtype
                    np.testing.assert_allclose(
                        sluice.asnumpy(got), want, rtol=tol, atol=tol
                    )
        np.testing.assert_allclose(
            sluice.asnumpy(x.var(axis=1, ddof=1)),
            a.var(axis=1, ddof=1),
            rtol=tol,
            atol=tol,
        )
    v = x[:, 1:, ::2]
    np.testing.assert_allclose(
        sluice.asnumpy(v.std(axis=0)),
        a[:, 1:, ::2].std(axis=0),
        rtol=tol,
        atol=tol,
    )
    # Nothing to average: NaN, as NumPy (which also warns).
    e = sluice.ones((0, 3), dtype=np.float32, device=device)
    assert np.isnan(sluice.asnumpy(e.mean())).all()
    assert np.isnan(sluice.asnumpy(x.var(axis=0, ddof=3))).all()


def test_transpose_is_a_view(device):
    """x.T and transpose() share x's memory, as NumPy's views do."""
    a = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
    x = sluice.asarray(a, device=device)
    t = x.T
    t[1, 2, 0] = 100.0
    a[0, 2, 1] = 100.0
    np.testing.assert_array_equal(sluice.asnumpy(x), a)
    p = sluice.transpose(x, (1, 0, 2))
    p[0, 1] += 1.0
    a.transpose(1, 0, 2)[0, 1] += 1.0
    np.testing.assert_array_equal(sluice.asnumpy(x), a)
    np.testing.assert_array_equal(
        sluice.asnumpy(p * 2), a.transpose(1, 0, 2) * 2
    )
    np.testing.assert_array_equal(sluice.asnumpy(x.T.copy()), a.T)


def test_mean_var_std_all_any(device):
    a = _data("float32", (4, 5))
    x = sluice.asarray(a, device=device)
    _close(x.mean(), a.mean())
    _close(sluice.mean(x, axis=0), a.mean(axis=0))
    _close(x.var(axis=1), a.var(axis=1))
    _close(x.std(ddof=1), a.std(ddof=1))
    i = sluice.asarray(np.arange(10), device=device)
    if device.has_aspect_fp64:
        _close(i.mean(), np.arange(10).mean())
    b = a > 0
    xb = sluice.asarray(b, device=device)
    _close(xb.all(axis=0), b.all(axis=0))
    _close(xb.any(axis=1), b.any(axis=1))
    _close(sluice.all(x), np.all(a))
    e = sluice.ones((0, 3), device=device)
    _close(e.all(), np.all(np.ones((0, 3))))
    _close(e.any(axis=0), np.any(np.ones((0, 3)), axis=0))


def test_reduction_errors(device):
    x = sluice.ones((2, 3), device=device)
    with pytest.raises(np.exceptions.AxisError):
        x.sum(axis=2)
    with pytest.raises(ValueError, match="duplicate"):
        x.sum(axis=(0, 0))
    with pytest.raises(ValueError, match="zero-size"):
        sluice.ones((0,), device=device).max()
    with pytest.raises(ValueError, match="wrong shape"):
        x.sum(out=x)  # out= is supported (test_elementwise.py), not this one
    # Empty sums are the identity.
    _close(
        sluice.ones((0, 2), device=device).sum(axis=0),
        np.ones((0, 2)).sum(axis=0).astype(x.dtype),
    )


def test_sum_dtype_argument(device):
    a = _data("int8", (10,))
    _close(
        sluice.asarray(a, device=device).sum(dtype=np.int16),
        a.sum(dtype=np.int16),
    )


def test_reshape(device):
    a = np.arange(24, dtype=np.int32)
    x = sluice.asarray(a, device=device)
    r = x.reshape(2, 3, 4)
    assert r._same_buffer(x)  # a view, as NumPy gives
    _close(r, a.reshape(2, 3, 4))
    _close(x.reshape((4, -1)), a.reshape(4, -1))
    _close(sluice.reshape(x, (-1,)), a)
    t = r[:, ::2]  # not contiguous: reshape copies
    _close(t.reshape(-1), a.reshape(2, 3, 4)[:, ::2].reshape(-1))
    with pytest.raises(ValueError, match="cannot reshape"):
        x.reshape(5, 5)
    with pytest.raises(ValueError, match="one unknown"):
        x.reshape(-1, -1)
    with pytest.raises(ValueError, match="without a copy"):
        t.reshape(-1, copy=False)
    _close(r.flatten(), a)
    _close(r.ravel(), a)
    _close(sluice.expand_dims(x, 0), a[None])
    _close(sluice.squeeze(r.reshape(1, 24, 1)), a)


@pytest.mark.parametrize(
    "shape,axes",
    [
        ((2, 3), None),
        ((2, 3, 4), (1, 0, 2)),
        ((2, 3, 4), (2, 0, 1)),
        ((1, 5), None),
        ((4,), None),
        ((2, 3, 4), (-1, 0, 1)),
    ],
)
def test_transpose(device, shape, axes):
    a = _data("float32", shape)
    x = sluice.asarray(a, device=device)
    _close(sluice.transpose(x, axes), np.transpose(a, axes))
    if axes is None:
        _close(x.T, a.T)


def test_transpose_errors_and_variants(device):
    x = sluice.ones((2, 3, 4), device=device)
    with pytest.raises(ValueError, match="axes don't match"):
        x.transpose(0, 1)
    with pytest.raises(ValueError, match="not a permutation"):
        x.transpose(0, 0, 1)
    a = np.arange(24.0).reshape(2, 3, 4)
    y = sluice.asarray(a, device=device)
    _close(y.mT.astype(np.float64), np.swapaxes(a, -1, -2))
    _close(y.swapaxes(0, 2).astype(np.float64), np.swapaxes(a, 0, 2))


@pytest.mark.parametrize(
    "src,dst",
    [
        ((3,), (2, 3)),
        ((1, 3), (4, 3)),
        ((2, 1), (2, 5)),
        ((), (3,)),
        ((3, 1), (2, 3, 4)),
    ],
)
def test_broadcast_to(device, src, dst):
    a = _data("int16", src)
    _close(
        sluice.broadcast_to(sluice.asarray(a, device=device), dst),
        np.broadcast_to(a, dst),
    )


def test_broadcast_to_errors(device):
    with pytest.raises(ValueError, match="cannot broadcast"):
        sluice.broadcast_to(sluice.ones(3, device=device), (4,))
    with pytest.raises(ValueError, match="cannot broadcast"):
        sluice.broadcast_to(sluice.ones((2, 3), device=device), (3,))


def test_operations_on_strided_views(device):
    a = np.arange(40, dtype=np.float32).reshape(5, 8)
    x = sluice.asarray(a, device=device)
    v = x[1:4, ::3]
    _close(v * 2 + 1, a[1:4, ::3] * 2 + 1)
    _close(sluice.exp(x[::-1, 2]), np.exp(a[::-1, 2]))
    _close(v.sum(axis=0), a[1:4, ::3].sum(axis=0))


def test_dynamic_shapes_reuse_kernels(device):
    from sluice import _dispatch

    for n in (5, 17, 1000):
        a = _data("float32", (n,))
        b = _data("float32", (n,))
        _close(
            sluice.asarray(a, device=device)
            - sluice.asarray(b, device=device),
            a - b,
        )
    before = _dispatch.kernel_cache_size()
    a = _data("float32", (33,))
    _close(
        sluice.asarray(a, device=device) - sluice.asarray(a, device=device),
        a - a,
    )
    assert _dispatch.kernel_cache_size() == before  # same kernel, other size


def test_clip(device):
    a = _data("float32", (10,))
    x = sluice.asarray(a, device=device)
    _close(sluice.clip(x, -1, 1), np.clip(a, -1, 1))
    _close(sluice.clip(x, None, 0.5), np.clip(a, None, 0.5))
