"""Matrix products through Sluice and its peers, in one run on one device.

    PYTHONPATH=build/python .venv/bin/python bench/linalg.py      # host CPU
    PYTHONPATH=build/python .venv/bin/python bench/linalg.py \\
        --device cuda:gpu:0 --save DIR     # here: jitted cases as artifacts
    python3 bench/linalg.py --device cuda:gpu:0 --load DIR   # GPU machine

Prints GFLOP/s (2*M*N*K per product; the elementwise work around the
products is not counted) as the median of --reps timed runs after a
warm-up, and Sluice's ratio to each peer, for: SGEMM and DGEMM (256, 1024,
2048 on the CPU; 1024 and 8192 on a GPU, plus SGEMM with TF32 there),
batched products (4096 x 64^3), the dense layer relu(a @ b + bias), pairwise
distances written the dpnp way (sqrt(|x1|^2[:, None] + |x2|^2 - 2 x1 @
x2.T)) and a two-layer MLP, each eager and inside @sluice.jit. Every
result is checked against the reference (NumPy in float64 on the CPU,
PyTorch on a GPU) before timing. Peers: NumPy (its OpenBLAS) on the CPU;
CuPy and PyTorch (cuBLAS) on a CUDA GPU. Timings are never asserted.

On a GPU machine without the compiler (a runtime-only build), the jitted
cases run from artifacts compiled here with --save (sluice.load); eager
products off the host compile at their first call, so there they are
skipped.
"""

import argparse
import os
import statistics
import time

import numpy as np

import sluice

CPU_SIZES = (256, 1024, 2048)
GPU_SIZES = (1024, 8192)


# --- the cases, written once for every array library ---------------------


def _relu(xp, v):
    return xp.relu(v) if xp.__name__ == "torch" else xp.maximum(v, 0)


def mm(xp, a, b):
    return a @ b


def layer(xp, a, b, bias):
    return _relu(xp, a @ b + bias)


def pdist(xp, x1, x2):
    # dpnp's pairwise distance (dpbench): squared norms, one product.
    s1 = (x1 * x1).sum(1)
    s2 = (x2 * x2).sum(1)
    return xp.sqrt(_relu(xp, s1[:, None] + s2 - 2 * (x1 @ x2.T)))


def mlp(xp, x, w1, b1, w2, b2):
    return _relu(xp, x @ w1 + b1) @ w2 + b2


def _cases(on_gpu, sizes, batch):
    """(name, flops, function, input shapes and dtypes, precision)."""
    f32, f64 = "float32", "float64"
    out = []
    for n in sizes:
        out.append(
            (
                f"sgemm {n}",
                2.0 * n**3,
                mm,
                [((n, n), f32), ((n, n), f32)],
                "highest",
            )
        )
    if on_gpu:
        n = sizes[-1]
        out.append(
            (
                f"sgemm {n} tf32",
                2.0 * n**3,
                mm,
                [((n, n), f32), ((n, n), f32)],
                "tf32",
            )
        )
    for n in sizes:
        out.append(
            (
                f"dgemm {n}",
                2.0 * n**3,
                mm,
                [((n, n), f64), ((n, n), f64)],
                "highest",
            )
        )
    out.append(
        (
            f"bmm {batch}x64^3",
            2.0 * batch * 64**3,
            mm,
            [((batch, 64, 64), f32), ((batch, 64, 64), f32)],
            "highest",
        )
    )
    n = sizes[-1]
    out.append(
        (
            f"relu(a@b+bias) {n}",
            2.0 * n**3,
            layer,
            [((n, n), f32), ((n, n), f32), ((n,), f32)],
            "highest",
        )
    )
    p = 2 * n if on_gpu else n
    out.append(
        (
            f"pdist {p}x{p}x64",
            2.0 * p * p * 64,
            pdist,
            [((p, 64), f32), ((p, 64), f32)],
            "highest",
        )
    )
    b, h, o = (8192, 4096, 1024) if on_gpu else (2048, 1024, 256)
    out.append(
        (
            f"mlp {b}x{h}x{h}x{o}",
            2.0 * b * h * (h + o),
            mlp,
            [
                ((b, h), f32),
                ((h, h), f32),
                ((h,), f32),
                ((h, o), f32),
                ((o,), f32),
            ],
            "highest",
        )
    )
    return out


# --- timing ------------------------------------------------------------


