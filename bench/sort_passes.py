"""Where the time of the workgroup-cooperative radix sort goes
(python/sluice/_coop_sort_kernels.py): every kernel launch of
``sluice.sort`` and ``sluice.argsort`` timed alone (a synchronisation
before and after each), medians over --reps calls, by stage and pass; then
whole calls (no synchronisation inside) with variants of the tile
(elements per work-item), the chunk (tiles per workgroup) and the
histogram's counter copies, each checked against NumPy first.

    python bench/sort_passes.py --device cuda:gpu:0 --n 2**27

Keys: float32 in [0, 1) as bench/sort_scan.py's. The cooperative kernels
are forced on (a CPU device takes them too, for trying the script here).
"""

import argparse
import statistics
import time

import numpy as np

import sluice
from sluice import _coop_sort_kernels as CS
from sluice import _scans, _sorting


def _instrument(rec):
    saved = {}
    for mod in (_sorting, _scans):
        f = mod.call_kernel

        def timed(k, space, *args, _f=f):
            sluice.synchronize()
            t = time.perf_counter()
            r = _f(k, space, *args)
            sluice.synchronize()
            rec.append(
                (getattr(k, "__name__", str(k)), time.perf_counter() - t)
            )
            return r

        saved[mod] = f
        mod.call_kernel = timed
    return saved


def _restore(saved):
    for mod, f in saved.items():
        mod.call_kernel = f


def _median(fn, reps, sync=None):
    sync = sync or sluice.synchronize
    fn()
    sync()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        sync()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def _stages(fn, reps):
    """(whole call's median with every kernel synchronised, [(stage,
    median ms)])."""
    runs = []
    walls = []
    fn()
    sluice.synchronize()
    for _ in range(reps):
        rec = []
        saved = _instrument(rec)
        try:
            t = time.perf_counter()
            fn()
            sluice.synchronize()
            walls.append(time.perf_counter() - t)
        finally:
            _restore(saved)
        runs.append(rec)
    rows = []
    npass = 0
    for i, (name, _) in enumerate(runs[0]):
        if name == "k_radix_hist":
            npass += 1
        label = name if npass == 0 else f"pass {npass}: {name}"
        rows.append((label, statistics.median(r[i][1] for r in runs)))
    return statistics.median(walls), rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", default="2**27")
    p.add_argument("--reps", type=int, default=7)
    p.add_argument("--device", default="cuda:gpu:0")
    p.add_argument("--variants", type=int, default=1)
    a = p.parse_args()
    n = int(eval(a.n, {}))  # noqa: S307  (a size like 2**27)
    _sorting.COOPERATIVE = True
    dev = sluice.Device(a.device)
    rng = np.random.default_rng(7)
    f = rng.random(n, dtype=np.float32)
    x = sluice.asarray(f, device=dev)
    ref = np.sort(f)
    refi = np.argsort(f, kind="stable")
    assert np.array_equal(sluice.asnumpy(sluice.sort(x)), ref)
    assert np.array_equal(sluice.asnumpy(sluice.argsort(x)), refi)
    print(f"# n = {n}, device {a.device}, medians of {a.reps}")
    for name, fn in (("sort", sluice.sort), ("argsort", sluice.argsort)):
        whole = _median(lambda: fn(x), a.reps)
        synced, rows = _stages(lambda: fn(x), a.reps)
        print(
            f"\n{name}: {whole * 1e3:.3f} ms a call; with every kernel "
            f"synchronised {synced * 1e3:.3f} ms, of which:"
        )
        tot = 0.0
        for label, t in rows:
            tot += t
            print(f"  {label:<34} {t * 1e3:8.3f} ms")
        print(f"  {'(kernels, summed)':<34} {tot * 1e3:8.3f} ms")
    try:
        import cupy

        c = cupy.asarray(f)
        cs = cupy.cuda.Device().synchronize
        tc = _median(lambda: cupy.sort(c), a.reps, cs)
        ta = _median(lambda: cupy.argsort(c), a.reps, cs)
        print(f"\ncupy.sort {tc * 1e3:.3f} ms, cupy.argsort {ta * 1e3:.3f} ms")
    except ImportError:
        pass
    if not a.variants:
        return
    print("\nvariants (whole calls; ipt: elements per work-item of a tile,")
    print("tpw: tiles per workgroup, hc: histogram counter copies)")
    base = (dict(CS.IPT), CS.TPW, CS.HC)
    for what, fn, want in (
        ("sort", sluice.sort, ref),
        ("argsort", sluice.argsort, refi),
    ):
        vs = 4 if what == "argsort" else 0
        for ipt in (8, 16) if not vs else (8, 12):
            for tpw in (1, 2, 4):
                for hc in (1, 8) if tpw == 2 else (8,):
                    CS.IPT[(4, vs)] = ipt
                    CS.TPW = tpw
                    CS.HC = hc
                    try:
                        ok = np.array_equal(sluice.asnumpy(fn(x)), want)
                        t = _median(lambda: fn(x), a.reps)
                        print(
                            f"  {what:<8} ipt {ipt:2d} tpw {tpw:2d} hc {hc}: "
                            f"{t * 1e3:8.3f} ms{'' if ok else '  WRONG'}"
                        )
                    finally:
                        CS.IPT.clear()
                        CS.IPT.update(base[0])
                        CS.TPW, CS.HC = base[1], base[2]


if __name__ == "__main__":
    main()
