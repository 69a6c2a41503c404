"""Reductions over short rows, compiled with static shapes (sluice.jit):
pairwise distances over 3 coordinates and a row maximum over 4 columns,
against NumPy. Run it against two builds in one go to compare them:

    .venv/bin/python bench/short_rows.py --build build --build /work/main/build

prints ms per call (minimum of --reps timed calls after a warm-up)."""

import argparse
import os
import subprocess
import sys
import time

import numpy as np


def cases():
    rng = np.random.default_rng(1)
    for n in (256, 2048):
        yield f"pairwise {n}x3", "pairwise", rng.standard_normal((n, 3))
    yield "row max 1e6x4", "rowmax", rng.standard_normal((1 << 20, 4))


def numpy_fn(kind):
    if kind == "pairwise":

        def f(x):
            d = x[:, None, :] - x[None, :, :]
            return np.sqrt((d * d).sum(axis=-1))

    else:

        def f(x):
            return (x * 2.0).max(axis=1) + 1.0

    return f


def sluice_fn(kind):
    import sluice

    if kind == "pairwise":

        @sluice.jit
        def f(x):
            d = x[:, None, :] - x[None, :, :]
            return sluice.sqrt((d * d).sum(axis=-1))

    else:

        @sluice.jit
        def f(x):
            return (x * 2.0).max(axis=1) + 1.0

    return f


def best(call, reps):
    call()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        call()
        times.append(time.perf_counter() - t)
    return min(times) * 1e3


def worker(reps):
    import sluice

    for name, kind, data in cases():
        x = data.astype(np.float32)
        a = sluice.asarray(x, device="host")
        f = sluice_fn(kind)
        t = best(lambda: f(a).asnumpy(), reps)
        n = best(lambda: numpy_fn(kind)(x), reps)
        print(f"{name}\t{t:.4f}\t{n:.4f}", flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", action="append", default=[])
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--worker", action="store_true")
    args = p.parse_args()
    if args.worker:
        worker(args.reps)
        return
    builds = args.build or ["build"]
    rows = {}
    for b in builds:
        env = dict(os.environ, PYTHONPATH=os.path.join(b, "python"))
        out = subprocess.run(
            [sys.executable, __file__, "--worker", "--reps", str(args.reps)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for line in out.splitlines():
            name, t, n = line.split("\t")
            rows.setdefault(name, {"numpy": n})[b] = t
    head = "ms per call".ljust(20) + "".join(b[-24:].rjust(26) for b in builds)
    print(head + "numpy".rjust(10))
    for name, r in rows.items():
        print(
            name.ljust(20)
            + "".join(r[b].rjust(26) for b in builds)
            + r["numpy"].rjust(10)
        )


if __name__ == "__main__":
    main()
