"""Pairwise distances written the dpnp way, lazily recorded, eagerly run
and under @sluice.jit, on one device: the reduction over rows of 3
coordinates (static short rows, ShortRowLowering.cpp). Prints ms per call
(medians of --reps calls, each synchronised) and whether the three agree.

    python bench/lazy_rows.py [--device cuda:gpu:0] [--reps 30]
"""

import argparse
import time

import numpy as np

import sluice


def pairwise(p):
    d = p[:, None, :] - p[None, :, :]
    return sluice.sqrt((d * d).sum(axis=-1))


def timed(fn, p, reps):
    r = fn(p)
    r.asnumpy()
    ts = []
    for _ in range(reps):
        sluice.synchronize()
        t0 = time.perf_counter()
        r = fn(p)
        sluice.synchronize()
        ts.append(time.perf_counter() - t0)
    return 1e3 * float(np.median(ts)), r


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="host:cpu:0")
    ap.add_argument("--reps", type=int, default=30)
    args = ap.parse_args()
    rng = np.random.default_rng(2)
    jitted = sluice.jit(pairwise)
    for n in (256, 2048):
        pts = sluice.asarray(
            rng.standard_normal((n, 3)).astype(np.float32), device=args.device
        )
        tl, rl = timed(pairwise, pts, args.reps)
        tj, rj = timed(jitted, pts, args.reps)
        previous = sluice.set_lazy(False)
        te, re = timed(pairwise, pts, args.reps)
        sluice.set_lazy(previous)
        same = np.allclose(rl.asnumpy(), rj.asnumpy(), rtol=1e-5, atol=1e-5)
        same &= np.allclose(re.asnumpy(), rj.asnumpy(), rtol=1e-5, atol=1e-5)
        print(
            f"pairwise {n}x3 on {args.device}: lazy {tl:.3f} ms, eager "
            f"{te:.3f} ms, @sluice.jit {tj:.3f} ms, results agree: {same}"
        )


if __name__ == "__main__":
    main()
