"""The dpctl surface: every name of dpctl's top level, dpctl.memory,
dpctl.utils and dpctl.tensor's usm_ndarray that Sluice offers, with its
error paths, on each device (--sluice-device)."""

import io
import os
import shutil
import subprocess
import sys
import contextlib

import numpy as np
import pytest

import sluice
import sluice.compat
from sluice import memory as dpmem
from sluice import utils as dpu

DPCTL_TOP_LEVEL = [
    "SyclContext",
    "SyclContextCreationError",
    "SyclDevice",
    "SyclDeviceCreationError",
    "SyclSubDeviceCreationError",
    "get_devices",
    "select_accelerator_device",
    "select_cpu_device",
    "select_default_device",
    "select_gpu_device",
    "select_device_with_aspects",
    "get_num_devices",
    "has_cpu_devices",
    "has_gpu_devices",
    "has_accelerator_devices",
    "SyclEvent",
    "SyclTimer",
    "get_platforms",
    "lsplatform",
    "SyclPlatform",
    "SyclQueue",
    "SyclKernelInvalidRangeError",
    "SyclKernelSubmitError",
    "SyclQueueCreationError",
    "get_device_cached_queue",
    "device_type",
    "backend_type",
    "event_status_type",
    "global_mem_cache_type",
    "get_include",
    "memory",
    "tensor",
    "utils",
]


def test_every_dpctl_name_is_present():
    missing = [n for n in DPCTL_TOP_LEVEL if not hasattr(sluice, n)]
    assert not missing
    for n in (
        "MemoryUSMDevice",
        "MemoryUSMShared",
        "MemoryUSMHost",
        "as_usm_memory",
        "USMAllocationError",
    ):
        assert hasattr(dpmem, n), n
    for n in (
        "get_execution_queue",
        "get_coerced_usm_type",
        "validate_usm_type",
        "ExecutionPlacementError",
        "SequentialOrderManager",
        "onetrace_enabled",
        "intel_device_info",
    ):
        assert hasattr(dpu, n), n
    assert sluice.SyclDevice is sluice.Device
    assert sluice.SyclQueue is sluice.Queue


# --- devices -----------------------------------------------------------------


def test_device_attributes(device):
    d = sluice.SyclDevice(device.filter_string)
    assert d.filter_string == d.get_filter_string() == device.filter_string
    assert d.name and isinstance(d.vendor, str)
    assert isinstance(d.driver_version, str)
    assert isinstance(d.backend, sluice.backend_type)
    assert isinstance(d.device_type, sluice.device_type)
    assert d.max_compute_units >= 1
    assert d.max_work_group_size >= 1
    assert d.global_mem_size > 0
    assert d.max_mem_alloc_size > 0
    assert d.max_work_item_dims == 3
    assert len(d.max_work_item_sizes3d) == 3
    assert d.has_aspect_queue_profiling
    assert d.has_aspect_cpu == d.is_cpu and d.has_aspect_gpu == d.is_gpu
    assert d.has_aspect_accelerator == d.is_accelerator
    assert d.has_aspect_usm_device_allocations
    for a in (
        "fp16",
        "fp64",
        "usm_shared_allocations",
        "usm_host_allocations",
        "host",
        "custom",
        "atomic64",
        "usm_system_allocations",
        "image",
        "emulated",
    ):
        assert isinstance(getattr(d, "has_aspect_" + a), bool), a
    assert d.parent_device is None
    assert d.get_unpartitioned_parent_device() == d
    assert sluice.get_devices()[d.get_device_id()] == d
    assert isinstance(d.addressof_ref(), int)
    assert d.sycl_platform.backend == d.backend
    assert d in d.sycl_platform.get_devices()


def test_default_selector_score_picks_the_default_device():
    devs = sluice.get_devices()
    best = max(devs, key=lambda d: d.default_selector_score)
    assert best == sluice.select_default_device()
    assert all(d.default_selector_score >= 0 for d in devs)


