"""Sub-groups in kernels (``it.get_sub_group()`` and the group functions
of kernel_api): every function on several dtypes, in full and short
sub-groups, checked against NumPy on every device for the sub-group size
the device reports (32 on CUDA, 1 on the host and SPIR-V devices); the
errors; and the PTX of CUDA kernels (no GPU needed)."""

import numpy as np
import pytest

import sluice
from sluice import kernel_api as kapi
from sluice._kernel_codegen import KernelError

ADD, MIN, MAX = kapi.GroupOp.ADD, kapi.GroupOp.MIN, kapi.GroupOp.MAX
# Rows of the results: what each function gave.
ROWS = [
    "incl_add",
    "excl_add",
    "red_add",
    "red_min",
    "red_max",
    "incl_min",
    "excl_max",
    "xor1",
    "left1",
    "right3",
    "bcast0",
    "bcast_last",
    "select",
]


@sluice.kernel
def sg_ops(it: kapi.NdItem, x, out, info, bal):
    i = it.get_global_id(0)
    sg = it.get_sub_group()
    v = x[i]
    ln = sg.get_local_id()
    sz = sg.get_local_range()
    out[0, i] = kapi.inclusive_scan_over_group(sg, v)
    out[1, i] = kapi.exclusive_scan_over_group(sg, v, ADD)
    out[2, i] = kapi.reduce_over_group(sg, v)
    out[3, i] = kapi.reduce_over_group(sg, v, MIN)
    out[4, i] = kapi.reduce_over_group(sg, v, MAX)
    out[5, i] = kapi.inclusive_scan_over_group(sg, v, MIN)
    out[6, i] = kapi.exclusive_scan_over_group(sg, v, MAX)
    out[7, i] = kapi.permute_group_by_xor(sg, v, 1)
    out[8, i] = kapi.shift_group_left(sg, v)
    out[9, i] = kapi.shift_group_right(sg, v, 3)
    out[10, i] = kapi.group_broadcast(sg, v)
    out[11, i] = kapi.group_broadcast(sg, v, sz - 1)
    out[12, i] = kapi.select_from_group(sg, v, (ln * 7 + 3) % sz)
    info[0, i] = ln
    info[1, i] = sz
    info[2, i] = sg.get_group_id()
    info[3, i] = sg.get_group_range()
    info[4, i] = sg.get_max_local_range()
    info[5, i] = 1 if sg.leader() else 0
    bal[i] = kapi.group_ballot(sg, v > 4)


def _identity(dt, op):
    if op == "add":
        return 0
    if np.dtype(dt).kind == "f":
        return np.inf if op == "min" else -np.inf
    info = np.iinfo(dt)
    return info.max if op == "min" else info.min


