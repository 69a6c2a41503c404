"""Lazy execution at small sizes on one device: where the time goes.

Times the small programs of bench/lazy.py (Black-Scholes 2**12, Jacobi
61x61 x100, pairwise 256x3, softmax 64x64) in one process with NumPy and
with Sluice at several recording thresholds (``set_lazy(True,
min_elements=m)``: the default, 0 = record everything seen before, 4096),
alternating them --rounds times, and then the softmax's five operations
one by one (each followed by ``synchronize()``) next to NumPy's. Prints
the median and the fastest of --reps runs, ms (operations: us).

    python bench/lazy_small.py [--device host] [--rounds 3] [--reps 30]

``--loop NAME N`` instead runs one program of bench/lazy.py (any size,
e.g. "softmax 4096x256") N times at the default threshold and prints its
time per run: the command to run under ``perf record``.
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lazy as programs  # noqa: E402  (bench/lazy.py)

import sluice  # noqa: E402

SMALL = [
    ("black-scholes 2^12", programs.black_scholes, (1 << 12,)),
    ("jacobi 61x61 x100", programs.jacobi, (61,)),
    ("pairwise 256x3", programs.pairwise, (256,)),
    ("softmax 64x64", programs.softmax, (64, 64)),
]
THRESHOLDS = (None, 0, 4096)


def timed(run, reps):
    run()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        run()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts), min(ts)


def per_call_us(fn, n=2000, reps=5):
    fn()
    best = None
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        dt = (time.perf_counter() - t) / n * 1e6
        best = dt if best is None else min(best, dt)
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="host")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--reps", type=int, default=30)
    p.add_argument("--loop", nargs=2, metavar=("NAME", "N"))
    args = p.parse_args()
    dev = sluice.Device(args.device)

    def make(a):
        return sluice.asarray(a, device=dev)

    if args.loop:
        name, n = args.loop[0], int(args.loop[1])
        ((prog, a),) = [
            (f, a) for k, f, a in programs.cases(False) if k == name
        ]
        run, _ = prog(sluice, make, sluice.synchronize, *a)
        for _ in range(10):
            run()
        t = time.perf_counter()
        for _ in range(n):
            run()
        print(f"{name}: {(time.perf_counter() - t) / n * 1e3:.3f} ms a run")
        return

    res = {}
    for _ in range(args.rounds):
        for name, prog, a in SMALL:
            run, _ = prog(np, np.array, lambda: None, *a)
            res.setdefault((name, "numpy"), []).append(timed(run, args.reps))
            for m in THRESHOLDS:
                sluice.set_lazy(True, min_elements=m)
                run, _ = prog(sluice, make, sluice.synchronize, *a)
                res.setdefault((name, m), []).append(timed(run, args.reps))
    sluice.set_lazy(True, min_elements=None)
    print(
        f"device {dev.filter_string}; ms, median (fastest) of "
        f"{args.rounds} x {args.reps} runs; sluice at min_elements ="
    )
    cols = ["numpy"] + [f"{'default' if m is None else m}" for m in THRESHOLDS]
    print(f"{'program':20s}" + "".join(f"{c:>18s}" for c in cols))
    for name, _, _ in SMALL:
        line = f"{name:20s}"
        for k in ("numpy",) + THRESHOLDS:
            v = res[(name, k)]
            med = statistics.median(x[0] for x in v) * 1e3
            best = min(x[1] for x in v) * 1e3
            line += f"  {med:7.3f} ({best:6.3f})"
        print(line)

    # The softmax's operations one by one, eagerly (64x64).
    sluice.set_lazy(False)
    xn = np.random.default_rng(3).standard_normal((64, 64))
    xn = xn.astype(np.float32)
    x = make(xn)
    m = x.max(axis=1, keepdims=True)
    d = x - m
    e = sluice.exp(d)
    s = e.sum(axis=1, keepdims=True)
    mn = xn.max(axis=1, keepdims=True)
    en = np.exp(xn - mn)
    sn = en.sum(axis=1, keepdims=True)
    sync = sluice.synchronize
    ops = [
        (
            "max(axis=1)",
            lambda: (x.max(axis=1, keepdims=True), sync()),
            lambda: xn.max(axis=1, keepdims=True),
        ),
        ("x - m", lambda: (x - m, sync()), lambda: xn - mn),
        ("exp", lambda: (sluice.exp(d), sync()), lambda: np.exp(xn - mn)),
        (
            "sum(axis=1)",
            lambda: (e.sum(axis=1, keepdims=True), sync()),
            lambda: en.sum(axis=1, keepdims=True),
        ),
        ("e / s", lambda: (e / s, sync()), lambda: en / sn),
    ]
    print(
        "\nsoftmax 64x64, eager operations one by one, us (fastest of 5 x "
        "2000 calls)"
    )
    for name, ours, theirs in ops:
        print(
            f"  {name:12s} sluice {per_call_us(ours):7.2f}"
            f"   numpy {per_call_us(theirs):7.2f}"
        )
    sluice.set_lazy(True)


if __name__ == "__main__":
    main()
