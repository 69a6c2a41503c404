"""sluice.linalg: linear algebra as in dpnp.linalg and the Array API's
``linalg`` extension.

Compute follows data here too; nothing is copied to the host behind the
user's back:

- Products and the functions written with them and with elementwise
  operations and reductions (``matmul tensordot vecdot outer multi_dot
  matrix_power cross diagonal trace vector_norm``, ``matrix_norm`` and
  ``norm`` for the Frobenius, 1 and infinity norms) run on every device,
  eagerly and inside ``@sluice.jit``.
- Factorisations and solvers (``det slogdet inv pinv solve lstsq cholesky
  qr svd svdvals eigh eigvalsh eig eigvals matrix_rank cond tensorinv
  tensorsolve``, 2-norms and nuclear norms) run on the host device through
  LAPACK (the one NumPy links, on zero-copy views of the USM memory) and
  on every other device as generated kernels (_linalg_kernels.py: LU,
  Cholesky, Householder QR, Jacobi; _linalg_eig.py: Hessenberg reduction
  and shifted complex QR for eig/eigvals), batched over the leading axes,
  real and complex; on CUDA, real matrices of order _cusolver.MIN_ORDER
  and more go to cuSOLVER (loaded at run time, _cusolver.py). Inside
  ``@sluice.jit`` all of these raise ``TracerError``.

Singular or non-convergent input raises ``sluice.linalg.LinAlgError``, a
subclass of ``numpy.linalg.LinAlgError``. See docs/linalg.md.
"""

import builtins
import collections
import functools
import operator

import numpy as np

from . import _cusolver, _dtypes, _ops
from ._errors import TracerError
from ._device import _queue_from_id
from ._products import (
    _arrays,
    _empty,
    _finish,
    _from_numpy,
    _host_view,
    _on_host,
    _traced,
    matmul,
    matrix_power,
    outer,
    tensordot,
    vecdot,
)

__all__ = [
    "LinAlgError",
    "cholesky",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "lstsq",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "multi_dot",
    "norm",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "tensorinv",
    "tensorsolve",
    "trace",
    "vecdot",
    "vector_norm",
]


class LinAlgError(np.linalg.LinAlgError):
    """A matrix is singular, not positive definite, or an algorithm did not
    converge (a ``numpy.linalg.LinAlgError``)."""


def matrix_transpose(x, /):
    return _ops.matrix_transpose(x)


# --- LAPACK on the host device -----------------------------------------------


def _lapack(name, fn, *xs, n_arrays=None):
    """Runs NumPy's ``fn`` (LAPACK) on the arrays' data when they live on
    the host device; the results become arrays on the same queue."""
    if _traced(*xs):
        raise TracerError(
            f"sluice.linalg.{name} cannot be traced: it calls LAPACK on the "
            "host device; call it outside @sluice.jit"
        )
    arrs, qid, kind = _arrays(*xs[:n_arrays] if n_arrays else xs)
    if not _on_host(qid):
        from ._device import _queue_from_id

        dev = _queue_from_id(qid).sycl_device.filter_string
        raise NotImplementedError(
            f"sluice.linalg.{name} is not available on {dev} yet (LAPACK "
            "serves the host device; no generated kernel computes it). "
            "Nothing is copied implicitly: migrate the operands with "
            "x.to_device('host') and move the result back"
        )
    views = [_host_view(a) for a in arrs]
    if n_arrays:
        views += list(xs[n_arrays:])
    for v in views[: len(arrs)]:
        if v.dtype.kind not in "biufc":
            raise TypeError(
                f"sluice.linalg.{name}: unsupported dtype {v.dtype}"
            )
    try:
        with np.errstate(all="ignore"):
            r = fn(*views)
    except np.linalg.LinAlgError as e:
        raise LinAlgError(str(e)) from None

    def back(v):
        return _from_numpy(np.asarray(v), qid, kind)

    if isinstance(r, tuple):
        vals = [back(v) for v in r]
        return type(r)(*vals) if hasattr(r, "_fields") else tuple(vals)
    return back(r)


def _real_float(x):
    dt = x.dtype
    if dt == _dtypes.complex64:
        return _dtypes.float32
    return dt if dt.kind == "f" else _dtypes.float64


def _host_arg(v):
    """A tolerance for LAPACK's functions: a host array's NumPy view."""
    return _host_view(v) if hasattr(v, "_queue_id") else v


def _one(x):
    return _arrays(x)[0][0]


def det(x, /):
    """The determinant of each matrix."""
    if _use_kernels("det", x):
        return _dev_det(_one(x))
    return _lapack("det", np.linalg.det, x)


def slogdet(x, /):
    """(sign, log|det|) of each matrix."""
    if _use_kernels("slogdet", x):
        return _dev_slogdet(_one(x))
    return _lapack("slogdet", np.linalg.slogdet, x)


def inv(x, /):
    """The inverse of each matrix; singular input raises LinAlgError."""
    if _use_kernels("inv", x):
        return _dev_inv(_one(x))
    return _lapack("inv", np.linalg.inv, x)


def _pinv_rtol(rcond, rtol, x):
    if rtol is not None:
        return rtol
    if rcond is not None:
        return rcond
    return None


def pinv(x, /, rcond=None, hermitian=False, *, rtol=None):
    """The Moore-Penrose pseudo-inverse (from the SVD)."""
    if _use_kernels("pinv", x):
        return _dev_pinv(_one(x), _pinv_rtol(rcond, rtol, x))
    kw = {"hermitian": hermitian}
    if rtol is not None:
        kw["rtol"] = _host_arg(rtol)
    elif rcond is not None:
        kw["rcond"] = _host_arg(rcond)
    return _lapack("pinv", lambda a: np.linalg.pinv(a, **kw), x)


def solve(x1, x2, /):
    """The solution of ``x1 @ x = x2``."""
    if _use_kernels("solve", x1, x2):
        (a, b), _, _ = _arrays(x1, x2)
        return _dev_solve(a, b)
    return _lapack("solve", np.linalg.solve, x1, x2)


def lstsq(a, b, rcond=None):
    """The least-squares solution of ``a @ x = b`` (NumPy's result tuple:
    solution, residuals, rank, singular values)."""
    if _traced(a, b):
        raise TracerError(
            "sluice.linalg.lstsq inside @sluice.jit: the size of its "
            "residuals depends on the rank of the data; call it outside, "
            "or use solve or pinv"
        )
    if _use_kernels("lstsq", a, b):
        (a, b), _, _ = _arrays(a, b)
        return _dev_lstsq(a, b, rcond)
    return _lapack(
        "lstsq", lambda x, y: np.linalg.lstsq(x, y, rcond=rcond), a, b
    )


def cholesky(x, /, *, upper=False):
    """The Cholesky factor; not positive definite input raises
    LinAlgError."""
    if _use_kernels("cholesky", x):
        return _dev_cholesky(_one(x), upper)

    def f(a):
        r = np.linalg.cholesky(a)
        return np.swapaxes(r, -1, -2).conj().copy() if upper else r

    return _lapack("cholesky", f, x)


