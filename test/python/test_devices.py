"""Devices, filter strings, queues (dpctl's model)."""

import pytest

import sluice


def test_get_devices_lists_every_visible_device():
    devices = sluice.get_devices()
    assert devices, "the host device is always there"
    names = [d.filter_string for d in devices]
    assert "host:cpu:0" in names
    assert len(set(names)) == len(names)
    for d in devices:
        backend, dtype, index = d.filter_string.split(":")
        assert backend == d.backend.name
        assert dtype == d.device_type.name
        assert index.isdigit()


def test_get_devices_filters_by_backend_and_type():
    hosts = sluice.get_devices(backend="host")
    assert [d.filter_string for d in hosts] == ["host:cpu:0"]
    assert sluice.get_devices(backend=sluice.backend_type.host) == hosts
    assert sluice.get_devices(backend="native_cpu") == hosts
    cpus = sluice.get_devices(device_type="cpu")
    assert all(d.is_cpu for d in cpus)
    assert all(d.is_gpu for d in sluice.get_devices(device_type="gpu"))
    assert sluice.has_cpu_devices()
    assert sluice.has_gpu_devices() == bool(
        sluice.get_devices(device_type=sluice.device_type.gpu)
    )
    assert sluice.get_num_devices() == len(sluice.get_devices())


def test_get_devices_rejects_unknown_names():
    with pytest.raises(ValueError, match="unknown backend 'vulkan'"):
        sluice.get_devices(backend="vulkan")
    with pytest.raises(ValueError, match="unknown device type"):
        sluice.get_devices(device_type="fpga")
    with pytest.raises(TypeError):
        sluice.get_devices(backend=3)


def test_device_from_filter_strings():
    d = sluice.Device("host")
    assert d.filter_string == "host:cpu:0"
    assert sluice.Device("native_cpu") == d
    assert sluice.Device("host:cpu:0") == d
    assert repr(d) == "Device(host:cpu:0)"
    assert str(d) == "host:cpu:0"
    assert d.get_filter_string() == "host:cpu:0"
    # Fallback lists choose the first device that exists.
    assert sluice.Device("level_zero:gpu:7,host").filter_string == "host:cpu:0"


def test_default_device_is_first_gpu_else_host():
    d = sluice.select_default_device()
    gpus = sluice.get_devices(device_type="gpu")
    expected = gpus[0] if gpus else sluice.Device("host")
    assert d == expected
    assert sluice.Device() == d


@pytest.mark.parametrize(
    "bad", ["nonsense:gpu:0", "gpu:gpu", "host:cpu:x", "opencl:cpu:99"]
)
def test_bad_or_missing_devices_raise(bad):
    with pytest.raises(sluice.DeviceNotFoundError) as info:
        sluice.Device(bad)
    assert isinstance(info.value, ValueError)
    assert bad.split(",")[0] in str(info.value)


def test_device_wrong_type():
    with pytest.raises(TypeError, match="filter string"):
        sluice.Device(1.5)


def test_device_properties(device):
    assert device.name
    assert device.vendor is not None
    assert device.driver_version
    assert device.max_compute_units >= 1
    assert device.global_mem_size > 0
    assert device.max_work_group_size >= 1
    assert isinstance(device.has_aspect_fp64, bool)
    assert isinstance(device.has_aspect_fp16, bool)
    assert device.has_aspect_usm_device_allocations
    props = device.properties
    assert props["backend"] == device.backend.name


def test_print_device_info(capsys):
    sluice.Device("host").print_device_info()
    out = capsys.readouterr().out
    assert out.startswith("[host:cpu:0]")
    assert "backend" in out and "host" in out


def test_canonical_queue_is_shared(device):
    q1 = device.sycl_queue
    q2 = sluice.Device(device.filter_string).sycl_queue
    assert q1 is q2
    assert q1.is_canonical
    assert q1.name == ""
    assert q1.sycl_device == device


def test_new_queues_are_distinct(device):
    q1 = sluice.Queue(device)
    q2 = sluice.Queue(device)
    assert q1 != q2
    assert q1 != device.sycl_queue
    assert not q1.is_canonical
    assert q1.sycl_device == device
    assert hash(q1) != hash(q2)
    assert repr(q1).startswith(f"Queue({device.filter_string}, name=")
    q1.wait()


def test_queue_from_filter_string_and_default():
    q = sluice.Queue("host")
    assert q.sycl_device == sluice.Device("host")
    assert sluice.Queue().sycl_device == sluice.select_default_device()


def test_queue_properties():
    sluice.Queue("host", property="in_order")
    sluice.Queue("host", property=["in_order", "enable_profiling"])
    with pytest.raises(ValueError, match="unsupported queue property"):
        sluice.Queue("host", property="out_of_order")


def test_create_device_binds_queues(device):
    q = sluice.Queue(device)
    d = sluice.Device.create_device(q)
    assert d.sycl_queue is q
    assert d.sycl_device == device
    assert d != device  # another queue
    assert sluice.Device.create_device(device) is device
    assert sluice.Device.create_device(device.filter_string) == device
    assert sluice.Device.create_device(None) == sluice.select_default_device()
    assert q.device.sycl_queue is q


def test_synchronize_waits_for_everything():
    sluice.synchronize()
