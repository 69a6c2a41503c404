"""The reductions of bench/lazy.py's lazy graphs as compiled artifacts, on a
machine with no compiler: two builds of bench/lazy-programs.mlir (the
programs the lazy graphs of pairwise distances and the softmax become, sizes
dynamic), timed with device markers through the runtime's C API
(bench/sluice_artifact.py), next to CuPy where installed.

    (here)  build/bin/sluice-compile --device=cuda:gpu:0 \
                bench/lazy-programs.mlir -o DIR/after.so   # and before.so
    (GPU)   python3 bench/lazy_artifacts.py RUNTIME.so DIR

ART_SUFFIX=_host reads DIR/before_host.so and DIR/after_host.so (the same
programs compiled for host:cpu:0) to try it here.
"""

import os
import sys
import time
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sluice_artifact import Artifact, Runtime

rt = Runtime(sys.argv[1])
here = (
    sys.argv[2]
    if len(sys.argv) > 2
    else os.path.dirname(os.path.abspath(__file__))
)


def med(ts):
    ts = sorted(ts)
    return ts[len(ts) // 2]


def time_art(art, name, inputs, reps=20, warm=3):
    call = art.prepare(name, inputs)
    try:
        q = call.queue()
        r = call.sig.results[0]
        rq = rt.queue(r.device, r.queue_name)
        dev, wall = [], []
        for i in range(warm + reps):
            m = rt.marker(q)
            rt.lib.sluiceProgramSetAsynchronous(1)
            try:
                st = call.call()
            finally:
                rt.lib.sluiceProgramSetAsynchronous(0)
            assert st == 0, rt.error()
            e = rt.marker(rq)
            if i >= warm:
                dev.append((rt.end_ns(e) - rt.end_ns(m)) * 1e-9)
            rt.release(m)
            rt.release(e)
            call.free_results()
            t0 = time.perf_counter()
            st = call.call()
            t1 = time.perf_counter()
            assert st == 0, rt.error()
            if i >= warm:
                wall.append(t1 - t0)
            if i + 1 < warm + reps:
                call.free_results()
        out = call.read_results()[0]
        call.free_results()
        return med(dev), med(wall), out
    finally:
        call.close()


try:
    import cupy as cp
except ImportError:
    cp = None


def time_cupy(f, reps=20, warm=3):
    if cp is None:
        return float("nan"), None
    s, e = cp.cuda.Event(), cp.cuda.Event()
    ts = []
    for i in range(warm + reps):
        s.record()
        r = f()
        e.record()
        e.synchronize()
        if i >= warm:
            ts.append(cp.cuda.get_elapsed_time(s, e) * 1e-3)
    return med(ts), cp.asnumpy(r)


rng = np.random.default_rng(2)
cases = []
for n in (256, 2048):
    p = rng.standard_normal((n, 3)).astype(np.float32)
    ref = np.sqrt(((p[:, None, :] - p[None, :, :]) ** 2).sum(-1))
    xc = cp.asarray(p) if cp else None

    def fc(xc=xc):
        d = xc[:, None, :] - xc[None, :, :]
        return cp.sqrt((d * d).sum(axis=-1))

    cases.append(
        (
            f"pairwise {n}x3",
            "pairwise",
            [p[:, None, :].copy(), p[None, :, :].copy()],
            ref,
            fc,
        )
    )
for rows, cols in ((64, 64), (4096, 256), (4096, 7)):
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    ref = np.exp(x - x.max(1, keepdims=True))
    ref /= ref.sum(1, keepdims=True)
    xc = cp.asarray(x) if cp else None

    def fc(xc=xc):
        e = cp.exp(xc - xc.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    cases.append((f"softmax {rows}x{cols}", "softmax", [x], ref, fc))

suffix = os.environ.get("ART_SUFFIX", "")
arts = {
    k: Artifact(rt, os.path.join(here, k + suffix + ".so"))
    for k in ("before", "after")
}
head = ("case", "before ms", "after ms", "cupy ms", "after wall")
print(f"{head[0]:18}", *(f"{h:>10}" for h in head[1:]), " max rel err")
for label, fn, ins, ref, fc in cases:
    row = []
    for k in ("before", "after"):
        d, w, out = time_art(arts[k], fn, ins)
        err = float(
            np.max(np.abs(out - ref)) / max(1e-30, float(np.max(np.abs(ref))))
        )
        row.append((d, w, err))
    c, cout = time_cupy(fc)
    ms = (row[0][0], row[1][0], c, row[1][1])
    print(
        f"{label:18}",
        *(f"{t * 1e3:10.4f}" for t in ms),
        f" {row[1][2]:.2e} (before {row[0][2]:.2e})",
    )