def qr(x, /, mode="reduced"):
    """The QR factorisation (``mode``: reduced, complete, r; raw on the
    host)."""
    if _use_kernels("qr", x):
        return _dev_qr(_one(x), mode)
    return _lapack("qr", lambda a: np.linalg.qr(a, mode=mode), x)


def svd(x, /, full_matrices=True, compute_uv=True, hermitian=False):
    """The singular value decomposition (U, S, Vh)."""
    if _use_kernels("svd", x):
        return _dev_svd(_one(x), full_matrices, compute_uv)
    return _lapack(
        "svd",
        lambda a: np.linalg.svd(
            a,
            full_matrices=full_matrices,
            compute_uv=compute_uv,
            hermitian=hermitian,
        ),
        x,
    )


def svdvals(x, /):
    """The singular values, largest first."""
    if _use_kernels("svdvals", x):
        return _dev_svd(_one(x), compute_uv=False)
    return _lapack("svdvals", lambda a: np.linalg.svd(a, compute_uv=False), x)


def eig(x, /):
    """Eigenvalues and right eigenvectors of general matrices: LAPACK on
    the host device, the kernels of _linalg_eig.py elsewhere (complex
    results there)."""
    if _use_kernels("eig", x):
        from ._linalg_eig import device_eig

        return device_eig(_one(x), True)
    return _lapack("eig", np.linalg.eig, x)


def eigvals(x, /):
    """Eigenvalues of general matrices: LAPACK on the host device (NumPy's
    result type), the kernels of _linalg_eig.py elsewhere (complex)."""
    if _use_kernels("eigvals", x):
        from ._linalg_eig import device_eig

        return device_eig(_one(x), False)
    return _lapack("eigvals", np.linalg.eigvals, x)


def eigh(x, /, UPLO="L"):
    """Eigenvalues (ascending) and eigenvectors of symmetric matrices."""
    if _use_kernels("eigh", x):
        return _dev_eigh(_one(x), UPLO, True)
    return _lapack("eigh", lambda a: np.linalg.eigh(a, UPLO=UPLO), x)


def eigvalsh(x, /, UPLO="L"):
    """Eigenvalues (ascending) of symmetric matrices."""
    if _use_kernels("eigvalsh", x):
        return _dev_eigh(_one(x), UPLO, False)
    return _lapack("eigvalsh", lambda a: np.linalg.eigvalsh(a, UPLO=UPLO), x)


def matrix_rank(x, /, tol=None, hermitian=False, *, rtol=None):
    """The rank by SVD, as NumPy computes it."""
    if _use_kernels("matrix_rank", x):
        x = _one(x)
        if x.ndim < 2:
            return _ops.astype(_ops.any(x != 0), _dtypes.int64)
        return _dev_matrix_rank(x, tol, rtol)
    kw = {"hermitian": hermitian}
    if rtol is not None:
        kw["rtol"] = _host_arg(rtol)
    if tol is not None:
        kw["tol"] = _host_arg(tol)
    return _lapack(
        "matrix_rank", lambda a: np.asarray(np.linalg.matrix_rank(a, **kw)), x
    )


def cond(x, p=None):
    """The condition number in norm ``p``."""
    if _use_kernels("cond", x):
        return _dev_cond(_one(x), p)
    return _lapack("cond", lambda a: np.asarray(np.linalg.cond(a, p)), x)


def tensorinv(a, ind=2):
    """The inverse of a tensor with respect to ``tensordot(., ., ind)``."""
    if _use_kernels("tensorinv", a):
        return _dev_tensorinv(_one(a), ind)
    return _lapack(
        "tensorinv",
        lambda x, i: np.linalg.tensorinv(x, ind=i),
        a,
        ind,
        n_arrays=1,
    )


def tensorsolve(a, b, axes=None):
    """The solution x of ``tensordot(a, x, b.ndim) = b``."""
    if _use_kernels("tensorsolve", a, b):
        (a, b), _, _ = _arrays(a, b)
        return _dev_tensorsolve(a, b, axes)
    return _lapack(
        "tensorsolve",
        lambda x, y, ax: np.linalg.tensorsolve(x, y, axes=ax),
        a,
        b,
        axes,
        n_arrays=2,
    )


# --- generated kernels on every other device ---------------------------------
#
# The factorisations of _linalg_kernels.py, batched over the leading axes;
# the functions built on them (inv, det, pinv, lstsq, ...) are array
# programs on the same queue. Only the per-matrix status arrays are read
# back, to raise LinAlgError as NumPy does.

# Tests set this to run the kernels on the host device too (which otherwise
# calls LAPACK).
_kernels_on_host = False

SlogdetResult = collections.namedtuple("SlogdetResult", "sign logabsdet")
EigResult = collections.namedtuple("EigResult", "eigenvalues eigenvectors")
EighResult = collections.namedtuple("EighResult", "eigenvalues eigenvectors")
QRResult = collections.namedtuple("QRResult", "Q R")
SVDResult = collections.namedtuple("SVDResult", "U S Vh")


def _use_kernels(name, *xs):
    """Whether ``name`` runs the generated kernels (False: LAPACK on the
    host device); raises TracerError inside @sluice.jit."""
    if _traced(*xs):
        raise TracerError(
            f"sluice.linalg.{name} cannot be traced: call it outside "
            "@sluice.jit"
        )
    arrs, qid, kind = _arrays(*xs)
    return _kernels_on_host or not _on_host(qid)


def _unsupported(name, x, what):
    from ._device import _queue_from_id

    dev = _queue_from_id(x._queue_id).sycl_device.filter_string
    raise NotImplementedError(
        f"sluice.linalg.{name} of {what} is not available on {dev} yet "
        "(the generated kernels take float32 and float64). Nothing is "
        "copied implicitly: migrate the operands with x.to_device('host') "
        "and move the result back"
    )


def _float_dtype(name, x):
    """The dtype the kernels compute ``x`` in: its own float dtype,
    float64 for integers and booleans (NumPy's)."""
    dt = x.dtype
    if dt.kind == "c":
        _unsupported(name, x, "complex matrices")
    if dt.kind == "f" and dt.itemsize < 4:
        _unsupported(name, x, str(dt))
    return dt if dt.kind == "f" else _dtypes.float64


def _inexact_dtype(name, x):
    """As _float_dtype, complex dtypes kept."""
    if x.dtype.kind == "c":
        return x.dtype
    return _float_dtype(name, x)


def _embed(x):
    """The real (..., 2m, 2n) matrix [[X, -Y], [Y, X]] of a complex
    X + iY: products, inverses, pseudo-inverses and solutions map onto
    the same of the embedding, and each singular value (eigenvalue, for
    Hermitian X + iY) appears twice in it."""
    from ._complex import imag, real
    from ._manipulation import concat

    re, im = real(x), imag(x)
    top = concat([re, -im], axis=-1)
    return concat([top, concat([im, re], axis=-1)], axis=-2)


def _part_dtype(x):
    return _dtypes.float32 if x.dtype == _dtypes.complex64 else _dtypes.float64