def test_device_creation_errors():
    for bad in ("nonsense:gpu:0", "host:cpu:9", "host:gpx"):
        with pytest.raises(sluice.SyclDeviceCreationError) as info:
            sluice.SyclDevice(bad)
        assert isinstance(info.value, ValueError)
        assert isinstance(info.value, sluice.DeviceNotFoundError)
    with pytest.raises(sluice.SyclDeviceCreationError):
        sluice.select_accelerator_device()
    assert not sluice.has_accelerator_devices()
    assert sluice.get_num_devices() == len(sluice.get_devices())
    assert sluice.get_num_devices(device_type="accelerator") == 0


def test_select_device_with_aspects():
    d = sluice.select_device_with_aspects("cpu")
    assert d.is_cpu
    d = sluice.select_device_with_aspects(["cpu"], excluded_aspects=["gpu"])
    assert d.is_cpu
    with pytest.raises(sluice.SyclDeviceCreationError):
        sluice.select_device_with_aspects(["cpu", "gpu"])
    with pytest.raises(AttributeError):
        sluice.select_device_with_aspects(["teleportation"])


def test_create_sub_devices_errors(device):
    for p in ("numa", "next_partitionable", 1, [1, 1]):
        with pytest.raises(sluice.SyclSubDeviceCreationError):
            device.create_sub_devices(partition=p)
    with pytest.raises(ValueError):
        device.create_sub_devices(partition=0)
    with pytest.raises(ValueError):
        device.create_sub_devices(partition="L9_cache")
    with pytest.raises(ValueError):
        device.create_sub_devices(partition=[0, 0])
    with pytest.raises(TypeError):
        device.create_sub_devices(partition=1.5)
    with pytest.raises(TypeError):
        device.create_sub_devices()


def test_get_device_cached_queue(device):
    q = sluice.get_device_cached_queue(device)
    assert q is device.sycl_queue
    assert sluice.get_device_cached_queue(device.filter_string) is q


# --- platforms and contexts ------------------------------------------------


def test_platforms(device):
    plats = sluice.get_platforms()
    assert sluice.get_num_platforms() == len(plats)
    assert device.sycl_platform in plats
    seen = [d for p in plats for d in p.get_devices()]
    assert sorted(d.filter_string for d in seen) == sorted(
        d.filter_string for d in sluice.get_devices()
    )
    p = sluice.SyclPlatform(device.filter_string)
    assert p == device.sycl_platform and hash(p) == hash(device.sycl_platform)
    assert p.name and p.version and p.vendor
    assert p.get_devices(device_type=device.device_type.name)
    assert p.default_context == device.sycl_queue.sycl_context
    with pytest.raises(sluice.SyclDeviceCreationError):
        sluice.SyclPlatform("nonsense:gpu")
    with pytest.raises(TypeError):
        sluice.SyclPlatform(3.5)
    with pytest.raises(ValueError):
        p.get_devices(device_type="quantum")


def _lsplatform(v):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        sluice.lsplatform(v)
    return buf.getvalue()


def test_lsplatform_levels():
    plats = sluice.get_platforms()
    v0 = _lsplatform(0).splitlines()
    assert v0 == [f"{p.name} {p.version}" for p in plats]
    v1 = _lsplatform(1)
    assert v1.count("Platform ") == len(plats)
    assert "Num Devices" in v1 and "Filter string" not in v1
    v2 = _lsplatform(2)
    for d in sluice.get_devices():
        assert f"Filter string   {d.filter_string}" in v2
    with pytest.raises(ValueError):
        sluice.lsplatform(3)
    with pytest.raises(TypeError):
        sluice.lsplatform("2")


def _sluice_ls():
    here = os.path.dirname(sluice.__file__)
    cand = os.path.normpath(os.path.join(here, "..", "..", "bin", "sluice-ls"))
    return cand if os.path.exists(cand) else shutil.which("sluice-ls")


