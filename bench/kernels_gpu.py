"""Kernels written in Python (@sluice.kernel) against the same algorithms
written in CUDA C and launched through CuPy's RawKernel, on one CUDA GPU,
in one process.

    python bench/kernels_gpu.py [--quick] [--reps N] [--device cuda:gpu:0]

The Sluice side is the kernels of examples/python/kernels (tiled matrix
multiplication with workgroup memory and barriers, histograms with global
and with workgroup-local atomics, a work-group reduction, Black-Scholes);
the CuPy side is the same algorithm, the same workgroup sizes and the same
float32 arithmetic in CUDA C. Each is checked against NumPy before it is
timed. A sample is a batch of launches in a row followed by one device
synchronisation (for Sluice: the queue's wait), the batch long enough
(about 20 ms, at most 100 launches, the same for both sides) that the
time is the device's rather than the launch's; times are medians of
--reps samples per launch; the ratio is CuPy's time over Sluice's (above
1: Sluice is faster).

Skips (exit status 0, with a message) where CuPy, a CUDA device, or
Sluice's CUDA queue is missing. With a device that is not CUDA's
(``--device host:cpu:0``) and no CuPy it runs and checks the Sluice side
only (a check of the script on machines without a GPU). Exit status 1 when
a result is wrong.
"""

import argparse
import os
import runpy
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "examples", "python", "kernels")

CUDA_SRC = r"""
#define TILE 16

// examples/python/kernels/matmul_tiled.py
extern "C" __global__ void matmul(const float* a, const float* b, float* c,
                                  int n, int p) {
  __shared__ float ta[TILE][TILE];
  __shared__ float tb[TILE][TILE];
  int li = threadIdx.y, lj = threadIdx.x;
  long long i = (long long)blockIdx.y * TILE + li;
  long long j = (long long)blockIdx.x * TILE + lj;
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    ta[li][lj] = a[i * n + t * TILE + lj];
    tb[li][lj] = b[(long long)(t * TILE + li) * p + j];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += ta[li][k] * tb[k][lj];
    __syncthreads();
  }
  c[i * p + j] = acc;
}

// examples/python/kernels/histogram.py: histogram
extern "C" __global__ void histogram(const float* data, long long bins,
                                     int* counts, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long b = (long long)(data[i] * (float)bins);
  if (b >= bins) b = bins - 1;
  atomicAdd(&counts[b], 1);
}

// examples/python/kernels/histogram.py: histogram_local
extern "C" __global__ void histogram_local(const float* data, long long bins,
                                           int* counts, long long n) {
  extern __shared__ int local_counts[];
  long long lid = threadIdx.x, nl = blockDim.x;
  for (long long b = lid; b < bins; b += nl) local_counts[b] = 0;
  __syncthreads();
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    long long k = (long long)(data[i] * (float)bins);
    if (k >= bins) k = bins - 1;
    atomicAdd(&local_counts[k], 1);
  }
  __syncthreads();
  for (long long b = lid; b < bins; b += nl) {
    int c = local_counts[b];
    if (c != 0) atomicAdd(&counts[b], c);
  }
}

// examples/python/kernels/reduction.py: group_sum
extern "C" __global__ void group_sum(const float* a, float* partial,
                                     float* total) {
  extern __shared__ float scratch[];
  long long gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  int lid = threadIdx.x;
  scratch[lid] = a[gid];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (lid < stride) scratch[lid] += scratch[lid + stride];
    __syncthreads();
  }
  if (lid == 0) {
    partial[blockIdx.x] = scratch[0];
    atomicAdd(total, scratch[0]);
  }
}

// examples/python/kernels/black_scholes.py
__device__ float cnd(float d) {
  return 0.5f + 0.5f * erff(d * (float)(1.0 / 1.4142135623730951));
}

extern "C" __global__ void black_scholes(const float* price,
                                         const float* strike, const float* t,
                                         float* call, float* put,
                                         long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float vol = 0.2f;
  float p = price[i], s = strike[i], tt = t[i];
  float sig_sqrt_t = vol * sqrtf(tt);
  float d1 = (logf(p / s) + (float)(0.1 + 0.5 * 0.2 * 0.2) * tt) / sig_sqrt_t;
  float d2 = d1 - sig_sqrt_t;
  float discounted = s * expf(-0.1f * tt);
  float c = p * cnd(d1) - discounted * cnd(d2);
  call[i] = c;
  put[i] = c - p + discounted;
}
"""


