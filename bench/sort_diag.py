"""Diagnosis helper (GPU runs): each kernel launch of the cooperative sort
synchronised and named, so a fault is pinned on its kernel."""

import sys
import time

import numpy as np

import sluice
from sluice import _scans, _sorting

_sorting.COOPERATIVE = True
if "--simple-hist" in sys.argv:
    from sluice import _coop_sort_kernels as CS

    sys.argv.remove("--simple-hist")
    CS.SIMPLE_HIST = True
dev = sys.argv[1] if len(sys.argv) > 1 else "cuda:gpu:0"
for mod in (_sorting, _scans):
    f = mod.call_kernel

    def wrapped(k, space, *args, _f=f):
        name = getattr(k, "__name__", str(k))
        print("launch", name, flush=True)
        r = _f(k, space, *args)
        try:
            sluice.synchronize()
        except Exception as e:  # noqa: BLE001
            print("FAILED after", name, repr(e), flush=True)
            raise
        return r

    mod.call_kernel = wrapped
for n in [int(v) for v in sys.argv[2:]] or [4095]:
    a = np.random.default_rng(n).random(n).astype(np.float32)
    x = sluice.asarray(a, device=dev)
    for fn, ref in (
        (sluice.sort, np.sort(a)),
        (sluice.argsort, np.argsort(a, kind="stable")),
    ):
        t = time.time()
        got = sluice.asnumpy(fn(x))
        print(
            n,
            fn.__name__,
            "OK" if np.array_equal(got, ref) else "WRONG",
            time.time() - t,
            flush=True,
        )
