"""Array manipulation against NumPy, per device."""

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
    if isinstance(e, (list, tuple)):
        assert len(r) == len(e)
        for x, y in zip(r, e):
            check(x, y)
        return
    r = sluice.asnumpy(r)
    e = np.asarray(e)
    assert r.shape == e.shape, (r.shape, e.shape)
    assert r.dtype == e.dtype, (r.dtype, e.dtype)
    np.testing.assert_array_equal(r, e)


X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
Y = np.arange(6, dtype=np.int32).reshape(2, 3)


def test_joining(device):
    a, b = put(X, device), put(X[:, :2] * 2, device)
    check(
        sluice.concatenate([a, b], axis=1),
        np.concatenate([X, X[:, :2] * 2], axis=1),
    )
    check(
        sluice.concatenate([a, a], axis=None),
        np.concatenate([X, X], axis=None),
    )
    check(sluice.concat([a, a], axis=-1), np.concatenate([X, X], axis=-1))
    y = put(Y, device)
    check(
        sluice.concatenate([y, put(Y.astype(np.float32), device)]),
        np.concatenate([Y, Y.astype(np.float32)]),
    )
    check(sluice.stack([y, y], axis=2), np.stack([Y, Y], axis=2))
    check(sluice.hstack([y, y]), np.hstack([Y, Y]))
    check(sluice.vstack([y[0], y[1]]), np.vstack([Y[0], Y[1]]))
    check(sluice.dstack([y, y]), np.dstack([Y, Y]))
    check(sluice.column_stack([y[0], y[1]]), np.column_stack([Y[0], Y[1]]))
    with pytest.raises(ValueError, match="must match exactly"):
        sluice.concatenate([a, y])
    with pytest.raises(ValueError, match="zero-dimensional"):
        sluice.concatenate([put(np.float32(1), device)])
    with pytest.raises(TypeError, match="Cannot cast"):
        sluice.concatenate([a, a], dtype=np.int32)


def test_splitting(device):
    a = put(X, device)
    check(sluice.split(a, 2, axis=2), np.split(X, 2, axis=2))
    check(sluice.split(a, [1, 3], axis=2), np.split(X, [1, 3], axis=2))
    check(sluice.array_split(a, 3, axis=2), np.array_split(X, 3, axis=2))
    check(sluice.hsplit(a, 3), np.hsplit(X, 3))
    check(sluice.vsplit(a, 2), np.vsplit(X, 2))
    check(sluice.dsplit(a, [3]), np.dsplit(X, [3]))
    check(sluice.unstack(a, axis=1), tuple(X[:, i] for i in range(3)))
    with pytest.raises(ValueError, match="equal division"):
        sluice.split(a, 3, axis=2)


def test_rearranging(device):
    a = put(X, device)
    check(sluice.flip(a), np.flip(X))
    check(sluice.flip(a, (0, 2)), np.flip(X, (0, 2)))
    check(sluice.fliplr(a), np.fliplr(X))
    check(sluice.flipud(a), np.flipud(X))
    for shift, axis in [
        (1, None),
        (-5, None),
        (2, 1),
        ((1, -1), (0, 2)),
        ((1, 2), 2),
    ]:
        check(sluice.roll(a, shift, axis), np.roll(X, shift, axis))
    for k in range(-1, 4):
        check(sluice.rot90(a, k), np.rot90(X, k))
    check(sluice.rot90(a, 1, (2, 0)), np.rot90(X, 1, (2, 0)))
    check(sluice.moveaxis(a, 0, -1), np.moveaxis(X, 0, -1))
    check(sluice.moveaxis(a, (0, 1), (2, 0)), np.moveaxis(X, (0, 1), (2, 0)))
    check(sluice.rollaxis(a, 2), np.rollaxis(X, 2))
    check(sluice.rollaxis(a, 0, 2), np.rollaxis(X, 0, 2))
    check(
        sluice.atleast_1d(put(np.float32(3), device)),
        np.atleast_1d(np.float32(3)),
    )
    check(sluice.atleast_2d(put(X[0, 0], device)), np.atleast_2d(X[0, 0]))
    check(sluice.atleast_3d(put(X[0], device)), np.atleast_3d(X[0]))
    check(sluice.atleast_3d(put(X[0, 0], device)), np.atleast_3d(X[0, 0]))
    check(sluice.ravel(a[:, ::-1]), np.ravel(X[:, ::-1]))
    check(a[:, 1].flatten(), X[:, 1].flatten())