def skip(msg):
    print(f"kernels_gpu: skipped: {msg}")
    sys.exit(0)


def median_time(fn, sync, reps, batch):
    """The median over ``reps`` samples of the time per call of ``batch``
    calls in a row followed by one synchronisation."""
    fn()
    sync()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        sync()
        ts.append((time.perf_counter() - t0) / batch)
    return statistics.median(ts)


def batch_size(fn, sync):
    """Calls per sample: enough for about 20 ms, so that the time is the
    device's and not the launch's (at most 100)."""
    fn()
    sync()
    t0 = time.perf_counter()
    fn()
    sync()
    t = time.perf_counter() - t0
    return max(1, min(100, int(0.02 / max(t, 1e-6))))


class Bench:
    """The cases' rows: each side is launched once and checked, then
    timed."""

    def __init__(self, reps, queue, cp):
        self.reps, self.queue, self.cp = reps, queue, cp
        self.rows = []

    def case(self, name, size, work, unit, s_fn, s_check, c_fn, c_check):
        s_fn()
        ok_s = bool(s_check())
        batch = batch_size(s_fn, self.queue.wait)
        t_s = median_time(s_fn, self.queue.wait, self.reps, batch)
        ok_c, t_c = None, None
        if self.cp is not None:
            c_fn()
            ok_c = bool(c_check())
            t_c = median_time(
                c_fn, self.cp.cuda.Device().synchronize, self.reps, batch
            )
        self.rows.append((name, size, work, unit, t_s, t_c, ok_s, ok_c, batch))
        print(f"  {name}: done", flush=True)

    def table(self, title):
        print(f"\n{title}")
        head = (
            f"{'kernel':30} {'size':>10} {'sluice ms':>10} {'cupy ms':>10} "
            f"{'sluice':>9} {'cupy':>9} {'unit':>8} {'ratio':>6} {'batch':>5}"
        )
        print(head)
        print("-" * len(head))
        status = 0
        for name, size, work, unit, t_s, t_c, ok_s, ok_c, batch in self.rows:
            rs = f"{work / t_s / 1e9:9.1f}" if ok_s else "    wrong"
            if ok_c is None:
                tc, rc, ratio = "n/a", "n/a", "n/a"
            else:
                tc = f"{t_c * 1e3:.3f}"
                rc = f"{work / t_c / 1e9:9.1f}" if ok_c else "wrong"
                ratio = f"{t_c / t_s:6.2f}" if ok_s and ok_c else "n/a"
            if not ok_s or ok_c is False:
                status = 1
            print(
                f"{name:30} {size:>10} {t_s * 1e3:10.3f} {tc:>10} {rs} "
                f"{rc:>9} {unit:>8} {ratio:>6} {batch:>5}"
            )
        print(
            "ratio: CuPy's time over Sluice's (above 1: Sluice is faster); "
            "'wrong': the result did not match NumPy"
        )
        return status


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes")
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--device", default="cuda:gpu:0")
    args = ap.parse_args()
    reps = args.reps or (10 if args.quick else 20)
    dev = args.device
    on_cuda = dev.startswith("cuda")

    try:
        import cupy as cp
    except ImportError as e:
        if on_cuda:
            skip(f"CuPy is not installed ({e})")
        cp = None
    if cp is not None:
        try:
            if cp.cuda.runtime.getDeviceCount() < 1:
                raise RuntimeError("no device")
        except Exception as e:  # no driver, no device
            if on_cuda:
                skip(f"no CUDA device for CuPy ({e})")
            cp = None
    import sluice
    from sluice import kernel_api as kapi

    present = {d.filter_string for d in sluice.get_devices()}
    if dev not in present:
        skip(f"Sluice sees no {dev} (devices: {sorted(present)})")

    ex = {
        name: runpy.run_path(os.path.join(EXAMPLES, name + ".py"))
        for name in ("matmul_tiled", "histogram", "reduction", "black_scholes")
    }
    tile = ex["matmul_tiled"]["TILE"]
    cu = {}
    if cp is not None:
        src = CUDA_SRC.replace("#define TILE 16", f"#define TILE {tile}")
        mod = cp.RawModule(code=src)
        for k in (
            "matmul",
            "histogram",
            "histogram_local",
            "group_sum",
            "black_scholes",
        ):
            cu[k] = mod.get_function(k)

    def on_gpu(x):
        return cp.asarray(x) if cp is not None else None

    def host(x):
        return cp.asnumpy(x)

    rng = np.random.default_rng(0)
    probe = sluice.zeros(1, dtype=np.float32, device=dev)
    bench = Bench(reps, probe.sycl_queue, cp)

    # --- tiled matmul (workgroup memory, barriers) ---------------------------
    m = 1024 if args.quick else 4096
    a_np = rng.random((m, m), dtype=np.float32)
    b_np = rng.random((m, m), dtype=np.float32)
    ref = a_np.astype(np.float64) @ b_np.astype(np.float64)
    tol = 1e-5 * m
    a, b = sluice.asarray(a_np, device=dev), sluice.asarray(b_np, device=dev)
    c = sluice.empty((m, m), dtype=np.float32, device=dev)
    ca, cb = on_gpu(a_np), on_gpu(b_np)
    cc = on_gpu(np.empty((m, m), np.float32))
    kmat = ex["matmul_tiled"]["matmul"]
    bench.case(
        f"matmul tiled {tile}x{tile}",
        f"{m}^3",
        2.0 * m**3,
        "GFLOP/s",
        lambda: sluice.call_kernel(
            kmat,
            kapi.NdRange((m, m), (tile, tile)),
            a,
            b,
            c,
            kapi.LocalAccessor((tile, tile), np.float32),
            kapi.LocalAccessor((tile, tile), np.float32),
        ),
        lambda: np.max(np.abs(sluice.asnumpy(c) - ref)) < tol,
        lambda: cu["matmul"](
            (m // tile, m // tile),
            (tile, tile),
            (ca, cb, cc, np.int32(m), np.int32(m)),
        ),
        lambda: np.max(np.abs(host(cc) - ref)) < tol,
    )

    # --- histograms (atomics) ------------------------------------------------
    # Later calls keep adding to the bins (the check is the first call's).
    n = (1 << 24) if args.quick else (1 << 26)
    data_np = rng.random(n, dtype=np.float32)
    data, cdata = sluice.asarray(data_np, device=dev), on_gpu(data_np)
    groups, group = 1024, 256
    for bins in (64, 256):
        idx = np.minimum(
            (data_np * np.float32(bins)).astype(np.int64), bins - 1
        )
        href = np.bincount(idx, minlength=bins)
        counts = sluice.zeros(bins, dtype=np.int32, device=dev)
        ccounts = on_gpu(np.zeros(bins, np.int32))
        kh = ex["histogram"]["histogram"]
        bench.case(
            f"histogram global ({bins} bins)",
            f"{n}",
            4.0 * n,
            "GB/s",
            lambda: sluice.call_kernel(kh, kapi.Range(n), data, bins, counts),
            lambda: np.array_equal(sluice.asnumpy(counts), href),
            lambda: cu["histogram"](
                ((n + 255) // 256,),
                (256,),
                (cdata, np.int64(bins), ccounts, np.int64(n)),
            ),
            lambda: np.array_equal(host(ccounts), href),
        )
        counts2 = sluice.zeros(bins, dtype=np.int32, device=dev)
        ccounts2 = on_gpu(np.zeros(bins, np.int32))
        khl = ex["histogram"]["histogram_local"]
        bench.case(
            f"histogram local ({bins} bins)",
            f"{n}",
            4.0 * n,
            "GB/s",
            lambda: sluice.call_kernel(
                khl,
                kapi.NdRange((groups * group,), (group,)),
                data,
                bins,
                counts2,
                kapi.LocalAccessor((bins,), np.int32),
            ),
            lambda: np.array_equal(sluice.asnumpy(counts2), href),
            lambda: cu["histogram_local"](
                (groups,),
                (group,),
                (cdata, np.int64(bins), ccounts2, np.int64(n)),
                shared_mem=4 * bins,
            ),
            lambda: np.array_equal(host(ccounts2), href),
        )

    # --- work-group reduction (barriers, an atomic per group) ----------------
    group = 256
    n = (1 << 24) if args.quick else (1 << 27)
    groups = n // group
    x_np = rng.random(n, dtype=np.float32)
    pref = x_np.reshape(groups, group).astype(np.float64).sum(axis=1)
    x, cx = sluice.asarray(x_np, device=dev), on_gpu(x_np)
    partial = sluice.zeros(groups, dtype=np.float32, device=dev)
    total = sluice.zeros(1, dtype=np.float32, device=dev)
    cpartial = on_gpu(np.zeros(groups, np.float32))
    ctotal = on_gpu(np.zeros(1, np.float32))
    kred = ex["reduction"]["group_sum"]

    def red_ok(p, t):
        return (
            np.allclose(p, pref, rtol=1e-5)
            and abs(t[0] - pref.sum()) <= 1e-3 * pref.sum()
        )

    bench.case(
        f"reduction (groups of {group})",
        f"{n}",
        4.0 * n,
        "GB/s",
        lambda: sluice.call_kernel(
            kred,
            kapi.NdRange((n,), (group,)),
            x,
            partial,
            total,
            kapi.LocalAccessor((group,), np.float32),
        ),
        lambda: red_ok(sluice.asnumpy(partial), sluice.asnumpy(total)),
        lambda: cu["group_sum"](
            (groups,), (group,), (cx, cpartial, ctotal), shared_mem=4 * group
        ),
        lambda: red_ok(host(cpartial), host(ctotal)),
    )

    # --- Black-Scholes (math functions) --------------------------------------
    n = (1 << 22) if args.quick else (1 << 25)
    price = rng.uniform(10.0, 50.0, n).astype(np.float32)
    strike = rng.uniform(10.0, 50.0, n).astype(np.float32)
    tt = rng.uniform(1.0, 2.0, n).astype(np.float32)
    k = 100_000  # elements checked (the reference is slow)
    rc, rp = ex["black_scholes"]["reference"](
        *(v[:k].astype(np.float64) for v in (price, strike, tt))
    )
    ins = [sluice.asarray(v, device=dev) for v in (price, strike, tt)]
    call = sluice.empty(n, dtype=np.float32, device=dev)
    put = sluice.empty(n, dtype=np.float32, device=dev)
    cins = [on_gpu(v) for v in (price, strike, tt)]
    ccall = on_gpu(np.empty(n, np.float32))
    cput = on_gpu(np.empty(n, np.float32))
    kbs = ex["black_scholes"]["black_scholes"]

    def bs_ok(c_, p_):
        return (
            np.max(np.abs(c_[:k] - rc)) < 1e-2
            and np.max(np.abs(p_[:k] - rp)) < 1e-2
        )

    bench.case(
        "black-scholes",
        f"{n}",
        20.0 * n,
        "GB/s",
        lambda: sluice.call_kernel(kbs, kapi.Range(n), *ins, call, put),
        lambda: bs_ok(sluice.asnumpy(call), sluice.asnumpy(put)),
        lambda: cu["black_scholes"](
            ((n + 255) // 256,),
            (256,),
            (*cins, ccall, cput, np.int64(n)),
        ),
        lambda: bs_ok(host(ccall), host(cput)),
    )

    if cp is not None:
        name = cp.cuda.runtime.getDeviceProperties(0)["name"]
        name = name.decode() if isinstance(name, bytes) else name
    else:
        name = "no CuPy"
    return bench.table(
        f"Kernels on {dev} ({name}), float32, medians of {reps} "
        "(per launch, in batches); GFLOP/s or GB/s of compulsory traffic"
    )


if __name__ == "__main__":
    sys.exit(main())
