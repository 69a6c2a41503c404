"""@sluice.jit: a whole function becomes one program, its elementwise
chain one fused kernel; the program is cached per signature, in memory and
on disk.

    python examples/python/jit_fused.py [DEVICE]
"""

import sys
import time

import numpy as np

import sluice

device = sys.argv[1] if len(sys.argv) > 1 else None


@sluice.jit
def blend(a, b, alpha):
    return sluice.sqrt(sluice.abs(alpha * a - (1 - alpha) * b)) + sluice.exp(
        -a * a
    )


n = 1 << 16
a = sluice.random.normal(size=n, dtype=sluice.float32, device=device)
b = sluice.random.normal(size=n, dtype=sluice.float32, device=device)

t0 = time.perf_counter()
r = blend(a, b, 0.25)  # traces and compiles (or loads from the cache)
r.sycl_queue.wait()
t1 = time.perf_counter()
r = blend(a, b, 0.75)  # same signature: runs the cached program
r.sycl_queue.wait()
t2 = time.perf_counter()
print(
    f"first call {(t1 - t0) * 1e3:.1f} ms, second {(t2 - t1) * 1e3:.2f} ms"
    f" (traced {blend.trace_count} time)"
)

an, bn = sluice.asnumpy(a), sluice.asnumpy(b)
expected = np.sqrt(np.abs(0.75 * an - 0.25 * bn)) + np.exp(-an * an)
print(
    "max error vs NumPy:", float(np.max(np.abs(sluice.asnumpy(r) - expected)))
)

lowered = blend.lower(a, b, 0.5)
print(lowered.as_text())
print(lowered.fusion_report())
