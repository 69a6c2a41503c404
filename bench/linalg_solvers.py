"""sluice.linalg's solvers and factorisations against NumPy, in one run.

    PYTHONPATH=build/python .venv/bin/python bench/linalg_solvers.py
    PYTHONPATH=build/python .venv/bin/python bench/linalg_solvers.py \\
        --device opencl:cpu:0
    python3 bench/linalg_solvers.py --device cuda:gpu:0   # GPU machine
    python3 bench/linalg_solvers.py --device cuda:gpu:0 --peers

With --peers (a CUDA device, CuPy and PyTorch installed): solve,
cholesky, qr, eigh, svd and eig at n = 16, 32, 64, 512, 2048 and a batch
of 1000 16x16 matrices, float32, through Sluice (as routed: cuSOLVER from
_cusolver.MIN_ORDER and for batches up to BATCHED_MAX_N where it has a
batched routine, the generated kernels elsewhere and for eig), CuPy and
PyTorch, each waited for on its own stream; and up to n = 64 Sluice's
generated kernels only and cuSOLVER only, which place the thresholds.

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


def _gpu_cases(rng, n, batch):
    """(name, inputs, {library: function}) for the --peers table."""
    import cupy as cp
    import torch

    shape = (batch, n, n) if batch > 1 else (n, n)
    a = rng.uniform(-1, 1, shape).astype(np.float32) + n * np.eye(
        n, dtype=np.float32
    )
    b = rng.uniform(-1, 1, shape[:-1] + (1,)).astype(np.float32)
    m = rng.uniform(-1, 1, shape).astype(np.float32)
    s = (m @ np.swapaxes(m, -1, -2) + n * np.eye(n)).astype(np.float32)
    g = rng.uniform(-1, 1, shape).astype(np.float32)
    ceig = getattr(cp.linalg, "eig", None)
    red = {"full_matrices": False}
    return [
        ("solve", (a, b), (sla.solve, cp.linalg.solve, torch.linalg.solve)),
        (
            "cholesky",
            (s,),
            (sla.cholesky, cp.linalg.cholesky, torch.linalg.cholesky),
        ),
        ("qr", (g,), (sla.qr, cp.linalg.qr, torch.linalg.qr)),
        ("eigh", (s,), (sla.eigh, cp.linalg.eigh, torch.linalg.eigh)),
        (
            "svd",
            (g,),
            (
                lambda x: sla.svd(x, **red),
                lambda x: cp.linalg.svd(x, **red),
                lambda x: torch.linalg.svd(x, **red),
            ),
        ),
        ("eig", (g,), (sla.eig, ceig, torch.linalg.eig)),
    ]


def _timed(fn, sync, reps, budget=20.0):
    """Median seconds of fn() then sync(), or None past budget s."""
    t = time.perf_counter()
    fn()
    sync()
    first = time.perf_counter() - t
    if first > budget:
        return first
    ts = []
    for _ in range(reps if first * reps < budget else 1):
        t = time.perf_counter()
        fn()
        sync()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def _routed(fn, sync, reps, min_n, batched_max):
    """_timed with cuSOLVER's thresholds set to (min_n, batched_max)."""
    from sluice import _cusolver

    old = _cusolver.MIN_ORDER, _cusolver.BATCHED_MAX_N
    _cusolver.MIN_ORDER = dict.fromkeys(old[0], min_n)
    _cusolver.BATCHED_MAX_N = batched_max
    try:
        return _timed(fn, sync, reps)
    finally:
        _cusolver.MIN_ORDER, _cusolver.BATCHED_MAX_N = old


def _peer_row(label, name, n, fns, arrays, q, reps):
    """The table's row of one case: Sluice as routed, its kernels only
    and cuSOLVER only (small orders), CuPy, PyTorch."""
    import cupy as cp
    import torch

    (sf, cf, tf), (xs, cs, ts_) = fns, arrays
    row = [_timed(lambda: sf(*xs), q.wait, reps)]
    small = n <= 64 and name != "eig"
    big = 1 << 40
    row.append(
        _routed(lambda: sf(*xs), q.wait, reps, big, 0) if small else None
    )
    row.append(
        _routed(lambda: sf(*xs), q.wait, reps, 1, 32) if small else None
    )
    sync_c = cp.cuda.Device().synchronize
    row.append(_timed(lambda: cf(*cs), sync_c, reps) if cf else None)
    try:
        row.append(_timed(lambda: tf(*ts_), torch.cuda.synchronize, reps))
    except Exception:  # noqa: BLE001 (a peer that lacks the case)
        row.append(None)
    peers = [t for t in row[3:] if t]
    ratio = f"{min(peers) / row[0]:.2f}" if peers else ""
    cells = [f"{t * 1e3:.2f}" if t else "" for t in row]
    print(f"| {label} | " + " | ".join(cells) + f" | {ratio} |", flush=True)
    return row[0]


def gpu_peers(dev, reps):
    import cupy as cp
    import torch

    from sluice import _cusolver

    rng = np.random.default_rng(0)
    q = dev.sycl_queue
    print(
        f"device {dev.filter_string}, float32; cuSOLVER "
        f"{_cusolver.library_path()} from orders {_cusolver.MIN_ORDER}, "
        f"batches up to {_cusolver.BATCHED_MAX_N}"
    )
    print(
        "| case | Sluice (ms) | Sluice kernels (ms) | Sluice cuSOLVER (ms) "
        "| CuPy (ms) | PyTorch (ms) | best peer / Sluice |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    sizes = [(16, 1), (32, 1), (64, 1), (512, 1), (2048, 1), (16, 1000)]
    eig64 = 1.0
    for n, batch in sizes:
        for name, inputs, fns in _gpu_cases(rng, n, batch):
            label = (
                f"{name} {batch} x {n}x{n}" if batch > 1 else f"{name} {n}x{n}"
            )
            if name == "eig" and (n > 512 or n == 512 and eig64 * 100 > 60):
                print(f"| {label} | not run (over a minute) | | | | | |")
                continue
            arrays = (
                [sluice.asarray(x, device=dev) for x in inputs],
                [cp.asarray(x) for x in inputs],
                [torch.from_numpy(x).cuda() for x in inputs],
            )
            try:
                t = _peer_row(label, name, n, fns, arrays, q, reps)
            except Exception as e:  # noqa: BLE001 (reported in the table)
                print(f"| {label} | failed: {type(e).__name__}: {e} ||||||")
                continue
            if name == "eig" and n == 64:
                eig64 = t


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
    p.add_argument(
        "--peers",
        action="store_true",
        help="a CUDA device: the table against CuPy and PyTorch",
    )
    args = p.parse_args()
    dev = sluice.Device(args.device)
    if args.peers:
        gpu_peers(dev, args.reps)
        return
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
