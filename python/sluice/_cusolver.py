"""cuSOLVER, loaded at run time, for sluice.linalg's large matrices on
CUDA devices (docs/linalg.md).

Like cuBLAS in the runtime, the library is opened with dlopen (ctypes)
the first time a CUDA factorisation of order >= MIN_ORDER runs:
``$SLUICE_CUSOLVER`` (a path or soname; ``none`` keeps the generated
kernels everywhere), else libcusolver.so.* beside the cuBLAS the process
has loaded, in the CUDA toolkit ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda)
or in the ``nvidia`` pip packages (PyTorch's, CuPy's), else by soname.
Where none loads, the generated kernels serve every size.

The calls go on the queue's own CUstream, on the operands' device memory:
row-major matrices are cuSOLVER's column-major ones transposed, which the
functions below use instead of copying where they can (an LU of A^T
solves with A by the transposed solve; the symmetric and SVD cases read
the other triangle, or the transposed factors). Each call waits for the
stream at its end (the per-matrix status, devInfo, is read back to raise
LinAlgError as NumPy does), so the work buffers can go when it returns.
"""

import builtins
import ctypes
import glob
import os
import sys

import numpy as np

from . import _dtypes, _ops

# Matrices of at least these orders (one or a batch of them, float32 or
# float64; the smaller side for qr and svd) go to cuSOLVER, smaller ones to
# the generated kernels, which are faster there: measured on an H100
# (bench/RESULTS.md, "On an H100, against CuPy and PyTorch").
MIN_ORDER = {"lu": 64, "cholesky": 64, "qr": 32, "eigh": 16, "svd": 16}
# Batches of symmetric matrices up to this order go to syevjBatched, of
# matrices with both sides up to it to gesvdjBatched (one launch for the
# batch), as the Jacobi kernels run a matrix per work-item and are far
# slower there.
BATCHED_MAX_N = 32

_FILL_LOWER, _FILL_UPPER = 0, 1  # cublasFillMode_t
_OP_T = 1  # cublasOperation_t
_EIG_NOVECTOR, _EIG_VECTOR = 0, 1  # cusolverEigMode_t
_DEPENDENCIES = (
    "libnvJitLink.so",
    "libcusparse.so",
    "libcublasLt.so",
    "libcublas.so",
)

_state = {"tried": False, "lib": None, "why": "", "handles": {}}


def _versions(directory, stem):
    """stem.* in directory, newest version first."""
    found = glob.glob(os.path.join(directory, stem + ".*"))

    def key(p):
        tail = p[len(os.path.join(directory, stem)) + 1 :].split(".")
        return [int(t) if t.isdigit() else -1 for t in tail]

    return sorted(found, key=key, reverse=True)


def _search_dirs():
    dirs = []
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split()[-1]
                if "/libcublas.so" in path:
                    dirs.append(os.path.dirname(path))
    except OSError:
        pass
    for env in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(env):
            dirs.append(os.path.join(os.environ[env], "lib64"))
    dirs += ["/usr/local/cuda/lib64"]
    for p in sys.path:
        dirs += sorted(glob.glob(os.path.join(p, "nvidia", "*", "lib")))
    return list(dict.fromkeys(d for d in dirs if os.path.isdir(d)))


def _open(path):
    """Opens path, its dependencies from its own directory first (the
    toolkit's directory is often not on the loader's path)."""
    d = os.path.dirname(path)
    if d:
        for stem in _DEPENDENCIES:
            for dep in _versions(d, stem)[:1]:
                try:
                    ctypes.CDLL(dep, mode=ctypes.RTLD_GLOBAL)
                except OSError:
                    pass
    return ctypes.CDLL(path)


def _load():
    if _state["tried"]:
        return _state["lib"]
    _state["tried"] = True
    env = os.environ.get("SLUICE_CUSOLVER", "")
    if env == "none":
        _state["why"] = "SLUICE_CUSOLVER=none"
        return None
    names = [env] if env else []
    if not env:
        for d in _search_dirs():
            names += _versions(d, "libcusolver.so")
        names += ["libcusolver.so.12", "libcusolver.so.11"]
    for name in names:
        try:
            lib = _open(name)
            lib.cusolverDnCreate  # noqa: B018 (present: a dense cuSOLVER)
        except (OSError, AttributeError):
            continue
        _state["lib"] = lib
        _state["path"] = name
        return lib
    _state["why"] = "no libcusolver.so could be loaded"
    return None


