#!/usr/bin/env python3
"""Sluice's GPU benchmark: DESIGN.md's GPU expressions at N = 2^27 float32,
timed in one process through Sluice, CuPy (eager and cupy.fuse), PyTorch
(eager and torch.compile), JAX (jit) and hand-written float4 CUDA C kernels
(compiled by NVRTC through CuPy: the practical limit), plus the time per
call at n = 1024.

Sluice runs ahead-of-time compiled artifacts (bench/run-gpu.sh builds them
on the build machine with `sluice-compile --device=cuda:gpu:0`), driven
through the runtime's C API with ctypes (bench/sluice_artifact.py): the GPU
machine has no MLIR. Its compile time is measured on the build machine and
read from the bundle's compile.json.

Timing (medians of --reps after warm-up):
- CuPy, PyTorch, CUDA C: device events recorded on the stream before and
  after the call (asynchronous calls, as their users make them).
- JAX: host clock around the call and block_until_ready().
- Sluice: a compiled call returns once its work finished. Its device time
  is the end of a marker submitted just after an asynchronous call minus
  the end of one submitted just before it (the runtime's event timestamps:
  the same span that events around an asynchronous call measure);
  `sluice (wall)` is the host time of the whole synchronous call.

Bandwidth counts compulsory traffic: every input read once, every output
written once. Every engine's result is compared with a float64 NumPy
reference before its time is shown.

usage: gpu.py --bundle DIR [--n 2**27] [--reps 30] [--cases ...]
              [--engines ...] [--json FILE]
"""

import argparse
import ctypes
import json
import os
import sys
import time
import traceback

import numpy as np

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

CASES = {
    # key: (title, inputs, arrays of traffic, reduction)
    "copy": ("copy (1R1W)", 1, 2, False),
    "axpy": ("a*b+c*d-a (4R1W)", 4, 5, False),
    "transcendental": ("exp(-a*a)*sin(b)+sqrt(|a|) (2R1W)", 2, 3, False),
    "sum": ("sum(a) (1R)", 1, 1, True),
}
ENGINES = [
    "sluice",
    "sluice (wall)",
    "cuda-c",
    "cupy",
    "cupy.fuse",
    "torch",
    "torch.compile",
    "jax.jit",
]
PEERS = ["cupy", "cupy.fuse", "torch", "torch.compile", "jax.jit"]


def reference(case, x):
    a = x[0].astype(np.float64)
    if case == "copy":
        return x[0]
    if case == "axpy":
        b, c, d = (v.astype(np.float64) for v in x[1:])
        return a * b + c * d - a
    if case == "transcendental":
        b = x[1].astype(np.float64)
        return np.exp(-a * a) * np.sin(b) + np.sqrt(np.abs(a))
    return np.array(a.sum())


def check(case, x, got, ref, sample):
    """None when `got` (a NumPy array) matches the reference, else why."""
    got = np.asarray(got)
    if case == "sum":
        bound = 1e-6 * float(np.abs(x[0]).astype(np.float64).sum()) + 1e-3
        diff = abs(float(got) - float(ref))
        return (
            None
            if diff <= bound
            else (f"sum {float(got)!r}, expected {float(ref)!r}")
        )
    if got.shape != ref.shape:
        return f"shape {got.shape}"
    if case == "copy":
        return None if np.array_equal(got, ref) else "copy differs"
    g, r = got[sample].astype(np.float64), ref[sample]
    bad = ~(np.abs(g - r) <= 1e-5 + 1e-5 * np.abs(r))
    if bad.any():
        i = int(np.argmax(bad))
        return (
            f"{int(bad.sum())} of {len(sample)} sampled elements differ, "
            f"e.g. {g[i]!r} vs {r[i]!r}"
        )
    return None


