"""The device kernels of advanced indexing: gathers, scatters and the
compaction of boolean masks.

They are ``@sluice.kernel`` programs, so they run on the queue of the arrays
they touch on every backend, in order with the other work of that queue.
Index arrays are always int64, sources and destinations contiguous, which
keeps the number of compiled signatures to one per dtype.
"""

import numpy as np

from . import kernel_api as kapi
from ._kernel import call_kernel, kernel

# Elements a work-item of the mask compaction scans.
CHUNK = 4096


@kernel
def _gather_rows(item: kapi.Item, src, idx, out):
    i = item.get_id(0)
    j = item.get_id(1)
    out[i, j] = src[idx[i], j]


@kernel
def _scatter(item: kapi.Item, dst, pos, val):
    i = item.get_id(0)
    dst[pos[i]] = val[i]


@kernel
def _scatter_in_order(item: kapi.Item, dst, pos, val, n):
    # One work-item, in index order: with repeated indices the last value
    # wins, as in NumPy.
    for i in range(n):
        dst[pos[i]] = val[i]


@kernel
def _count_chunks(item: kapi.Item, mask, counts, n, chunk):
    c = item.get_id(0)
    start = c * chunk
    stop = min(start + chunk, n)
    s = 0
    for k in range(start, stop):
        if mask[k]:
            s += 1
    counts[c] = s


@kernel
def _exclusive_scan(item: kapi.Item, counts, offsets, m):
    s = 0
    for c in range(m):
        offsets[c] = s
        s += counts[c]
    offsets[m] = s


@kernel
def _write_chunks(item: kapi.Item, mask, offsets, out, n, chunk):
    c = item.get_id(0)
    start = c * chunk
    stop = min(start + chunk, n)
    o = offsets[c]
    for k in range(start, stop):
        if mask[k]:
            out[o] = k
            o += 1


def _int64(a):
    from . import _ops

    if a.dtype != np.int64:
        a = _ops.astype(a, np.int64)
    return _contiguous(a)


def _contiguous(a):
    if a._c_contiguous:
        return a
    return a._contiguous(a._queue_id, a._usm_kind, True)


def _empty(shape, dtype, like):
    from . import _sluice as _ext
    from . import _dtypes

    return _ext.empty(
        like._queue_id,
        like._usm_kind,
        _dtypes.CODES[_dtypes.to_dtype(dtype)],
        list(shape),
    )


def gather_rows(src2d, idx, like=None):
    """``out[i, :] = src2d[idx[i], :]`` (idx int64, in range)."""
    n = idx.shape[0]
    cols = src2d.shape[1]
    out = _empty((n, cols), src2d.dtype, src2d)
    if n and cols:
        call_kernel(
            _gather_rows,
            kapi.Range(n, cols),
            _contiguous(src2d),
            _int64(idx),
            out,
        )
    return out


def scatter(dst1d, pos, val, in_order):
    """``dst1d[pos[i]] = val[i]``; ``in_order`` keeps NumPy's last-wins
    order where positions may repeat."""
    n = pos.shape[0]
    if not n:
        return
    pos = _int64(pos)
    val = _contiguous(val)
    if in_order:
        call_kernel(_scatter_in_order, kapi.Range(1), dst1d, pos, val, n)
    else:
        call_kernel(_scatter, kapi.Range(n), dst1d, pos, val)


def flat_true_positions(mask1d):
    """The positions of the true elements of a contiguous 1-d bool array,
    in order, as an int64 array on its queue. Counts per chunk in parallel,
    scans the counts, reads the total (the result's size decides its
    shape), then writes each chunk's positions in parallel."""
    n = mask1d.shape[0]
    if n == 0:
        return _empty((0,), np.int64, mask1d)
    mask1d = _contiguous(mask1d)
    from ._sorting import cooperative

    if cooperative(mask1d):
        return compact(mask1d)
    m = -(-n // CHUNK)
    counts = _empty((m,), np.int64, mask1d)
    offsets = _empty((m + 1,), np.int64, mask1d)
    call_kernel(_count_chunks, kapi.Range(m), mask1d, counts, n, CHUNK)
    call_kernel(_exclusive_scan, kapi.Range(1), counts, offsets, m)
    total = int(offsets[m])
    out = _empty((total,), np.int64, mask1d)
    if total:
        call_kernel(
            _write_chunks, kapi.Range(m), mask1d, offsets, out, n, CHUNK
        )
    return out


def compact(mask1d, src=None):
    """With ``_coop_kernels``' workgroups (GPUs): the positions of the
    non-zero elements of a contiguous 1-d mask, or with ``src`` (1-d,
    contiguous, as long as the mask) the elements of src there. A count
    per tile with the total (read here: it is the result's size), the
    look-back scan of the counts, then one launch that writes each tile's
    part from its offset."""
    from . import _coop_kernels as C
    from ._array import asnumpy

    n = mask1d.shape[0]
    dt = np.int64 if src is None else src.dtype
    if n == 0:
        return _empty((0,), dt, mask1d)
    ntiles = -(-n // C.TILE)
    cnt = _empty((ntiles,), np.int64, mask1d)
    tot = _zeros(1, np.int64, mask1d)
    call_kernel(
        C.k_mask_count,
        kapi.NdRange((ntiles * C.WG,), (C.WG,)),
        mask1d,
        n,
        cnt,
        tot,
        kapi.LocalAccessor((C.WG,), np.int64),
    )
    total = int(asnumpy(tot)[0])
    out = _empty((total,), dt, mask1d)
    if total:
        from ._scans import _lookback_scan

        offs = _lookback_scan(cnt, 1, ntiles, np.int64, False, mask1d)
        call_kernel(
            C.COMPACT[src is not None],
            kapi.NdRange((ntiles * C.WG,), (C.WG,)),
            mask1d,
            mask1d if src is None else src,
            n,
            offs,
            out,
            kapi.LocalAccessor((C.TILE + C.TILE // 32,), np.int32),
            kapi.LocalAccessor((C.TILE,), np.int32),
            kapi.LocalAccessor((C.WG,), np.int64),
        )
    return out


def _zeros(n, dtype, like):
    from ._creation import zeros

    return zeros(
        n, dtype=dtype, sycl_queue=like.sycl_queue, usm_type=like.usm_type
    )