def _parts(x):
    """Flat copies of a complex array's real and imaginary parts (the
    complex kernels' work arrays)."""
    from ._complex import imag, real

    dt = _part_dtype(x)
    return _flat(real(x), dt), _flat(imag(x), dt)


def _join(re, im, shape):
    from ._complex import _from_parts

    return _from_parts(_ops.reshape(re, shape), _ops.reshape(im, shape))


def _mH(x):
    """The conjugate transpose of the matrices."""
    t = _ops.matrix_transpose(x)
    if x.dtype.kind == "c":
        from ._complex import conj

        t = conj(t)
    return t


def _unembed(r, m, n):
    """The complex (..., m, n) matrix of an embedding (its first block
    column)."""
    from ._complex import _from_parts

    return _from_parts(r[..., :m, :n], r[..., m:, :n])


def _hermitian(x, uplo):
    """The Hermitian matrix of x's lower (L) or upper (U) triangle, the
    diagonal's imaginary part ignored, as LAPACK reads it."""
    from ._complex import conj, real
    from ._manipulation import tril, triu

    n = x.shape[-1]
    tri = tril(x, -1) if uplo == "L" else triu(x, 1)
    d = _eye_like(n, x.dtype, x) * _ops.astype(real(x), x.dtype)
    return tri + conj(_ops.matrix_transpose(tri)) + d


def _eye_like(n, dt, like):
    from ._creation import eye

    return eye(n, dtype=dt, sycl_queue=_queue_from_id(like._queue_id))


def _square(name, x):
    if x.ndim < 2:
        raise LinAlgError(
            f"{x.ndim}-dimensional array given. Array must be at least "
            "two-dimensional"
        )
    if x.shape[-1] != x.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")


def _prod(shape):
    return int(np.prod(shape, dtype=np.int64))


def _flat(x, dt):
    """A new C-ordered flat copy of x in dt (the kernels' work array)."""
    y = _ops.astype(x, dt, copy=True)
    return _ops.reshape(y, (-1,))


def _new(shape, dt, like):
    return _empty(shape, dt, like._queue_id, like._usm_kind)


def _zeros(shape, dt, like):
    from ._creation import zeros

    return zeros(shape, dtype=dt, sycl_queue=_queue_from_id(like._queue_id))


def _like(a, like):
    from ._creation import asarray

    return asarray(a, sycl_queue=_queue_from_id(like._queue_id))


def _zero(dt):
    return np.dtype(str(dt)).type(0)


def _eps(dt, scale=1):
    return np.dtype(str(dt)).type(np.finfo(str(dt)).eps * scale)


def _check_info(info, msg):
    from ._array import asnumpy

    if info.size and np.any(asnumpy(info)):
        raise LinAlgError(msg)


# Up to this order one work-item factors a matrix (k_lu1); larger ones
# take a workgroup each (k_lu).
LU_SMALL = 16


def _lu(a, b, m):
    """LU of the square matrices a (..., n, n) with the right-hand sides b
    (a flat (batch * n * m,) array in a's dtype, or None): (solution,
    det, sign, log|det|, info), the last four of the batch's shape."""
    from . import kernel_api as kapi
    from ._kernel import call_kernel
    from ._linalg_kernels import k_lu, k_lu1

    dt = _float_dtype("solve", a)
    batch_shape = tuple(a.shape[:-2])
    n = a.shape[-1]
    batch = _prod(batch_shape)
    af = _flat(a, dt)
    bf = b if b is not None else _new((1,), dt, a)
    info = _new((batch,), _dtypes.int64, a)
    det = _new((batch,), dt, a)
    sgn = _new((batch,), dt, a)
    lad = _new((batch,), dt, a)
    if batch and n <= LU_SMALL:
        call_kernel(
            k_lu1,
            kapi.Range(batch),
            af,
            bf,
            n,
            m,
            info,
            det,
            sgn,
            lad,
            _zero(dt),
        )
    elif batch:
        # a power of two >= n, at most 256 work-items on GPUs (64 on
        # CPUs, which run a workgroup's items in turn) and the device's
        # limit
        dev = _queue_from_id(a._queue_id).sycl_device
        top = builtins.min(256 if dev.is_gpu else 64, dev.max_work_group_size)
        w = 1
        while w < n and w * 2 <= top:
            w *= 2
        call_kernel(
            k_lu,
            kapi.NdRange((batch * w,), (w,)),
            af,
            bf,
            n,
            m,
            info,
            det,
            sgn,
            lad,
            kapi.LocalAccessor((1,), _dtypes.int64),
            _zero(dt),
        )

    def shaped(v):
        return _ops.reshape(v, batch_shape)

    return bf, shaped(det), shaped(sgn), shaped(lad), info


def _binary_scaled(x):
    """(x / f, f): matrices whose largest magnitude is outside
    [tiny**0.25, max**0.25] of their precision divided by f, the power of
    two nearest below it (f is 1 for the others, zero and non-finite
    ones; None for empty x), so that the squared magnitudes of a kernel
    neither overflow nor underflow, and the others are untouched."""
    from ._elementwise import exp2, floor, log2

    if x.size == 0:
        return x, None
    fi = np.finfo(_real_float(x))
    m = _max_part(x)
    safe = (m <= float(fi.max) ** 0.25) & (m >= float(fi.tiny) ** 0.25)
    keep = safe | (m == 0) | ~_ops.isfinite(m)
    # (log2 of a float32 near its max rounds up to 128: one less)
    e = floor(log2(_ops.where(keep, 1, m))) - 1
    f = _ops.where(keep, 1, exp2(e))
    return _times_real(x, f, divide=True), f


def _lu_complex(x):
    """(det, sign, log|det|) of complex square matrices (each scaled by a
    power of two first where its magnitudes would over- or underflow the
    kernel's squared pivots; log|det| and det corrected after)."""
    from . import kernel_api as kapi
    from ._kernel import call_kernel
    from ._linalg_kernels import k_lu_c

    bs = tuple(x.shape[:-2])
    batch = _prod(bs)
    n = x.shape[-1]
    dt = _part_dtype(x)
    x, f = _binary_scaled(x)
    ar, ai = _parts(x)
    outs = [_new((batch,), dt, x) for _ in range(5)]
    info = _new((batch,), _dtypes.int64, x)
    if batch:
        call_kernel(
            k_lu_c, kapi.Range(batch), ar, ai, n, info, *outs, _zero(dt)
        )
    dr, di, sr, si, lad = outs
    det, lad = _join(dr, di, bs), _ops.reshape(lad, bs)
    if f is not None:
        f = _ops.reshape(f, bs)
        lad = lad + n * _ops.log(f)
        det = _times_real(det, f**n)
    return det, _join(sr, si, bs), lad


def _lu_det(x):
    """(det, sign, log|det|) of real square matrices: cuSOLVER's getrf
    for large ones on CUDA, else the LU kernels."""
    dt = _float_dtype("det", x)
    if _cusolver.wanted(x, x.shape[-1], _prod(x.shape[:-2]), "lu"):
        return _cusolver.lu_det(_ops.astype(x, dt, copy=False), dt)
    _, det, sgn, lad, _ = _lu(x, None, 0)
    return det, sgn, lad


