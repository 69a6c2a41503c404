"""sluice.Array: attributes, host conversion, indexing, migration."""

import numpy as np
import pytest

import sluice


@pytest.fixture
def a(device):
    return np.arange(24, dtype=np.float32).reshape(2, 3, 4)


@pytest.fixture
def x(device, a):
    return sluice.asarray(a, device=device)


def test_attributes(x, a, device):
    assert x.shape == a.shape
    assert x.ndim == 3 and x.size == 24 and len(x) == 2
    assert x.dtype == np.float32 and x.itemsize == 4 and x.nbytes == 96
    assert x.strides == a.strides
    assert x.flags["C_CONTIGUOUS"]
    assert x.usm_type == "device"
    assert x.sycl_queue is device.sycl_queue
    assert x.sycl_device == device
    assert x.device.sycl_queue is x.sycl_queue


def test_ndarray_constructor_makes_an_array_of_a_shape(device):
    # dpnp.ndarray(shape, ...): an uninitialised array of that shape.
    x = sluice.ndarray([0, 1, 2], sycl_queue=device.sycl_queue)
    assert x.shape == (0, 1, 2) and x.sycl_queue == device.sycl_queue
    y = sluice.Array((3,), dtype="int32", device=device)
    assert y.shape == (3,) and y.dtype == np.int32 and y.device == device
    assert (
        sluice.ndarray(
            4, dtype="float32", usm_type="host", device=device
        ).usm_type
        == "host"
    )
    with pytest.raises(ValueError):
        sluice.ndarray((3,), strides=(1,), device=device)


def test_repr_shows_data_and_placement(device):
    x = sluice.asarray([1.5, 2.0], dtype=np.float32, device=device)
    r = repr(x)
    assert r.startswith("Array([1.5, 2. ]")
    assert "dtype=float32" in r
    assert f"device={device.filter_string}" in r
    assert "usm_type=device" in r
    q = sluice.Queue(device)
    y = sluice.zeros(2, sycl_queue=q, usm_type="host")
    assert f"(queue '{q.name}')" in repr(y) and "usm_type=host" in repr(y)
    assert str(x) == "[1.5 2. ]"
    assert f"{sluice.asarray(2.5, device=device):.2f}" == "2.50"


def test_no_implicit_host_conversion(x):
    with pytest.raises(TypeError, match="asnumpy"):
        np.asarray(x)
    with pytest.raises(TypeError, match="Implicit conversion"):
        np.array([x, x])
    with pytest.raises(TypeError):
        hash(x)


def test_asnumpy(x, a):
    h = sluice.asnumpy(x)
    assert isinstance(h, np.ndarray)
    np.testing.assert_array_equal(h, a)
    np.testing.assert_array_equal(x.asnumpy(), a)
    assert sluice.asnumpy([1, 2]).tolist() == [1, 2]
    assert x.tolist() == a.tolist()
    assert x.item(5) == 5.0


def test_scalar_conversions(device):
    one = sluice.asarray([7], device=device)
    assert int(one) == 7 and float(one) == 7.0 and bool(one)
    assert complex(one) == 7
    assert [10, 20, 30, 40, 50, 60, 70, 80][one] == 80
    assert not sluice.asarray(0.0, device=device)
    with pytest.raises(ValueError, match="ambiguous"):
        bool(sluice.ones(3, device=device))
    with pytest.raises(ValueError, match="one element"):
        float(sluice.ones(3, device=device))
    with pytest.raises(TypeError, match="integer scalar"):
        [1, 2][sluice.asarray(1.0, device=device)]
    with pytest.raises(TypeError, match="unsized"):
        len(sluice.asarray(1.0, device=device))


@pytest.mark.parametrize(
    "key",
    [
        0,
        -1,
        (1, 2),
        (1, 2, 3),
        (-1, -2, -3),
        slice(None),
        slice(1, None),
        (slice(None), 1),
        (Ellipsis, 2),
        (0, Ellipsis),
        (slice(None, None, 2),),
        (slice(None), slice(None, None, -1)),
        (None, 1),
        (0, None, slice(1, 3)),
        (slice(1, 1),),
        (Ellipsis, None),
        (),
        (1, slice(None), slice(3, 0, -2)),
    ],
)
def test_getitem_views_match_numpy(x, a, key):
    v = x[key]
    expected = a[key]
    assert v.shape == expected.shape
    np.testing.assert_array_equal(sluice.asnumpy(v), expected)
    assert v._same_buffer(x)


def test_getitem_errors(x):
    with pytest.raises(IndexError, match="out of bounds"):
        x[2]
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, 0, 0]
    with pytest.raises(IndexError, match="out of bounds"):
        x[np.array([0, 2])]
    with pytest.raises(IndexError, match="integer"):
        x[[0.5]]
    with pytest.raises(IndexError, match="single ellipsis"):
        x[..., ...]
    with pytest.raises(IndexError):
        x["a"]


