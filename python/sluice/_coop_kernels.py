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
  (flag 1) and looks back over its predecessors' flags, LB at a time,
  until it finds an inclusive prefix (flag 2), then publishes its own
  inclusive prefix. The
  flag is stored with release and loaded with acquire ordering, the values
  beside it relaxed. No identity element is ever added, so a leading -0.0
  keeps its sign (as NumPy's sequential sum).
- argmax and friends: each workgroup reduces a chunk, work-items striding,
  then a tree in workgroup memory with NumPy's tie and NaN rules.
- histograms: counts private to the workgroup in workgroup memory (local
  atomics), added to the global counts with one global atomic per bin;
  bincount's first pass also finds the minimum and maximum.
- mask compaction: a count per tile, the look-back scan of the counts,
  then each tile writes its selected positions (or values) from its
  offset.

``_sorting.cooperative(x)`` decides where these run: GPUs, or any device
while the internal switch ``_sorting.COOPERATIVE`` is True (the tests
force them on the CPU devices).
"""

import numpy as np

from . import _kernel as _k
from . import kernel_api as kapi

kernel = _k.kernel

WG = 256  # work-items of a workgroup
IPT = 16  # elements per work-item of a mask compaction's tile
TILE = WG * IPT

_ACQ = kapi.MemoryOrder.ACQUIRE
_REL = kapi.MemoryOrder.RELEASE
_DEV = kapi.MemoryScope.DEVICE


@_k.device_func
def _pad(i):
    # one unused slot every 32: a work-item's run of IPT consecutive
    # elements then starts in another bank than its neighbour's
    return i + (i >> 5)


@_k.device_func
def _comb(a, b, prod):
    """a * b in a product scan, else a + b (prod is a constant)."""
    if prod:
        return a * b
    return a + b


# --- scans -------------------------------------------------------------------


LB = 32  # predecessors one step of a look-back reads at once


@_k.device_func
def _scan_run(buf, tots, lid, cnt, IPT, prod):
    """A work-item scans its IPT consecutive elements of the tile in place;
    its total to tots[lid]."""
    b = lid * IPT
    m = min(max(cnt - b, 0), IPT)
    if m > 0:
        s = buf[_pad(b)]
        for j in range(1, m):
            q = _pad(b + j)
            s = _comb(s, buf[q], prod)
            buf[q] = s
        tots[lid] = s


@_k.device_func
def _scan_sg_totals(sg, NW, arr, off, prod, OP):
    """Inclusive scan of arr[off:off + NW] in place, by one sub-group (each
    lane a run of consecutive values; no identity is ever combined)."""
    SG = sg.get_max_local_range()
    RUN = (NW + SG - 1) // SG
    ln = sg.get_local_id()
    b = off + ln * RUN
    e = off + min(ln * RUN + RUN, NW)
    s = arr[min(b, off + NW - 1)]
    for q in range(1, RUN):
        if b + q < e:
            s = _comb(s, arr[b + q], prod)
            arr[b + q] = s
    inc = kapi.inclusive_scan_over_group(sg, s, OP)
    pre = kapi.shift_group_right(sg, inc, 1)
    if ln > 0:
        for q in range(RUN):
            if b + q < e:
                arr[b + q] = _comb(pre, arr[b + q], prod)


OPS = {False: kapi.GroupOp.ADD, True: kapi.GroupOp.MUL}


def _scan_kernel(prod, IPT):
    TILE = WG * IPT
    OP = OPS[prod]

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
        lfl,
        lv,
        ctl,
    ):
        # inclusive scan of each row (length elements, tpr tiles) of x;
        # ctl: [ticket, nearest predecessor not yet added, done]
        lid = it.get_local_id(0)
        g = it.get_group()
        sg = it.get_sub_group()
        SG = sg.get_max_local_range()
        NW = WG // SG
        ln = sg.get_local_id()
        wi = sg.get_group_id()
        # (a global name in an assignment's target is taken for a
        # variable: these are the constants there)
        top = WG  # tots[top]: the tile's prefix
        wg = WG
        if lid == 0:
            ctl[0] = kapi.AtomicRef(flags, ntiles).fetch_add(1)
        kapi.group_barrier(g)
        t = ctl[0]
        row = t // tpr
        tr = t - row * tpr
        lo = row * length + tr * TILE
        cnt = min(length - tr * TILE, TILE)
        # striped loads, four in flight per work-item
        for jj in range(IPT // 4):
            k = 4 * jj * WG + lid
            if k + 3 * WG < cnt:
                e0 = x[lo + k]
                e1 = x[lo + k + WG]
                e2 = x[lo + k + 2 * WG]
                e3 = x[lo + k + 3 * WG]
                buf[_pad(k)] = e0
                buf[_pad(k + wg)] = e1
                buf[_pad(k + 2 * wg)] = e2
                buf[_pad(k + 3 * wg)] = e3
            else:
                for u in range(4):
                    if k + u * WG < cnt:
                        buf[_pad(k + u * wg)] = x[lo + k + u * WG]
        kapi.group_barrier(g)
        _scan_run(buf, tots, lid, cnt, IPT, prod)
        kapi.group_barrier(g)
        # inclusive scan of the work-items' totals: in each sub-group,
        # then over the sub-groups' totals (tots[WG + 1:]); the work-items
        # past the tile's end come last and touch only their own
        v = kapi.inclusive_scan_over_group(sg, tots[lid], OP)
        if ln == SG - 1:
            tots[top + 1 + wi] = v
        kapi.group_barrier(g)
        if wi == 0:
            _scan_sg_totals(sg, NW, tots, top + 1, prod, OP)
        kapi.group_barrier(g)
        if wi > 0:
            v = _comb(tots[top + wi], v, prod)
        tots[lid] = v
        kapi.group_barrier(g)
        total = tots[(cnt - 1) // IPT]
        if lid == 0:
            if tr == 0:
                kapi.AtomicRef(incl, t).store(total)
                kapi.AtomicRef(flags, t, _REL, _DEV).store(2)
                ctl[2] = 1
            else:
                kapi.AtomicRef(agg, t).store(total)
                kapi.AtomicRef(flags, t, _REL, _DEV).store(1)
                ctl[2] = 0
            ctl[1] = t - 1
        kapi.group_barrier(g)
        # look-back: LB work-items read LB predecessors' flags and values
        # at once; work-item 0 adds them, nearest first, up to the first
        # inclusive prefix, or up to a predecessor that has published
        # nothing yet (then the next step starts there)
        pre = total
        first = 1
        while ctl[2] == 0:
            base = ctl[1]
            if lid < LB:
                j = base - lid
                f = 3
                if j >= t - tr:
                    f = kapi.AtomicRef(flags, j, _ACQ, _DEV).load()
                    if f == 2:
                        lv[lid] = kapi.AtomicRef(incl, j).load()
                    elif f == 1:
                        lv[lid] = kapi.AtomicRef(agg, j).load()
                lfl[lid] = f
            kapi.group_barrier(g)
            if lid == 0:
                k = 0
                go = 1
                while go == 1 and k < LB:
                    f = lfl[k]
                    if f == 1 or f == 2:
                        v = lv[k]
                        if first == 1:
                            pre = v
                            first = 0
                        else:
                            pre = _comb(v, pre, prod)
                        k += 1
                        if f == 2:
                            go = 0
                            ctl[2] = 1
                    else:
                        go = 0
                ctl[1] = base - k
            kapi.group_barrier(g)
        if lid == 0 and tr > 0:
            tots[top] = pre
            kapi.AtomicRef(incl, t).store(_comb(pre, total, prod))
            kapi.AtomicRef(flags, t, _REL, _DEV).store(2)
        kapi.group_barrier(g)
        # each work-item's prefix (the tile's and the earlier work-items'
        # totals) into tots[lid], added as the tile is stored
        p = tots[top]
        if lid > 0:
            e = tots[lid - 1]
            p = e if tr == 0 else _comb(p, e, prod)
        kapi.group_barrier(g)
        tots[lid] = p
        kapi.group_barrier(g)
        for j in kapi.static_range(IPT):
            k = j * WG + lid
            if k < cnt:
                h = k // IPT
                if tr == 0 and h == 0:
                    out[lo + k] = buf[_pad(k)]
                else:
                    out[lo + k] = _comb(tots[h], buf[_pad(k)], prod)

    return k_scan_lookback


# (prod, elements per work-item): 32 for 4-byte values, 16 for 8-byte ones
# (their tile fills 33 KB of workgroup memory either way)
SCAN = {
    (prod, ipt): _scan_kernel(prod, ipt)
    for prod in (False, True)
    for ipt in (16, 32)
}


def scan_ipt(dtype):
    """Elements per work-item of the look-back scan of dtype's values."""
    return 32 if dtype.itemsize <= 4 else 16


# --- argmax and friends ------------------------------------------------------

ARG_U = 8  # loads a work-item issues before it compares them


@_k.device_func
def _takes(fa, va, ia, fb, vb, ib, want_max, nan_first):
    # whether candidate b (found fb, value vb, index ib) replaces a: NumPy's
    # first maximum (minimum); with nan_first the first NaN wins (argmax),
    # else NaNs were never made candidates (nanargmax)
    t = False
    if fb != 0:
        if fa == 0:
            t = True
        elif nan_first and (va != va or vb != vb):
            if va != va and vb != vb:
                t = ib < ia
            else:
                t = vb != vb
        elif vb == va:
            t = ib < ia
        elif want_max:
            t = vb > va
        else:
            t = vb < va
    return t


@_k.device_func
def _sg_best(sg, fa, va, ia, lf, lv, li, want_max, nan_first):
    """The best candidate of the sub-group (xor butterfly: every lane ends
    with it), stored by its first lane at the sub-group's slot."""
    d = 1
    while d < sg.get_max_local_range():
        fb = kapi.permute_group_by_xor(sg, fa, d)
        vb = kapi.permute_group_by_xor(sg, va, d)
        ib = kapi.permute_group_by_xor(sg, ia, d)
        if _takes(fa, va, ia, fb, vb, ib, want_max, nan_first):
            fa = fb
            va = vb
            ia = ib
        d = d * 2
    if sg.leader():
        k = sg.get_group_id()
        lf[k] = fa
        lv[k] = va
        li[k] = ia


@_k.device_func
def _sg_best_of(sg, lf, lv, li, want_max, nan_first):
    """The best of the sub-groups' candidates (lf/lv/li[:WG // SG]) into
    slot 0, by the first sub-group (each lane a strided share)."""
    nw = WG // sg.get_max_local_range()
    k = sg.get_local_id()
    fa = 0
    va = lv[0]
    ia = li[0]
    while k < nw:
        if _takes(fa, va, ia, lf[k], lv[k], li[k], want_max, nan_first):
            fa = lf[k]
            va = lv[k]
            ia = li[k]
        k += sg.get_max_local_range()
    _sg_best(sg, fa, va, ia, lf, lv, li, want_max, nan_first)


def _arg_group_kernel(want_max, nan_first):
    """One workgroup per (row, chunk) of argmax / argmin / nanargmax /
    nanargmin: outv[w] = 1 when the chunk has a candidate, outi[w] its
    index in the row. With `combine`, the chunks' results of each row are
    reduced instead (one workgroup per row; x is read at their indices)."""

    @kernel
    def k_arg_group(
        it: kapi.NdItem, x, length, chunk, nchunks, outv, outi, lf, lv, li
    ):
        lid = it.get_local_id(0)
        g = it.get_group()
        w = g.get_group_id(0)
        r = w // nchunks
        c = w - r * nchunks
        base = r * length
        lo = c * chunk
        hi = min(lo + chunk, length)
        fa = 0
        ia = lo
        va = x[base + min(lo, length - 1)]
        i = lo + lid
        # (with nan_first, a work-item that holds a NaN is done)
        while i + (ARG_U - 1) * WG < hi and not (
            nan_first and fa == 1 and va != va
        ):
            e0 = x[base + i]
            e1 = x[base + i + WG]
            e2 = x[base + i + 2 * WG]
            e3 = x[base + i + 3 * WG]
            e4 = x[base + i + 4 * WG]
            e5 = x[base + i + 5 * WG]
            e6 = x[base + i + 6 * WG]
            e7 = x[base + i + 7 * WG]
            # the batch as a whole first (branch-free): only one that may
            # hold a better candidate (or a NaN) is searched element-wise
            if nan_first and want_max:
                h = (not (e0 <= va)) | (not (e1 <= va)) | (not (e2 <= va))
                h = h | (not (e3 <= va)) | (not (e4 <= va))
                h = h | (not (e5 <= va)) | (not (e6 <= va))
                h = h | (not (e7 <= va))
            elif nan_first:
                h = (not (e0 >= va)) | (not (e1 >= va)) | (not (e2 >= va))
                h = h | (not (e3 >= va)) | (not (e4 >= va))
                h = h | (not (e5 >= va)) | (not (e6 >= va))
                h = h | (not (e7 >= va))
            elif want_max:
                h = (e0 > va) | (e1 > va) | (e2 > va) | (e3 > va)
                h = h | (e4 > va) | (e5 > va) | (e6 > va) | (e7 > va)
            else:
                h = (e0 < va) | (e1 < va) | (e2 < va) | (e3 < va)
                h = h | (e4 < va) | (e5 < va) | (e6 < va) | (e7 < va)
            if fa == 0:
                h = True
            if h:
                for u in range(ARG_U):
                    e = e0
                    if u == 1:
                        e = e1
                    elif u == 2:
                        e = e2
                    elif u == 3:
                        e = e3
                    elif u == 4:
                        e = e4
                    elif u == 5:
                        e = e5
                    elif u == 6:
                        e = e6
                    elif u == 7:
                        e = e7
                    fb = 1
                    if not nan_first and e != e:
                        fb = 0
                    j = i + u * WG
                    if _takes(fa, va, ia, fb, e, j, want_max, nan_first):
                        fa = 1
                        va = e
                        ia = j
            i += ARG_U * WG
        while i < hi and not (nan_first and fa == 1 and va != va):
            e = x[base + i]
            fb = 1
            if not nan_first and e != e:
                fb = 0
            if _takes(fa, va, ia, fb, e, i, want_max, nan_first):
                fa = 1
                va = e
                ia = i
            i += WG
        sg = it.get_sub_group()
        _sg_best(sg, fa, va, ia, lf, lv, li, want_max, nan_first)
        kapi.group_barrier(g)
        if sg.get_group_id() == 0:
            _sg_best_of(sg, lf, lv, li, want_max, nan_first)
        if lid == 0:
            outv[w] = lf[0]
            outi[w] = li[0]

    return k_arg_group


def _arg_combine_kernel(want_max, nan_first):
    @kernel
    def k_arg_group_combine(
        it: kapi.NdItem, x, length, nchunks, found, idx, out, lf, lv, li
    ):
        # the first best of each row's chunk results (one workgroup a row)
        lid = it.get_local_id(0)
        g = it.get_group()
        r = g.get_group_id(0)
        fa = 0
        ia = 0
        va = x[r * length]
        c = lid
        while c < nchunks:
            fb = found[r * nchunks + c]
            ib = idx[r * nchunks + c]
            vb = x[r * length + ib]
            if _takes(fa, va, ia, fb, vb, ib, want_max, nan_first):
                fa = 1
                va = vb
                ia = ib
            c += WG
        sg = it.get_sub_group()
        _sg_best(sg, fa, va, ia, lf, lv, li, want_max, nan_first)
        kapi.group_barrier(g)
        if sg.get_group_id() == 0:
            _sg_best_of(sg, lf, lv, li, want_max, nan_first)
        if lid == 0:
            out[r] = li[0]
            if lf[0] == 0:
                out[r] = -1

    return k_arg_group_combine


ARG_GROUP = {
    (m, f): _arg_group_kernel(m, f)
    for m in (False, True)
    for f in (False, True)
}
ARG_COMBINE = {
    (m, f): _arg_combine_kernel(m, f)
    for m in (False, True)
    for f in (False, True)
}


# --- histograms --------------------------------------------------------------

HIST_U = 8  # loads a work-item issues before its atomic additions
_LOCAL = kapi.AddressSpace.LOCAL


def _hist_kernel(uniform):
    """Counts of bins in workgroup memory, then added to the global
    counts. Without `uniform`, x holds the bins (bincount: other values
    are skipped); with it, x holds values binned as np.histogram's equal
    bins (edges, lo, norm as in _sort_kernels.k_uniform_bin)."""

    @kernel
    def k_hist_local(
        it: kapi.NdItem, x, n, chunk, nbins, edges, lo, norm, counts, lc
    ):
        lid = it.get_local_id(0)
        g = it.get_group()
        w = g.get_group_id(0)
        b = lid
        while b < nbins:
            lc[b] = 0
            b += WG
        kapi.group_barrier(g)
        start = w * chunk
        end = min(start + chunk, n)
        i = start + lid
        while i < end:
            m = min((end - i + WG - 1) // WG, HIST_U)
            e0 = x[i]
            e1 = e0
            e2 = e0
            e3 = e0
            e4 = e0
            e5 = e0
            e6 = e0
            e7 = e0
            if m == HIST_U:  # a full batch: its loads all in flight
                e1 = x[i + WG]
                e2 = x[i + 2 * WG]
                e3 = x[i + 3 * WG]
                e4 = x[i + 4 * WG]
                e5 = x[i + 5 * WG]
                e6 = x[i + 6 * WG]
                e7 = x[i + 7 * WG]
            else:
                if m > 1:
                    e1 = x[i + WG]
                if m > 2:
                    e2 = x[i + 2 * WG]
                if m > 3:
                    e3 = x[i + 3 * WG]
                if m > 4:
                    e4 = x[i + 4 * WG]
                if m > 5:
                    e5 = x[i + 5 * WG]
                if m > 6:
                    e6 = x[i + 6 * WG]
            for u in range(HIST_U):
                if u < m:
                    v = e0
                    if u == 1:
                        v = e1
                    elif u == 2:
                        v = e2
                    elif u == 3:
                        v = e3
                    elif u == 4:
                        v = e4
                    elif u == 5:
                        v = e5
                    elif u == 6:
                        v = e6
                    elif u == 7:
                        v = e7
                    j = -1
                    if uniform:
                        if v >= edges[0] and v <= edges[nbins]:
                            j = np.int64((v - lo) * norm)
                            if j >= nbins:
                                j = nbins - 1
                            if j < 0:
                                j = 0
                            if v < edges[j]:
                                j -= 1
                            elif v >= edges[j + 1] and j != nbins - 1:
                                j += 1
                    else:
                        j = np.int64(v)
                    if j >= 0 and j < nbins:
                        kapi.AtomicRef(lc, j, address_space=_LOCAL).fetch_add(
                            1
                        )
            i += HIST_U * WG
        kapi.group_barrier(g)
        b = lid
        while b < nbins:
            c = lc[b]
            if c != 0:
                kapi.AtomicRef(counts, b).fetch_add(c)
            b += WG

    return k_hist_local


HIST = {u: _hist_kernel(u) for u in (False, True)}


# --- mask compaction ---------------------------------------------------------


@kernel
def k_mask_count(it: kapi.NdItem, mask, n, cnt, tot, lc):
    # cnt[t]: the non-zero elements of tile t of mask; tot[0] += them all
    lid = it.get_local_id(0)
    g = it.get_group()
    t = g.get_group_id(0)
    lo = t * TILE
    c = 0
    for j in range(IPT):
        k = lo + j * WG + lid
        if k < n:
            if mask[k] != 0:
                c += 1
    lc[lid] = c
    kapi.group_barrier(g)
    s = WG // 2
    while s > 0:
        if lid < s:
            lc[lid] = lc[lid] + lc[lid + s]
        kapi.group_barrier(g)
        s = s // 2
    if lid == 0:
        cnt[t] = lc[0]
        kapi.AtomicRef(tot, 0).fetch_add(lc[0])


def _compact_kernel(values):
    """Tile t writes, from offset offs[t - 1] (offs: the inclusive scan of
    k_mask_count's counts), the positions of its non-zero mask elements
    (with `values`, src at those positions), through workgroup memory so
    that the stores are striped."""

    @kernel
    def k_mask_write(it: kapi.NdItem, mask, src, n, offs, out, lf, lp, tots):
        lid = it.get_local_id(0)
        g = it.get_group()
        t = g.get_group_id(0)
        lo = t * TILE
        m = min(n - lo, TILE)
        for j in range(IPT):
            k = j * WG + lid
            if k < m:
                lf[_pad(k)] = 0
                if mask[lo + k] != 0:
                    lf[_pad(k)] = 1
        kapi.group_barrier(g)
        b = lid * IPT
        c = 0
        for j in range(IPT):
            if b + j < m:
                c += lf[_pad(b + j)]
        tots[lid] = c
        kapi.group_barrier(g)
        d = 1
        while d < WG:
            v = tots[lid]
            if lid >= d:
                v = tots[lid - d] + v
            kapi.group_barrier(g)
            tots[lid] = v
            kapi.group_barrier(g)
            d = d * 2
        # the tile's selected positions, in order, into lp
        q = 0
        if lid > 0:
            q = tots[lid - 1]
        for j in range(IPT):
            if b + j < m:
                if lf[_pad(b + j)] != 0:
                    lp[q] = b + j
                    q += 1
        kapi.group_barrier(g)
        pre = 0
        if t > 0:
            pre = offs[t - 1]
        sel = tots[WG - 1]
        for j in range(IPT):
            k = j * WG + lid
            if k < sel:
                if values:
                    out[pre + k] = src[lo + lp[k]]
                else:
                    out[pre + k] = lo + lp[k]

    return k_mask_write


COMPACT = {v: _compact_kernel(v) for v in (False, True)}


@kernel
def k_bincount_minmax(
    it: kapi.NdItem, x, n, chunk, nloc, counts, mm, lc, lmin, lmax
):
    # bincount in one pass when the values turn out to be below nloc: the
    # counts of the values in [0, nloc) (workgroup-private, then global),
    # and mm[0] = min, mm[1] = max of x (tree, then global atomics)
    lid = it.get_local_id(0)
    g = it.get_group()
    w = g.get_group_id(0)
    b = lid
    while b < nloc:
        lc[b] = 0
        b += WG
    kapi.group_barrier(g)
    start = w * chunk
    end = min(start + chunk, n)
    lo = np.int64(x[min(start, n - 1)])
    hi = lo
    i = start + lid
    while i < end:
        m = min((end - i + WG - 1) // WG, HIST_U)
        e0 = np.int64(x[i])
        e1 = e0
        e2 = e0
        e3 = e0
        e4 = e0
        e5 = e0
        e6 = e0
        e7 = e0
        if m == HIST_U:
            e1 = np.int64(x[i + WG])
            e2 = np.int64(x[i + 2 * WG])
            e3 = np.int64(x[i + 3 * WG])
            e4 = np.int64(x[i + 4 * WG])
            e5 = np.int64(x[i + 5 * WG])
            e6 = np.int64(x[i + 6 * WG])
            e7 = np.int64(x[i + 7 * WG])
        else:
            if m > 1:
                e1 = np.int64(x[i + WG])
            if m > 2:
                e2 = np.int64(x[i + 2 * WG])
            if m > 3:
                e3 = np.int64(x[i + 3 * WG])
            if m > 4:
                e4 = np.int64(x[i + 4 * WG])
            if m > 5:
                e5 = np.int64(x[i + 5 * WG])
            if m > 6:
                e6 = np.int64(x[i + 6 * WG])
        lo = min(lo, min(min(min(e0, e1), min(e2, e3)), min(min(e4, e5), e6)))
        hi = max(hi, max(max(max(e0, e1), max(e2, e3)), max(max(e4, e5), e6)))
        lo = min(lo, e7)
        hi = max(hi, e7)
        for u in range(HIST_U):
            if u < m:
                j = e0
                if u == 1:
                    j = e1
                elif u == 2:
                    j = e2
                elif u == 3:
                    j = e3
                elif u == 4:
                    j = e4
                elif u == 5:
                    j = e5
                elif u == 6:
                    j = e6
                elif u == 7:
                    j = e7
                if j >= 0 and j < nloc:
                    kapi.AtomicRef(lc, j, address_space=_LOCAL).fetch_add(1)
        i += HIST_U * WG
    lmin[lid] = lo
    lmax[lid] = hi
    kapi.group_barrier(g)
    s = WG // 2
    while s > 0:
        if lid < s:
            lmin[lid] = min(lmin[lid], lmin[lid + s])
            lmax[lid] = max(lmax[lid], lmax[lid + s])
        kapi.group_barrier(g)
        s = s // 2
    if lid == 0:
        kapi.AtomicRef(mm, 0).fetch_min(lmin[0])
        kapi.AtomicRef(mm, 1).fetch_max(lmax[0])
    b = lid
    while b < nloc:
        c = lc[b]
        if c != 0:
            kapi.AtomicRef(counts, b).fetch_add(c)
        b += WG
