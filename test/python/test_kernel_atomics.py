"""kapi.AtomicRef and kapi.atomic_fence in kernels: every operation on
every 32/64-bit dtype, in global and workgroup-local memory, with memory
orders and scopes, checked against NumPy on every device; and the PTX that
CUDA kernels compile to (no GPU needed)."""

import os
import re
import runpy

import numpy as np
import pytest

import sluice
from sluice import kernel_api as kapi

EXAMPLES = os.path.join(
    os.path.dirname(__file__), "..", "..", "examples", "python", "kernels"
)
INTS = [np.int32, np.int64, np.uint32, np.uint64]
FLOATS = [np.float32, np.float64]
N = 256  # work-items: one workgroup


def _backend(device):
    return device.filter_string.split(":")[0]


def _is_spirv(device):
    return _backend(device) in ("opencl", "level_zero")


def _needs_fp64(device, dt):
    if np.dtype(dt) == np.float64 and not device.has_aspect_fp64:
        pytest.skip("the device has no float64")


# Slots of the operations (the same in every kernel below).
ADD, SUB, MIN, MAX, XCHG, CAS, STORE, AND, OR, XOR = range(10)


@sluice.kernel
def int_ops(item: kapi.NdItem, g, olds, loads):
    i = item.get_global_id(0)
    v = i + 1
    kapi.AtomicRef(g, ADD).fetch_add(v)
    kapi.AtomicRef(g, SUB).fetch_sub(v)
    kapi.AtomicRef(g, MIN).fetch_min(v + 3)
    kapi.AtomicRef(g, MAX).fetch_max(v)
    olds[i] = kapi.AtomicRef(g, XCHG).exchange(v)
    # An increment by compare-and-swap (the failure path reloads).
    e = kapi.PrivateArray(1, g.dtype)
    e[0] = kapi.AtomicRef(g, CAS).load()
    while not kapi.AtomicRef(g, CAS).compare_exchange(e, e[0] + 2):
        pass
    if i == 7:
        kapi.AtomicRef(g, STORE).store(v * 5)
    kapi.AtomicRef(g, AND).fetch_and(~(1 << (i % 16)))
    kapi.AtomicRef(g, OR).fetch_or(1 << (i % 16))
    kapi.AtomicRef(g, XOR).fetch_xor(v)
    loads[i] = kapi.AtomicRef(g, 10).load()


@sluice.kernel
def int_ops_local(item: kapi.NdItem, g, olds, loads, t):
    i = item.get_global_id(0)
    grp = item.get_group()
    if i == 0:
        for k in range(11):
            t[k] = g[k]
    kapi.group_barrier(grp)
    v = i + 1
    sp = kapi.AddressSpace.LOCAL
    kapi.AtomicRef(t, ADD, address_space=sp).fetch_add(v)
    kapi.AtomicRef(t, SUB, address_space=sp).fetch_sub(v)
    kapi.AtomicRef(t, MIN, address_space=sp).fetch_min(v + 3)
    kapi.AtomicRef(t, MAX, address_space=sp).fetch_max(v)
    olds[i] = kapi.AtomicRef(t, XCHG, address_space=sp).exchange(v)
    e = kapi.PrivateArray(1, t.dtype)
    e[0] = kapi.AtomicRef(t, CAS, address_space=sp).load()
    while not kapi.AtomicRef(t, CAS, address_space=sp).compare_exchange(
        e, e[0] + 2
    ):
        pass
    if i == 7:
        kapi.AtomicRef(t, STORE, address_space=sp).store(v * 5)
    kapi.AtomicRef(t, AND, address_space=sp).fetch_and(~(1 << (i % 16)))
    kapi.AtomicRef(t, OR, address_space=sp).fetch_or(1 << (i % 16))
    kapi.AtomicRef(t, XOR, address_space=sp).fetch_xor(v)
    loads[i] = kapi.AtomicRef(t, 10, address_space=sp).load()
    kapi.group_barrier(grp)
    if i == 0:
        for k in range(11):
            g[k] = t[k]


