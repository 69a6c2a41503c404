"""Sorting, scans, histograms and reductions to an index: Sluice against
its peers in one process, medians of --reps runs, with ratios.

    PYTHONPATH=build/python .venv/bin/python bench/sort_scan.py --n 2**24
    python bench/sort_scan.py --device cuda:gpu:0 --n 2**27   # GPU machine

On the CPU the peer is NumPy; on a CUDA device the peers are CuPy (CUB)
and PyTorch, when importable. "sluice cpu ms" is the process's CPU time
during the Sluice call (all threads): on a loaded machine it tells whether
the second core was there at all; on the CPU "numpy cpu ms" follows, the
same for the NumPy call (their ratio is the work each does, whatever the
load). Every Sluice result is checked against the first peer before it is
timed. Cases (float32 keys unless said):
sort, argsort (stable), cumsum, argmax, mask (``a[a > 0.5]``: the
comparison and the compaction), bincount (256 bins, int32 keys),
histogram (256 equal bins), searchsorted (n/16 queries into n sorted
keys), unique (int32
keys in [0, 1000)), random (uniform float32).
"""

import argparse
import statistics
import sys
import time

import numpy as np

import sluice


def _median_time(fn, sync, reps, cpu=None):
    """Median wall time of fn; with a list `cpu`, the median CPU time of
    the process (all its threads) is appended to it: near the wall time,
    the work ran on one core (the other busy, or the code serial); near
    twice the wall time, on both cores of the 2-core machine."""
    fn()
    sync()
    ts = []
    cs = []
    for _ in range(reps):
        t = time.perf_counter()
        c = time.process_time()
        fn()
        sync()
        ts.append(time.perf_counter() - t)
        cs.append(time.process_time() - c)
    if cpu is not None:
        cpu.append(statistics.median(cs))
    return statistics.median(ts)