def median(ts):
    ts = sorted(ts)
    return ts[len(ts) // 2]


# --------------------------------------------------------------------------
# Sluice
# --------------------------------------------------------------------------


class SluiceEngine:
    def __init__(self, bundle, artifact="bench.so"):
        from sluice_artifact import Artifact, Runtime

        self.rt = Runtime(os.path.join(bundle, "lib", "libsluice-runtime.so"))
        self.art = Artifact(self.rt, os.path.join(bundle, "bench", artifact))
        self.props = self.rt.device_properties(
            os.environ.get("SLUICE_BENCH_DEVICE", "cuda:gpu:0")
        )

    def run(self, case, x, reps, warmup):
        """(device seconds, wall seconds, result) of the median run."""
        rt = self.rt
        call = self.art.prepare(case, x)
        try:
            q = call.queue()
            r = call.sig.results[0]
            rq = rt.queue(r.device, r.queue_name)
            dev, wall = [], []
            for i in range(warmup + reps):
                # Device time: between two markers, one submitted just
                # before the call and one just after it (the call runs
                # asynchronously between them; the runtime marks a task's
                # end only where asked, and these two are asked for).
                # Wall time: the synchronous call.
                m = rt.marker(q)
                rt.lib.sluiceProgramSetAsynchronous(1)
                try:
                    status = call.call()
                finally:
                    rt.lib.sluiceProgramSetAsynchronous(0)
                if status:
                    raise RuntimeError(f"@{case} failed: {rt.error()}")
                e = rt.marker(rq)
                if i >= warmup:
                    dev.append((rt.end_ns(e) - rt.end_ns(m)) * 1e-9)
                rt.release(m)
                rt.release(e)
                call.free_results()
                t0 = time.perf_counter()
                status = call.call()
                t1 = time.perf_counter()
                if status:
                    raise RuntimeError(f"@{case} failed: {rt.error()}")
                if i >= warmup:
                    wall.append(t1 - t0)
                if i + 1 < warmup + reps:
                    call.free_results()
            out = call.read_results()[0]
            call.free_results()
            return median(dev), median(wall), out
        finally:
            call.close()

    def per_call(self, case, x, iters):
        """(median, mean) seconds of a synchronous call, and the mean of
        back-to-back asynchronous calls (sluiceProgramSetAsynchronous),
        freeing each result, with one wait at the end."""
        call = self.art.prepare(case, x)
        try:
            for _ in range(20):
                call.call()
                call.free_results()
            ts = []
            for _ in range(iters):
                t0 = time.perf_counter()
                status = call.call()
                t1 = time.perf_counter()
                if status:
                    raise RuntimeError(self.rt.error())
                ts.append(t1 - t0)
                call.free_results()
            q = call.queue()
            # The result's allocation, read straight from the results
            # struct, and the entry and free functions without wrappers.
            result = ctypes.c_uint64.from_buffer(call.results, call.fields[0])
            fn, argv, free = call.fn, call.argv, self.rt.lib.sluiceFree
            self.rt.lib.sluiceProgramSetAsynchronous(1)
            try:
                for _ in range(20):
                    fn(argv)
                    free(None, result.value)
                self.rt.check(self.rt.lib.sluiceQueueWait(q), "wait")
                t0 = time.perf_counter()
                for _ in range(iters):
                    status = fn(argv)
                    free(None, result.value)
                self.rt.check(self.rt.lib.sluiceQueueWait(q), "wait")
                t_async = (time.perf_counter() - t0) / iters
                if status:
                    raise RuntimeError(self.rt.error())
            finally:
                self.rt.lib.sluiceProgramSetAsynchronous(0)
            return median(ts), sum(ts) / len(ts), t_async
        finally:
            call.close()


# --------------------------------------------------------------------------
# Peers
# --------------------------------------------------------------------------

CUDA_C = r"""
extern "C" __global__ void copy4(const float4 *__restrict__ a,
                                 float4 *__restrict__ o, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x)
    o[i] = a[i];
}
extern "C" __global__ void axpy4(const float4 *__restrict__ a,
                                 const float4 *__restrict__ b,
                                 const float4 *__restrict__ c,
                                 const float4 *__restrict__ d,
                                 float4 *__restrict__ o, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    float4 p = a[i], q = b[i], r = c[i], s = d[i], t;
    t.x = p.x * q.x + r.x * s.x - p.x;
    t.y = p.y * q.y + r.y * s.y - p.y;
    t.z = p.z * q.z + r.z * s.z - p.z;
    t.w = p.w * q.w + r.w * s.w - p.w;
    o[i] = t;
  }
}
__device__ float tf(float a, float b) {
  return expf(-a * a) * sinf(b) + sqrtf(fabsf(a));
}
extern "C" __global__ void trans4(const float4 *__restrict__ a,
                                  const float4 *__restrict__ b,
                                  float4 *__restrict__ o, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    float4 p = a[i], q = b[i], t;
    t.x = tf(p.x, q.x);
    t.y = tf(p.y, q.y);
    t.z = tf(p.z, q.z);
    t.w = tf(p.w, q.w);
    o[i] = t;
  }
}
extern "C" __global__ void sum4(const float4 *__restrict__ a, float *out,
                                long long n) {
  float s = 0.f;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    float4 v = a[i];
    s += (v.x + v.y) + (v.z + v.w);
  }
  for (int k = 16; k > 0; k /= 2)
    s += __shfl_xor_sync(0xffffffffu, s, k);
  __shared__ float warps[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warps[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = lane < blockDim.x / 32 ? warps[lane] : 0.f;
    for (int k = 16; k > 0; k /= 2)
      s += __shfl_xor_sync(0xffffffffu, s, k);
    if (lane == 0)
      atomicAdd(out, s);
  }
}
"""


def cupy_events(cp, f, reps, warmup):
    for _ in range(warmup):
        r = f()
    cp.cuda.Device().synchronize()
    s, e = cp.cuda.Event(), cp.cuda.Event()
    ts = []
    for _ in range(reps):
        s.record()
        r = f()
        e.record()
        e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) * 1e-3)
    return median(ts), r


