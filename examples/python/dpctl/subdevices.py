"""Sub-devices: partitioning a device (dpctl's create_sub_devices).

    python examples/python/dpctl/subdevices.py [filter-string]

A Level Zero card of several tiles exposes them as sub-devices under
ZE_FLAT_DEVICE_HIERARCHY=COMPOSITE (the test driver does with
SLUICE_ZE_TEST_DRIVER_SUBDEVICES=2); devices that cannot be partitioned
raise SyclSubDeviceCreationError.
"""

import sys

import sluice.compat

sluice.compat.install_aliases()

import dpctl  # noqa: E402
import dpctl.tensor as dpt  # noqa: E402

dev = dpctl.SyclDevice(sys.argv[1] if len(sys.argv) > 1 else None)
print("device:", dev.filter_string, "| parent:", dev.parent_device)

for partition in ("next_partitionable", "numa", 1, [1, 1]):
    try:
        subs = dev.create_sub_devices(partition=partition)
    except dpctl.SyclSubDeviceCreationError:
        print(f"partition={partition!r}: cannot be partitioned")
        continue
    print(
        f"partition={partition!r}: {len(subs)} sub-devices:",
        ", ".join(s.filter_string for s in subs),
    )
    for s in subs:
        assert s.parent_device == dev
        x = dpt.arange(4, dtype="f4", device=s)
        print(f"  on {s.filter_string}: sum = {float(dpt.sum(x))}")

try:
    dev.create_sub_devices(partition=0)
except ValueError:
    print("partition=0: ValueError")
