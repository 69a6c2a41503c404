"""Exchanging arrays with NumPy through DLPack, without copies where the
host can reach the memory.

    python examples/python/dlpack_numpy.py [DEVICE]
"""

import sys

import numpy as np

import sluice

device = sys.argv[1] if len(sys.argv) > 1 else None

# NumPy -> sluice: host memory is wrapped (the host device), then moved.
h = np.arange(6, dtype=np.float32)
x = sluice.from_dlpack(h)
print("from NumPy:", x.device, "shares memory with h")
x[0] = 100.0
x.sycl_queue.wait()
print("h after writing x[0]:", h)
on_device = sluice.from_dlpack(h, device=device)  # a copy on `device`
print("on", on_device.device, ":", sluice.asnumpy(on_device))

# sluice -> NumPy: shared (host-accessible) memory is exported as CPU
# memory, so NumPy views it directly.
s = sluice.ones(4, dtype=sluice.float32, device=device, usm_type="shared")
v = np.from_dlpack(s)
print("NumPy view of shared USM:", v, "dlpack device:", s.__dlpack_device__())

# Device memory that the host cannot reach is copied when asked for.
d = sluice.arange(3, device=device)
print("copied to the CPU:", np.from_dlpack(d, device="cpu"))
