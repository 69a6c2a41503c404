"""Kernels written in Python (@sluice.kernel, sluice.kernel_api), checked
against NumPy on every device."""

import math
import os
import runpy

import numpy as np
import pytest

import sluice
from sluice import kernel_api as kapi

EXAMPLES = os.path.join(
    os.path.dirname(__file__), "..", "..", "examples", "python", "kernels"
)


def _is_spirv(device):
    return device.filter_string.split(":")[0] in ("opencl", "level_zero")


# --- examples ----------------------------------------------------------------

EXAMPLE_NAMES = sorted(
    f[:-3] for f in os.listdir(EXAMPLES) if f.endswith(".py")
)
SPIRV_UNSUPPORTED = set()


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_example(device, name, capsys):
    if _is_spirv(device) and name in SPIRV_UNSUPPORTED:
        pytest.skip("global atomics are not supported on SPIR-V yet")
    m = runpy.run_path(os.path.join(EXAMPLES, name + ".py"))
    m["main"](device.filter_string)
    assert "OK" in capsys.readouterr().out


def test_examples_are_tested():
    assert {
        "vecadd",
        "black_scholes",
        "pairwise_distance",
        "histogram",
        "reduction",
        "matmul_tiled",
        "kmeans_assign",
    } <= set(EXAMPLE_NAMES)


# --- range kernels -----------------------------------------------------------


@sluice.kernel
def ids_3d(item: kapi.Item, out, lin):
    i = item.get_id(0)
    j = item.get_id(1)
    k = item.get_id(2)
    out[i, j, k] = i * 100 + j * 10 + k + item.get_range(0) * 1000
    lin[i, j, k] = item.get_linear_id()


@sluice.kernel
def ids_2d(item: kapi.Item, out):
    i, j = item.get_id(0), item.get_id(1)
    out[i, j] = i * item.get_range(1) + j - item.get_linear_id()


def test_range_ids(device):
    out = sluice.zeros((3, 4, 5), dtype=np.int64, device=device)
    lin = sluice.zeros((3, 4, 5), dtype=np.int64, device=device)
    sluice.call_kernel(ids_3d, kapi.Range(3, 4, 5), out, lin)
    i, j, k = np.indices((3, 4, 5))
    np.testing.assert_array_equal(
        sluice.asnumpy(out), i * 100 + j * 10 + k + 3000
    )
    np.testing.assert_array_equal(
        sluice.asnumpy(lin), np.arange(60).reshape(3, 4, 5)
    )
    o2 = sluice.ones((7, 9), dtype=np.int64, device=device)
    sluice.call_kernel(ids_2d, kapi.Range(7, 9), o2)
    assert not sluice.asnumpy(o2).any()


@sluice.kernel
def negative_index(item: kapi.Item, a, out):
    i = item.get_id(0)
    n = a.shape[0]
    out[i] = a[-1 - i] + a[i - n]  # a[n-1-i] + a[i]


def test_negative_indices(device):
    a_np = np.arange(10, dtype=np.float32)
    a = sluice.asarray(a_np, device=device)
    out = sluice.empty_like(a)
    sluice.call_kernel(negative_index, kapi.Range(10), a, out)
    np.testing.assert_array_equal(sluice.asnumpy(out), a_np[::-1] + a_np)


@sluice.kernel
def typing(item: kapi.Item, i32, f32, o_i32, o_f32, o_div, o_floordiv, o_mod):
    i = item.get_id(0)
    o_i32[i] = i32[i] * 3 + 1  # stays int32 (Python ints are weak)
    o_f32[i] = f32[i] * 2.5  # stays float32
    o_div[i] = i32[i] / 4  # true division: float64
    o_floordiv[i] = (i32[i] - 5) // 3  # floors like Python
    o_mod[i] = (i32[i] - 5) % 3