@pytest.mark.parametrize("v", [0, 1, 2])
def test_sluice_ls_platforms_matches_lsplatform(v):
    tool = _sluice_ls()
    if tool is None:
        pytest.skip("sluice-ls not found")
    r = subprocess.run(
        [tool, "--platforms", f"--verbosity={v}"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout == _lsplatform(v)


def test_contexts(device):
    ctx = sluice.SyclContext(device)
    assert ctx.device_count == 1 and ctx.get_devices() == [device]
    assert sluice.SyclContext(device.filter_string) == ctx
    assert sluice.SyclContext([device, device]) == ctx
    q = sluice.SyclQueue(device)
    assert device in q.sycl_context.get_devices()
    assert q.sycl_context == q.get_sycl_context()
    x = sluice.zeros(3, dtype="f4", device=device)
    assert x.sycl_context == q.sycl_context
    assert "SyclContext" in repr(ctx)
    with pytest.raises(sluice.SyclContextCreationError):
        sluice.SyclContext("nonsense:gpu")
    with pytest.raises(sluice.SyclContextCreationError):
        sluice.SyclContext([])
    with pytest.raises(TypeError):
        sluice.SyclContext(3.5)
    with pytest.raises(TypeError):
        sluice.SyclContext([1, 2])
    others = [
        d
        for d in sluice.get_devices()
        if d.sycl_platform != device.sycl_platform
    ]
    if others:
        with pytest.raises(
            sluice.SyclContextCreationError, match="one platform"
        ):
            sluice.SyclContext([device, others[0]])


# --- queues ------------------------------------------------------------------


def test_queue_forms_and_properties(device):
    q = sluice.SyclQueue(device, property=("in_order", "enable_profiling"))
    assert q.is_in_order and q.has_enable_profiling
    assert q.sycl_device == device and q.get_sycl_device() == device
    assert q.backend == device.backend == q.get_sycl_backend()
    assert not sluice.SyclQueue(device).has_enable_profiling
    assert not device.sycl_queue.has_enable_profiling
    # The property reaches the runtime's queue (CUDA marks every task of a
    # profiling queue only).
    from sluice import _sluice as _ext

    assert _ext.queue_profiling(q.addressof_ref())
    assert not _ext.queue_profiling(sluice.SyclQueue(device).addressof_ref())
    assert not _ext.queue_profiling(device.sycl_queue.addressof_ref())
    ctx = sluice.SyclContext(device)
    q2 = sluice.SyclQueue(ctx, device, property="in_order")
    assert q2.sycl_device == device and q2 is not q
    assert sluice.SyclQueue(ctx).sycl_device == device
    assert sluice.SyclQueue(device.filter_string).sycl_device == device
    assert isinstance(q.addressof_ref(), int)


def test_queue_creation_errors(device):
    with pytest.raises(sluice.SyclQueueCreationError) as info:
        sluice.SyclQueue("nonsense:gpu:0")
    assert isinstance(info.value, ValueError)
    with pytest.raises(
        sluice.SyclQueueCreationError, match="unsupported queue property"
    ):
        sluice.SyclQueue(device, property="out_of_order")
    with pytest.raises(TypeError):
        sluice.SyclQueue(device, property=[3])
    with pytest.raises(TypeError):
        sluice.SyclQueue("host", device)
    with pytest.raises(TypeError):
        sluice.SyclQueue(device, device, device)
    other = [
        d
        for d in sluice.get_devices()
        if d.sycl_platform != device.sycl_platform
    ]
    if other:
        with pytest.raises(
            sluice.SyclQueueCreationError, match="does not hold"
        ):
            sluice.SyclQueue(sluice.SyclContext(device), other[0])


def test_memcpy_and_events(device):
    q = sluice.SyclQueue(device, property="enable_profiling")
    n = 4096
    src = dpmem.MemoryUSMShared(n, queue=q)
    dst = dpmem.MemoryUSMDevice(n, queue=q)
    data = (np.arange(n) % 251).astype(np.uint8)
    src.copy_from_host(data)
    ev = q.memcpy_async(dst, src, n)
    assert isinstance(ev, sluice.SyclEvent)
    ev.wait()
    assert ev.execution_status is sluice.event_status_type.complete
    s, b, e = (
        ev.profiling_info_submit,
        ev.profiling_info_start,
        ev.profiling_info_end,
    )
    assert 0 < s <= b <= e
    assert ev.backend == device.backend
    np.testing.assert_array_equal(dst.copy_to_host(), data)
    # memcpy to and from host buffers, with a count.
    out = bytearray(16)
    q.memcpy(out, dst, 16)
    assert bytes(out) == data[:16].tobytes()
    q.memcpy(dst, b"\x01" * 8, 8)
    assert dst.copy_to_host()[:9].tolist() == [1] * 8 + [data[8]]
    with pytest.raises(ValueError):
        q.memcpy(dst, src, n + 1)
    with pytest.raises(ValueError):
        q.memcpy(dst, src, -1)
    with pytest.raises(TypeError):
        q.memcpy(bytearray(4), b"1234", 4)
    # dependent events and barriers
    ev2 = q.memcpy_async(src, dst, 8, [ev])
    bar = q.submit_barrier([ev2])
    assert bar.get_wait_list() == [ev2]
    sluice.SyclEvent.wait_for([bar, ev2])
    sluice.SyclEvent.wait_for(bar)
    with pytest.raises(TypeError):
        sluice.SyclEvent.wait_for([1])
    with pytest.raises(TypeError):
        q.submit_barrier([3])


def test_default_event():
    e = sluice.SyclEvent()
    e.wait()
    assert e.execution_status is sluice.event_status_type.complete
    assert e.get_wait_list() == []
    with pytest.raises(ValueError, match="profiling"):
        e.profiling_info_start
    assert sluice.SyclEvent(e).execution_status.name == "complete"
    with pytest.raises(TypeError):
        sluice.SyclEvent(5)


def test_barrier_follows_array_work(device):
    q = sluice.SyclQueue(device)
    x = sluice.ones(10_000, dtype="f4", sycl_queue=q)
    y = (x * 3).sum()
    b = q.submit_barrier()
    b.wait()
    assert b.execution_status.name == "complete"
    assert float(y) == 30_000.0
    t = b.profiling_info_end - b.profiling_info_start
    assert t >= 0


def test_sycl_timer(device):
    q = sluice.SyclQueue(device, property="enable_profiling")
    timer = sluice.SyclTimer()
    with timer(q):
        x = sluice.ones(1000, dtype="f4", sycl_queue=q)
        float((x + 1).sum())
    host, dev = timer.dt
    assert host >= 0 and dev >= 0
    with pytest.raises(ValueError):
        with sluice.SyclTimer():
            pass
    with pytest.raises(ValueError):
        sluice.SyclTimer(device_timer="bogus")
    with pytest.raises(ValueError):
        sluice.SyclTimer().dt


# --- memory ------------------------------------------------------------------


@pytest.mark.parametrize(
    "cls", ["MemoryUSMDevice", "MemoryUSMShared", "MemoryUSMHost"]
)
def test_memory_objects(device, cls):
    q = device.sycl_queue
    M = getattr(dpmem, cls)
    m = M(64, queue=q)
    kind = {
        "MemoryUSMDevice": "device",
        "MemoryUSMShared": "shared",
        "MemoryUSMHost": "host",
    }[cls]
    assert m.get_usm_type() == kind
    assert m.get_usm_type_enum() == {"device": 1, "shared": 2, "host": 3}[kind]
    assert m.nbytes == m.size == len(m) == 64
    assert m.sycl_queue is q and m.sycl_device == device
    assert m.sycl_context == q.sycl_context
    assert m.reference_obj is None
    assert m._pointer != 0
    m.memset(5)
    assert m.tobytes() == b"\x05" * 64
    m.copy_from_host(b"abc")
    assert m.copy_to_host()[:4].tolist() == [97, 98, 99, 5]
    buf = bytearray(64)
    assert m.copy_to_host(buf) is buf and buf[:3] == b"abc"
    arr = np.zeros(64, dtype=np.uint8)
    m.copy_to_host(arr)
    assert arr[1] == 98
    iface = m.__sycl_usm_array_interface__
    assert iface["shape"] == (64,) and iface["typestr"] == "|u1"
    assert iface["syclobj"] is q and iface["version"] == 1
    assert iface["data"][0] == m._pointer
    host_ok = kind != "device" or device.backend.name == "host"
    if host_ok:
        mv = memoryview(m)
        assert mv.nbytes == 64 and bytes(mv[:3]) == b"abc"
        np.frombuffer(m, dtype=np.uint8)[0] = 1
        assert m.copy_to_host()[0] == 1
    else:
        with pytest.raises(BufferError):
            memoryview(m)
    # error paths
    with pytest.raises(ValueError):
        m.copy_from_host(b"x" * 65)
    with pytest.raises(ValueError):
        m.copy_to_host(bytearray(10))
    with pytest.raises(ValueError):
        m.copy_to_host(b"immutable" * 10)
    with pytest.raises(TypeError):
        m.copy_from_host(3)
    with pytest.raises(ValueError):
        m.memset(256)
    with pytest.raises(ValueError):
        M(0, queue=q)
    with pytest.raises(ValueError):
        M(8, alignment=3, queue=q)
    with pytest.raises(TypeError):
        M(8, queue="host")
    M(8, alignment=64, queue=q)


def test_memory_from_other_objects(device):
    q = device.sycl_queue
    x = sluice.arange(16, dtype="i4", device=device, usm_type="shared")
    m = dpmem.MemoryUSMShared(x)
    assert m.reference_obj is x and m.nbytes == 64
    assert dpmem.as_usm_memory(x).get_usm_type() == "shared"
    assert dpmem.as_usm_memory(m) is m
    with pytest.raises(ValueError, match="copy=True"):
        dpmem.MemoryUSMDevice(x)
    d = dpmem.MemoryUSMDevice(x, copy=True)
    assert d.get_usm_type() == "device"
    assert d.copy_to_host().view(np.int32).tolist() == list(range(16))
    d2 = dpmem.MemoryUSMDevice(64, queue=q)
    d2.copy_from_device(x)
    assert d2.copy_to_host().view(np.int32)[5] == 5
    with pytest.raises(ValueError):
        dpmem.MemoryUSMDevice(8, queue=q).copy_from_device(x)
    with pytest.raises(TypeError):
        dpmem.as_usm_memory(np.zeros(3))
    with pytest.raises(TypeError):
        dpmem.MemoryUSMShared(x, queue=q)
    # writes through the memory object are seen by the array
    m.memset(0)
    assert sluice.asnumpy(x).tolist() == [0] * 16


def test_usm_allocation_error(device):
    with pytest.raises(dpmem.USMAllocationError):
        dpmem.MemoryUSMDevice(1 << 62, queue=device.sycl_queue)


# --- __sycl_usm_array_interface__ --------------------------------------------


class Foreign:
    """Another library's USM object: only the interface dictionary."""

    def __init__(self, iface):
        self.__sycl_usm_array_interface__ = iface


def test_array_interface_export_import(device):
    x = sluice.asarray(
        np.arange(12, dtype=np.float32).reshape(3, 4), device=device
    )
    iface = x.__sycl_usm_array_interface__
    assert iface["shape"] == (3, 4) and iface["typestr"] == "<f4"
    assert iface["strides"] is None and iface["data"][1] is False
    assert iface["syclobj"] is x.sycl_queue
    # a foreign object describing Sluice memory (a strided view)
    v = x[:, 1::2]
    vi = v.__sycl_usm_array_interface__
    assert vi["strides"] == (4, 2)
    y = sluice.asarray(Foreign(dict(vi)))
    assert y.sycl_queue is x.sycl_queue and y.shape == (3, 2)
    np.testing.assert_array_equal(
        sluice.asnumpy(y),
        np.arange(12, dtype=np.float32).reshape(3, 4)[:, 1::2],
    )
    y[0, 0] = 100  # shares memory
    assert float(x[0, 1]) == 100
    # offsets and an interface without syclobj (a Sluice pointer)
    off = dict(iface, offset=4, shape=(4,), strides=None, syclobj=None)
    z = sluice.asarray(Foreign(off))
    assert sluice.asnumpy(z).tolist() == [4, 5, 6, 7]
    # read-only producers give arrays that refuse writes
    ro = sluice.asarray(Foreign(dict(iface, data=(iface["data"][0], True))))
    with pytest.raises(ValueError):
        ro[0, 0] = 1
    # malformed interfaces
    with pytest.raises(ValueError):
        sluice.asarray(Foreign({"shape": (3,)}))
    with pytest.raises(ValueError):
        sluice.asarray(Foreign(dict(iface, version=2)))
    with pytest.raises(ValueError):
        sluice.asarray(Foreign(dict(iface, typestr="<c32")))
    with pytest.raises(TypeError):
        sluice.asarray(Foreign(dict(iface, syclobj=5)))
    with pytest.raises(ValueError):
        sluice.asarray(Foreign(dict(iface, strides=(1,))))


def test_interface_of_host_memory_from_numpy():
    a = np.arange(6, dtype=np.int64)
    hq = sluice.Device("host").sycl_queue
    f = Foreign(
        {
            "data": (a.ctypes.data, False),
            "shape": (6,),
            "strides": None,
            "typestr": "<i8",
            "version": 1,
            "syclobj": hq,
            "offset": 0,
        }
    )
    x = sluice.asarray(f)
    assert x.sycl_queue is hq
    assert sluice.asnumpy(x).tolist() == list(range(6))
    x[0] = 42
    hq.wait()
    assert a[0] == 42  # no copy


def test_interface_of_unknown_device_pointer_raises(device):
    if device.backend.name in ("host", "cuda"):
        pytest.skip("the host and CUDA take any pointer of their kind")
    with pytest.raises(sluice.SluiceError):
        sluice.asarray(
            Foreign(
                {
                    "data": (4096, False),
                    "shape": (4,),
                    "typestr": "<f4",
                    "version": 1,
                    "syclobj": device.sycl_queue,
                }
            )
        )


def test_usm_ndarray(device):
    from sluice import tensor as dpt

    x = dpt.usm_ndarray(
        (2, 3), dtype="i4", buffer_ctor_kwargs={"queue": device.sycl_queue}
    )
    assert isinstance(x, dpt.usm_ndarray) and x.shape == (2, 3)
    assert x.usm_type == "device"
    s = dpt.usm_ndarray(
        4,
        dtype="f4",
        buffer="shared",
        buffer_ctor_kwargs={"queue": device.sycl_queue},
    )
    assert s.usm_type == "shared"
    m = dpmem.MemoryUSMShared(24, queue=device.sycl_queue)
    m.copy_from_host(np.arange(6, dtype=np.int32).tobytes())
    v = dpt.usm_ndarray((2, 3), dtype="i4", buffer=m)
    assert sluice.asnumpy(v).tolist() == [[0, 1, 2], [3, 4, 5]]
    w = dpt.usm_ndarray((2,), dtype="i4", buffer=m, offset=1, strides=(2,))
    assert sluice.asnumpy(w).tolist() == [1, 3]
    f = dpt.usm_ndarray((2, 3), dtype="i4", buffer=m, order="F")
    assert sluice.asnumpy(f).tolist() == [[0, 2, 4], [1, 3, 5]]
    with pytest.raises(ValueError):
        dpt.usm_ndarray((7,), dtype="i4", buffer=m)
    with pytest.raises(TypeError):
        dpt.usm_ndarray((2,), buffer_ctor_kwargs={"alignment": 8})
    assert not isinstance(np.zeros(2), dpt.usm_ndarray)
    assert dpt.to_numpy(v).tolist() == sluice.asnumpy(v).tolist()
    y = dpt.from_numpy(np.ones(3), device=device)
    assert y.sycl_device == device


# --- DLPack -----------------------------------------------------------------


def test_dlpack_device_memory(device):
    x = sluice.arange(4, dtype="i4", device=device)
    dev = x.__dlpack_device__()
    if dev[0] == 1:  # host-accessible: a NumPy view
        assert np.from_dlpack(x).tolist() == [0, 1, 2, 3]
        return
    if dev[0] == 2:
        pytest.skip("CUDA memory: see test_dlpack_cuda.py")
    # device memory the host cannot read: BufferError, never a SystemError
    with pytest.raises(BufferError):
        np.from_dlpack(x)
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(1, 0), copy=False)
    # the standard's copy to the CPU
    cap = x.__dlpack__(dl_device=(1, 0), copy=True, max_version=(1, 0))
    assert type(cap).__name__ == "PyCapsule"
    assert np.from_dlpack(x, device="cpu", copy=True).tolist() == [0, 1, 2, 3]
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(2, 0))


