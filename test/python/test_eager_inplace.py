"""The eager fast paths of in-place operators and slice assignment
(FastPath.cpp): an operation seen before runs without Python, so every case
runs several times (the first resolves it in Python and registers it, the
next ones take the C++ path) and is checked against NumPy each time."""

import threading
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import sluice

INPLACE = ["+=", "-=", "*=", "/=", "//=", "%="]


def _inplace(x, op, y):
    """``x op y`` as a statement (the operator's in-place slot)."""
    if op == "+=":
        x += y
    elif op == "-=":
        x -= y
    elif op == "*=":
        x *= y
    elif op == "/=":
        x /= y
    elif op == "//=":
        x //= y
    elif op == "%=":
        x %= y
    elif op == "**=":
        x **= y
    return x


def _operand(kind, a, device):
    """The NumPy operand and its sluice counterpart."""
    if kind == "array":
        b = (np.arange(a.size).reshape(a.shape) % 5 + 1).astype(a.dtype)
        return b, sluice.asarray(b, device=device)
    if kind == "row":
        b = (np.arange(a.shape[-1]) % 3 + 1).astype(a.dtype)
        return b, sluice.asarray(b, device=device)
    if kind == "0-d":
        b = np.array(3, dtype=a.dtype)
        return b, sluice.asarray(b, device=device)
    if kind == "int":
        return 3, 3
    if kind == "float":
        return 1.5, 1.5
    assert kind == "bool"
    return True, True


@pytest.mark.parametrize("op", INPLACE)
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64, np.uint8])
@pytest.mark.parametrize(
    "kind", ["array", "row", "0-d", "int", "float", "bool"]
)
def test_repeated_inplace_matches_numpy(device, op, dtype, kind):
    a = (np.arange(12).reshape(3, 4) % 7 + 2).astype(dtype)
    x = sluice.asarray(a, device=device)
    ptr = x._data_pointer()
    b, y = _operand(kind, a, device)
    for _ in range(3):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _inplace(a, op, b)
        except TypeError:
            # NumPy's same_kind rule (int += float): sluice raises too,
            # on every call, and writes nothing.
            before = x.asnumpy()
            with pytest.raises(TypeError, match="same_kind"):
                _inplace(x, op, y)
            np.testing.assert_array_equal(x.asnumpy(), before)
            return
        r = _inplace(x, op, y)
        assert r is x
        np.testing.assert_allclose(x.asnumpy(), a, rtol=1e-6)
    assert x._data_pointer() == ptr  # computed into the same memory


def test_casting_errors_on_every_call(device):
    i = sluice.asarray(np.arange(6, dtype=np.int32), device=device)
    f = sluice.asarray(np.ones(6, dtype=np.float32), device=device)
    for _ in range(3):
        i += i  # registers int32 += int32
        f += i  # int32 into float32: same_kind allows it
        with pytest.raises(TypeError, match="same_kind"):
            i += f
        with pytest.raises(TypeError, match="same_kind"):
            i *= 1.5
        with pytest.raises(TypeError, match="same_kind"):
            i /= 2
    a = np.arange(6, dtype=np.int32)
    fa = np.ones(6, dtype=np.float32)
    for _ in range(3):
        a += a
        fa += a
    np.testing.assert_array_equal(i.asnumpy(), a)
    np.testing.assert_array_equal(f.asnumpy(), fa)
    u = sluice.asarray(np.arange(4, dtype=np.uint8), device=device)
    for _ in range(2):
        with pytest.raises(ValueError, match="non-broadcastable"):
            u[:1] += u
    assert u.asnumpy().tolist() == [0, 1, 2, 3]