def _median_time(fn, sync, reps, warmup=1):
    for _ in range(warmup):
        sync(fn())
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        sync(fn())
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def _sluice_sync(r):
    if isinstance(r, sluice.Array):
        r.sycl_queue.wait()
    return r


def _artifact(save_dir, name):
    return os.path.join(
        save_dir,
        name.split(" ")[0]
        .replace("(", "_")
        .replace(")", "_")
        .replace("@", "_")
        .replace("+", "_")
        + "_"
        + name.split(" ")[1].replace("^", "_")
        + ".so",
    )


# Correctness on devices without the compiler: odd sizes, a broadcast
# batch, a transposed operand, complex (name, function, shapes and dtypes).
CHECKS = [
    (
        "odd",
        lambda xp, a, b: a @ b + 1,
        [((333, 517), "float32"), ((517, 129), "float32")],
    ),
    (
        "bcast",
        lambda xp, a, b: a @ b,
        [((1, 65, 33), "float64"), ((7, 33, 17), "float64")],
    ),
    (
        "transposed",
        lambda xp, a, b: a @ b.T,
        [((200, 96), "float32"), ((150, 96), "float32")],
    ),
    (
        "complex",
        lambda xp, a, b: a @ b,
        [((70, 50), "complex64"), ((50, 30), "complex64")],
    ),
]