def torch_events(torch, f, reps, warmup):
    for _ in range(warmup):
        r = f()
    torch.cuda.synchronize()
    s = torch.cuda.Event(enable_timing=True)
    e = torch.cuda.Event(enable_timing=True)
    ts = []
    for _ in range(reps):
        s.record()
        r = f()
        e.record()
        torch.cuda.synchronize()
        ts.append(s.elapsed_time(e) * 1e-3)
    return median(ts), r


def host_clock(f, sync, reps, warmup):
    for _ in range(warmup):
        sync(f())
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        r = f()
        sync(r)
        ts.append(time.perf_counter() - t0)
    return median(ts), r


def per_call_async(f, sync, iters):
    """Mean time per call of back-to-back asynchronous calls."""
    for _ in range(20):
        f()
    sync()
    t0 = time.perf_counter()
    for _ in range(iters):
        f()
    sync()
    return (time.perf_counter() - t0) / iters


def per_call_sync(f, sync, iters):
    for _ in range(20):
        f()
    sync()
    ts = []
    for _ in range(iters):
        t0 = time.perf_counter()
        f()
        sync()
        ts.append(time.perf_counter() - t0)
    return median(ts)


class Results:
    def __init__(self):
        self.bw = {}  # (case, engine) -> TB/s
        self.notes = {}  # (case, engine) -> text
        self.percall = {}  # engine -> (us, how)
        self.info = {}

    def record(self, case, engine, seconds, nbytes, err):
        if err:
            self.notes[(case, engine)] = f"wrong result: {err}"
            print(f"  {engine:14s} {case:15s} WRONG: {err}")
        self.bw[(case, engine)] = nbytes / seconds / 1e12
        print(
            f"  {engine:14s} {case:15s} {nbytes / seconds / 1e12:7.3f} TB/s"
            f"  ({seconds * 1e6:9.1f} us)",
            flush=True,
        )


