"""Host-side costs of the Python frontend (`import sluice`).

Prints, for the host backend (or --device):

- the cost of a jitted call on a small array as the caller sees it
  (submission only: the device's worker is held meanwhile, so nothing runs
  concurrently and the figure is the frontend's own work; the CPU time of
  the calling thread is printed too, since on a busy machine wall time also
  counts waiting for a core), and of an eager operation the same way;
- a jitted call end to end in synchronous mode, next to the compiled
  program alone (`sluice-run --benchmark` on the same IR): the difference is
  what Python, the extension and the worker add per call;
- tracing plus compiling a 10-op function (empty caches), and its parts;
- cache hits: the in-memory signature lookup, and a new process finding the
  program on disk (trace plus artifact load).

Medians of --reps repetitions. Timings are printed, never asserted.

    python bench/python_overhead.py [--device host] [--n 16] [--reps 7]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import sluice
from sluice import _compiler


def median_us(fn, calls, reps):
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - t) / calls)
    return statistics.median(times) * 1e6


def held(queue, fn, calls, reps):
    """Per-call wall and CPU time (this thread's) of fn while the queue's
    worker is held: on a busy machine the CPU time is the frontend's work,
    the wall time adds waiting for a core."""
    # A queue holds at most 64 submitted tasks before a submitter waits for
    # it (bounded memory, python/src/Tasks.h): hold it for windows of
    # WINDOW calls, released and drained between windows, untimed.
    wall, cpu = [], []
    windows = max(calls // WINDOW, 1)
    for _ in range(reps):
        w_total = c_total = 0.0
        for _ in range(windows):
            gate = sluice._sluice.debug_block_queue(queue._id)
            t, c = time.perf_counter(), time.thread_time()
            for _ in range(WINDOW):
                fn()
            c_total += time.thread_time() - c
            w_total += time.perf_counter() - t
            gate.release()
            queue.wait()
        cpu.append(c_total / (windows * WINDOW))
        wall.append(w_total / (windows * WINDOW))
    return statistics.median(wall) * 1e6, statistics.median(cpu) * 1e6


# Calls per held window (under the 64 tasks a queue takes before its
# submitter waits).
WINDOW = 48


def ten_ops(k):
    """A 10-op elementwise function; k makes each one's IR distinct."""

    def f(a, b):
        c = a * b + a
        c = sluice.exp(c) - b
        c = sluice.sin(c) * c
        c = sluice.sqrt(sluice.abs(c))
        return sluice.tanh(c) + float(k)

    f.__name__ = f"ten_ops_{k}"
    return f


def sluice_run():
    build = os.path.dirname(
        os.path.dirname(
            os.path.dirname(os.path.abspath(sluice._sluice.__file__))
        )
    )
    path = os.path.join(build, "bin", "sluice-run")
    return path if os.path.exists(path) else None


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="host")
    p.add_argument("--n", type=int, default=16, help="elements")
    p.add_argument("--reps", type=int, default=7)
    p.add_argument("--calls", type=int, default=20000)
    args = p.parse_args()

    dev = sluice.Device(args.device)
    q = dev.sycl_queue
    print(
        f"device {dev.filter_string} ({dev.name}); compiler "
        f"{sluice.compiler_version()}; {os.cpu_count()} CPUs"
    )
    x = sluice.arange(args.n, dtype=np.float32, device=dev)
    y = sluice.ones(args.n, dtype=np.float32, device=dev)

    @sluice.jit
    def axpy(a, x, y):
        return a * x + y

    axpy(2.0, x, y)
    q.wait()
    calls = args.calls
    call_us = held(q, lambda: axpy(2.0, x, y), calls, args.reps)
    eager_us = held(q, lambda: x * y, calls, args.reps)
    key_us = median_us(
        lambda: axpy._cache.get((float, x._signature, y._signature)),
        calls,
        args.reps,
    )
    print(
        f"jit call, {args.n} elements, caller side:  {call_us[0]:8.2f} us"
        f"  (CPU {call_us[1]:.2f} us)"
    )
    print(
        f"eager x * y, caller side:               {eager_us[0]:8.2f} us"
        f"  (CPU {eager_us[1]:.2f} us)"
    )
    print(f"cache hit, signature lookup:            {key_us:8.2f} us")

    # End to end, each call timed alone (a median, as sluice-run reports).
    sluice.set_synchronous(True)
    each = []
    for _ in range(calls // 2):
        t = time.perf_counter()
        axpy(2.0, x, y)
        each.append(time.perf_counter() - t)
    sluice.set_synchronous(False)
    sync_us = statistics.median(each) * 1e6
    print(f"jit call end to end (synchronous):      {sync_us:8.2f} us")
    runner = sluice_run()
    if runner:
        with tempfile.NamedTemporaryFile(
            "w", suffix=".mlir", delete=False
        ) as fh:
            fh.write(axpy.lower(2.0, x, y).as_text())
        r = subprocess.run(
            [
                runner,
                fh.name,
                f"--benchmark={calls}",
                "--input=f64=2",
                f"--input={args.n}xf32=1",
                f"--input={args.n}xf32=1",
                "--print-max-elements=0",
            ],
            capture_output=True,
            text=True,
        )
        os.unlink(fh.name)
        med = [
            line
            for line in (r.stdout + r.stderr).splitlines()
            if "median" in line
        ]
        if med:
            raw_us = float(med[0].split("median")[1].split()[0]) * 1e6
            print(
                f"  the program alone (sluice-run):       {raw_us:8.2f} us"
                f"  -> frontend adds {sync_us - raw_us:.2f} us"
            )

    # Trace + compile of a 10-op function, with empty caches.
    with tempfile.TemporaryDirectory() as cache:
        os.environ["SLUICE_CACHE_DIR"] = cache
        compile_ms, compile_cpu_ms, trace_ms, hit_ms = [], [], [], []
        for k in range(args.reps):
            _compiler.flush_cache_writes()
            f = sluice.jit(ten_ops(k))
            t = time.perf_counter()
            f.lower(x, y)
            trace_ms.append((time.perf_counter() - t) * 1e3)
            t, c = time.perf_counter(), time.thread_time()
            f(x, y)._wait()
            compile_cpu_ms.append((time.thread_time() - c) * 1e3)
            compile_ms.append((time.perf_counter() - t) * 1e3)
            # A new process: nothing in memory, the artifact on disk (the
            # first process writes it in the background).
            _compiler.flush_cache_writes()
            _compiler._entries.clear()
            g = sluice.jit(ten_ops(k))
            t = time.perf_counter()
            g(x, y)
            hit_ms.append((time.perf_counter() - t) * 1e3)
            q.wait()
        del os.environ["SLUICE_CACHE_DIR"]
    print(
        f"trace + compile, 10 ops (first call):   "
        f"{statistics.median(compile_ms):8.2f} ms"
        f"  (CPU {statistics.median(compile_cpu_ms):.2f} ms; tracing alone "
        f"{statistics.median(trace_ms):.2f} ms)"
    )
    print(
        f"disk cache hit (trace + load):          "
        f"{statistics.median(hit_ms) * 1e3:8.1f} us"
    )


if __name__ == "__main__":
    sys.exit(main())
