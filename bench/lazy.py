"""Lazy execution: dpnp-style eager programs fused without a decorator.

Runs each program written the way dpnp code is written (many small array
operations, slices, no decorator) with Sluice's lazy execution on and off, next
to NumPy, numexpr and Numba (where installed, bench/requirements.txt) and dpnp
itself (--dpnp-python, see bench/run-eager.sh), CuPy, PyTorch eager and
torch.compile on a CUDA device (bench/lazy_torch.py), in one run, and prints
milliseconds per run with ratios (peer time / Sluice lazy time: above 1 means
Sluice is faster) and what lazy execution fused.

Programs: Black-Scholes (2**20 and 2**12 options), a 2-D Jacobi step with
slices (61x61 and 1024x1024, 100 iterations), pairwise distances with
broadcasting (2048 points x 3 and 256 x 3), a softmax over rows (4096 x
256, 1024 x 1024 and 64 x 64).

    python bench/lazy.py [--device host] [--reps 5] [--quick]
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np


# --- the programs, written once for any array module ------------------------


def black_scholes(xp, make, sync, n):
    rng = np.random.default_rng(1)
    price = make(rng.uniform(10, 50, n).astype(np.float32))
    strike = make(rng.uniform(10, 50, n).astype(np.float32))
    t = make(rng.uniform(1, 2, n).astype(np.float32))
    call = make(np.zeros(n, np.float32))
    put = make(np.zeros(n, np.float32))
    rate, vol = 0.1, 0.2

    def step():
        # dpnp's Black-Scholes example, operation by operation, in a
        # function as real code has it (its locals end with it).
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
        call[:] = price * d1 - se * d2
        put[:] = call - price + se

    def run():
        step()
        sync()

    run.step, run.repeat = step, 1  # one step of the run, for compilers
    return run, lambda: (call, put)


def jacobi(xp, make, sync, n, iters=100):
    u0 = np.zeros((n, n), np.float32)
    u0[0, :] = 1.0
    u = make(u0)

    def step():
        u[1:-1, 1:-1] = 0.25 * (
            u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
        )

    def run():
        for _ in range(iters):
            step()
        sync()

    run.step, run.repeat = step, iters
    return run, lambda: (u,)


def pairwise(xp, make, sync, n):
    rng = np.random.default_rng(2)
    pts = make(rng.standard_normal((n, 3)).astype(np.float32))
    out = [None]

    def run():
        x = pts[:, None, :]
        y = pts[None, :, :]
        d = x - y
        out[0] = xp.sqrt((d * d).sum(axis=-1))
        sync()

    return run, lambda: (out[0],)


def softmax(xp, make, sync, rows, cols):
    rng = np.random.default_rng(3)
    x = make(rng.standard_normal((rows, cols)).astype(np.float32))
    out = [None]

    def run():
        m = x.max(axis=1, keepdims=True)
        e = xp.exp(x - m)
        out[0] = e / e.sum(axis=1, keepdims=True)
        sync()

    return run, lambda: (out[0],)


_ONLY = None  # --only: a substring of the programs to run


def cases(quick):
    c = [
        ("black-scholes 2^20", black_scholes, (1 << 20,)),
        ("black-scholes 2^12", black_scholes, (1 << 12,)),
        ("jacobi 61x61 x100", jacobi, (61,)),
        ("pairwise 256x3", pairwise, (256,)),
        ("softmax 64x64", softmax, (64, 64)),
    ]
    if not quick:
        c += [
            ("jacobi 1024x1024 x100", jacobi, (1024,)),
            ("pairwise 2048x3", pairwise, (2048,)),
            ("softmax 4096x256", softmax, (4096, 256)),
            ("softmax 1024x1024", softmax, (1024, 1024)),
        ]
    if _ONLY:
        c = [x for x in c if _ONLY in x[0]]
    return c


_STAT = "median"  # --stat: "median" or "min" of the timed runs


def time_run(run, reps):
    run()  # compiles (sluice) or warms caches
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        run()
        ts.append(time.perf_counter() - t)
    return min(ts) if _STAT == "min" else sorted(ts)[len(ts) // 2]


def module_for(name, device):
    """(xp, make, sync, to_numpy) for one column."""
    if name.startswith("sluice"):
        import sluice

        dev = sluice.Device(device)
        return (
            sluice,
            lambda a: sluice.asarray(a, device=dev),
            sluice.synchronize,
            sluice.asnumpy,
        )
    if name == "cupy":
        import cupy

        return (
            cupy,
            cupy.asarray,
            cupy.cuda.Device().synchronize,
            cupy.asnumpy,
        )
    if name == "dpnp":
        import dpctl
        import dpnp

        q = dpctl.SyclQueue()
        return (
            dpnp,
            lambda a: dpnp.asarray(a, sycl_queue=q),
            q.wait,
            dpnp.asnumpy,
        )
    return np, np.array, lambda: None, np.asarray


def column(name, device, reps, quick):
    xp, make, sync, to_np = module_for(name, device)
    if name.startswith("sluice"):
        import sluice

        sluice.set_lazy(name == "sluice")
    out = {}
    for label, prog, args in cases(quick):
        run, results = prog(xp, make, sync, *args)
        out[label] = time_run(
            run, reps if "1024" not in label else max(reps // 2, 1)
        )
    return out


def check_same(device, quick):
    """Lazy and eager Sluice give NumPy's results (largest relative
    difference per program)."""
    import sluice

    diffs = {}
    for label, prog, args in cases(quick):
        ref_run, ref = prog(np, np.array, lambda: None, *args)
        ref_run()
        for lazy in (True, False):
            sluice.set_lazy(lazy)
            dev = sluice.Device(device)
            run, res = prog(
                sluice,
                lambda a: sluice.asarray(a, device=dev),
                sluice.synchronize,
                *args,
            )
            run()
            d = 0.0
            for a, b in zip(res(), ref()):
                a = sluice.asnumpy(a).astype(np.float64)
                b = np.asarray(b, np.float64)
                d = max(
                    d,
                    float(
                        np.max(np.abs(a - b))
                        / max(float(np.max(np.abs(b))), 1e-30)
                    ),
                )
            diffs[(label, lazy)] = d
    sluice.set_lazy(True)
    return diffs


# --- peers that are not array modules ---------------------------------------


def numexpr_column(reps):
    try:
        import numexpr as ne
    except ImportError:
        return {}
    out = {}
    for n, label in (
        (1 << 20, "black-scholes 2^20"),
        (1 << 12, "black-scholes 2^12"),
    ):
        rng = np.random.default_rng(1)
        price = rng.uniform(10, 50, n).astype(np.float32)
        strike = rng.uniform(10, 50, n).astype(np.float32)
        t = rng.uniform(1, 2, n).astype(np.float32)
        call = np.zeros(n, np.float32)
        put = np.zeros(n, np.float32)

        names = {"price": price, "strike": strike, "t": t, "call": call}

        def run():
            ne.evaluate(
                "price * (0.5 + 0.5 * tanh((log(price / strike) - t * 0.1 + "
                "0.25 * t * 0.08) / sqrt(t * 0.08) * 0.7071067811865476)) - "
                "exp(t * 0.1) * strike * (0.5 + 0.5 * tanh((log(price / "
                "strike) - t * 0.1 - 0.25 * t * 0.08) / sqrt(t * 0.08) * "
                "0.7071067811865476))",
                local_dict=names,
                out=call,
            )
            ne.evaluate(
                "call - price + exp(t * 0.1) * strike",
                local_dict=names,
                out=put,
            )

        out[label] = time_run(run, reps)
    return out


def numba_column(reps, quick):
    try:
        import numba
    except ImportError:
        return {}
    out = {}

    @numba.njit(parallel=True, fastmath=False)
    def bs(price, strike, t, call, put):
        for i in numba.prange(price.shape[0]):
            p_s = np.log(price[i] / strike[i])
            b = t[i] * np.float32(0.1)
            z = t[i] * np.float32(0.08)
            c = np.float32(0.25) * z
            y = np.float32(1.0) / np.sqrt(z)
            w1 = (p_s - b + c) * y
            w2 = (p_s - b - c) * y
            d1 = np.float32(0.5) + np.float32(0.5) * np.tanh(
                w1 * np.float32(0.7071067811865476)
            )
            d2 = np.float32(0.5) + np.float32(0.5) * np.tanh(
                w2 * np.float32(0.7071067811865476)
            )
            se = np.exp(b) * strike[i]
            call[i] = price[i] * d1 - se * d2
            put[i] = call[i] - price[i] + se

    for n, label in (
        (1 << 20, "black-scholes 2^20"),
        (1 << 12, "black-scholes 2^12"),
    ):
        rng = np.random.default_rng(1)
        a = [
            rng.uniform(10, 50, n).astype(np.float32),
            rng.uniform(10, 50, n).astype(np.float32),
            rng.uniform(1, 2, n).astype(np.float32),
            np.zeros(n, np.float32),
            np.zeros(n, np.float32),
        ]
        out[label] = time_run(lambda: bs(*a), reps)

    @numba.njit(parallel=True)
    def step(u, v):
        n = u.shape[0]
        for i in numba.prange(1, n - 1):
            for j in range(1, n - 1):
                v[i, j] = np.float32(0.25) * (
                    u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1]
                )

    for n in (61,) + (() if quick else (1024,)):
        u = np.zeros((n, n), np.float32)
        u[0, :] = 1.0
        v = u.copy()

        def run(u=u, v=v):
            for _ in range(50):
                step(u, v)
                step(v, u)

        out[f"jacobi {n}x{n} x100"] = time_run(run, reps)
    return out


def fmt_ratio(peer, ours):
    if peer is None or ours is None or ours <= 0:
        return "-"
    return f"{peer / ours:.2f}x"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="host")
    p.add_argument("--reps", type=int, default=7)
    p.add_argument(
        "--quick",
        action="store_true",
        help="only the small sizes (and one 2^20 case)",
    )
    p.add_argument("--dpnp-python", default=os.environ.get("DPNP_PYTHON"))
    p.add_argument("--only", help="run the programs whose name has this")
    p.add_argument(
        "--stat",
        choices=["median", "min"],
        default="median",
        help="report the median (default) or the fastest of the runs "
        "(steadier on a shared machine)",
    )
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args()
    global _ONLY, _STAT
    _ONLY = args.only
    _STAT = args.stat
    if args.worker:
        json.dump(
            column(args.worker, args.device, args.reps, args.quick), sys.stdout
        )
        return

    import sluice

    print(
        f"device {sluice.Device(args.device).filter_string}, "
        f"{os.cpu_count()} cores, numpy {np.__version__}"
    )
    cols = {}
    cols["sluice"] = column("sluice", args.device, args.reps, args.quick)
    sluice.lazy_report(reset=True)
    cols["sluice"] = column("sluice", args.device, args.reps, args.quick)
    report = sluice.lazy_report()
    cols["eager"] = column("sluice-eager", args.device, args.reps, args.quick)
    sluice.set_lazy(True)
    cols["numpy"] = column("numpy", args.device, args.reps, args.quick)
    if args.device.startswith("cuda"):
        # CuPy eager on the same GPU: dpnp's model, one kernel per operation.
        try:
            cols["cupy"] = column("cupy", args.device, args.reps, args.quick)
        except Exception as e:  # noqa: BLE001 - the peer may be missing
            print(f"cupy peer failed: {e}")
        # PyTorch eager and torch.compile (bench/lazy_torch.py).
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import lazy_torch

        programs = {label: (f, a) for label, f, a in cases(args.quick)}
        cols.update(
            lazy_torch.columns(
                list(cols["sluice"]), args.reps, time_run, programs
            )
        )
    cols["numexpr"] = numexpr_column(args.reps)
    cols["numba"] = numba_column(args.reps, args.quick)
    if args.dpnp_python:
        cmd = [
            args.dpnp_python,
            __file__,
            "--worker",
            "dpnp",
            "--reps",
            str(args.reps),
        ] + (["--quick"] if args.quick else [])
        try:
            cols["dpnp"] = json.loads(
                subprocess.run(
                    cmd,
                    capture_output=True,
                    text=True,
                    timeout=1800,
                    check=True,
                ).stdout
            )
        except (subprocess.SubprocessError, ValueError) as e:
            print(f"dpnp peer failed: {e}")

    print("\nms per run (ratio: that column's time / sluice lazy time)")
    peers = [k for k in cols if k != "sluice"]
    head = f"{'program':24s} {'sluice':>9s}"
    for k in peers:
        head += f" {k:>9s} {'ratio':>7s}"
    print(head)
    for label, ours in cols["sluice"].items():
        line = f"{label:24s} {ours * 1e3:9.3f}"
        for k in peers:
            t = cols[k].get(label)
            line += (
                f" {t * 1e3:9.3f} {fmt_ratio(t, ours):>7s}"
                if t
                else f" {'-':>9s} {'-':>7s}"
            )
        print(line)
    print(
        "\nlazy execution in the timed runs: "
        f"{report.get('recorded', 0)} operations recorded, "
        f"{report.get('graphs submitted', 0)} graphs submitted "
        f"({report.get('operations submitted', 0)} operations in them), "
        f"{report.get('programs compiled', 0)} programs compiled, "
        f"{report.get('programs reused', 0)} reused"
    )
    print(f"graph boundaries: {report.get('boundaries')}")
    diffs = check_same(args.device, args.quick)
    worst = max(diffs, key=diffs.get)
    print(
        "largest difference from NumPy, relative to the largest value "
        f"(lazy and eager): {diffs[worst]:.2e} ({worst[0]}, "
        f"{'lazy' if worst[1] else 'eager'})"
    )


if __name__ == "__main__":
    main()