# --- utils -------------------------------------------------------------------


def test_utils(device):
    q1, q2 = sluice.SyclQueue(device), sluice.SyclQueue(device)
    assert dpu.get_execution_queue([q1, q1]) is q1
    assert dpu.get_execution_queue((q1, q2)) is None
    assert dpu.get_execution_queue([]) is None
    with pytest.raises(TypeError):
        dpu.get_execution_queue(q1)
    with pytest.raises(TypeError):
        dpu.get_execution_queue([q1, "host"])
    assert dpu.get_coerced_usm_type(["host", "shared"]) == "shared"
    assert dpu.get_coerced_usm_type(("host", "device", "shared")) == "device"
    assert dpu.get_coerced_usm_type(["host", "bogus"]) is None
    assert dpu.get_coerced_usm_type([]) is None
    with pytest.raises(TypeError):
        dpu.get_coerced_usm_type("host")
    dpu.validate_usm_type("device")
    dpu.validate_usm_type(None)
    with pytest.raises(TypeError):
        dpu.validate_usm_type(None, allow_none=False)
    with pytest.raises(ValueError):
        dpu.validate_usm_type("bogus")
    assert dpu.ExecutionPlacementError is sluice.ExecutionPlacementError
    with dpu.onetrace_enabled():
        pass
    assert dpu.intel_device_info(device) == {}
    with pytest.raises(TypeError):
        dpu.intel_device_info("host")
    # SequentialOrderManager
    om = dpu.SequentialOrderManager[q1]
    assert dpu.SequentialOrderManager[q1] is om
    e1 = q1.submit_barrier()
    om.add_event_pair(None, e1)
    om.add_event_pair([sluice.SyclEvent()], [e1])
    assert om.submitted_events == [e1] and len(om.host_task_events) == 1
    om.wait()
    assert om.submitted_events == [] and om.host_task_events == []
    with pytest.raises(TypeError):
        dpu.SequentialOrderManager["host"]
    with pytest.raises(TypeError):
        om.add_event_pair(None, [5])
    dpu.SequentialOrderManager.clear()