def test_numpy_typing(device):
    n = 12
    i32 = sluice.asarray(np.arange(n, dtype=np.int32), device=device)
    f32 = sluice.asarray(np.linspace(0, 1, n, dtype=np.float32), device=device)
    outs = [
        sluice.zeros(n, dtype=dt, device=device)
        for dt in (np.int32, np.float32, np.float64, np.int64, np.int64)
    ]
    if not sluice.Device(device.filter_string).has_aspect_fp64:
        outs[2] = sluice.zeros(n, dtype=np.float32, device=device)
        pytest.skip("the device has no float64")
    sluice.call_kernel(typing, kapi.Range(n), i32, f32, *outs)
    x = np.arange(n, dtype=np.int32)
    np.testing.assert_array_equal(sluice.asnumpy(outs[0]), x * 3 + 1)
    np.testing.assert_array_equal(
        sluice.asnumpy(outs[1]),
        np.linspace(0, 1, n, dtype=np.float32) * np.float32(2.5),
    )
    np.testing.assert_array_equal(sluice.asnumpy(outs[2]), x / 4)
    np.testing.assert_array_equal(sluice.asnumpy(outs[3]), (x - 5) // 3)
    np.testing.assert_array_equal(sluice.asnumpy(outs[4]), (x - 5) % 3)
    lowered = typing.lower(kapi.Range(n), i32, f32, *outs).as_text()
    assert "arith.muli" in lowered and "arith.divf" in lowered


@sluice.kernel
def control_flow(item: kapi.Item, out, n):
    i = item.get_id(0)
    s = 0
    for k in range(i, 0, -2):  # negative step
        s += k
    j = i
    steps = 0
    while j > 1:  # Collatz steps
        if j % 2 == 0:
            j = j // 2
        else:
            j = 3 * j + 1
        steps += 1
    if i >= n:
        return
    out[i, 0] = s
    out[i, 1] = steps
    out[i, 2] = 1 if i < 3 and i != 1 else -1
    out[i, 3] = min(i, 5) + max(i, 2, 3) + abs(2 - i)


def _collatz(x):
    steps = 0
    while x > 1:
        x = x // 2 if x % 2 == 0 else 3 * x + 1
        steps += 1
    return steps


def test_control_flow(device):
    n = 20
    out = sluice.zeros((n + 5, 4), dtype=np.int64, device=device)
    sluice.call_kernel(control_flow, kapi.Range(n + 5), out, n)
    got = sluice.asnumpy(out)
    for i in range(n + 5):
        exp = (
            [
                sum(range(i, 0, -2)),
                _collatz(i),
                1 if i < 3 and i != 1 else -1,
                min(i, 5) + max(i, 2, 3) + abs(2 - i),
            ]
            if i < n
            else [0] * 4
        )
        assert list(got[i]) == exp, i


@sluice.device_func
def poly(x, a=2.0):
    if x < 0.0:
        return -x * a
    return x * x + a


@sluice.kernel
def math_funcs(item: kapi.Item, x, out):
    i = item.get_id(0)
    v = x[i]
    out[i, 0] = math.sqrt(v) + math.exp(-v) + math.log(v + 1.0)
    out[i, 1] = math.sin(v) * math.cos(v) + math.tanh(v)
    out[i, 2] = math.floor(v * 3.0) + math.pow(v, 1.5)
    out[i, 3] = poly(v - 0.5) + poly(v, 3.0)
    out[i, 4] = np.float32(v) * 2 if v > 0.5 else np.maximum(v, 0.25)


@sluice.kernel
def hypot_kernel(item: kapi.Item, x, y, out):
    i = item.get_id(0)
    out[i] = math.hypot(x[i], y[i])


def test_math_hypot_does_not_overflow_or_underflow(device):
    """math.hypot in a kernel is NumPy's: no overflow or underflow of the
    squares (1e30 and 1e-30 in float32), 0 for zeros, NaN for a NaN."""
    x_np = np.array([3e30, 1e-30, 0.0, 3.0, np.nan, -5e-25], np.float32)
    y_np = np.array([4e30, 1e-30, 0.0, -4.0, 1.0, 1e-30], np.float32)
    x = sluice.asarray(x_np, device=device)
    y = sluice.asarray(y_np, device=device)
    out = sluice.zeros(6, dtype=np.float32, device=device)
    sluice.call_kernel(hypot_kernel, kapi.Range(6), x, y, out)
    np.testing.assert_allclose(
        sluice.asnumpy(out), np.hypot(x_np, y_np), rtol=1e-6
    )


def test_math_and_device_functions(device):
    dt = (
        np.float64
        if sluice.Device(device.filter_string).has_aspect_fp64
        else np.float32
    )
    x_np = np.linspace(0.01, 1.0, 37).astype(dt)
    x = sluice.asarray(x_np, device=device)
    out = sluice.zeros((37, 5), dtype=dt, device=device)
    sluice.call_kernel(math_funcs, kapi.Range(37), x, out)

    def p(v, a=2.0):
        return -v * a if v < 0 else v * v + a

    ref = np.array(
        [
            [
                math.sqrt(v) + math.exp(-v) + math.log(v + 1),
                math.sin(v) * math.cos(v) + math.tanh(v),
                math.floor(v * 3) + v**1.5,
                p(v - 0.5) + p(v, 3.0),
                v * 2 if v > 0.5 else max(v, 0.25),
            ]
            for v in x_np.astype(np.float64)
        ]
    )
    np.testing.assert_allclose(
        sluice.asnumpy(out),
        ref,
        rtol=1e-12 if dt == np.float64 else 2e-6,
        atol=1e-6,
    )


def test_asynchronous_and_ordered(device):
    # The kernel is queued; eager work after it on the queue sees its
    # results.
    n = 1000
    a = sluice.ones(n, dtype=np.float32, device=device)
    c = sluice.zeros(n, dtype=np.float32, device=device)
    m = runpy.run_path(os.path.join(EXAMPLES, "vecadd.py"))
    for _ in range(3):
        m["vecadd"].__call__  # noqa: B018 (a KernelFunction)
        sluice.call_kernel(m["vecadd"], kapi.Range(n), a, c, c)
    total = (c * 2).sum()
    assert float(sluice.asnumpy(total)) == 6 * n
    ev = sluice.call_kernel_async(m["vecadd"], kapi.Range(n), [], a, c, c)
    ev2 = sluice.call_kernel_async(m["vecadd"], kapi.Range(n), [ev], a, c, c)
    ev2.wait()
    assert float(sluice.asnumpy(c)[0]) == 5


def test_compiled_once_per_signature(device):
    m = runpy.run_path(os.path.join(EXAMPLES, "vecadd.py"))
    k = m["vecadd"]
    for n in (10, 100, 1000):  # sizes are run-time values
        a = sluice.ones(n, dtype=np.float32, device=device)
        c = sluice.empty_like(a)
        sluice.call_kernel(k, kapi.Range(n), a, a, c)
        assert float(sluice.asnumpy(c.sum())) == 2 * n
    assert k.compile_count == 1
    a = sluice.ones(
        5,
        dtype=np.float64
        if sluice.Device(device.filter_string).has_aspect_fp64
        else np.float16,
        device=device,
    )
    k.compile(kapi.Range(5), a, a, a)  # ahead of the first launch
    assert k.compile_count == 2
    sluice.call_kernel(k, kapi.Range(5), a, a, a)
    assert k.compile_count == 2
    a = sluice.ones(5, dtype=np.int32, device=device)
    sluice.call_kernel(k, kapi.Range(5), a, a, a)
    assert k.compile_count == 3


def test_launch_cache_keeps_every_check(device):
    """Launches of a seen signature skip the full signature (the launch
    cache) but not its checks: a strided view, a scalar of another type, a
    range given as an int and a second queue behave as on a first launch."""
    m = runpy.run_path(os.path.join(EXAMPLES, "vecadd.py"))
    k = m["vecadd"]
    a = sluice.ones(8, dtype=np.float32, device=device)
    c = sluice.empty_like(a)
    for _ in range(3):
        sluice.call_kernel(k, kapi.Range(8), a, a, c)
    assert k.compile_count == 1
    sluice.call_kernel(k, 8, a, a, c)  # a plain int range: the same kernel
    sluice.call_kernel(k, (8,), a, a, c)
    assert k.compile_count == 1
    np.testing.assert_array_equal(sluice.asnumpy(c), np.full(8, 2, np.float32))
    big = sluice.ones(16, dtype=np.float32, device=device)
    with pytest.raises(ValueError, match="C-contiguous"):
        sluice.call_kernel(k, kapi.Range(8), big[::2], a, c)
    with pytest.raises(TypeError, match="argument"):
        sluice.call_kernel(k, kapi.Range(8), a, "x", c)
    with pytest.raises(TypeError, match="takes 3 argument"):
        sluice.call_kernel(k, kapi.Range(8), a, a)
    if device.filter_string != "host:cpu:0":
        b = sluice.ones(8, dtype=np.float32, device="host")
        with pytest.raises(sluice.ExecutionPlacementError):
            sluice.call_kernel(k, kapi.Range(8), a, b, c)
    assert k.compile_count == 1


# --- nd-range kernels --------------------------------------------------------


@sluice.kernel
def nd_ids(item: kapi.NdItem, out):
    i = item.get_global_id(0)
    j = item.get_global_id(1)
    g = item.get_group()
    out[i, j, 0] = item.get_local_id(0) * 10 + item.get_local_id(1)
    out[i, j, 1] = g.get_group_id(0) * 10 + g.get_group_id(1)
    out[i, j, 2] = item.get_global_linear_id()
    out[i, j, 3] = item.get_local_linear_id()
    out[i, j, 4] = g.get_group_linear_id()
    out[i, j, 5] = (
        g.get_group_range(0) * 1000
        + g.get_group_range(1) * 100
        + item.get_local_range(0) * 10
        + item.get_local_range(1)
    )
    out[i, j, 6] = 1 if g.leader() else 0


def test_nd_range_ids(device):
    gs, ls = (6, 8), (2, 4)
    out = sluice.zeros(gs + (7,), dtype=np.int64, device=device)
    sluice.call_kernel(nd_ids, kapi.NdRange(gs, ls), out)
    got = sluice.asnumpy(out)
    i, j = np.indices(gs)
    li, lj = i % 2, j % 4
    gi, gj = i // 2, j // 4
    np.testing.assert_array_equal(got[..., 0], li * 10 + lj)
    np.testing.assert_array_equal(got[..., 1], gi * 10 + gj)
    np.testing.assert_array_equal(got[..., 2], i * 8 + j)
    np.testing.assert_array_equal(got[..., 3], li * 4 + lj)
    np.testing.assert_array_equal(got[..., 4], gi * 2 + gj)
    assert (got[..., 5] == 3 * 1000 + 2 * 100 + 2 * 10 + 4).all()
    np.testing.assert_array_equal(got[..., 6], (li == 0) & (lj == 0))


@sluice.kernel
def reverse_in_group(item: kapi.NdItem, a, out, tmp):
    lid = item.get_local_id(0)
    n = item.get_local_range(0)
    gid = item.get_global_id(0)
    p = kapi.PrivateArray(2, np.float32)
    p[0] = a[gid]
    tmp[lid] = p[0]
    kapi.group_barrier(item.get_group())
    p[1] = tmp[n - 1 - lid]
    out[gid] = p[1] + p[0] * 0.0


def test_barrier_local_and_private_memory(device):
    n, L = 96, 16
    a_np = np.arange(n, dtype=np.float32)
    a = sluice.asarray(a_np, device=device)
    out = sluice.zeros(n, dtype=np.float32, device=device)
    sluice.call_kernel(
        reverse_in_group,
        kapi.NdRange((n,), (L,)),
        a,
        out,
        kapi.LocalAccessor(L, np.float32),
    )
    np.testing.assert_array_equal(
        sluice.asnumpy(out), a_np.reshape(-1, L)[:, ::-1].reshape(-1)
    )


@sluice.kernel
def local_atomics(item: kapi.NdItem, out, counter):
    lid = item.get_local_id(0)
    if lid == 0:
        counter[0] = 0
        counter[1] = 0
    kapi.group_barrier(item.get_group())
    r = kapi.AtomicRef(counter, 0, address_space=kapi.AddressSpace.LOCAL)
    r.fetch_add(lid + 1)
    kapi.AtomicRef(counter, 1).fetch_max(lid)
    kapi.group_barrier(item.get_group())
    if lid == 0:
        g = item.get_group().get_group_id(0)
        out[g, 0] = counter[0]
        out[g, 1] = counter[1]


def test_atomics_on_local_memory(device):
    G, L = 4, 32
    out = sluice.zeros((G, 2), dtype=np.int32, device=device)
    sluice.call_kernel(
        local_atomics,
        kapi.NdRange((G * L,), (L,)),
        out,
        kapi.LocalAccessor(2, np.int32),
    )
    got = sluice.asnumpy(out)
    assert (got[:, 0] == L * (L + 1) // 2).all()
    assert (got[:, 1] == L - 1).all()


@sluice.kernel
def global_atomics(item: kapi.Item, ints, floats, flags):
    i = item.get_id(0)
    kapi.AtomicRef(ints, 0).fetch_add(1)
    kapi.AtomicRef(ints, 1).fetch_sub(2)
    kapi.AtomicRef(ints, 2).fetch_min(-i)
    kapi.AtomicRef(ints, 3).fetch_or(1 << (i % 8))
    kapi.AtomicRef(ints, 4).fetch_xor(1)
    kapi.AtomicRef(floats, 0).fetch_add(0.5)
    expected = kapi.PrivateArray(1, np.int64)
    expected[0] = 0
    if kapi.AtomicRef(flags, 0).compare_exchange(expected, i + 1):
        flags[1] = i + 1


@sluice.kernel
def global_atomics_i32(item: kapi.Item, ints, flags):
    i = item.get_id(0)
    kapi.AtomicRef(ints, 0).fetch_add(1)
    kapi.AtomicRef(ints, 1).fetch_sub(2)
    kapi.AtomicRef(ints, 2).fetch_min(-i)
    kapi.AtomicRef(ints, 3).fetch_or(1 << (i % 8))
    kapi.AtomicRef(ints, 4).fetch_xor(1)
    kapi.AtomicRef(ints, 5).fetch_max(i)
    kapi.AtomicRef(ints, 6).fetch_and(~(1 << (i % 8)))
    expected = kapi.PrivateArray(1, np.int32)
    expected[0] = 0
    if kapi.AtomicRef(flags, 0).compare_exchange(expected, i + 1):
        flags[1] = i + 1


def test_global_atomics_int32(device):
    n = 1000
    ints = sluice.asarray(
        np.array([0, 0, 0, 0, 0, 0, 255], np.int32), device=device
    )
    flags = sluice.zeros(2, dtype=np.int32, device=device)
    sluice.call_kernel(global_atomics_i32, kapi.Range(n), ints, flags)
    assert list(sluice.asnumpy(ints)) == [
        n,
        -2 * n,
        -(n - 1),
        255,
        0,
        n - 1,
        0,
    ]
    f = sluice.asnumpy(flags)
    assert f[0] == f[1] and 1 <= f[0] <= n  # exactly one work-item won


def test_global_atomics(device):
    n = 1000
    ints = sluice.zeros(5, dtype=np.int64, device=device)
    floats = sluice.zeros(1, dtype=np.float64, device=device)
    flags = sluice.zeros(2, dtype=np.int64, device=device)
    sluice.call_kernel(global_atomics, kapi.Range(n), ints, floats, flags)
    got = sluice.asnumpy(ints)
    assert list(got) == [n, -2 * n, -(n - 1), 255, 0]
    assert sluice.asnumpy(floats)[0] == n * 0.5
    f = sluice.asnumpy(flags)
    assert f[0] == f[1] and 1 <= f[0] <= n  # exactly one work-item won


@sluice.kernel
def atomics_64(item: kapi.Item, u, f, x):
    i = item.get_id(0)
    kapi.AtomicRef(u, 0).fetch_add(np.uint64(1) << np.uint64(40))
    kapi.AtomicRef(u, 1).fetch_max(i * 3)
    kapi.AtomicRef(u, 2).fetch_and(~(np.uint64(1) << np.uint64(i % 64)))
    kapi.AtomicRef(u, 3).exchange(7)
    kapi.AtomicRef(f, 0).fetch_sub(0.25)
    kapi.AtomicRef(f, 1).fetch_min(-0.5 * i)
    kapi.AtomicRef(f, 2).fetch_max(100.0 + i)
    kapi.AtomicRef(f, 3).exchange(2.5)
    x[i] = kapi.AtomicRef(u, 4).load()
    if i == 0:
        kapi.AtomicRef(u, 5).store(2**62)


def test_atomics_64(device):
    """uint64 and float64 atomics (Int64Atomics on SPIR-V)."""
    n = 1000
    u = sluice.asarray(
        np.array([0, 0, 2**64 - 1, 0, 123, 0], np.uint64), device=device
    )
    f = sluice.zeros(4, dtype=np.float64, device=device)
    x = sluice.zeros(n, dtype=np.uint64, device=device)
    sluice.call_kernel(atomics_64, kapi.Range(n), u, f, x)
    got = sluice.asnumpy(u)
    assert list(got) == [n << 40, 3 * (n - 1), 0, 7, 123, 2**62]
    assert list(sluice.asnumpy(f)) == [
        -0.25 * n,
        -0.5 * (n - 1),
        100.0 + (n - 1),
        2.5,
    ]
    assert (sluice.asnumpy(x) == 123).all()


@sluice.kernel
def weak_math(item: kapi.Item, x, out):
    i = item.get_id(0)
    out[i] = x[i] * (1.0 / math.sqrt(2.0)) + math.pi


def test_math_of_python_numbers_is_weak(device):
    """math functions of Python numbers are Python numbers (computed when
    the kernel compiles): they keep a float32 operand float32 (NEP 50)."""
    x_np = np.linspace(0, 1, 8, dtype=np.float32)
    x = sluice.asarray(x_np, device=device)
    out = sluice.zeros(8, dtype=np.float32, device=device)
    sluice.call_kernel(weak_math, kapi.Range(8), x, out)
    np.testing.assert_allclose(
        sluice.asnumpy(out), x_np / np.sqrt(2) + np.pi, rtol=1e-6
    )
    text = weak_math.lower(kapi.Range(8), x, out).as_text()
    kernel = text[text.index("gpu.func") :]
    assert "math.sqrt" not in kernel
    assert "arith.mulf" in kernel and "f64 to f32" in kernel
    assert "arith.extf" not in kernel  # no float64 arithmetic


# --- bounds checking ---------------------------------------------------------


@sluice.kernel(bounds_check=True)
def read_next(item: kapi.Item, a, b):
    i = item.get_id(0)
    b[i] = a[i + 1]  # the line the error names


@sluice.kernel(bounds_check=True)
def store_2d(item: kapi.Item, a, n):
    i = item.get_id(0)
    j = item.get_id(1)
    a[i, j - n] = 1.0


@sluice.kernel
def reverse(item: kapi.Item, a, b):
    i = item.get_id(0)
    b[i] = a[-1 - i] * 2


@sluice.kernel(bounds_check=True)
def local_overrun(item: kapi.NdItem, a, tmp):
    i = item.get_global_id(0)
    tmp[item.get_local_id(0) * 2] = a[i]
    kapi.group_barrier(item.get_group())
    a[i] = tmp[0]


def _line_of(kernel, text):
    src = kernel.source
    for k, line in enumerate(src.lines):
        if text in line:
            return src.first + k
    raise AssertionError(text)


def test_bounds_check_read(device):
    a = sluice.asarray(np.arange(10, dtype=np.float32), device=device)
    b = sluice.zeros(10, dtype=np.float32, device=device)
    with pytest.raises(IndexError) as e:
        sluice.call_kernel(read_next, kapi.Range(10), a, b)
    msg = str(e.value)
    line = _line_of(read_next, "a[i + 1]")
    assert (
        f"test_kernel.py:{line}: kernel read_next: index 10 is out of "
        "bounds for axis 0 with size 10 (argument a of shape (10,))" in msg
    )
    # In-bounds elements were computed; the launch did not crash.
    assert list(sluice.asnumpy(b)[:9]) == list(range(1, 10))


def test_bounds_check_store_2d_negative(device):
    m = sluice.zeros((3, 4), dtype=np.float32, device=device)
    with pytest.raises(
        IndexError,
        match=r"kernel store_2d: index -[5-7] is "
        r"out of bounds for axis 1 with size 4 \(argument a "
        r"of shape \(3, 4\)\)",
    ):
        sluice.call_kernel(store_2d, kapi.Range(3, 4), m, 7)
    # j - 7 = -4 wraps to column 0 (NumPy's negative index); the others
    # were not stored.
    ref = np.zeros((3, 4), np.float32)
    ref[:, 0] = 1
    assert (sluice.asnumpy(m) == ref).all()
    sluice.call_kernel(store_2d, kapi.Range(3, 4), m, 4)  # in bounds


def test_bounds_check_environment(device, monkeypatch):
    a = sluice.asarray(np.arange(10, dtype=np.float32), device=device)
    b = sluice.zeros(10, dtype=np.float32, device=device)
    monkeypatch.setenv("SLUICE_KERNEL_BOUNDS_CHECK", "1")
    # Negative indices within bounds are not errors.
    sluice.call_kernel(reverse, kapi.Range(10), a, b)
    assert list(sluice.asnumpy(b)) == [2.0 * x for x in range(9, -1, -1)]
    with pytest.raises(
        IndexError,
        match="kernel reverse: index -11 is out "
        "of bounds for axis 0 with size 10",
    ):
        sluice.call_kernel(
            reverse,
            kapi.Range(11),
            a,
            sluice.zeros(11, dtype=np.float32, device=device),
        )
    monkeypatch.setenv("SLUICE_KERNEL_BOUNDS_CHECK", "0")
    sluice.call_kernel(reverse, kapi.Range(10), a, b)  # unchecked again


def test_bounds_check_local(device):
    a = sluice.asarray(np.arange(8, dtype=np.float32), device=device)
    with pytest.raises(
        IndexError,
        match=r"kernel local_overrun: index [4-6] "
        r"is out of bounds for axis 0 with size 4 "
        r"\(LocalAccessor tmp of shape \(4,\)\)",
    ):
        sluice.call_kernel(
            local_overrun,
            kapi.NdRange((8,), (4,)),
            a,
            kapi.LocalAccessor(4, np.float32),
        )


@sluice.kernel
def add_into(item: kapi.Item, src, dst, scale):
    i = item.get_id(0)
    dst[i] += src[i] * scale


@sluice.kernel
def count_signs(item: kapi.Item, x, counts):
    i = item.get_id(0)
    kapi.AtomicRef(counts, 1 if x[i] > 0 else 0).fetch_add(1)


def test_call_kernel_inside_jit(device):
    """A kernel launched inside @sluice.jit runs in order with the traced
    operations: arrays the trace computed are its arguments, its in-place
    writes are seen by the operations after it and by the caller."""
    a_np = np.arange(10, dtype=np.float32)
    a = sluice.asarray(a_np, device=device)
    b = sluice.zeros(10, dtype=np.float32, device=device)

    @sluice.jit
    def f(x, y):
        t = x + 1  # computed by the trace
        sluice.call_kernel(reverse, kapi.Range(10), t, y)  # writes y
        return y + t, t

    for _ in range(2):  # traced once, then run from the cache
        r, t = f(a, b)
        np.testing.assert_array_equal(sluice.asnumpy(b), (a_np + 1)[::-1] * 2)
        np.testing.assert_array_equal(
            sluice.asnumpy(r), (a_np + 1)[::-1] * 2 + a_np + 1
        )
        np.testing.assert_array_equal(sluice.asnumpy(t), a_np + 1)
    assert f.trace_count == 1
    text = f.lower(a, b).as_text()
    assert "// kernel reverse over" in text and text.count("func.func") == 2


def test_kernels_inside_jit_in_order(device):
    """Two launches on values the trace made and changes in between: each
    sees the ones before it; an array captured from outside and a scalar
    argument are kernel arguments; a traced assignment into an argument
    and a kernel's write into a copy of it both reach the caller."""
    x_np = np.linspace(-1, 1, 16, dtype=np.float32)
    x = sluice.asarray(x_np, device=device)
    outside = sluice.asarray(np.full(16, 3, np.float32), device=device)
    y = sluice.asarray(np.ones(16, np.float32), device=device)

    @sluice.jit
    def g(x, y, s):
        acc = sluice.zeros_like(x)
        sluice.call_kernel(add_into, kapi.Range(16), x, acc, s)  # acc = s*x
        acc = acc * 2  # 2*s*x
        sluice.call_kernel(add_into, kapi.Range(16), outside, acc, 1.0)
        y[...] = 5.0  # a traced write into the argument
        sluice.call_kernel(add_into, kapi.Range(16), acc, y, 1.0)
        counts = sluice.zeros(2, dtype=np.int32, device=x.device)
        sluice.call_kernel(count_signs, kapi.Range(16), acc, counts)
        return acc, counts

    acc, counts = g(x, y, 0.5)
    want = 2 * 0.5 * x_np + 3
    np.testing.assert_allclose(sluice.asnumpy(acc), want, rtol=1e-6)
    np.testing.assert_allclose(sluice.asnumpy(y), 5.0 + want, rtol=1e-6)
    assert list(sluice.asnumpy(counts)) == [
        int(np.sum(want <= 0)),
        int(np.sum(want > 0)),
    ]
    # Another scalar: the same program, the scalar reaches the kernel.
    y2 = sluice.asarray(np.ones(16, np.float32), device=device)
    acc, _ = g(x, y2, -1.0)
    np.testing.assert_allclose(
        sluice.asnumpy(acc), 2 * -1.0 * x_np + 3, rtol=1e-6
    )
    assert g.trace_count == 1
    with pytest.raises(ValueError, match="launches kernels"):
        g.lower(x, y, 0.5).save("never.so")


def test_traced_scalar_across_a_launch(device):
    a = sluice.asarray(np.arange(10, dtype=np.float32), device=device)
    b = sluice.zeros(10, dtype=np.float32, device=device)

    @sluice.jit
    def f(x, y, s):
        s2 = s * 2  # a traced scalar the trace computes
        sluice.call_kernel(reverse, kapi.Range(10), x, y)
        return y * s2

    with pytest.raises(sluice.TracerError, match="across a kernel launch"):
        f(a, b, 1.5)

    @sluice.jit
    def g(x, y, s):
        sluice.call_kernel(reverse, kapi.Range(10), x, y)
        return y * (s * 2)  # computed after the launch: fine

    np.testing.assert_array_equal(
        sluice.asnumpy(g(a, b, 1.5)), np.arange(10.0)[::-1] * 2 * 3
    )


def test_call_kernel_async_inside_jit(device):
    a = sluice.asarray(np.arange(10, dtype=np.float32), device=device)
    b = sluice.zeros(10, dtype=np.float32, device=device)

    @sluice.jit
    def h(x, y):
        ev = sluice.call_kernel_async(reverse, kapi.Range(10), [], x, y)
        ev.wait()  # nothing to wait for while tracing
        return y * 2

    np.testing.assert_array_equal(
        sluice.asnumpy(h(a, b)), np.arange(10, dtype=np.float32)[::-1] * 4
    )


# --- errors ------------------------------------------------------------------


@sluice.kernel
def two_args(item: kapi.Item, a, b):
    b[item.get_id(0)] = a[item.get_id(0)]


@sluice.kernel
def unsupported(item: kapi.Item, a):
    i = item.get_id(0)
    a[i] = [x for x in range(3)][0]


@sluice.kernel
def slicing(item: kapi.Item, a):
    a[0:2] = 1


def test_errors(device):
    a = sluice.zeros(8, dtype=np.float32, device=device)
    with pytest.raises(TypeError, match="takes 2 argument"):
        sluice.call_kernel(two_args, kapi.Range(8), a)
    with pytest.raises(ValueError, match="not a multiple"):
        kapi.NdRange((10,), (4,))
    with pytest.raises(
        sluice.KernelError, match=r"test_kernel\.py:\d+: ListComp"
    ):
        sluice.call_kernel(unsupported, kapi.Range(8), a)
    with pytest.raises(sluice.KernelError, match="slices"):
        sluice.call_kernel(slicing, kapi.Range(8), a)
    with pytest.raises(TypeError, match="call_kernel"):
        two_args(a, a)
    with pytest.raises(TypeError, match="NumPy array"):
        sluice.call_kernel(two_args, kapi.Range(8), np.zeros(8), a)
    with pytest.raises(RuntimeError, match="inside a @sluice.kernel"):
        kapi.group_barrier(None)


def test_placement_error(device, host):
    if device.filter_string == host.filter_string:
        pytest.skip("needs a second queue")
    a = sluice.zeros(8, dtype=np.float32, device=device)
    b = sluice.zeros(8, dtype=np.float32, device=host)
    with pytest.raises(
        sluice.ExecutionPlacementError, match="Execution placement can not be"
    ):
        sluice.call_kernel(two_args, kapi.Range(8), a, b)


@sluice.kernel
def bad_types(item: kapi.Item, a):
    a[item.get_id(0)] = a.shape + 1


@sluice.kernel
def undefined_name(item: kapi.Item, a):
    a[item.get_id(0)] = not_defined_anywhere  # noqa: F821


def test_errors_have_locations(device):
    a = sluice.zeros(4, dtype=np.float32, device=device)
    for k in (bad_types, undefined_name):
        with pytest.raises(sluice.KernelError) as info:
            sluice.call_kernel(k, kapi.Range(4), a)
        assert "test_kernel.py:" in str(info.value)


@sluice.kernel
def break_continue(item: kapi.Item, a, out):
    i = item.get_id(0)
    n = a.shape[0]
    first = -1
    for k in range(n):  # the first element above i
        if a[k] > i:
            first = k
            break
    evens = 0
    for k in range(n):
        if k % 2 == 1:
            continue
        if k > i:
            break
        evens += 1
    j = 0
    while True:
        j += 1
        if j >= i:
            break
    out[i, 0] = first
    out[i, 1] = evens
    out[i, 2] = j


def test_break_continue(device):
    a_np = np.array([3, 1, 4, 1, 5, 9, 2, 6], dtype=np.int64)
    n = 10
    a = sluice.asarray(a_np, device=device)
    out = sluice.zeros((n, 3), dtype=np.int64, device=device)
    sluice.call_kernel(break_continue, kapi.Range(n), a, out)
    for i in range(n):
        above = [k for k, v in enumerate(a_np) if v > i]
        first = above[0] if above else -1
        evens = len([k for k in range(len(a_np)) if k % 2 == 0 and k <= i])
        j = max(1, i)
        assert list(sluice.asnumpy(out)[i]) == [first, evens, j], i


OFFSET = 3


@sluice.kernel
def store_at_global_offset(item: kapi.Item, x, out):
    # A module-level name in the subscript of a store is read, not
    # assigned (it was once taken for a variable used before assignment).
    i = item.get_id(0)
    out[i + OFFSET] = x[i] * 2
    out[OFFSET - 3 + i * 0] += 1


def test_global_names_in_store_subscripts(device):
    x = sluice.asarray(np.arange(4, dtype=np.int32), device=device)
    out = sluice.zeros(7, dtype=np.int32, device=device)
    sluice.call_kernel(store_at_global_offset, kapi.Range(4), x, out)
    got = sluice.asnumpy(out)
    np.testing.assert_array_equal(got[3:], [0, 2, 4, 6])
    assert 1 <= got[0] <= 4  # racing += of the work-items: at least one


@sluice.kernel
def float_atomics(item: kapi.Item, x, out):
    i = item.get_id(0)
    kapi.AtomicRef(out, 0).fetch_add(x[i])
    kapi.AtomicRef(out, 1).fetch_max(x[i])
    kapi.AtomicRef(out, 2).fetch_min(x[i])
    kapi.AtomicRef(out, 3).fetch_sub(1.0)


def test_float32_atomics(device):
    n = 4096
    x_np = np.arange(n, dtype=np.float32) % 64  # sums exact in float32
    x = sluice.asarray(x_np, device=device)
    out = sluice.asarray(np.array([0, -1, 100, 0], np.float32), device=device)
    sluice.call_kernel(float_atomics, kapi.Range(n), x, out)
    assert list(sluice.asnumpy(out)) == [x_np.sum(), 63, 0, -n]


def test_ids_index_without_wraparound(device):
    # Ids and variables holding them are known not to be negative: their
    # indices need no NumPy wrap-around (which would keep the host loop
    # from vectorising).
    m = runpy.run_path(os.path.join(EXAMPLES, "vecadd.py"))
    a = sluice.zeros(4, dtype=np.float32, device=device)
    text = m["vecadd"].lower(kapi.Range(4), a, a, a).as_text()
    assert "arith.select" not in text
    text = negative_index.lower(kapi.Range(4), a, a).as_text()
    assert "arith.select" in text


def test_cuda_local_memory_is_shared_memory(cuda_ptx):
    """Workgroup-local arrays of a kernel lowered for CUDA are PTX shared
    variables (gpu.func workgroup attributions), not device-heap memory:
    compiled here for cuda:gpu:0 (no GPU needed), as the tiled matmul
    example allocates them."""
    m = runpy.run_path(os.path.join(EXAMPLES, "matmul_tiled.py"))
    a = sluice.ones((16, 16), dtype=np.float32)
    ptx = cuda_ptx(
        m["matmul"],
        kapi.NdRange((16, 16), (8, 8)),
        a,
        a,
        a,
        kapi.LocalAccessor((8, 8), np.float32),
        kapi.LocalAccessor((8, 8), np.float32),
    )
    assert "malloc" not in ptx
    assert ptx.count(".shared .align") == 2


@sluice.kernel
def _complex_arith(it: kapi.Item, x, y, out):
    i = it.get_id(0)
    s = x[i]
    s *= y[i]
    out[4 * i] = s
    out[4 * i + 1] = x[i] + y[i]
    out[4 * i + 2] = x[i] - y[i]
    out[4 * i + 3] = x[i] / y[i]


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_complex_arithmetic(device, dt):
    """+ - * / of complex values in kernels (the complex dialect: they were
    integer ops, which do not parse; complex cumsum and cumprod use
    them)."""
    if dt == np.complex128 and not device.has_aspect_fp64:
        pytest.skip("complex128")
    a = np.array([1 + 2j, 3 - 1j, -0.5j], dt)
    b = np.array([2 - 1j, 0.25 + 4j, 1 + 1j], dt)
    out = sluice.empty(12, dtype=dt, device=device)
    sluice.call_kernel(
        _complex_arith,
        kapi.Range(3),
        sluice.asarray(a, device=device),
        sluice.asarray(b, device=device),
        out,
    )
    exp = np.stack([a * b, a + b, a - b, a / b], axis=1).reshape(-1)
    np.testing.assert_allclose(sluice.asnumpy(out), exp, rtol=1e-6)
