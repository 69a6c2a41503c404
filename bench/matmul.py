"""Matrix products through Sluice and its peers, in one run on one device.

    PYTHONPATH=build/python .venv/bin/python bench/matmul.py            # host
    PYTHONPATH=build/python .venv/bin/python bench/matmul.py \
        --device opencl:cpu:0 --scale 0.25
    python bench/matmul.py --device cuda:gpu:0  # + CuPy, PyTorch (GPU machine)

Prints GFLOP/s (2*M*N*K per product; the elementwise work of the fused
cases is not counted) as the median of --reps timed runs after a warm-up,
and Sluice's ratio to each peer. Every result is checked against NumPy
(float64 reference) first. Peers: NumPy (OpenBLAS) on the CPU; CuPy and
PyTorch (cuBLAS; eager and, for the fused layer, torch.compile) on a CUDA
GPU where they are installed. Timings are never asserted.

Cases (float32 unless named):
  sgemm N      a @ b, N x N x N
  dgemm N      the same in float64
  bmm          batched: B x 64 x 64 x 64
  layer        relu(a @ b + bias), N x N x N (eager, and @sluice.jit)
  pdist        sqrt(max(|x|^2[:, None] + |y|^2 - 2 x @ y.T, 0)), N x N x 64
"""

import argparse
import statistics
import time

import numpy as np

import sluice


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


def _cases(n, batch):
    rng = np.random.default_rng(0)
    f32 = np.float32
    a = rng.standard_normal((n, n), dtype=f32)
    b = rng.standard_normal((n, n), dtype=f32)
    bias = rng.standard_normal((n,), dtype=f32)
    x = rng.standard_normal((n, 64), dtype=f32)
    y = rng.standard_normal((n, 64), dtype=f32)
    ba = rng.standard_normal((batch, 64, 64), dtype=f32)
    bb = rng.standard_normal((batch, 64, 64), dtype=f32)
    return [
        (f"sgemm {n}", 2.0 * n**3, "mm", (a, b)),
        (
            f"dgemm {n}",
            2.0 * n**3,
            "mm",
            (a.astype(np.float64), b.astype(np.float64)),
        ),
        (f"bmm {batch}x64^3", 2.0 * batch * 64**3, "mm", (ba, bb)),
        (f"layer {n}", 2.0 * n**3, "layer", (a, b, bias)),
        (f"pdist {n}x{n}x64", 2.0 * n * n * 64, "pdist", (x, y)),
    ]


def _numpy_fns():
    def layer(a, b, bias):
        return np.maximum(a @ b + bias, 0)

    def pdist(x, y):
        s1 = (x * x).sum(1)
        s2 = (y * y).sum(1)
        return np.sqrt(np.maximum(s1[:, None] + s2 - 2 * x @ y.T, 0))

    return {"mm": lambda a, b: a @ b, "layer": layer, "pdist": pdist}


def _sluice_fns(xp):
    def layer(a, b, bias):
        return xp.maximum(a @ b + bias, 0)

    def pdist(x, y):
        s1 = xp.sum(x * x, axis=1)
        s2 = xp.sum(y * y, axis=1)
        return xp.sqrt(xp.maximum(s1[:, None] + s2 - 2 * x @ y.T, 0))

    return {"mm": lambda a, b: a @ b, "layer": layer, "pdist": pdist}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="host")
    p.add_argument("--n", type=int, default=2048)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument(
        "--jit-n",
        type=int,
        default=256,
        help="size of the @sluice.jit layer (a generated "
        "reduction kernel, much slower than BLAS; 0 skips "
        "it)",
    )
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--cases", default="")
    args = p.parse_args()

    dev = sluice.Device(args.device)
    on_cuda = dev.backend.name == "cuda"
    print(f"device: {dev.filter_string} ({dev.name})")
    npf = _numpy_fns()
    slf = _sluice_fns(sluice)
    peers = {}
    if on_cuda:
        try:
            import cupy

            peers["CuPy"] = (cupy, lambda r: cupy.cuda.Device().synchronize())
        except ImportError:
            pass
        try:
            import torch

            peers["torch"] = (torch, lambda r: torch.cuda.synchronize())
        except ImportError:
            pass
    else:
        peers["NumPy"] = (np, lambda r: r)

    cases = _cases(args.n, args.batch)
    if args.cases:
        keep = args.cases.split(",")
        cases = [c for c in cases if c[0].split()[0] in keep]
    jit_layer = sluice.jit(slf["layer"])
    rng = np.random.default_rng(1)
    jn = args.jit_n
    ja = rng.standard_normal((jn, jn), dtype=np.float32)
    jb = rng.standard_normal((jn, jn), dtype=np.float32)
    jbias = rng.standard_normal((jn,), dtype=np.float32)
    if jn:
        cases.append(
            (f"layer {jn} @sluice.jit", 2.0 * jn**3, "jit", (ja, jb, jbias))
        )

    header = (
        f"{'case':<24}{'Sluice':>10}"
        + "".join(f"{k:>10}" for k in peers)
        + "".join(f"{'x ' + k:>10}" for k in peers)
    )
    print("GFLOP/s (median of", args.reps, "runs)")
    print(header)
    results = []
    for name, flops, kind, host in cases:
        ref = (npf["layer"] if kind == "jit" else npf[kind])(
            *[h.astype(np.float64) for h in host]
        )
        xs = [sluice.asarray(h, device=dev) for h in host]
        fn = jit_layer if kind == "jit" else slf[kind]
        got = sluice.asnumpy(fn(*xs))
        tol = (
            1e-3
            * max(1.0, float(np.abs(ref).max()))
            * (host[0].shape[-1] ** 0.5)
        )
        if not np.allclose(got, ref, atol=tol, rtol=1e-3):
            raise SystemExit(f"{name}: Sluice's result differs from NumPy's")
        t = _median_time(lambda: fn(*xs), _sluice_sync, args.reps)
        row = {"case": name, "Sluice": flops / t / 1e9}
        for pname, (mod, sync) in peers.items():
            pk = "layer" if kind == "jit" else kind
            if pname == "NumPy":
                pfn, pargs = npf[pk], host
            else:
                pfn = _sluice_fns(mod)[pk]
                pargs = [
                    mod.asarray(h)
                    if pname == "CuPy"
                    else mod.from_numpy(h).cuda()
                    for h in host
                ]
            tp = _median_time(lambda: pfn(*pargs), sync, args.reps)
            row[pname] = flops / tp / 1e9
        results.append(row)
        line = (
            f"{name:<24}{row['Sluice']:>10.1f}"
            + "".join(f"{row[k]:>10.1f}" for k in peers)
            + "".join(f"{row['Sluice'] / row[k]:>10.2f}" for k in peers)
        )
        print(line, flush=True)
    return results


if __name__ == "__main__":
    main()
