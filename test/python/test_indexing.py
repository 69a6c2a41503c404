"""Advanced indexing and the indexing routines against NumPy, per device."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sluice

SETTINGS = settings(
    max_examples=15,
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


N = np.arange(60, dtype=np.float32).reshape(3, 4, 5)

KEYS = [
    [2, 0, -1],
    np.array([[0, 1], [2, 2]]),
    (slice(None), [3, 0, 3]),
    ([0, 2], [1, 3], [4, 0]),
    (0, [1, 2], slice(None, None, -1)),
    (slice(None), 1, [0, 4]),
    ([1], slice(None), [0, 4]),
    (Ellipsis, [4, -1]),
    (None, [1], None, 0),
    ([0, 1], None, [1, 2]),
    (slice(1, None, -1), [[0], [3]], slice(None, None, 2)),
    N > 30,
    (slice(None), N[0] > 3),
    (slice(None), N[0, :, 0] > 6),
    (1, N[0, :, 0] > 6, [0, 1]),
    np.zeros((3, 4, 5), bool),
    True,
    (False, 0),
    (Ellipsis, np.array([], np.int64)),
]


@pytest.mark.parametrize("key", KEYS, ids=range(len(KEYS)))
def test_getitem(device, key):
    a = put(N, device)
    check(a[key], N[key])


def test_getitem_device_index(device):
    a = put(N, device)
    i = put(np.array([2, -3, 0]), device)
    check(a[i], N[[2, -3, 0]])
    check(a[:, i[:2]], N[:, [2, -3]])
    m = a > 20
    check(a[m], N[N > 20])
    check(a[m[:, :, 0]], N[(N > 20)[:, :, 0]])


@pytest.mark.parametrize(
    "key,msg",
    [
        ([3], "index 3 is out of bounds for axis 0 with size 3"),
        ((0, [-6]), "index -6 is out of bounds for axis 1 with size 4"),
        (np.ones((2, 4, 5), bool), "boolean index did not match"),
        (np.array([0.5]), "integer"),
        (([0, 1], [0, 1, 2]), "shape mismatch"),
    ],
)
def test_getitem_errors(device, key, msg):
    a = put(N, device)
    with pytest.raises(IndexError, match=msg):
        a[key]


def test_device_index_out_of_range(device):
    a = put(N, device)
    with pytest.raises(IndexError, match="index 7 is out of bounds"):
        a[put(np.array([0, 7]), device)]


def test_setitem(device):
    e = N.copy()
    a = put(e, device)
    a[a > 40] = 0
    e[e > 40] = 0
    check(a, e)
    a[[0, 0], [1, 1]] = put(np.array([[5.0], [7.0]], np.float32), device)
    e[[0, 0], [1, 1]] = [[5.0], [7.0]]
    check(a, e)
    a[e < 3] += 100
    e[e < 3] += 100
    check(a, e)
    k = int((e > 20).sum())
    a[e > 20] = np.arange(k)
    e[e > 20] = np.arange(k)
    check(a, e)
    a[1, [0, 2], ::-2] = -1
    e[1, [0, 2], ::-2] = -1
    check(a, e)
    a[[2, 2, 2]] = put(
        np.arange(60, dtype=np.float32).reshape(3, 4, 5)[:, None], device
    )[:, 0]
    e[[2, 2, 2]] = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    check(a, e)
    a[put(np.array([0, -1]), device), 0, 0] = 9
    e[[0, -1], 0, 0] = 9
    check(a, e)


def test_setitem_strided_target(device):
    e = N.copy()
    a = put(e, device)
    v = a[:, ::2, ::-1]
    v[v > 10] = -5
    ev = e[:, ::2, ::-1]
    ev[ev > 10] = -5
    check(a, e)


def test_setitem_errors(device):
    a = put(N, device)
    # (small host arrays take NumPy's own message)
    with pytest.raises(ValueError, match="shape mismatch|cannot assign"):
        a[a > 50] = np.arange(4)
    with pytest.raises(IndexError, match="out of bounds"):
        a[[5]] = 1


@SETTINGS
@given(data=st.data())
def test_getitem_hypothesis(device, data):
    shape = data.draw(st.lists(st.integers(0, 4), min_size=1, max_size=3))
    e = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    axis = data.draw(st.integers(0, len(shape) - 1))
    n = shape[axis]
    if n:
        idx = data.draw(st.lists(st.integers(-n, n - 1), max_size=5))
    else:
        idx = []
    key = (slice(None),) * axis + (np.array(idx, np.int64),)
    a = put(e, device)
    check(a[key], e[key])
    mask = data.draw(st.lists(st.booleans(), min_size=e.size, max_size=e.size))
    m = np.array(mask, bool).reshape(shape)
    check(a[m], e[m])
    a[m] = -1
    e[m] = -1
    check(a, e)


def test_take_put(device):
    a = put(N, device)
    check(sluice.take(a, [5, -1, 0]), np.take(N, [5, -1, 0]))
    check(sluice.take(a, [[1, 0]], axis=1), np.take(N, [[1, 0]], axis=1))
    check(
        sluice.take(a, [7, -9], axis=2, mode="wrap"),
        np.take(N, [7, -9], axis=2, mode="wrap"),
    )
    check(
        sluice.take(a, [7, -9], axis=2, mode="clip"),
        np.take(N, [7, -9], axis=2, mode="clip"),
    )
    check(a.take([1, 2]), N.take([1, 2]))
    e = N.copy()
    b = put(e, device)
    sluice.put(b, [0, 7, 59], [-1, -2])
    np.put(e, [0, 7, 59], [-1, -2])
    check(b, e)
    with pytest.raises(IndexError):
        sluice.take(a, [60])


def test_along_axis(device):
    x = np.array([[10, 30, 20], [60, 40, 50]], np.int64)
    a = put(x, device)
    i = np.argsort(x, axis=1)
    check(
        sluice.take_along_axis(a, put(i, device), axis=1),
        np.take_along_axis(x, i, axis=1),
    )
    check(
        sluice.take_along_axis(a, i[:, :1], axis=1),
        np.take_along_axis(x, i[:, :1], axis=1),
    )
    e = x.copy()
    sluice.put_along_axis(a, i[:, :1], 0, axis=1)
    np.put_along_axis(e, i[:, :1], 0, axis=1)
    check(a, e)


def test_masks(device):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    e = x.copy()
    a = put(x, device)
    sluice.putmask(a, a > 6, put(np.array([-1, -2, -3], np.float32), device))
    np.putmask(e, e > 6, np.array([-1, -2, -3], np.float32))
    check(a, e)
    sluice.place(a, a < 3, [7, 8])
    np.place(e, e < 3, [7, 8])
    check(a, e)
    check(
        sluice.compress([False, True, True], a, axis=0),
        np.compress([False, True, True], e, axis=0),
    )
    check(sluice.compress([1, 0, 1], a), np.compress([1, 0, 1], e))
    check(sluice.extract(a > 4, a), np.extract(e > 4, e))


def test_choose_select(device):
    c = np.array([0, 2, 1, 2])
    ch = [np.arange(4) * k for k in (1, 10, 100)]
    check(
        sluice.choose(put(c, device), [put(v, device) for v in ch]),
        np.choose(c, ch),
    )
    check(
        sluice.choose(
            put(c + 2, device), [put(v, device) for v in ch], mode="wrap"
        ),
        np.choose(c + 2, ch, mode="wrap"),
    )
    with pytest.raises(ValueError, match="invalid entry"):
        sluice.choose(put(c + 1, device), [put(v, device) for v in ch])
    x = np.arange(6)
    a = put(x, device)
    check(
        sluice.select([a < 2, a > 3], [a, a**2], 42),
        np.select([x < 2, x > 3], [x, x**2], 42),
    )


@pytest.mark.parametrize("shape", [(0,), (7,), (3, 4), (2, 3, 2)])
def test_nonzero_family(device, shape):
    x = np.arange(int(np.prod(shape))).reshape(shape) % 3 == 1
    x = x.astype(np.float32)
    a = put(x, device)
    for r, e in zip(sluice.nonzero(a), np.nonzero(x)):
        check(r, e.astype(np.int64))
    for r, e in zip(sluice.where(a), np.where(x)):
        check(r, e.astype(np.int64))
    check(sluice.argwhere(a), np.argwhere(x).astype(np.int64))
    check(sluice.flatnonzero(a), np.flatnonzero(x).astype(np.int64))
    for r, e in zip(a.nonzero(), x.nonzero()):
        check(r, e.astype(np.int64))


def test_nonzero_large(device):
    # More than one compaction chunk.
    x = np.random.default_rng(0).random(10_000) > 0.3
    a = put(x, device)
    check(sluice.nonzero(a)[0], np.nonzero(x)[0].astype(np.int64))
    with pytest.raises(ValueError, match="0d"):
        sluice.nonzero(put(np.float32(1), device))


def test_index_generators(device):
    q = sluice.Device(device).sycl_queue
    for r, e in zip(
        sluice.ix_(
            put(np.array([0, 2]), device),
            put(np.array([True, False, True]), device),
        ),
        np.ix_([0, 2], [True, False, True]),
    ):
        check(r, e.astype(np.int64))
    i = put(np.array([1, 7, 22]), device)
    for r, e in zip(
        sluice.unravel_index(i, (3, 4, 2)),
        np.unravel_index([1, 7, 22], (3, 4, 2)),
    ):
        check(r, e.astype(np.int64))
    with pytest.raises(ValueError, match="out of bounds"):
        sluice.unravel_index(put(np.array([24]), device), (3, 4, 2))
    mi = (put(np.array([1, 2]), device), put(np.array([3, 0]), device))
    check(
        sluice.ravel_multi_index(mi, (3, 4)),
        np.ravel_multi_index(([1, 2], [3, 0]), (3, 4)).astype(np.int64),
    )
    check(sluice.indices((2, 3), sycl_queue=q), np.indices((2, 3)))
    for r, e in zip(
        sluice.indices((2, 3), sparse=True, sycl_queue=q),
        np.indices((2, 3), sparse=True),
    ):
        check(r, e)
    for r, e in zip(sluice.diag_indices(3, sycl_queue=q), np.diag_indices(3)):
        check(r, e.astype(np.int64))
    for k in (-1, 0, 2):
        for r, e in zip(
            sluice.tril_indices(4, k, 5, sycl_queue=q),
            np.tril_indices(4, k, 5),
        ):
            check(r, e.astype(np.int64))
        for r, e in zip(
            sluice.triu_indices(4, k, sycl_queue=q), np.triu_indices(4, k)
        ):
            check(r, e.astype(np.int64))


# --- inside @sluice.jit ------------------------------------------------------


def test_jit_slicing(device):
    @sluice.jit
    def f(x):
        return x[1:, ::-2] * 2 + x[0, 1::2][None, :] + x[-1, 0]

    x = np.arange(30, dtype=np.float32).reshape(5, 6)
    e = x[1:, ::-2] * 2 + x[0, 1::2][None, :] + x[-1, 0]
    check(f(put(x, device)), e)


def test_jit_slices_are_fused_views(device):
    """Basic slices inside @sluice.jit are usm.strided_view reads that
    fuse with their elementwise consumers (no gather, no copy): one fused
    group reads four shifted windows. Slices of slices, of intermediate
    values, with negative steps and single elements give NumPy's values."""

    @sluice.jit
    def f(u):
        return u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] * u[1:-1, 2:]

    @sluice.jit
    def g(u):
        v = (u * 2)[::-1, 1::3]
        return v[1:, ::-1] - u[2, 3] + v[0]

    x = np.arange(42, dtype=np.float32).reshape(6, 7)
    text = f.lower(put(x, device)).as_text()
    assert text.count("usm.strided_view") == 4
    assert "usm.gather" not in text
    check(
        f(put(x, device)),
        x[:-2, 1:-1] + x[2:, 1:-1] + x[1:-1, :-2] * x[1:-1, 2:],
    )
    v = (x * 2)[::-1, 1::3]
    check(g(put(x, device)), v[1:, ::-1] - x[2, 3] + v[0])


