"""Workgroup-cooperative LSD radix sort: the GPU-shaped counterpart of the
blocked radix sort of ``_sort_kernels`` (one work-item per block there).

The keys are the unsigned keys of ``_sort_kernels`` (total order, NaNs
last, ``descending`` folded in). A workgroup of ``WG`` work-items owns a
chunk of ``TPW`` tiles of the array; one pass on a digit of at most 8 bits
is three launches:

- ``hist``: each workgroup counts the digits of its chunk in workgroup
  memory (local atomics, ``HC`` copies of the counters so that a skewed
  digit is spread over several addresses) and writes them in (digit,
  chunk) order;
- the look-back scan of ``_coop_kernels`` over those counts: digit d of
  chunk c then starts at its inclusive prefix less its own count;
- ``scatter``: each workgroup takes its chunk tile by tile, in order. A
  tile is ranked by the workgroup's sub-groups (warps on CUDA; one
  work-item elsewhere): a sub-group takes IPT rounds of SG consecutive
  elements, loaded into registers at once; for each element one ballot per
  bit of its digit gives the lanes with the same digit (its peers), its
  offset among them is the count of peers on lower lanes, and the lowest
  peer adds their number to the sub-group's counter of the digit in
  workgroup memory (an atomic addition whose old value is shuffled to the
  peers). The counters of every (sub-group, digit) then become exclusive
  prefixes (per digit over the sub-groups, then over the digits by
  sub-group scans), every element goes to its place in workgroup memory,
  and the tile, now in digit order, is stored at the chunk's running
  offset of each digit plus the element's place in its digit's run:
  neighbouring work-items store neighbouring elements of a run. Seven
  barriers a tile, against seventeen for the two 4-bit splits before.

Keys travel alone or with values (positions: 32-bit ones below 2^31
elements, the last pass writing them as int64); the first pass of an
argsort makes the positions itself (``iota``), the last pass of a sort of
keys alone writes the values (``final``), as in ``_sort_kernels``.
Segmented sorts (rows) add passes on 8-bit digits of the row
(``vals // length``), as there.
"""

import numpy as np

from . import _kernel as _k
from . import kernel_api as kapi
from ._coop_kernels import WG, _pad
from ._sort_kernels import (
    _float_key,
    _float_unkey,
    _int_key,
    _int_unkey,
    _key_digit,
    _row_digit,
)

kernel = _k.kernel

TPW = 1  # tiles of a workgroup's chunk (bench/sort_passes.py: 1 was best)
HC = 8  # copies of a histogram's counters in workgroup memory
_LOCAL = kapi.AddressSpace.LOCAL


# elements per work-item of a scatter's tile, by (key size, values along):
# the tile's keys, values and counters stay under 48 KB of workgroup memory
# (value size 0: keys alone)
IPT = {(4, 0): 16, (4, 4): 12, (4, 8): 8, (8, 0): 8, (8, 4): 8, (8, 8): 6}


def ipt(key_size, val_size=0):
    """Elements per work-item of a scatter's tile."""
    return IPT[(key_size, val_size)]


# --- keys --------------------------------------------------------------------


@_k.device_func
def _key_of(u, c1, c2, desc, is_float):
    if is_float:
        return _float_key(u, c1, c2, desc)
    return _int_key(u, c1, c2, desc)


def _coop_key_kernel(is_float):
    """Keys of a chunk per workgroup (as ``_sort_kernels.k_key``) and the
    chunk's stats wst[3w:3w+3] = (OR, AND of its keys, flags); flags bit 0:
    a key is smaller than the one before it (the array's, not only the
    chunk's), bit 1: a -0.0. Four elements and their predecessors are
    loaded at once."""

    @kernel
    def k_coop_key(
        it: kapi.NdItem, x, n, chunk, out, c1, c2, desc, wst, lo_, la_, lf_
    ):
        lid = it.get_local_id(0)
        g = it.get_group()
        w = g.get_group_id(0)
        start = w * chunk
        end = min(start + chunk, n)
        ko = np.uint64(0)
        if is_float:
            ka = np.uint64((c1 - 1) | c1)
        else:
            ka = np.uint64(c2)
        fl = 0
        i = start + lid
        while i + 3 * WG < end:
            e0 = x[i]
            e1 = x[i + WG]
            e2 = x[i + 2 * WG]
            e3 = x[i + 3 * WG]
            p0 = x[max(i - 1, 0)]
            p1 = x[i + WG - 1]
            p2 = x[i + 2 * WG - 1]
            p3 = x[i + 3 * WG - 1]
            for u in range(4):
                e = e0
                p = p0
                if u == 1:
                    e = e1
                    p = p1
                elif u == 2:
                    e = e2
                    p = p2
                elif u == 3:
                    e = e3
                    p = p3
                j = i + u * WG
                if is_float:
                    if e == c1:
                        fl = fl | 2
                k = _key_of(e, c1, c2, desc, is_float)
                if j > 0:
                    if k < _key_of(p, c1, c2, desc, is_float):
                        fl = fl | 1
                out[j] = k
                ko = ko | np.uint64(k)
                ka = ka & np.uint64(k)
            i += 4 * WG
        while i < end:
            e = x[i]
            if is_float:
                if e == c1:
                    fl = fl | 2
            k = _key_of(e, c1, c2, desc, is_float)
            if i > 0:
                if k < _key_of(x[i - 1], c1, c2, desc, is_float):
                    fl = fl | 1
            out[i] = k
            ko = ko | np.uint64(k)
            ka = ka & np.uint64(k)
            i += WG
        lo_[lid] = ko
        la_[lid] = ka
        lf_[lid] = fl
        kapi.group_barrier(g)
        s = WG // 2
        while s > 0:
            if lid < s:
                lo_[lid] = lo_[lid] | lo_[lid + s]
                la_[lid] = la_[lid] & la_[lid + s]
                lf_[lid] = lf_[lid] | lf_[lid + s]
            kapi.group_barrier(g)
            s = s // 2
        if lid == 0:
            wst[3 * w] = lo_[0]
            wst[3 * w + 1] = la_[0]
            wst[3 * w + 2] = lf_[0]

    return k_coop_key


