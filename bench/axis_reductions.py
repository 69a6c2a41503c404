"""Reductions along axis 0 and 1 of 2-D arrays, eagerly, next to NumPy.

Times ``x.sum(axis=...)``, ``mean``, ``max`` and ``min`` one call at a
time, each result kept and followed by ``sluice.synchronize()``, on the
default (host) device, and prints the fastest of 5 x N calls in
microseconds with NumPy's in the same process and the ratio (Sluice time /
NumPy time: below 1 means Sluice is faster); bench/RESULTS.md, "Column
reductions on the host".

    python bench/axis_reductions.py [--dtype float32|float64] [--ops sum,max]
        [--shapes 64x256x256,16x1024x64]

Axes 0 and 1 of every shape (of a 3-D shape: the leading and the middle
axis).
"""

import argparse
import time

import numpy as np

import sluice

SHAPES = [
    (64, 64),
    (4096, 256),
    (256, 4096),
    (1024, 1024),
    (100000, 16),
    (16, 100000),
]


def fastest(f, n):
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            r = f()
            sluice.synchronize()
        best = min(best, (time.perf_counter() - t0) / n * 1e6)
    del r
    return best


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dtype", default="float32")
    p.add_argument("--ops", default="sum,mean,max,min")
    p.add_argument("--shapes", default="", help="e.g. 64x256x256,100x7")
    args = p.parse_args()
    shapes = SHAPES
    if args.shapes:
        shapes = [
            tuple(int(d) for d in s.split("x")) for s in args.shapes.split(",")
        ]
    ops = args.ops.split(",")
    print(
        f"us per call, fastest of 5 batches ({args.dtype}): "
        "sluice / numpy (ratio)"
    )
    for shape in shapes:
        a = np.random.default_rng(0).standard_normal(shape)
        a = a.astype(args.dtype)
        x = sluice.asarray(a)
        n = 2000 if a.size <= 4096 else 50
        cells = []
        for axis in (0, 1):
            for op in ops:
                s = fastest(lambda: getattr(x, op)(axis=axis), n)
                m = fastest(lambda: getattr(a, op)(axis=axis), n)
                cells.append(
                    f"{op}({axis}) {s:7.1f} / {m:7.1f} ({s / m:4.2f})"
                )
        print(f"{str(shape):13s}", "  ".join(cells))


if __name__ == "__main__":
    main()