def _dev_det(x):
    _square("det", x)
    if x.dtype.kind == "c":
        return _lu_complex(x)[0]
    return _lu_det(x)[0]


def _dev_slogdet(x):
    _square("slogdet", x)
    if x.dtype.kind == "c":
        _, sgn, lad = _lu_complex(x)
        return SlogdetResult(sgn, lad)
    _, sgn, lad = _lu_det(x)
    return SlogdetResult(sgn, lad)


def _dev_solve(a, b):
    _square("solve", a)
    if a.dtype.kind == "c" or b.dtype.kind == "c":
        cdt = _dtypes.to_dtype(np.result_type(a.dtype, b.dtype))
        vec = b.ndim == 1
        if vec:
            b = _ops.reshape(b, (b.shape[0], 1))
        a = _ops.astype(a, cdt, copy=False)
        b = _ops.astype(b, cdt, copy=False)
        r = _dev_solve(_embed(a), _embed(b))
        r = _unembed(r, a.shape[-1], b.shape[-1])
        return _ops.reshape(r, tuple(r.shape[:-1])) if vec else r
    dt = _dtypes.to_dtype(
        np.result_type(_float_dtype("solve", a), _float_dtype("solve", b))
    )
    vec = b.ndim == 1
    if vec:
        b = _ops.reshape(b, (b.shape[0], 1))
    n = a.shape[-1]
    if b.shape[-2] != n:
        raise ValueError(
            "solve: Input operand 1 has a mismatch in its core dimension 0 "
            f"(size {b.shape[-2]} is different from {n})"
        )
    batch_shape = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    m = b.shape[-1]
    a = _ops.broadcast_to(a, batch_shape + (n, n))
    b = _ops.broadcast_to(b, batch_shape + (n, m))
    if a.dtype != dt:
        a = _ops.astype(a, dt)
    out_shape = batch_shape + ((n,) if vec else (n, m))
    if _prod(batch_shape) == 0 or n == 0 or m == 0:
        return _new(out_shape, dt, a)
    if _cusolver.wanted(a, n, _prod(batch_shape), "lu"):
        x = _cusolver.solve(a, _ops.astype(b, dt, copy=False), dt)
        return _ops.reshape(x, out_shape)
    bf, _, _, _, info = _lu(a, _flat(b, dt), m)
    _check_info(info, "Singular matrix")
    return _ops.reshape(bf, out_shape)


def _dev_inv(x):
    _square("inv", x)
    if x.dtype.kind == "c":
        n = x.shape[-1]
        return _unembed(_dev_inv(_embed(x)), n, n)
    from ._creation import eye

    n = x.shape[-1]
    dt = _float_dtype("inv", x)
    e = eye(n, dtype=dt, sycl_queue=_queue_from_id(x._queue_id))
    return _dev_solve(x, _ops.broadcast_to(e, tuple(x.shape)))


def _dev_cholesky(x, upper):
    from . import kernel_api as kapi
    from ._kernel import call_kernel
    from ._linalg_kernels import k_cholesky

    _square("cholesky", x)
    if x.dtype.kind == "c":
        return _cholesky_complex(x, upper)
    dt = _float_dtype("cholesky", x)
    batch = _prod(x.shape[:-2])
    n = x.shape[-1]
    if _cusolver.wanted(x, n, batch, "cholesky"):
        return _cusolver.cholesky(_ops.astype(x, dt, copy=False), dt, upper)
    af = _flat(x, dt)
    if batch and n:
        info = _new((batch,), _dtypes.int64, x)
        call_kernel(
            k_cholesky,
            kapi.Range(batch),
            af,
            n,
            1 if upper else 0,
            info,
            _zero(dt),
        )
        _check_info(info, "Matrix is not positive definite")
    return _ops.reshape(af, tuple(x.shape))


def _cholesky_complex(x, upper):
    from . import kernel_api as kapi
    from ._kernel import call_kernel
    from ._linalg_kernels import k_cholesky_c

    batch = _prod(x.shape[:-2])
    n = x.shape[-1]
    dt = _part_dtype(x)
    ar, ai = _parts(x)
    if batch and n:
        info = _new((batch,), _dtypes.int64, x)
        call_kernel(
            k_cholesky_c,
            kapi.Range(batch),
            ar,
            ai,
            n,
            1 if upper else 0,
            info,
            _zero(dt),
        )
        _check_info(info, "Matrix is not positive definite")
    return _join(ar, ai, tuple(x.shape))


def _dev_qr(x, mode):
    from . import kernel_api as kapi
    from ._kernel import call_kernel
    from ._linalg_kernels import k_qr

    if mode not in ("reduced", "complete", "r", "raw"):
        raise ValueError(f"Unrecognized mode '{mode}'")
    if mode == "raw":
        _unsupported("qr", x, "mode='raw'")
    if x.ndim < 2:
        raise LinAlgError(
            f"{x.ndim}-dimensional array given. Array must be at least "
            "two-dimensional"
        )
    bs = tuple(x.shape[:-2])
    m, n = x.shape[-2], x.shape[-1]
    batch = _prod(bs)
    k = builtins.min(m, n)
    f = None  # the scale of each matrix for the kernels (below)
    if x.dtype.kind == "c":
        from ._linalg_kernels import k_qr_c

        # The kernels see each matrix divided by its largest magnitude, so
        # that the reflectors' norms neither overflow nor underflow where
        # LAPACK's scaled norms do not (NumPy's R of a matrix of 1e300s is
        # finite); R is scaled back, Q does not change.
        x, f = _binary_scaled(x)
        dt = _part_dtype(x)
        ar, ai = _parts(x)
        qr_, qi = (_new((batch * m * m,), dt, x) for _ in range(2))
        if batch and m:
            vr, vi = (_new((batch * m,), dt, x) for _ in range(2))
            call_kernel(
                k_qr_c,
                kapi.Range(batch),
                ar,
                ai,
                qr_,
                qi,
                vr,
                vi,
                m,
                n,
                _zero(dt),
            )
        r = _join(ar, ai, bs + (m, n))
        q = _join(qr_, qi, bs + (m, m))
    elif _cusolver.wanted(x, builtins.min(m, n), batch, "qr"):
        dt = _float_dtype("qr", x)
        q, r = _cusolver.qr(_ops.astype(x, dt, copy=False), dt, mode)
        return r if mode == "r" else QRResult(q, r)
    else:
        dt = _float_dtype("qr", x)
        x, f = _binary_scaled(_ops.astype(x, dt, copy=False))
        rf = _flat(x, dt)
        qf = _new((batch * m * m,), dt, x)
        if batch and m:
            v = _new((batch * m,), dt, x)
            call_kernel(k_qr, kapi.Range(batch), rf, qf, v, m, n, _zero(dt))
        r = _ops.reshape(rf, bs + (m, n))
        q = _ops.reshape(qf, bs + (m, m))
    # Exact zeros below the diagonal, whatever the reflectors left there
    # (NaN where the input holds infs or NaNs), as LAPACK's R has.
    from ._manipulation import triu

    r = triu(r if f is None else _times_real(r, f))
    if mode == "complete":
        return QRResult(q, r)
    r = r[..., :k, :]
    if mode == "r":
        return r
    return QRResult(q[..., :, :k], r)