COOP_KEY = {f: _coop_key_kernel(f) for f in (False, True)}


@kernel
def k_coop_key_stats(it: kapi.NdItem, wst, nw, stats, lo_, la_, lf_):
    # one workgroup: the chunks' stats combined, in _sort_kernels' format
    # of one block (OR, AND, flags, first, last; first = last = 0)
    lid = it.get_local_id(0)
    g = it.get_group()
    ko = wst[0]
    ka = wst[1]
    fl = wst[2]
    j = lid
    while j < nw:
        ko = ko | wst[3 * j]
        ka = ka & wst[3 * j + 1]
        fl = fl | wst[3 * j + 2]
        j += WG
    lo_[lid] = ko
    la_[lid] = ka
    lf_[lid] = fl
    kapi.group_barrier(g)
    s = WG // 2
    while s > 0:
        if lid < s:
            lo_[lid] = lo_[lid] | lo_[lid + s]
            la_[lid] = la_[lid] & la_[lid + s]
            lf_[lid] = lf_[lid] | lf_[lid + s]
        kapi.group_barrier(g)
        s = s // 2
    if lid == 0:
        stats[0] = lo_[0]
        stats[1] = la_[0]
        stats[2] = lf_[0]
        stats[3] = 0
        stats[4] = 0


# --- one radix pass ---------------------------------------------------------

HIST_U = 8  # loads a work-item issues before its atomic additions
SIMPLE_HIST = False  # (diagnosis) one load, one atomic addition at a time


