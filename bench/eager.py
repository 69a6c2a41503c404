"""The Python execution path as dpnp users write it: eager operations.

Prints one table per group, Sluice next to its peers measured in the same
run, with ratios (peer time / Sluice time: above 1 means Sluice is faster):

- per-operation cost of `a*b`, a sliced add, `sum`, a slice assignment and
  `+=` at n = 16, 3721 and 2**20: in a loop of --loop operations
  synchronised once at the end (what the caller pays), and synchronised
  after every operation (end to end);
- a jitted `a*b` at 2**20 (GB/s);
- a 2-D Jacobi stencil written with slices (61x61 and 1024x1024, 100
  iterations) and a Black-Scholes step written eagerly (2**20 options);
- RSS over 10,000 eager operations and jitted calls.

Peers: NumPy, numexpr and Numba where installed (bench/requirements.txt),
CuPy and PyTorch eager when --device is a CUDA device,
and dpnp itself when a peer environment exists (--dpnp-python: a Python
with dpnp, see ../shared/bench-anchors/dpnp-peer.md; this script runs
itself there with --worker dpnp and reads its figures).

    python bench/eager.py [--device host] [--quick]
"""

import argparse
import gc
import json
import os
import subprocess
import sys
import time

import numpy as np

SIZES = (16, 3721, 1 << 20)


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


class Backend:
    """What a case needs of an array library."""

    def __init__(self, name, xp, make, sync):
        self.name = name
        self.xp = xp
        self.make = make  # numpy array -> library array
        self.sync = sync  # waits for pending work


def sluice_backend(device):
    import sluice

    q = sluice.Device(device).sycl_queue
    return Backend(
        "sluice", sluice, lambda a: sluice.asarray(a, device=device), q.wait
    )


def numpy_backend():
    return Backend("numpy", np, lambda a: a.copy(), lambda: None)


def dpnp_backend():
    import dpnp
    import dpctl

    q = dpctl.SyclQueue("cpu")
    return Backend(
        "dpnp", dpnp, lambda a: dpnp.asarray(a, sycl_queue=q), q.wait
    )


def cupy_backend():
    import cupy

    return Backend(
        "cupy",
        cupy,
        cupy.asarray,
        lambda: cupy.cuda.Device().synchronize(),
    )


def torch_backend():
    import torch

    return Backend(
        "torch",
        torch,
        lambda a: torch.from_numpy(a).to("cuda"),
        torch.cuda.synchronize,
    )


GPU_PEERS = ("cupy", "torch")


# --- per-operation cases -------------------------------------------------


def op_cases(b, n):
    rng = np.random.default_rng(0)
    a = b.make(rng.standard_normal(n).astype(np.float32))
    c = b.make(rng.standard_normal(n).astype(np.float32))
    d = b.make(np.zeros(n, np.float32))

    def mul():
        return a * c

    def sliced():
        return a[1:-1] + c[:-2]

    def total():
        return a.sum()

    def setslice():
        d[1:-1] = c[:-2]

    def iadd():
        nonlocal d
        d += c

    def fill():
        d[1:-1] = 0.5

    def isub():
        nonlocal d
        d -= 1.5

    return {
        "a*b": mul,
        "a[1:-1]+b[:-2]": sliced,
        "a.sum()": total,
        "a[1:-1] = b[:-2]": setslice,
        "a += b": iadd,
        "a[1:-1] = 0.5": fill,
        "a -= 1.5": isub,
    }


