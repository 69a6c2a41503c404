"""sluice.linalg's factorisations and solvers on the array's own device:
the generated kernels of _linalg_kernels.py (LU, Cholesky, Householder QR,
Jacobi eigh, one-sided Jacobi SVD) and the functions built on them,
against NumPy, on every device. On the host device, which calls LAPACK
by default, the kernels are tested too (``_kernels_on_host``). Results
whose signs NumPy leaves to LAPACK are checked by invariants
(reconstruction, orthonormality)."""

import numpy as np
import pytest

import sluice
import sluice.linalg as sla
from sluice import kernel_api as kapi

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

RNG = np.random.default_rng(2121)


@pytest.fixture(autouse=True)
def kernels_everywhere(monkeypatch):
    monkeypatch.setattr(sla, "_kernels_on_host", True)


def _dtypes(device):
    # On the host device (where LAPACK serves by default) one precision
    # keeps the kernels' compile time down; the others run both.
    if device.backend.name == "host":
        return ["float64"]
    return ["float32"] + (["float64"] if device.has_aspect_fp64 else [])


def _tol(dt):
    return 2e-4 if np.dtype(dt) == np.float32 else 1e-10


def _close(got, want, dt, scale=1.0):
    got = sluice.asnumpy(got) if not isinstance(got, np.ndarray) else got
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    t = _tol(dt) * scale
    np.testing.assert_allclose(got, want, rtol=t, atol=t)


def _orthonormal(q, dt, axis=-2):
    q = sluice.asnumpy(q)
    g = (
        np.swapaxes(q, -1, -2) @ q
        if axis == -2
        else q @ np.swapaxes(q, -1, -2)
    )
    _close(g, np.broadcast_to(np.eye(g.shape[-1]), g.shape), dt, 10)


def _a(device, arr):
    return sluice.asarray(arr, device=device)


def _spd(shape, dt):
    m = RNG.uniform(-1, 1, shape)
    n = shape[-1]
    return (m @ np.swapaxes(m, -1, -2) + n * np.eye(n)).astype(dt)


def test_lu_family(device):
    for dt in _dtypes(device):
        a = RNG.uniform(-1, 1, (2, 3, 5, 5)).astype(dt)
        b = RNG.uniform(-1, 1, (2, 3, 5, 2)).astype(dt)
        x, y = _a(device, a), _a(device, b)
        _close(sla.det(x), np.linalg.det(a), dt)
        s = sla.slogdet(x)
        e = np.linalg.slogdet(a)
        _close(s.sign, e.sign, dt)
        _close(s.logabsdet, e.logabsdet, dt)
        _close(sla.inv(x), np.linalg.inv(a), dt, 10)
        _close(sla.solve(x, y), np.linalg.solve(a, b), dt, 10)
        # a vector right-hand side, and batch axes that broadcast
        v = RNG.uniform(-1, 1, 5).astype(dt)
        _close(sla.solve(x, _a(device, v)), np.linalg.solve(a, v), dt, 10)
        bb = RNG.uniform(-1, 1, (3, 5, 4)).astype(dt)
        _close(
            sla.solve(_a(device, a[:1]), _a(device, bb)),
            np.linalg.solve(a[:1], bb),
            dt,
            10,
        )
        # larger than LU_SMALL: a workgroup per matrix
        n = sla.LU_SMALL + 4
        big = RNG.uniform(-1, 1, (2, n, n)).astype(dt) + 2 * np.eye(
            n, dtype=dt
        )
        rhs = RNG.uniform(-1, 1, (2, n, 3)).astype(dt)
        xb = _a(device, big)
        _close(
            sla.solve(xb, _a(device, rhs)), np.linalg.solve(big, rhs), dt, 10
        )
        _close(sla.slogdet(xb).logabsdet, np.linalg.slogdet(big)[1], dt, 10)
        _close(sla.det(xb), np.linalg.det(big), dt, 100)
        sing = big.copy()
        sing[1, 3] = sing[1, 5]
        with pytest.raises(sla.LinAlgError):
            sla.inv(_a(device, sing))
        # non-contiguous: a transposed view and a strided slice
        xt = sluice.matrix_transpose(x)
        _close(sla.det(xt), np.linalg.det(np.swapaxes(a, -1, -2)), dt)
        _close(
            sla.inv(x[:, ::2]),
            np.linalg.inv(a[:, ::2]),
            dt,
            10,
        )
        # integers compute in float64, as NumPy's
        if dt == "float64":
            ai = RNG.integers(-3, 4, (4, 4))
            ai[np.arange(4), np.arange(4)] += 10
            got = sla.det(_a(device, ai))
            assert got.dtype == np.float64
            _close(got, np.linalg.det(ai), dt)
        _close(
            sluice.matrix_power(x[0, 0], -2),
            np.linalg.matrix_power(a[0, 0], -2),
            dt,
            100,
        )