@sluice.kernel
def float_ops(item: kapi.NdItem, g, olds, loads):
    i = item.get_global_id(0)
    v = (i + 1) * 0.5
    kapi.AtomicRef(g, ADD).fetch_add(v)
    kapi.AtomicRef(g, SUB).fetch_sub(v)
    kapi.AtomicRef(g, MIN).fetch_min(v + 3)
    kapi.AtomicRef(g, MAX).fetch_max(v)
    olds[i] = kapi.AtomicRef(g, XCHG).exchange(v)
    e = kapi.PrivateArray(1, g.dtype)
    e[0] = kapi.AtomicRef(g, CAS).load()
    while not kapi.AtomicRef(g, CAS).compare_exchange(e, e[0] + 2):
        pass
    if i == 7:
        kapi.AtomicRef(g, STORE).store(v * 5)
    loads[i] = kapi.AtomicRef(g, 10).load()


@sluice.kernel
def float_ops_local(item: kapi.NdItem, g, olds, loads, t):
    i = item.get_global_id(0)
    grp = item.get_group()
    if i == 0:
        for k in range(11):
            t[k] = g[k]
    kapi.group_barrier(grp)
    v = (i + 1) * 0.5
    sp = kapi.AddressSpace.LOCAL
    kapi.AtomicRef(t, ADD, address_space=sp).fetch_add(v)
    kapi.AtomicRef(t, SUB, address_space=sp).fetch_sub(v)
    kapi.AtomicRef(t, MIN, address_space=sp).fetch_min(v + 3)
    kapi.AtomicRef(t, MAX, address_space=sp).fetch_max(v)
    olds[i] = kapi.AtomicRef(t, XCHG, address_space=sp).exchange(v)
    e = kapi.PrivateArray(1, t.dtype)
    e[0] = kapi.AtomicRef(t, CAS, address_space=sp).load()
    while not kapi.AtomicRef(t, CAS, address_space=sp).compare_exchange(
        e, e[0] + 2
    ):
        pass
    if i == 7:
        kapi.AtomicRef(t, STORE, address_space=sp).store(v * 5)
    loads[i] = kapi.AtomicRef(t, 10, address_space=sp).load()
    kapi.group_barrier(grp)
    if i == 0:
        for k in range(11):
            g[k] = t[k]


def _initial(dt):
    init = np.zeros(11, dt)
    init[ADD], init[SUB], init[MIN], init[MAX] = 100, 10**4, 50, 3
    init[XCHG], init[CAS], init[STORE], init[10] = 9, 1, 0, 42
    if np.dtype(dt).kind != "f":
        init[AND] = 0x7FFFF
        init[OR] = 0x70000
        init[XOR] = 0x1234
    return init


def _expected(dt):
    """The final values, computed with NumPy in the array's dtype."""
    dt = np.dtype(dt)
    init = _initial(dt)
    f = dt.kind == "f"
    v = (np.arange(N) + 1).astype(dt)
    if f:
        v = v * dt.type(0.5)
    exp = init.copy()
    exp[ADD] = init[ADD] + v.sum(dtype=dt)
    with np.errstate(over="ignore"):  # unsigned subtraction wraps
        exp[SUB] = init[SUB] - v.sum(dtype=dt)
    exp[MIN] = min(init[MIN], (v + dt.type(3)).min())
    exp[MAX] = max(init[MAX], v.max())
    exp[CAS] = init[CAS] + dt.type(2 * N)
    exp[STORE] = v[7] * dt.type(5)
    if not f:
        exp[AND] = init[AND] & ~dt.type(0xFFFF)
        exp[OR] = init[OR] | dt.type(0xFFFF)
        exp[XOR] = np.bitwise_xor.reduce(np.concatenate([[init[XOR]], v]))
    return init, exp, v


def _launch(device, kernel, dt, local):
    init, exp, v = _expected(dt)
    g = sluice.asarray(init, device=device)
    olds = sluice.zeros(N, dtype=dt, device=device)
    loads = sluice.zeros(N, dtype=dt, device=device)
    args = [g, olds, loads]
    if local:
        args.append(kapi.LocalAccessor(11, dt))
    sluice.call_kernel(kernel, kapi.NdRange((N,), (N,)), *args)
    got = sluice.asnumpy(g)
    # exchange: the values returned and the one left are the initial
    # value and every work-item's, each once.
    seen = np.sort(np.concatenate([sluice.asnumpy(olds), [got[XCHG]]]))
    np.testing.assert_array_equal(
        seen, np.sort(np.concatenate([[init[XCHG]], v]))
    )
    got[XCHG] = exp[XCHG]
    np.testing.assert_array_equal(got, exp)
    assert (sluice.asnumpy(loads) == init[10]).all()


