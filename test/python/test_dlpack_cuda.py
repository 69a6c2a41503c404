"""DLPack with PyTorch and CuPy CUDA tensors: zero-copy both ways, ordered
with the producer's stream.

Runs on cuda:gpu:0 only (CMakeLists.txt registers it for that device);
each library that is missing, or sees no GPU, skips its tests with the
reason. Computing on imported tensors needs a compiled program: the
in-process compiler where the package has one, else the artifact that
``$SLUICE_TEST_CUDA_ARTIFACT`` names (``bench/run-gpu.sh`` compiles
``test/python/Inputs/cuda_axpb.mlir`` for the GPU machine, which has no
compiler).
"""

import os

import numpy as np
import pytest

import sluice

N = 1 << 20


@pytest.fixture
def torch(device):
    if device.backend.name != "cuda":
        pytest.skip("CUDA interop runs on cuda devices only")
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no CUDA device")
    return torch


@pytest.fixture
def cupy(device):
    if device.backend.name != "cuda":
        pytest.skip("CUDA interop runs on cuda devices only")
    cupy = pytest.importorskip("cupy")
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            pytest.skip("CuPy sees no CUDA device")
    except cupy.cuda.runtime.CUDARuntimeError as e:
        pytest.skip(f"CuPy sees no CUDA device ({e})")
    return cupy


def _axpb():
    """A compiled a * x + b for float32 arrays on cuda:gpu:0."""
    path = os.environ.get("SLUICE_TEST_CUDA_ARTIFACT")
    if path:
        return sluice.load(path, "axpb")
    if not sluice._compiler.version():
        pytest.skip(
            "no compiler in this build and no SLUICE_TEST_CUDA_ARTIFACT"
        )
    return sluice.jit(lambda x, a, b: x * a + b)


def test_torch_tensor_imports_without_a_copy(device, torch):
    t = torch.arange(N, dtype=torch.float32, device="cuda")
    x = sluice.from_dlpack(t)
    assert x.sycl_device == device
    assert x.usm_type == "device"
    assert x.shape == (N,) and x.dtype == np.float32
    assert x._data_pointer() == t.data_ptr()
    np.testing.assert_array_equal(sluice.asnumpy(x), np.arange(N))
    # One memory: what torch writes, Sluice reads, and the other way.
    t.mul_(2)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(sluice.asnumpy(x[:5]), [0, 2, 4, 6, 8])
    x[1] = -7.0
    x.sycl_queue.wait()
    assert t[1].item() == -7.0
    # asarray keeps it where it is, too.
    y = sluice.asarray(t, copy=False)
    assert y._data_pointer() == t.data_ptr()


def test_views_and_dtypes_of_torch_tensors(device, torch):
    for dt, npdt in [
        (torch.float64, np.float64),
        (torch.int32, np.int32),
        (torch.uint8, np.uint8),
        (torch.bool, np.bool_),
        (torch.float16, np.float16),
    ]:
        t = (torch.arange(24, device="cuda") % 5).to(dt).reshape(4, 6)
        v = t[1:, ::2]
        x = sluice.from_dlpack(v)
        assert x.dtype == npdt and x.shape == (3, 3)
        np.testing.assert_array_equal(sluice.asnumpy(x), v.cpu().numpy())


def test_sluice_array_exports_to_torch_without_a_copy(device, torch):
    a = np.linspace(-1, 1, N, dtype=np.float32)
    x = sluice.asarray(a, device=device)
    t = torch.from_dlpack(x)
    assert t.device.type == "cuda" and t.device.index == 0
    assert t.data_ptr() == x._data_pointer()
    np.testing.assert_array_equal(t.cpu().numpy(), a)
    t.add_(1)
    torch.cuda.synchronize()
    np.testing.assert_allclose(sluice.asnumpy(x), a + 1)


def test_import_waits_for_the_producers_stream(device, torch):
    # The tensor is written on a side stream that is still busy when
    # Sluice imports it: the import makes Sluice's queue wait for it.
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        t = torch.empty(N, dtype=torch.float32, device="cuda")
        torch.cuda._sleep(50_000_000)  # cycles, ~25 ms
        t.fill_(3.0)
        x = sluice.from_dlpack(t)
    got = sluice.asnumpy(x)
    assert (got == 3.0).all(), np.unique(got)


def test_cupy_both_ways(device, cupy):
    c = cupy.arange(N, dtype=cupy.float32)
    x = sluice.from_dlpack(c)
    assert x.sycl_device == device
    assert x._data_pointer() == c.data.ptr
    np.testing.assert_array_equal(sluice.asnumpy(x), np.arange(N))
    a = sluice.asarray(np.arange(10, dtype=np.int64), device=device)
    d = cupy.from_dlpack(a)
    assert d.data.ptr == a._data_pointer()
    np.testing.assert_array_equal(cupy.asnumpy(d), np.arange(10))
    d[3] = 42
    cupy.cuda.runtime.deviceSynchronize()
    assert sluice.asnumpy(a)[3] == 42


def test_compute_on_torch_and_cupy_arrays(device, torch, cupy):
    f = _axpb()
    t = torch.linspace(0, 1, N, device="cuda")
    c = cupy.linspace(-1, 0, N, dtype=cupy.float32)
    for src, host in [(t, t.cpu().numpy()), (c, cupy.asnumpy(c))]:
        x = sluice.from_dlpack(src)
        y = f(x, np.float32(2.5), np.float32(1.0))
        assert y.sycl_device == device
        np.testing.assert_allclose(
            sluice.asnumpy(y), host * 2.5 + 1.0, rtol=1e-6
        )
        # The result goes back without a copy.
        r = torch.from_dlpack(y)
        assert r.data_ptr() == y._data_pointer()
        np.testing.assert_allclose(
            r.cpu().numpy(), host * 2.5 + 1.0, rtol=1e-6
        )


def test_tensors_stay_alive_while_sluice_uses_them(device, torch):
    import gc

    t = torch.full((N,), 5.0, device="cuda")
    x = sluice.from_dlpack(t)
    ptr = t.data_ptr()
    del t
    gc.collect()
    # Torch must not hand the memory to a new tensor while x holds it.
    other = torch.zeros(N, device="cuda")
    assert other.data_ptr() != ptr
    assert (sluice.asnumpy(x) == 5.0).all()
    del x
    gc.collect()


def test_errors(device, torch):
    if torch.cuda.device_count() > 1:
        t = torch.zeros(4, device="cuda:1")
        with pytest.raises(
            (sluice.DeviceNotFoundError, BufferError, RuntimeError)
        ):
            sluice.from_dlpack(t)
    # Exporting device memory to the CPU needs a copy.
    x = sluice.asarray(np.arange(4.0, dtype=np.float32), device=device)
    with pytest.raises(BufferError, match="copy"):
        x.__dlpack__(dl_device=(1, 0), copy=False)
    with pytest.raises(TypeError, match="stream"):
        x.__dlpack__(stream="fast")