def test_tile_repeat_resize(device):
    y = put(Y, device)
    for reps in (2, (2, 1), (1, 2, 3), 0):
        check(sluice.tile(y, reps), np.tile(Y, reps))
    check(sluice.repeat(y, 2), np.repeat(Y, 2))
    check(sluice.repeat(y, 3, axis=1), np.repeat(Y, 3, axis=1))
    check(sluice.repeat(y, [1, 0, 2], axis=1), np.repeat(Y, [1, 0, 2], axis=1))
    check(y.repeat(2, axis=0), Y.repeat(2, axis=0))
    check(sluice.resize(y, (4, 4)), np.resize(Y, (4, 4)))
    check(sluice.resize(y, 3), np.resize(Y, 3))
    with pytest.raises(ValueError, match="negative"):
        sluice.repeat(y, -1)


@pytest.mark.parametrize(
    "mode", ["constant", "edge", "reflect", "symmetric", "wrap"]
)
def test_pad(device, mode):
    y = put(Y, device)
    for pw in (1, (1, 2), ((0, 1), (2, 0))):
        check(sluice.pad(y, pw, mode=mode), np.pad(Y, pw, mode=mode))
    if mode == "constant":
        check(
            sluice.pad(y, ((1, 2), (2, 1)), constant_values=((5, 6), (7, 8))),
            np.pad(Y, ((1, 2), (2, 1)), constant_values=((5, 6), (7, 8))),
        )


def test_trim_meshgrid_grids(device):
    z = np.array([0, 0, 1, 2, 0, 3, 0], np.int32)
    check(sluice.trim_zeros(put(z, device)), np.trim_zeros(z))
    check(sluice.trim_zeros(put(z, device), "b"), np.trim_zeros(z, "b"))
    check(
        sluice.trim_zeros(put(np.zeros(3, np.int32), device)),
        np.trim_zeros(np.zeros(3, np.int32)),
    )
    u = np.arange(3, dtype=np.float32)
    v = np.arange(2, dtype=np.float32) * 10
    for kw in ({}, {"indexing": "ij"}, {"sparse": True}):
        check(
            sluice.meshgrid(put(u, device), put(v, device), **kw),
            np.meshgrid(u, v, **kw),
        )


def test_mgrid_ogrid():
    check(sluice.mgrid[0:3, 1:5:2], np.mgrid[0:3, 1:5:2])
    check(sluice.mgrid[0:4], np.mgrid[0:4])
    r = sluice.mgrid[0:1:5j]
    np.testing.assert_allclose(sluice.asnumpy(r), np.mgrid[0:1:5j], rtol=1e-6)
    for r, e in zip(sluice.ogrid[0:3, 0:2], np.ogrid[0:3, 0:2]):
        check(r, e)


def test_triangles_diagonals(device):
    m = np.arange(20, dtype=np.float32).reshape(4, 5)
    a = put(m, device)
    for k in (-2, 0, 1, 7):
        check(sluice.tril(a, k), np.tril(m, k))
        check(sluice.triu(a, k), np.triu(m, k))
        check(sluice.diagonal(a, k), np.diagonal(m, k))
        check(sluice.diag(a, k), np.diag(m, k))
    x = put(X, device)
    check(sluice.diagonal(x, 1, 2, 0), np.diagonal(X, 1, 2, 0))
    check(sluice.tril(x), np.tril(X))
    v = put(np.arange(1, 4, dtype=np.float32), device)
    for k in (-1, 0, 2):
        check(sluice.diag(v, k), np.diag(np.arange(1, 4, dtype=np.float32), k))
    check(sluice.diagflat(put(Y, device), 1), np.diagflat(Y, 1))
    check(sluice.trace(a), np.trace(m))
    check(sluice.trace(x, 1, 1, 2), np.trace(X, 1, 1, 2))
    check(a.diagonal(), m.diagonal())
    with pytest.raises(ValueError):
        sluice.diagonal(v)