def _dev_eigh(x, uplo, want):
    _square("eigh", x)
    if uplo not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    if x.dtype.kind not in "fc":
        x = _ops.astype(x, _float_dtype("eigh", x))
    x, f = _scaled(x)
    r = _eigh_kernel(x, uplo, want)
    if f is None:
        return r
    f = _ops.reshape(f, tuple(f.shape[:-1]))
    if not want:
        return r * f
    return EighResult(r.eigenvalues * f, r.eigenvectors)


def _eigh_kernel(x, uplo, want):
    from . import kernel_api as kapi
    from ._kernel import call_kernel
    from ._linalg_kernels import k_eigh

    if x.dtype.kind == "c":
        return _eigh_complex(x, uplo, want)
    dt = _float_dtype("eigh", x)
    bs = tuple(x.shape[:-2])
    n = x.shape[-1]
    batch = _prod(bs)
    if _cusolver.wanted_eigh(x, n, batch):
        w, v = _cusolver.eigh(_ops.astype(x, dt, copy=False), dt, uplo, want)
        return EighResult(w, v) if want else w
    af = _flat(x, dt)
    w = _new((batch * n,), dt, x)
    vec = _new((batch * n * n,) if want else (1,), dt, x)
    if batch and n:
        info = _new((batch,), _dtypes.int64, x)
        call_kernel(
            k_eigh,
            kapi.Range(batch),
            af,
            w,
            vec,
            n,
            1 if uplo == "L" else 0,
            1 if want else 0,
            info,
            _zero(dt),
            _eps(dt),
        )
        _check_info(info, "Eigenvalues did not converge")
    w = _ops.reshape(w, bs + (n,))
    if not want:
        return w
    return EighResult(w, _ops.reshape(vec, bs + (n, n)))


def _eigh_complex(x, uplo, want):
    from . import kernel_api as kapi
    from ._kernel import call_kernel
    from ._linalg_kernels import k_eigh_c

    dt = _part_dtype(x)
    bs = tuple(x.shape[:-2])
    n = x.shape[-1]
    batch = _prod(bs)
    ar, ai = _parts(x)
    w = _new((batch * n,), dt, x)
    size = (batch * n * n,) if want else (1,)
    vr, vi = _new(size, dt, x), _new(size, dt, x)
    if batch and n:
        info = _new((batch,), _dtypes.int64, x)
        call_kernel(
            k_eigh_c,
            kapi.Range(batch),
            ar,
            ai,
            w,
            vr,
            vi,
            n,
            1 if uplo == "L" else 0,
            1 if want else 0,
            info,
            _zero(dt),
            _eps(dt),
        )
        _check_info(info, "Eigenvalues did not converge")
    w = _ops.reshape(w, bs + (n,))
    if not want:
        return w
    return EighResult(w, _join(vr, vi, bs + (n, n)))


def _scaled(x):
    """(x / f, f): each matrix divided by its largest magnitude (f, of
    shape (..., 1, 1), 1 for zero and non-finite matrices), so that the
    Jacobi kernels' sums of squares neither overflow nor underflow."""
    if x.size == 0:
        return x, None
    f = _max_part(x)
    f = _ops.where((f > 0) & _ops.isfinite(f), f, 1)
    return _times_real(x, f, divide=True), f


def _max_part(x):
    """Each matrix's largest magnitude of an element (of a real or
    imaginary part, for complex x: finite where an |x| overflows)."""
    if x.dtype.kind == "c":
        from ._complex import imag, real

        a = _ops.maximum(_ops.absolute(real(x)), _ops.absolute(imag(x)))
    else:
        a = _ops.absolute(x)
    return _ops.max(a, axis=(-2, -1), keepdims=True)


def _times_real(x, f, divide=False):
    """x * f (x / f) for a real f, part by part for complex x, where a
    complex product would make an inf times a zero part a NaN."""
    op = _ops.divide if divide else _ops.multiply
    if x.dtype.kind != "c":
        return op(x, f)
    from ._complex import _from_parts, imag, real

    return _from_parts(op(real(x), f), op(imag(x), f))


def _dev_svd(x, full_matrices=True, compute_uv=True):
    if x.ndim < 2:
        raise LinAlgError(
            f"{x.ndim}-dimensional array given. Array must be at least "
            "two-dimensional"
        )
    if x.dtype.kind not in "fc":
        x = _ops.astype(x, _float_dtype("svd", x))
    xs, f = _scaled(x)
    r = _svd_kernel(xs, full_matrices, compute_uv)
    if f is None:
        return r
    f = _ops.reshape(f, tuple(f.shape[:-1]))
    if not compute_uv:
        return r * f
    return SVDResult(r.U, r.S * f, r.Vh)


def _svd_kernel(x, full_matrices=True, compute_uv=True):
    from . import kernel_api as kapi
    from ._kernel import call_kernel
    from ._linalg_kernels import k_svd

    if x.ndim < 2:
        raise LinAlgError(
            f"{x.ndim}-dimensional array given. Array must be at least "
            "two-dimensional"
        )
    cplx = x.dtype.kind == "c"
    dt = _part_dtype(x) if cplx else _float_dtype("svd", x)
    m0, n0 = x.shape[-2], x.shape[-1]
    if not cplx and _cusolver.wanted_svd(x, m0, n0, _prod(x.shape[:-2])):
        u, s, vh = _cusolver.svd(
            _ops.astype(x, dt, copy=False), dt, full_matrices, compute_uv
        )
        return SVDResult(u, s, vh) if compute_uv else s
    rdt = x.dtype if cplx else dt
    bs = tuple(x.shape[:-2])
    wide = m0 < n0
    if wide:
        x = _mH(x)
    m, n = builtins.max(m0, n0), builtins.min(m0, n0)
    batch = _prod(bs)
    mu = m if (full_matrices and compute_uv) else n
    if mu != n:
        u3 = _zeros((batch, m, mu), rdt, x)
        u3[:, :, :n] = _ops.reshape(x, (batch, m, n))
        x = u3
    if cplx:
        us = list(_parts(x))
    else:
        us = [_flat(x, dt)]
    s = _new((batch * n,), dt, x)
    vsize = (batch * n * n,) if compute_uv else (1,)
    vs = [_new(vsize, dt, x) for _ in us]
    if batch and n:
        from ._linalg_kernels import k_svd_c

        info = _new((batch,), _dtypes.int64, x)
        call_kernel(
            k_svd_c if cplx else k_svd,
            kapi.Range(batch),
            *us[:1],
            *us[1:],
            s,
            *vs,
            m,
            n,
            mu,
            1 if compute_uv else 0,
            info,
            _zero(dt),
            _eps(dt, m),
        )
        if cplx and compute_uv:
            from ._linalg_kernels import k_svd_basis_c

            call_kernel(
                k_svd_basis_c,
                kapi.Range(batch),
                *us,
                s,
                m,
                n,
                mu,
                _zero(dt),
                _eps(dt, m),
            )
        _check_info(info, "SVD did not converge")
    s = _ops.reshape(s, bs + (n,))
    if not compute_uv:
        return s
    if cplx:
        u = _join(us[0], us[1], bs + (m, mu))
        vh = _join(vs[0], vs[1], bs + (n, n))
    else:
        u = _ops.reshape(us[0], bs + (m, mu))
        vh = _ops.reshape(vs[0], bs + (n, n))
    if batch and n == 0 and mu:
        from ._creation import eye

        e = eye(mu, dtype=rdt, sycl_queue=_queue_from_id(x._queue_id))
        u = _ops.astype(_ops.broadcast_to(e, bs + (m, mu)), rdt, copy=True)
    if wide:
        u, vh = _mH(vh), _mH(u)
    return SVDResult(u, s, vh)


