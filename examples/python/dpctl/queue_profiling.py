"""Queues with profiling: events of copies with device timestamps, barriers
and SyclTimer (dpctl's queue and profiling examples).

    python examples/python/dpctl/queue_profiling.py [filter-string]
"""

import sys

import numpy as np

import sluice.compat

sluice.compat.install_aliases()

import dpctl  # noqa: E402
import dpctl.memory as dpmem  # noqa: E402
import dpctl.tensor as dpt  # noqa: E402

target = sys.argv[1] if len(sys.argv) > 1 else None
q = dpctl.SyclQueue(target, property=["in_order", "enable_profiling"])
print("device:", q.sycl_device.filter_string)
print("in order:", q.is_in_order, "| profiling:", q.has_enable_profiling)
print(
    "context holds the device:", q.sycl_device in q.sycl_context.get_devices()
)

n = 1 << 20
src = dpmem.MemoryUSMShared(n, queue=q)
dst = dpmem.MemoryUSMDevice(n, queue=q)
src.copy_from_host(np.arange(n, dtype=np.uint8))

ev = q.memcpy_async(dst, src, n)
ev.wait()
print("status:", ev.execution_status.name)
t = (ev.profiling_info_submit, ev.profiling_info_start, ev.profiling_info_end)
print("timestamps ordered:", t[0] <= t[1] <= t[2])
print(f"copy of {n} bytes took {(t[2] - t[1]) * 1e-3:.1f} us on the device")

back = dst.copy_to_host()
print("round trip exact:", bool((back == np.arange(n, dtype=np.uint8)).all()))

# A barrier waits for everything submitted so far.
x = dpt.ones(100_000, dtype="f4", sycl_queue=q)
y = dpt.sum(x * 2)
b = q.submit_barrier()
dpctl.SyclEvent.wait_for([b])
print("sum after barrier:", float(y))

timer = dpctl.SyclTimer()
with timer(q):
    z = dpt.exp(x) + 1.0
    q.wait()
host_s, device_s = timer.dt
print("timed on host and device:", host_s >= 0, device_s >= 0)
