"""Sorting, searching and sets with NumPy's semantics (dpnp's names).

Everything runs on the array's queue through the kernels of
``_sort_kernels`` (radix sort, blocked scans, binary searches); the host
only reads a number where the size of a result depends on the data
(``unique``, compress) or NumPy raises on the data (``nanargmax`` of an
all-NaN slice). Sorting is stable; NaNs sort last, as in NumPy; with
``descending=True`` the order of unequal values is reversed, equal values
keep their order and NaNs stay last.
"""

import builtins
import collections
import operator

import numpy as np

from . import _dtypes, _host_small, _ops, _trace
from . import _jit_library as J
from . import _sluice as _ext
from . import _coop_kernels as C
from . import _coop_sort_kernels as CS
from . import _sort_kernels as K
from . import kernel_api as kapi
from ._kernel import call_kernel
from ._placement import queue_info

try:  # NumPy >= 2
    from numpy.exceptions import AxisError
except ImportError:  # pragma: no cover
    AxisError = np.AxisError


# --- helpers -----------------------------------------------------------------


def _array(x, what):
    from ._array import Array

    if isinstance(x, Array):
        return x
    if isinstance(x, _trace.Tracer):
        from ._errors import TracerError

        raise TracerError(
            f"sluice.{what} is not available inside @sluice.jit: its "
            "result's size depends on the data (sorts, scans, searches, "
            "reductions and statistics are available): call it outside "
            "the jitted function"
        )
    raise TypeError(
        f"sluice.{what} needs a sluice.Array, not {type(x).__name__}"
    )


def _empty(n, dt, like):
    from ._creation import empty

    return empty(
        n, dtype=dt, sycl_queue=like.sycl_queue, usm_type=like.usm_type
    )


def _zeros(n, dt, like):
    from ._creation import zeros

    return zeros(
        n, dtype=dt, sycl_queue=like.sycl_queue, usm_type=like.usm_type
    )


def _full(n, v, dt, like):
    from ._creation import full

    return full(
        n, v, dtype=dt, sycl_queue=like.sycl_queue, usm_type=like.usm_type
    )


def _contig(x):
    return x if x._c_contiguous else _ops.copy(x)


def _shaped(x, shape):
    return x if x.shape == tuple(shape) else _ops.reshape(x, shape)


def _flat(x):
    if x.ndim == 1 and x._c_contiguous:
        return x  # (a reshape costs a call into the eager path)
    return _ops.reshape(_contig(x), (x.size,))


def _view(x, dt):
    """The same memory as another dtype of the same size (C-contiguous)."""
    dt = _dtypes.to_dtype(dt)
    return _ext.core_reinterpret(
        x, _dtypes.CODES[dt], x._offset, list(x.shape), list(x._strides)
    )