# --- the dpctl module aliases ------------------------------------------------


def test_compat_aliases():
    script = (
        "import sluice.compat, sys\n"
        "names = sluice.compat.install_aliases(dpnp=True)\n"
        "import dpctl, dpctl.tensor as dpt, dpctl.memory as dpm\n"
        "import dpctl.utils, dpnp\n"
        "from dpctl.memory import MemoryUSMShared\n"
        "assert dpctl.SyclDevice is sluice.Device and dpnp is sluice\n"
        "assert dpt.usm_ndarray is sluice.tensor.usm_ndarray\n"
        "assert dpctl.utils.get_execution_queue is "
        "sluice.utils.get_execution_queue\n"
        "x = dpt.asarray([0, 1, 2], sycl_queue=dpctl.SyclQueue('host'))\n"
        "print(names, dpt.asnumpy(x).tolist(), MemoryUSMShared(8).nbytes)\n"
        "sluice.compat.remove_aliases()\n"
        "assert 'dpctl' not in sys.modules\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert "[0, 1, 2] 8" in r.stdout
    # an imported real dpctl is never replaced silently
    r = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, types; sys.modules['dpctl'] = types.ModuleType("
            "'dpctl'); import sluice.compat\n"
            "try:\n    sluice.compat.install_aliases()\n"
            "except ImportError as e:\n    print('refused', e)\n"
            "sluice.compat.install_aliases(force=True)\n"
            "import dpctl; print(dpctl.__name__)",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert "refused" in r.stdout and "sluice" in r.stdout


def test_import_sluice_as_dpctl_attribute_access():
    dpctl = sluice
    assert dpctl.tensor.asarray is sluice.asarray
    assert dpctl.memory.MemoryUSMHost is dpmem.MemoryUSMHost
    assert dpctl.utils.get_coerced_usm_type(["host"]) == "host"
    assert dpctl.get_include() is None or os.path.isdir(dpctl.get_include())


def test_sub_devices_of_a_composite_card(device):
    if device.backend.name != "level_zero":
        pytest.skip("tiles come from the Level Zero test driver")
    script = (
        "import sluice\n"
        "d = sluice.SyclDevice('level_zero:gpu:0')\n"
        "assert d.has_aspect_is_composite and not d.has_aspect_is_component\n"
        "subs = d.create_sub_devices(partition='next_partitionable')\n"
        "assert [s.filter_string for s in subs] == "
        "['level_zero:gpu:0.0', 'level_zero:gpu:0.1']\n"
        "assert d.create_sub_devices(partition='numa') == subs\n"
        "for s in subs:\n"
        "    assert s.parent_device == d and s.has_aspect_is_component\n"
        "    assert s.get_unpartitioned_parent_device() == d\n"
        "    assert sluice.SyclDevice(s.filter_string) == s\n"
        "    q = sluice.SyclQueue(s)\n"
        "    assert s in q.sycl_context.get_devices()\n"
        "    x = sluice.arange(10, dtype='f4', sycl_queue=q)\n"
        "    assert float((x * 2).sum()) == 90.0\n"
        "    assert x.sycl_device == s\n"
        "for bad in (2, [1, 1], 'L2_cache'):\n"
        "    try:\n"
        "        d.create_sub_devices(partition=bad)\n"
        "    except sluice.SyclSubDeviceCreationError:\n"
        "        pass\n"
        "    else:\n"
        "        raise AssertionError(bad)\n"
        "try:\n"
        "    subs[0].get_device_id()\n"
        "except ValueError:\n"
        "    pass\n"
        "else:\n"
        "    raise AssertionError('a sub-device has no device id')\n"
        "try:\n"
        "    sluice.SyclDevice('level_zero:gpu:0.2')\n"
        "except sluice.SyclDeviceCreationError:\n"
        "    print('ok')\n"
    )
    env = dict(
        os.environ,
        SLUICE_ZE_TEST_DRIVER_SUBDEVICES="2",
        ZE_FLAT_DEVICE_HIERARCHY="COMPOSITE",
    )
    r = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"
