"""Listing devices, as a dpctl user does first (dpctl.get_devices,
dpctl.select_default_device, SyclDevice properties).

    python examples/python/devices.py
"""

import sluice

print("devices:")
for d in sluice.get_devices():
    print(
        f"  {d.filter_string:18} {d.name} ({d.vendor}), "
        f"{d.max_compute_units} compute units, "
        f"fp64={'yes' if d.has_aspect_fp64 else 'no'}, "
        f"fp16={'yes' if d.has_aspect_fp16 else 'no'}"
    )

print("default device:", sluice.select_default_device())
print("has a GPU:", sluice.has_gpu_devices())
print(
    "CPU devices:",
    [d.filter_string for d in sluice.get_devices(device_type="cpu")],
)

# Filter selector strings: backend:type:index, parts optional, ',' for
# fallbacks.
d = sluice.Device("gpu,cpu")
print('Device("gpu,cpu") ->', d)
d.print_device_info()

try:
    sluice.Device("cuda:gpu:7")
except sluice.DeviceNotFoundError as e:
    print("no such device:", e)