def run_cupy(cp, args, x, refs, sample, res):
    xs = [cp.asarray(v) for v in x]

    def axpy(a, b, c, d):
        return a * b + c * d - a

    def trans(a, b):
        return cp.exp(-a * a) * cp.sin(b) + cp.sqrt(cp.abs(a))

    # cupy.fuse names the kernel after the function: no lambdas.
    fa, ft = cp.fuse(axpy), cp.fuse(trans)
    eager = {
        "copy": lambda: xs[0].copy(),
        "axpy": lambda: xs[0] * xs[1] + xs[2] * xs[3] - xs[0],
        "transcendental": lambda: (
            cp.exp(-xs[0] * xs[0]) * cp.sin(xs[1]) + cp.sqrt(cp.abs(xs[0]))
        ),
        "sum": lambda: xs[0].sum(),
    }
    fused = {
        "axpy": lambda: fa(*xs[:4]),
        "transcendental": lambda: ft(*xs[:2]),
    }
    for engine, table in (("cupy", eager), ("cupy.fuse", fused)):
        for case in args.cases:
            if case not in table:
                continue
            try:
                t, r = cupy_events(cp, table[case], args.reps, args.warmup)
            except Exception as e:
                res.notes[(case, engine)] = f"failed: {type(e).__name__}"
                print(f"  {engine} {case} failed: {str(e)[:300]}")
                continue
            res.record(
                case,
                engine,
                t,
                CASES[case][2] * 4 * args.n,
                check(case, x, cp.asnumpy(r), refs[case], sample),
            )
    # Hand-written float4 kernels: the practical limit.
    mod = cp.RawModule(code=CUDA_C, options=("-std=c++17",))
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    n4 = args.n // 4
    grid, block = (sms * 16,), (256,)
    out = cp.empty(args.n, dtype=cp.float32)
    acc = cp.zeros((), dtype=cp.float32)
    kern = {
        "copy": lambda: (
            mod.get_function("copy4")(grid, block, (xs[0], out, np.int64(n4)))
            or out
        ),
        "axpy": lambda: (
            mod.get_function("axpy4")(
                grid, block, (*xs[:4], out, np.int64(n4))
            )
            or out
        ),
        "transcendental": lambda: (
            mod.get_function("trans4")(
                grid, block, (xs[0], xs[1], out, np.int64(n4))
            )
            or out
        ),
        "sum": lambda: (
            (
                acc.fill(0),
                mod.get_function("sum4")(
                    grid, block, (xs[0], acc, np.int64(n4))
                ),
            )[0]
            or acc
        ),
    }
    if args.n % 4 == 0:
        for case in args.cases:
            t, r = cupy_events(cp, kern[case], args.reps, args.warmup)
            res.record(
                case,
                "cuda-c",
                t,
                CASES[case][2] * 4 * args.n,
                check(case, x, cp.asnumpy(r), refs[case], sample),
            )
    del xs, out
    small = cp.ones(1024, dtype=cp.float32)
    sync = cp.cuda.Device().synchronize
    f = lambda: fa(small, small, small, small)
    if args.iters:
        res.percall["cupy.fuse"] = (
            per_call_async(f, sync, args.iters) * 1e6,
            per_call_sync(f, sync, args.iters) * 1e6,
        )
    cp.get_default_memory_pool().free_all_blocks()