def time_ops(b, n, loop, reps):
    out = {}
    for name, fn in op_cases(b, n).items():
        calls = loop if n < (1 << 20) else max(loop // 20, 10)
        for _ in range(3):
            fn()
        b.sync()
        # One untimed round of both timed loops too: with lazy execution
        # their structures (`calls` results alive at once; one result
        # synchronised at a time) are compiled here, not in the first
        # timed round.
        warm = [fn() for _ in range(calls)]
        b.sync()
        del warm
        if n < (1 << 20):
            for _ in range(calls // 4):
                r = fn()
                b.sync()
            del r
        caller, e2e = [], []
        for _ in range(reps):
            # Every result stays alive until the synchronisation: with
            # lazy execution a result nobody holds is never computed, which
            # would time fewer operations than the peers do.
            kept = []
            t = time.perf_counter()
            for _ in range(calls):
                kept.append(fn())
            b.sync()
            caller.append((time.perf_counter() - t) / calls)
            del kept
            if n < (1 << 20):
                t = time.perf_counter()
                for _ in range(calls // 4):
                    r = fn()
                    b.sync()
                e2e.append((time.perf_counter() - t) / (calls // 4))
                del r
        out[name] = (median(caller) * 1e6, median(e2e) * 1e6 if e2e else None)
    return out


# --- programs ------------------------------------------------------------


def jacobi(b, n, iters):
    u0 = np.zeros((n, n), np.float32)
    u0[0, :] = 1.0
    u = b.make(u0)
    b.sync()

    def run():
        for _ in range(iters):
            u[1:-1, 1:-1] = 0.25 * (
                u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
            )
        b.sync()

    return run


def black_scholes(b, n):
    xp = b.xp
    rng = np.random.default_rng(1)
    price = b.make(rng.uniform(10, 50, n).astype(np.float32))
    strike = b.make(rng.uniform(10, 50, n).astype(np.float32))
    t = b.make(rng.uniform(1, 2, n).astype(np.float32))
    call = b.make(np.zeros(n, np.float32))
    put = b.make(np.zeros(n, np.float32))
    rate, vol = 0.1, 0.2

    def cnd(x):
        # Abramowitz-Stegun 26.2.17, as the classic benchmark writes it.
        k = 1.0 / (1.0 + 0.2316419 * xp.abs(x))
        poly = k * (
            0.31938153
            + k
            * (
                -0.356563782
                + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))
            )
        )
        w = 1.0 - 0.3989422804014327 * xp.exp(-0.5 * x * x) * poly
        return xp.where(x < 0, 1.0 - w, w)

    def run():
        sqrt_t = xp.sqrt(t)
        d1 = (xp.log(price / strike) + (rate + 0.5 * vol * vol) * t) / (
            vol * sqrt_t
        )
        d2 = d1 - vol * sqrt_t
        e = strike * xp.exp(-rate * t)
        call[:] = price * cnd(d1) - e * cnd(d2)
        put[:] = e * cnd(-d2) - price * cnd(-d1)
        b.sync()

    return run


def time_run(run, reps):
    # Three untimed runs: lazy execution settles a loop body's structure
    # (small operations seen twice, values two flushes need kept) by its
    # third run, and each new structure compiles once.
    for _ in range(3):
        run()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        run()
        ts.append(time.perf_counter() - t)
    return median(ts)


def programs(b, reps, quick):
    out = {}
    out["jacobi 61x61 x100"] = time_run(jacobi(b, 61, 100), reps)
    if not quick:
        out["jacobi 1024x1024 x100"] = time_run(
            jacobi(b, 1024, 100), max(reps // 2, 1)
        )
    out["black-scholes 2^20"] = time_run(black_scholes(b, 1 << 20), reps)
    return out


def rss_curve(b, n, iters):
    a = b.make(np.ones(n, np.float32))
    c = b.make(np.ones(n, np.float32))
    points = []
    for i in range(iters):
        r = a * c
        r += 1.0
        if i % (iters // 5) == 0 or i == iters - 1:
            b.sync()
            gc.collect()
            points.append(round(rss_mb(), 1))
    del r
    return points


def worker(name, device, args):
    b = {
        "sluice": lambda: sluice_backend(device),
        "numpy": numpy_backend,
        "dpnp": dpnp_backend,
        "cupy": cupy_backend,
        "torch": torch_backend,
    }[name]()
    res = {"ops": {}, "programs": programs(b, args.reps, args.quick)}
    for n in SIZES:
        res["ops"][n] = time_ops(b, n, args.loop, args.reps)
    return res


# --- peers of the programs that are not array libraries --------------------


def numexpr_programs(reps, quick):
    try:
        import numexpr as ne
    except ImportError:
        return {}
    out = {}

    def jac(n):
        u = np.zeros((n, n), np.float32)
        u[0, :] = 1.0

        def run():
            for _ in range(100):
                up, dn = u[:-2, 1:-1], u[2:, 1:-1]
                lf, rt = u[1:-1, :-2], u[1:-1, 2:]
                u[1:-1, 1:-1] = ne.evaluate(
                    "0.25*(up+dn+lf+rt)",
                    local_dict={"up": up, "dn": dn, "lf": lf, "rt": rt},
                )

        return run

    out["jacobi 61x61 x100"] = time_run(jac(61), reps)
    if not quick:
        out["jacobi 1024x1024 x100"] = time_run(jac(1024), max(reps // 2, 1))
    n = 1 << 20
    rng = np.random.default_rng(1)
    price = rng.uniform(10, 50, n).astype(np.float32)
    strike = rng.uniform(10, 50, n).astype(np.float32)
    t = rng.uniform(1, 2, n).astype(np.float32)
    call = np.zeros(n, np.float32)
    put = np.zeros(n, np.float32)
    cn = "where({x} < 0, 1 - ({w}), {w})"
    w = (
        "1 - 0.3989422804014327*exp(-0.5*{x}*{x})*{k}*(0.31938153 + "
        "{k}*(-0.356563782 + {k}*(1.781477937 + {k}*(-1.821255978 + "
        "{k}*1.330274429))))"
    )

    def cnd(x, k):
        return cn.format(x=x, w=w.format(x=x, k=k))

    def bs():
        env = {"price": price, "strike": strike, "t": t}
        env["d1"] = ne.evaluate(
            "(log(price/strike) + (0.1 + 0.5*0.2*0.2)*t) / (0.2*sqrt(t))",
            local_dict=env,
        )
        env["d2"] = ne.evaluate("d1 - 0.2*sqrt(t)", local_dict=env)
        env["e"] = ne.evaluate("strike*exp(-0.1*t)", local_dict=env)
        env["k1"] = ne.evaluate("1/(1 + 0.2316419*abs(d1))", local_dict=env)
        env["k2"] = ne.evaluate("1/(1 + 0.2316419*abs(d2))", local_dict=env)
        env["c1"] = ne.evaluate(cnd("d1", "k1"), local_dict=env)
        env["c2"] = ne.evaluate(cnd("d2", "k2"), local_dict=env)
        ne.evaluate("price*c1 - e*c2", local_dict=env, out=call)
        ne.evaluate("e*(1 - c2) - price*(1 - c1)", local_dict=env, out=put)

    out["black-scholes 2^20"] = time_run(bs, reps)
    return out


def numba_programs(reps, quick):
    try:
        import numba
    except ImportError:
        return {}
    out = {}

    @numba.njit(parallel=True)
    def step(u, v):
        n = u.shape[0]
        for i in numba.prange(1, n - 1):
            for j in range(1, n - 1):
                v[i, j] = 0.25 * (
                    u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1]
                )

    def jac(n):
        u = np.zeros((n, n), np.float32)
        u[0, :] = 1.0
        v = u.copy()

        def run():
            nonlocal u, v
            for _ in range(100):
                step(u, v)
                u, v = v, u

        return run

    out["jacobi 61x61 x100"] = time_run(jac(61), reps)
    if not quick:
        out["jacobi 1024x1024 x100"] = time_run(jac(1024), max(reps // 2, 1))

    @numba.njit(parallel=True, fastmath=False)
    def bs(price, strike, t, call, put):
        for i in numba.prange(price.size):
            st = np.sqrt(t[i])
            d1 = (np.log(price[i] / strike[i]) + (0.1 + 0.02) * t[i]) / (
                0.2 * st
            )
            d2 = d1 - 0.2 * st
            e = strike[i] * np.exp(-0.1 * t[i])
            c = np.empty(2)
            for j, x in enumerate((d1, d2)):
                k = 1.0 / (1.0 + 0.2316419 * abs(x))
                w = 1.0 - 0.3989422804014327 * np.exp(-0.5 * x * x) * k * (
                    0.31938153
                    + k
                    * (
                        -0.356563782
                        + k
                        * (1.781477937 + k * (-1.821255978 + k * 1.330274429))
                    )
                )
                c[j] = 1.0 - w if x < 0 else w
            call[i] = price[i] * c[0] - e * c[1]
            put[i] = e * (1.0 - c[1]) - price[i] * (1.0 - c[0])

    n = 1 << 20
    rng = np.random.default_rng(1)
    arrs = [
        rng.uniform(10, 50, n).astype(np.float32),
        rng.uniform(10, 50, n).astype(np.float32),
        rng.uniform(1, 2, n).astype(np.float32),
        np.zeros(n, np.float32),
        np.zeros(n, np.float32),
    ]
    out["black-scholes 2^20"] = time_run(lambda: bs(*arrs), reps)
    return out


def jit_bandwidth(device, reps, n=1 << 22):
    import sluice

    @sluice.jit
    def f(x, y):
        return x * y

    a = sluice.ones(n, dtype="float32", device=device)
    c = sluice.ones(n, dtype="float32", device=device)
    q = a.sycl_queue
    f(a, c)
    q.wait()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(20):
            r = f(a, c)
        q.wait()
        ts.append((time.perf_counter() - t) / 20)
    del r
    return 3 * 4 * n / median(ts) / 1e9


def run_bandwidth(device, reps, n=1 << 22):
    """The same program (`x * y` of n float32) run by sluice-run
    --benchmark (no Python), GB/s; None where the build has no
    sluice-run."""
    import re
    import shutil
    import tempfile

    import sluice

    build = os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.abspath(sluice.__file__)))
    )
    tool = os.path.join(build, "bin", "sluice-run")
    if not os.access(tool, os.X_OK):  # a wheel: beside the interpreter
        tool = os.path.join(os.path.dirname(sys.executable), "sluice-run")
    if not os.access(tool, os.X_OK):
        tool = shutil.which("sluice-run")
    if not tool:
        return None
    dev = sluice.Device(device).filter_string
    t = f'!usm.array<{n}xf32, "{dev}", device>'
    with tempfile.TemporaryDirectory() as tmp:
        prog = os.path.join(tmp, "mul.mlir")
        with open(prog, "w") as f:
            f.write(
                f"func.func @main(%a: {t}, %b: {t}) -> {t} {{\n"
                f"  %0 = usm.mul %a, %b : ({t}, {t}) -> {t}\n"
                f"  return %0 : {t}\n}}\n"
            )
        x = os.path.join(tmp, "x.npy")
        np.save(x, np.ones(n, np.float32))
        r = subprocess.run(
            [
                tool,
                prog,
                "--entry=main",
                f"--input=@{x}",
                f"--input=@{x}",
                f"--benchmark={20 * reps}",
                "--output=@" + x + ".out.npy",
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
    m = re.search(r"benchmark: median ([0-9.eE+-]+) s", r.stdout + r.stderr)
    return 3 * 4 * n / float(m.group(1)) / 1e9 if m else None


def jit_against_run(device, reps, n, rounds=3):
    """Bandwidths of a jitted `x * y` from Python and of sluice-run on the
    same program, measured in alternating rounds so that both see the
    machine in the same state (a shared machine's load moves both)."""
    py, run = [], []
    for _ in range(rounds):
        py.append(jit_bandwidth(device, reps, n))
        r = run_bandwidth(device, reps, n)
        if r:
            run.append(r)
    return py, run


def jit_rss(device, iters):
    import sluice

    @sluice.jit
    def f(x, y):
        return x * y - x

    a = sluice.ones(1 << 20, dtype="float32", device=device)
    points = []
    for i in range(iters):
        r = f(a, a)
        if i % (iters // 5) == 0 or i == iters - 1:
            a.sycl_queue.wait()
            gc.collect()
            points.append(round(rss_mb(), 1))
    del r
    return points


def fmt_ratio(peer, ours):
    if peer is None or ours is None or ours <= 0:
        return "-"
    return f"{peer / ours:.2f}x"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="host")
    p.add_argument("--loop", type=int, default=2000)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument(
        "--quick",
        action="store_true",
        help="skip the 1024x1024 stencil, fewer repetitions",
    )
    p.add_argument(
        "--dpnp-python",
        default=os.environ.get("DPNP_PYTHON"),
        help="a Python with dpnp for the dpnp column",
    )
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.quick:
        args.reps = min(args.reps, 3)
        args.loop = min(args.loop, 1000)
    if args.worker:
        json.dump(worker(args.worker, args.device, args), sys.stdout)
        return

    import sluice

    print(
        f"device {sluice.Device(args.device).filter_string}, "
        f"{os.cpu_count()} cores, numpy {np.__version__}"
    )
    res = {
        "sluice": worker("sluice", args.device, args),
        "numpy": worker("numpy", args.device, args),
    }
    if args.device.startswith("cuda"):
        # The GPU peers, in this process: CuPy and PyTorch eager on the
        # same GPU (bench/run-gpu.sh wheel-device).
        for k in GPU_PEERS:
            try:
                res[k] = worker(k, args.device, args)
            except Exception as e:  # noqa: BLE001 - a peer may be missing
                print(f"{k} peer failed: {e}")
    if args.dpnp_python:
        cmd = [
            args.dpnp_python,
            __file__,
            "--worker",
            "dpnp",
            "--reps",
            str(args.reps),
            "--loop",
            str(args.loop),
        ]
        if args.quick:
            cmd.append("--quick")
        try:
            out = subprocess.run(
                cmd, capture_output=True, text=True, timeout=1800, check=True
            ).stdout
            res["dpnp"] = json.loads(out)
        except (subprocess.SubprocessError, ValueError) as e:
            print(f"dpnp peer failed: {e}")
    peers = [k for k in ("numpy", "dpnp") + GPU_PEERS if k in res]

    print(
        "\nper operation, us (caller: loop synchronised at the end; "
        "e2e: synchronised after each)"
    )
    head = f"{'case':18s} {'n':>8s} {'sluice':>8s} {'e2e':>7s}"
    for k in peers:
        head += f" {k:>8s} {'e2e':>7s} {'ratio':>7s}"
    print(head)
    for n in SIZES:
        for name, (caller, e2e) in res["sluice"]["ops"][n].items():
            line = f"{name:18s} {n:8d} {caller:8.2f} " + (
                f"{e2e:7.2f}" if e2e else f"{'':7s}"
            )
            for k in peers:
                pc, pe = res[k]["ops"][str(n) if k == "dpnp" else n][name]
                line += f" {pc:8.2f} " + (f"{pe:7.2f}" if pe else f"{'':7s}")
                line += f" {fmt_ratio(pc, caller):>7s}"
            print(line)

    print("\nprograms, ms (ratio: peer time / sluice time)")
    progs = {
        "numpy": res["numpy"]["programs"],
        "numexpr": numexpr_programs(args.reps, args.quick),
        "numba": numba_programs(args.reps, args.quick),
    }
    for k in ("dpnp",) + GPU_PEERS:
        if k in res:
            progs[k] = res[k]["programs"]
    head = f"{'case':24s} {'sluice':>9s}"
    for k in progs:
        head += f" {k:>9s} {'ratio':>7s}"
    print(head)
    for name, ours in res["sluice"]["programs"].items():
        line = f"{name:24s} {ours * 1e3:9.3f}"
        for v in progs.values():
            t = v.get(name)
            line += (
                f" {t * 1e3:9.3f} {fmt_ratio(t, ours):>7s}"
                if t
                else f" {'-':>9s} {'-':>7s}"
            )
        print(line)

    print(
        "\njitted a*b from Python against sluice-run --benchmark on the "
        "same program (GB/s, best of 3 alternating rounds; median round)"
    )
    for e in (20, 22):
        py, run = jit_against_run(args.device, args.reps, 1 << e)
        line = f"n=2^{e}: Python {max(py):.1f} ({median(py):.1f})"
        if run:
            line += (
                f", sluice-run {max(run):.1f} ({median(run):.1f}), "
                f"Python / sluice-run {max(py) / max(run):.2f} "
                f"({median(py) / median(run):.2f})"
            )
        else:
            line += ", sluice-run not found"
        print(line)
    it = 2000 if args.quick else 10000
    print(
        f"\nRSS (MB) over {it} eager ops (n=2^20, a*b then +=): "
        f"{rss_curve(sluice_backend(args.device), 1 << 20, it)}"
    )
    print(
        f"RSS (MB) over {it} jitted calls (n=2^20): {jit_rss(args.device, it)}"
    )


if __name__ == "__main__":
    main()