def library_path():
    """The cuSOLVER loaded (None when none is)."""
    return _state.get("path") if _load() is not None else None


def wanted(x, n, batch, kind):
    """Whether a float32/float64 factorisation (kind: a key of MIN_ORDER)
    of batch matrices of order n on x's queue goes to cuSOLVER."""
    if n < MIN_ORDER[kind] or batch == 0:
        return False
    return _cuda_ready(x)


def wanted_eigh(x, n, batch):
    """Whether eigh of batch symmetric matrices of order n goes to
    cuSOLVER: as wanted(), and batches of orders up to BATCHED_MAX_N."""
    if 1 < batch and 0 < n <= BATCHED_MAX_N:
        return _cuda_ready(x)
    return wanted(x, n, batch, "eigh")


def wanted_svd(x, m, n, batch):
    """Whether the SVD of batch m x n matrices goes to cuSOLVER: as
    wanted() for the smaller side, and batches up to BATCHED_MAX_N."""
    if 1 < batch and 0 < builtins.min(m, n) and builtins.max(m, n) <= 32:
        return _cuda_ready(x)
    return wanted(x, builtins.min(m, n), batch, "svd")


def _cuda_ready(x):
    from ._device import _queue_from_id

    if x.dtype not in (_dtypes.float32, _dtypes.float64):
        return False
    dev = _queue_from_id(x._queue_id).sycl_device
    if not dev.filter_string.startswith("cuda"):
        return False
    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    return _load() is not None


def _ptr(a):
    """The device address of a (which waits for its pending writes)."""
    return a.__sycl_usm_array_interface__["data"][0]


class _Session:
    """cuSOLVER calls on x's queue: the handle bound to its stream, the
    work buffers (kept until finish() has waited for the stream)."""

    def __init__(self, x, dt):
        from . import _sluice as _ext
        from ._device import _queue_from_id

        self.lib = _load()
        self.like = x
        self.dt = dt
        self.p = "S" if dt == _dtypes.float32 else "D"
        self.size = np.dtype(str(dt)).itemsize
        self.keep = []
        self.stream = _ext.queue_native_handle(x._queue_id)
        dev = _queue_from_id(x._queue_id).sycl_device
        ordinal = int(dev.filter_string.rsplit(":", 1)[-1])
        self.cu = ctypes.CDLL("libcuda.so.1")
        key = (self.stream, ordinal)
        if key not in _state["handles"]:
            # cuSOLVER works in the current context: make it the device's
            # primary one, which is the runtime's too
            ctx = ctypes.c_void_p()
            self._check(
                "cuDevicePrimaryCtxRetain",
                self.cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), ordinal),
            )
            self._check("cuCtxSetCurrent", self.cu.cuCtxSetCurrent(ctx))
            h = ctypes.c_void_p()
            self._check(
                "cusolverDnCreate", self.lib.cusolverDnCreate(ctypes.byref(h))
            )
            self._check(
                "cusolverDnSetStream",
                self.lib.cusolverDnSetStream(h, ctypes.c_void_p(self.stream)),
            )
            _state["handles"][key] = (h, ctx)
        self.h, ctx = _state["handles"][key]
        self.cu.cuCtxSetCurrent(ctx)

    @staticmethod
    def _check(name, status):
        if status:
            raise RuntimeError(f"{name} failed with status {status}")

    def array(self, n, dt=None):
        """A new device array of n elements (dt: the session's), kept."""
        from .linalg import _new

        a = _new((builtins.max(n, 1),), dt or self.dt, self.like)
        self.keep.append(a)
        return a

    def addr(self, a, offset=0):
        """a's address plus offset elements, for ctypes."""
        return ctypes.c_void_p(_ptr(a) + offset * a.dtype.itemsize)

    def call(self, name, *args):
        full = f"cusolverDn{self.p}{name}"
        self._check(full, getattr(self.lib, full)(self.h, *args))

    def work(self, name, *args):
        """The work array that cusolverDn<p><name>_bufferSize asks for."""
        lw = ctypes.c_int()
        self.call(name + "_bufferSize", *args, ctypes.byref(lw))
        return self.array(lw.value), lw.value

    def finish(self, info, msg):
        """Waits for the stream; LinAlgError(msg) where an info is > 0."""
        from ._array import asnumpy
        from .linalg import LinAlgError

        self._check(
            "cuStreamSynchronize",
            self.cu.cuStreamSynchronize(ctypes.c_void_p(self.stream)),
        )
        codes = asnumpy(info)
        if np.any(codes < 0):
            raise RuntimeError(
                f"cuSOLVER rejected an argument ({codes.min()})"
            )
        if msg and np.any(codes > 0):
            raise LinAlgError(msg)
        self.keep = []