def _sv_cutoff(s, rtol):
    """rtol times each matrix's largest singular value, (..., 1)."""
    if s.shape[-1] == 0:
        return _ops.reshape(
            s[..., :0].sum(axis=-1), tuple(s.shape[:-1]) + (1,)
        )
    smax = _ops.max(s, axis=-1, keepdims=True)
    if hasattr(rtol, "_queue_id"):
        rtol = _ops.expand_dims(rtol, -1)
    elif np.ndim(rtol):
        rtol = _ops.expand_dims(_like(np.asarray(rtol), s), -1)
    return smax * rtol


def _dev_pinv(x, rtol):
    if x.ndim < 2:
        raise LinAlgError(
            f"{x.ndim}-dimensional array given. Array must be at least "
            "two-dimensional"
        )
    if x.dtype.kind == "c":
        m, n = x.shape[-2:]
        return _unembed(_dev_pinv(_embed(x), rtol), n, m)
    u, s, vh = _dev_svd(x, full_matrices=False)
    dt = s.dtype
    if rtol is None:
        rtol = 1e-15
    cut = _sv_cutoff(s, rtol)
    big = s > cut
    sinv = _ops.where(big, 1 / _ops.where(big, s, 1), 0)
    sinv = _ops.astype(sinv, dt, copy=False)
    vt = _ops.matrix_transpose(vh) * _ops.expand_dims(sinv, -2)
    return matmul(vt, _ops.matrix_transpose(u))


def _dev_matrix_rank(x, tol, rtol):
    s = _dev_svd(x, compute_uv=False)
    if tol is None:
        if rtol is None:
            rtol = builtins.max(x.shape[-2:]) * float(_eps(s.dtype))
        cut = _sv_cutoff(s, rtol)
    else:
        cut = tol
        if hasattr(tol, "_queue_id"):
            cut = _ops.expand_dims(tol, -1)
        elif np.ndim(tol):
            cut = _ops.expand_dims(_like(np.asarray(tol), s), -1)
    return _ops.sum(_ops.astype(s > cut, _dtypes.int64), axis=-1)


def _dev_cond(x, p):
    if p in (None, 2, -2):
        s = _dev_svd(x, compute_uv=False)
        if p == -2:
            r = s[..., -1] / s[..., 0]
        else:
            r = s[..., 0] / s[..., -1]
    else:
        _square("cond", x)
        # NumPy's: norm(x) * norm(inv(x)), inf for singular matrices
        xi, info = _dev_solve_unchecked(x)
        r = matrix_norm(x, ord=p) * matrix_norm(xi, ord=p)
        r = _ops.where(_ops.reshape(info, tuple(r.shape)) != 0, np.inf, r)
    return _ops.where(_ops.isnan(r), np.inf, r)


def _dev_solve_unchecked(x):
    if x.dtype.kind == "c":
        n = x.shape[-1]
        r, info = _dev_solve_unchecked(_embed(x))
        return _unembed(r, n, n), info
    from ._creation import eye

    n = x.shape[-1]
    dt = _float_dtype("cond", x)
    e = eye(n, dtype=dt, sycl_queue=_queue_from_id(x._queue_id))
    b = _ops.broadcast_to(e, tuple(x.shape))
    if _prod(x.shape[:-2]) == 0 or n == 0:
        info = _zeros((_prod(x.shape[:-2]),), _dtypes.int64, x)
        return _new(tuple(x.shape), dt, x), info
    bf, _, _, _, info = _lu(x, _flat(b, dt), n)
    return _ops.reshape(bf, tuple(x.shape)), info


def _dev_lstsq(a, b, rcond):
    if a.ndim != 2:
        raise LinAlgError(
            f"{a.ndim}-dimensional array given. Array must be two-dimensional"
        )
    vec = b.ndim == 1
    if vec:
        b = _ops.reshape(b, (b.shape[0], 1))
    m, n = a.shape
    if b.shape[0] != m:
        raise LinAlgError("Incompatible dimensions")
    dt = _dtypes.to_dtype(
        np.result_type(_inexact_dtype("lstsq", a), _inexact_dtype("lstsq", b))
    )
    if a.dtype != dt:
        a = _ops.astype(a, dt)
    if b.dtype != dt:
        b = _ops.astype(b, dt)
    if rcond is None:
        rcond = float(np.finfo(str(dt)).eps) * builtins.max(m, n)
    k = b.shape[1]
    if m == 0 or n == 0:
        x = _zeros((n, k), dt, a)
        s = _new((0,), _real_float(a), a)
        rank = 0
    else:
        u, s, vh = _dev_svd(a, full_matrices=False)
        cut = _sv_cutoff(s, rcond)
        big = s > cut
        rank = int(_ops.sum(_ops.astype(big, _dtypes.int64)))
        sinv = _ops.astype(
            _ops.where(big, 1 / _ops.where(big, s, 1), 0), s.dtype, copy=False
        )
        utb = matmul(_mH(u), b)
        x = matmul(_mH(vh), _ops.expand_dims(sinv, -1) * utb)
    if rank == n and m > n:
        d = _ops.absolute(b - matmul(a, x))
        resid = _ops.sum(d * d, axis=0)
    else:
        resid = _new((0,), s.dtype, a)
    if vec:
        x = _ops.reshape(x, (n,))
    return x, resid, rank, s


def _dev_tensorinv(a, ind):
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    old = tuple(a.shape)
    prod = _prod(old[ind:])
    if _prod(old[:ind]) != prod:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    ia = _dev_inv(_ops.reshape(a, (prod, prod)))
    return _ops.reshape(ia, old[ind:] + old[:ind])


def _dev_tensorsolve(a, b, axes):
    if axes is not None:
        allaxes = list(range(a.ndim))
        for k in axes:
            allaxes.remove(k)
            allaxes.insert(a.ndim, k)
        a = _ops.permute_dims(a, tuple(allaxes))
    old = tuple(a.shape[-(a.ndim - b.ndim) :])
    prod = _prod(old)
    if _prod(a.shape) != prod * prod:
        raise LinAlgError(
            "Input arrays must satisfy the requirement "
            "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])"
        )
    r = _dev_solve(_ops.reshape(a, (prod, prod)), _ops.reshape(b, (prod,)))
    return _ops.reshape(r, old)


# --- on every device ---------------------------------------------------------


