"""Range kernels (@sluice.kernel) on the host CPU against the same loops
written with Numba's prange, and the time to compile a kernel.

    PYTHONPATH=build/python .venv/bin/python bench/kernels_cpu.py [N]

Prints GB/s of compulsory traffic (medians of 10 runs after a warm-up) and
the ratio to Numba; the compile time is a first call with the disk cache
off, minus a later call's run time.
"""

import math
import os
import statistics
import sys
import time

import numpy as np

os.environ.setdefault("SLUICE_CACHE_DIR", "off")

import sluice  # noqa: E402
from sluice import kernel_api as kapi  # noqa: E402


@sluice.kernel
def axpy_k(item: kapi.Item, a, b, c, alpha):
    i = item.get_id(0)
    c[i] = alpha * a[i] + b[i]


@sluice.kernel
def transc_k(item: kapi.Item, a, b, c):
    i = item.get_id(0)
    x = a[i]
    c[i] = math.exp(-x * x) * math.sin(b[i]) + math.sqrt(abs(x))


def numba_versions():
    try:
        import numba
    except ImportError:
        return None

    @numba.njit(parallel=True, fastmath=False)
    def axpy_n(a, b, c, alpha):
        for i in numba.prange(a.shape[0]):
            c[i] = alpha * a[i] + b[i]

    @numba.njit(parallel=True, fastmath=False)
    def transc_n(a, b, c):
        for i in numba.prange(a.shape[0]):
            x = a[i]
            c[i] = math.exp(-x * x) * math.sin(b[i]) + math.sqrt(abs(x))

    return axpy_n, transc_n


def median_time(fn, reps=10):
    fn()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def main(n):
    rng = np.random.default_rng(0)
    a_np = rng.random(n, dtype=np.float32)
    b_np = rng.random(n, dtype=np.float32)
    c_np = np.empty_like(a_np)
    a = sluice.asarray(a_np, device="host")
    b = sluice.asarray(b_np, device="host")
    c = sluice.empty_like(a)
    q = c.sycl_queue
    alpha = np.float32(2.0)

    def run(k, *args):
        def go():
            sluice.call_kernel(k, kapi.Range(n), *args)
            q.wait()

        return go

    t0 = time.perf_counter()
    run(axpy_k, a, b, c, alpha)()
    first = time.perf_counter() - t0
    t_run = median_time(run(axpy_k, a, b, c, alpha), 3)
    print(f"compile axpy kernel: {(first - t_run) * 1e3:.0f} ms")

    peers = numba_versions()
    cases = [
        ("axpy", axpy_k, (a, b, c, alpha), 3),
        ("transcendental", transc_k, (a, b, c), 3),
    ]
    print(f"{'case':16} {'sluice GB/s':>12} {'numba GB/s':>12} {'ratio':>7}")
    for k, (name, kern, args, arrays) in enumerate(cases):
        t = median_time(run(kern, *args))
        gbs = arrays * 4 * n / t / 1e9
        if name == "axpy":
            ref = alpha * a_np + b_np
        else:
            ref = np.exp(-a_np * a_np) * np.sin(b_np) + np.sqrt(np.abs(a_np))
        err = np.max(np.abs(sluice.asnumpy(c) - ref))
        assert err < 1e-5, (name, err)
        nb = ""
        ratio = ""
        if peers is not None:
            fn = peers[k]
            nargs = (
                (a_np, b_np, c_np, alpha)
                if name == "axpy"
                else (a_np, b_np, c_np)
            )
            tn = median_time(lambda: fn(*nargs))
            nb_gbs = arrays * 4 * n / tn / 1e9
            nb = f"{nb_gbs:12.1f}"
            ratio = f"{gbs / nb_gbs:7.2f}"
        print(f"{name:16} {gbs:12.1f} {nb:>12} {ratio:>7}")


if __name__ == "__main__":
    main(int(float(sys.argv[1])) if len(sys.argv) > 1 else 20_000_000)
