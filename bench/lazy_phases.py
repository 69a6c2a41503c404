"""Where one dpnp-style Black-Scholes step spends its host time under lazy
execution: recording its operations, the two flushes (the slice
assignments ``call[:] = ...`` and ``put[:] = ...``) and the final wait.

Times each phase of the step of bench/lazy.py with timers around its
statements, --reps times after a warm-up, and prints the fastest and the
median, microseconds. On a device other than the host (OpenCL's CPU
device here; ``SLUICE_INLINE_LAUNCHES=1`` runs CUDA's inline-launch path)
every operation is recorded, so the recording and flush figures are the
host work a GPU step pays too.

    python bench/lazy_phases.py [--device host] [--n 4096] [--reps 3000]
                                [--no-keep]
"""

import argparse
import statistics
import time

import numpy as np

import sluice


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="host")
    p.add_argument("--n", type=int, default=1 << 12)
    p.add_argument("--reps", type=int, default=3000)
    p.add_argument(
        "--no-keep",
        action="store_true",
        help="flushes do not keep what a later flush computes again",
    )
    args = p.parse_args()
    if args.no_keep:
        sluice._sluice.lazy_tape_keep(False)
    dev = sluice.Device(args.device)
    rng = np.random.default_rng(1)
    n = args.n

    def make(a):
        return sluice.asarray(a.astype(np.float32), device=dev)

    price = make(rng.uniform(10, 50, n))
    strike = make(rng.uniform(10, 50, n))
    t = make(rng.uniform(1, 2, n))
    call = make(np.zeros(n))
    put = make(np.zeros(n))
    rate, vol = 0.1, 0.2
    xp, clock = sluice, time.perf_counter

    def step():
        # bench/lazy.py's black_scholes step, with timers.
        t0 = clock()
        p_s = xp.log(price / strike)
        b = t * rate
        z = t * (vol * vol * 2.0)
        c = 0.25 * z
        y = xp.true_divide(1.0, xp.sqrt(z))
        w1 = (p_s - b + c) * y
        w2 = (p_s - b - c) * y
        d1 = 0.5 + 0.5 * xp.tanh(w1 * 0.7071067811865476)
        d2 = 0.5 + 0.5 * xp.tanh(w2 * 0.7071067811865476)
        se = xp.exp(b) * strike
        r1 = price * d1 - se * d2
        t1 = clock()
        call[:] = r1
        t2 = clock()
        r2 = call - price + se
        t3 = clock()
        put[:] = r2
        t4 = clock()
        return [t0, t1, t2, t3, t4]

    for _ in range(50):
        step()
        sluice.synchronize()
    times = []
    for _ in range(args.reps):
        ts = step()
        sluice.synchronize()
        ts.append(clock())
        times.append([b - a for a, b in zip(ts, ts[1:])] + [ts[-1] - ts[0]])
    names = [
        "record 26 operations",
        "flush 1 (call[:] = ...)",
        "record 2 operations",
        "flush 2 (put[:] = ...)",
        "final wait",
        "the step",
    ]
    print(f"device {dev.filter_string}, n = {n}; us, fastest (median)")
    for i, name in enumerate(names):
        v = [x[i] * 1e6 for x in times]
        print(f"{name:26s} {min(v):8.2f} ({statistics.median(v):8.2f})")


if __name__ == "__main__":
    main()