def run_torch(torch, args, x, refs, sample, res):
    dev = torch.device("cuda")
    xs = [torch.from_numpy(v).to(dev) for v in x]
    out = torch.empty_like(xs[0])

    def axpy(a, b, c, d):
        return a * b + c * d - a

    def trans(a, b):
        return torch.exp(-a * a) * torch.sin(b) + torch.sqrt(torch.abs(a))

    def total(a):
        return a.sum()

    eager = {
        "copy": lambda: out.copy_(xs[0]),
        "axpy": lambda: axpy(*xs[:4]),
        "transcendental": lambda: trans(*xs[:2]),
        "sum": lambda: total(xs[0]),
    }
    tables = [("torch", eager)]
    try:
        ca, ct, cs = (torch.compile(f) for f in (axpy, trans, total))
        tables.append(
            (
                "torch.compile",
                {
                    "axpy": lambda: ca(*xs[:4]),
                    "transcendental": lambda: ct(*xs[:2]),
                    "sum": lambda: cs(xs[0]),
                },
            )
        )
    except Exception as e:
        print(f"  torch.compile unavailable: {e}")
    for engine, table in tables:
        for case in args.cases:
            if case not in table:
                continue
            try:
                t, r = torch_events(torch, table[case], args.reps, args.warmup)
            except Exception as e:
                res.notes[(case, engine)] = f"failed: {type(e).__name__}"
                print(f"  {engine} {case} failed: {e}")
                continue
            res.record(
                case,
                engine,
                t,
                CASES[case][2] * 4 * args.n,
                check(case, x, r.cpu().numpy(), refs[case], sample),
            )
    del xs, out
    if not args.iters:
        torch.cuda.empty_cache()
        return
    small = torch.ones(1024, device=dev)
    sync = torch.cuda.synchronize
    f = lambda: axpy(small, small, small, small)
    res.percall["torch"] = (
        per_call_async(f, sync, args.iters) * 1e6,
        per_call_sync(f, sync, args.iters) * 1e6,
    )
    if len(tables) > 1:
        g = lambda: ca(small, small, small, small)
        res.percall["torch.compile"] = (
            per_call_async(g, sync, args.iters) * 1e6,
            per_call_sync(g, sync, args.iters) * 1e6,
        )
    torch.cuda.empty_cache()