def test_jit_integer_arrays(device):
    @sluice.jit
    def f(x, i):
        return x[i], x[:, i], x[[2, 0], 1:], x[i, [0, 1, 2]]

    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    i = np.array([2, -1, 0])
    for r, e in zip(
        f(put(x, device), put(i, device)),
        (x[i], x[:, i], x[[2, 0], 1:], x[i, [0, 1, 2]]),
    ):
        check(r, e)


def test_jit_stencil(device):
    @sluice.jit
    def step(u):
        u[1:-1, 1:-1] = 0.25 * (
            u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
        )
        return u

    e = np.zeros((6, 7), np.float32)
    e[0] = 1
    u = put(e, device)
    for _ in range(3):
        r = step(u)
        e[1:-1, 1:-1] = 0.25 * (
            e[:-2, 1:-1] + e[2:, 1:-1] + e[1:-1, :-2] + e[1:-1, 2:]
        )
    assert r is u  # the argument, updated in place as in NumPy
    np.testing.assert_allclose(sluice.asnumpy(u), e, rtol=1e-6)


def test_jit_assignment(device):
    @sluice.jit
    def f(x, v):
        y = x * 1
        y[x > 5] = -1
        y[0, ::-2] = v
        y[..., 1] = 7
        y[2] += 100
        return y

    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    v = np.array([8, 9], np.float32)
    e = x.copy()
    e[x > 5] = -1
    e[0, ::-2] = v
    e[..., 1] = 7
    e[2] += 100
    a = put(x, device)
    check(f(a, put(v, device)), e)
    check(a, x)  # the argument was not assigned to