def _run(device, kernel, dt, local):
    """Launches and checks; SPIR-V kernels lack some of the operations
    (float compare-and-swap, most of them in local memory): those raise a
    clear KernelError (checked), after which the case is skipped."""
    if not _is_spirv(device):
        return _launch(device, kernel, dt, local)
    try:
        _launch(device, kernel, dt, local)
    except sluice.KernelError as e:
        assert re.search("not supported|host backend only", str(e)), e
        pytest.skip(f"{kernel.__name__} on {np.dtype(dt)}: {e}")


@pytest.mark.parametrize("local", [False, True], ids=["global", "local"])
@pytest.mark.parametrize("dt", INTS, ids=lambda d: np.dtype(d).name)
def test_integer_atomics(device, dt, local):
    _run(device, int_ops_local if local else int_ops, dt, local)


@pytest.mark.parametrize("local", [False, True], ids=["global", "local"])
@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
def test_float_atomics(device, dt, local):
    _needs_fp64(device, dt)
    _run(device, float_ops_local if local else float_ops, dt, local)


# --- memory orders, scopes and fences ----------------------------------------


MO, MS = kapi.MemoryOrder, kapi.MemoryScope


@sluice.kernel
def message_passing(item: kapi.NdItem, data, flag, out):
    """Work-item 0 of each group publishes a value and then a flag (release);
    the others wait for the flag (acquire) and read the value."""
    lid = item.get_local_id(0)
    g = item.get_group().get_group_id(0)
    if lid == 0:
        data[g] = g * 10 + 1
        kapi.atomic_fence(MO.RELEASE, MS.DEVICE)
        kapi.AtomicRef(
            flag, g, memory_order=MO.RELEASE, memory_scope=MS.DEVICE
        ).store(1)
    f = kapi.AtomicRef(
        flag, g, memory_order=MO.ACQUIRE, memory_scope=MS.WORK_GROUP
    ).load()
    while f == 0:
        f = kapi.AtomicRef(
            flag, g, memory_order=MO.ACQUIRE, memory_scope=MS.DEVICE
        ).load()
    kapi.atomic_fence(MO.ACQUIRE, MS.DEVICE)
    out[item.get_global_id(0)] = data[g]
    kapi.AtomicRef(
        flag, g, memory_order=MO.SEQ_CST, memory_scope=MS.SYSTEM
    ).fetch_add(1)
    kapi.AtomicRef(
        flag, g, memory_order=MO.ACQ_REL, memory_scope=MS.WORK_GROUP
    ).fetch_add(1)
    kapi.group_barrier(item.get_group(), kapi.MemoryScope.DEVICE)
    kapi.atomic_fence(MO.RELAXED, MS.WORK_ITEM)


def test_orders_scopes_and_fences(device):
    if _is_spirv(device):
        pytest.skip("atomic_fence is not supported on SPIR-V kernels yet")
    G, L = 4, 32
    data = sluice.zeros(G, dtype=np.int32, device=device)
    flag = sluice.zeros(G, dtype=np.int32, device=device)
    out = sluice.zeros(G * L, dtype=np.int32, device=device)
    sluice.call_kernel(
        message_passing, kapi.NdRange((G * L,), (L,)), data, flag, out
    )
    np.testing.assert_array_equal(
        sluice.asnumpy(out), np.repeat(np.arange(G) * 10 + 1, L)
    )
    np.testing.assert_array_equal(sluice.asnumpy(flag), np.full(G, 1 + 2 * L))


# --- PTX (compiled here for cuda:gpu:0, no GPU needed) ----------------------


@pytest.fixture
def ptx(cuda_ptx):
    """The kernel's PTX for cuda:gpu:0 (conftest.py's cuda_ptx)."""
    return cuda_ptx


def _ops(ptx):
    """The PTX's instruction mnemonics with their qualifiers."""
    return [ln.split()[0].rstrip(";") for ln in ptx.splitlines() if ln.strip()]