def test_singular_and_not_pd(device):
    ones = _a(device, np.ones((2, 3, 3)))
    with pytest.raises(sla.LinAlgError, match="Singular"):
        sla.inv(ones)
    with pytest.raises(np.linalg.LinAlgError):
        sla.solve(ones, _a(device, np.ones((2, 3, 1))))
    assert np.all(sluice.asnumpy(sla.det(ones)) == 0)
    s = sla.slogdet(ones)
    assert np.all(sluice.asnumpy(s.sign) == 0)
    assert np.all(sluice.asnumpy(s.logabsdet) == -np.inf)
    with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
        sla.cholesky(_a(device, -np.eye(3, dtype=np.float32)))
    with pytest.raises(sla.LinAlgError):
        sla.tensorinv(_a(device, np.zeros((2, 2, 4))), ind=2)
    # NumPy: cond of a singular matrix in the 1-norm is inf
    assert np.all(np.isinf(sluice.asnumpy(sla.cond(ones[0], 1))))


def test_cholesky(device):
    for dt in _dtypes(device):
        a = _spd((3, 4, 4), dt)
        # only the lower triangle is read
        junk = a + np.triu(np.full((4, 4), 7.0, dt), 1)
        x = _a(device, junk)
        want = np.linalg.cholesky(a)
        _close(sla.cholesky(x), want, dt)
        _close(sla.cholesky(x, upper=True), np.swapaxes(want, -1, -2), dt)


def test_qr_r_is_triangular_for_non_finite_input(device):
    """R is exactly upper triangular even where infs and NaNs make the
    reflectors NaN (the Array API suite checks R == triu(R))."""
    a = np.array(
        [[-np.inf, 1, 2], [1, np.nan, 4], [0, 1, 2], [1, 1, 1]], np.float64
    )
    for dt in _dtypes(device) + ["complex64"]:
        for mode in ("reduced", "complete"):
            r = sluice.asnumpy(sla.qr(_a(device, a.astype(dt)), mode=mode)[1])
            assert np.all(np.tril(r, -1) == 0), (dt, mode)


def test_qr_of_huge_and_tiny_matrices(device):
    """Matrices of 1e300s (1e37s in float32) and 1e-300s give NumPy's
    finite R and Q: the kernels see each matrix scaled by its largest
    magnitude, as LAPACK's scaled norms avoid overflow and underflow."""
    dts = _dtypes(device) + ["complex64"]
    if device.has_aspect_fp64:
        dts.append("complex128")
    for dt in dts:
        wide = np.dtype(dt) in (np.float64, np.complex128)
        for scale in (1e300, 1e-300) if wide else (1e37, 1e-37):
            a = RNG.uniform(-1, 1, (2, 4, 3))
            if np.dtype(dt).kind == "c":
                a = a + 1j * RNG.uniform(-1, 1, (2, 4, 3))
            a = (a * scale).astype(dt)
            q, r = sla.qr(_a(device, a))
            want = np.linalg.qr(a)
            rn = sluice.asnumpy(r)
            assert np.all(np.isfinite(rn)) and rn.dtype == want.R.dtype
            tol = 1e-3 if not wide else 1e-9
            np.testing.assert_allclose(rn / scale, want.R / scale, atol=tol)
            np.testing.assert_allclose(sluice.asnumpy(q), want.Q, atol=tol)


