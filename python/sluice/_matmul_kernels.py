"""Tiled matrix-product kernels for SPIR-V devices (OpenCL, Level Zero),
written with the kernel API (docs/kernels.md): each workgroup of TILE x
TILE work-items stages TILE x TILE blocks of both operands in workgroup
memory, with barriers between loading and using them, so each operand
element is read from global memory N/TILE (or M/TILE) times instead of N
(or M) times. Eager products of float32/float64 on those devices run here
(docs/linalg.md, "What serves each device"); one kernel per dtype, compiled
once, sizes at run time."""

import numpy as np

from . import kernel_api as kapi
from ._kernel import call_kernel, kernel

TILE = 16


@kernel
def _tiled_f32(item: kapi.NdItem, a, b, c, m, n, k, sa, sb, ta, tb):
    bt = item.get_global_id(0)
    i = item.get_global_id(1)
    j = item.get_global_id(2)
    li = item.get_local_id(1)
    lj = item.get_local_id(2)
    group = item.get_group()
    acc = np.float32(0)
    for t in range((k + TILE - 1) // TILE):
        ka = t * TILE + lj
        kb = t * TILE + li
        ta[li, lj] = a[bt * sa + i * k + ka] if i < m and ka < k else 0
        tb[li, lj] = b[bt * sb + kb * n + j] if kb < k and j < n else 0
        kapi.group_barrier(group)
        for q in range(TILE):
            acc += ta[li, q] * tb[q, lj]
        kapi.group_barrier(group)
    if i < m and j < n:
        c[bt * m * n + i * n + j] = acc


@kernel
def _tiled_f64(item: kapi.NdItem, a, b, c, m, n, k, sa, sb, ta, tb):
    bt = item.get_global_id(0)
    i = item.get_global_id(1)
    j = item.get_global_id(2)
    li = item.get_local_id(1)
    lj = item.get_local_id(2)
    group = item.get_group()
    acc = np.float64(0)
    for t in range((k + TILE - 1) // TILE):
        ka = t * TILE + lj
        kb = t * TILE + li
        ta[li, lj] = a[bt * sa + i * k + ka] if i < m and ka < k else 0
        tb[li, lj] = b[bt * sb + kb * n + j] if kb < k and j < n else 0
        kapi.group_barrier(group)
        for q in range(TILE):
            acc += ta[li, q] * tb[q, lj]
        kapi.group_barrier(group)
    if i < m and j < n:
        c[bt * m * n + i * n + j] = acc


def tiled_matmul(a, b, c):
    """c = a @ b for contiguous sluice arrays a (B?, M, K), b (B?, K, N)
    with batch axes each equal to c's (B, M, N) or of size 1, all of one
    float dtype on one queue."""
    from ._ops import reshape

    m, k = a.shape[-2], a.shape[-1]
    n = b.shape[-1]
    batch = 1
    for d in c.shape[:-2]:
        batch *= d
    sa = m * k if a.size == batch * m * k and batch > 1 else 0
    sb = k * n if b.size == batch * k * n and batch > 1 else 0
    fn = _tiled_f32 if c.dtype == np.float32 else _tiled_f64
    grid = (batch, -(-m // TILE) * TILE, -(-n // TILE) * TILE)
    call_kernel(
        fn,
        kapi.NdRange(grid, (1, TILE, TILE)),
        reshape(a, (-1,)),
        reshape(b, (-1,)),
        reshape(c, (-1,)),
        m,
        n,
        k,
        sa,
        sb,
        kapi.LocalAccessor((TILE, TILE), c.dtype),
        kapi.LocalAccessor((TILE, TILE), c.dtype),
    )
    return c
