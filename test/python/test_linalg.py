"""Products and sluice.linalg against NumPy: batched, broadcast, empty,
non-contiguous, float32/float64 and integers, eager and inside
@sluice.jit, on every device; LAPACK functions on the host device and a
clean error elsewhere."""

import numpy as np
import pytest

import sluice
import sluice.linalg as sla

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

RNG = np.random.default_rng(21)


def _data(shape, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return RNG.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        return RNG.integers(0 if dt.kind == "u" else -5, 6, shape).astype(dt)
    return RNG.uniform(-1, 1, shape).astype(dt)


def _float_dtypes(device):
    return ["float32"] + (["float64"] if device.has_aspect_fp64 else [])


def _tol(dtype):
    return (
        dict(rtol=1e-4, atol=1e-4)
        if np.dtype(dtype) in (np.float32, np.float16)
        else dict(rtol=1e-10, atol=1e-10)
    )


def _check(r, expected, dtype=None):
    got = sluice.asnumpy(r)
    expected = np.asarray(expected)
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype
    if got.dtype.kind == "f":
        np.testing.assert_allclose(got, expected, **_tol(got.dtype))
    else:
        np.testing.assert_array_equal(got, expected)


def _on_host(device):
    return device.backend.name == "host"


# --- products ----------------------------------------------------------------

MATMUL_SHAPES = [
    ((3, 4), (4, 5)),  # matrix
    ((4,), (4, 5)),  # vector @ matrix
    ((3, 4), (4,)),  # matrix @ vector
    ((4,), (4,)),  # inner product
    ((2, 3, 4), (4, 5)),  # batched, broadcast b
    ((2, 1, 3, 4), (5, 4, 2)),  # batch dimensions broadcast
    ((0, 4), (4, 5)),  # empty rows
    ((3, 0), (0, 5)),  # empty contraction: zeros
]


@pytest.mark.parametrize("sa,sb", MATMUL_SHAPES)
def test_matmul_shapes(device, sa, sb):
    a, b = _data(sa, "float32"), _data(sb, "float32")
    x = sluice.asarray(a, device=device)
    y = sluice.asarray(b, device=device)
    _check(x @ y, a @ b)


def test_device_matmul_route(device, monkeypatch):
    # On CUDA, a product of two arrays of one floating dtype with equal
    # batch axes goes straight to the compiled product once one was made
    # (_products._device_matmul); here the route is taken on this device
    # by calling it CUDA. Shapes and dtypes it must leave to the general
    # path give the general path's results and errors.
    from sluice import _products

    if _on_host(device):
        pytest.skip("host products go through NumPy's BLAS")
    monkeypatch.setattr(_products, "_backend", lambda qid: "cuda")
    monkeypatch.setattr(_products, "_contract_jit", {})
    taken = []
    route = _products._device_matmul
    monkeypatch.setattr(
        _products,
        "_device_matmul",
        lambda a, b: taken.append(route(a, b) is not None) or route(a, b),
    )
    for sa, sb in [((3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5))] * 2 + [
        ((2, 3, 4), (4, 5)),
        ((4,), (4, 5)),
        ((3, 4), (4,)),
        ((3, 0), (0, 5)),
    ]:
        a, b = _data(sa, "float32"), _data(sb, "float32")
        x = sluice.asarray(a, device=device)
        y = sluice.asarray(b, device=device)
        _check(x @ y, a @ b)
    assert taken == [False, True, True, True, False, False, False, False]
    x = sluice.asarray(_data((2, 3, 4), "float32"), device=device)
    y = sluice.asarray(_data((2, 5, 5), "float32"), device=device)
    with pytest.raises(ValueError, match="core dimension"):
        x @ y


def test_matmul_dtypes(device):
    for dt in _float_dtypes(device) + ["int32", "int64", "uint8", "bool"]:
        a, b = _data((3, 7), dt), _data((7, 2), dt)
        _check(
            sluice.matmul(
                sluice.asarray(a, device=device),
                sluice.asarray(b, device=device),
            ),
            a @ b,
        )
    a = _data((3, 7), "int32")
    b = _data((7, 2), "float32")
    _check(
        sluice.asarray(a, device=device) @ sluice.asarray(b, device=device),
        a @ b,
    )


def test_matmul_noncontiguous(device):
    a = _data((6, 8), "float32")
    b = _data((5, 8), "float32")
    x = sluice.asarray(a, device=device)
    y = sluice.asarray(b, device=device)
    _check(x[::2, 1:] @ y[:, 1:].T, a[::2, 1:] @ b[:, 1:].T)


def test_matmul_errors_and_out(device):
    x = sluice.asarray(_data((3, 4), "float32"), device=device)
    with pytest.raises(ValueError, match="mismatch"):
        x @ x
    with pytest.raises(ValueError):
        sluice.matmul(x, 2.0)
    out = sluice.empty((3, 3), dtype="float32", device=device)
    r = sluice.matmul(x, x.T, out=out)
    assert r is out
    a = sluice.asnumpy(x)
    _check(out, a @ a.T)
    with pytest.raises(ValueError, match="shape"):
        sluice.matmul(
            x, x.T, out=sluice.empty((2, 3), dtype="float32", device=device)
        )
    other = "host" if not _on_host(device) else "opencl:cpu:0"
    if (
        other in {d.filter_string.split(":")[0] for d in sluice.get_devices()}
        or other == "host"
    ):
        y = sluice.asarray(a.T.copy(), device=other)
        with pytest.raises(sluice.ExecutionPlacementError):
            x @ y


def test_imatmul(device):
    a = _data((4, 4), "float32")
    b = _data((4, 4), "float32")
    x = sluice.asarray(a, device=device)
    y = sluice.asarray(b, device=device)
    x @= y
    _check(x, a @ b)
    z = sluice.asarray(_data((4, 2), "float32"), device=device)
    with pytest.raises(ValueError):
        x @= z


def test_products(device):
    a = _data((2, 3, 4), "float32")
    b = _data((4, 5), "float32")
    v = _data((4,), "float32")
    c = _data((5, 3), "float32")
    x, y, w, z = (sluice.asarray(t, device=device) for t in (a, b, v, c))
    _check(sluice.dot(x, y), np.dot(a, b))
    _check(sluice.dot(w, w), np.dot(v, v))
    _check(sluice.dot(x, 2.0), np.dot(a, np.float32(2.0)))
    at = a.transpose(0, 2, 1).copy()
    _check(sluice.dot(x, sluice.asarray(at, device=device)), np.dot(a, at))
    _check(sluice.vdot(x, x), np.vdot(a, a))
    _check(sluice.inner(x, w), np.inner(a, v))
    _check(sluice.outer(w, y), np.outer(v, b))
    _check(
        sluice.tensordot(x, x, axes=([1, 2], [1, 2])),
        np.tensordot(a, a, axes=([1, 2], [1, 2])),
    )
    _check(sluice.tensordot(y, z, axes=1), np.tensordot(b, c, axes=1))
    _check(sluice.kron(y, z), np.kron(b, c))
    _check(sluice.vecdot(x, w), np.sum(a * v, axis=-1))
    _check(sluice.linalg.vecdot(x, x, axis=1), np.sum(a * a, axis=1))
    sq = _data((4, 4), "float32")
    s = sluice.asarray(sq, device=device)
    for n in (0, 1, 2, 5):
        _check(sluice.matrix_power(s, n), np.linalg.matrix_power(sq, n))
    _check(sla.multi_dot([w, y, z]), np.linalg.multi_dot([v, b, c]))
    _check(
        sla.multi_dot([y, z, sluice.asarray(a[0], device=device)]),
        np.linalg.multi_dot([b, c, a[0]]),
    )


EINSUMS = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]),
    ("i,i", [(4,), (4,)]),
    ("ij->ji", [(3, 4)]),
    ("ii->i", [(4, 4)]),
    ("ii", [(4, 4)]),
    ("ij,ij->i", [(3, 4), (3, 4)]),
    ("...ij,...jk", [(2, 3, 4), (4, 5)]),
    ("i,j->ij", [(3,), (4,)]),
    ("ijk->k", [(2, 3, 4)]),
]


