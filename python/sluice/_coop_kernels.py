"""Workgroup-cooperative kernels of scans, reductions to an index,
histograms and mask compaction: the GPU-shaped counterparts of the blocked
kernels of ``_sort_kernels`` (one work-item per block, right for the host's
thread pool, far too few work-items for a GPU).

Here a workgroup of ``WG`` work-items takes a tile of the data together:
loads and stores are striped across the work-items (neighbouring work-items
touch neighbouring elements, so a GPU coalesces them), and the work-items
combine their parts through workgroup memory between barriers.

- scans: one pass with decoupled look-back. Each workgroup takes the next
  tile from a ticket counter (so every tile before it has been started:
  no wait can deadlock), scans it in workgroup memory, publishes its total
  (flag 1) and looks back over its predecessors' flags until it finds an
  inclusive prefix (flag 2), then publishes its own inclusive prefix. The
  flag is stored with release and loaded with acquire ordering, the values
  beside it relaxed. No identity element is ever added, so a leading -0.0
  keeps its sign (as NumPy's sequential sum).
- argmax and friends: each workgroup reduces a chunk, work-items striding,
  then a tree in workgroup memory with NumPy's tie and NaN rules.
- histograms: counts private to the workgroup in workgroup memory (local
  atomics), added to the global counts with one global atomic per bin.
- mask compaction: a look-back scan of the mask's tile counts, then each
  tile writes its selected positions (or values) from its offset.

``_sorting.cooperative(x)`` decides where these run: GPUs, or any device
while the internal switch ``_sorting.COOPERATIVE`` is True (the tests
force them on the CPU devices).
"""

import numpy as np

from . import _kernel as _k
from . import kernel_api as kapi

kernel = _k.kernel

WG = 256  # work-items of a workgroup
IPT = 16  # elements per work-item of a scan tile
TILE = WG * IPT

_ACQ = kapi.MemoryOrder.ACQUIRE
_REL = kapi.MemoryOrder.RELEASE
_DEV = kapi.MemoryScope.DEVICE


@_k.device_func
def _pad(i):
    # one unused slot every 32: a work-item's run of IPT consecutive
    # elements then starts in another bank than its neighbour's
    return i + (i >> 5)


# --- scans -------------------------------------------------------------------


def _scan_kernel(prod):
    @kernel
    def k_scan_lookback(
        it: kapi.NdItem,
        x,
        length,
        tpr,
        ntiles,
        out,
        flags,
        agg,
        incl,
        buf,
        tots,
        ticket,
    ):
        # inclusive scan of each row (length elements, tpr tiles) of x
        lid = it.get_local_id(0)
        g = it.get_group()
        top = WG  # tots[top]: the tile's prefix (a constant index
        # in an assignment's target is taken for a variable)
        if lid == 0:
            ticket[0] = kapi.AtomicRef(flags, ntiles).fetch_add(1)
        kapi.group_barrier(g)
        t = ticket[0]
        row = t // tpr
        tr = t - row * tpr
        lo = row * length + tr * TILE
        cnt = min(length - tr * TILE, TILE)
        for j in range(IPT):
            k = j * WG + lid
            if k < cnt:
                buf[_pad(k)] = x[lo + k]
        kapi.group_barrier(g)
        # each work-item scans its IPT consecutive elements in place
        b = lid * IPT
        m = min(max(cnt - b, 0), IPT)
        if m > 0:
            s = buf[_pad(b)]
            for j in range(1, m):
                q = _pad(b + j)
                if prod:
                    s = s * buf[q]
                else:
                    s = s + buf[q]
                buf[q] = s
            tots[lid] = s
        kapi.group_barrier(g)
        # inclusive scan of the work-items' totals (Hillis-Steele); the
        # work-items past the tile's end come last and touch only their own
        d = 1
        while d < WG:
            v = tots[lid]
            if lid >= d:
                if prod:
                    v = tots[lid - d] * v
                else:
                    v = tots[lid - d] + v
            kapi.group_barrier(g)
            tots[lid] = v
            kapi.group_barrier(g)
            d = d * 2
        if lid == 0:
            total = tots[(cnt - 1) // IPT]
            if tr == 0:
                kapi.AtomicRef(incl, t).store(total)
                kapi.AtomicRef(flags, t, _REL, _DEV).store(2)
            else:
                kapi.AtomicRef(agg, t).store(total)
                kapi.AtomicRef(flags, t, _REL, _DEV).store(1)
                pre = total
                first = 1
                jb = t - 1
                f = 0
                while f != 2:
                    f = kapi.AtomicRef(flags, jb, _ACQ, _DEV).load()
                    if f != 0:
                        if f == 2:
                            v = kapi.AtomicRef(incl, jb).load()
                        else:
                            v = kapi.AtomicRef(agg, jb).load()
                        if first == 1:
                            pre = v
                            first = 0
                        elif prod:
                            pre = v * pre
                        else:
                            pre = v + pre
                        jb -= 1
                tots[top] = pre
                if prod:
                    kapi.AtomicRef(incl, t).store(pre * total)
                else:
                    kapi.AtomicRef(incl, t).store(pre + total)
                kapi.AtomicRef(flags, t, _REL, _DEV).store(2)
        kapi.group_barrier(g)
        if m > 0:
            has = 0
            p = tots[top]
            if tr > 0:
                has = 1
            if lid > 0:
                e = tots[lid - 1]
                if has == 1:
                    if prod:
                        p = p * e
                    else:
                        p = p + e
                else:
                    p = e
                    has = 1
            if has == 1:
                for j in range(m):
                    q = _pad(b + j)
                    if prod:
                        buf[q] = p * buf[q]
                    else:
                        buf[q] = p + buf[q]
        kapi.group_barrier(g)
        for j in range(IPT):
            k = j * WG + lid
            if k < cnt:
                out[lo + k] = buf[_pad(k)]

    return k_scan_lookback


SCAN = {prod: _scan_kernel(prod) for prod in (False, True)}