def diagonal(x, /, *, offset=0, axis1=-2, axis2=-1):
    """The diagonal (offset ``offset``) of the matrices in ``axis1`` and
    ``axis2``, as the last axis. Eagerly a view, as NumPy's."""
    (x,), qid, kind = _arrays(x)
    nd = x.ndim
    if nd < 2:
        raise ValueError("diagonal needs an array of rank >= 2")
    a1, a2 = axis1 % nd, axis2 % nd
    if a1 == a2:
        raise ValueError("axis1 and axis2 cannot be the same")
    n1, n2 = x.shape[a1], x.shape[a2]
    k = operator.index(offset)
    length = builtins.max(
        0, builtins.min(n1, n2 - k) if k >= 0 else builtins.min(n1 + k, n2)
    )
    rest = [i for i in range(nd) if i not in (a1, a2)]
    if not _traced(x):
        s = x._strides
        off = x._offset + (k * s[a2] if k >= 0 else -k * s[a1])
        if length == 0:
            off = x._offset
        shape = [x.shape[i] for i in rest] + [length]
        strides = [s[i] for i in rest] + [s[a1] + s[a2]]
        return x._view(off, shape, strides)
    # Traced: a mask over the two axes, then a sum.
    xt = _ops.permute_dims(x, tuple(rest + [a1, a2]))
    if length == 0:
        raise NotImplementedError("an empty diagonal inside @sluice.jit")
    sel = np.zeros((n1, n2, length), dtype=np.bool_)
    for d in range(length):
        r, c = (d, d + k) if k >= 0 else (d - k, d)
        sel[r, c, d] = True
    from ._creation import asarray
    from ._device import _queue_from_id

    mask = asarray(sel, sycl_queue=_queue_from_id(qid))
    xe = _ops.expand_dims(xt, -1)  # (..., n1, n2, 1)
    zero = False if x.dtype.kind == "b" else 0
    picked = _ops.where(mask, xe, zero)
    if x.dtype.kind == "b":
        return _ops.any(picked, axis=(-3, -2))
    r = _ops.sum(picked, axis=(-3, -2))
    return _ops.astype(r, x.dtype, copy=False) if r.dtype != x.dtype else r


def trace(x, /, *, offset=0, dtype=None):
    """The sum of each matrix's diagonal (over the last two axes)."""
    d = diagonal(x, offset=offset)
    if dtype is None and d.dtype.kind in "biu":
        dtype = _dtypes.uint64 if d.dtype.kind == "u" else _dtypes.int64
    r = _ops.sum(d, axis=-1, dtype=dtype)
    return r


def cross(x1, x2, /, *, axis=-1):
    """The cross product of 3-vectors along ``axis`` (the operands
    broadcast)."""
    (a, b), qid, kind = _arrays(x1, x2)
    if a.shape[axis] != 3 or b.shape[axis] != 3:
        raise ValueError(
            "cross: both operands need length 3 along axis "
            f"{axis} (got {a.shape[axis]} and {b.shape[axis]})"
        )
    dt = _dtypes.to_dtype(np.result_type(a.dtype, b.dtype))
    from ._manipulation import stack
    from ._products import _moveaxis

    a = _moveaxis(a, axis, -1)
    b = _moveaxis(b, axis, -1)
    if a.dtype != dt:
        a = _ops.astype(a, dt)
    if b.dtype != dt:
        b = _ops.astype(b, dt)
    # by components, in the operands' dtype (unsigned products wrap as
    # NumPy's do)
    a0, a1, a2 = (a[..., i] for i in range(3))
    b0, b1, b2 = (b[..., i] for i in range(3))
    r = stack(
        [a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1
    )
    if r.dtype != dt:
        r = _ops.astype(r, dt, copy=False)
    return _moveaxis(r, -1, axis) if axis not in (-1, r.ndim - 1) else r


def _axes(axis, nd):
    if axis is None:
        return tuple(range(nd))
    if isinstance(axis, (int, np.integer)):
        axis = (axis,)
    return tuple(operator.index(a) % nd for a in axis)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """The vector ``ord``-norm over ``axis`` (all axes when None)."""
    (x,), qid, kind = _arrays(x)
    nd = x.ndim
    if x.dtype.kind == "c":  # every norm of x is that of |x|
        x = _ops.absolute(x)
    fdt = _real_float(x)
    if x.dtype != fdt:
        x = _ops.astype(x, fdt)
    axes = _axes(axis, nd) if nd else ()
    if axis is None:
        x = _ops.reshape(x, (-1,))
        red = (0,)
    else:
        red = axes
    a = _ops.absolute(x)
    if ord == 2:
        r = _ops.sqrt(_ops.sum(x * x, axis=red))
    elif ord == 1:
        r = _ops.sum(a, axis=red)
    elif ord == np.inf:
        r = _ops.max(a, axis=red) if x.size else _ops.sum(a, axis=red)
    elif ord == -np.inf:
        r = _ops.min(a, axis=red)
    elif ord == 0:
        r = _ops.sum(_ops.astype(_ops.not_equal(x, 0), fdt), axis=red)
    else:
        p = float(ord)
        r = _ops.sum(_ops.power(a, p), axis=red) ** (1.0 / p)
    if keepdims:
        if axis is None:
            shape = (1,) * nd
        else:
            shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
        r = _ops.reshape(r, shape)
    return r


_HOST_MATRIX_NORMS = (2, -2, "nuc")


def _singular_norm(s, ord, keepdims):
    """The 2, -2 or nuclear norm from the singular values ``s``."""
    if ord == "nuc" or s.shape[-1] == 0:
        r = _ops.sum(s, axis=-1)
    elif ord == 2:
        r = _ops.max(s, axis=-1)
    else:
        r = _ops.min(s, axis=-1)
    if keepdims:
        r = _ops.reshape(r, tuple(r.shape) + (1, 1))
    return r


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """The matrix norm over the last two axes: ``fro``, 1, -1, inf, -inf on
    every device; 2, -2 and ``nuc`` (SVD) on the host."""
    (x,), qid, kind = _arrays(x)
    if x.ndim < 2:  # NumPy's AxisError (a ValueError and IndexError)
        raise np.exceptions.AxisError(
            f"matrix_norm needs an array of rank >= 2, not {x.ndim}"
        )
    if ord in _HOST_MATRIX_NORMS and _traced(x):
        # svdvals is a step inside @sluice.jit (see the end of the file).
        return _singular_norm(svdvals(x), ord, keepdims)
    if ord in _HOST_MATRIX_NORMS and _use_kernels("matrix_norm", x):
        return _singular_norm(_dev_svd(x, compute_uv=False), ord, keepdims)
    if ord in _HOST_MATRIX_NORMS:
        r = _lapack(
            "matrix_norm",
            lambda a: np.asarray(
                np.linalg.norm(a, ord=ord, axis=(-2, -1), keepdims=keepdims)
            ),
            x,
        )
        return r
    if x.dtype.kind == "c":  # these norms of x are those of |x|
        x = _ops.absolute(x)
    fdt = _real_float(x)
    if x.dtype != fdt:
        x = _ops.astype(x, fdt)
    a = _ops.absolute(x)
    if ord in ("fro", None):
        r = _ops.sqrt(_ops.sum(x * x, axis=(-2, -1), keepdims=keepdims))
    elif ord in (1, -1):
        s = _ops.sum(a, axis=-2, keepdims=keepdims)
        f = _ops.max if ord == 1 else _ops.min
        r = f(s, axis=-1, keepdims=keepdims)
    elif ord in (np.inf, -np.inf):
        s = _ops.sum(a, axis=-1, keepdims=True)
        f = _ops.max if ord == np.inf else _ops.min
        r = f(s, axis=-2, keepdims=True)
        if not keepdims:
            r = _ops.reshape(r, tuple(r.shape[:-2]))
    else:
        raise ValueError(f"matrix_norm: invalid norm order {ord!r}")
    return r


def norm(x, ord=None, axis=None, keepdims=False):
    """NumPy's norm: the 2-norm of the flattened array, or a vector norm
    (one axis) or matrix norm (two axes)."""
    (x,), qid, kind = _arrays(x)
    nd = x.ndim
    if axis is None:
        if ord is None:
            r = vector_norm(x, keepdims=keepdims)
            return r
        axis = tuple(range(nd))
    if isinstance(axis, (int, np.integer)):
        axis = (int(axis),)
    axis = tuple(axis)
    if len(axis) == 1:
        return vector_norm(
            x, axis=axis, keepdims=keepdims, ord=2 if ord is None else ord
        )
    if len(axis) == 2:
        a1, a2 = axis[0] % nd, axis[1] % nd
        if a1 == a2:
            raise ValueError("Duplicate axes given.")
        rest = [i for i in range(nd) if i not in (a1, a2)]
        xt = (
            _ops.permute_dims(x, tuple(rest + [a1, a2]))
            if rest + [a1, a2] != list(range(nd))
            else x
        )
        r = matrix_norm(xt, ord="fro" if ord is None else ord)
        if keepdims:
            shape = [1 if i in (a1, a2) else d for i, d in enumerate(x.shape)]
            r = _ops.reshape(r, tuple(shape))
        return r
    raise ValueError("Improper number of dimensions to norm.")


def multi_dot(arrays, *, out=None):
    """The product of a chain of matrices, in the cheapest order (dynamic
    programming over the chain, as NumPy's multi_dot)."""
    arrays = list(arrays)
    if len(arrays) < 2:
        raise ValueError("multi_dot needs at least two arrays")
    arrs, qid, kind = _arrays(*arrays)
    first_1d = arrs[0].ndim == 1
    last_1d = arrs[-1].ndim == 1
    if first_1d:
        arrs[0] = _ops.reshape(arrs[0], (1, -1))
    if last_1d:
        arrs[-1] = _ops.reshape(arrs[-1], (-1, 1))
    for a in arrs:
        if a.ndim != 2:
            raise LinAlgError(
                f"multi_dot: {a.ndim}-dimensional array given; every array "
                "but a 1-D first or last one must be two-dimensional"
            )
    dims = [arrs[0].shape[0]] + [a.shape[1] for a in arrs]
    n = len(arrs)
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = (
                    cost[i][k]
                    + cost[k + 1][j]
                    + dims[i] * dims[k + 1] * dims[j + 1]
                )
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j] = c
                    split[i][j] = k

    @functools.lru_cache(maxsize=None)
    def chain(i, j):
        if i == j:
            return arrs[i]
        k = split[i][j]
        return matmul(chain(i, k), chain(k + 1, j))

    r = chain(0, n - 1)
    if first_1d and last_1d:
        r = _ops.reshape(r, ())
    elif first_1d:
        r = _ops.reshape(r, (r.shape[-1],))
    elif last_1d:
        r = _ops.reshape(r, (r.shape[0],))
    return _finish(r, out, "multi_dot")