def _cm(x, dt):
    """A flat copy of the matrices x (..., r, c) in column-major order
    (the row-major copy of their transposes)."""
    from .linalg import _flat

    return _flat(_ops.matrix_transpose(x), dt)


def _lu(s, af, n, batch):
    """getrf of each column-major n x n matrix in af (the transposes of
    the row-major ones): (ipiv, info)."""
    ipiv = s.array(batch * n, _dtypes.int32)
    info = s.array(batch, _dtypes.int32)
    work, _ = s.work("getrf", n, n, s.addr(af), n)
    for i in range(batch):
        s.call(
            "getrf",
            n,
            n,
            s.addr(af, i * n * n),
            n,
            s.addr(work),
            s.addr(ipiv, i * n),
            s.addr(info, i),
        )
    return ipiv, info


def solve(a, b, dt):
    """x with a x = b: a (batch..., n, n), b (batch..., n, m), both in dt
    and of one batch shape; the result of b's shape."""
    from .linalg import _flat, _prod

    bs = tuple(a.shape[:-2])
    n, m = a.shape[-1], b.shape[-1]
    batch = _prod(bs)
    s = _Session(a, dt)
    af = _flat(a, dt)  # column-major A^T
    bf = _cm(b, dt)  # column-major B
    ipiv, info = _lu(s, af, n, batch)
    junk = s.array(batch, _dtypes.int32)
    for i in range(batch):
        s.call(
            "getrs",
            _OP_T,
            n,
            m,
            s.addr(af, i * n * n),
            n,
            s.addr(ipiv, i * n),
            s.addr(bf, i * n * m),
            n,
            s.addr(junk, i),
        )
    s.finish(info, "Singular matrix")
    return _ops.matrix_transpose(_ops.reshape(bf, bs + (m, n)))


def lu_det(a, dt):
    """(det, sign, log|det|) of the square matrices a, from getrf."""
    import sluice

    from .linalg import _flat, _prod

    bs = tuple(a.shape[:-2])
    n = a.shape[-1]
    batch = _prod(bs)
    s = _Session(a, dt)
    af = _flat(a, dt)
    ipiv, info = _lu(s, af, n, batch)
    s.finish(info, None)
    d = sluice.linalg.diagonal(_ops.reshape(af, bs + (n, n)))
    rows = sluice.arange(1, n + 1, dtype=_dtypes.int32, device=a.device)
    swaps = sluice.sum(_ops.reshape(ipiv, bs + (n,)) != rows, axis=-1)
    flip = _ops.astype(1 - 2 * (swaps % 2), dt)
    det = sluice.prod(d, axis=-1) * flip
    sign = sluice.prod(sluice.sign(d), axis=-1) * flip
    lad = sluice.sum(sluice.log(sluice.abs(d)), axis=-1)
    return det, sign, lad


def cholesky(a, dt, upper):
    """The lower (upper: upper) Cholesky factors of a's lower triangles."""
    from ._manipulation import tril
    from .linalg import _flat, _prod

    bs = tuple(a.shape[:-2])
    n = a.shape[-1]
    batch = _prod(bs)
    s = _Session(a, dt)
    af = _flat(a, dt)  # A^T column-major: A's lower triangle is its upper
    info = s.array(batch, _dtypes.int32)
    work, lw = s.work("potrf", _FILL_UPPER, n, s.addr(af), n)
    for i in range(batch):
        s.call(
            "potrf",
            _FILL_UPPER,
            n,
            s.addr(af, i * n * n),
            n,
            s.addr(work),
            lw,
            s.addr(info, i),
        )
    s.finish(info, "Matrix is not positive definite")
    low = tril(_ops.reshape(af, bs + (n, n)))
    return _ops.matrix_transpose(low) if upper else low