def test_inplace_views_and_overlap(device):
    a = np.arange(20, dtype=np.float32)
    x = sluice.asarray(a, device=device)
    for _ in range(3):
        x[1:] += x[:-1]  # overlapping source: as if copied first
        a[1:] += a[:-1].copy()
        np.testing.assert_array_equal(x.asnumpy(), a)
        x += x[::-1]  # the same memory, reversed
        a += a[::-1].copy()
        np.testing.assert_array_equal(x.asnumpy(), a)
        x[::3] -= 1  # a strided destination
        a[::3] -= 1
        np.testing.assert_array_equal(x.asnumpy(), a)
        x *= x  # the very same view: read where it is written
        a *= a
        a /= 1e6
        x /= 1e6
        np.testing.assert_allclose(x.asnumpy(), a, rtol=1e-6)
    m = np.arange(30, dtype=np.int64).reshape(5, 6)
    y = sluice.asarray(m, device=device)
    for _ in range(2):
        y[1:4, ::2] += y[:3, 1::2]  # 2-D views of one buffer
        m[1:4, ::2] += m[:3, 1::2].copy()
        t = y.T
        t %= 7  # a transposed destination
        m.T[...] %= 7
        np.testing.assert_array_equal(y.asnumpy(), m)


def test_inplace_zero_d_and_empty(device):
    z = sluice.asarray(np.array(2.0, np.float32), device=device)
    e = sluice.asarray(np.zeros((0, 3), np.float32), device=device)
    zn, en = np.array(2.0, np.float32), np.zeros((0, 3), np.float32)
    for _ in range(3):
        z *= 3
        zn *= 3
        z += z
        zn += zn
        e += 1.0
        en += 1.0
        e -= sluice.ones(3, dtype=np.float32, device=device)
    assert z.shape == () and float(z) == float(zn)
    assert e.shape == (0, 3) and e.asnumpy().shape == en.shape


def test_integer_power_checks_the_exponent(device):
    i = sluice.asarray(np.arange(1, 5, dtype=np.int64), device=device)
    for _ in range(3):
        i **= 1  # registers int64 **= int on the fast path
    with pytest.raises(ValueError, match="negative integer powers"):
        i **= -1
    j = sluice.asarray(np.array([1, -1, 2, 3], np.int64), device=device)
    i **= sluice.asarray(np.ones(4, np.int64), device=device)
    with pytest.raises(ValueError, match="negative integer powers"):
        i **= j
    assert i.asnumpy().tolist() == [1, 2, 3, 4]


def test_read_only_destinations(device):
    frozen = np.ones(4, np.float32)
    frozen.flags.writeable = False
    ro = sluice.from_dlpack(frozen)
    for _ in range(2):
        with pytest.raises(ValueError, match="read-only"):
            ro += 1
        with pytest.raises(ValueError, match="read-only"):
            ro[1:3] = 5.0
        with pytest.raises(ValueError, match="read-only"):
            ro[...] = sluice.asarray(np.zeros(4, np.float32))
    assert frozen.tolist() == [1, 1, 1, 1]


# --- slice assignment -------------------------------------------------

DTYPES = [
    np.bool_,
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
    np.float16,
    np.float32,
    np.float64,
    np.complex64,
    np.complex128,
]

SCALARS = [
    0,
    1,
    -1,
    7,
    127,
    -128,
    255,
    256,
    65535,
    2**31 - 1,
    -(2**31),
    2**32,
    2**53 + 1,
    2**63 - 1,
    2**63,
    2**64 - 1,
    2**64,
    -(2**63),
    0.0,
    -0.0,
    0.5,
    -0.5,
    2.75,
    -2.75,
    127.9,
    -129.5,
    1e10,
    1e39,
    1e300,
    float("inf"),
    float("-inf"),
    float("nan"),
    True,
    False,
]


