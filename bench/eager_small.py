"""Small eager operations alone: the per-operation figures of
bench/eager.py at n = 16 and 3721, measured so that a loaded machine
moves them less.

25 batches of 500 operations per case; each batch keeps its results alive
until one synchronisation at its end (the caller's time, as bench/eager.py
measures it), then 125 operations each synchronised (end to end). Prints
the fastest batch and the median batch, and the median of the batches'
CPU time of the calling thread (time.thread_time: other processes' load
does not count, waiting for the device's worker does not either).

    python bench/eager_small.py [device] [sizes, e.g. 16,3721]
"""

import sys
import time

import numpy as np

import sluice


def cases(dev, n):
    rng = np.random.default_rng(0)
    a = sluice.asarray(rng.standard_normal(n).astype(np.float32), device=dev)
    c = sluice.asarray(rng.standard_normal(n).astype(np.float32), device=dev)
    d = sluice.asarray(np.zeros(n, np.float32), device=dev)

    def iadd():
        nonlocal d
        d += c

    def setslice():
        d[1:-1] = c[:-2]

    def fill():
        d[1:-1] = 0.5

    def isub():
        nonlocal d
        d -= 1.5

    return {
        "a*b": lambda: a * c,
        "a[1:-1]+b[:-2]": lambda: a[1:-1] + c[:-2],
        "a.sum()": lambda: a.sum(),
        "a[1:-1] = b[:-2]": setslice,
        "a += b": iadd,
        "a[1:-1] = 0.5": fill,
        "a -= 1.5": isub,
    }


def median(xs):
    return sorted(xs)[len(xs) // 2]


def main():
    dev = sys.argv[1] if len(sys.argv) > 1 else "host"
    sizes = [
        int(x)
        for x in (sys.argv[2] if len(sys.argv) > 2 else "16,3721").split(",")
    ]
    q = sluice.Device(dev).sycl_queue
    calls, batches = 500, 25
    print(
        "case                    n  caller: min    med    cpu"
        "  | e2e: min    med   (us)"
    )
    for n in sizes:
        for name, fn in cases(dev, n).items():
            for _ in range(50):
                fn()
            q.wait()
            wall, cpu, e2e = [], [], []
            for _ in range(batches):
                kept = []
                t, tt = time.perf_counter(), time.thread_time()
                for _ in range(calls):
                    kept.append(fn())
                q.wait()
                wall.append((time.perf_counter() - t) / calls * 1e6)
                cpu.append((time.thread_time() - tt) / calls * 1e6)
                del kept
                t = time.perf_counter()
                for _ in range(calls // 4):
                    # Alive until the next, as in bench/eager.py.
                    r = fn()  # noqa: F841
                    q.wait()
                e2e.append((time.perf_counter() - t) / (calls // 4) * 1e6)
            print(
                f"{name:18s} {n:6d}  {min(wall):11.2f} {median(wall):6.2f}"
                f" {median(cpu):6.2f}  | {min(e2e):9.2f} {median(e2e):6.2f}"
            )


if __name__ == "__main__":
    main()
