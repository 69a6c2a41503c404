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
  qr svd svdvals eig eigh eigvals eigvalsh matrix_rank cond tensorinv
  tensorsolve``, 2-norms and nuclear norms) run on the host device through
  LAPACK (the one NumPy links, on zero-copy views of the USM memory). On
  other devices they raise ``NotImplementedError`` naming the device and
  the explicit migration (``x.to_device("host")``); inside ``@sluice.jit``
  a ``TracerError``.

Singular or non-convergent input raises ``sluice.linalg.LinAlgError``, a
subclass of ``numpy.linalg.LinAlgError``. See docs/linalg.md.
"""

import builtins
import functools
import operator

import numpy as np

from . import _dtypes, _ops
from ._errors import TracerError
from ._products import (
    _arrays,
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
            "serves the host device; no generated kernel for this device). "
            "Nothing is copied implicitly: migrate the operands with "
            "x.to_device('host') and move the result back"
        )
    views = [_host_view(a) for a in arrs]
    if n_arrays:
        views += list(xs[n_arrays:])
    for v in views[: len(arrs)]:
        if v.dtype.kind not in "biuf":
            raise TypeError(
                f"sluice.linalg.{name}: unsupported dtype {v.dtype}"
            )
    try:
        with np.errstate(all="ignore"):
            r = fn(*views)
    except np.linalg.LinAlgError as e:
        raise LinAlgError(str(e)) from None

    def back(v):
        v = np.asarray(v)
        if v.dtype.kind == "c":
            if not np.any(v.imag):
                v = v.real
            else:
                raise TypeError(
                    f"sluice.linalg.{name}: the result is complex, and "
                    "sluice arrays have no complex dtype yet"
                )
        return _from_numpy(v, qid, kind)

    if isinstance(r, tuple):
        vals = [back(v) for v in r]
        return type(r)(*vals) if hasattr(r, "_fields") else tuple(vals)
    return back(r)


def _real_float(x):
    dt = x.dtype
    return dt if dt.kind == "f" else _dtypes.float64


def det(x, /):
    """The determinant of each matrix (LAPACK on the host)."""
    return _lapack("det", np.linalg.det, x)


def slogdet(x, /):
    """(sign, log|det|) of each matrix (LAPACK on the host)."""
    return _lapack("slogdet", np.linalg.slogdet, x)


def inv(x, /):
    """The inverse of each matrix (LAPACK on the host); singular input
    raises LinAlgError."""
    return _lapack("inv", np.linalg.inv, x)


def pinv(x, /, rcond=None, hermitian=False, *, rtol=None):
    """The Moore-Penrose pseudo-inverse (SVD on the host)."""
    kw = {"hermitian": hermitian}
    if rtol is not None:
        kw["rtol"] = rtol
    elif rcond is not None:
        kw["rcond"] = rcond
    return _lapack("pinv", lambda a: np.linalg.pinv(a, **kw), x)


def solve(x1, x2, /):
    """The solution of ``x1 @ x = x2`` (LAPACK on the host)."""
    return _lapack("solve", np.linalg.solve, x1, x2)


def lstsq(a, b, rcond=None):
    """The least-squares solution of ``a @ x = b`` (NumPy's result tuple:
    solution, residuals, rank, singular values)."""
    return _lapack(
        "lstsq", lambda x, y: np.linalg.lstsq(x, y, rcond=rcond), a, b
    )


def cholesky(x, /, *, upper=False):
    """The Cholesky factor; not positive definite input raises
    LinAlgError."""

    def f(a):
        r = np.linalg.cholesky(a)
        return np.swapaxes(r, -1, -2).copy() if upper else r

    return _lapack("cholesky", f, x)


def qr(x, /, mode="reduced"):
    """The QR factorisation (``mode``: reduced, complete, r, raw)."""
    return _lapack("qr", lambda a: np.linalg.qr(a, mode=mode), x)


def svd(x, /, full_matrices=True, compute_uv=True, hermitian=False):
    """The singular value decomposition (U, S, Vh)."""
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
    return _lapack("svdvals", lambda a: np.linalg.svd(a, compute_uv=False), x)


def eig(x, /):
    """Eigenvalues and right eigenvectors of general matrices (results
    with complex values raise TypeError until complex dtypes land)."""
    return _lapack("eig", np.linalg.eig, x)


def eigvals(x, /):
    """Eigenvalues of general matrices."""
    return _lapack("eigvals", np.linalg.eigvals, x)


def eigh(x, /, UPLO="L"):
    """Eigenvalues (ascending) and eigenvectors of symmetric matrices."""
    return _lapack("eigh", lambda a: np.linalg.eigh(a, UPLO=UPLO), x)


def eigvalsh(x, /, UPLO="L"):
    """Eigenvalues (ascending) of symmetric matrices."""
    return _lapack("eigvalsh", lambda a: np.linalg.eigvalsh(a, UPLO=UPLO), x)


def matrix_rank(x, /, tol=None, hermitian=False, *, rtol=None):
    """The rank by SVD, as NumPy computes it."""
    kw = {"hermitian": hermitian}
    if rtol is not None:
        kw["rtol"] = rtol
    if tol is not None:
        kw["tol"] = tol
    return _lapack(
        "matrix_rank", lambda a: np.asarray(np.linalg.matrix_rank(a, **kw)), x
    )


def cond(x, p=None):
    """The condition number in norm ``p``."""
    return _lapack("cond", lambda a: np.asarray(np.linalg.cond(a, p)), x)


def tensorinv(a, ind=2):
    """The inverse of a tensor with respect to ``tensordot(., ., ind)``."""
    return _lapack(
        "tensorinv",
        lambda x, i: np.linalg.tensorinv(x, ind=i),
        a,
        ind,
        n_arrays=1,
    )


def tensorsolve(a, b, axes=None):
    """The solution x of ``tensordot(a, x, b.ndim) = b``."""
    return _lapack(
        "tensorsolve",
        lambda x, y, ax: np.linalg.tensorsolve(x, y, axes=ax),
        a,
        b,
        axes,
        n_arrays=2,
    )


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
    from ._products import _moveaxis

    a = _moveaxis(a, axis, -1)
    b = _moveaxis(b, axis, -1)
    # cross(a, b)_i = sum_jk eps_ijk a_j b_k: the outer product of the two
    # vectors times the Levi-Civita tensor as a (9, 3) matrix.
    eps = np.zeros((3, 3, 3), dtype=dt)
    eps[0, 1, 2] = eps[1, 2, 0] = eps[2, 0, 1] = 1
    eps[0, 2, 1] = eps[2, 1, 0] = eps[1, 0, 2] = -1
    from ._creation import asarray
    from ._device import _queue_from_id

    e = asarray(
        np.ascontiguousarray(eps.transpose(1, 2, 0).reshape(9, 3)),
        sycl_queue=_queue_from_id(qid),
    )
    ab = _ops.multiply(_ops.expand_dims(a, -1), _ops.expand_dims(b, -2))
    shape = tuple(ab.shape[:-2])
    r = matmul(_ops.reshape(ab, shape + (9,)), e)
    if r.dtype != dt:
        r = _ops.astype(r, dt, copy=False)
    from ._products import _moveaxis as mv

    return mv(r, -1, axis) if axis not in (-1, r.ndim - 1) else r


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


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """The matrix norm over the last two axes: ``fro``, 1, -1, inf, -inf on
    every device; 2, -2 and ``nuc`` (SVD) on the host."""
    (x,), qid, kind = _arrays(x)
    if x.ndim < 2:
        raise ValueError("matrix_norm needs an array of rank >= 2")
    if ord in _HOST_MATRIX_NORMS:
        r = _lapack(
            "matrix_norm",
            lambda a: np.asarray(
                np.linalg.norm(a, ord=ord, axis=(-2, -1), keepdims=keepdims)
            ),
            x,
        )
        return r
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
            raise ValueError(
                "multi_dot: every array but the first and last must be 2-D"
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
