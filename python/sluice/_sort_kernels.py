"""Kernels of sorting, scans, histograms and random numbers.

Written with ``@sluice.kernel`` (kernel_api), so each compiles through the
normal pipeline for the queue of its arrays (host thread pool, SPIR-V,
PTX) and runs in order with the queue's other work: nothing here goes
through the host. The algorithms are blocked: an array is cut into blocks,
one work-item per block (the host runs blocks on its thread pool), and the
blocks' partial results (digit counts, sums) are combined by a short second
kernel, as in a GPU's block-level radix sort and scan:

- LSD radix sort on unsigned keys (11-bit digits on the host, 8-bit on
  devices): the key kernel's per-block stats tell which digits vary; per
  varying digit, a count per block, an exclusive scan of the counts in
  (digit, block) order and a stable scatter (the last one writes the
  values); an array of one block is sorted by one kernel.
- argmax and friends: per (row, chunk), groups of elements tested at once,
  then a combine of the chunks.
- scans: block totals, a scan of the totals per row, a rescan of each
  block from its offset.
- histograms: per-block private counts, then a sum over blocks.
- random numbers: Philox-4x32-10, a counter-based generator: element i of
  a draw is a pure function of (key, counter + i), so any split of the work
  gives the same numbers.
"""

import numpy as np

from . import _kernel as _k
from . import kernel_api as kapi

kernel = _k.kernel

# --- keys -----------------------------------------------------------------
#
# The key kernels are blocked (one work-item per block) and also write, per
# block b, stats[5b:5b+5] = (OR of its keys, AND of its keys, flags, first
# key, last key), flags bit 0: the block's keys are not in order, bit 1: it
# holds a -0.0. From these the host learns, reading 5 numbers per block,
# which digits vary (the others need no pass), whether the keys are sorted
# already (no pass at all) and whether -0.0 must be kept apart from 0.0.


@_k.device_func
def _float_key(u, sign, nan, desc):
    # IEEE bits -> unsigned key in total order, NaN canonical and last;
    # -0.0 is +0.0 (they compare equal, so a stable sort keeps their
    # order). Branch-free, so the key loops vectorize.
    top = (sign - 1) | sign
    u = u ^ ((u == sign) * sign)
    k = u ^ (((u >= sign) * (sign - 1)) | sign)
    k = k ^ ((desc != 0) * top)
    return k | (((u & (sign - 1)) > nan) * top)


@_k.device_func
def _int_key(v, bias, top, desc):
    # integers -> unsigned keys: v + bias (signed types), reversed for
    # descending order (64-bit types come as int64, wrapping)
    return np.uint64(np.int64(v) + bias) ^ ((desc != 0) * np.uint64(top))


def _key_kernel(is_float):
    """Keys of floats (c1 = sign bit, c2 = the bits of inf) or integers
    (c1 = bias, c2 = top), with the blocks' stats."""

    @kernel
    def k_key(it: kapi.NdItem, x, n, chunk, out, c1, c2, desc, stats):
        b = it.get_global_id(0)
        lo = max(b * chunk, 0)
        hi = min(lo + chunk, n)
        if is_float:
            ko = c1 ^ c1
            ka = (c1 - 1) | c1
        else:
            ko = np.uint64(0)
            ka = np.uint64(c2)
        first = ko
        if lo < hi:
            if is_float:
                first = _float_key(x[lo], c1, c2, desc)
            else:
                first = _int_key(x[lo], c1, c2, desc)
        prev = first
        unsorted = False
        negzero = False
        for i in range(lo, hi):
            if is_float:
                u = x[i]
                negzero = negzero | (u == c1)
                k = _float_key(u, c1, c2, desc)
            else:
                k = _int_key(x[i], c1, c2, desc)
            out[i] = k
            ko = ko | k
            ka = ka & k
            unsorted = unsorted | (k < prev)
            prev = k
        stats[5 * b] = ko
        stats[5 * b + 1] = ka
        stats[5 * b + 2] = unsorted + 2 * negzero
        stats[5 * b + 3] = first
        stats[5 * b + 4] = prev

    return k_key


