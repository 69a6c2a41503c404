"""DLPack: exchanging arrays with NumPy (and any other producer)."""

import numpy as np
import pytest

import sluice


def test_dlpack_device(device):
    for usm in ("device", "shared", "host"):
        x = sluice.zeros(3, device=device, usm_type=usm)
        kind, index = x.__dlpack_device__()
        host_accessible = device.backend.name == "host" or usm != "device"
        if device.backend.name == "cuda":
            # CUDA's own kinds, as CuPy and PyTorch read them.
            want = {"device": 2, "shared": 13, "host": 3}[usm]
            assert kind == want  # kDLCUDA, kDLCUDAManaged, kDLCUDAHost
        elif host_accessible:
            assert (kind, index) == (1, 0)  # kDLCPU
        else:
            assert kind == 14  # kDLOneAPI


def _host_accessible(device, usm):
    return device.backend.name == "host" or usm != "device"


@pytest.mark.parametrize("usm", ["device", "shared", "host"])
def test_numpy_takes_host_accessible_memory_without_copy(device, usm):
    if not _host_accessible(device, usm):
        pytest.skip("device memory of this device is not host-accessible")
    x = sluice.arange(
        6, dtype=np.float32, device=device, usm_type=usm
    ).reshape(2, 3)
    v = np.from_dlpack(x)
    np.testing.assert_array_equal(v, np.arange(6).reshape(2, 3))
    x[0, 0] = 42.0  # the same memory
    x.sycl_queue.wait()
    assert v[0, 0] == 42.0
    # Strided views keep their strides.
    s = np.from_dlpack(x[:, ::2])
    np.testing.assert_array_equal(s, [[42, 2], [3, 5]])
    # The capsule keeps the memory alive after the array is gone.
    del x
    assert v.sum() == 42 + 1 + 2 + 3 + 4 + 5


def test_export_to_cpu_copies_device_memory(device):
    x = sluice.arange(4, dtype=np.int32, device=device)
    h = np.from_dlpack(x, device="cpu")
    np.testing.assert_array_equal(h, [0, 1, 2, 3])
    cap = x.__dlpack__(dl_device=(1, 0), max_version=(1, 0))
    assert type(cap).__name__ == "PyCapsule"
    if not _host_accessible(device, "device"):
        with pytest.raises(BufferError, match="copy=False"):
            x.__dlpack__(dl_device=(1, 0), copy=False)
    with pytest.raises(BufferError, match="cannot export"):
        x.__dlpack__(dl_device=(7, 0))  # Vulkan


def test_copy_flag(device):
    x = sluice.arange(3, dtype=np.float32, device=device, usm_type="shared")
    if not _host_accessible(device, "shared"):
        pytest.skip("shared memory is not host-accessible here")
    c = np.from_dlpack(x, copy=True)
    x[0] = 9.0
    x.sycl_queue.wait()
    assert c[0] == 0.0


def test_from_dlpack_numpy_is_zero_copy_on_the_host():
    a = np.arange(10, dtype=np.float64)
    x = sluice.from_dlpack(a)
    assert x.sycl_device == sluice.Device("host")
    assert x.usm_type == "host"
    np.testing.assert_array_equal(sluice.asnumpy(x), a)
    # It works in computations on the host, and shares the memory.
    y = x * 2
    np.testing.assert_array_equal(sluice.asnumpy(y), a * 2)
    x[0] = -1.0
    x.sycl_queue.wait()
    assert a[0] == -1.0
    # Non-contiguous producers keep their layout.
    b = np.arange(12, dtype=np.int16).reshape(3, 4)[:, ::2]
    z = sluice.from_dlpack(b)
    assert z.shape == (3, 2)
    np.testing.assert_array_equal(sluice.asnumpy(z), b)
    np.testing.assert_array_equal(sluice.asnumpy(z + 1), b + 1)


def test_from_dlpack_to_a_device(device):
    a = np.arange(5, dtype=np.int64)
    x = sluice.from_dlpack(a, device=device)
    assert x.sycl_device == device
    np.testing.assert_array_equal(sluice.asnumpy(x), a)
    if device.backend.name != "host":
        with pytest.raises(ValueError, match="copy=False"):
            sluice.from_dlpack(a, device=device, copy=False)
    c = sluice.from_dlpack(a, copy=True)
    a[0] = 100
    assert sluice.asnumpy(c)[0] == 0


def test_from_dlpack_of_sluice_arrays(device):
    x = sluice.arange(3, device=device)
    assert sluice.from_dlpack(x) is x
    y = sluice.from_dlpack(x, copy=True)
    assert not y._same_buffer(x)


def test_from_dlpack_round_trip_through_a_capsule(device):
    x = sluice.arange(6, dtype=np.uint8, device=device)

    class Producer:
        def __init__(self, arr, **kw):
            self.arr = arr

        def __dlpack__(self, **kw):
            # a legacy capsule; device memory only when asked for by name
            return self.arr.__dlpack__(dl_device=self.arr.__dlpack_device__())

        def __dlpack_device__(self):
            return self.arr.__dlpack_device__()

    y = sluice.from_dlpack(Producer(x))
    assert y.sycl_queue is x.sycl_queue
    np.testing.assert_array_equal(sluice.asnumpy(y), np.arange(6))


def test_from_dlpack_errors():
    with pytest.raises(TypeError, match="does not support DLPack"):
        sluice.from_dlpack([1, 2, 3])
    # complex64 is a sluice data type now (test_complex.py); NumPy exports
    # nothing else that sluice lacks.
    assert (
        sluice.from_dlpack(np.zeros(3, dtype=np.complex64)).dtype
        == np.complex64
    )
    with pytest.raises(TypeError, match="DLPack capsule"):
        sluice._sluice.dlpack_import(
            object(), sluice.Device("host").sycl_queue._id
        )


def test_readonly_producers_stay_readonly():
    a = np.arange(4, dtype=np.float32)
    a.flags.writeable = False
    x = sluice.from_dlpack(a)
    with pytest.raises(ValueError, match="read-only"):
        x[0] = 1.0
    np.testing.assert_array_equal(sluice.asnumpy(x * 2), a * 2)