@pytest.mark.parametrize("spec,shapes", EINSUMS)
def test_einsum(device, spec, shapes):
    arrs = [_data(s, "float32") for s in shapes]
    xs = [sluice.asarray(a, device=device) for a in arrs]
    _check(sluice.einsum(spec, *xs), np.einsum(spec, *arrs))


def test_einsum_interleaved(device):
    # NumPy's interleaved form: operands with sublists of integers and
    # Ellipsis, and an optional output sublist.
    a = _data((2, 3, 4), "float32")
    b = _data((4, 5), "float32")
    xa, xb = (sluice.asarray(v, device=device) for v in (a, b))
    _check(
        sluice.einsum(xa, [0, 1, 2], xb, [2, 3], [0, 3, 1]),
        np.einsum(a, [0, 1, 2], b, [2, 3], [0, 3, 1]),
    )
    _check(
        sluice.einsum(xa, [Ellipsis, 2], xb, [2, 3]),
        np.einsum(a, [Ellipsis, 2], b, [2, 3]),
    )
    _check(
        sluice.jit(lambda x: sluice.einsum(x, [0, 1, 2], [2, 0]))(xa),
        np.einsum(a, [0, 1, 2], [2, 0]),
    )
    with pytest.raises(ValueError, match="outside"):
        sluice.einsum(xb, [0, 99])
    with pytest.raises(TypeError, match="integers and Ellipsis"):
        sluice.einsum(xb, ["i", "j"])