# --- Inside @sluice.jit ------------------------------------------------------
#
# The factorisations and solvers are steps of a jitted function, as sorts
# are (sluice._jit_library): the program before the call ends, the
# function runs on the concrete arrays when the jitted function is called
# (on their device, LinAlgError included), and its results start the next
# program. Their types come from a run on identity matrices at trace time.


def _identity_stand_in(shape, dtype, queue):
    """Identity matrices of ``shape`` (ones for vectors): a well-posed
    input for every solver, for the results' types."""
    from ._creation import eye, ones

    if len(shape) < 2:
        return ones(shape, dtype=dtype, sycl_queue=queue)
    m, n = shape[-2], shape[-1]
    e = eye(m, n, dtype=dtype, sycl_queue=queue)
    return _ops.broadcast_to(e, tuple(shape)).copy()


def _tensor_identity_stand_in(shape, dtype, queue):
    """The identity of the first split of ``shape`` into two equal
    products (tensorinv's and tensorsolve's square operator), reshaped."""
    from ._creation import eye

    for p in range(1, len(shape)):
        n = _prod(shape[:p])
        if n == _prod(shape[p:]):
            e = eye(n, dtype=dtype, sycl_queue=queue)
            return _ops.reshape(e, tuple(shape))
    return _identity_stand_in(shape, dtype, queue)


def _complex_results(fn):
    """eig/eigvals with complex results always (NumPy 2.5's and the Array
    API's rule): inside @sluice.jit the results' types cannot depend on
    the data."""

    @functools.wraps(fn)
    def call(x, /):
        r = fn(x)
        parts = r if isinstance(r, tuple) else (r,)
        out = []
        for a in parts:
            if a.dtype.kind != "c":
                a = _ops.astype(
                    a,
                    _dtypes.complex64
                    if a.dtype == _dtypes.float32
                    else _dtypes.complex128,
                )
            out.append(a)
        return type(r)(*out) if isinstance(r, tuple) else out[0]

    return call


def _traceable(fn, named=None, eager=None):
    """``fn`` as a step of @sluice.jit functions; ``named`` rebuilds a
    named tuple of results, ``eager`` is what the step runs (fn by
    default)."""
    from . import _jit_library

    run = eager or fn
    stepped = _jit_library.steps(
        _jit_library.by_example(
            run, [_identity_stand_in, _tensor_identity_stand_in]
        )
    )(run)

    @functools.wraps(fn)
    def call(*args, **kwargs):
        if _jit_library._traced(args, kwargs) is None:
            return fn(*args, **kwargs)
        r = stepped(*args, **kwargs)
        if named is not None and isinstance(r, tuple):
            return named(*r)
        return r

    return call


for _name, _named in (
    ("det", None),
    ("slogdet", SlogdetResult),
    ("inv", None),
    ("pinv", None),
    ("solve", None),
    ("cholesky", None),
    ("qr", QRResult),
    ("svd", SVDResult),
    ("svdvals", None),
    ("eigh", EighResult),
    ("eigvalsh", None),
    ("matrix_rank", None),
    ("cond", None),
    ("tensorinv", None),
    ("tensorsolve", None),
):
    globals()[_name] = _traceable(globals()[_name], _named)
eig = _traceable(eig, EigResult, _complex_results(eig))
eigvals = _traceable(eigvals, None, _complex_results(eigvals))
del _name, _named
