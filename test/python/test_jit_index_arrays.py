"""Integer index arrays inside ``@sluice.jit``: assignment through them
(x[i] = v), and NumPy's IndexError for traced indices out of range, per
device, against NumPy."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sluice

SETTINGS = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


def put(a, device):
    return sluice.asarray(a, device=device)


def check(r, e):
    r = sluice.asnumpy(r)
    e = np.asarray(e)
    assert r.shape == e.shape, (r.shape, e.shape)
    assert r.dtype == e.dtype, (r.dtype, e.dtype)
    np.testing.assert_array_equal(r, e)


KEYS = [
    lambda i: i,
    lambda i: (slice(None), i),
    lambda i: (i, slice(1, None)),
    lambda i: (i, [0, 3, 1]),
    lambda i: (Ellipsis, i),
    lambda i: (1, i),
]


@pytest.mark.parametrize("k", range(len(KEYS)))
def test_assign_through_traced_index_arrays(device, k):
    key = KEYS[k]

    @sluice.jit
    def f(x, i, v):
        y = x * 2
        y[key(i)] = v
        return y + 1

    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    i = np.array([2, -1, 0])
    e = x * 2
    v = np.float32(7.5)
    e[key(i)] = v
    check(f(put(x, device), put(i, device), v), e + 1)
    # An array value, broadcast to the selection.
    sel = (x * 2)[key(i)]
    vv = np.arange(sel.shape[-1], dtype=np.float32) - 3
    e = x * 2
    e[key(i)] = vv
    check(f(put(x, device), put(i, device), put(vv, device)), e + 1)


def test_assign_repeated_indices_writes_one_of_them(device):
    # NumPy leaves unspecified which value lands where positions repeat
    # in an advanced assignment; each position gets one of its values and
    # the rest of the array is untouched.
    @sluice.jit
    def f(x, i, v):
        x = x + 0
        x[i] = v
        return x

    x = np.full(7, -1, dtype=np.int32)
    i = np.array([1, 4, 1, 1, 4, 0])
    v = np.array([10, 20, 30, 40, 50, 60], dtype=np.int32)
    r = sluice.asnumpy(f(put(x, device), put(i, device), put(v, device)))
    assert r[0] == 60
    assert r[1] in (10, 30, 40)
    assert r[4] in (20, 50)
    np.testing.assert_array_equal(r[[2, 3, 5, 6]], -1)


def test_augmented_assignment_reads_once(device):
    # x[i] += 1 is a read, an add and a write: a repeated index is
    # incremented once, as in NumPy.
    @sluice.jit
    def f(x, i):
        x[i] += 1
        return x * 1

    x = np.arange(5, dtype=np.float64)
    i = np.array([0, 0, 3])
    e = x.copy()
    e[i] += 1
    xs = put(x, device)
    check(f(xs, put(i, device)), e)
    # The argument was assigned into: the caller's array has the update.
    check(xs, e)


def test_assign_converts_and_uses_numpy_indices(device):
    @sluice.jit
    def f(x, v):
        x[np.array([3, 1])] = v
        x[[0, 2], 1] = v * 2
        return x

    x = np.zeros((4, 2), dtype=np.int16)
    v = np.float64(2.7)
    e = x.copy()
    e[np.array([3, 1])] = v
    e[[0, 2], 1] = v * 2
    check(f(put(x, device), v), e)


def test_assign_value_must_broadcast(device):
    @sluice.jit
    def f(x, i, v):
        x[i] = v
        return x

    x = put(np.zeros((3, 4), dtype=np.float32), device)
    i = put(np.array([0, 1]), device)
    with pytest.raises(ValueError, match="could not be broadcast"):
        f(x, i, put(np.ones(3, np.float32), device))


def test_scatter_is_in_the_program(device):
    # The assignment is a usm.scatter in the traced IR: one program, no
    # step (lit tests check that it is done in place when y is dead).
    @sluice.jit
    def f(x, i, v):
        y = x * 2
        y[i] = v + 1
        return y - 1

    x = put(np.arange(6, dtype=np.float32), device)
    i = put(np.array([5, 0]), device)
    v = put(np.array([10.0, 20.0], dtype=np.float32), device)
    lowered = f.lower(x, i, v)
    assert type(lowered).__name__ == "Lowered"  # one program, no steps
    assert lowered.as_text().count("usm.scatter") == 1
    e = np.arange(6, dtype=np.float32) * 2
    e[[5, 0]] = np.array([11.0, 21.0])
    check(f(x, i, v), e - 1)


def test_assign_with_mixed_boolean_key(device):
    # A boolean array mixed with other indices is a step that assigns
    # eagerly (the selection's size depends on the data).
    @sluice.jit
    def f(x, m, v):
        y = x + 0
        y[m, 1:] = v
        return y

    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    m = np.array([True, False, True])
    e = x.copy()
    e[m, 1:] = 5
    check(f(put(x, device), put(m, device), 5.0), e)


@settings(parent=SETTINGS)
@given(data=st.data())
def test_assign_hypothesis(device, data):
    shape = data.draw(
        st.lists(st.integers(1, 5), min_size=1, max_size=3), label="shape"
    )
    axis = data.draw(st.integers(0, len(shape) - 1), label="axis")
    n = shape[axis]
    idx = np.array(
        data.draw(
            st.lists(st.integers(-n, n - 1), min_size=1, max_size=6),
            label="idx",
        )
    )
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    key = (slice(None),) * axis + (idx,)
    val = np.float32(data.draw(st.integers(-9, 9), label="val"))

    @sluice.jit
    def f(x, i, v):
        y = x - 1
        y[(slice(None),) * axis + (i,)] = v
        return y

    e = x - 1
    e[key] = val
    check(f(put(x, device), put(idx, device), val), e)


@pytest.mark.parametrize("bad", [3, -4, 100])
def test_traced_index_out_of_range_raises(device, bad):
    @sluice.jit
    def f(x, i):
        return x[i] * 2

    x = put(np.arange(3, dtype=np.float32), device)
    with pytest.raises(
        IndexError,
        match=f"index {bad} is out of bounds for axis 0 with size 3",
    ):
        f(x, put(np.array([0, bad, 1]), device))
    # In range, the same compiled program answers.
    check(f(x, put(np.array([2, -3]), device)), np.array([4.0, 0.0], "f4"))


def test_traced_index_axis_in_message(device):
    @sluice.jit
    def f(x, i):
        return x[:, i]

    x = put(np.zeros((2, 5), dtype=np.float32), device)
    with pytest.raises(IndexError, match="for axis 1 with size 5"):
        f(x, put(np.array([[1, 5]]), device))


def test_index_error_leaves_arguments_unchanged(device):
    # The checks run before the arguments the function assigned into are
    # written back: an IndexError leaves them as they were.
    @sluice.jit
    def f(x, i):
        x[0] = 42
        return x[i]

    xs = put(np.arange(4, dtype=np.int64), device)
    with pytest.raises(IndexError):
        f(xs, put(np.array([9]), device))
    check(xs, np.arange(4))
    check(f(xs, put(np.array([0, 3]), device)), np.array([42, 3]))
    check(xs, np.array([42, 1, 2, 3]))


def test_assignment_index_out_of_range_raises(device):
    @sluice.jit
    def f(x, i):
        y = x + 1
        y[i] = 0
        return y

    x = put(np.arange(4, dtype=np.float32), device)
    with pytest.raises(IndexError, match="out of bounds"):
        f(x, put(np.array([1, 4]), device))


def test_clipped_and_wrapped_take_need_no_check(device):
    # take(mode="clip"/"wrap") makes its indices in range: no hidden
    # bounds results, so no synchronisation per call.
    @sluice.jit
    def clipped(x, i):
        return sluice.take(x, i, mode="clip")

    @sluice.jit
    def raising(x, i):
        return sluice.take(x, i)

    x = put(np.arange(5, dtype=np.float32), device)
    i = put(np.array([-7, 2, 9]), device)
    e = np.take(np.arange(5, dtype="f4"), [-7, 2, 9], mode="clip")
    check(clipped(x, i), e)
    ir_clip = clipped.lower(x, i).as_text()
    ir_raise = raising.lower(x, i).as_text()
    # The reductions (usm.max/usm.min; clip itself is usm.maximum/minimum).
    assert "usm.max " not in ir_clip and "usm.min " not in ir_clip
    assert "usm.max " in ir_raise and "usm.min " in ir_raise
    with pytest.raises(IndexError, match="index -7 is out of bounds"):
        raising(x, i)


def test_index_check_after_a_library_step(device):
    # A function with a step (a sort) checks its indices too.
    @sluice.jit
    def f(x, i):
        return sluice.sort(x)[i]

    x = put(np.array([3.0, 1.0, 2.0], dtype=np.float32), device)
    check(f(x, put(np.array([2, 0]), device)), np.array([3.0, 1.0], "f4"))
    with pytest.raises(IndexError, match="index 3 is out of bounds"):
        f(x, put(np.array([3]), device))


def test_saving_a_checked_program_is_refused(device, tmp_path):
    @sluice.jit
    def f(x, i):
        return x[i]

    x = put(np.arange(3, dtype=np.float32), device)
    with pytest.raises(ValueError, match="cannot raise IndexError"):
        f.lower(x, put(np.array([0]), device)).save(tmp_path / "f.so")
