"""In-place operators: one submission that computes straight into the
array's memory (usm.store), with NumPy's semantics for casting, broadcasting
and operands that overlap the destination."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import sluice

OPS = [
    "__iadd__",
    "__isub__",
    "__imul__",
    "__itruediv__",
    "__ifloordiv__",
    "__imod__",
    "__ipow__",
]


def _apply(x, op, y):
    r = getattr(x, op)(y)
    assert r is x
    return r


@pytest.mark.parametrize("op", OPS)
def test_matches_numpy(device, op):
    rng = np.random.default_rng(1)
    a = rng.uniform(1, 4, (5, 7)).astype(np.float32)
    b = rng.uniform(1, 2, (5, 7)).astype(np.float32)
    x = sluice.asarray(a, device=device)
    ptr = x._data_pointer()
    _apply(x, op, sluice.asarray(b, device=device))
    getattr(a, op)(b)
    np.testing.assert_allclose(x.asnumpy(), a, rtol=2e-6)
    assert x._data_pointer() == ptr  # the same memory


def test_self_and_scalars(device):
    a = np.arange(1, 9, dtype=np.float64)
    x = sluice.asarray(a, device=device)
    if x.dtype != np.float64:  # devices without fp64
        pytest.skip("no float64")
    x += x
    a += a
    x *= x
    a *= a
    x -= 3
    a -= 3
    x /= np.float64(7)
    a /= np.float64(7)
    np.testing.assert_array_equal(x.asnumpy(), a)


def test_broadcast_operand_and_casting(device):
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    x = sluice.asarray(a, device=device)
    row = np.array([1, 2, 3, 4], dtype=np.int16)
    x += sluice.asarray(row, device=device)
    a += row
    x *= 3
    a *= 3
    np.testing.assert_array_equal(x.asnumpy(), a)
    f = sluice.asarray(np.ones((3, 4), np.float32), device=device)
    f += sluice.asarray(a, device=device)  # int32 into float32: same_kind
    np.testing.assert_array_equal(f.asnumpy(), 1 + a.astype(np.float32))
    with pytest.raises(TypeError, match="same_kind"):
        x += f
    with pytest.raises(ValueError, match="non-broadcastable"):
        r = sluice.asarray(row.astype(np.int32), device=device)
        r += x
    np.testing.assert_array_equal(x.asnumpy(), a)  # nothing written


def test_overlapping_views_copy_first(device):
    a = np.arange(10, dtype=np.float32)
    x = sluice.asarray(a, device=device)
    x[1:] += x[:-1]
    a[1:] += a[:-1].copy()  # NumPy's semantics: as if the input were copied
    np.testing.assert_array_equal(x.asnumpy(), a)
    x[::2] *= 2  # a strided destination
    a[::2] *= 2
    np.testing.assert_array_equal(x.asnumpy(), a)
    m = np.arange(16, dtype=np.float32).reshape(4, 4)
    y = sluice.asarray(m, device=device)
    y += y.T
    m += m.T.copy()
    np.testing.assert_array_equal(y.asnumpy(), m)


def test_views_see_the_update(device):
    x = sluice.zeros((4, 4), dtype=np.float32, device=device)
    row = x[2]
    col = x[:, 1]
    x += 1
    row += 5
    np.testing.assert_array_equal(col.asnumpy(), [1, 1, 6, 1])


def test_errors_leave_data_and_other_operands_intact(device):
    i = sluice.arange(1, 5, device=device)
    j = sluice.asarray([1, -1, 2, 3], device=device)
    with pytest.raises(ValueError, match="negative integer powers"):
        i **= j
    i **= 2
    assert i.asnumpy().tolist() == [1, 4, 9, 16]
    assert j.asnumpy().tolist() == [1, -1, 2, 3]
    frozen = np.ones(3, np.float32)
    frozen.flags.writeable = False
    ro = sluice.from_dlpack(frozen)
    with pytest.raises(ValueError, match="read-only"):
        ro += 1
    assert frozen.tolist() == [1, 1, 1]


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    shape=st.lists(st.integers(0, 5), min_size=0, max_size=3),
    bshape_drop=st.integers(0, 3),
    op=st.sampled_from(OPS[:4]),
    dtype=st.sampled_from([np.float32, np.int32, np.int64, np.uint8]),
)
def test_property(device, shape, bshape_drop, op, dtype):
    if op == "__itruediv__" and np.dtype(dtype).kind != "f":
        return
    rng = np.random.default_rng(len(shape) * 7 + bshape_drop)
    a = rng.integers(1, 50, shape).astype(dtype)
    bshape = tuple(shape)[min(bshape_drop, len(shape)) :]
    b = rng.integers(1, 50, bshape).astype(dtype)
    x = sluice.asarray(a, device=device)
    _apply(x, op, sluice.asarray(b, device=device))
    getattr(a, op)(b)
    np.testing.assert_array_equal(x.asnumpy(), a)


def test_uint64_scalars_past_int64(device):
    # Python ints above int64's range meet uint64 arrays (the fast path's
    # bounds are int64; those values take the slow path).
    x = sluice.asarray(
        np.array([0, 1, 2**64 - 1], dtype=np.uint64), device=device
    )
    for _ in range(2):
        assert (x != 0).asnumpy().tolist() == [False, True, True]
        assert (x == 2**64 - 1).asnumpy().tolist() == [False, False, True]