def run_jax(jax, args, x, refs, sample, res):
    import jax.numpy as jnp

    xs = [jax.device_put(v) for v in x]
    fns = {
        "axpy": jax.jit(lambda a, b, c, d: a * b + c * d - a),
        "transcendental": jax.jit(
            lambda a, b: jnp.exp(-a * a) * jnp.sin(b) + jnp.sqrt(jnp.abs(a))
        ),
        "sum": jax.jit(lambda a: a.sum()),
        "copy": jax.jit(lambda a: a + 0),
    }
    sync = lambda r: r.block_until_ready()
    for case in args.cases:
        f = fns[case]
        k = CASES[case][1]
        t, r = host_clock(lambda: f(*xs[:k]), sync, args.reps, args.warmup)
        res.record(
            case,
            "jax.jit",
            t,
            CASES[case][2] * 4 * args.n,
            check(case, x, np.asarray(r), refs[case], sample),
        )
    if not args.iters:
        return
    small = jnp.ones(1024, dtype=jnp.float32)
    f = lambda: fns["axpy"](small, small, small, small)
    last = [None]

    def call():
        last[0] = f()

    res.percall["jax.jit"] = (
        per_call_async(call, lambda: last[0].block_until_ready(), args.iters)
        * 1e6,
        per_call_sync(call, lambda: last[0].block_until_ready(), args.iters)
        * 1e6,
    )
    del xs


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bundle", default=os.path.dirname(HERE))
    p.add_argument("--n", type=lambda s: int(eval(s)), default=1 << 27)
    p.add_argument("--reps", type=int, default=30)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument(
        "--iters",
        type=int,
        default=2000,
        help="calls for the per-call time at n=1024",
    )
    p.add_argument("--cases", default=",".join(CASES))
    p.add_argument("--engines", default="sluice,cupy,torch,jax")
    p.add_argument("--json")
    p.add_argument(
        "--sluice-artifact",
        default="bench.so",
        help="the artifact (in BUNDLE/bench) holding the cases",
    )
    args = p.parse_args()
    args.cases = [c for c in args.cases.split(",") if c]
    engines = [e for e in args.engines.split(",") if e]
    res = Results()

    rng = np.random.default_rng(0)
    x = [
        rng.standard_normal(args.n, dtype=np.float32)
        for _ in range(max(CASES[c][1] for c in args.cases))
    ]
    refs = {c: reference(c, x) for c in args.cases}
    sample = np.unique(
        np.concatenate(
            [
                np.arange(min(args.n, 1 << 16)),
                np.arange(max(0, args.n - (1 << 16)), args.n),
                rng.integers(0, args.n, size=min(args.n, 1 << 22)),
            ]
        )
    )

    if "sluice" in engines:
        try:
            eng = SluiceEngine(args.bundle, args.sluice_artifact)
            res.info["device"] = eng.props.get("compute capability", "?")
            for case in args.cases:
                k = CASES[case][1]
                dev, wall, out = eng.run(case, x[:k], args.reps, args.warmup)
                nbytes = CASES[case][2] * 4 * args.n
                err = check(case, x, out, refs[case], slice(None))
                res.record(case, "sluice", dev, nbytes, err)
                res.record(case, "sluice (wall)", wall, nbytes, err)
            if "axpy" in args.cases and args.iters:
                small = [np.ones(1024, dtype=np.float32)] * 4
                res.percall["sluice"] = tuple(
                    v * 1e6 for v in eng.per_call("axpy", small, args.iters)
                )
        except Exception:
            traceback.print_exc()
    if "cupy" in engines:
        try:
            import cupy as cp

            res.info["gpu"] = cp.cuda.runtime.getDeviceProperties(0)[
                "name"
            ].decode()
            run_cupy(cp, args, x, refs, sample, res)
        except Exception:
            traceback.print_exc()
    if "torch" in engines:
        try:
            import torch

            res.info["gpu"] = torch.cuda.get_device_name()
            run_torch(torch, args, x, refs, sample, res)
        except Exception:
            traceback.print_exc()
    if "jax" in engines:
        try:
            import jax

            run_jax(jax, args, x, refs, sample, res)
        except Exception:
            traceback.print_exc()

    compile_info = os.path.join(args.bundle, "bench", "compile.json")
    compile_ms = {}
    if os.path.exists(compile_info):
        with open(compile_info) as f:
            compile_ms = json.load(f)

    # The table.
    print(
        f"\n{res.info.get('gpu', '?')}, N = {args.n} float32, TB/s of "
        f"compulsory traffic (median of {args.reps})"
    )
    cols = [e for e in ENGINES if any((c, e) in res.bw for c in args.cases)]
    print(
        f"{'case':36s}"
        + "".join(f"{e:>15s}" for e in cols)
        + f"{'sluice/best peer':>18s}{'sluice/cuda-c':>15s}"
    )
    for c in args.cases:
        row = f"{CASES[c][0]:36s}"
        for e in cols:
            v = res.bw.get((c, e))
            mark = "*" if (c, e) in res.notes else " "
            row += f"{v:14.3f}{mark}" if v is not None else f"{'n/a':>15s}"
        peers = [
            res.bw[(c, e)]
            for e in PEERS
            if (c, e) in res.bw and (c, e) not in res.notes
        ]
        if (c, "sluice") in res.bw and peers:
            row += f"{res.bw[(c, 'sluice')] / max(peers):18.3f}"
        if (c, "sluice") in res.bw and (c, "cuda-c") in res.bw:
            row += f"{res.bw[(c, 'sluice')] / res.bw[(c, 'cuda-c')]:15.3f}"
        print(row)
    for (c, e), note in res.notes.items():
        print(f"  * {e} {c}: {note}")
    print("\nper call at n=1024 (a*b+c*d-a), microseconds:")
    for e, v in res.percall.items():
        if e == "sluice":
            print(
                f"  {e:14s} {v[2]:8.2f} async (back-to-back calls, "
                f"sluiceProgramSetAsynchronous), {v[0]:8.2f} synchronous "
                "(median; the call returns after its kernel finished)"
            )
        else:
            print(
                f"  {e:14s} {v[0]:8.2f} async (back-to-back calls), "
                f"{v[1]:8.2f} with a synchronize after each call"
            )
    if compile_ms:
        print(
            "\ncompile time of a 10-op function (build machine): "
            + ", ".join(f"{k} {v:.1f} ms" for k, v in compile_ms.items())
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {
                    "bw": {f"{c}|{e}": v for (c, e), v in res.bw.items()},
                    "notes": {
                        f"{c}|{e}": v for (c, e), v in res.notes.items()
                    },
                    "percall_us": res.percall,
                    "info": res.info,
                    "compile_ms": compile_ms,
                    "n": args.n,
                },
                f,
                indent=1,
            )


if __name__ == "__main__":
    main()
