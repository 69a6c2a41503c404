"""Device selection as dpctl code does it, run on Sluice unchanged but for
the first two lines (sluice.compat registers the dpctl module names).

    python examples/python/dpctl/device_selection.py [filter-string]
"""

import sys

import sluice.compat

sluice.compat.install_aliases()

import dpctl  # noqa: E402  (Sluice, under dpctl's name)

target = sys.argv[1] if len(sys.argv) > 1 else None

# The default device and the default selector's scores.
d = dpctl.select_default_device()
print("default device:", d.filter_string, "-", d.name)
for dev in dpctl.get_devices():
    print(
        f"  {dev.filter_string:18} score {dev.default_selector_score:4} "
        f"{dev.device_type.name:4} {dev.backend.name}"
    )
best = max(dpctl.get_devices(), key=lambda x: x.default_selector_score)
print("highest score is the default:", best == d)

# Selection by type; a missing kind raises SyclDeviceCreationError.
for select in (
    dpctl.select_cpu_device,
    dpctl.select_gpu_device,
    dpctl.select_accelerator_device,
):
    try:
        print(f"{select.__name__}: {select().filter_string}")
    except dpctl.SyclDeviceCreationError as e:
        print(f"{select.__name__}: none ({type(e).__name__})")

print(
    "has cpu/gpu/accelerator:",
    dpctl.has_cpu_devices(),
    dpctl.has_gpu_devices(),
    dpctl.has_accelerator_devices(),
)
print("number of devices:", dpctl.get_num_devices())

# Selection by aspect.
dev = dpctl.select_device_with_aspects(["cpu", "usm_shared_allocations"])
print("a CPU with shared USM:", dev.filter_string)

# Everything a program asks of a device before using it.
if target:
    dev = dpctl.SyclDevice(target)
    print("selected:", dev.filter_string)
    print(
        "  name",
        dev.name,
        "| vendor",
        dev.vendor,
        "| driver",
        dev.driver_version,
    )
    print("  backend", dev.backend, "| type", dev.device_type)
    print(
        "  compute units",
        dev.max_compute_units,
        "| work-group size",
        dev.max_work_group_size,
        "| global memory",
        dev.global_mem_size,
    )
    print(
        "  fp64",
        dev.has_aspect_fp64,
        "| fp16",
        dev.has_aspect_fp16,
        "| usm device/shared/host",
        dev.has_aspect_usm_device_allocations,
        dev.has_aspect_usm_shared_allocations,
        dev.has_aspect_usm_host_allocations,
    )
    print("  platform:", dev.sycl_platform.name)