def qr(a, dt, mode):
    """(Q, R) of a (..., m, n) (mode reduced, complete or r)."""
    from ._manipulation import triu
    from .linalg import _prod, _zeros

    bs = tuple(a.shape[:-2])
    m, n = a.shape[-2], a.shape[-1]
    k = builtins.min(m, n)
    batch = _prod(bs)
    s = _Session(a, dt)
    af = _cm(a, dt)  # column-major A (m x n)
    tau = s.array(batch * k)
    info = s.array(batch, _dtypes.int32)
    work, lw = s.work("geqrf", m, n, s.addr(af), m)
    for i in range(batch):
        s.call(
            "geqrf",
            m,
            n,
            s.addr(af, i * m * n),
            m,
            s.addr(tau, i * k),
            s.addr(work),
            lw,
            s.addr(info, i),
        )
    s.finish(info, None)
    full = _ops.matrix_transpose(_ops.reshape(af, bs + (n, m)))
    r = triu(full if mode == "complete" else full[..., :k, :])
    if mode == "r":
        return None, r
    _ptr(r)  # R is read before orgqr overwrites the factor
    kq = m if mode == "complete" else k
    if kq > n:
        qf = _zeros((batch, kq, m), dt, a)
        qf[:, :n, :] = _ops.reshape(af, (batch, n, m))
        qf = _ops.reshape(qf, (-1,))
    else:
        qf = af
    work, lw = s.work("orgqr", m, kq, k, s.addr(qf), m, s.addr(tau))
    for i in range(batch):
        s.call(
            "orgqr",
            m,
            kq,
            k,
            s.addr(qf, i * m * kq if kq > n else i * m * n),
            m,
            s.addr(tau, i * k),
            s.addr(work),
            lw,
            s.addr(info, i),
        )
    s.finish(info, None)
    step = kq if kq > n else n
    q = _ops.reshape(qf, (batch, step, m))[:, :kq, :]
    q = _ops.matrix_transpose(_ops.reshape(q, bs + (kq, m)))
    return q, r


def eigh(a, dt, uplo, want):
    """(w ascending, v or None) of the symmetric matrices a."""
    from .linalg import _flat, _new, _prod

    bs = tuple(a.shape[:-2])
    n = a.shape[-1]
    batch = _prod(bs)
    s = _Session(a, dt)
    af = _flat(a, dt)  # A^T column-major: 'L' is its upper triangle
    fill = _FILL_UPPER if uplo == "L" else _FILL_LOWER
    job = _EIG_VECTOR if want else _EIG_NOVECTOR
    w = _new((batch * n,), dt, a)
    s.keep.append(w)
    if 1 < batch and n <= BATCHED_MAX_N:
        info = _syevj_batched(s, af, w, n, batch, job, fill)
    else:
        info = s.array(batch, _dtypes.int32)
        work, lw = s.work("syevd", job, fill, n, s.addr(af), n, s.addr(w))
        for i in range(batch):
            s.call(
                "syevd",
                job,
                fill,
                n,
                s.addr(af, i * n * n),
                n,
                s.addr(w, i * n),
                s.addr(work),
                lw,
                s.addr(info, i),
            )
    s.finish(info, "Eigenvalues did not converge")
    w = _ops.reshape(w, bs + (n,))
    if not want:
        return w, None
    return w, _ops.matrix_transpose(_ops.reshape(af, bs + (n, n)))


def _syevj_batched(s, af, w, n, batch, job, fill):
    """syevjBatched of the batch (one launch): its info array."""
    if "syevj" not in _state:
        params = ctypes.c_void_p()
        s._check(
            "cusolverDnCreateSyevjInfo",
            s.lib.cusolverDnCreateSyevjInfo(ctypes.byref(params)),
        )
        # eigenvalues ascending, their vectors with them (NumPy's order)
        s._check(
            "cusolverDnXsyevjSetSortEig",
            s.lib.cusolverDnXsyevjSetSortEig(params, 1),
        )
        _state["syevj"] = params
    params = _state["syevj"]
    lw = ctypes.c_int()
    s.call(
        "syevjBatched_bufferSize",
        job,
        fill,
        n,
        s.addr(af),
        n,
        s.addr(w),
        ctypes.byref(lw),
        params,
        batch,
    )
    work = s.array(lw.value)
    info = s.array(batch, _dtypes.int32)
    s.call(
        "syevjBatched",
        job,
        fill,
        n,
        s.addr(af),
        n,
        s.addr(w),
        s.addr(work),
        lw.value,
        s.addr(info),
        params,
        batch,
    )
    return info


