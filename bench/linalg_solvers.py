"""sluice.linalg's solvers and factorisations against NumPy, in one run.

    PYTHONPATH=build/python .venv/bin/python bench/linalg_solvers.py
    PYTHONPATH=build/python .venv/bin/python bench/linalg_solvers.py \\
        --device opencl:cpu:0
    python3 bench/linalg_solvers.py --device cuda:gpu:0   # GPU machine

Times (median of --reps after a warm-up that also compiles) of batched
small solves (1000 x 4x4 and 8x8), one 256x256 solve, and batched
Cholesky, eigh, SVD and det, for: NumPy (LAPACK, on host arrays), Sluice
on the given device (on the host device: LAPACK through NumPy on views,
and with --kernels the generated kernels that serve the other devices).
Every result is checked against NumPy before timing. Timings are never
asserted.
"""

import argparse
import statistics
import time

import numpy as np

import sluice
import sluice.linalg as sla


def _spd(rng, shape, dt):
    m = rng.uniform(-1, 1, shape)
    n = shape[-1]
    return (m @ np.swapaxes(m, -1, -2) + n * np.eye(n)).astype(dt)


def _cases(rng, dt):
    """(name, numpy function, sluice function, inputs, check)."""
    out = []
    for batch, n in ((1000, 4), (1000, 8), (1, 256)):
        a = rng.uniform(-1, 1, (batch, n, n)).astype(dt) + n * np.eye(
            n, dtype=dt
        )
        b = rng.uniform(-1, 1, (batch, n, 1)).astype(dt)
        out.append(
            (f"solve {batch} x {n}x{n}", np.linalg.solve, sla.solve, (a, b))
        )
    a = rng.uniform(-1, 1, (1000, 8, 8)).astype(dt) + 8 * np.eye(8, dtype=dt)
    out.append(("det 1000 x 8x8", np.linalg.det, sla.det, (a,)))
    out.append(("inv 1000 x 8x8", np.linalg.inv, sla.inv, (a,)))
    s = _spd(rng, (1000, 8, 8), dt)
    out.append(("cholesky 1000 x 8x8", np.linalg.cholesky, sla.cholesky, (s,)))
    out.append(("eigvalsh 1000 x 8x8", np.linalg.eigvalsh, sla.eigvalsh, (s,)))
    out.append(
        (
            "svdvals 1000 x 8x8",
            lambda x: np.linalg.svd(x, compute_uv=False),
            sla.svdvals,
            (a,),
        )
    )
    return out


def _median(fn, reps):
    fn()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="host")
    p.add_argument("--dtype", default="float64")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument(
        "--kernels",
        action="store_true",
        help="on the host device, the generated kernels instead of LAPACK",
    )
    args = p.parse_args()
    dev = sluice.Device(args.device)
    if args.kernels:
        sla._kernels_on_host = True
    rng = np.random.default_rng(0)
    tol = 1e-3 if args.dtype == "float32" else 1e-8
    print(
        f"device {dev.filter_string}, {args.dtype}"
        + (", kernels" if args.kernels else "")
    )
    print("| case | NumPy (ms) | Sluice (ms) | NumPy / Sluice |")
    print("|---|---:|---:|---:|")
    for name, npf, slf, inputs in _cases(rng, args.dtype):
        xs = [sluice.asarray(x, device=dev) for x in inputs]
        want = npf(*inputs)
        got = sluice.asnumpy(slf(*xs))
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
        tn = _median(lambda: npf(*inputs), args.reps)
        ts = _median(lambda: sluice.asnumpy(slf(*xs)), args.reps)
        print(
            f"| {name} | {tn * 1e3:.3f} | {ts * 1e3:.3f} | {tn / ts:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