def _numpy_assign(a, key, value):
    """NumPy's outcome of ``a[key] = value``: the array, or the exception
    type (warnings raised as errors)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            a[key] = value
        except (OverflowError, ValueError, TypeError, RuntimeWarning) as e:
            return type(e)
    return None


@pytest.mark.parametrize("dtype", DTYPES)
def test_scalar_assignment_converts_as_numpy(device, dtype):
    if dtype in (np.float64, np.complex128) and not device.has_aspect_fp64:
        pytest.skip("no float64 on this device")
    if dtype == np.float16 and not device.has_aspect_fp16:
        pytest.skip("no float16 on this device")
    x = sluice.zeros(5, dtype=dtype, device=device)
    a = np.zeros(5, dtype=dtype)
    for v in SCALARS:
        for _ in range(2):  # the second takes the fast path if any
            err = _numpy_assign(a, slice(1, 4), v)
            if err is not None:
                with warnings.catch_warnings():
                    warnings.simplefilter("error")
                    with pytest.raises(err):
                        x[1:4] = v
                continue
            x[1:4] = v
            np.testing.assert_array_equal(x.asnumpy(), a, err_msg=repr(v))


@pytest.mark.parametrize(
    "key",
    [
        (),
        Ellipsis,
        0,
        -1,
        slice(None),
        slice(1, -1),
        slice(None, None, -1),
        slice(5, 2),
        slice(1, None, 3),
        (slice(None), 0),
        (0, slice(None)),
        (Ellipsis, 1),
        (None, slice(1, 3)),
        (slice(1, 3), None, slice(None, None, 2)),
        (1, 2),
        (-1, -1),
    ],
)
def test_scalar_assignment_keys(device, key):
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    x = sluice.asarray(a, device=device)
    for v in (2.5, 7, True):
        for _ in range(2):
            a[key] = v
            x[key] = v
            np.testing.assert_array_equal(x.asnumpy(), a)


def test_scalar_assignment_zero_d_and_empty(device):
    z = sluice.asarray(np.array(1.0, np.float32), device=device)
    for v in (3.5, 4, False):
        for key in ((), Ellipsis):
            z[key] = v
            assert float(z) == float(v)
    e = sluice.zeros((3, 0), dtype=np.int32, device=device)
    for _ in range(2):
        e[...] = 5
        e[1:] = 2.5
    assert e.asnumpy().shape == (3, 0)
    y = sluice.zeros(4, dtype=np.int32, device=device)
    for _ in range(2):
        y[3:1] = 9  # an empty view of a non-empty array
    assert y.asnumpy().tolist() == [0, 0, 0, 0]


def test_scalar_assignment_errors_leave_data(device):
    x = sluice.asarray(np.arange(4, dtype=np.int8), device=device)
    for _ in range(2):
        with pytest.raises(OverflowError):
            x[1:] = 300
        with pytest.raises(ValueError):
            x[1:] = float("nan")
        with pytest.raises(IndexError):
            x[4] = 1
    assert x.asnumpy().tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize(
    "dst_key, src_key",
    [
        (slice(1, None), slice(None, -1)),  # overlap, source first
        (slice(None, -1), slice(1, None)),  # overlap, source later
        (slice(None, None, -1), slice(None)),  # reversed onto itself
        (slice(None), slice(None, None, -1)),
        (slice(None, None, 2), slice(1, None, 2)),  # interleaved
        (slice(2, 8), slice(2, 8)),  # the very same view
        (slice(0, 6), slice(3, 9)),
    ],
)
def test_array_assignment_overlap(device, dst_key, src_key):
    a = np.arange(12, dtype=np.float32)
    x = sluice.asarray(a, device=device)
    for _ in range(3):
        a[dst_key] = a[src_key].copy()  # NumPy: as if copied first
        x[dst_key] = x[src_key]
        np.testing.assert_array_equal(x.asnumpy(), a)


def test_array_assignment_broadcast_views_casts(device):
    m = np.zeros((4, 5), np.float32)
    x = sluice.asarray(m, device=device)
    row = np.arange(5, dtype=np.float32)
    col = np.arange(4, dtype=np.float32)[:, None]
    r, c = (
        sluice.asarray(row, device=device),
        sluice.asarray(col, device=device),
    )
    ints = np.arange(20, dtype=np.int32).reshape(4, 5)
    xi = sluice.asarray(ints, device=device)
    for _ in range(3):
        m[...] = row
        x[...] = r
        np.testing.assert_array_equal(x.asnumpy(), m)
        m[1:3] = col[1:3]
        x[1:3] = c[1:3]
        np.testing.assert_array_equal(x.asnumpy(), m)
        m[:, ::2] = ints[::-1, ::2]  # int32 into float32, strided both
        x[:, ::2] = xi[::-1, ::2]
        np.testing.assert_array_equal(x.asnumpy(), m)
        m[2] = m.T[1, :4].copy()[None, 1]  # a 0-d source broadcast
        x[2] = x.T[1, :4][None, 1]
        np.testing.assert_array_equal(x.asnumpy(), m)
        m[::-1, 1] = col[:, 0]
        x[::-1, 1] = c[:, 0]
        np.testing.assert_array_equal(x.asnumpy(), m)
    with pytest.raises(ValueError, match="broadcast"):
        x[1:3] = r[:3]
    np.testing.assert_array_equal(x.asnumpy(), m)


def test_array_assignment_zero_d_and_empty(device):
    z = sluice.asarray(np.array(1.0, np.float32), device=device)
    v = sluice.asarray(np.array(4.5, np.float32), device=device)
    for _ in range(2):
        z[...] = v
        z[()] = v
    assert float(z) == 4.5
    e = sluice.zeros((0, 4), dtype=np.float32, device=device)
    s = sluice.ones(4, dtype=np.float32, device=device)
    for _ in range(2):
        e[...] = s
        e[:] = s[None]
    assert e.asnumpy().shape == (0, 4)


def test_assignment_into_pending_lazy_results(device):
    n = 4096
    a = np.linspace(0, 1, n, dtype=np.float32)
    x = sluice.asarray(a, device=device)
    for _ in range(4):  # repeats: small operations are recorded lazily
        y = x * 2 + 1  # pending
        r = y * 3  # pending, reads y
        y[1:10] = 0.5  # writes y: r must read the old values
        y += 1.0
        yn = a * 2 + 1
        rn = yn * 3
        yn[1:10] = 0.5
        yn += 1.0
        np.testing.assert_allclose(y.asnumpy(), yn, rtol=1e-6)
        np.testing.assert_allclose(r.asnumpy(), rn, rtol=1e-6)
        x[...] = y  # a pending-free copy back
        a[...] = yn
        a /= 4
        x /= 4
    np.testing.assert_allclose(x.asnumpy(), a, rtol=1e-5)


def test_inplace_from_threads_loses_no_update(device):
    # One thread's `base += 1` takes the fast path (one program), another's
    # `evens += 1` the Python path (a strided destination: compute, then
    # copy); the lock keeps the second's read and write adjacent, so
    # neither update is lost.
    base = sluice.zeros(64, dtype=np.float32, device=device)
    evens = base[::2]
    k = 150
    errors = []

    def run(fn):
        try:
            for _ in range(k):
                fn()
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    def bump_all():
        nonlocal base
        base += 1

    def bump_evens():
        nonlocal evens
        evens += 1

    threads = [
        threading.Thread(target=run, args=(f,))
        for f in (bump_all, bump_evens, bump_all)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    got = base.asnumpy()
    assert got[1::2].tolist() == [2 * k] * 32
    assert got[::2].tolist() == [3 * k] * 32


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    shape=st.lists(st.integers(0, 5), min_size=1, max_size=3),
    data=st.data(),
    dtype=st.sampled_from([np.float32, np.int32, np.uint8, np.bool_]),
    value_kind=st.sampled_from(["int", "float", "bool", "array", "self"]),
)
def test_property_assignment(device, shape, data, dtype, value_kind):
    key = []
    for d in shape:
        if data.draw(st.booleans()) and d > 0:
            key.append(data.draw(st.integers(-d, d - 1)))
        else:
            start = data.draw(st.integers(-d - 1, d + 1))
            stop = data.draw(st.integers(-d - 1, d + 1))
            step = data.draw(st.sampled_from([1, 2, -1, 3]))
            key.append(slice(start, stop, step))
    key = tuple(key)
    rng = np.random.default_rng(len(shape))
    a = rng.integers(0, 100, shape).astype(dtype)
    x = sluice.asarray(a, device=device)
    view_shape = a[key].shape
    if value_kind == "int":
        value = value_np = data.draw(st.integers(0, 100))
    elif value_kind == "float":
        value = value_np = data.draw(
            st.floats(0, 100, allow_nan=False, width=32)
        )
    elif value_kind == "bool":
        value = value_np = data.draw(st.booleans())
    elif value_kind == "array":
        # The view's shape with some leading axes dropped (broadcast).
        drop = data.draw(st.integers(0, len(view_shape)))
        value_np = rng.integers(0, 100, view_shape[drop:]).astype(dtype)
        value = sluice.asarray(value_np, device=device)
    else:  # a view of the same array, reversed: overlap
        flipped = tuple(slice(None, None, -1) for _ in shape)
        value_np = a[flipped][key].copy()
        value = x[flipped][key]
    for _ in range(2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a[key] = value_np
        x[key] = value
        np.testing.assert_array_equal(x.asnumpy(), a)
        if value_kind == "self":
            value_np = a[flipped][key].copy()


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    shape=st.lists(st.integers(0, 4), min_size=0, max_size=3),
    drop=st.integers(0, 3),
    op=st.sampled_from(INPLACE[:4]),
    dtype=st.sampled_from([np.float32, np.int32, np.int16]),
    strided=st.booleans(),
)
def test_property_inplace_repeated(device, shape, drop, op, dtype, strided):
    if op == "/=" and np.dtype(dtype).kind != "f":
        return
    rng = np.random.default_rng(len(shape) * 5 + drop)
    full = rng.integers(1, 9, [2 * d for d in shape]).astype(dtype)
    xs = sluice.asarray(full, device=device)
    # (With an Ellipsis the key of a 0-d array gives a view, not a scalar.)
    key = tuple(slice(None, None, 2) for _ in shape) + (Ellipsis,)
    if strided:
        a, x = full[key], xs[key]
    else:
        a = np.array(full[tuple(slice(0, d) for d in shape)])
        x = sluice.asarray(a, device=device)
    b = rng.integers(1, 4, tuple(shape)[min(drop, len(shape)) :])
    b = b.astype(dtype)
    y = sluice.asarray(b, device=device)
    for _ in range(3):
        _inplace(a, op, b)
        _inplace(x, op, y)
        np.testing.assert_allclose(x.asnumpy(), a, rtol=1e-6)
    if strided:
        np.testing.assert_allclose(xs.asnumpy(), full, rtol=1e-6)


@pytest.mark.parametrize(
    "dtype", [np.uint8, np.int16, np.float32, np.float64, np.complex128]
)
def test_fills_of_every_size(device, dtype):
    # Around the fill's 4 KB block, and past the 16 MB the extension fills
    # directly on host queues (the runtime's fill, in chunks, beyond).
    if dtype in (np.float64, np.complex128) and not device.has_aspect_fp64:
        pytest.skip("no float64 on this device")
    item = np.dtype(dtype).itemsize
    big = (16 << 20) // item + 1001
    for n in (1, 4096 // item - 1, 4096 // item + 1, 3 * 4096 // item, big):
        x = sluice.zeros(n + 2, dtype=dtype, device=device)
        x[1:-1] = 3
        got = x.asnumpy()
        assert got[0] == 0 and got[-1] == 0
        assert (got[1:-1] == 3).all()
        x[...] = True
        assert (x.asnumpy() == 1).all()
