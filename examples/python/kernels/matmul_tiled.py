"""Tiled matrix multiplication: each workgroup stages TILE x TILE blocks of
both operands in workgroup memory, with barriers between loading and
using them.

    python matmul_tiled.py [DEVICE]
"""

import sys

import numpy as np

import sluice
from sluice import kernel_api as kapi

TILE = 16


@sluice.kernel
def matmul(item: kapi.NdItem, a, b, c, ta, tb):
    i = item.get_global_id(0)
    j = item.get_global_id(1)
    li = item.get_local_id(0)
    lj = item.get_local_id(1)
    group = item.get_group()
    n = a.shape[1]
    acc = np.float32(0.0)  # float32 sums (0.0 would make them float64)
    for t in range(n // TILE):
        ta[li, lj] = a[i, t * TILE + lj]
        tb[li, lj] = b[t * TILE + li, j]
        kapi.group_barrier(group)
        for k in range(TILE):
            acc += ta[li, k] * tb[k, lj]
        kapi.group_barrier(group)
    c[i, j] = acc


def main(device):
    m, n, p = 64, 96, 48
    rng = np.random.default_rng(6)
    a_np = rng.random((m, n), dtype=np.float32)
    b_np = rng.random((n, p), dtype=np.float32)
    a = sluice.asarray(a_np, device=device)
    b = sluice.asarray(b_np, device=device)
    c = sluice.empty((m, p), dtype=np.float32, device=device)
    sluice.call_kernel(
        matmul,
        kapi.NdRange((m, p), (TILE, TILE)),
        a,
        b,
        c,
        kapi.LocalAccessor((TILE, TILE), np.float32),
        kapi.LocalAccessor((TILE, TILE), np.float32),
    )
    err = np.max(np.abs(sluice.asnumpy(c) - a_np @ b_np))
    print(
        f"tiled matmul {m}x{n} @ {n}x{p} on {c.device.filter_string}: "
        f"max error {err:.3g}"
    )
    assert err < 1e-3
    print("OK")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
