"""sluice.linalg.eig and eigvals of general matrices on the array's own
device: the kernels of _linalg_eig.py (Hessenberg reduction, shifted
complex QR, back substitution), against NumPy, on every device (on the
host device, which calls LAPACK by default, through ``_kernels_on_host``).
Eigenvalues are compared as multisets (their order is the algorithm's),
eigenvectors by ``A v = lambda v``, their unit norms and their phase."""

import numpy as np
import pytest

import sluice
import sluice.linalg as sla
from sluice import kernel_api as kapi

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

RNG = np.random.default_rng(2323)


@pytest.fixture(autouse=True)
def kernels_everywhere(monkeypatch):
    monkeypatch.setattr(sla, "_kernels_on_host", True)


def _dtypes(device, cplx=False):
    dts = ["float32"] + (["float64"] if device.has_aspect_fp64 else [])
    if cplx:
        dts = ["complex64"] + (["complex128"] if len(dts) > 1 else [])
    return dts


def _tol(dt):
    return 5e-4 if np.dtype(dt) in (np.float32, np.complex64) else 1e-10


def _same_multiset(got, want, tol):
    """Each of want's values matches its own one of got's (nearest
    first)."""
    got = list(np.asarray(got).reshape(-1))
    want = np.asarray(want).reshape(-1)
    assert len(got) == len(want)
    for v in want:
        d = [abs(v - g) for g in got]
        i = int(np.argmin(d))
        assert d[i] <= tol * max(1.0, abs(v)), (v, got)
        got.pop(i)


def _check_eig(device, a, scale=1.0):
    """eig and eigvals of a (..., n, n) on the device against NumPy."""
    dt = a.dtype
    tol = _tol(dt) * scale
    x = sluice.asarray(a, device=device)
    w, v = sla.eig(x)
    wv = sla.eigvals(x)
    cdt = np.result_type(dt, np.complex64)
    assert w.dtype == cdt and v.dtype == cdt and wv.dtype == cdt
    w, v, wv = sluice.asnumpy(w), sluice.asnumpy(v), sluice.asnumpy(wv)
    assert w.shape == a.shape[:-1] and v.shape == a.shape
    ref = np.linalg.eigvals(a.astype(cdt))
    for i in np.ndindex(a.shape[:-2]):
        _same_multiset(w[i], ref[i], tol * 10)
        _same_multiset(wv[i], ref[i], tol * 10)
    if a.size == 0:
        return
    a64 = a.astype(np.complex128)
    big = max(1.0, float(np.abs(a64).max()))
    # A v = lambda v, unit columns, the largest component real and positive
    res = a64 @ v - v * w[..., None, :]
    assert np.abs(res).max() <= tol * 10 * big * a.shape[-1], res
    np.testing.assert_allclose(np.linalg.norm(v, axis=-2), 1, atol=tol * 10)
    # (among components whose magnitudes tie within the tolerance)
    mag = np.abs(v)
    near = mag >= mag.max(axis=-2, keepdims=True) - tol * 10
    real_pos = (np.abs(v.imag) <= tol * 10) & (v.real > 0)
    assert np.all(np.any(near & real_pos, axis=-2))


def test_random(device):
    for dt in _dtypes(device):
        for n in (2, 3, 8):
            _check_eig(device, RNG.uniform(-1, 1, (n, n)).astype(dt))
        _check_eig(device, RNG.standard_normal((3, 2, 6, 6)).astype(dt))


def test_complex(device):
    for dt in _dtypes(device, cplx=True):
        a = RNG.uniform(-1, 1, (2, 5, 5)) + 1j * RNG.uniform(-1, 1, (5, 5))
        _check_eig(device, a.astype(dt))
        # Hermitian and unitary inputs are general matrices too
        h = a + np.conj(np.swapaxes(a, -1, -2))
        _check_eig(device, h.astype(dt))


def test_conjugate_pairs(device):
    for dt in _dtypes(device):
        rot = np.array([[0.0, -1.0], [1.0, 0.0]], dtype=dt)
        x = sluice.asarray(rot, device=device)
        _same_multiset(sluice.asnumpy(sla.eigvals(x)), [1j, -1j], _tol(dt))
        _check_eig(device, rot)
        # a block diagonal of rotations and scalings, hidden by a similarity
        blk = np.zeros((6, 6))
        for i, (r, t) in enumerate([(1.0, 0.3), (2.0, 1.1), (0.5, 2.9)]):
            c, s = r * np.cos(t), r * np.sin(t)
            blk[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, -s], [s, c]]
        q, _ = np.linalg.qr(RNG.standard_normal((6, 6)))
        _check_eig(device, (q @ blk @ q.T).astype(dt), 10)
        # the companion matrix of x^4 + 1 (roots on the unit circle)
        comp = np.diag(np.ones(3), -1)
        comp[0, 3] = -1
        _check_eig(device, comp.astype(dt), 10)