def test_ptx_histogram_examples(ptx):
    m = runpy.run_path(os.path.join(EXAMPLES, "histogram.py"))
    data = sluice.ones(100, dtype=np.float32)
    counts = sluice.zeros(64, dtype=np.int32)
    ops = _ops(ptx(m["histogram"], kapi.Range(100), data, 64, counts))
    assert "atom.global.add.u32" in ops  # relaxed, device scope: PTX's default
    ops = _ops(
        ptx(
            m["histogram_local"],
            kapi.NdRange((256,), (128,)),
            data,
            64,
            counts,
            kapi.LocalAccessor((64,), np.int32),
        )
    )
    assert "atom.shared.add.u32" in ops
    assert "atom.global.add.u32" in ops
    assert "bar.sync" in ops


def test_ptx_reduction_example(ptx):
    m = runpy.run_path(os.path.join(EXAMPLES, "reduction.py"))
    a = sluice.ones(128, dtype=np.int64)
    ops = _ops(
        ptx(
            m["group_sum"],
            kapi.NdRange((128,), (64,)),
            a,
            a,
            a,
            kapi.LocalAccessor((64,), np.int64),
        )
    )
    assert "atom.global.add.u64" in ops
    assert "bar.sync" in ops


@pytest.mark.parametrize("dt", INTS + FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("local", [False, True], ids=["global", "local"])
def test_ptx_every_operation(ptx, dt, local):
    f = np.dtype(dt).kind == "f"
    kernel = {
        (False, False): int_ops,
        (False, True): int_ops_local,
        (True, False): float_ops,
        (True, True): float_ops_local,
    }[f, local]
    g = sluice.zeros(11, dtype=dt)
    args = [g, g, g] + ([kapi.LocalAccessor(11, dt)] if local else [])
    ops = _ops(ptx(kernel, kapi.NdRange((N,), (N,)), *args))
    space = "shared" if local else "global"
    bits = np.dtype(dt).itemsize * 8
    sign = "s" if np.dtype(dt).kind == "i" else "u"
    want = [
        f"atom.{space}.exch.b{bits}",
        f"atom.relaxed.gpu.{space}.cas.b{bits}",
        f"ld.relaxed.gpu.{space}.b{bits}",
        f"st.relaxed.gpu.{space}.b{bits}",
    ]
    if f:
        # add is PTX's; sub, min and max are compare-and-swap loops.
        want.append(f"atom.{space}.add.f{bits}")
    else:
        want += [
            f"atom.{space}.add.u{bits}",
            f"atom.{space}.min.{sign}{bits}",
            f"atom.{space}.max.{sign}{bits}",
            f"atom.{space}.and.b{bits}",
            f"atom.{space}.or.b{bits}",
            f"atom.{space}.xor.b{bits}",
        ]
    for w in want:
        assert w in ops, (w, sorted(set(o for o in ops if "atom" in o)))
    assert "malloc" not in ops


def test_ptx_orders_scopes_and_fences(ptx):
    a = sluice.zeros(128, dtype=np.int32)
    text = ptx(message_passing, kapi.NdRange((128,), (32,)), a, a, a)
    ops = _ops(text)
    for w in [
        "st.release.gpu.global.b32",  # store, RELEASE, DEVICE
        "ld.acquire.cta.global.b32",  # load, ACQUIRE, WORK_GROUP
        "ld.acquire.gpu.global.b32",  # load, ACQUIRE, DEVICE
        "fence.acq_rel.gpu",  # atomic_fence(RELEASE/ACQUIRE, DEVICE)
        "bar.sync",
    ]:
        assert w in ops, (w, ops)
    flat = " ".join(ops)
    # fetch_add SEQ_CST at SYSTEM scope: a compare-and-swap loop at system
    # scope after a sequentially consistent fence.
    assert "fence.sc.sys atom.acquire.sys.global.cas.b32" in flat
    # fetch_add ACQ_REL at WORK_GROUP scope: atom between fences.
    assert "fence.acq_rel.cta atom.global.add.u32 fence.acq_rel.cta" in flat
    # group_barrier(group, DEVICE): fences at device scope around bar.sync.
    assert (
        "fence.acq_rel.gpu bar.sync 0; fence.acq_rel.gpu"
        in " ".join(ln.strip() for ln in text.splitlines())
        or "fence.acq_rel.gpu bar.sync fence.acq_rel.gpu" in flat
    )