def test_qr_matches_lapack_on_structured_input(device):
    """LAPACK's reflector is the identity where a column is zero below the
    diagonal (R keeps the diagonal's sign: qr(I) is (I, I)); a NaN below
    the diagonal is not dropped; a complex element whose |x| overflows
    (both parts near the maximum) gives NumPy's -inf and a finite Q."""
    big = float(np.finfo(np.float32).max)
    cases = [
        np.eye(3),
        np.array([[-2.0, 1.0], [0.0, -3.0]]),
        np.array([[np.inf, 1.0], [0.0, 1.0]]),
        np.array([[1.0, 1.0], [np.nan, 1.0]]),
        np.array([[1.0, 1.0], [1.0, 1.0], [1.0, np.nan]]),
        np.array([[complex(big, big), 1.0]]),
        # (from the Array API suite) a column whose squares underflow
        # float32 once the matrix is scaled: LAPACK's scaled norms
        np.array([[2.220446e-16j, 0], [0, 4.294968e09j]]),
        np.array([[1e-30, 1.0], [1e-30, 2.0], [0.0, 3.0]]),
        np.array([[1.1920929e-07j, 9.007187e15j]]),  # the last phase
        np.array([[1e30, 1e-30], [1e30, 1.0]]),
    ]
    for a in cases:
        for dt in ["float32", "complex64"] + _dtypes(device):
            if np.iscomplexobj(a) and dt[0] == "f":
                continue
            x = a.astype(dt)
            q, r = sla.qr(_a(device, x))
            want = np.linalg.qr(x)
            for got, w in ((q, want.Q), (r, want.R)):
                np.testing.assert_allclose(
                    sluice.asnumpy(got), w, rtol=1e-6, atol=1e-6
                )


def test_complex_slogdet_of_huge_and_tiny_matrices(device):
    """Complex matrices of 1e300s and 1e-300s (1e30s, 1e-30s in complex64)
    give NumPy's finite log|det| and phase, not NaN or -inf from the
    kernel's squared pivots; det matches where NumPy's is finite."""
    dts = ["complex64"] + (["complex128"] if device.has_aspect_fp64 else [])
    for dt in dts:
        wide = dt == "complex128"
        for scale in (1e300, 1e-300) if wide else (1e30, 1e-30):
            a = RNG.uniform(-1, 1, (2, 3, 3)) + 1j * RNG.uniform(
                -1, 1, (2, 3, 3)
            )
            a = (a * scale + 0.0).astype(dt)
            sign, lad = sla.slogdet(_a(device, a))
            want = np.linalg.slogdet(a)
            tol = 1e-4 if not wide else 1e-10
            got = sluice.asnumpy(lad)
            assert got.dtype == want.logabsdet.dtype
            np.testing.assert_allclose(got, want.logabsdet, rtol=tol)
            np.testing.assert_allclose(
                sluice.asnumpy(sign), want.sign, atol=tol * 10
            )
    a = (RNG.uniform(-1, 1, (3, 3)) * 1e-30 + 0j).astype("complex64")
    got = sluice.asnumpy(sla.det(_a(device, a)))
    np.testing.assert_allclose(got, np.linalg.det(a), rtol=1e-4, atol=0)


@pytest.mark.parametrize("shape", [(2, 5, 5), (2, 6, 3), (2, 3, 6)])
def test_qr(device, shape):
    for dt in _dtypes(device):
        a = RNG.uniform(-1, 1, shape).astype(dt)
        x = _a(device, a)
        m, n = shape[-2:]
        k = min(m, n)
        q, r = sla.qr(x)
        assert q.shape == shape[:-2] + (m, k) and r.shape == shape[:-2] + (
            k,
            n,
        )
        _close(q @ r, a, dt, 10)
        _orthonormal(q, dt)
        rn = sluice.asnumpy(r)
        assert np.all(np.tril(rn, -1) == 0)
        # LAPACK's reflectors: NumPy's R up to rounding
        _close(r, np.linalg.qr(a).R, dt, 10)
        q, r = sla.qr(x, mode="complete")
        assert q.shape == shape[:-2] + (m, m) and r.shape == shape
        _close(q @ r, a, dt, 10)
        _orthonormal(q, dt)
        _close(sla.qr(x, mode="r"), np.linalg.qr(a, mode="r"), dt, 10)


def test_eigh(device):
    for dt in _dtypes(device):
        a = _spd((3, 6, 6), dt) - 3 * np.eye(6, dtype=dt)
        up = np.triu(a) + np.tril(np.full((6, 6), 9.0, dt), -1)
        for arr, uplo in ((a, "L"), (up, "U")):
            w, v = sla.eigh(_a(device, arr), UPLO=uplo)
            _close(w, np.linalg.eigvalsh(a), dt, 10)
            wn, vn = sluice.asnumpy(w), sluice.asnumpy(v)
            assert np.all(np.diff(wn, axis=-1) >= 0)
            _close(
                vn @ (wn[..., :, None] * np.swapaxes(vn, -1, -2)), a, dt, 10
            )
            _orthonormal(v, dt)
        _close(sla.eigvalsh(_a(device, a)), np.linalg.eigvalsh(a), dt, 10)
        # repeated eigenvalues
        _close(sla.eigvalsh(_a(device, np.eye(3, dtype=dt))), np.ones(3), dt)