def _blocks(n, x, per=4096, most=64):
    """How many blocks (work-items of the blocked kernels) for n items."""
    info = queue_info(x.sycl_queue)
    if info.get("backend_name") not in (None, "host"):
        most = 1024
        per = 1024
    return builtins.max(1, builtins.min(most, n // per))


# The internal switch of the workgroup-cooperative kernels
# (``_coop_kernels``): None chooses by the device (GPUs), True forces them
# on every device (the tests use it on the CPU devices), False never.
COOPERATIVE = None


def cooperative(x):
    """Whether the workgroup-cooperative kernels serve x's queue."""
    if COOPERATIVE is not None:
        return COOPERATIVE
    info = queue_info(x.sycl_queue)
    return ":gpu:" in info.get("filter_string", "")


def sub_group_size(x):
    """Work-items of a kernel's sub-group on x's queue (kapi.SubGroup's
    get_max_local_range: warps on CUDA, one work-item elsewhere)."""
    info = queue_info(x.sycl_queue)
    return 32 if info.get("backend_name") == "cuda" else 1


def _sort_blocks(n, x):
    """Blocks of the radix sort: on the host at most 16 (a block's 2048
    counters per pass stay few against its share of the keys)."""
    info = queue_info(x.sycl_queue)
    if info.get("backend_name") in (None, "host"):
        return _blocks(n, x, most=16)
    return _blocks(n, x)


def _norm_axis(axis, nd):
    a = operator.index(axis)
    if not -nd <= a < nd:
        raise AxisError(a, nd)
    return a % nd


def _to_last(x, axis):
    """(rows view of x with `axis` last and contiguous, perm back)."""
    nd = x.ndim
    if axis == nd - 1:
        return _contig(x), None
    perm = [i for i in range(nd) if i != axis] + [axis]
    inv = [0] * nd
    for i, p in enumerate(perm):
        inv[p] = i
    return _contig(_ops.transpose(x, perm)), inv


def _back(r, inv):
    return r if inv is None else _ops.transpose(r, inv)


# --- radix sort --------------------------------------------------------------


class _KeyStats:
    """What the key kernels' per-block stats say (read on the host)."""

    def __init__(self, stats, nb):
        self.nb = nb
        self._stats = stats
        self._read = False

    def __getattr__(self, name):
        # read on first use: small sorts never wait for it
        if name.startswith("_") or self._read:
            raise AttributeError(name)
        self._parse()
        return getattr(self, name)

    def _parse(self):
        from ._array import asnumpy

        nb = self.nb
        self._read = True
        st = [int(v) for v in asnumpy(self._stats)] if nb else []
        ko, ka = 0, (1 << 64) - 1
        self.sorted = True
        self.negzero = False
        last = None
        for b in range(nb):
            o, a_, flags, first, lst = st[5 * b : 5 * b + 5]
            if flags & 1 or (last is not None and first < last):
                self.sorted = False
            self.negzero = self.negzero or bool(flags & 2)
            ko |= o
            ka &= a_
            last = lst
        self.vary = ko ^ ka if nb else 0

    def digits(self, most):
        """The (shift, bits) of the radix passes: the bits that vary among
        the keys, from the lowest to the highest, cut into the fewest
        digits of at most `most` bits, all of one width (at least 8): the
        fewer buckets a pass has, the cheaper its scatter. A digit whose
        bits are the same in every key is left out."""
        vary = self.vary
        if not vary:
            return []
        lo = (vary & -vary).bit_length() - 1
        span = vary.bit_length() - lo
        npass = -(-span // most)
        width = builtins.max(8, -(-span // npass))
        return [
            (sh, width)
            for sh in range(lo, lo + span, width)
            if (vary >> sh) & ((1 << width) - 1)
        ]


def _keys(x, descending, coop=False):
    """(unsigned keys of the flat contiguous x, number of 8-bit digits,
    how to get values back: (kind, args), _KeyStats). With `coop`, the
    keys come from ``_coop_sort_kernels``' workgroups and the stats are
    combined on the device into those of one block."""
    dt = x.dtype
    n = x.size
    nb = _sort_blocks(n, x)
    chunk = -(-n // nb)
    space = kapi.NdRange((nb,), (1,))
    stats = _empty(5 * nb, _dtypes.uint64, x)
    if coop:
        nb = builtins.max(1, builtins.min(-(-n // (8 * C.WG)), 2048))
        chunk = -(-n // nb)
        space = kapi.NdRange((nb * C.WG,), (C.WG,))
        stats = _CoopStats(nb, x)
    if dt == _dtypes.bool_:
        x = _ops.astype(x, _dtypes.uint8)
        dt = x.dtype
    if dt.kind == "f":
        if dt.itemsize == 2:
            x = _ops.astype(x, _dtypes.float32)
        big = x.dtype.itemsize == 8
        ut = _dtypes.uint64 if big else _dtypes.uint32
        sign = np.uint64(1 << 63) if big else np.uint32(1 << 31)
        nan = np.uint64(0x7FF0000000000000) if big else np.uint32(0x7F800000)
        keys = _empty(n, ut, x)
        call_kernel(
            CS.COOP_KEY[True] if coop else K.KEY[True],
            space,
            _view(x, ut),
            n,
            chunk,
            keys,
            sign,
            nan,
            int(descending),
            *(stats.args() if coop else (stats,)),
        )
        return (
            keys,
            8 if big else 4,
            ("f", x.dtype, dt, sign),
            stats.done() if coop else _KeyStats(stats, nb),
        )
    size = dt.itemsize
    if size == 8:
        xi = _view(x, _dtypes.int64)
        bias = np.int64(-(1 << 63)) if dt.kind == "i" else np.int64(0)
        top = np.int64(-1)
        keys = _empty(n, _dtypes.uint64, x)
    else:
        xi = x
        bias = np.int64(1 << (8 * size - 1)) if dt.kind == "i" else np.int64(0)
        top = np.int64((1 << (8 * size)) - 1)
        keys = _empty(n, _dtypes.uint32, x)
    call_kernel(
        CS.COOP_KEY[False] if coop else K.KEY[False],
        space,
        xi,
        n,
        chunk,
        keys,
        bias,
        top,
        int(descending),
        *(stats.args() if coop else (stats,)),
    )
    st = stats.done() if coop else _KeyStats(stats, nb)
    return keys, size, ("i", dt, bias, top), st


class _CoopStats:
    """The per-workgroup stats of ``CS.COOP_KEY`` and their combination
    into one block's (``_KeyStats``)."""

    def __init__(self, nw, like):
        self.nw = nw
        self.like = like
        self.wst = _empty(3 * nw, _dtypes.uint64, like)

    def _locals(self):
        return (
            kapi.LocalAccessor((C.WG,), _dtypes.uint64),
            kapi.LocalAccessor((C.WG,), _dtypes.uint64),
            kapi.LocalAccessor((C.WG,), _dtypes.int64),
        )

    def args(self):
        return (self.wst, *self._locals())

    def done(self):
        stats = _empty(5, _dtypes.uint64, self.like)
        call_kernel(
            CS.k_coop_key_stats,
            kapi.NdRange((C.WG,), (C.WG,)),
            self.wst,
            self.nw,
            stats,
            *self._locals(),
        )
        return _KeyStats(stats, 1)


def _unkey(keys, how, descending, like):
    n = keys.size
    if how[0] == "f":
        _, fdt, dt, sign = how
        ut = keys.dtype
        out = _empty(n, fdt, like)
        call_kernel(
            K.k_unkey_float,
            kapi.Range(n),
            keys,
            _view(out, ut),
            sign,
            int(descending),
        )
        return out if fdt == dt else _ops.astype(out, dt)
    _, dt, bias, top = how
    if dt == _dtypes.uint8 and like.dtype == _dtypes.bool_:
        out = _empty(n, dt, like)
        call_kernel(
            K.k_unkey_int, kapi.Range(n), keys, out, bias, top, int(descending)
        )
        return _ops.astype(out, _dtypes.bool_)
    out = _empty(n, dt, like)
    call_kernel(
        K.k_unkey_int, kapi.Range(n), keys, out, bias, top, int(descending)
    )
    return out


def _digit_bits(x):
    """The widest radix digit: 11 bits on the host (3 passes for 32-bit
    keys, the counters of a block still in its core's cache), 8 on
    devices, whose many blocks would make 2048 counters each too many to
    scan."""
    info = queue_info(x.sycl_queue)
    return 11 if info.get("backend_name") in (None, "host") else 8


def _fused_unkey(how, descending, like, n):
    """(out, final kind, c1, c2) when the last pass of a sort of keys alone
    can write the values itself (same dtype as the keys' source), else
    None."""
    if how[0] == "f":
        _, fdt, dt, sign = how
        if fdt != dt:
            return None
        out = _empty(n, dt, like)
        return (
            out,
            _view(out, _dtypes.uint64 if dt.itemsize == 8 else _dtypes.uint32),
            1,
            sign,
            sign,
        )
    _, dt, bias, top = how
    if like.dtype == _dtypes.bool_:
        return None
    out = _empty(n, dt, like)
    return out, out, 2, bias, top


def _ways(x):
    """Blocks per work-item of the radix passes: on the host 2, taken in
    turn, so that keys sharing a digit make two independent chains of
    counter updates (a skewed digit, as floats' exponents, otherwise
    waits on each update); on devices 1."""
    info = queue_info(x.sycl_queue)
    return 2 if info.get("backend_name") in (None, "host") else 1


def _radix(keys, vals, digits, length=1, rows=1, final=None):
    """Stable LSD radix sort of keys (and vals along) on the digits
    ((shift, bits) each); with rows > 1, vals are the flat positions and the
    result is ordered by row first (8-bit digits of the row). With `final`
    ((out, view, kind, c1, c2), keys alone), the last pass writes the
    values into out's view and out is returned as the keys."""
    n = keys.size
    ways = _ways(keys)
    nb = _sort_blocks(n, keys)
    chunk = -(-n // nb)
    nw = -(-nb // ways)  # work-items, `ways` blocks each
    nb = nw * ways
    space = kapi.NdRange((nw,), (1,))
    a, b = keys, _empty(n, keys.dtype, keys)
    va = vals
    vb = _empty(n, vals.dtype, vals) if vals is not None else None
    rpass = 0
    if rows > 1:
        rpass = builtins.max(1, ((rows - 1).bit_length() + 7) // 8)
    todo = [(False, sh, db) for sh, db in digits] + [
        (True, 8 * p, 8) for p in range(rpass)
    ]
    most = builtins.max([8] + [db for _, db in digits])
    counts = _empty((1 << most) * nb, _dtypes.int64, keys)
    for i, (by_row, shift, db) in enumerate(todo):
        pairs = vals is not None
        v_in = va if pairs else a
        v_out = vb if pairs else b
        call_kernel(
            K.COUNT[(by_row, db, ways)],
            space,
            a,
            v_in,
            n,
            chunk,
            length,
            shift,
            counts,
        )
        call_kernel(K.k_offsets, kapi.Range(1), counts, nb, 1 << db)
        if final is not None and i == len(todo) - 1:
            out, view, kind, c1, c2, desc = final
            call_kernel(
                K.SCATTER[(False, False, db, kind, ways)],
                space,
                a,
                a,
                n,
                chunk,
                length,
                shift,
                counts,
                view,
                view,
                c1,
                c2,
                desc,
            )
            return out, None
        call_kernel(
            K.SCATTER[(pairs, by_row, db, 0, ways)],
            space,
            a,
            v_in,
            n,
            chunk,
            length,
            shift,
            counts,
            b,
            v_out,
            0,
            0,
            0,
        )
        if pairs:
            va, vb = vb, va
        a, b = b, a
        if i == 0 and b is keys:
            b = _empty(n, keys.dtype, keys)  # never write the caller's keys
        if i == 0 and pairs and vb is vals:
            vb = _empty(n, vals.dtype, vals)
    return a, va


def _coop_radix(keys, vals, digits, length=1, rows=1, final=None, iota=False):
    """_radix with ``_coop_sort_kernels``' workgroups (GPUs): per pass a
    histogram per chunk, the look-back scan of the counts, a scatter of
    tiles sorted in workgroup memory. With `iota` (vals None), the values
    are the positions, made by the first pass (which must be a pass on
    the keys), carried as int32 below 2^31 elements and written as int64
    by the last pass."""
    from ._scans import _lookback_scan

    n = keys.size
    size = keys.dtype.itemsize
    a, b = keys, _empty(n, keys.dtype, keys)
    va = vals
    vdt = vals.dtype if vals is not None else _dtypes.int64
    if iota and n < (1 << 31):
        vdt = _dtypes.int32
    vtmp = []

    def vbuf(dt, busy):
        # a values buffer of dt that is neither `busy` nor the caller's
        for v in vtmp:
            if v is not busy and v.dtype == dt:
                return v
        v = _empty(n, dt, keys)
        vtmp.append(v)
        return v

    rpass = 0
    if rows > 1:
        rpass = builtins.max(1, ((rows - 1).bit_length() + 7) // 8)
    todo = [(False, sh, db) for sh, db in digits] + [
        (True, 8 * p, 8) for p in range(rpass)
    ]
    bits = 8
    radix = 1 << bits
    # the scatter's sub-groups each count their digits (CUDA: warps)
    nw = C.WG // sub_group_size(keys)
    kmax = np.uint32(0xFFFFFFFF) if size == 4 else np.uint64((1 << 64) - 1)
    for i, (by_row, shift, db) in enumerate(todo):
        if db > bits:
            raise AssertionError("cooperative radix digits have 8 bits")
        io = iota and i == 0
        pairs = va is not None or io
        vsize = vdt.itemsize if pairs else 0
        ipt = CS.ipt(size, vsize)
        tile = C.WG * ipt
        chunk = CS.TPW * tile
        nch = -(-n // chunk)
        counts = _empty(radix * nch, _dtypes.int64, keys)
        call_kernel(
            CS.hist(by_row, bits, CS.HC),
            kapi.NdRange((nch * C.WG,), (C.WG,)),
            a,
            va if by_row else a,
            n,
            chunk,
            nch,
            length,
            shift,
            counts,
            kapi.LocalAccessor((CS.HC * radix,), _dtypes.int32),
        )
        incl = _lookback_scan(
            counts, 1, radix * nch, _dtypes.int64, False, keys
        )
        last = i == len(todo) - 1
        kind = final[2] if last and final is not None else 0
        out = b
        outv = None
        if pairs:
            outv = vbuf(_dtypes.int64 if last else vdt, va)
        c1, c2, desc = 0, 0, 0
        if kind:
            _, view, _, c1, c2, desc = final
            out = view
        # (every workgroup array a multiple of 8 bytes: CUDA lays them out
        # one after the other, and the 8-byte ones must stay aligned)
        pad = (tile + tile // 32 + 8) // 8 * 8
        call_kernel(
            CS.scatter(pairs, by_row, io, kind, bits, size, vsize),
            kapi.NdRange((nch * C.WG,), (C.WG,)),
            a,
            va if va is not None else a,
            n,
            chunk,
            nch,
            length,
            shift,
            counts,
            incl,
            out,
            outv if pairs else out,
            kmax,
            c1,
            c2,
            desc,
            kapi.LocalAccessor((pad,), keys.dtype),
            kapi.LocalAccessor((pad if pairs else 1,), vdt),
            kapi.LocalAccessor((nw * radix,), _dtypes.int32),
            kapi.LocalAccessor((builtins.max(nw, 2),), _dtypes.int32),
            kapi.LocalAccessor((radix,), _dtypes.int64),
            kapi.LocalAccessor((2 * radix,), _dtypes.int32),
        )
        if kind:
            return final[0], None
        if pairs:
            va = outv
        a, b = b, a
        if i == 0 and b is keys:
            b = _empty(n, keys.dtype, keys)  # never write the caller's keys
    return a, va


def _iota(n, like):
    out = _empty(n, _dtypes.int64, like)
    if n:
        call_kernel(K.k_iota, kapi.Range(n), out)
    return out


def _complex_order(xm, descending):
    """Stable indices that sort complex xm along its last axis in NumPy's
    order: by (category, real, imaginary) with the categories R + Rj,
    R + nanj, nan + Rj, nan + nanj (R: not NaN), one stable pass per key
    from the last; ``descending`` reverses the real and imaginary orders
    (NaN categories stay last)."""
    from ._complex import imag, real
    from ._indexing_functions import take_along_axis

    re, im = real(xm), imag(xm)
    cat = _ops.add(
        _ops.multiply(_ops.astype(_ops.not_equal(re, re), _dtypes.int8), 2),
        _ops.astype(_ops.not_equal(im, im), _dtypes.int8),
    )
    p = argsort(im, axis=-1, descending=descending)
    for key, desc in ((re, descending), (cat, False)):
        q = argsort(take_along_axis(key, p, -1), axis=-1, descending=desc)
        p = take_along_axis(p, q, -1)
    return p


def _sort_rows(x, axis, descending, want_index):
    x = _array(x, "argsort" if want_index else "sort")
    if axis is None:
        x = _flat(x)
        axis = 0
    if x.ndim == 0:
        raise AxisError(axis, 0)
    axis = _norm_axis(axis, x.ndim)
    xm, inv = _to_last(x, axis)
    n = xm.size
    length = xm.shape[-1] if n else 0
    if n == 0:
        r = _empty(xm.shape, _dtypes.int64 if want_index else x.dtype, x)
        return _back(r, inv)
    if x.dtype.kind == "c":
        from ._indexing_functions import take_along_axis

        p = _complex_order(xm, descending)
        return _back(p if want_index else take_along_axis(xm, p, -1), inv)
    rows = n // length
    flat = _flat(xm)
    coop = cooperative(x)
    keys, npass, how, st = _keys(flat, descending, coop)
    if coop:
        return _back(
            _coop_sort(
                flat, keys, how, st, xm.shape, rows, descending, want_index
            ),
            inv,
        )
    if st.nb == 1:
        # one block: the whole sort is one kernel, with positions along;
        # every digit is sorted (no wait for the keys' stats) and values
        # come back by a gather, which keeps -0.0 and NaN payloads
        v = _iota(n, x)
        rpass = 0
        if rows > 1:
            rpass = builtins.max(1, ((rows - 1).bit_length() + 7) // 8)
        out = v if want_index else _empty(n, flat.dtype, x)
        call_kernel(
            K.SMALL[not want_index],
            kapi.Range(1),
            keys,
            v,
            _empty(n, keys.dtype, x),
            _empty(n, _dtypes.int64, x),
            n,
            length,
            (1 << npass) - 1,
            npass,
            rpass,
            _empty(256, _dtypes.int64, x),
            flat,
            out,
        )
        r = out
        if want_index and rows > 1:
            r = _empty(n, _dtypes.int64, x)
            call_kernel(K.k_local_index, kapi.Range(n), v, length, r)
        return _back(_shaped(r, xm.shape), inv)
    if st.sorted:
        # in order already (keys ascending over the whole array, so in
        # every row): the identity
        if not want_index:
            return _back(_ops.copy(xm), inv)
        v = _iota(n, x)
    elif want_index or rows > 1 or st.negzero:
        # positions travel with the keys; values are gathered through them
        # when -0.0 must keep its sign and its place among the zeros
        bits = _digit_bits(x)
        k, v = _radix(keys, _iota(n, x), st.digits(bits), length, rows)
    else:
        bits = _digit_bits(x)
        digits = st.digits(bits)
        fused = _fused_unkey(how, descending, x, n) if digits else None
        if fused is not None:
            out, view, kind, c1, c2 = fused
            r, _ = _radix(
                keys,
                None,
                digits,
                final=(out, view, kind, c1, c2, int(descending)),
            )
            return _back(_shaped(r, xm.shape), inv)
        k, v = _radix(keys, None, digits)
    if want_index:
        r = v
        if rows > 1:
            r = _empty(n, _dtypes.int64, x)
            call_kernel(K.k_local_index, kapi.Range(n), v, length, r)
    elif st.negzero:
        r = _gather(flat, v)
    else:
        r = _unkey(k, how, descending, x)
    return _back(_shaped(r, xm.shape), inv)


def _coop_sort(flat, keys, how, st, shape, rows, descending, want_index):
    """_sort_rows' sort of the keys on GPUs (``_coop_radix``)."""
    n = flat.size
    length = shape[-1]
    if st.sorted:
        if not want_index:
            return _ops.copy(_shaped(flat, shape))
        v = _iota(n, flat)
    else:
        digits = st.digits(8)
        if want_index or rows > 1 or st.negzero:
            # positions travel with the keys; values are gathered through
            # them when -0.0 must keep its sign and its place among zeros
            if digits:
                k, v = _coop_radix(keys, None, digits, length, rows, iota=True)
            else:
                k, v = _coop_radix(keys, _iota(n, flat), [], length, rows)
        else:
            fused = _fused_unkey(how, descending, flat, n) if digits else None
            if fused is not None:
                out, view, kind, c1, c2 = fused
                r, _ = _coop_radix(
                    keys,
                    None,
                    digits,
                    final=(out, view, kind, c1, c2, int(descending)),
                )
                return _shaped(r, shape)
            k, v = _coop_radix(keys, None, digits)
    if want_index:
        r = v
        if rows > 1:
            r = _empty(n, _dtypes.int64, flat)
            call_kernel(K.k_local_index, kapi.Range(n), v, length, r)
    elif st.negzero:
        r = _gather(flat, v)
    else:
        r = _unkey(k, how, descending, flat)
    return _shaped(r, shape)


@J.steps(J.along())
def sort(a, axis=-1, kind=None, order=None, *, descending=False, stable=None):
    """A sorted copy of ``a`` along ``axis`` (None: flattened); stable;
    NaNs last."""
    if order is None and not descending and _host_small.applies(a):
        # Stable where it shows: the order of -0.0 and 0.0 (equal integers
        # are indistinguishable, and NumPy's default sort is much faster).
        v = _host_small.view(a)
        kind = "stable" if v.dtype.kind in "fc" else None
        return _host_small.result(a, np.sort(v, axis=axis, kind=kind))
    if order is not None:
        raise NotImplementedError("sort(order=...) needs structured dtypes")
    return _sort_rows(a, axis, descending, False)


@J.steps(J.along(_dtypes.int64))
def argsort(
    a, axis=-1, kind=None, order=None, *, descending=False, stable=None
):
    """Indices that sort ``a`` along ``axis`` (stable; NaNs last)."""
    if order is not None:
        raise NotImplementedError("argsort(order=...) needs structured dtypes")
    return _sort_rows(a, axis, descending, True)


def _check_kth(kth, n):
    ks = np.atleast_1d(np.asarray(kth))
    if ks.dtype.kind not in "iu":
        raise TypeError("Partition index must be integer")
    for k in ks:
        if not -n <= k < n:
            raise ValueError(f"kth(={k}) out of bounds ({n})")


@J.steps(J.along())
def partition(a, kth, axis=-1, kind="introselect", order=None):
    """``a`` with the kth elements in their sorted places, smaller ones
    before and larger ones after (this implementation sorts fully, which
    satisfies NumPy's contract)."""
    a = _array(a, "partition")
    n = a.size if axis is None else a.shape[_norm_axis(axis, a.ndim)]
    _check_kth(kth, n)
    return sort(a, axis=axis)


@J.steps(J.along(_dtypes.int64))
def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """Indices that partition ``a`` (a full stable argsort)."""
    a = _array(a, "argpartition")
    n = a.size if axis is None else a.shape[_norm_axis(axis, a.ndim)]
    _check_kth(kth, n)
    return argsort(a, axis=axis)


def _gather(src, idx):
    """src_flat[idx] for an int64 index array (any shape)."""
    src = _flat(src)
    idx = _contig(idx)
    out = _empty(idx.shape, src.dtype, src)
    if idx.size:
        call_kernel(
            K.k_gather,
            kapi.Range(idx.size),
            src,
            _ops.reshape(idx, (idx.size,)),
            _ops.reshape(out, (idx.size,)),
        )
    return out


@J.steps(J.like_arg("v", _dtypes.int64))
def searchsorted(a, v, side="left", sorter=None):
    """Indices where ``v`` would be inserted into sorted 1-D ``a``."""
    from ._array import Array

    a = _array(a, "searchsorted")
    if a.ndim != 1:
        raise ValueError("object too deep for desired array")
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right' (got {side!r})")
    if sorter is not None:
        a = _gather(
            a, _ops.astype(_array(sorter, "searchsorted"), _dtypes.int64)
        )
    scalar = not isinstance(v, Array)
    if scalar:
        from ._creation import asarray

        v = asarray(v, sycl_queue=a.sycl_queue, usm_type=a.usm_type)
    dt = _dtypes.to_dtype(np.result_type(a.dtype, v.dtype))
    if dt == _dtypes.bool_:
        dt = _dtypes.uint8
    a2 = _contig(_ops.astype(a, dt, copy=False))
    vf = _flat(_ops.astype(v, dt, copy=False))
    out = _empty(v.shape, _dtypes.int64, a)
    if v.size:
        call_kernel(
            K.k_searchsorted,
            kapi.Range(v.size),
            a2,
            a.size,
            vf,
            int(side == "right"),
            _ops.reshape(out, (v.size,)),
        )
    return out


def _arg_extreme(x, axis, keepdims, want_max, nan_first, name):
    x = _array(x, name)
    if axis is None:
        if x.size == 0:
            raise ValueError(f"attempt to get {name} of an empty sequence")
        r = _arg_extreme(_flat(x), 0, False, want_max, nan_first, name)
        if keepdims:
            r = _ops.reshape(r, (1,) * x.ndim)
        return r
    axis = _norm_axis(axis, x.ndim)
    if x.shape[axis] == 0:
        raise ValueError(f"attempt to get {name} of an empty sequence")
    if x.dtype == _dtypes.bool_:
        x = _ops.astype(x, _dtypes.uint8)
    xm, inv = _to_last(x, axis)
    length = xm.shape[-1]
    rows = xm.size // length if length else 0
    shape = xm.shape[:-1]
    if rows == 0:
        out = _empty(shape, _dtypes.int64, x)
    elif cooperative(x) and length >= 2 * C.WG:
        out = _shaped(
            _arg_groups(_flat(xm), rows, length, want_max, nan_first, x),
            shape,
        )
    else:
        host = queue_info(x.sycl_queue).get("backend_name") in (None, "host")
        nch = builtins.max(
            1,
            builtins.min(
                length // 16384 if host else length // 4096,
                -(-(16 if host else 64) // rows),
            ),
        )
        chunk = -(-length // nch)
        w = rows * nch
        found = _empty(w, _dtypes.uint8, x)
        idx = _empty(w, _dtypes.int64, x)
        flat = _flat(xm)
        kern = K.ARG_EXTREME[
            (bool(want_max), bool(nan_first), x.dtype.kind == "f")
        ]
        call_kernel(
            kern,
            kapi.NdRange((w,), (1,)),
            flat,
            length,
            chunk,
            nch,
            found,
            idx,
        )
        if nch == 1:
            out = idx  # one chunk per row: its result is the row's
            if not nan_first and x.dtype.kind == "f":
                if not bool(_ops.all(found)):
                    raise ValueError("All-NaN slice encountered")
        else:
            out = _empty(rows, _dtypes.int64, x)
            call_kernel(
                K.k_arg_combine,
                kapi.Range(rows),
                flat,
                length,
                nch,
                int(want_max),
                int(nan_first),
                found,
                idx,
                out,
            )
            if not nan_first and x.dtype.kind == "f":
                if bool(_ops.any(_ops.less(out, 0))):
                    raise ValueError("All-NaN slice encountered")
        out = _shaped(out, shape)
    if keepdims:
        nd = x.ndim
        out = _ops.expand_dims(out, nd - 1)
        if inv is not None:
            out = _ops.transpose(out, inv)
    return out


def _arg_groups(flat, rows, length, want_max, nan_first, like):
    """argmax and friends of each row with ``_coop_kernels``' workgroups:
    one per (row, chunk), then, with several chunks, one per row."""
    nch = builtins.max(1, builtins.min(length // 32768, -(-4096 // rows)))
    chunk = -(-length // nch)
    nch = -(-length // chunk)
    w = rows * nch
    found = _empty(w, _dtypes.int32, like)
    idx = _empty(w, _dtypes.int64, like)
    key = (bool(want_max), bool(nan_first))

    def scratch():
        return (
            kapi.LocalAccessor((C.WG,), _dtypes.int32),
            kapi.LocalAccessor((C.WG,), flat.dtype),
            kapi.LocalAccessor((C.WG,), _dtypes.int64),
        )

    call_kernel(
        C.ARG_GROUP[key],
        kapi.NdRange((w * C.WG,), (C.WG,)),
        flat,
        length,
        chunk,
        nch,
        found,
        idx,
        *scratch(),
    )
    if nch == 1:
        out = idx
        bad = _ops.logical_not(_ops.all(found)) if not nan_first else None
    else:
        out = _empty(rows, _dtypes.int64, like)
        call_kernel(
            C.ARG_COMBINE[key],
            kapi.NdRange((rows * C.WG,), (C.WG,)),
            flat,
            length,
            nch,
            found,
            idx,
            out,
            *scratch(),
        )
        bad = _ops.any(_ops.less(out, 0)) if not nan_first else None
    if bad is not None and flat.dtype.kind == "f" and bool(bad):
        raise ValueError("All-NaN slice encountered")
    return out


@J.steps(J.reduced(_dtypes.int64))
def argmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the first maximum (a NaN is the maximum, as in NumPy)."""
    if out is None and _host_small.applies(a) and a.size:
        v = _host_small.view(a)
        return _host_small.result(
            a, np.argmax(v, axis=axis, keepdims=keepdims)
        )
    return _arg_extreme(a, axis, keepdims, True, True, "argmax")


@J.steps(J.reduced(_dtypes.int64))
def argmin(a, axis=None, out=None, *, keepdims=False):
    if out is None and _host_small.applies(a) and a.size:
        v = _host_small.view(a)
        return _host_small.result(
            a, np.argmin(v, axis=axis, keepdims=keepdims)
        )
    return _arg_extreme(a, axis, keepdims, False, True, "argmin")


@J.steps(J.reduced(_dtypes.int64))
def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """argmax ignoring NaNs; an all-NaN slice is a ValueError."""
    return _arg_extreme(a, axis, keepdims, True, False, "nanargmax")


@J.steps(J.reduced(_dtypes.int64))
def nanargmin(a, axis=None, out=None, *, keepdims=False):
    return _arg_extreme(a, axis, keepdims, False, False, "nanargmin")


def count_nonzero(a, axis=None, *, keepdims=False):
    if not isinstance(a, _trace.Tracer):  # traced: an array program
        a = _array(a, "count_nonzero")
    nz = _ops.astype(a, _dtypes.bool_)
    return _ops.sum(nz, axis=axis, dtype=_dtypes.int64, keepdims=keepdims)


# --- compaction and sets -----------------------------------------------------


def _positions(flags):
    """Inclusive prefix sums of 0/1 flags (int64) and their total (read on
    the host: it is the size of the result)."""
    from ._scans import cumsum

    pos = cumsum(flags)
    total = int(pos[flags.size - 1]) if flags.size else 0
    return pos, total


def _compress(x, mask):
    """x[mask] for flat x and a flat bool mask."""
    flags = _ops.astype(mask, _dtypes.int64)
    pos, m = _positions(flags)
    idx = _empty(m, _dtypes.int64, x)
    if m:
        call_kernel(
            K.k_compact_starts, kapi.Range(flags.size), flags, pos, idx
        )
    return _gather(x, idx)


UniqueAllResult = collections.namedtuple(
    "UniqueAllResult", ["values", "indices", "inverse_indices", "counts"]
)
UniqueCountsResult = collections.namedtuple(
    "UniqueCountsResult", ["values", "counts"]
)
UniqueInverseResult = collections.namedtuple(
    "UniqueInverseResult", ["values", "inverse_indices"]
)


def _new_value_flags(s):
    """int64 flags of sorted flat s: 1 where a new value starts (NaNs are
    one value; for complex numbers, every one with a NaN part)."""
    n = s.size
    if s.dtype.kind != "c":
        flags = _empty(n, _dtypes.int64, s)
        call_kernel(K.k_flag_new, kapi.Range(n), s, flags)
        return flags
    from ._manipulation import concatenate

    a, b = s[:-1], s[1:]
    nan_a, nan_b = _ops.not_equal(a, a), _ops.not_equal(b, b)
    new = _ops.logical_not(
        _ops.logical_or(_ops.equal(a, b), _ops.logical_and(nan_a, nan_b))
    )
    first = _ops.equal(s[:1], s[:1])  # any value starts the first run
    first = _ops.logical_or(first, _ops.not_equal(s[:1], s[:1]))
    return _ops.astype(concatenate([first, new]), _dtypes.int64)


def _unique_parts(x):
    """values, first indices, inverse (flat), counts of flat x."""
    x = _array(x, "unique")
    flat = _flat(x)
    n = flat.size
    if n == 0:
        e = _empty(0, _dtypes.int64, x)
        return _empty(0, x.dtype, x), e, e, e
    perm = argsort(flat)
    s = _gather(flat, perm)
    flags = _new_value_flags(s)
    pos, m = _positions(flags)
    starts = _empty(m, _dtypes.int64, x)
    call_kernel(K.k_compact_starts, kapi.Range(n), flags, pos, starts)
    values = _gather(s, starts)
    first = _gather(perm, starts)
    counts = _empty(m, _dtypes.int64, x)
    call_kernel(K.k_run_lengths, kapi.Range(m), starts, m, n, counts)
    inverse = _empty(n, _dtypes.int64, x)
    call_kernel(
        K.k_scatter_index, kapi.Range(n), perm, _ops.subtract(pos, 1), inverse
    )
    return values, first, inverse, counts


def _moveaxis(x, src, dst):
    from ._manipulation import moveaxis

    return moveaxis(x, src, dst)


def _unique_rows(x, axis):
    """unique(axis=...): the distinct slices along ``axis`` in
    lexicographic order (a stable argsort per column, last column first),
    with first indices, inverse and counts as for flat arrays."""
    from ._index_kernels import gather_rows

    x = _array(x, "unique")
    ax = _norm_axis(axis, x.ndim)
    moved = _moveaxis(x, ax, 0) if ax else x
    n = x.shape[ax]
    rest = tuple(moved.shape[1:])
    width = int(np.prod(rest, dtype=np.int64))
    rows = _ops.reshape(_contig(moved), (n, width))
    if n == 0:
        e = _empty(0, _dtypes.int64, x)
        return x, e, e, e
    perm = _iota(n, x)
    for j in range(width - 1, -1, -1):
        key = _gather(_contig(rows[:, j]), perm)
        perm = _gather(perm, argsort(key, kind="stable"))
    s = gather_rows(rows, perm)
    if width:
        diff = _ops.any(_ops.not_equal(s[1:], s[:-1]), axis=1)
    else:
        diff = _zeros(n - 1, _dtypes.bool_, x)
    from ._manipulation import concatenate

    flags = _ops.astype(
        concatenate([_full(1, True, _dtypes.bool_, x), diff]), _dtypes.int64
    )
    pos, m = _positions(flags)
    starts = _empty(m, _dtypes.int64, x)
    call_kernel(K.k_compact_starts, kapi.Range(n), flags, pos, starts)
    values = _ops.reshape(gather_rows(s, starts), (m, *rest))
    if ax:
        values = _moveaxis(values, 0, ax)
    first = _gather(perm, starts)
    counts = _empty(m, _dtypes.int64, x)
    call_kernel(K.k_run_lengths, kapi.Range(m), starts, m, n, counts)
    inverse = _empty(n, _dtypes.int64, x)
    call_kernel(
        K.k_scatter_index, kapi.Range(n), perm, _ops.subtract(pos, 1), inverse
    )
    return values, first, inverse, counts


def unique(
    ar,
    return_index=False,
    return_inverse=False,
    return_counts=False,
    axis=None,
    *,
    equal_nan=True,
):
    """The sorted unique values of ``ar`` (flattened); NaNs count as one
    value."""
    if axis is not None:
        values, first, inverse, counts = _unique_rows(ar, axis)
        if not (return_index or return_inverse or return_counts):
            return values
    elif not (return_index or return_inverse or return_counts):
        return _unique_sorted_values(ar)
    else:
        values, first, inverse, counts = _unique_parts(ar)
    r = [values]
    if return_index:
        r.append(first)
    if return_inverse:
        r.append(
            inverse
            if ar.ndim <= 1 or axis is not None
            else _ops.reshape(inverse, ar.shape)
        )
    if return_counts:
        r.append(counts)
    return tuple(r)


def _unique_sorted_values(x):
    """The unique values of x (flattened): a sort, then each block of the
    sorted keys counts and writes its runs' first values (the host reads
    one number, the size of the result)."""
    x = _array(x, "unique")
    if x.dtype.kind == "c":
        return _unique_parts(x)[0]
    s = sort(_flat(x))
    n = s.size
    if n == 0:
        return s
    if cooperative(s):
        # GPUs: flags where a new value starts, then the workgroup mask
        # compaction of _coop_kernels (the blocked kernels below have one
        # work-item per block)
        from ._index_kernels import compact

        flags = _empty(n, _dtypes.uint8, s)
        call_kernel(K.k_flag_new, kapi.Range(n), s, flags)
        return compact(flags, s)
    nb = _blocks(n, s)
    chunk = -(-n // nb)
    space = kapi.NdRange((nb,), (1,))
    cnt = _empty(nb + 1, _dtypes.int64, s)
    call_kernel(K.k_run_count, space, s, n, chunk, cnt)
    call_kernel(K.k_excl_scan, kapi.Range(1), cnt, nb)
    m = int(cnt[nb])
    out = _empty(m, s.dtype, s)
    call_kernel(K.k_run_values, space, s, n, chunk, cnt, out)
    return out


def unique_values(x):
    return _unique_sorted_values(x)


def unique_counts(x):
    v, _, _, c = _unique_parts(x)
    return UniqueCountsResult(v, c)


def unique_inverse(x):
    v, _, inv, _ = _unique_parts(x)
    return UniqueInverseResult(v, _ops.reshape(inv, x.shape))


def unique_all(x):
    v, f, inv, c = _unique_parts(x)
    return UniqueAllResult(v, f, _ops.reshape(inv, x.shape), c)


def _as_array_like(v, like):
    from ._array import Array

    if isinstance(v, Array):
        return v
    from ._creation import asarray

    return asarray(v, sycl_queue=like.sycl_queue, usm_type=like.usm_type)


@J.steps_by_example
def isin(
    element, test_elements, assume_unique=False, invert=False, *, kind=None
):
    """Whether each element is in ``test_elements`` (a sort of the tests
    and a binary search per element). Either may be a Python scalar (the
    Array API's 2025.12 isin): it is compared by value (a 0-d array of
    NumPy's default type), not cast to the other's type."""
    from ._array import Array

    if not isinstance(element, Array) and isinstance(test_elements, Array):
        if not isinstance(element, (bool, int, float, complex, np.generic)):
            raise TypeError(
                f"sluice.isin needs a sluice.Array or a scalar, not "
                f"{type(element).__name__}"
            )
        element = _as_array_like(element, test_elements)
    element = _array(element, "isin")
    test = _as_array_like(test_elements, element)
    dt = _dtypes.to_dtype(np.result_type(element.dtype, test.dtype))
    if dt == _dtypes.bool_:
        dt = _dtypes.uint8
    s = sort(_flat(_ops.astype(test, dt, copy=False)))
    e = _flat(_ops.astype(element, dt, copy=False))
    out = _empty(element.shape, _dtypes.bool_, element)
    if element.size:
        call_kernel(
            K.k_member,
            kapi.Range(e.size),
            s,
            s.size,
            e,
            int(bool(invert)),
            _ops.reshape(out, (e.size,)),
        )
    return out


def _concat1(a, b):
    out = _empty(a.size + b.size, np.result_type(a.dtype, b.dtype), a)
    if a.size:
        out[: a.size] = _flat(a)
    if b.size:
        out[a.size :] = _flat(b)
    return out


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    if return_indices:
        # the first occurrences of the common values in each input: the
        # unique values with their first indices, those of ar1 kept where
        # ar2 has them, found in ar2's by a binary search
        a1 = _array(ar1, "intersect1d")
        a, ia = unique(_flat(a1), return_index=True)
        b, ib = unique(_flat(_as_array_like(ar2, a1)), return_index=True)
        keep = isin(a, b)
        common = _compress(a, keep)
        pos = searchsorted(b, common)
        return common, _compress(ia, keep), _gather(ib, pos)
    a = unique_values(_array(ar1, "intersect1d"))
    b = _as_array_like(ar2, a)
    return _compress(a, isin(a, b))


def union1d(ar1, ar2):
    a = _array(ar1, "union1d")
    return unique_values(_concat1(a, _as_array_like(ar2, a)))


def setdiff1d(ar1, ar2, assume_unique=False):
    a = _array(ar1, "setdiff1d")
    a = _flat(a) if assume_unique else unique_values(a)
    return _compress(a, isin(a, _as_array_like(ar2, a), invert=True))