KEY = {is_float: _key_kernel(is_float) for is_float in (False, True)}


@_k.device_func
def _float_unkey(k, sign, desc):
    # the inverse of _float_key (a NaN key gives a NaN), branch-free
    top = (sign - 1) | sign
    u = k ^ ((desc != 0) * top)
    u = u ^ (sign | ((u < sign) * (sign - 1)))
    return u ^ ((k == top) * (u ^ (top ^ sign)))


@_k.device_func
def _int_unkey(k, bias, top, desc):
    # the inverse of k_key_int's keys (int64 arithmetic, wrapping)
    v = np.int64(k) ^ ((desc != 0) * top)
    return v - bias


@kernel
def k_unkey_float(it: kapi.Item, keys, out, sign, desc):
    i = it.get_id(0)
    out[i] = _float_unkey(keys[i], sign, desc)


@kernel
def k_unkey_int(it: kapi.Item, keys, out, bias, top, desc):
    i = it.get_id(0)
    out[i] = _int_unkey(keys[i], bias, top, desc)


@kernel
def k_iota(it: kapi.Item, out):
    i = it.get_id(0)
    out[i] = i


# --- radix sort ------------------------------------------------------------
#
# One stable LSD pass on `bits`-bit digits (8 or 11) is a count (each
# block's digit counts), an exclusive scan of the counts in (digit, block)
# order and a scatter. A pass sorts by a digit of the key or, in segmented
# sorts, by an 8-bit digit of the row (vals // length, vals being the flat
# positions); the keys travel alone or with vals. The variants are one
# generator's table entries: COUNT[(rows, bits, ways)] and
# SCATTER[(pairs, rows, bits, final, ways)].


@_k.device_func
def _key_digit(k, shift, mask):
    return np.int64((np.uint64(k) >> np.uint64(shift)) & mask)