def _cases(n):
    rng = np.random.default_rng(7)
    f = rng.random(n, dtype=np.float32)
    k = rng.integers(0, 256, n, dtype=np.int32)
    u = rng.integers(0, 1000, n, dtype=np.int32)
    q = np.sort(rng.random(n // 16, dtype=np.float32))
    # name, input arrays, numpy fn, sluice fn, torch fn, cupy fn, exact?
    return [
        (
            "sort",
            (f,),
            np.sort,
            sluice.sort,
            lambda t: t.sort().values,
            lambda c, a: c.sort(a),
            True,
        ),
        (
            "argsort",
            (f,),
            lambda a: np.argsort(a, kind="stable"),
            sluice.argsort,
            lambda t: t.sort(stable=True).indices,
            lambda c, a: c.argsort(a),
            True,
        ),
        (
            "cumsum",
            (f,),
            np.cumsum,
            sluice.cumsum,
            lambda t: t.cumsum(0),
            lambda c, a: c.cumsum(a),
            False,
        ),
        (
            "argmax",
            (f,),
            np.argmax,
            sluice.argmax,
            lambda t: t.argmax(),
            lambda c, a: c.argmax(a),
            True,
        ),
        (
            "mask",
            (f,),
            lambda a: a[a > 0.5],
            lambda a: a[a > 0.5],
            lambda t: t[t > 0.5],
            lambda c, a: a[a > 0.5],
            True,
        ),
        (
            "bincount",
            (k,),
            np.bincount,
            sluice.bincount,
            lambda t: t.bincount(),
            lambda c, a: c.bincount(a),
            True,
        ),
        (
            "histogram",
            (f,),
            lambda a: np.histogram(a, 256, (0, 1))[0],
            lambda a: sluice.histogram(a, 256, (0, 1))[0],
            lambda t: t.histc(256, 0, 1),
            lambda c, a: c.histogram(a, 256, (0, 1))[0],
            True,
        ),
        (
            "searchsorted",
            (np.sort(f), q),
            np.searchsorted,
            sluice.searchsorted,
            lambda a, b: __import__("torch").searchsorted(a, b),
            lambda c, a, b: c.searchsorted(a, b),
            True,
        ),
        (
            "unique",
            (u,),
            np.unique,
            sluice.unique,
            lambda t: t.unique(),
            lambda c, a: c.unique(a),
            True,
        ),
    ]


def _bytes(name, arrays, n):
    # compulsory traffic: inputs read once, the output written once
    inb = sum(a.nbytes for a in arrays)
    out = {
        "sort": 4 * n,
        "argsort": 8 * n,
        "cumsum": 4 * n,
        "argmax": 8,
        "mask": 4 * int((arrays[0] > 0.5).sum()),
        "bincount": 256 * 8,
        "histogram": 256 * 8,
        "searchsorted": 8 * (n // 16),
        "unique": 4 * 1000,
    }[name]
    return inb + out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", default="2**24")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--device", default="host")
    p.add_argument("--only", default="")
    a = p.parse_args()
    n = int(eval(a.n, {}))  # noqa: S307  (a size like 2**24)
    dev = sluice.Device(a.device)
    gpu = dev.backend == "cuda" if hasattr(dev, "backend") else False
    gpu = gpu or a.device.startswith("cuda")
    peers = {}
    if gpu:
        try:
            import torch

            peers["torch"] = torch
        except ImportError:
            pass
        try:
            import cupy

            peers["cupy"] = cupy
        except ImportError:
            pass
    print(f"# n = {n}, device {a.device}, medians of {a.reps}")
    print(
        f"{'case':<13} {'sluice ms':>10} "
        + " ".join(
            f"{k + ' ms':>10}" for k in (["numpy"] if not gpu else peers)
        )
        + "  ratio (peer / sluice)   sluice GB/s   sluice cpu ms"
        + ("   numpy cpu ms" if not gpu else "")
    )
    for name, arrays, fnp, fsl, ftorch, fcupy, exact in _cases(n):
        if a.only and name not in a.only.split(","):
            continue
        xs = [sluice.asarray(x, device=dev) for x in arrays]
        got = sluice.asnumpy(fsl(*xs))
        if exact:
            ok = np.array_equal(got, fnp(*arrays))
        else:
            # against float64 sums: NumPy's sequential float32 cumsum of
            # 2^27 values in [0, 1) stalls far from them (spacing 8 at 2^26)
            ref = fnp(*[x.astype(np.float64) for x in arrays])
            ok = np.allclose(got, ref, rtol=1e-3, atol=1e-2 * np.sqrt(n))
        if not ok:
            print(f"{name}: WRONG RESULT against NumPy", file=sys.stderr)
            sys.exit(1)
        cpu = []
        ts = _median_time(lambda: fsl(*xs), sluice.synchronize, a.reps, cpu)
        row = [ts]
        if not gpu:
            row.append(
                _median_time(lambda: fnp(*arrays), lambda: None, a.reps, cpu)
            )
        else:
            for k, m in peers.items():
                if k == "torch":
                    ts_ = [m.from_numpy(x).cuda() for x in arrays]
                    row.append(
                        _median_time(
                            lambda: ftorch(*ts_), m.cuda.synchronize, a.reps
                        )
                    )
                else:
                    cs = [m.asarray(x) for x in arrays]
                    row.append(
                        _median_time(
                            lambda: fcupy(m, *cs),
                            m.cuda.Device().synchronize,
                            a.reps,
                        )
                    )
        gbs = _bytes(name, arrays, n) / ts / 1e9
        print(
            f"{name:<13} "
            + " ".join(f"{t * 1e3:10.2f}" for t in row)
            + "  "
            + " ".join(f"{t / ts:6.2f}x" for t in row[1:])
            + f"   {gbs:8.2f}   {cpu[0] * 1e3:10.2f}"
            + (f"   {cpu[1] * 1e3:12.2f}" if len(cpu) > 1 else "")
        )
    # random numbers: Philox in kernels against the peer's generator
    if not a.only or "random" in a.only:
        rs = sluice.random.RandomState(1, device=dev)
        ts = _median_time(
            lambda: rs.uniform(size=n, dtype=np.float32),
            sluice.synchronize,
            a.reps,
        )
        if not gpu:
            g = np.random.default_rng(1)
            cpu = []
            ts = _median_time(
                lambda: rs.uniform(size=n, dtype=np.float32),
                sluice.synchronize,
                a.reps,
                cpu,
            )
            tp = _median_time(
                lambda: g.random(n, dtype=np.float32),
                lambda: None,
                a.reps,
                cpu,
            )
            print(
                f"{'uniform':<13} {ts * 1e3:10.2f} {tp * 1e3:10.2f}  "
                f"{tp / ts:6.2f}x   {4 * n / ts / 1e9:8.2f}   "
                f"{cpu[0] * 1e3:10.2f}   {cpu[1] * 1e3:12.2f}"
            )
        else:
            print(
                f"{'uniform':<13} {ts * 1e3:10.2f}   {4 * n / ts / 1e9:8.2f}"
            )


if __name__ == "__main__":
    main()
