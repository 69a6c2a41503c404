"""Array creation with dpnp's signatures and placement keywords."""

import numpy as np
import pytest

import sluice


def _float(device):
    return np.float64 if device.has_aspect_fp64 else np.float32


def test_asarray_from_numpy(device):
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    x = sluice.asarray(a, device=device)
    assert isinstance(x, sluice.Array) and isinstance(x, sluice.ndarray)
    assert x.shape == (3, 4) and x.ndim == 2 and x.size == 12
    assert x.dtype == np.int32
    assert x.usm_type == "device"
    assert x.sycl_queue is device.sycl_queue
    assert x.sycl_device == device
    assert x.device == device
    np.testing.assert_array_equal(sluice.asnumpy(x), a)


def test_asarray_from_lists_and_scalars(device):
    x = sluice.asarray([[1, 2], [3, 4]], device=device)
    assert x.dtype == np.int64
    np.testing.assert_array_equal(x.asnumpy(), [[1, 2], [3, 4]])
    f = sluice.asarray([1.5, 2.5], device=device)
    assert f.dtype == _float(device)
    s = sluice.asarray(3.0, device=device)
    assert s.shape == () and float(s) == 3.0
    b = sluice.asarray([True, False], device=device)
    assert b.dtype == np.bool_
    e = sluice.asarray([], device=device)
    assert e.shape == (0,)


@pytest.mark.parametrize("usm_type", ["device", "shared", "host"])
def test_usm_types(device, usm_type):
    x = sluice.zeros(5, dtype=np.float32, device=device, usm_type=usm_type)
    assert x.usm_type == usm_type
    np.testing.assert_array_equal(sluice.asnumpy(x), np.zeros(5))


def test_bad_usm_type():
    with pytest.raises(ValueError, match="unknown usm_type 'gpu'"):
        sluice.zeros(3, usm_type="gpu")


def test_sycl_queue_keyword(device):
    q = sluice.Queue(device)
    x = sluice.ones(4, dtype=np.int16, sycl_queue=q)
    assert x.sycl_queue is q
    assert x.sycl_queue != device.sycl_queue
    # device and sycl_queue naming the same queue is fine.
    y = sluice.ones(4, device=q, sycl_queue=q)
    assert y.sycl_queue is q


def test_device_and_sycl_queue_naming_different_queues(device):
    q = sluice.Queue(device)
    with pytest.raises(TypeError, match="name different queues"):
        sluice.zeros(3, device=device, sycl_queue=q)
    with pytest.raises(TypeError, match="name different queues"):
        sluice.asarray([1, 2], device=device.filter_string, sycl_queue=q)
    with pytest.raises(TypeError, match="sycl_queue must be a sluice.Queue"):
        sluice.zeros(3, sycl_queue="host")


def test_empty_zeros_ones_full(device):
    e = sluice.empty((2, 3), dtype=np.int8, device=device)
    assert e.shape == (2, 3) and e.dtype == np.int8
    z = sluice.zeros((2, 3), device=device)
    assert z.dtype == _float(device)
    np.testing.assert_array_equal(z.asnumpy(), np.zeros((2, 3)))
    o = sluice.ones(7, dtype=np.uint16, device=device)
    np.testing.assert_array_equal(o.asnumpy(), np.ones(7, np.uint16))
    f = sluice.full((2, 2), 7, device=device)
    assert f.dtype == np.int64
    np.testing.assert_array_equal(f.asnumpy(), np.full((2, 2), 7))
    fb = sluice.full(3, True, device=device)
    assert fb.dtype == np.bool_ and fb.asnumpy().all()
    ff = sluice.full(3, -2.5, dtype=np.float32, device=device)
    np.testing.assert_array_equal(ff.asnumpy(), np.full(3, -2.5, np.float32))
    fi = sluice.full(3, 2.9, dtype=np.int32, device=device)
    np.testing.assert_array_equal(fi.asnumpy(), [2, 2, 2])
    assert sluice.zeros((0, 4), device=device).shape == (0, 4)


def test_creation_errors(device):
    with pytest.raises(ValueError, match="negative dimensions"):
        sluice.zeros((2, -1), device=device)
    with pytest.raises(TypeError, match="data type"):
        sluice.zeros(3, dtype="complex256", device=device)
    with pytest.raises(TypeError):
        sluice.zeros("abc", device=device)
    with pytest.raises(OverflowError):
        sluice.full(3, 300, dtype=np.int8, device=device)
    with pytest.raises(TypeError, match="cannot hold"):
        sluice.asarray(["a", "b"], device=device)
    with pytest.raises(TypeError, match="fill value"):
        sluice.full(3, "x", device=device)


def test_float16_needs_the_aspect(device):
    if device.has_aspect_fp16:
        x = sluice.ones(3, dtype=np.float16, device=device)
        assert x.dtype == np.float16
    else:
        with pytest.raises(ValueError, match="does not support float16"):
            sluice.ones(3, dtype=np.float16, device=device)


def test_like_functions(device):
    q = sluice.Queue(device)
    x = sluice.asarray(
        np.arange(6, dtype=np.int32).reshape(2, 3),
        sycl_queue=q,
        usm_type="shared",
    )
    for fn, value in ((sluice.zeros_like, 0), (sluice.ones_like, 1)):
        y = fn(x)
        assert y.shape == x.shape and y.dtype == x.dtype
        assert y.sycl_queue is q and y.usm_type == "shared"
        np.testing.assert_array_equal(y.asnumpy(), np.full((2, 3), value))
    y = sluice.full_like(x, 9, dtype=np.float32)
    assert y.dtype == np.float32
    np.testing.assert_array_equal(y.asnumpy(), np.full((2, 3), 9))
    y = sluice.empty_like(x, shape=(4,), usm_type="host")
    assert y.shape == (4,) and y.usm_type == "host" and y.sycl_queue is q
    y = sluice.zeros_like(x, device=device)
    assert y.sycl_queue is device.sycl_queue
    with pytest.raises(TypeError, match="sluice.Array"):
        sluice.zeros_like(np.zeros(3))