def test_copyto(device):
    e = np.zeros((2, 3), np.float32)
    d = put(e, device)
    sluice.copyto(d, put(np.arange(3, dtype=np.float32), device))
    np.copyto(e, np.arange(3, dtype=np.float32))
    check(d, e)
    w = np.array([True, False, True])
    sluice.copyto(d, put(np.float32(9), device), where=put(w, device))
    np.copyto(e, np.float32(9), where=w)
    check(d, e)
    with pytest.raises(TypeError, match="Cannot cast"):
        sluice.copyto(put(Y, device), d)


@SETTINGS
@given(data=st.data())
def test_concat_flip_roll_hypothesis(device, data):
    nd = data.draw(st.integers(1, 3))
    shape = data.draw(st.lists(st.integers(0, 4), min_size=nd, max_size=nd))
    x = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    a = put(x, device)
    axis = data.draw(st.integers(-nd, nd - 1))
    check(
        sluice.concatenate([a, a[::-1]], axis=axis),
        np.concatenate([x, x[::-1]], axis=axis),
    )
    check(sluice.flip(a, axis), np.flip(x, axis))
    shift = data.draw(st.integers(-6, 6))
    check(sluice.roll(a, shift, axis), np.roll(x, shift, axis))


def test_jit_manipulation(device):
    @sluice.jit
    def f(x):
        return (
            sluice.concatenate([x, x[::-1]], axis=1),
            sluice.flip(x),
            sluice.roll(x, 2, axis=1),
            sluice.tril(x, -1),
            sluice.pad(x, 1),
            sluice.pad(x, (1, 2), mode="edge"),
            sluice.diagonal(x),
            sluice.stack([x, x]),
            sluice.tile(x, 2),
            sluice.repeat(x, 2, axis=0),
            sluice.split(x, 2, axis=1)[1],
        )

    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    expected = (
        np.concatenate([x, x[::-1]], axis=1),
        np.flip(x),
        np.roll(x, 2, axis=1),
        np.tril(x, -1),
        np.pad(x, 1),
        np.pad(x, (1, 2), mode="edge"),
        np.diagonal(x),
        np.stack([x, x]),
        np.tile(x, 2),
        np.repeat(x, 2, axis=0),
        np.split(x, 2, axis=1)[1],
    )
    for r, e in zip(f(put(x, device)), expected):
        check(r, e)


# Reshaping a view gives a view wherever NumPy's does (the strides allow
# it), and a copy elsewhere: an update of the base afterwards shows through
# the result exactly where it does in NumPy.
_VIEWS = {
    "rev": lambda x: x[::-1],
    "T": lambda x: x.reshape(4, 6).T,
    "cols": lambda x: x.reshape(4, 6)[:, ::2],
    "inner": lambda x: x.reshape(4, 6)[:, 1:5],
    "rows": lambda x: x.reshape(4, 6)[1:3],
    "rev3": lambda x: x.reshape(2, 3, 4)[:, :, ::-1],
    "step": lambda x: x[::3],
}


@SETTINGS
@given(
    view=st.sampled_from(sorted(_VIEWS)),
    split=st.lists(st.sampled_from([1, 2, 3, 4, 6, -1]), max_size=4),
)
def test_reshape_of_views_aliases_as_numpy(device, view, split):
    n = np.arange(24, dtype=np.float32)
    s = put(n, device)
    vn, vs = _VIEWS[view](n), _VIEWS[view](s)
    try:
        rn = vn.reshape(split or [-1])
    except ValueError:
        with pytest.raises(ValueError):
            vs.reshape(split or [-1])
        return
    rs = vs.reshape(split or [-1])
    check(rs, rn)
    is_view = np.shares_memory(rn, n)
    if not is_view:
        with pytest.raises(ValueError, match="without a copy"):
            vs.reshape(split or [-1], copy=False)
    n += 1
    s += 1
    check(rs, rn)  # changed through the base exactly where NumPy's is