def _jit_and_numpy(fn, *arrays, device):
    """fn run jitted on device copies and by NumPy on host copies: the
    results and the (possibly assigned) arguments agree."""
    host = [a.copy() for a in arrays]
    dev = [put(a, device) for a in arrays]
    r = sluice.jit(fn)(*dev)
    e = fn(*host)
    r, e = (r, e) if isinstance(e, tuple) else ((r,), (e,))
    for x, y in zip(r, e):
        check(x, y)
    for x, y in zip(dev, host):
        check(x, y)


def test_jit_assignment_aliasing(device):
    """Assignments into slices (usm.strided_insert, updated in place when
    the old value is dead): old values read after, repeated and
    overlapping assignments, views of the array itself, negative steps,
    integers, broadcasting, conversions and empty windows."""
    rng = np.random.default_rng(3)
    u = rng.standard_normal((5, 6)).astype(np.float32)
    row = rng.standard_normal(6).astype(np.float32)
    col = rng.standard_normal((5, 1)).astype(np.float32)

    def old_after(u):
        b = u + 1.0
        u[1:3, ::2] = 5.0
        return b * u

    def twice(u):
        u[0] = 1.0
        u[:, 0] = 2.0
        u[1:4, 1:4] = u[:3, :3] * 3.0
        return u

    def shift(u):
        u[1:] = u[:-1]
        u[:, :-1] = u[:, 1:]
        return u

    def shift_1d(r):
        r[1:] = r[:-1]
        r[::-1] = r + 1.0
        return r

    def old_and_new(u):
        y = u * 2.0
        a = y + 0.0
        y[1:, 2] = 5.0
        return a, y

    def view_then_assign(u):
        v = u[1:]  # not overlapping the window: NumPy's view agrees
        u[0] = 9.0
        return v, u

    def view_of_intermediate(u):
        y = u * 2.0
        v = y[:, 1:]
        y[:, 0] = v[:, 0]
        return v + 0.0, y

    def negative_steps(u, r):
        u[::-2] = r
        u[3:0:-1, ::-1] = u[:3, :] + 1.0
        return u

    def integers(u, r):
        u[1, 2] = 7.0
        u[-1] = r
        u[2, ::-3] = -1.0
        return u

    def broadcasting(u, c):
        u[1:, ::2] = 3.5
        u[:, 1:3] = c
        u[None, 0, 1:] = u[4, 1:]
        return u

    def empty(u, r):
        u[2:2] = 5.0
        u[3:1, :] = r
        u[:, 6:] = 1.0
        return u

    def returned_twice(u):
        u[:2] = 0.0
        w = u * 1.0
        u[2:] = w[:3]
        return w, u

    for fn, args in (
        (old_after, (u,)),
        (twice, (u,)),
        (shift, (u,)),
        (shift_1d, (row,)),
        (old_and_new, (u,)),
        (view_then_assign, (u,)),
        (view_of_intermediate, (u,)),
        (negative_steps, (u, row)),
        (integers, (u, row)),
        (broadcasting, (u, col)),
        (empty, (u, row)),
        (returned_twice, (u,)),
    ):
        _jit_and_numpy(fn, *args, device=device)

    def ints(a):
        a[1::2] = 2.75  # converted as NumPy does
        a[0, :2] = a[1, :2] * 3
        return a

    _jit_and_numpy(
        ints, np.arange(12, dtype=np.int32).reshape(4, 3), device=device
    )