def _expected(x, local, m, dt):
    """Each row of ROWS, the sub-groups' layout (lane, size, id, count)
    and the ballots, for sub-groups of at most ``m`` work-items."""
    n = x.size
    exp = {r: np.zeros(n, dt) for r in ROWS}
    known = {r: np.ones(n, bool) for r in ROWS}
    layout = np.zeros((4, n), np.int64)
    bal = np.zeros(n, np.uint32)
    for s, lo_wg in (
        (lo + k, lo) for lo in range(0, n, local) for k in range(0, local, m)
    ):
        e = min(s + m, lo_wg + local)
        seg = x[s:e]
        k = e - s
        idx = np.arange(k)
        exp["incl_add"][s:e] = np.cumsum(seg, dtype=dt)
        exp["excl_add"][s:e] = np.concatenate(
            [[0], np.cumsum(seg, dtype=dt)[:-1]]
        ).astype(dt)
        exp["red_add"][s:e] = np.sum(seg, dtype=dt)
        exp["red_min"][s:e] = seg.min()
        exp["red_max"][s:e] = seg.max()
        exp["incl_min"][s:e] = np.minimum.accumulate(seg)
        em = np.maximum.accumulate(seg)
        exp["excl_max"][s:e] = np.concatenate(
            [[_identity(dt, "max")], em[:-1]]
        ).astype(dt)
        p = idx ^ 1
        exp["xor1"][s:e] = seg[np.minimum(p, k - 1)]
        known["xor1"][s:e] = p < k
        exp["left1"][s:e] = seg[np.minimum(idx + 1, k - 1)]
        known["left1"][s:e] = idx + 1 < k
        exp["right3"][s:e] = seg[np.maximum(idx - 3, 0)]
        known["right3"][s:e] = idx >= 3
        exp["bcast0"][s:e] = seg[0]
        exp["bcast_last"][s:e] = seg[k - 1]
        exp["select"][s:e] = seg[(idx * 7 + 3) % k]
        layout[0, s:e] = idx
        layout[1, s:e] = k
        layout[2, s:e] = (s - lo_wg) // m
        layout[3, s:e] = -(-local // m)
        bits = np.uint32(0)
        for j in range(k):
            if seg[j] > 4:
                bits |= np.uint32(1 << j)
        bal[s:e] = bits
    return exp, known, layout, bal


DTYPES = [np.int32, np.int64, np.uint32, np.int8, np.float32, np.float64]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("glob,local", [(128, 64), (96, 48), (40, 40)])
def test_sub_group_functions(device, dt, glob, local):
    if np.dtype(dt) == np.float64 and not device.has_aspect_fp64:
        pytest.skip("the device has no float64")
    rng = np.random.default_rng(glob + local)
    xh = rng.integers(0, 10, glob).astype(dt)
    x = sluice.asarray(xh, device=device)
    out = sluice.zeros((len(ROWS), glob), dtype=dt, device=device)
    info = sluice.zeros((6, glob), dtype=np.int64, device=device)
    bal = sluice.zeros(glob, dtype=np.uint32, device=device)
    sluice.call_kernel(sg_ops, kapi.NdRange(glob, local), x, out, info, bal)
    info = sluice.asnumpy(info)
    m = int(info[4, 0])
    if device.filter_string.startswith("cuda"):
        assert m == 32
    else:
        assert m == 1
    exp, known, layout, ebal = _expected(xh, local, m, dt)
    np.testing.assert_array_equal(info[:4], layout)
    np.testing.assert_array_equal(info[5], (layout[0] == 0).astype(np.int64))
    np.testing.assert_array_equal(sluice.asnumpy(bal), ebal)
    got = sluice.asnumpy(out)
    for r, row in enumerate(ROWS):
        k = known[row]
        np.testing.assert_array_equal(got[r][k], exp[row][k], err_msg=row)


@sluice.kernel
def sg_float_specials(it: kapi.NdItem, x, out):
    i = it.get_global_id(0)
    sg = it.get_sub_group()
    v = x[i]
    out[0, i] = kapi.reduce_over_group(sg, v, MIN)
    out[1, i] = kapi.reduce_over_group(sg, v, MAX)
    out[2, i] = kapi.exclusive_scan_over_group(sg, v)
    out[3, i] = kapi.group_broadcast(sg, v, 1 % sg.get_local_range())


def test_sub_group_float_specials(device):
    """NaN propagates through min and max (as np.minimum); a -0.0 and the
    NaN payload's bits move through shuffles unchanged; the exclusive
    scan of lane 0 is the identity."""
    xh = np.array(
        [np.nan, 1.0, -0.0, -np.inf] + [2.0] * 28 + [-0.0, 5.0] + [3.0] * 30,
        dtype=np.float32,
    )
    x = sluice.asarray(xh, device=device)
    out = sluice.zeros((4, 64), dtype=np.float32, device=device)
    sluice.call_kernel(sg_float_specials, kapi.NdRange(64, 64), x, out)
    got = sluice.asnumpy(out)
    if device.filter_string.startswith("cuda"):
        assert np.isnan(got[0, :32]).all() and np.isnan(got[1, :32]).all()
        assert (got[0, 32:] == -0.0).all() and (got[1, 32:] == 5.0).all()
        assert np.signbit(got[0, 32:]).all()
        assert got[2, 0] == 0.0 and got[2, 32] == 0.0
        assert got[3, 32] == 5.0 and np.signbit(got[3, 2]) is np.False_
    else:
        np.testing.assert_array_equal(got[0], xh)
        np.testing.assert_array_equal(np.signbit(got[3]), np.signbit(xh))
        np.testing.assert_array_equal(got[2], np.zeros(64, np.float32))


@sluice.kernel
def sg_on_workgroup(it: kapi.NdItem, x):
    x[0] = kapi.reduce_over_group(it.get_group(), x[0])


@sluice.kernel
def sg_dynamic_op(it: kapi.NdItem, x, k):
    sg = it.get_sub_group()
    x[0] = kapi.reduce_over_group(sg, x[0], k)


@sluice.kernel
def sg_in_range_kernel(it: kapi.Item, x):
    sg = it.get_sub_group()
    x[0] = kapi.group_broadcast(sg, x[0])


def test_sub_group_errors(host):
    x = sluice.zeros(4, dtype=np.float32, device=host)
    nd = kapi.NdRange(4, 4)
    with pytest.raises(KernelError, match="take a SubGroup"):
        sluice.call_kernel(sg_on_workgroup, nd, x)
    with pytest.raises(KernelError, match="kapi.GroupOp"):
        sluice.call_kernel(sg_dynamic_op, nd, x, 1)
    with pytest.raises(KernelError, match="no method 'get_sub_group'"):
        sluice.call_kernel(sg_in_range_kernel, kapi.Range(4), x)
    with pytest.raises(RuntimeError, match="inside a @sluice.kernel"):
        kapi.group_ballot(None, True)


# --- PTX (compiled here for cuda:gpu:0, no GPU needed) ----------------------


def test_ptx_warp_instructions(cuda_ptx):
    """CUDA sub-groups are warps: shuffles are shfl.sync of each kind, the
    ballot vote.sync.ballot, with no workgroup memory or barrier."""
    x = sluice.ones(64, dtype=np.float64)
    out = sluice.zeros((len(ROWS), 64), dtype=np.float64)
    info = sluice.zeros((6, 64), dtype=np.int64)
    bal = sluice.zeros(64, dtype=np.uint32)
    ptx = cuda_ptx(sg_ops, kapi.NdRange(64, 32), x, out, info, bal)
    ops = {ln.split()[0] for ln in ptx.splitlines() if ln.strip()}
    for kind in ("up", "down", "bfly", "idx"):
        assert f"shfl.sync.{kind}.b32" in ops
    assert "vote.sync.ballot.b32" in ops
    assert "bar.sync" not in ops and ".shared" not in ptx


@sluice.kernel
def unrolled(it: kapi.Item, x, out):
    i = it.get_id(0)
    p = kapi.PrivateArray(4, np.int64)
    for j in kapi.static_range(4):
        p[j] = x[i] * (j + 1)
    s = 0
    for j in kapi.static_range(3, -1, -1):
        s = s * 10 + p[j] % 10
    out[i] = s + np.int64(np.bitwise_count(x[i])) * 10000


@sluice.kernel
def static_range_with_break(it: kapi.Item, x):
    for j in kapi.static_range(4):
        if x[j] > 0:
            break
        x[j] = 1


def test_static_range_and_bitwise_count(device):
    xh = np.array([0, 1, 7, -3, 2**40 + 5], np.int64)
    x = sluice.asarray(xh, device=device)
    out = sluice.zeros(5, dtype=np.int64, device=device)
    sluice.call_kernel(unrolled, kapi.Range(5), x, out)
    p = xh[:, None] * np.arange(1, 5)
    exp = sum((p[:, j] % 10) * 10**j for j in range(4))
    exp = exp + np.bitwise_count(xh).astype(np.int64) * 10000
    np.testing.assert_array_equal(sluice.asnumpy(out), exp)
    with pytest.raises(KernelError, match="static_range loop has no break"):
        sluice.call_kernel(static_range_with_break, kapi.Range(1), x)
    assert list(kapi.static_range(1, 7, 2)) == [1, 3, 5]
