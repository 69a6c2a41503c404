"""Eager indexing against NumPy: mask compaction, random gather, masked
assignment, concatenate (float32, medians of --reps runs, ms).

    PYTHONPATH=build/python .venv/bin/python bench/indexing.py [--n 2**24]
        [--device host]
"""

import argparse
import time

import numpy as np

import sluice


def median_ms(f, reps):
    f()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    return 1e3 * sorted(ts)[len(ts) // 2]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", default="2**24")
    p.add_argument("--device", default="host")
    p.add_argument("--reps", type=int, default=5)
    a = p.parse_args()
    n = int(eval(a.n))
    rng = np.random.default_rng(0)
    k = rng.random(n, dtype=np.float32)
    idx = rng.integers(0, n, n)
    dk = sluice.asarray(k, device=a.device)
    didx = sluice.asarray(idx, device=a.device)
    q = dk.sycl_queue
    cases = [
        ("k[k > 0.5]", lambda: k[k > 0.5], lambda: (dk[dk > 0.5], q.wait())),
        (
            "k[idx] (random gather)",
            lambda: k[idx],
            lambda: (dk[didx], q.wait()),
        ),
        (
            "k[k > 0.5] = 0",
            lambda: k.__setitem__(k > 0.5, 0),
            lambda: (dk.__setitem__(dk > 0.5, 0), q.wait()),
        ),
        (
            "concatenate([k, k])",
            lambda: np.concatenate([k, k]),
            lambda: (sluice.concatenate([dk, dk]), q.wait()),
        ),
        (
            "flip(k) copy",
            lambda: np.flip(k).copy(),
            lambda: (sluice.flip(dk) + 0, q.wait()),
        ),
    ]
    m = int(round(np.sqrt(n)))
    u = rng.random((m, m), dtype=np.float32)
    du = sluice.asarray(u, device=a.device)

    def np_jacobi():
        u[1:-1, 1:-1] = 0.25 * (
            u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
        )

    @sluice.jit
    def jacobi(u):
        u[1:-1, 1:-1] = 0.25 * (
            u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
        )
        return u

    cases.append(
        (f"jit Jacobi step {m}^2", np_jacobi, lambda: (jacobi(du), q.wait()))
    )
    print(f"n = {n}, device {a.device}; ms (median of {a.reps})")
    print(f"{'case':28s} {'numpy':>9s} {'sluice':>9s} {'ratio':>7s}")
    for name, fn, fs in cases:
        tn, ts = median_ms(fn, a.reps), median_ms(fs, a.reps)
        print(f"{name:28s} {tn:9.2f} {ts:9.2f} {tn / ts:7.2f}")


if __name__ == "__main__":
    main()