def test_jit_views_are_values(device):
    """Inside @sluice.jit a slice is a value: read after an assignment that
    overlaps it, it still holds the elements from before (NumPy's view
    would see the new ones), so that update is not in place."""

    @sluice.jit
    def f(u):
        y = u * 2.0
        v = y[1:]
        y[1] = 5.0
        return v + 0.0, y

    u = np.arange(12, dtype=np.float32).reshape(3, 4)
    v, y = f(put(u, device))
    e = u * 2.0
    check(v, e[1:])
    e[1] = 5.0
    check(y, e)

    @sluice.jit
    def g(u):
        v = u[:, ::2]
        u[:, 0] = -1.0
        return v

    a = put(u, device)
    check(g(a), u[:, ::2])
    e = u.copy()
    e[:, 0] = -1.0
    check(a, e)


def test_jit_assignment_shared_and_strided_arguments(device):
    """An assigned argument that shares memory with another argument, or is
    not C-contiguous, is written through a copy: the results are NumPy's."""

    @sluice.jit
    def g(a, b):
        a[1:] = b[:-1] * 2.0
        return a

    e = np.arange(8, dtype=np.float32)
    u = put(e, device)
    g(u, u)
    e[1:] = e[:-1] * 2.0
    check(u, e)

    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    b = put(base, device)
    g(b[:, ::2], put(np.ones((4, 3), np.float32), device))
    base[1:, ::2] = 2.0
    check(b, base)


