"""Filter selector strings, as dpctl's filter-selection example uses them.

python examples/python/dpctl/filter_selection.py [filter-string]
"""

import sys

import sluice.compat

sluice.compat.install_aliases()

import dpctl  # noqa: E402

target = sys.argv[1] if len(sys.argv) > 1 else "cpu"

# backend:device_type:index, every part optional; ',' gives fallbacks.
for f in (target, "cpu", "host", "host:cpu:0", "gpu,cpu", "0"):
    d = dpctl.SyclDevice(f)
    print(f"SyclDevice({f!r}) -> {d.get_filter_string()}")

# A queue made from a filter string is on that device.
q = dpctl.SyclQueue(target)
print(
    "queue device:",
    q.sycl_device.filter_string,
    "| same device:",
    q.sycl_device == dpctl.SyclDevice(target),
)

# Malformed or unmatched strings raise SyclDeviceCreationError (a
# ValueError); queues raise SyclQueueCreationError.
for bad in ("nonsense:gpu:0", "host:cpu:7"):
    try:
        dpctl.SyclDevice(bad)
    except dpctl.SyclDeviceCreationError:
        print(f"SyclDevice({bad!r}): SyclDeviceCreationError")
    try:
        dpctl.SyclQueue(bad)
    except dpctl.SyclQueueCreationError:
        print(f"SyclQueue({bad!r}): SyclQueueCreationError")