def test_einsum_order():
    # The chain is contracted where the intermediates are small.
    path, _ = sluice.einsum_path(
        "ij,jk,kl->il",
        np.zeros((100, 2)),
        np.zeros((2, 100)),
        np.zeros((100, 3)),
    )
    assert path == ["einsum_path", (1, 2), (0, 1)]


# --- fusion inside @sluice.jit -----------------------------------------------


def test_jit_fused_epilogue_and_prologue(device):
    a = _data((8, 6), "float32")
    b = _data((6, 5), "float32")
    bias = _data((5,), "float32")
    mu = _data((6,), "float32")
    x, y, c, m = (sluice.asarray(t, device=device) for t in (a, b, bias, mu))

    @sluice.jit
    def layer(x, w, bias):
        return sluice.maximum(x @ w + bias, 0)

    @sluice.jit
    def centred(x, mu, w):
        return (x - mu) @ w

    _check(layer(x, y, c), np.maximum(a @ b + bias, 0))
    _check(centred(x, m, y), (a - mu) @ b)
    report = layer.lower(x, y, c).fusion_report()
    assert "usm.mul, usm.sum, usm.add, usm.maximum" in report


def test_jit_pairwise_distances(device):
    p = _data((7, 3), "float32")
    q = _data((5, 3), "float32")
    x1, x2 = sluice.asarray(p, device=device), sluice.asarray(q, device=device)

    @sluice.jit
    def dist(x1, x2):
        s1 = sluice.sum(x1 * x1, axis=1)
        s2 = sluice.sum(x2 * x2, axis=1)
        d2 = s1[:, None] + s2 - 2 * x1 @ x2.T
        return sluice.sqrt(sluice.maximum(d2, 0))

    ref = np.sqrt(
        np.maximum((p * p).sum(1)[:, None] + (q * q).sum(1) - 2 * p @ q.T, 0)
    )
    _check(dist(x1, x2), ref)