def test_jit_errors(device):
    @sluice.jit
    def g(x):
        return x[[7]]

    with pytest.raises(IndexError, match="out of bounds"):
        g(put(N, device))


def test_jit_masked_update(device):
    @sluice.jit
    def f(x):
        m = x > 5
        x[m] += 1
        x[m] = x[m] * 2 - 1
        x[x < 2] = 0
        return x

    x = np.arange(10, dtype=np.float32)
    e = x.copy()
    m = e > 5
    e[m] += 1
    e[m] = e[m] * 2 - 1
    e[e < 2] = 0
    a = put(x, device)
    check(f(a), e)
    check(a, e)

    @sluice.jit
    def g(x):
        return x[x > 5].sum()

    with pytest.raises(sluice.TracerError, match="depends on the data"):
        g(put(x, device))


def _basic_key(data, shape):
    key = []
    for n in shape:
        kind = data.draw(st.sampled_from(["int", "slice", "all"]))
        if kind == "int" and n:
            key.append(data.draw(st.integers(-n, n - 1)))
        elif kind == "slice":
            start = data.draw(st.none() | st.integers(-n - 1, n + 1))
            stop = data.draw(st.none() | st.integers(-n - 1, n + 1))
            step = data.draw(st.sampled_from([None, 1, 2, -1, -2, 3]))
            key.append(slice(start, stop, step))
        else:
            key.append(slice(None))
    if data.draw(st.booleans()):
        key.insert(data.draw(st.integers(0, len(key))), None)
    return tuple(key)


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_jit_basic_keys_hypothesis(device, data):
    shape = tuple(
        data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3))
    )
    key = _basic_key(data, shape)
    x = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)

    @sluice.jit
    def get(a):
        return a[key] + 0

    @sluice.jit
    def put_(a):
        a[key] = -1
        return a

    check(get(put(x, device)), x[key] + 0)
    e = x.copy()
    e[key] = -1
    check(put_(put(x, device)), e)


def test_small_host_indexing_is_ordered_with_the_queue(device):
    """Small host arrays are indexed by NumPy on views (see
    _advanced_indexing._host_small_keys): reads see every earlier write,
    writes come after every earlier read, and NumPy's rules hold (negative
    and repeated indices, masks, mixed keys)."""
    rng = np.random.default_rng(5)
    e = rng.standard_normal((6, 7)).astype(np.float32)
    a = put(e, device)
    for _ in range(3):
        b = a * 2.0  # pending, then read through an index
        idx = np.array([0, -1, 2, 2])
        check(b[idx], (e * 2.0)[idx])
        check(b[put(idx, device), 1:5], (e * 2.0)[idx, 1:5])
        before = a + 1.0  # a pending read of a, then a write into a
        a[a > 0.5] = 0.25
        e_before = e + 1.0
        e[e > 0.5] = 0.25
        check(before, e_before)
        check(a, e)
        a[[1, 1, 3], 2] = put(np.array([7.0, 8.0, 9.0], np.float32), device)
        e[[1, 1, 3], 2] = [7.0, 8.0, 9.0]
        check(a, e)
    with pytest.raises(IndexError):
        a[[9]]


def test_jit_assigned_argument_is_not_saved(device, tmp_path):
    """A saved program writes none of its arguments: a function assigning
    into one is refused with a hint (the jitted call writes it)."""

    @sluice.jit
    def f(u):
        u[0] = 1.0
        return u * 2.0

    a = put(np.zeros((2, 3), np.float32), device)
    with pytest.raises(ValueError, match="assigns into its arguments"):
        f.lower(a).save(tmp_path / "f.so")
    check(f(a), np.array([[2, 2, 2], [0, 0, 0]], np.float32))
    check(a, np.array([[1, 1, 1], [0, 0, 0]], np.float32))