def _hist_kernel(by_row, bits, HC):
    R = 1 << bits
    M = R - 1

    @kernel
    def k_radix_hist(
        it: kapi.NdItem, keys, vals, n, chunk, nch, length, shift, counts, lc
    ):
        # counts[d * nch + w]: chunk w's count of digit d
        lid = it.get_local_id(0)
        g = it.get_group()
        w = g.get_group_id(0)
        b = lid
        while b < HC * R:
            lc[b] = 0
            b += WG
        kapi.group_barrier(g)
        cp = (lid & (HC - 1)) * R
        start = w * chunk
        end = min(start + chunk, n)
        pdg = kapi.PrivateArray(HIST_U, np.int64)
        i = start + lid
        while SIMPLE_HIST and i < end:
            if by_row:
                d = _row_digit(vals[i], length, shift, M)
            else:
                d = _key_digit(keys[i], shift, M)
            kapi.AtomicRef(lc, cp + d, address_space=_LOCAL).fetch_add(1)
            i += WG
        while i < end:
            m = min((end - i + WG - 1) // WG, HIST_U)
            # the batch's loads all in flight before its atomics (at
            # clamped places: a load under a branch waits for the last)
            for u in kapi.static_range(HIST_U):
                j = min(i + u * WG, end - 1)
                if by_row:
                    pdg[u] = _row_digit(vals[j], length, shift, M)
                else:
                    pdg[u] = _key_digit(keys[j], shift, M)
            for u in kapi.static_range(HIST_U):
                if u < m:
                    kapi.AtomicRef(
                        lc, cp + pdg[u], address_space=_LOCAL
                    ).fetch_add(1)
            i += HIST_U * WG
        kapi.group_barrier(g)
        b = lid
        while b < R:
            c = lc[b]
            for h in range(1, HC):
                c += lc[h * R + b]
            counts[b * nch + w] = c
            b += WG

    return k_radix_hist


@_k.device_func
def _unkey(kk, c1, c2, desc, final):
    """The value a last pass writes: final 1 a float's bits from its key
    (c1 = sign bit), 2 an integer (c1 = bias, c2 = top), else the key."""
    if final == 1:
        return _float_unkey(kk, c1, desc)
    if final == 2:
        return _int_unkey(kk, c1, c2, desc)
    return kk


@_k.device_func
def _digit(k, v, length, shift, M, by_row):
    # the digit a pass sorts by: of the key, or of the row (v // length)
    if by_row:
        return _row_digit(v, length, shift, M)
    return _key_digit(k, shift, M)


@_k.device_func
def _peers(sg, dg, bits):
    """The lanes of the sub-group whose digit equals this one's (a mask):
    one ballot per bit of the digit."""
    pe = kapi.group_ballot(sg)
    for bb in range(bits):
        bt = np.uint32((dg >> bb) & 1)
        bl = kapi.group_ballot(sg, bt == 1)
        pe = pe & (bl ^ ~(np.uint32(0) - bt))
    return pe


@_k.device_func
def _warp_rank(sg, lc, base, dg, bits, lt_mask):
    """This element's offset among its sub-group's elements of digit dg,
    this round's and the earlier rounds' (the sub-group's counter of the
    digit, lc[base + dg], advances by the round's count): the lowest lane
    of the peers adds their count, the others take its old value."""
    pe = _peers(sg, dg, bits)
    rank = np.int32(np.bitwise_count(pe & lt_mask))
    old = np.int32(0)
    if rank == 0:
        old = kapi.AtomicRef(lc, base + dg, address_space=_LOCAL).fetch_add(
            np.int32(np.bitwise_count(pe))
        )
    src = np.int32(np.bitwise_count((pe & (np.uint32(0) - pe)) - 1))
    return kapi.select_from_group(sg, old, src) + rank


@_k.device_func
def _digit_starts(sg, lid, R, NW, lc, lw):
    """Per digit (work-item lid < R): the sub-groups' counters of the digit
    become their exclusive prefixes, and ls[d] the digit's first place in
    the tile's (returned: its count and the sub-group's inclusive scan of
    the counts); lw[k] gets sub-group k's total."""
    SG = sg.get_max_local_range()
    ln = sg.get_local_id()
    wi = sg.get_group_id()
    tot = np.int32(0)
    if lid < R:
        for q in range(NW):
            c = lc[q * R + lid]
            lc[q * R + lid] = tot
            tot += c
    inc = kapi.inclusive_scan_over_group(sg, tot)
    if ln == SG - 1:
        lw[wi] = inc
    return tot, inc


@_k.device_func
def _scan_totals(sg, NW, lw):
    """Exclusive scan of the NW sub-groups' totals in lw, by the first
    sub-group (each lane a run of consecutive ones)."""
    SG = sg.get_max_local_range()
    RUN = (NW + SG - 1) // SG
    ln = sg.get_local_id()
    s = np.int32(0)
    for q in range(RUN):
        if ln * RUN + q < NW:
            s += lw[ln * RUN + q]
    e = kapi.exclusive_scan_over_group(sg, s)
    for q in range(RUN):
        if ln * RUN + q < NW:
            c = lw[ln * RUN + q]
            lw[ln * RUN + q] = e
            e += c


def _scatter_kernel(
    pairs, by_row, iota, final, bits, IPT, kdt, vdt, UNROLL_RANK
):
    """One pass's stable scatter (module docstring; final: _unkey's). With
    UNROLL_RANK the ranking loop is unrolled (its arrays in registers, but
    CUDA then fits one workgroup per multiprocessor: 141 registers)."""
    R, TILE = 1 << bits, WG * IPT
    M = R - 1

    @kernel
    def k_radix_scatter(
        it: kapi.NdItem,
        keys,
        vals,
        n,
        chunk,
        nch,
        length,
        shift,
        counts,
        incl,
        out,
        outv,
        kmax,
        c1,
        c2,
        desc,
        lk,
        lv,
        lc,
        lw,
        lb,
        ls,
    ):
        lid = it.get_local_id(0)
        g = it.get_group()
        w = g.get_group_id(0)
        sg = it.get_sub_group()
        SG = sg.get_max_local_range()
        NW = WG // SG
        ln = sg.get_local_id()
        wi = sg.get_group_id()
        lt_mask = np.uint32((1 << ln) - 1)
        pk = kapi.PrivateArray(IPT, kdt)
        pv = kapi.PrivateArray(IPT, vdt)
        # an element's offset among its sub-group's of its digit, and the
        # digit: (offset << bits) | digit
        pr = kapi.PrivateArray(IPT, np.int32)
        if lid < R:
            j = lid * nch + w
            lb[lid] = incl[j] - counts[j]
        start = w * chunk
        end = min(start + chunk, n)
        nt = max((end - start + TILE - 1) // TILE, 0)
        for t in range(nt):
            lo = start + t * TILE
            cnt = min(end - lo, TILE)
            b = lid
            while b < NW * R:
                lc[b] = 0
                b += WG
            # a sub-group's elements: IPT rounds of SG consecutive ones,
            # all loaded before they are ranked; past the tile's end the
            # largest digit (ranked last)
            # (no load under a branch: each would wait for the one before)
            for j in kapi.static_range(IPT):
                k = wi * (SG * IPT) + j * SG + ln
                kc = lo + min(k, cnt - 1)
                kk = keys[kc]
                pk[j] = kk if k < cnt else kmax
                if pairs:
                    v = kc if iota else vals[kc]
                    pv[j] = v if k < cnt else -1
            kapi.group_barrier(g)
            # each element's digit and offset among its sub-group's
            # elements of that digit, packed: (offset << bits) | digit
            if UNROLL_RANK:
                for j in kapi.static_range(IPT):
                    vv = pv[j] if pairs else np.int64(0)
                    dg = np.int32(_digit(pk[j], vv, length, shift, M, by_row))
                    r = _warp_rank(sg, lc, wi * R, dg, bits, lt_mask)
                    pr[j] = (r << bits) | dg
            else:
                for j in range(IPT):
                    vv = pv[j] if pairs else np.int64(0)
                    dg = np.int32(_digit(pk[j], vv, length, shift, M, by_row))
                    r = _warp_rank(sg, lc, wi * R, dg, bits, lt_mask)
                    pr[j] = (r << bits) | dg
            kapi.group_barrier(g)
            tot, inc = _digit_starts(sg, lid, R, NW, lc, lw)
            kapi.group_barrier(g)
            if wi == 0:
                _scan_totals(sg, NW, lw)
            kapi.group_barrier(g)
            if lid < R:
                ls[lid] = inc - tot + lw[wi]
                ls[R + lid] = tot
            kapi.group_barrier(g)
            # each element to its place in the tile's digit order
            for j in range(IPT):
                dg = pr[j] & M
                dst = ls[dg] + lc[wi * R + dg] + (pr[j] >> bits)
                lk[_pad(dst)] = pk[j]
                if pairs:
                    lv[_pad(dst)] = pv[j]
            kapi.group_barrier(g)
            for j in kapi.static_range(IPT):
                k = j * WG + lid
                if k < cnt:
                    kk = lk[_pad(k)]
                    vv = lv[_pad(k)] if pairs else np.int64(0)
                    dg = _digit(kk, vv, length, shift, M, by_row)
                    q = lb[dg] + (k - ls[dg])
                    out[q] = _unkey(kk, c1, c2, desc, final)
                    if pairs:
                        outv[q] = vv
            kapi.group_barrier(g)
            if lid < R:
                lb[lid] = lb[lid] + ls[R + lid]

    return k_radix_scatter


RADIX_BITS = (8,)
# Whether the scatter's ranking loop is unrolled (see _scatter_kernel), by
# whether values travel along: H100, 2^27 float32 (bench/RESULTS.md),
# sort 7.9 ms rolled against 8.3 unrolled, argsort 10.2 unrolled against
# 12.1 rolled.
UNROLL_RANK = {False: False, True: True}
_HIST = {}
_SCATTER = {}


def hist(by_row, bits, hc=None):
    """The histogram kernel of a pass (``hc`` copies of the counters)."""
    key = (by_row, bits, hc or HC, SIMPLE_HIST)
    if key not in _HIST:
        _HIST[key] = _hist_kernel(*key[:3])
    return _HIST[key]


def scatter(pairs, by_row, iota, final, bits, size, vsize=8, ipt_=None):
    """The scatter kernel of a pass (values of vsize bytes along with
    `pairs`, 8-byte keys with size 8)."""
    vsize = vsize if pairs else 0
    ipt_ = ipt_ or ipt(size, vsize)
    unroll = UNROLL_RANK[bool(pairs)]
    key = (pairs, by_row, iota, final, bits, size, vsize, ipt_, unroll)
    if key not in _SCATTER:
        _SCATTER[key] = _scatter_kernel(
            pairs,
            by_row,
            iota,
            final,
            bits,
            ipt_,
            np.uint32 if size == 4 else np.uint64,
            np.int32 if vsize == 4 else np.int64,
            unroll,
        )
    return _SCATTER[key]


def kernels():
    """Every kernel made so far (their compile counts show use)."""
    return [*COOP_KEY.values(), *_HIST.values(), *_SCATTER.values()]