@pytest.mark.parametrize(
    "args,kw",
    [
        ((10,), {}),
        ((2, 11, 3), {}),
        ((5, -5, -2), {}),
        ((0.5, 3.0, 0.25), {}),
        ((10,), {"dtype": np.float32}),
        ((3, 9), {"dtype": np.uint8}),
        ((0,), {}),
        ((5, 2), {}),
    ],
)
def test_arange(device, args, kw):
    x = sluice.arange(*args, device=device, **kw)
    expected = np.arange(*args, **kw)
    if expected.dtype == np.float64:
        expected = expected.astype(_float(device))
    assert x.dtype == expected.dtype
    np.testing.assert_allclose(x.asnumpy(), expected, rtol=1e-6)


def test_arange_zero_step():
    with pytest.raises(ZeroDivisionError):
        sluice.arange(0, 10, 0)


@pytest.mark.parametrize(
    "args,kw",
    [
        ((0.0, 1.0), {"num": 5}),
        ((-3, 7), {"num": 11}),
        ((2.0, 3.0), {"num": 4, "endpoint": False}),
        ((0, 10), {"num": 1}),
        ((0, 10), {"num": 0}),
        ((0, 9), {"num": 4, "dtype": np.int32}),
    ],
)
def test_linspace(device, args, kw):
    x = sluice.linspace(*args, device=device, **kw)
    expected = np.linspace(*args, **kw)
    if expected.dtype == np.float64:
        expected = expected.astype(_float(device))
    assert x.dtype == expected.dtype
    np.testing.assert_allclose(x.asnumpy(), expected, rtol=1e-6, atol=1e-12)


def test_linspace_errors():
    with pytest.raises(ValueError, match="must be non-negative"):
        sluice.linspace(0, 1, -1)


def test_eye(device):
    np.testing.assert_array_equal(
        sluice.eye(3, device=device).asnumpy(), np.eye(3)
    )
    np.testing.assert_array_equal(
        sluice.eye(3, 4, k=1, dtype=np.int32, device=device).asnumpy(),
        np.eye(3, 4, k=1, dtype=np.int32),
    )


def test_asarray_of_array_keeps_or_moves(device, host):
    x = sluice.arange(4, device=device)
    assert sluice.asarray(x) is x
    assert sluice.asarray(x, device=device) is x
    c = sluice.asarray(x, copy=True)
    assert c is not x and not c._same_buffer(x)
    s = sluice.asarray(x, usm_type="shared")
    assert s.usm_type == "shared" and s.sycl_queue is x.sycl_queue
    h = sluice.asarray(x, device=host)
    assert h.sycl_device == host
    np.testing.assert_array_equal(h.asnumpy(), np.arange(4))
    f = sluice.asarray(x, dtype=np.float32)
    assert f.dtype == np.float32
    with pytest.raises(ValueError, match="copy=False"):
        sluice.asarray(x, dtype=np.float32, copy=False)
    with pytest.raises(ValueError, match="copy=False"):
        sluice.asarray([1, 2], copy=False)


def test_array_copies_and_ndmin(device):
    x = sluice.arange(3, device=device)
    y = sluice.array(x)
    assert not y._same_buffer(x)
    z = sluice.array([1, 2], ndmin=3, device=device)
    assert z.shape == (1, 1, 2)


def test_random_is_seeded_and_reproducible(device):
    sluice.random.seed(17)
    a = sluice.random.normal(1.0, 2.0, size=(3, 4), device=device)
    sluice.random.seed(17)
    b = sluice.random.normal(1.0, 2.0, size=(3, 4), device=device)
    assert a.shape == (3, 4) and a.dtype == _float(device)
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    r = sluice.random.RandomState(5, device=device)
    u = r.uniform(-1, 1, size=100)
    assert u.sycl_device == device
    un = u.asnumpy()
    assert (un >= -1).all() and (un < 1).all()
    np.testing.assert_array_equal(
        un,
        sluice.random.RandomState(5, device=device)
        .uniform(-1, 1, 100)
        .asnumpy(),
    )
    i = r.randint(0, 10, size=50, usm_type="shared")
    assert (
        i.usm_type == "shared"
        and ((i.asnumpy() >= 0) & (i.asnumpy() < 10)).all()
    )
    assert sluice.random.rand(2, 3, device=device).shape == (2, 3)
    assert sluice.random.randn(4, device=device).shape == (4,)
    f = sluice.random.uniform(size=3, dtype=np.float32, device=device)
    assert f.dtype == np.float32


def test_asarray_of_arrays_in_sequences(device):
    """dpctl's asarray takes (nested) sequences of arrays: their values, on
    their device, NumPy's dtype of the nested values."""
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = sluice.asarray(a, device=device)
    y = sluice.asarray([[x[i, j] for i in range(2)] for j in range(3)])
    assert y.dtype == np.float32 and y.device == x.device
    np.testing.assert_array_equal(sluice.asnumpy(y), a.T)
    z = sluice.asarray([x[0, 1], 2.5, (x[1, 2],)[0]])
    np.testing.assert_array_equal(
        sluice.asnumpy(z), np.asarray([a[0, 1], 2.5, a[1, 2]])
    )