def test_jit_products(device):
    a = _data((3, 4), "float32")
    b = _data((4, 4), "float32")
    x, y = sluice.asarray(a, device=device), sluice.asarray(b, device=device)

    @sluice.jit
    def f(x, y):
        return (
            sluice.einsum("ij,jk->ik", x, y),
            sluice.tensordot(x, y, 1),
            sla.trace(y),
            sla.vector_norm(x, axis=1),
            sluice.matrix_power(y, 3),
        )

    r = f(x, y)
    _check(r[0], a @ b)
    _check(r[1], a @ b)
    _check(r[2], np.trace(b))
    _check(r[3], np.linalg.norm(a, axis=1))
    _check(r[4], np.linalg.matrix_power(b, 3))


# --- sluice.linalg on every device -------------------------------------------


def test_norms_trace_diagonal_cross(device):
    for dt in _float_dtypes(device):
        a = _data((2, 3, 4), dt)
        x = sluice.asarray(a, device=device)
        _check(sla.norm(x), np.linalg.norm(a))
        _check(sla.norm(x, axis=-1), np.linalg.norm(a, axis=-1))
        _check(
            sla.norm(x, ord=1, axis=(1, 2)),
            np.linalg.norm(a, ord=1, axis=(1, 2)),
        )
        for o in (1, 2, np.inf, -np.inf, 0, 3):
            _check(
                sla.vector_norm(x, axis=1, ord=o),
                np.linalg.vector_norm(a, axis=1, ord=o),
            )
        _check(
            sla.vector_norm(x, keepdims=True),
            np.linalg.vector_norm(a, keepdims=True),
        )
        for o in ("fro", 1, -1, np.inf, -np.inf):
            _check(sla.matrix_norm(x, ord=o), np.linalg.matrix_norm(a, ord=o))
        _check(sla.trace(x), np.linalg.trace(a))
        _check(sla.trace(x, offset=1), np.linalg.trace(a, offset=1))
        _check(sla.diagonal(x, offset=-1), np.linalg.diagonal(a, offset=-1))
        b = _data((4, 3), dt)
        _check(
            sla.cross(
                sluice.asarray(a[:, :, :3], device=device),
                sluice.asarray(b[:3], device=device),
            ),
            np.cross(a[:, :, :3], b[:3]),
        )
    ai = _data((3, 3), "int32")
    _check(sla.trace(sluice.asarray(ai, device=device)), np.trace(ai))


# --- LAPACK: the host device -------------------------------------------------


def _spd(n, dt, batch=()):
    m = _data(batch + (n, n), dt)
    return (m @ np.swapaxes(m, -1, -2) + n * np.eye(n)).astype(dt)