@pytest.mark.parametrize("shape", [(2, 4, 4), (2, 7, 3), (2, 3, 7), (1, 5)])
def test_svd(device, shape):
    for dt in _dtypes(device):
        a = RNG.uniform(-1, 1, shape).astype(dt)
        x = _a(device, a)
        m, n = shape[-2:]
        k = min(m, n)
        want = np.linalg.svd(a, compute_uv=False)
        _close(sla.svdvals(x), want, dt, 10)
        for full in (True, False):
            u, s, vh = sla.svd(x, full_matrices=full)
            mu, nv = (m, n) if full else (k, k)
            assert u.shape == shape[:-2] + (m, mu)
            assert vh.shape == shape[:-2] + (nv, n)
            _close(s, want, dt, 10)
            un, sn, vn = (sluice.asnumpy(t) for t in (u, s, vh))
            rec = (un[..., :, :k] * sn[..., None, :]) @ vn[..., :k, :]
            _close(rec, a, dt, 10)
            _orthonormal(u, dt)
            _orthonormal(vh, dt, axis=-1)


def test_svd_rank_deficient(device):
    for dt in _dtypes(device):
        c = RNG.uniform(-1, 1, (6, 2))
        a = (c @ RNG.uniform(-1, 1, (2, 4))).astype(dt)
        a[:, 3] = 0
        x = _a(device, a)
        u, s, vh = sla.svd(x)
        _orthonormal(u, dt)  # completed past the rank
        _orthonormal(vh, dt, axis=-1)
        un, sn, vn = (sluice.asnumpy(t) for t in (u, s, vh))
        _close((un[:, :4] * sn) @ vn, a, dt, 10)
        assert int(sluice.asnumpy(sla.matrix_rank(x))) == 2
        _close(sla.pinv(x, rcond=1e-4), np.linalg.pinv(a, rcond=1e-4), dt, 100)


def test_derived(device):
    for dt in _dtypes(device):
        a = RNG.uniform(-1, 1, (2, 4, 4)).astype(dt) + 2 * np.eye(4, dtype=dt)
        x = _a(device, a)
        _close(sla.pinv(x), np.linalg.pinv(a), dt, 100)
        _close(sla.matrix_rank(x), np.linalg.matrix_rank(a), dt)
        for p in (None, 2, -2, "fro", 1, -1, np.inf):
            _close(sla.cond(x, p), np.linalg.cond(a, p), dt, 100)
        for o in (2, -2, "nuc"):
            _close(
                sla.matrix_norm(x, ord=o, keepdims=True),
                np.linalg.matrix_norm(a, ord=o, keepdims=True),
                dt,
                10,
            )
            _close(
                sla.norm(x, ord=o, axis=(-2, -1)),
                np.linalg.norm(a, ord=o, axis=(-2, -1)),
                dt,
                10,
            )
        m = RNG.uniform(-1, 1, (6, 3)).astype(dt)
        for rhs in (RNG.uniform(-1, 1, 6), RNG.uniform(-1, 1, (6, 2))):
            rhs = rhs.astype(dt)
            got = sla.lstsq(_a(device, m), _a(device, rhs))
            want = np.linalg.lstsq(m, rhs)
            for g, w in zip(got[:2], want[:2]):
                _close(g, w, dt, 100)
            assert int(got[2]) == want[2]
            _close(got[3], want[3], dt, 10)
        t = (np.eye(6) * 2 + RNG.uniform(0, 0.1, (6, 6))).astype(dt)
        t = t.reshape(6, 2, 3)
        _close(
            sla.tensorinv(_a(device, t), ind=1),
            np.linalg.tensorinv(t, ind=1),
            dt,
            10,
        )
        tb = RNG.uniform(-1, 1, 6).astype(dt)
        _close(
            sla.tensorsolve(_a(device, t), _a(device, tb)),
            np.linalg.tensorsolve(t, tb),
            dt,
            10,
        )