def svd(a, dt, full_matrices, compute_uv):
    """(U, S descending, Vh) of a (..., m, n); U and Vh None without
    compute_uv."""
    from .linalg import _flat, _new, _prod

    bs = tuple(a.shape[:-2])
    m, n = a.shape[-2], a.shape[-1]
    rows, cols = builtins.max(m, n), builtins.min(m, n)
    batch = _prod(bs)
    if 1 < batch and rows <= BATCHED_MAX_N:
        return _svd_batched(a, dt, full_matrices, compute_uv)
    s = _Session(a, dt)
    # gesvd takes rows >= cols: a tall matrix column-major, a wide one's
    # row-major data as it is (its transpose, column-major)
    tall = m > n
    af = _cm(a, dt) if tall else _flat(a, dt)
    ku = rows if full_matrices else cols
    job = (b"A" if full_matrices else b"S") if compute_uv else b"N"
    sv = _new((batch * cols,), dt, a)
    s.keep.append(sv)
    u = s.array(batch * rows * ku if compute_uv else 1)
    vt = s.array(batch * cols * cols if compute_uv else 1)
    rwork = s.array(cols)
    info = s.array(batch, _dtypes.int32)
    work, lw = s.work("gesvd", rows, cols)
    for i in range(batch):
        uo = i * rows * ku if compute_uv else 0
        vo = i * cols * cols if compute_uv else 0
        s.call(
            "gesvd",
            ctypes.c_char(job),
            ctypes.c_char(job),
            rows,
            cols,
            s.addr(af, i * rows * cols),
            rows,
            s.addr(sv, i * cols),
            s.addr(u, uo),
            rows,
            s.addr(vt, vo),
            cols,
            s.addr(work),
            lw,
            s.addr(rwork),
            s.addr(info, i),
        )
    s.finish(info, "SVD did not converge")
    sv = _ops.reshape(sv, bs + (cols,))
    if not compute_uv:
        return None, sv, None
    ut = _ops.reshape(u[: batch * rows * ku], bs + (ku, rows))  # U^T
    v = _ops.reshape(vt[: batch * cols * cols], bs + (cols, cols))  # VT^T
    if tall:
        return _ops.matrix_transpose(ut), sv, _ops.matrix_transpose(v)
    return v, sv, ut


def _svd_batched(a, dt, full_matrices, compute_uv):
    """svd of a batch of matrices up to 32 x 32: gesvdjBatched, one
    launch. The row-major data are the column-major transposes A^T =
    U' S V'^T, so U = V' and Vh = U'^T (U' read row-major)."""
    from .linalg import _flat, _new, _prod

    bs = tuple(a.shape[:-2])
    m, n = a.shape[-2], a.shape[-1]
    k = builtins.min(m, n)
    batch = _prod(bs)
    s = _Session(a, dt)
    if "gesvdj" not in _state:
        params = ctypes.c_void_p()
        s._check(
            "cusolverDnCreateGesvdjInfo",
            s.lib.cusolverDnCreateGesvdjInfo(ctypes.byref(params)),
        )
        s._check(
            "cusolverDnXgesvdjSetSortEig",
            s.lib.cusolverDnXgesvdjSetSortEig(params, 1),
        )
        _state["gesvdj"] = params
    params = _state["gesvdj"]
    af = _flat(a, dt)  # column-major n x m: A^T
    sv = _new((batch * k,), dt, a)
    s.keep.append(sv)
    up = s.array(batch * n * n)  # U' (n x n)
    vp = s.array(batch * m * m)  # V' (m x m)
    info = s.array(batch, _dtypes.int32)
    job = _EIG_VECTOR if compute_uv else _EIG_NOVECTOR
    args = (s.addr(af), n, s.addr(sv), s.addr(up), n, s.addr(vp), m)
    lw = ctypes.c_int()
    s.call(
        "gesvdjBatched_bufferSize",
        job,
        n,
        m,
        *args,
        ctypes.byref(lw),
        params,
        batch,
    )
    work = s.array(lw.value)
    s.call(
        "gesvdjBatched",
        job,
        n,
        m,
        *args,
        s.addr(work),
        lw.value,
        s.addr(info),
        params,
        batch,
    )
    s.finish(info, "SVD did not converge")
    sv = _ops.reshape(sv, bs + (k,))
    if not compute_uv:
        return None, sv, None
    u = _ops.matrix_transpose(_ops.reshape(vp[: batch * m * m], bs + (m, m)))
    vh = _ops.reshape(up[: batch * n * n], bs + (n, n))
    if not full_matrices:
        u, vh = u[..., :, :k], vh[..., :k, :]
    return u, sv, vh