def test_lapack(device):
    """LAPACK on the host device, the generated kernels elsewhere
    (test_linalg_solvers.py tests those further)."""
    if not _on_host(device):
        # eig of general matrices too (test_linalg_eig.py tests it)
        x = sluice.asarray(np.eye(3, dtype=np.complex64), device=device)
        w = sluice.asnumpy(sla.eigvals(x))
        np.testing.assert_allclose(w, np.ones(3), atol=1e-6)
    for dt in _float_dtypes(device):
        a = _spd(4, dt, (2,))
        b = _data((2, 4, 3), dt)
        x = sluice.asarray(a, device=device)
        y = sluice.asarray(b, device=device)
        _check(sla.det(x), np.linalg.det(a))
        s = sla.slogdet(x)
        e = np.linalg.slogdet(a)
        _check(s.sign, e.sign)
        _check(s.logabsdet, e.logabsdet)
        _check(sla.inv(x), np.linalg.inv(a))
        _check(sla.solve(x, y), np.linalg.solve(a, b))
        _check(sla.cholesky(x), np.linalg.cholesky(a))
        _check(
            sla.cholesky(x, upper=True),
            np.swapaxes(np.linalg.cholesky(a), -1, -2),
        )
        _check(sla.eigvalsh(x), np.linalg.eigvalsh(a))
        w, v = sla.eigh(x)
        _check(w, np.linalg.eigh(a).eigenvalues)
        _check(sla.svdvals(x), np.linalg.svdvals(a))
        u, sv, vh = sla.svd(x)
        _check(u @ (sv[..., :, None] * vh), a)
        q, r = sla.qr(x)
        _check(q @ r, a)
        _check(sla.pinv(x), np.linalg.pinv(a))
        _check(sla.matrix_rank(x), np.linalg.matrix_rank(a))
        _check(sla.cond(x), np.linalg.cond(a))
        if _on_host(device):  # NumPy's LAPACK, so NumPy's dtype
            _check(sla.eigvals(x), np.linalg.eigvals(a))
        _check(sla.matrix_norm(x, ord=2), np.linalg.matrix_norm(a, ord=2))
        m = _data((5, 3), dt)
        rhs = _data((5,), dt)
        sol = sla.lstsq(
            sluice.asarray(m, device=device),
            sluice.asarray(rhs, device=device),
        )
        _check(sol[0], np.linalg.lstsq(m, rhs)[0])
        _check(
            sluice.matrix_power(sluice.asarray(a[0], device=device), -2),
            np.linalg.matrix_power(a[0], -2),
        )
    t = np.eye(6).reshape(6, 2, 3) * 2.0
    _check(
        sla.tensorinv(sluice.asarray(t, device=device), ind=1),
        np.linalg.tensorinv(t, ind=1),
    )
    tb = _data((6,), "float64")
    _check(
        sla.tensorsolve(
            sluice.asarray(t, device=device), sluice.asarray(tb, device=device)
        ),
        np.linalg.tensorsolve(t, tb),
    )


def test_lapack_errors(device):
    singular = sluice.asarray(np.ones((3, 3)), device=device)
    with pytest.raises(sla.LinAlgError):
        sla.inv(singular)
    with pytest.raises(np.linalg.LinAlgError):
        sla.solve(singular, singular)
    with pytest.raises(sla.LinAlgError):
        sla.cholesky(sluice.asarray(-np.eye(3), device=device))
    if _on_host(device):  # complex eigenvalues, as NumPy's
        rot = np.array([[0.0, -1.0], [1.0, 0.0]])
        _check(
            sla.eigvals(sluice.asarray(rot, device=device)),
            np.linalg.eigvals(rot),
        )

    # Inside @sluice.jit, inv is a step that runs on the concrete matrix:
    # a singular one raises LinAlgError from the call.
    @sluice.jit
    def f(x):
        return sla.inv(x)

    with pytest.raises(np.linalg.LinAlgError):
        f(singular)


def test_precision_switch(monkeypatch):
    from sluice import _products

    monkeypatch.setattr(_products, "_precision", None)
    monkeypatch.setenv("SLUICE_MATMUL_PRECISION", "tf32")
    assert sluice.get_matmul_precision() == "tf32"
    sluice.set_matmul_precision("highest")
    assert sluice.get_matmul_precision() == "highest"
    with pytest.raises(ValueError, match="expected"):
        sluice.set_matmul_precision("fast")