def test_empty(device):
    dt = "float32"
    for shape in ((0, 0), (0, 3, 3), (2, 0, 0)):
        a = np.zeros(shape, dt)
        x = _a(device, a)
        _close(sla.det(x), np.linalg.det(a), dt)
        _close(sla.inv(x), np.linalg.inv(a), dt)
        _close(sla.cholesky(x), np.linalg.cholesky(a), dt)
        _close(sla.eigvalsh(x), np.linalg.eigvalsh(a), dt)
        _close(sla.svdvals(x), np.linalg.svd(a, compute_uv=False), dt)
        _close(sla.solve(x, x), np.linalg.solve(a, a), dt)
        q, r = sla.qr(x)
        assert q.shape == np.linalg.qr(a).Q.shape
    for shape in ((0, 3), (3, 0), (2, 0, 4)):
        a = np.zeros(shape, dt)
        x = _a(device, a)
        _close(sla.svdvals(x), np.linalg.svd(a, compute_uv=False), dt)
        _close(sla.pinv(x), np.linalg.pinv(a), dt)
        u, s, vh = sla.svd(x)
        wu, ws, wvh = np.linalg.svd(a)
        assert u.shape == wu.shape and vh.shape == wvh.shape


def _cplx(shape, dt):
    return (RNG.uniform(-1, 1, shape) + 1j * RNG.uniform(-1, 1, shape)).astype(
        dt
    )


def _mh(x):
    return np.conj(np.swapaxes(x, -1, -2))


def test_complex(device):
    """Complex operands: the complex kernels (parts in two float arrays),
    and the real embedding [[X, -Y], [Y, X]] for solve, inv and pinv."""
    for dt in (
        "complex128" if d == "float64" else "complex64"
        for d in _dtypes(device)
    ):
        rdt = "float32" if dt == "complex64" else "float64"
        a = _cplx((2, 4, 4), dt)
        b = _cplx((2, 4, 2), dt)
        x, y = _a(device, a), _a(device, b)
        h = (a @ _mh(a) + 4 * np.eye(4)).astype(dt)
        xh = _a(device, h)
        for got, want in (
            (sla.inv(x), np.linalg.inv(a)),
            (sla.solve(x, y), np.linalg.solve(a, b)),
            (sla.pinv(x[:, :3]), np.linalg.pinv(a[:, :3])),
            (sla.svdvals(x[:, :3]), np.linalg.svdvals(a[:, :3])),
            (sla.matrix_norm(x, ord="nuc"), np.linalg.norm(a, "nuc", (1, 2))),
            (sla.vector_norm(x), np.linalg.vector_norm(a)),
            (sla.eigvalsh(x, UPLO="U"), np.linalg.eigvalsh(a, UPLO="U")),
            (sla.det(x), np.linalg.det(a)),
            (sla.slogdet(x).sign, np.linalg.slogdet(a).sign),
            (sla.slogdet(x).logabsdet, np.linalg.slogdet(a).logabsdet),
            (sla.cholesky(xh), np.linalg.cholesky(h)),
            (sla.cholesky(xh, upper=True), np.linalg.cholesky(h, upper=True)),
            (sla.qr(y).R, np.linalg.qr(b).R),
            (sla.cond(x, 1), np.linalg.cond(a, 1)),
        ):
            assert sluice.asnumpy(got).dtype == want.dtype
            _close(got, want, rdt, 100)
        _close(sla.matrix_rank(x), np.linalg.matrix_rank(a), rdt)
        w, v = sla.eigh(xh)
        wn, vn = sluice.asnumpy(w), sluice.asnumpy(v)
        _close(vn @ (wn[..., :, None] * _mh(vn)), h, rdt, 100)
        for shape in ((2, 5, 3), (2, 3, 5)):
            c = _cplx(shape, dt)
            q, r = sla.qr(_a(device, c), mode="complete")
            qn = sluice.asnumpy(q)
            _close(qn @ sluice.asnumpy(r), c, rdt, 10)
            _close(
                _mh(qn) @ qn,
                np.broadcast_to(np.eye(shape[1]), qn.shape),
                rdt,
                10,
            )
            for full in (True, False):
                u, s, vh = (
                    sluice.asnumpy(t)
                    for t in sla.svd(_a(device, c), full_matrices=full)
                )
                k = min(shape[1:])
                _close(
                    (u[..., :k] * s[..., None, :]) @ vh[..., :k, :], c, rdt, 10
                )
                _close(
                    _mh(u) @ u,
                    np.broadcast_to(
                        np.eye(u.shape[-1]), u.shape[:-2] + (u.shape[-1],) * 2
                    ),
                    rdt,
                    10,
                )
        m, rhs = _cplx((6, 3), dt), _cplx((6, 2), dt)
        got = sla.lstsq(_a(device, m), _a(device, rhs))
        want = np.linalg.lstsq(m, rhs)
        _close(got[0], want[0], rdt, 100)
        _close(got[1], want[1], rdt, 100)