def _random(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def check(args, dev):
    """The CHECKS against NumPy (from artifacts with --load)."""
    rng = np.random.default_rng(1)
    for name, fn, shapes in CHECKS:
        host = [_random(rng, s, d) for s, d in shapes]
        f = (
            sluice.load(os.path.join(args.load, f"check_{name}.so"))
            if args.load
            else sluice.jit(lambda *a, fn=fn: fn(sluice, *a))
        )
        got = sluice.asnumpy(f(*[sluice.asarray(h, device=dev) for h in host]))
        ref = fn(
            np,
            *[
                h.astype(np.complex128 if h.dtype.kind == "c" else np.float64)
                for h in host
            ],
        )
        err = np.linalg.norm(got - ref) / np.linalg.norm(ref)
        ok = err < (1e-5 if got.dtype in (np.float32, np.complex64) else 1e-12)
        print(
            f"check {name:<12} {str(got.shape):<16} {got.dtype}: "
            f"relative error {err:.1e} {'ok' if ok else 'FAILED'}"
        )
        if not ok:
            raise SystemExit(f"check {name} failed")


def save(args):
    """Compiles the jitted cases for args.device into artifacts."""
    os.makedirs(args.save, exist_ok=True)
    for name, fn, shapes in CHECKS:
        xs = [sluice.empty(s, dtype=d, device="host") for s, d in shapes]
        f = sluice.jit(lambda *a, fn=fn: fn(sluice, *a))
        f.lower(*xs).save(
            os.path.join(args.save, f"check_{name}.so"),
            name="main",
            device=args.device,
        )
    sizes = GPU_SIZES if args.device.startswith("cuda") else CPU_SIZES
    for name, _, fn, shapes, precision in _cases(True, sizes, args.batch):
        if precision != "highest":
            continue  # the same artifact; the precision is read at run time
        xs = [sluice.empty(s, dtype=d, device="host") for s, d in shapes]
        f = sluice.jit(lambda *a, fn=fn: fn(sluice, *a))
        f.lower(*xs).save(
            _artifact(args.save, name), name="main", device=args.device
        )
        print("saved", _artifact(args.save, name), flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="host")
    p.add_argument("--batch", type=int, default=4096)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument(
        "--sizes",
        default="",
        help="comma-separated N for the "
        "GEMM rows (default 256,1024,2048 on the CPU, 1024,8192 "
        "on a GPU)",
    )
    p.add_argument(
        "--cases",
        default="",
        help="comma-separated name prefixes (sgemm,dgemm,bmm,relu,pdist,mlp)",
    )
    p.add_argument(
        "--save",
        default="",
        help="compile the jitted cases for --device into this folder and exit",
    )
    p.add_argument(
        "--load",
        default="",
        help="run the jitted cases from "
        "the artifacts in this folder (no compiler needed)",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="check odd, broadcast, transposed and complex products first",
    )
    p.add_argument(
        "--find-cublas",
        action="store_true",
        help="print the "
        "libcublas that PyTorch's wheels carry, if any, and exit",
    )
    args = p.parse_args()
    if args.find_cublas:
        import glob

        try:
            import nvidia.cublas as c

            libs = sorted(
                glob.glob(
                    os.path.join(list(c.__path__)[0], "lib", "libcublas.so.*")
                )
            )
            print(libs[0] if libs else "")
        except ImportError:
            print("")
        return None
    if args.save:
        return save(args)

    dev = sluice.Device(args.device)
    on_gpu = dev.backend.name == "cuda"
    print(f"device: {dev.filter_string} ({dev.name})")
    sizes = (
        tuple(int(s) for s in args.sizes.split(","))
        if args.sizes
        else (GPU_SIZES if on_gpu else CPU_SIZES)
    )
    peers = {}
    if on_gpu:
        try:
            import cupy

            peers["CuPy"] = (
                cupy,
                lambda r: cupy.cuda.Device().synchronize(),
                cupy.asarray,
            )
        except ImportError:
            pass
        try:
            import torch

            peers["torch"] = (
                torch,
                lambda r: torch.cuda.synchronize(),
                lambda h: torch.from_numpy(h).cuda(),
            )
        except ImportError:
            pass
    else:
        peers["NumPy"] = (np, lambda r: r, lambda h: h)
    eager_ok = dev.backend.name == "host" or not args.load
    if args.load or args.check:
        check(args, dev)

    cases = _cases(on_gpu, sizes, args.batch)
    if args.cases:
        keep = args.cases.split(",")
        cases = [c for c in cases if any(c[0].startswith(k) for k in keep)]
    cols = ["eager", "jit"] + list(peers)
    print(
        f"GFLOP/s (median of {args.reps} runs); x PEER = Sluice's best "
        "(eager or jit) over the peer"
    )
    print(
        f"{'case':<28}"
        + "".join(f"{c:>10}" for c in cols)
        + "".join(f"{'x ' + k:>10}" for k in peers),
        flush=True,
    )
    rng = np.random.default_rng(0)
    results = []
    for name, flops, fn, shapes, precision in cases:
        host = [rng.standard_normal(s).astype(d) for s, d in shapes]
        sluice.set_matmul_precision(precision)
        if "torch" in peers:
            peers["torch"][0].backends.cuda.matmul.allow_tf32 = (
                precision == "tf32"
            )
        row = {"case": name}
        ref = None
        # Peers first: on a GPU PyTorch's result is the reference.
        for pname, (mod, sync, put) in peers.items():
            if pname == "CuPy" and precision != "highest":
                continue  # CuPy has no per-call TF32 switch
            xs = [put(h) for h in host]
            f = lambda *a, fn=fn, mod=mod: fn(mod, *a)
            r = f(*xs)
            sync(r)
            if ref is None:
                ref = (
                    np.asarray(fn(np, *[h.astype(np.float64) for h in host]))
                    if pname == "NumPy"
                    else (
                        r.cpu().double().numpy() if pname == "torch" else None
                    )
                )
            row[pname] = (
                flops / _median_time(lambda: f(*xs), sync, args.reps) / 1e9
            )
            del xs, r
        xs = [sluice.asarray(h, device=dev) for h in host]
        variants = {}
        if eager_ok:
            variants["eager"] = lambda *a: fn(sluice, *a)
        if args.load:
            variants["jit"] = sluice.load(_artifact(args.load, name))
        else:
            variants["jit"] = sluice.jit(lambda *a: fn(sluice, *a))
        tol = 2e-2 if precision != "highest" else 1e-4
        for v, f in variants.items():
            got = sluice.asnumpy(f(*xs))
            if ref is not None:
                err = np.linalg.norm(got.astype(np.float64) - ref) / max(
                    np.linalg.norm(ref), 1e-300
                )
                if not err < tol:
                    raise SystemExit(
                        f"{name} {v}: relative error {err:.2e} "
                        f"against the reference (> {tol})"
                    )
            row[v] = (
                flops
                / _median_time(lambda: f(*xs), _sluice_sync, args.reps)
                / 1e9
            )
        del xs
        best = max(row.get("eager", 0), row.get("jit", 0))
        results.append(row)
        cells = "".join(
            f"{row[c]:>10.1f}" if c in row else f"{'-':>10}" for c in cols
        )
        ratios = "".join(
            f"{best / row[k]:>10.2f}" if k in row else f"{'-':>10}"
            for k in peers
        )
        print(f"{name:<28}{cells}{ratios}", flush=True)
    sluice.set_matmul_precision("highest")
    return results


if __name__ == "__main__":
    main()