def test_repeated_and_structured(device):
    for dt in _dtypes(device):
        # diagonalisable with repeated eigenvalues
        s = RNG.uniform(-1, 1, (5, 5)) + 3 * np.eye(5)
        a = s @ np.diag([1.0, 1.0, 2.0, 2.0, 2.0]) @ np.linalg.inv(s)
        _check_eig(device, a.astype(dt), 10)
        _check_eig(device, np.eye(4, dtype=dt) * 3)
        _check_eig(device, np.diag(np.arange(5.0)).astype(dt))
        _check_eig(device, np.triu(RNG.uniform(-1, 1, (6, 6))).astype(dt))
        _check_eig(device, np.tril(RNG.uniform(-1, 1, (6, 6))).astype(dt))
        _check_eig(device, np.zeros((3, 3), dtype=dt))
        _check_eig(device, np.full((1, 1), -2.5, dtype=dt))
        _check_eig(device, np.ones((4, 4), dtype=dt), 10)
        # a Jordan block: its eigenvalue (to the square root of the
        # precision, as LAPACK's)
        j = np.diag(np.ones(3), 1) + 2 * np.eye(4)
        w = sluice.asnumpy(
            sla.eigvals(sluice.asarray(j.astype(dt), device=device))
        )
        assert np.abs(w - 2).max() < 0.05


def test_scaled_and_integer(device):
    dt = _dtypes(device)[-1]
    a = RNG.uniform(-1, 1, (4, 4))
    for f in (1e-30, 1e30) if dt == "float64" else (1e-15, 1e15):
        _check_eig(device, (a * f).astype(dt))
    # integers compute in float64, as NumPy's (float32 without fp64)
    if device.has_aspect_fp64:
        ia = np.array([[2, 1], [0, 3]], dtype=np.int32)
        w = sla.eigvals(sluice.asarray(ia, device=device))
        assert w.dtype == np.complex128
        _same_multiset(sluice.asnumpy(w), [2, 3], 1e-12)


def test_empty_and_errors(device):
    dt = _dtypes(device)[0]
    for shape in ((0, 0), (3, 0, 0), (0, 4, 4)):
        x = sluice.asarray(np.zeros(shape, dtype=dt), device=device)
        w, v = sla.eig(x)
        assert w.shape == shape[:-1] and v.shape == shape
        assert w.dtype == np.complex64
        assert sla.eigvals(x).shape == shape[:-1]
    for bad in (np.nan, np.inf, -np.inf):
        a = np.eye(3, dtype=dt)
        a[1, 2] = bad
        x = sluice.asarray(a, device=device)
        for f in (sla.eig, sla.eigvals):
            with pytest.raises(np.linalg.LinAlgError, match="infs or NaNs"):
                f(x)
    # one bad matrix of a batch fails the call, as NumPy's
    a = np.stack([np.eye(2), np.full((2, 2), np.nan)]).astype(dt)
    with pytest.raises(sla.LinAlgError):
        sla.eigvals(sluice.asarray(a, device=device))
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        sla.eig(sluice.asarray(np.zeros((2, 3), dtype=dt), device=device))
    with pytest.raises(np.linalg.LinAlgError, match="two-dimensional"):
        sla.eigvals(sluice.asarray(np.zeros(3, dtype=dt), device=device))

    # Inside @sluice.jit eigvals is a step whose results are complex on
    # every device (their type cannot depend on the data).
    @sluice.jit
    def f(x):
        return sla.eigvals(x) * 2

    r = sluice.asnumpy(f(sluice.asarray(np.eye(2, dtype=dt), device=device)))
    assert r.dtype.kind == "c"
    np.testing.assert_allclose(r, [2, 2])


def test_not_converging(device, monkeypatch):
    """With no QR steps allowed, a matrix that needs one raises NumPy's
    LinAlgError (the steps are bounded: no input loops for ever); one
    that is already triangular does not."""
    from sluice import _linalg_eig

    monkeypatch.setattr(_linalg_eig, "STEPS_PER_ROW", 0)
    dt = _dtypes(device)[0]
    rot = sluice.asarray(np.array([[0, -1], [1, 0]], dtype=dt), device=device)
    with pytest.raises(np.linalg.LinAlgError, match="did not converge"):
        sla.eigvals(rot)
    tri = np.triu(np.arange(1.0, 10.0).reshape(3, 3)).astype(dt)
    w = sla.eigvals(sluice.asarray(tri, device=device))
    _same_multiset(sluice.asnumpy(w), [1, 5, 9], _tol(dt))


def test_batched_many(device):
    dt = _dtypes(device)[-1]
    a = RNG.standard_normal((40, 5, 5)).astype(dt)
    _check_eig(device, a)


def test_host_lapack_path(monkeypatch):
    """Without _kernels_on_host the host device calls LAPACK (NumPy's
    result types)."""
    monkeypatch.setattr(sla, "_kernels_on_host", False)
    a = RNG.uniform(-1, 1, (3, 3))
    w = sla.eigvals(sluice.asarray(a, device="host"))
    np.testing.assert_array_equal(sluice.asnumpy(w), np.linalg.eigvals(a))


def test_kernels_compile_to_ptx(cuda_ptx):
    from sluice import _linalg_eig as le

    f = sluice.zeros(16, dtype=np.float32, device="host")
    i = sluice.zeros(1, dtype=np.int64, device="host")
    z, e = np.float32(0), np.float32(1e-7)
    nd = kapi.NdRange((4,), (4,))
    li = kapi.LocalAccessor((5,), np.int64)
    lf = kapi.LocalAccessor((6,), np.float32)
    cases = [
        (le.k_eig_hessenberg, nd, (f, f, f, f, f, f, 4, 1, i, li, lf, z)),
        (le.k_eig_schur, nd, (f, f, f, f, 4, 1, i, li, lf, 30, z, e)),
        (le.k_eig_vectors, kapi.Range(4), (f, f, f, f, f, f, f, f, 4, z, e)),
    ]
    for k, rng, args in cases:
        assert ".entry" in cuda_ptx(k, rng, *args), k.__name__
