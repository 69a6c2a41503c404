"""Single max/min/sum reductions, eagerly, next to NumPy's.

Times ``x.max(axis=...)`` and its kind one call at a time, each followed
by ``sluice.synchronize()``, on the default (host) device, and prints the
fastest of 5 x N calls in microseconds (bench/RESULTS.md, "Vectorised
max/min reductions on the host").

    python bench/max_min_ops.py
"""

import time

import numpy as np

import sluice

SHAPES = [(64, 64), (4096, 256), (256, 4096)]


def fastest(f, n):
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            f()
            sluice.synchronize()
        best = min(best, (time.perf_counter() - t0) / n * 1e6)
    return best


def main():
    for shape in SHAPES:
        a = np.random.default_rng(0).standard_normal(shape)
        a = a.astype(np.float32)
        x = sluice.asarray(a)
        n = 2000 if shape[0] * shape[1] <= 4096 else 50
        ops = {}
        for axis in (1, 0, None):
            ops[f"sum({axis})"] = lambda axis=axis: x.sum(axis=axis)
            ops[f"max({axis})"] = lambda axis=axis: x.max(axis=axis)
            ops[f"min({axis})"] = lambda axis=axis: x.min(axis=axis)
            ops[f"np.max({axis})"] = lambda axis=axis: a.max(axis=axis)
        row = " ".join(f"{k} {fastest(f, n):7.1f}" for k, f in ops.items())
        print(shape, row)


if __name__ == "__main__":
    main()