def test_views_share_memory_and_see_writes(x, a):
    row = x[1]
    x[1, 2, 3] = -1.0
    a = a.copy()
    a[1, 2, 3] = -1.0
    np.testing.assert_array_equal(row.asnumpy(), a[1])
    row[0] = 100.0  # writes through the view
    a[1, 0] = 100.0
    np.testing.assert_array_equal(x.asnumpy(), a)


@pytest.mark.parametrize(
    "key,value",
    [
        ((0, 1, 2), 5.0),
        ((1,), 3),
        ((slice(None), 0), np.array([9.0, 8.0, 7.0, 6.0])),
        ((Ellipsis, 1), np.arange(3.0)),
        ((slice(None, None, 2), slice(None), slice(None, None, -1)), 2.5),
        ((slice(None), slice(1, 3)), np.float32(-4)),
        ((), 0.0),
    ],
)
def test_setitem_matches_numpy(x, a, key, value):
    a = a.copy()
    a[key] = value
    x[key] = value
    np.testing.assert_array_equal(x.asnumpy(), a)


def test_setitem_from_arrays(x, a, device):
    a = a.copy()
    src = sluice.arange(4, dtype=np.int64, device=device)  # cast on store
    x[0, 1] = src
    a[0, 1] = np.arange(4)
    x[1] = sluice.full((3, 1), 2.0, dtype=np.float32, device=device)
    a[1] = 2.0
    np.testing.assert_array_equal(x.asnumpy(), a)
    # Overlapping views of one buffer copy as NumPy does.
    y = sluice.arange(10, device=device)
    y[1:] = y[:-1]
    np.testing.assert_array_equal(y.asnumpy(), [0, 0, 1, 2, 3, 4, 5, 6, 7, 8])


def test_setitem_errors(x, device):
    with pytest.raises(ValueError, match="could not broadcast"):
        x[0] = np.ones(5)
    with pytest.raises(ValueError, match="could not broadcast"):
        x[0] = sluice.ones(7, dtype=np.float32, device=device)
    other = sluice.ones(4, dtype=np.float32, sycl_queue=sluice.Queue(device))
    with pytest.raises(
        sluice.ExecutionPlacementError,
        match="Execution placement can not be unambiguously "
        "inferred from input arguments",
    ):
        x[0, 0] = other
    with pytest.raises(TypeError, match="cannot assign"):
        x[0] = "abc"
    with pytest.raises(OverflowError):
        sluice.zeros(2, dtype=np.int8, device=device)[0] = 1000


def test_fill(device):
    x = sluice.empty(5, dtype=np.int32, device=device)
    x.fill(3)
    np.testing.assert_array_equal(x.asnumpy(), [3] * 5)


def test_iteration(x, a):
    rows = list(x)
    assert len(rows) == 2
    for r, e in zip(rows, a):
        np.testing.assert_array_equal(r.asnumpy(), e)
    with pytest.raises(TypeError):
        iter(sluice.asarray(1.0, device=x.sycl_device))


def test_to_device(x, a, device, host):
    assert x.to_device(device) is x
    q = sluice.Queue(device)
    y = x.to_device(q)
    assert y.sycl_queue is q and not y._same_buffer(x)
    np.testing.assert_array_equal(y.asnumpy(), a)
    h = x.to_device("host")
    assert h.sycl_device == host and h.usm_type == x.usm_type
    np.testing.assert_array_equal(h.asnumpy(), a)
    # Strided views are copied in order.
    t = x[:, ::-1, 1:3].to_device(q)
    np.testing.assert_array_equal(t.asnumpy(), a[:, ::-1, 1:3])
    with pytest.raises(sluice.DeviceNotFoundError):
        x.to_device("cuda:gpu:9")


def test_inplace_operators(device):
    x = sluice.arange(6, dtype=np.float32, device=device).reshape(2, 3)
    e = np.arange(6, dtype=np.float32).reshape(2, 3)
    view = x[1]
    x += 1
    e += 1
    x *= sluice.asarray([1.0, 2.0, 3.0], dtype=np.float32, device=device)
    e *= np.array([1.0, 2.0, 3.0], dtype=np.float32)
    x -= 0.5
    e -= 0.5
    x /= 2
    e /= 2
    x **= 2
    e **= 2
    np.testing.assert_allclose(x.asnumpy(), e)
    np.testing.assert_allclose(view.asnumpy(), e[1])  # x kept its memory
    i = sluice.arange(5, device=device)
    i //= 2
    i %= 2
    np.testing.assert_array_equal(i.asnumpy(), (np.arange(5) // 2) % 2)
    with pytest.raises(TypeError, match="same_kind"):
        i += 1.5
    with pytest.raises(ValueError, match="non-broadcastable"):
        s = sluice.ones(3, device=device)
        s += sluice.ones((2, 3), device=device)


def test_copy_is_independent(device):
    x = sluice.arange(4, device=device)
    y = x.copy()
    x[0] = 10
    assert y.asnumpy().tolist() == [0, 1, 2, 3]
    assert sluice.copy(x).asnumpy().tolist() == [10, 1, 2, 3]


def test_array_namespace(device):
    assert sluice.ones(2, device=device).__array_namespace__() is sluice