def _same_multiset(got, want, tol):
    got = list(np.asarray(got).ravel())
    for v in np.asarray(want).ravel():
        d = [abs(v - u) for u in got]
        i = int(np.argmin(d))
        assert d[i] <= tol * max(1.0, abs(v)), (v, got)
        got.pop(i)


def test_unsupported_on_device(device):
    if device.backend.name != "host":
        x = _a(device, np.eye(3, dtype=np.float32))
        with pytest.raises(NotImplementedError, match="to_device"):
            sla.qr(x, mode="raw")

    # lstsq's residuals have a size that depends on the data: not traced.
    @sluice.jit
    def f(x, y):
        return sla.lstsq(x, y)[0]

    with pytest.raises(sluice.TracerError, match="residuals"):
        f(_a(device, np.eye(3)), _a(device, np.ones(3)))


_RNG = np.random.default_rng(7)
_A = _RNG.standard_normal((3, 4, 4)) + 4 * np.eye(4)
_B = _RNG.standard_normal((3, 4, 2))
_S = _A @ _A.transpose(0, 2, 1)
# (traced function of a, b, s; NumPy's value): each factorisation or solver
# inside @sluice.jit, with elementwise work after it.
JIT_CASES = {
    "det": (lambda a, b, s: sla.det(a) * 2, lambda: np.linalg.det(_A) * 2),
    "slogdet": (
        lambda a, b, s: sla.slogdet(a).logabsdet + 1,
        lambda: np.linalg.slogdet(_A).logabsdet + 1,
    ),
    "inv": (lambda a, b, s: sla.inv(a) @ b, lambda: np.linalg.inv(_A) @ _B),
    "solve": (
        lambda a, b, s: sla.solve(a, b) + 1,
        lambda: np.linalg.solve(_A, _B) + 1,
    ),
    "cholesky": (
        lambda a, b, s: sla.cholesky(s),
        lambda: np.linalg.cholesky(_S),
    ),
    "qr": (lambda a, b, s: abs(sla.qr(a).R), lambda: abs(np.linalg.qr(_A).R)),
    "svd": (
        lambda a, b, s: sla.svd(a).S,
        lambda: np.linalg.svd(_A).S,
    ),
    "svdvals": (
        lambda a, b, s: sla.svdvals(a),
        lambda: np.linalg.svd(_A, compute_uv=False),
    ),
    "eigh": (
        lambda a, b, s: sla.eigh(s).eigenvalues,
        lambda: np.linalg.eigh(_S).eigenvalues,
    ),
    "eigvalsh": (
        lambda a, b, s: sla.eigvalsh(s),
        lambda: np.linalg.eigvalsh(_S),
    ),
    "pinv": (lambda a, b, s: sla.pinv(a), lambda: np.linalg.pinv(_A)),
    "matrix_rank": (
        lambda a, b, s: sla.matrix_rank(a),
        lambda: np.linalg.matrix_rank(_A),
    ),
    "cond": (lambda a, b, s: sla.cond(a), lambda: np.linalg.cond(_A)),
    "norm2": (
        lambda a, b, s: sla.matrix_norm(a, ord=2),
        lambda: np.linalg.norm(_A, ord=2, axis=(-2, -1)),
    ),
    "nuc": (
        lambda a, b, s: sla.matrix_norm(a, ord="nuc"),
        lambda: np.linalg.norm(_A, ord="nuc", axis=(-2, -1)),
    ),
    "matrix_power": (
        lambda a, b, s: sla.matrix_power(a, -2),
        lambda: np.linalg.matrix_power(_A, -2),
    ),
    "eigvals": (
        lambda a, b, s: sluice.sort(sla.eigvals(a).real),
        lambda: np.sort(np.linalg.eigvals(_A).real),
    ),
    "tensorinv": (
        lambda a, b, s: sla.tensorinv(a[0].reshape(4, 2, 2), ind=1),
        lambda: np.linalg.tensorinv(_A[0].reshape(4, 2, 2), ind=1),
    ),
    "tensorsolve": (
        lambda a, b, s: sla.tensorsolve(a[0], b[0, :, 0]),
        lambda: np.linalg.tensorsolve(_A[0], _B[0, :, 0]),
    ),
}