@_k.device_func
def _row_digit(v, length, shift, mask):
    return ((v // length) >> shift) & mask


def _count_kernel(rows, bits, ways):
    R = 1 << bits
    M = R - 1

    @kernel
    def k_count(it: kapi.NdItem, keys, vals, n, chunk, length, shift, counts):
        # counts[b * R + digit]: block b's count of each digit at `shift`
        # (blocks change contents every pass, so each pass counts anew;
        # each block's counters are its own cache lines, zeroed here).
        # A work-item takes `ways` neighbouring blocks, element by element
        # in turn: their counters are independent chains of increments,
        # which keeps a digit shared by many keys from serialising them.
        w = it.get_global_id(0)
        c0 = max(chunk, 0)
        lo = w * ways * c0
        base = w * ways * R
        for d in range(ways * R):
            counts[base + d] = 0
        for t in range(max(min(lo + c0, n) - lo, 0)):
            for s in range(ways):
                i = lo + s * c0 + t
                if s == 0 or i < n:
                    if rows:
                        d = _row_digit(vals[i], length, shift, M)
                    else:
                        d = _key_digit(keys[i], shift, M)
                    j = base + s * R + d
                    counts[j] = counts[j] + 1

    return k_count


@kernel
def k_offsets(it: kapi.Item, counts, nb, radix):
    # exclusive scan, in place, of the counts in (digit, block) order, by
    # sweeps along the blocks' rows: the digits' totals, their scan, then
    # each block's offsets (radix <= 2048)
    tot = kapi.PrivateArray(2048, np.int64, fill_zeros=True)
    for b in range(nb):
        for d in range(radix):
            tot[d] += counts[b * radix + d]
    s = 0
    for d in range(radix):
        c = tot[d]
        tot[d] = s
        s += c
    for b in range(nb):
        for d in range(radix):
            c = counts[b * radix + d]
            counts[b * radix + d] = tot[d]
            tot[d] += c


def _scatter_kernel(pairs, rows, bits, final, ways):
    """final (the last pass of a sort of keys alone): 1 writes floats' bits
    back from the keys (c1 = sign bit), 2 integers (c1 = bias, c2 = top),
    so no pass of its own turns the keys back into values. A work-item
    takes `ways` blocks in turn, as k_count."""
    R = 1 << bits
    M = R - 1

    @kernel
    def k_scatter(
        it: kapi.NdItem,
        keys,
        vals,
        n,
        chunk,
        length,
        shift,
        offs,
        out,
        outv,
        c1,
        c2,
        desc,
    ):
        # each block writes its elements, in order, from its offsets
        w = it.get_global_id(0)
        c0 = max(chunk, 0)
        lo = w * ways * c0
        base = w * ways * R
        for t in range(max(min(lo + c0, n) - lo, 0)):
            for s in range(ways):
                i = lo + s * c0 + t
                if s == 0 or i < n:
                    k = keys[i]
                    if rows:
                        v = vals[i]
                        d = _row_digit(v, length, shift, M)
                    else:
                        d = _key_digit(k, shift, M)
                    j = base + s * R + d
                    q = offs[j]
                    offs[j] = q + 1
                    if final == 1:
                        out[q] = _float_unkey(k, c1, desc)
                    elif final == 2:
                        out[q] = _int_unkey(k, c1, c2, desc)
                    else:
                        out[q] = k
                    if rows:
                        outv[q] = v
                    elif pairs:
                        outv[q] = vals[i]

    return k_scatter


def _small_radix_kernel(gather):
    @kernel
    def k_radix_small(
        it: kapi.Item,
        keys,
        vals,
        tk,
        tv,
        n,
        length,
        mask,
        npass,
        rpass,
        counts,
        src,
        out,
    ):
        # the whole LSD sort of a small array (keys and their positions
        # vals) in one work-item: the passes of `mask`'s 8-bit digits, then
        # rpass passes on the row (vals // length); with `gather`,
        # out[i] = src[vals[i]] at the end
        for p in range(npass + rpass):
            by_row = p >= npass
            shift = 8 * p
            if by_row:
                shift = 8 * (p - npass)
            if by_row or (mask >> p) & 1:
                for d in range(256):
                    counts[d] = 0
                for sweep in range(2):  # count, then scatter
                    if sweep == 1:
                        t = 0
                        for d in range(256):
                            c = counts[d]
                            counts[d] = t
                            t += c
                    for i in range(n):
                        d = _key_digit(keys[i], shift, 255)
                        if by_row:
                            d = _row_digit(vals[i], length, shift, 255)
                        q = counts[d]
                        counts[d] = q + 1
                        if sweep == 1:
                            tk[q] = keys[i]
                            tv[q] = vals[i]
                for i in range(n):
                    keys[i] = tk[i]
                    vals[i] = tv[i]
        if gather:
            for i in range(n):
                out[i] = src[vals[i]]

    return k_radix_small


RADIX_BITS = (8, 9, 10, 11)
WAYS = (1, 2)
COUNT = {
    (rows, bits, ways): _count_kernel(rows, bits, ways)
    for rows in (False, True)
    for bits in RADIX_BITS
    for ways in WAYS
}
SCATTER = {
    (pairs, rows, bits, final, ways): _scatter_kernel(
        pairs, rows, bits, final, ways
    )
    for pairs, rows, final in (
        (False, False, 0),
        (True, False, 0),
        (True, True, 0),
        (False, False, 1),
        (False, False, 2),
    )
    for bits in RADIX_BITS
    for ways in WAYS
}
SMALL = {gather: _small_radix_kernel(gather) for gather in (False, True)}


# --- gathers and searches --------------------------------------------------


@kernel
def k_gather(it: kapi.Item, src, idx, out):
    i = it.get_id(0)
    out[i] = src[idx[i]]


@kernel
def k_pick_rows(it: kapi.Item, src, idx, length, out):
    # out[r] = src[r * length + idx[r]]: one element of each row
    r = it.get_id(0)
    out[r] = src[r * length + idx[r]]


@kernel
def k_scatter_index(it: kapi.Item, idx, vals, out):
    i = it.get_id(0)
    out[idx[i]] = vals[i]


@kernel
def k_local_index(it: kapi.Item, idx, length, out):
    i = it.get_id(0)
    out[i] = idx[i] % length


@kernel
def k_searchsorted(it: kapi.Item, a, n, v, right, out):
    # binary search of v[i] in sorted a, in NumPy's order (NaN last); the
    # side and whether v[i] is a NaN are decided once, so each loop tests
    # one comparison (half the time of testing both sides' NaN rules at
    # every step)
    i = it.get_id(0)
    x = v[i]
    lo = 0
    hi = n
    if x != x:
        if right:
            lo = n
        else:
            while lo < hi:
                mid = (lo + hi) >> 1
                y = a[mid]
                if y == y:
                    lo = mid + 1
                else:
                    hi = mid
    elif right:
        while lo < hi:
            mid = (lo + hi) >> 1
            y = a[mid]
            if x < y or y != y:
                hi = mid
            else:
                lo = mid + 1
    else:
        while lo < hi:
            mid = (lo + hi) >> 1
            if a[mid] < x:
                lo = mid + 1
            else:
                hi = mid
    out[i] = lo


@kernel
def k_member(it: kapi.Item, a, n, v, invert, out):
    # v[i] in sorted a (NaN matches nothing, as NumPy's isin)
    i = it.get_id(0)
    x = v[i]
    lo = 0
    hi = n
    while lo < hi:
        mid = (lo + hi) // 2
        y = a[mid]
        if (y < x) or (x != x and y == y):
            lo = mid + 1
        else:
            hi = mid
    found = False
    if lo < n:
        found = a[lo] == x
    if invert:
        out[i] = not found
    else:
        out[i] = found


@kernel
def k_run_lengths(it: kapi.Item, starts, m, n, out):
    j = it.get_id(0)
    if j + 1 < m:
        out[j] = starts[j + 1] - starts[j]
    else:
        out[j] = n - starts[j]


_ARG_GROUP = 32  # elements one test of a group filters at once


def _arg_extreme_kernel(want_max, nan_first, is_float):
    """The kernel of one (row, chunk) of argmax / argmin / nanargmax /
    nanargmin: the index of the chunk's first maximum (minimum); with
    nan_first the first NaN wins (NumPy's argmax), without it NaNs are
    skipped (nanargmax); outv[w] = 0 when the chunk has no candidate.

    A group of _ARG_GROUP elements is first tested as a whole: an OR of
    "not (x <= best)" over the group (branch-free, so it vectorizes; true
    for a larger element or a NaN); only a group that passes is searched
    element by element. The three flags are compile-time constants."""

    @kernel
    def k_arg_extreme(it: kapi.NdItem, x, length, chunk, nchunks, outv, outi):
        w = it.get_global_id(0)
        r = w // nchunks
        c = w % nchunks
        lo = max(r * length + c * chunk, 0)
        hi = max(r * length + min((c + 1) * chunk, length), 0)
        i = lo
        if is_float and not nan_first:
            while i < hi and x[i] != x[i]:
                i += 1
        found = 0
        done = 0
        best = lo
        bv = x[lo]
        if i < hi:
            found = 1
            best = i
            bv = x[i]
            i += 1
            if is_float and nan_first and bv != bv:
                done = 1
        while done == 0 and i < hi:
            g = i
            e = min(i + _ARG_GROUP, hi)
            if e - i == _ARG_GROUP:
                # (indices known non-negative, in a variable of their
                # own, make the loads contiguous vectors)
                g0 = max(i, 0)
                if want_max:
                    h = not (x[g0] <= bv)
                    for t in range(g0 + 1, g0 + _ARG_GROUP):
                        h = h | (not (x[t] <= bv))
                else:
                    h = not (x[g0] >= bv)
                    for t in range(g0 + 1, g0 + _ARG_GROUP):
                        h = h | (not (x[t] >= bv))
                if not h:
                    g = e
            for j in range(g, e):
                v = x[j]
                if is_float and v != v:
                    if nan_first:
                        best = j
                        done = 1
                        break
                elif want_max:
                    if v > bv:
                        best = j
                        bv = v
                elif v < bv:
                    best = j
                    bv = v
            i = e
        outi[w] = best - r * length
        outv[w] = found

    return k_arg_extreme


ARG_EXTREME = {
    (m, f, fl): _arg_extreme_kernel(m, f, fl)
    for m in (False, True)
    for f in (False, True)
    for fl in (False, True)
}


@kernel
def k_arg_combine(
    it: kapi.Item, x, length, nchunks, want_max, nan_first, found, idx, out
):
    r = it.get_id(0)
    best = -1
    for c in range(nchunks):
        j = r * nchunks + c
        if found[j]:
            i = idx[j]
            v = x[r * length + i]
            if best < 0:
                best = i
            else:
                bv = x[r * length + best]
                if v != v:
                    if nan_first and bv == bv:
                        best = i
                elif bv == bv:
                    if want_max:
                        if v > bv:
                            best = i
                    else:
                        if v < bv:
                            best = i
    out[r] = best


# --- scans -----------------------------------------------------------------


# No identity element is ever added: a block's total starts from its first
# element and the first block of a row is scanned from its first element,
# so the signs of zeros come out as NumPy's sequential sum gives them (a
# leading -0.0 stays -0.0; -0.0 + 0.0 would be +0.0).


@kernel
def k_block_total(it: kapi.NdItem, x, length, chunk, nchunks, prod, out):
    w = it.get_global_id(0)
    r = w // nchunks
    c = w % nchunks
    lo = max(r * length + c * chunk, 0)
    hi = max(r * length + min((c + 1) * chunk, length), 0)
    if lo < hi:
        s = x[lo]
        if prod:
            for i in range(lo + 1, hi):
                s *= x[i]
        else:
            for i in range(lo + 1, hi):
                s += x[i]
        out[w] = s


@kernel
def k_scan_totals(it: kapi.Item, tot, nchunks, prod):
    # exclusive scan of each row's block totals, in place (the first
    # block's entry is left as it is: that block has no offset)
    r = it.get_id(0)
    s = tot[r * nchunks]
    for c in range(r * nchunks + 1, (r + 1) * nchunks):
        t = tot[c]
        tot[c] = s
        if prod:
            s *= t
        else:
            s += t


@kernel
def k_block_scan(it: kapi.NdItem, x, length, chunk, nchunks, prod, offs, out):
    w = it.get_global_id(0)
    r = w // nchunks
    c = w % nchunks
    lo = max(r * length + c * chunk, 0)
    hi = max(r * length + min((c + 1) * chunk, length), 0)
    if lo < hi:
        s = x[lo]
        if c > 0:
            if prod:
                s = offs[w] * s
            else:
                s = offs[w] + s
        out[lo] = s
        if prod:
            for i in range(lo + 1, hi):
                s *= x[i]
                out[i] = s
        else:
            for i in range(lo + 1, hi):
                s += x[i]
                out[i] = s


# --- histograms --------------------------------------------------------------


@kernel
def k_bin_counts(it: kapi.NdItem, idx, w, n, chunk, nbins, use_w, counts):
    # block b counts idx (bins in [0, nbins); others are skipped) into its
    # own row of counts: counts[b * nbins + bin]
    b = it.get_global_id(0)
    lo = max(b * chunk, 0)
    hi = min(lo + chunk, n)
    base = b * nbins
    if use_w:
        for i in range(lo, hi):
            j = idx[i]
            if j >= 0 and j < nbins:
                counts[base + j] += w[i]
    else:
        for i in range(lo, hi):
            j = idx[i]
            if j >= 0 and j < nbins:
                counts[base + j] += 1


@kernel
def k_sum_rows(it: kapi.Item, counts, nb, nbins, out):
    j = it.get_id(0)
    s = out[j]
    for b in range(nb):
        s += counts[b * nbins + j]
    out[j] = s


@kernel
def k_uniform_bin(it: kapi.Item, x, edges, nbins, lo, norm, out):
    # np.histogram's rule for equal bins: the scaled position, corrected
    # against the edges themselves; -1 outside [edges[0], edges[nbins]]
    i = it.get_id(0)
    v = x[i]
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
        out[i] = j
    else:
        out[i] = -1


@kernel
def k_edges_bin(it: kapi.Item, x, edges, nedges, out):
    # bin of x among sorted edges (last bin closed); -1 outside
    i = it.get_id(0)
    v = x[i]
    if v >= edges[0] and v <= edges[nedges - 1]:
        lo = 0
        hi = nedges
        while lo < hi:
            mid = (lo + hi) // 2
            if edges[mid] <= v:
                lo = mid + 1
            else:
                hi = mid
        j = lo - 1
        if j >= nedges - 1:
            j = nedges - 2
        out[i] = j
    else:
        out[i] = -1


# --- unique ------------------------------------------------------------------


@kernel
def k_flag_new(it: kapi.Item, s, out):
    # 1 where sorted s starts a new value (NaNs are one value, as NumPy's
    # unique with equal_nan)
    i = it.get_id(0)
    if i == 0:
        out[i] = 1
    else:
        a = s[i - 1]
        b = s[i]
        if a == b or (a != a and b != b):
            out[i] = 0
        else:
            out[i] = 1


@_k.device_func
def _starts_run(s, i):
    # whether sorted s starts a new value at i (NaNs are one value)
    a = s[i - 1]
    c = s[i]
    return not (a == c or (a != a and c != c))


@kernel
def k_run_count(it: kapi.NdItem, s, n, chunk, cnt):
    # cnt[b]: how many values start in block b of sorted s
    b = it.get_global_id(0)
    lo = max(b * chunk, 0)
    hi = min(lo + chunk, n)
    c = 0
    if lo == 0 and hi > 0:
        c = 1
        lo = 1
    for i in range(max(lo, 1), hi):
        c += _starts_run(s, i)
    cnt[b] = c


@kernel
def k_excl_scan(it: kapi.Item, cnt, nb):
    # exclusive scan of cnt[0:nb] in place, the total in cnt[nb]
    t = 0
    for b in range(nb):
        c = cnt[b]
        cnt[b] = t
        t += c
    cnt[nb] = t


@kernel
def k_run_values(it: kapi.NdItem, s, n, chunk, offs, out):
    # the first element of each run of sorted s, in order
    b = it.get_global_id(0)
    lo = max(b * chunk, 0)
    hi = min(lo + chunk, n)
    q = offs[b]
    if lo == 0 and hi > 0:
        out[q] = s[0]
        q += 1
    for i in range(max(lo, 1), hi):
        if _starts_run(s, i):
            out[q] = s[i]
            q += 1


@kernel
def k_compact_starts(it: kapi.Item, flags, pos, out):
    # out[pos[i] - 1] = i where flags[i]: the start of each run
    i = it.get_id(0)
    if flags[i]:
        out[pos[i] - 1] = i


# --- random: Philox-4x32-10 --------------------------------------------------


@_k.device_func
def philox_u01(k0, k1, c0, c1):
    # Philox-4x32-10 of the counter (c0, c1, 0, 0) under key (k0, k1):
    # 53 bits of its first two words as a float64 in [0, 1)
    x0 = np.uint64(c0)
    x1 = np.uint64(c1)
    x2 = np.uint64(0)
    x3 = np.uint64(0)
    a = np.uint64(k0)
    b = np.uint64(k1)
    for _ in range(10):
        p0 = x0 * 0xD2511F53
        p1 = x2 * 0xCD9E8D57
        y0 = (p1 >> 32) ^ x1 ^ a
        y2 = (p0 >> 32) ^ x3 ^ b
        x1 = p1 & 0xFFFFFFFF
        x3 = p0 & 0xFFFFFFFF
        x0 = y0 & 0xFFFFFFFF
        x2 = y2 & 0xFFFFFFFF
        a = (a + 0x9E3779B9) & 0xFFFFFFFF
        b = (b + 0xBB67AE85) & 0xFFFFFFFF
    hi = np.float64(x0 >> 5)
    lo = np.float64(x1 >> 6)
    return (hi * 67108864.0 + lo) * (1.0 / 9007199254740992.0)


@kernel
def k_uniform(it: kapi.Item, out, k0, k1, ctr, low, span, bits24):
    # element i uses counter ctr + i
    i = it.get_id(0)
    u = philox_u01(k0, k1, ctr + i, 0)
    if bits24:
        u = np.floor(u * 16777216.0) * (1.0 / 16777216.0)
    out[i] = low + span * u


@kernel
def k_normal(it: kapi.Item, out, k0, k1, ctr, loc, scale):
    # Box-Muller from the counters ctr + 2i, ctr + 2i + 1
    i = it.get_id(0)
    u1 = philox_u01(k0, k1, ctr + 2 * i, 0)
    u2 = philox_u01(k0, k1, ctr + 2 * i + 1, 0)
    z = np.sqrt(-2.0 * np.log(1.0 - u1)) * np.cos(6.283185307179586 * u2)
    out[i] = loc + scale * z


@kernel
def k_randint(it: kapi.Item, out, k0, k1, ctr, low, span):
    i = it.get_id(0)
    u = philox_u01(k0, k1, ctr + i, 0)
    j = np.int64(u * span)
    if j >= span:
        j = span - 1
    out[i] = low + j


@kernel
def k_poisson(it: kapi.Item, out, k0, k1, ctr, lam, tries):
    # Knuth's product of uniforms (counters ctr + i * tries + t)
    i = it.get_id(0)
    limit = np.exp(-lam)
    p = 1.0
    k = 0
    for t in range(tries):
        p = p * philox_u01(k0, k1, ctr + i * tries + t, 0)
        if p > limit:
            k += 1
        else:
            break
    out[i] = k


@kernel
def k_binomial(it: kapi.Item, out, k0, k1, ctr, ntrials, prob):
    # a sum of Bernoulli draws (counters ctr + i * ntrials + t)
    i = it.get_id(0)
    k = 0
    for t in range(ntrials):
        if philox_u01(k0, k1, ctr + i * ntrials + t, 0) < prob:
            k += 1
    out[i] = k


@kernel
def k_gamma(it: kapi.Item, out, k0, k1, ctr, shape, scale, tries):
    # Marsaglia-Tsang for shape >= 1 (three counters per try); shape < 1
    # boosts shape + 1 by u ** (1 / shape) (one more counter)
    i = it.get_id(0)
    a = shape
    if shape < 1.0:
        a = shape + 1.0
    d = a - 1.0 / 3.0
    c = 1.0 / np.sqrt(9.0 * d)
    res = d
    base = ctr + i * (3 * tries + 1)
    for t in range(tries):
        u1 = philox_u01(k0, k1, base + 3 * t, 0)
        u2 = philox_u01(k0, k1, base + 3 * t + 1, 0)
        x = np.sqrt(-2.0 * np.log(1.0 - u1)) * np.cos(6.283185307179586 * u2)
        v = 1.0 + c * x
        if v > 0.0:
            v = v * v * v
            uu = 1.0 - philox_u01(k0, k1, base + 3 * t + 2, 0)
            if np.log(uu) < 0.5 * x * x + d - d * v + d * np.log(v):
                res = d * v
                break
    if shape < 1.0:
        uu = 1.0 - philox_u01(k0, k1, base + 3 * tries, 0)
        res = res * np.exp(np.log(uu) / shape)
    out[i] = res * scale
