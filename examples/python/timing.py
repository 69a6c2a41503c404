"""Timing device work: operations return as soon as they are submitted,
so time them up to queue.wait() (or until the result is read).

    python examples/python/timing.py [DEVICE] [N]
"""

import sys
import time

import sluice

device = sys.argv[1] if len(sys.argv) > 1 else None
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000

x = sluice.random.uniform(-1, 1, n, dtype=sluice.float32, device=device)
q = x.sycl_queue
q.wait()

y = sluice.exp(-x * x)  # compiles once, then is cached
q.wait()

t0 = time.perf_counter()
y = sluice.exp(-x * x)
t1 = time.perf_counter()  # submitted, maybe still running
q.wait()
t2 = time.perf_counter()  # finished
print(
    f"submit: {(t1 - t0) * 1e6:.0f} us, run to completion: "
    f"{(t2 - t0) * 1e3:.2f} ms for {n} elements on {x.device}"
)
print("checksum:", float(y.sum()))