@pytest.mark.parametrize("name", sorted(JIT_CASES))
def test_solvers_inside_jit(device, name):
    traced, expected = JIT_CASES[name]
    r = sluice.jit(traced)(_a(device, _A), _a(device, _B), _a(device, _S))
    e = expected()
    r = sluice.asnumpy(r)
    assert r.shape == np.shape(e)
    np.testing.assert_allclose(r, e, rtol=1e-6, atol=1e-9)


def test_solver_errors_inside_jit(device):
    # The step runs on the concrete matrices: LinAlgError from the call.
    @sluice.jit
    def f(x):
        return sla.cholesky(x) + 1

    with pytest.raises(np.linalg.LinAlgError):
        f(_a(device, -np.eye(3)))


def test_host_lapack_complex(monkeypatch):
    """On the host device (LAPACK) complex operands and results are
    NumPy's."""
    monkeypatch.setattr(sla, "_kernels_on_host", False)
    a = RNG.uniform(-1, 1, (3, 3)) + 1j * RNG.uniform(-1, 1, (3, 3))
    a = a.astype(np.complex64)
    x = sluice.asarray(a, device="host")
    _close(sla.pinv(x), np.linalg.pinv(a), "float32", 10)
    _close(sla.inv(x), np.linalg.inv(a), "float32", 10)
    rot = sluice.asarray(np.array([[0.0, -1.0], [1.0, 0.0]]), device="host")
    w = sluice.asnumpy(sla.eigvals(rot))
    assert w.dtype == np.complex128
    np.testing.assert_allclose(np.sort_complex(w), [-1j, 1j])


# --- the kernels compile for CUDA (PTX; no GPU needed) ----------------------


def test_kernels_compile_to_ptx(cuda_ptx):
    from sluice import _linalg_kernels as lk

    f = sluice.zeros(16, dtype=np.float32, device="host")
    i = sluice.zeros(1, dtype=np.int64, device="host")
    z, e = np.float32(0), np.float32(1e-7)
    cases = [
        (
            lk.k_lu,
            kapi.NdRange((4,), (4,)),
            (f, f, 4, 1, i, f, f, f, kapi.LocalAccessor((1,), np.int64), z),
        ),
        (lk.k_lu1, kapi.Range(1), (f, f, 4, 1, i, f, f, f, z)),
        (lk.k_cholesky, kapi.Range(1), (f, 4, 0, i, z)),
        (lk.k_qr, kapi.Range(1), (f, f, f, 4, 4, z)),
        (lk.k_eigh, kapi.Range(1), (f, f, f, 4, 1, 1, i, z, e)),
        (lk.k_svd, kapi.Range(1), (f, f, f, 4, 4, 4, 1, i, z, e)),
        (lk.k_lu_c, kapi.Range(1), (f, f, 4, i, f, f, f, f, f, z)),
        (lk.k_cholesky_c, kapi.Range(1), (f, f, 4, 1, i, z)),
        (lk.k_qr_c, kapi.Range(1), (f, f, f, f, f, f, 4, 4, z)),
        (lk.k_eigh_c, kapi.Range(1), (f, f, f, f, f, 4, 1, 1, i, z, e)),
        (lk.k_svd_c, kapi.Range(1), (f, f, f, f, f, 4, 4, 4, 1, i, z, e)),
        (lk.k_svd_basis_c, kapi.Range(1), (f, f, f, 4, 4, 4, z, e)),
    ]
    for k, rng, args in cases:
        assert ".entry" in cuda_ptx(k, rng, *args), k.__name__


# --- cuSOLVER on CUDA (orders >= _cusolver.MIN_ORDER) ------------------------