@pytest.mark.parametrize(
    "sa,sb",
    [
        ((5,), (5,)),
        ((3, 5), (5,)),
        ((5,), (5, 4)),
        ((3, 5), (5, 4)),
        ((0, 5), (5, 4)),
        ((3, 0), (0, 4)),
    ],
)
def test_vector_and_matrix_products_of_one_dtype(device, sa, sb):
    """Vectors and matrices of one floating dtype (on the host: NumPy's
    BLAS on views, straight into the result) give NumPy's shapes, dtypes
    and values through @, matmul and dot, with out= too."""
    rng = np.random.default_rng(0)
    for dt in (np.float32, np.complex64):
        a_np = (rng.random(sa) + (1j if dt == np.complex64 else 0)).astype(dt)
        b_np = rng.random(sb).astype(dt)
        a = sluice.asarray(a_np, device=device)
        b = sluice.asarray(b_np, device=device)
        want = a_np @ b_np
        for f in (lambda x, y: x @ y, sluice.matmul, sluice.dot):
            got = f(a, b)
            assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_allclose(sluice.asnumpy(got), want, rtol=1e-5)
        if want.ndim:
            out = sluice.empty(want.shape, dtype=dt, device=device)
            assert sluice.matmul(a, b, out=out) is out
            np.testing.assert_allclose(sluice.asnumpy(out), want, rtol=1e-5)
    with pytest.raises(ValueError, match="mismatch"):
        sluice.ones((3, 4), device=device) @ sluice.ones((5, 2), device=device)


def _cdata(shape, dtype):
    re = RNG.uniform(-1, 1, shape)
    return (re + 1j * RNG.uniform(-1, 1, shape)).astype(dtype)


def test_complex_vdot_conjugates_the_first_operand(device):
    # NumPy's vdot is sum(conj(a) * b) over the flattened operands.
    for dt in ("complex64", "complex128"):
        if dt == "complex128" and not device.has_aspect_fp64:
            continue
        a, b = _cdata((3, 4), dt), _cdata((4, 3), dt)
        x = sluice.asarray(a, device=device)
        y = sluice.asarray(b, device=device)
        got = sluice.asnumpy(sluice.vdot(x, y))
        np.testing.assert_allclose(got, np.vdot(a, b), rtol=1e-5)
        assert got.dtype == np.vdot(a, b).dtype
        got = sluice.asnumpy(sluice.vdot(x[:, ::2], y[::2]))
        np.testing.assert_allclose(got, np.vdot(a[:, ::2], b[::2]), rtol=1e-5)

        @sluice.jit
        def f(x, y):
            return sluice.vdot(x, y)

        np.testing.assert_allclose(
            sluice.asnumpy(f(x, y)), np.vdot(a, b), rtol=1e-5
        )


def test_vecdot_out(device):
    a, b = _data((2, 3, 4), "float32"), _data((3, 4), "float32")
    x = sluice.asarray(a, device=device)
    y = sluice.asarray(b, device=device)
    out = sluice.empty((2, 3), dtype="float32", device=device)
    assert sluice.vecdot(x, y, out=out) is out
    _check(out, np.vecdot(a, b))
    with pytest.raises(ValueError, match="shape"):
        sluice.vecdot(x, y, out=sluice.empty((3,), device=device))


def test_imatmul_and_out_inside_jit(device):
    a, b = _data((3, 4), "float32"), _data((4, 4), "float32")
    x = sluice.asarray(a, device=device)
    y = sluice.asarray(b, device=device)

    @sluice.jit
    def f(x, y):
        x @= y
        return x

    @sluice.jit
    def g(x, y, o):
        sluice.matmul(x, y, out=o)
        return o * 2

    # An argument assigned into is written, as NumPy's x @= y and out=
    # write theirs (docs/python.md: assignment inside @sluice.jit).
    _check(f(x, y), a @ b)
    _check(x, a @ b)
    x = sluice.asarray(a, device=device)
    o = sluice.zeros((3, 4), dtype="float32", device=device)
    _check(g(x, y, o), 2 * (a @ b))
    _check(o, a @ b)


def test_shape_errors_are_linalg_errors(device):
    # NumPy raises LinAlgError (a ValueError) for these.
    x = sluice.asarray(np.ones((3, 4)), device=device)
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        sluice.matrix_power(x, 2)
    with pytest.raises(np.linalg.LinAlgError, match="two-dimensional"):
        sla.multi_dot([x, sluice.ones((4, 2, 2), device=device), x])
    with pytest.raises(np.exceptions.AxisError):
        sla.matrix_norm(sluice.ones((3,), device=device))