def test_cusolver_large(device):
    """Large matrices on CUDA go to cuSOLVER (where it loads): the same
    results as NumPy's, errors as LinAlgError."""
    from sluice import _cusolver

    if device.backend.name != "cuda" or _cusolver.library_path() is None:
        pytest.skip("cuSOLVER serves CUDA devices only (where it loads)")
    n = max(_cusolver.MIN_ORDER.values()) + 8
    for dt in _dtypes(device):
        a = RNG.uniform(-1, 1, (2, n, n)).astype(dt) + n * np.eye(n, dtype=dt)
        b = RNG.uniform(-1, 1, (2, n, 3)).astype(dt)
        x = _a(device, a)
        _close(sla.solve(x, _a(device, b)), np.linalg.solve(a, b), dt, 10)
        _close(sla.inv(x), np.linalg.inv(a), dt, 10)
        s = sla.slogdet(x)
        e = np.linalg.slogdet(a)
        _close(s.sign, e.sign, dt)
        _close(s.logabsdet, e.logabsdet, dt, 10)
        _close(sla.det(x[0] / n), np.linalg.det(a[0] / n), dt, 10)
        spd = _spd((n, n), dt)
        _close(sla.cholesky(_a(device, spd)), np.linalg.cholesky(spd), dt, 10)
        up = sla.cholesky(_a(device, spd), upper=True)
        _close(up, np.linalg.cholesky(spd).T, dt, 10)
        w, v = sla.eigh(_a(device, spd))
        _close(w, np.linalg.eigvalsh(spd), dt, 100)
        vv = sluice.asnumpy(v)
        _close(spd @ vv, vv * sluice.asnumpy(w), dt, 1000)
        for shape in ((n + 5, n), (n, n + 5)):
            g = RNG.uniform(-1, 1, shape).astype(dt)
            for mode in ("reduced", "complete"):
                q, r = sla.qr(_a(device, g), mode=mode)
                wq, wr = np.linalg.qr(g, mode=mode)
                _close(r, wr, dt, 100)
                _close(q, wq, dt, 100)
            for full in (True, False):
                u, sv, vh = sla.svd(_a(device, g), full_matrices=full)
                _close(sv, np.linalg.svd(g, compute_uv=False), dt, 100)
                u, vh = sluice.asnumpy(u), sluice.asnumpy(vh)
                k = min(shape)
                rec = (u[:, :k] * sluice.asnumpy(sv)) @ vh[:k]
                _close(rec, g, dt, 100)
                _orthonormal(u, dt)
                _orthonormal(vh, dt, axis=-1)
        # a batch of small symmetric matrices: syevjBatched
        sb = _spd((50, 12, 12), dt)
        junk = RNG.uniform(-1, 1, sb.shape).astype(dt)
        for uplo, other in (("L", np.triu(junk, 1)), ("U", np.tril(junk, -1))):
            # the other triangle is not read
            w, v = sla.eigh(_a(device, sb + other), UPLO=uplo)
            _close(w, np.linalg.eigvalsh(sb + other, UPLO=uplo), dt, 100)
            vv, ww = sluice.asnumpy(v), sluice.asnumpy(w)
            _close(sb @ vv, vv * ww[:, None, :], dt, 1000)
        _close(sla.eigvalsh(_a(device, sb)), np.linalg.eigvalsh(sb), dt, 100)
        # batches of small matrices: gesvdjBatched
        for shape in ((30, 12, 12), (20, 10, 6), (20, 6, 10)):
            g = RNG.uniform(-1, 1, shape).astype(dt)
            want = np.linalg.svd(g, compute_uv=False)
            _close(sla.svdvals(_a(device, g)), want, dt, 100)
            for full in (True, False):
                u, sv, vh = sla.svd(_a(device, g), full_matrices=full)
                _close(sv, want, dt, 100)
                u, vh, sv = map(sluice.asnumpy, (u, vh, sv))
                k = min(shape[1:])
                rec = (u[..., :k] * sv[..., None, :]) @ vh[..., :k, :]
                _close(rec, g, dt, 100)
                _orthonormal(u, dt)
                _orthonormal(vh, dt, axis=-1)
        sing = np.ones((n, n), dtype=dt)
        with pytest.raises(np.linalg.LinAlgError, match="Singular"):
            sla.solve(_a(device, sing), _a(device, np.ones((n, 1), dt)))
        assert sluice.asnumpy(sla.slogdet(_a(device, sing)).sign) == 0
        with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
            sla.cholesky(_a(device, -spd))


def test_cusolver_fallback(device, monkeypatch):
    """With cuSOLVER turned off (or absent), every size is the generated
    kernels' (and nothing else than CUDA ever asks for it)."""
    from sluice import _cusolver

    x = _a(device, np.eye(64, dtype=np.float32))
    monkeypatch.setitem(_cusolver._state, "tried", True)
    monkeypatch.setitem(_cusolver._state, "lib", None)
    for kind in _cusolver.MIN_ORDER:
        assert not _cusolver.wanted(x, 64, 1, kind)
    assert not _cusolver.wanted_eigh(x, 8, 10)
    assert not _cusolver.wanted_svd(x, 8, 8, 10)
    monkeypatch.setitem(_cusolver.MIN_ORDER, "lu", 4)
    _close(sla.det(_a(device, 2 * np.eye(5))), 32.0, "float32")
    assert _cusolver._versions("/nonexistent", "libcusolver.so") == []
