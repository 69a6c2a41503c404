"""Products of arrays: matmul, dot, tensordot, einsum and their kin.

Every product reduces to one contraction: a batched matrix product
``(..., M, K) @ (..., K, N)`` with NumPy's broadcasting of the batch
dimensions. How it runs depends on where the data is (compute follows
data; nothing is copied to the host behind the user's back):

- On the host device, eagerly: the field's BLAS (OpenBLAS, through
  NumPy's ``matmul`` on zero-copy views of the USM memory), synchronously on
  the calling thread once the inputs are ready.
- On every other device, and inside ``@sluice.jit`` on any device: one
  ``usm.matmul``. On host and CUDA queues (float32, float64) it stays a
  library call (the BLAS the runtime loads; cuBLAS), with the elementwise
  ops around it fused into kernels before and after; elsewhere it is
  written as ``sum(a[..., :, None, :] * b.mT[..., None, :, :], axis=-1)``,
  which the fusion pass makes one reduction kernel with the elementwise
  prologue and epilogue (``relu(a @ b + bias)``, ``(x - mu) @ w``).

See docs/linalg.md.
"""

import builtins
import operator
import string

import os

import numpy as np

from . import _dispatch, _dtypes, _host_small, _ops, _trace
from ._device import _queue_from_id


def _numpy_blas():
    """The OpenBLAS that NumPy's wheel carries, if any: the runtime's BLAS
    for host products inside @sluice.jit unless $SLUICE_BLAS names another,
    so that the process has one BLAS and one set of BLAS threads
    (docs/linalg.md)."""
    import glob

    libs = os.path.join(
        os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs"
    )
    found = sorted(glob.glob(os.path.join(libs, "libscipy_openblas*.so")))
    return found[0] if found else None


if "SLUICE_BLAS_PREFERRED" not in os.environ:
    _preferred = _numpy_blas()
    if _preferred:
        os.environ["SLUICE_BLAS_PREFERRED"] = _preferred


def _array_type():
    from ._array import Array

    return Array


# --- placement helpers ------------------------------------------------------

_on_host = _host_small.on_host


def _host_matmul(x1, x2):
    """x1 @ x2 for two vectors or matrices of one floating or complex dtype
    on one host queue, through NumPy's BLAS on zero-copy views into a new
    array: the common case without the general path's steps. None when
    that does not apply (the general path decides, and raises its errors)."""
    Array = _array_type()
    if type(x1) is not Array or type(x2) is not Array:
        return None
    qid = x1._queue_id
    if (
        x2._queue_id != qid
        or x1.dtype != x2.dtype
        or x1.dtype.kind not in "fc"
    ):
        return None
    sa, sb = x1.shape, x2.shape
    if not (0 < len(sa) <= 2 and 0 < len(sb) <= 2):
        return None
    if sa[-1] != sb[0] or _trace.current() is not None or not _on_host(qid):
        return None
    shape = sa[:-1] + sb[1:]
    r = _dispatch._ext.empty(
        qid,
        min(x1._usm_kind, x2._usm_kind),
        _dtypes.CODES[x1.dtype],
        list(shape),
    )
    av, bv = _host_view(x1), _host_view(x2)
    if not shape:  # NumPy's matmul has no 0-d out=
        _host_view(r)[...] = np.matmul(av, bv)
    elif r.size:
        np.matmul(av, bv, out=_host_view(r))
    return r


_BACKENDS = {}  # queue id -> its device's backend name


def _backend(qid):
    name = _BACKENDS.get(qid)
    if name is None:
        name = _queue_from_id(qid).sycl_device.backend.name
        _BACKENDS[qid] = name
    return name


def _device_matmul(x1, x2):
    """x1 @ x2 for two arrays of rank >= 2 with equal batch axes, one
    floating or complex dtype and one CUDA queue (where the product is one
    library call): the compiled product at once, without the general
    path's steps. None when that does not apply."""
    Array = _array_type()
    if type(x1) is not Array or type(x2) is not Array:
        return None
    qid = x1._queue_id
    sa, sb = x1.shape, x2.shape
    if (
        x2._queue_id != qid
        or x1.dtype != x2.dtype
        or x1.dtype.kind not in "fc"
        or len(sa) < 2
        or len(sb) != len(sa)
        or sa[:-2] != sb[:-2]
        or sa[-1] != sb[-2]
        or 0 in sa
        or 0 in sb
        or _trace.current() is not None
        or _backend(qid) != "cuda"
    ):
        return None
    f = _contract_jit.get(x1.dtype)
    return None if f is None else f(x1, x2)


def _traced(*xs):
    return _trace.current() is not None or builtins.any(
        isinstance(x, (_trace.Tracer, _trace.ScalarTracer)) for x in xs
    )


def _arrays(*xs, scalars=False):
    """The operands as arrays on their common queue: (arrays, qid, kind).
    NumPy data and scalars follow the array they meet (eagerly they are
    copied there). With ``scalars``, Python scalars stay scalars (weak, as
    in NumPy's promotion)."""
    ops = [_dispatch._operand(x) for x in xs]
    traced = _traced(*xs)
    where = _trace.user_location() if traced else None
    qid, kind = _dispatch._placement(ops, where)
    out = []
    for x, o in zip(xs, ops):
        if o.kind in "AT" or (o.kind in "SD" and scalars):
            out.append(x)
        elif o.kind == "D":
            raise TypeError(
                "a traced scalar is not an array: products need arrays"
            )
        elif traced and o.kind == "S":
            from ._creation import full

            out.append(
                full(
                    (),
                    x,
                    dtype=_np_dtype(o),
                    sycl_queue=_queue_from_id(qid),
                    usm_type=_usm_name(kind),
                )
            )
        elif traced:
            raise TypeError(
                "NumPy arrays cannot be operands of products "
                "inside @sluice.jit: pass them as arguments"
            )
        else:
            from ._creation import asarray

            out.append(
                asarray(
                    np.asarray(x, dtype=_np_dtype(o)),
                    sycl_queue=_queue_from_id(qid),
                    usm_type=_usm_name(kind),
                )
            )
    return out, qid, kind


def _ndim(x):
    return getattr(x, "ndim", 0)


def _moveaxis(x, src, dst):
    nd = x.ndim
    src, dst = src % nd, dst % nd
    order = [i for i in range(nd) if i != src]
    order.insert(dst, src)
    return (
        _ops.permute_dims(x, tuple(order)) if order != list(range(nd)) else x
    )


def _np_dtype(o):
    if o.weak is int:
        return np.int64
    if o.weak is float:
        return np.float64
    if o.weak is bool:
        return np.bool_
    return o.dtype


def _usm_name(kind):
    from ._placement import USM_NAMES

    return USM_NAMES[kind]


def _host_view(x):
    """A NumPy view of a host-device array (waits for its data)."""
    return np.from_dlpack(x)


def _empty(shape, dtype, qid, kind):
    from ._creation import empty

    return empty(
        tuple(shape),
        dtype=dtype,
        sycl_queue=_queue_from_id(qid),
        usm_type=_usm_name(kind),
    )


def _from_numpy(a, qid, kind):
    from ._array import _from_host

    a = np.asarray(a)
    if not a.flags.c_contiguous:
        a = a.copy()
    return _from_host(a, qid, kind)


def _result_dtype(*xs):
    dts = []
    for x in xs:
        o = _dispatch._operand(x)
        dts.append(o.dtype)
    return _dtypes.to_dtype(np.result_type(*dts))


def _finish(r, out, name):
    """Stores ``r`` into ``out`` (NumPy's out= rules for products)."""
    if out is None:
        return r
    Array = _array_type()
    # Inside @sluice.jit out may be a Tracer: the assignment below makes it
    # name the result (value semantics, as x[...] = v there).
    if not isinstance(out, (Array, _trace.Tracer)):
        raise TypeError(
            f"{name}: out must be a sluice.Array, not {type(out).__name__}"
        )
    if tuple(out.shape) != tuple(r.shape):
        raise ValueError(
            f"{name}: out has shape {tuple(out.shape)}, the "
            f"result has shape {tuple(r.shape)}"
        )
    if out.dtype != r.dtype and not np.can_cast(
        r.dtype, out.dtype, "same_kind"
    ):
        raise TypeError(
            f"Cannot cast {name} output from {r.dtype!r} to "
            f"{out.dtype!r} with casting rule 'same_kind'"
        )
    out[...] = r
    return out


# --- the contraction ---------------------------------------------------------


def _contract_ir(a, b, rdt):
    """``a @ b`` for a (..., M, K) and b (..., K, N) in usm IR: one
    ``usm.matmul`` (expanded by usm-expand-contractions into a product and a
    sum that fuse into one reduction kernel with the ops around it)."""
    static = builtins.all(
        isinstance(d, int) for d in tuple(a.shape) + tuple(b.shape)
    )
    if rdt.kind == "b" or not static:
        return _contract_composed(a, b, rdt)
    from . import _ir

    ops = [_dispatch._operand(a), _dispatch._operand(b)]
    qid, kind = _dispatch._placement(ops, _trace.user_location())
    shape = tuple(
        np.broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    ) + (a.shape[-2], b.shape[-1])

    def emit(fb, vals):
        rt = _ir.ArrayT(rdt, shape, qid, kind)
        x, y = vals
        return [
            fb.op(
                f"usm.matmul {x.name}, {y.name} : ({x.type.text()}, "
                f"{y.type.text()}) -> {rt.text()}",
                rt,
            )
        ]

    return _dispatch._single(
        _dispatch._execute(
            ("matmul", rdt), ops, [rdt, rdt], emit, [shape], qid, kind
        )
    )


def _contract_composed(a, b, rdt):
    """The same contraction written with elementwise ops and a sum (for
    booleans, and for dynamic sizes)."""
    bt = _ops.swapaxes(b, -1, -2)  # (..., N, K)
    a4 = _ops.expand_dims(a, -2)  # (..., M, 1, K)
    b4 = _ops.expand_dims(bt, -3)  # (..., 1, N, K)
    if rdt.kind == "b":
        p = _ops.logical_and(a4, b4)
        return _ops.any(p, axis=-1)
    if a.dtype != rdt:
        a4 = _ops.astype(a4, rdt, copy=False)
    if b4.dtype != rdt:
        b4 = _ops.astype(b4, rdt, copy=False)
    r = _ops.sum(a4 * b4, axis=-1)
    if r.dtype != rdt:
        r = _ops.astype(r, rdt, copy=False)
    return r


_contract_jit = {}


def _contract(a, b, rdt):
    """The batched matrix product of two arrays of rank >= 2 on one
    queue."""
    if _traced(a, b):
        return _contract_ir(a, b, rdt)
    if _on_host(a._queue_id):
        av, bv = _host_view(a), _host_view(b)
        shape = np.broadcast_shapes(av.shape[:-2], bv.shape[:-2]) + (
            av.shape[-2],
            bv.shape[-1],
        )
        r = _empty(shape, rdt, a._queue_id, min(a._usm_kind, b._usm_kind))
        if r.size:
            np.matmul(av, bv, out=_host_view(r), dtype=rdt)
        return r
    if _tiled_eligible(a, b, rdt):
        from ._matmul_kernels import tiled_matmul

        shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + (
            a.shape[-2],
            b.shape[-1],
        )
        r = _empty(shape, rdt, a._queue_id, min(a._usm_kind, b._usm_kind))
        if a.dtype != rdt:
            a = _ops.astype(a, rdt)
        if b.dtype != rdt:
            b = _ops.astype(b, rdt)
        return tiled_matmul(a, b, r)
    f = _contract_jit.get(rdt)
    if f is None:
        from ._jit import jit

        f = jit(lambda x, y: _contract_ir(x, y, rdt))
        _contract_jit[rdt] = f
    if (
        builtins.any(d == 0 for d in a.shape[:-2] + b.shape[:-2])
        or a.shape[-2] == 0
        or b.shape[-1] == 0
    ):
        shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + (
            a.shape[-2],
            b.shape[-1],
        )
        return _empty(shape, rdt, a._queue_id, min(a._usm_kind, b._usm_kind))
    return f(a, b)


def _tiled_eligible(a, b, rdt):
    """Whether an eager product runs the tiled workgroup-memory kernel
    (_matmul_kernels.py): float32/float64 on an OpenCL or Level Zero queue,
    at least 4096 multiply-adds, each operand's batch axes the result's or
    all of size 1."""
    if rdt not in (np.float32, np.float64):
        return False
    if _backend(a._queue_id) not in ("opencl", "level_zero"):
        return False
    batch = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    count = int(np.prod(batch, dtype=np.int64))
    for x in (a, b):
        own = int(np.prod(x.shape[:-2], dtype=np.int64))
        if own not in (1, count):
            return False  # batch axes that broadcast partly
    work = a.shape[-2] * a.shape[-1] * b.shape[-1]
    for d in batch:
        work *= d
    return work >= 4096


def _check_matmul_dtype(*xs):
    for x in xs:
        dt = _dispatch._operand(x).dtype
        if dt.kind not in "biufc":
            raise TypeError(f"matmul is not defined for dtype {dt}")


def matmul(
    x1,
    x2,
    /,
    out=None,
    *,
    dtype=None,
    casting="same_kind",
    order="K",
    axes=None,
):
    """The matrix product (``x1 @ x2``) with NumPy's rules: 1-D operands
    are promoted to matrices and the added dimension removed afterwards;
    dimensions before the last two broadcast."""
    if axes is not None:
        raise NotImplementedError(
            "matmul: axes= is not supported; move the "
            "axes with sluice.moveaxis/transpose"
        )
    if dtype is None:
        r = _host_matmul(x1, x2)
        if r is None:
            r = _device_matmul(x1, x2)
        if r is not None:
            return _finish(r, out, "matmul")
    (a, b), qid, kind = _arrays(x1, x2, scalars=True)
    _check_matmul_dtype(a, b)
    if _ndim(a) == 0 or _ndim(b) == 0:
        raise ValueError(
            "matmul: Input operand does not have enough "
            "dimensions (a scalar is not a matrix; use *)"
        )
    rdt = _dtypes.to_dtype(dtype) if dtype is not None else _result_dtype(a, b)
    squeeze = []
    if a.ndim == 1:
        a = _ops.reshape(a, (1, a.shape[0]))
        squeeze.append(-2)
    if b.ndim == 1:
        b = _ops.reshape(b, (b.shape[0], 1))
        squeeze.append(-1)
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(
            f"matmul: Input operand 1 has a mismatch in its core dimension "
            f"0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size "
            f"{b.shape[-2]} is different from {a.shape[-1]})"
        )
    try:
        np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        raise ValueError(
            f"matmul: batch dimensions {a.shape[:-2]} and "
            f"{b.shape[:-2]} do not broadcast"
        ) from None
    r = _contract(a, b, rdt)
    if squeeze:
        shape = list(r.shape)
        for ax in sorted(squeeze):
            del shape[ax]  # -2 before -1 keeps the indices right
        r = _ops.reshape(r, tuple(shape))
    return _finish(r, out, "matmul")


def _imatmul(self, other):
    r = matmul(self, other)
    if tuple(r.shape) != tuple(self.shape):
        raise ValueError(
            "matmul: in-place matrix multiplication needs a result of the "
            f"operand's shape {tuple(self.shape)}, not {tuple(r.shape)}"
        )
    return _finish(r, self, "matmul")


def tensordot(a, b, /, axes=2):
    """Sum of products over the given axes (NumPy's tensordot)."""
    (a, b), qid, kind = _arrays(a, b)
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if n < 0:
            raise ValueError("tensordot: axes must be non-negative")
        if n > a.ndim or n > b.ndim:
            raise ValueError("tensordot: axes exceeds the operands' rank")
        axa = list(range(a.ndim - n, a.ndim))
        axb = list(range(n))
    else:
        axa, axb = axes
        axa = [axa] if isinstance(axa, (int, np.integer)) else list(axa)
        axb = [axb] if isinstance(axb, (int, np.integer)) else list(axb)
        if len(axa) != len(axb):
            raise ValueError("tensordot: shape-mismatch for sum")
    axa = [operator.index(x) % a.ndim if a.ndim else x for x in axa]
    axb = [operator.index(x) % b.ndim if b.ndim else x for x in axb]
    for i, j in zip(axa, axb):
        if a.shape[i] != b.shape[j]:
            raise ValueError("tensordot: shape-mismatch for sum")
    fa = [i for i in range(a.ndim) if i not in axa]
    fb = [j for j in range(b.ndim) if j not in axb]
    k = int(np.prod([a.shape[i] for i in axa], dtype=np.int64))
    m = int(np.prod([a.shape[i] for i in fa], dtype=np.int64))
    n = int(np.prod([b.shape[j] for j in fb], dtype=np.int64))
    at = _ops.reshape(
        _ops.permute_dims(a, tuple(fa + axa)) if a.ndim else a, (m, k)
    )
    bt = _ops.reshape(
        _ops.permute_dims(b, tuple(axb + fb)) if b.ndim else b, (k, n)
    )
    r = matmul(at, bt)
    return _ops.reshape(
        r, tuple(a.shape[i] for i in fa) + tuple(b.shape[j] for j in fb)
    )


def dot(a, b, out=None):
    """NumPy's dot: the inner product of vectors, the matrix product of
    matrices, a scalar times an array, and for N-D the sum over the last
    axis of ``a`` and the second-to-last of ``b``."""
    r = _host_matmul(a, b)
    if r is not None:
        return _finish(r, out, "dot")
    (a, b), qid, kind = _arrays(a, b, scalars=True)
    if _ndim(a) == 0 or _ndim(b) == 0:
        r = _ops.multiply(a, b)
    elif b.ndim <= 2:
        r = matmul(a, b)
    else:
        r = tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 2]))
    return _finish(r, out, "dot")


def vdot(a, b, /):
    """The dot product of the flattened arrays, the first one conjugated
    when it is complex (NumPy's vdot)."""
    (a, b), qid, kind = _arrays(a, b)
    if a.size != b.size:
        raise ValueError(
            "vdot: cannot reshape arrays of sizes "
            f"{a.size} and {b.size} into vectors of one length"
        )
    if a.dtype.kind == "c":
        from ._complex import conj

        a = conj(a)
    return matmul(_ops.reshape(a, (-1,)), _ops.reshape(b, (-1,)))


def inner(a, b, /):
    """Sum of products over the last axes."""
    (a, b), qid, kind = _arrays(a, b, scalars=True)
    if _ndim(a) == 0 or _ndim(b) == 0:
        return _ops.multiply(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(
            "inner: shapes of the last axes differ "
            f"({a.shape[-1]} and {b.shape[-1]})"
        )
    return tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 1]))


def outer(a, b, /, out=None):
    """The outer product of the flattened arrays."""
    (a, b), qid, kind = _arrays(a, b)
    r = _ops.multiply(_ops.reshape(a, (-1, 1)), _ops.reshape(b, (1, -1)))
    return _finish(r, out, "outer")


def kron(a, b, /):
    """The Kronecker product."""
    (a, b), qid, kind = _arrays(a, b)
    nd = builtins.max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + tuple(a.shape)
    sb = (1,) * (nd - b.ndim) + tuple(b.shape)
    ai = _ops.reshape(a, tuple(d for s in sa for d in (s, 1)))
    bi = _ops.reshape(b, tuple(d for s in sb for d in (1, s)))
    r = _ops.multiply(ai, bi)
    return _ops.reshape(r, tuple(x * y for x, y in zip(sa, sb)))


def vecdot(x1, x2, /, *, axis=-1, out=None):
    """The dot product of vectors along ``axis`` (the Array API's vecdot;
    the operands broadcast; ``out=`` as NumPy's vecdot)."""
    (a, b), qid, kind = _arrays(x1, x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("vecdot needs arrays of rank >= 1")
    na, nb = a.ndim, b.ndim
    if not (-builtins.min(na, nb) <= axis < builtins.min(na, nb)):
        raise ValueError(f"vecdot: axis {axis} is out of range")
    ax = axis if axis < 0 else axis - builtins.max(na, nb)
    if a.shape[ax] != b.shape[ax]:
        raise ValueError(
            "vecdot: the operands differ in the length of the "
            f"contracted axis ({a.shape[ax]} and "
            f"{b.shape[ax]})"
        )
    if a.dtype.kind == "c":  # the Array API's: conj(x1) . x2
        from ._complex import conj

        a = conj(a)
    a = _ops.expand_dims(_moveaxis(a, ax, -1), -2)  # (..., 1, K)
    b = _ops.expand_dims(_moveaxis(b, ax, -1), -1)  # (..., K, 1)
    r = matmul(a, b)
    return _finish(_ops.reshape(r, tuple(r.shape[:-2])), out, "vecdot")


def matrix_power(a, n, /):
    """``a`` to the integer power ``n`` by repeated squaring (``n < 0``
    inverts first: sluice.linalg.inv)."""
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError("exponent must be an integer") from None
    (a,), qid, kind = _arrays(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        from .linalg import LinAlgError  # NumPy's class (a ValueError)

        raise LinAlgError(
            "matrix_power: last 2 dimensions of the array must be square"
        )
    if n == 0:
        from ._creation import eye

        e = eye(
            a.shape[-1],
            dtype=a.dtype,
            sycl_queue=_queue_from_id(qid),
            usm_type=_usm_name(kind),
        )
        return _ops.broadcast_to(e, tuple(a.shape))
    if n < 0:
        from .linalg import inv

        a = inv(a)
        n = -n
    result = None
    z = a
    while True:
        if n & 1:
            result = z if result is None else matmul(result, z)
        n >>= 1
        if not n:
            return result
        z = matmul(z, z)


# --- einsum ------------------------------------------------------------------


def _parse_einsum(subscripts, shapes):
    s = subscripts.replace(" ", "")
    if "->" in s:
        lhs, rhs = s.split("->")
    else:
        lhs, rhs = s, None
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(
            f"einsum: {len(terms)} operand subscripts for "
            f"{len(shapes)} operands"
        )
    # Ellipses become letters not used elsewhere.
    used = set(c for c in s if c.isalpha())
    free = [c for c in string.ascii_letters if c not in used]
    ell_rank = 0
    for t, shp in zip(terms, shapes):
        if "..." in t:
            ell_rank = builtins.max(ell_rank, len(shp) - (len(t) - 3))
    ell = "".join(free[:ell_rank])
    out_terms = []
    for t, shp in zip(terms, shapes):
        if "..." in t:
            k = len(shp) - (len(t) - 3)
            t = t.replace("...", ell[ell_rank - k :] if k else "")
        if len(t) != len(shp):
            raise ValueError(
                f"einsum: subscripts {t!r} do not match an "
                f"operand of rank {len(shp)}"
            )
        for c in t:
            if not c.isalpha():
                raise ValueError(f"einsum: invalid subscript {c!r}")
        out_terms.append(t)
    if rhs is None:
        counts = {}
        for t in out_terms:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        rhs = ell + "".join(
            sorted(c for c in counts if counts[c] == 1 and c not in ell)
        )
    else:
        rhs = rhs.replace("...", ell)
        for c in rhs:
            if not builtins.any(c in t for t in out_terms):
                raise ValueError(
                    f"einsum: output subscript {c!r} does not "
                    "appear in the inputs"
                )
    return out_terms, rhs


def _einsum_sizes(terms, shapes):
    sizes = {}
    for t, shp in zip(terms, shapes):
        for c, d in zip(t, shp):
            if d == 1 and c in sizes:
                continue
            if c in sizes and sizes[c] != d and sizes[c] != 1:
                raise ValueError(
                    f"einsum: size {d} of subscript {c!r} does "
                    f"not match {sizes[c]}"
                )
            sizes[c] = d
    return sizes


def _diagonal_term(x, t):
    """Takes the diagonal over repeated subscripts of one operand."""
    while True:
        dup = next((c for c in t if t.count(c) > 1), None)
        if dup is None:
            return x, t
        i = t.index(dup)
        j = t.index(dup, i + 1)
        from .linalg import diagonal

        x = diagonal(x, axis1=i, axis2=j)  # the diagonal goes last
        t = t[:i] + t[i + 1 : j] + t[j + 1 :] + dup


def _einsum_pair(x, tx, y, ty, keep, sizes):
    """Contracts two terms: subscripts in both and kept are batch,
    in both and not kept are summed, the others are free."""
    batch = [c for c in tx if c in ty and c in keep]
    summed = [c for c in tx if c in ty and c not in keep]
    fx = [c for c in tx if c not in ty]
    fy = [c for c in ty if c not in tx]

    def arrange(v, t, order, shape):
        v = (
            _ops.permute_dims(v, tuple(t.index(c) for c in order))
            if order != list(t)
            else v
        )
        shp = tuple(v.shape)
        full = tuple(sizes[c] for c in order)
        if shp != full:
            v = _ops.broadcast_to(v, full)
        return _ops.reshape(v, shape)

    nb = [sizes[c] for c in batch]
    m = int(np.prod([sizes[c] for c in fx], dtype=np.int64))
    n = int(np.prod([sizes[c] for c in fy], dtype=np.int64))
    k = int(np.prod([sizes[c] for c in summed], dtype=np.int64))
    xm = arrange(x, tx, batch + fx + summed, tuple(nb) + (m, k))
    ym = arrange(y, ty, batch + summed + fy, tuple(nb) + (k, n))
    r = matmul(xm, ym)
    r = _ops.reshape(
        r,
        tuple(nb) + tuple(sizes[c] for c in fx) + tuple(sizes[c] for c in fy),
    )
    return r, "".join(batch + fx + fy)


def _einsum_order(terms, rhs, sizes):
    """A contraction order: greedily contract the pair whose result is
    smallest (ties: the one that removes most work)."""
    live = list(range(len(terms)))
    ts = list(terms)
    order = []
    while len(live) > 1:
        best = None
        for ii in range(len(live)):
            for jj in range(ii + 1, len(live)):
                i, j = live[ii], live[jj]
                others = set(rhs)
                for kk in live:
                    if kk not in (i, j):
                        others |= set(ts[kk])
                keep = set(ts[i]) | set(ts[j])
                out = [c for c in keep if c in others]
                size = int(np.prod([sizes[c] for c in out], dtype=np.int64))
                cost = int(np.prod([sizes[c] for c in keep], dtype=np.int64))
                key = (size, cost)
                if best is None or key < best[0]:
                    best = (key, i, j, "".join(sorted(out)))
        _, i, j, out = best
        order.append((i, j))
        ts.append(out)
        live = [kk for kk in live if kk not in (i, j)] + [len(ts) - 1]
    return order


def einsum(
    subscripts, *operands, out=None, dtype=None, optimize=True, **kwargs
):
    """Einstein summation (NumPy's einsum, explicit and implicit forms,
    ``...``). Operands are contracted pairwise, in the order that keeps the
    intermediate results smallest; each pairwise contraction is a batched
    matrix product."""
    if kwargs:
        raise TypeError(f"einsum: unsupported arguments {sorted(kwargs)}")
    if not isinstance(subscripts, str):
        subscripts, operands = _interleaved((subscripts, *operands))
    arrs, qid, kind = _arrays(*operands)
    rdt = (
        _dtypes.to_dtype(dtype) if dtype is not None else _result_dtype(*arrs)
    )
    arrs = [
        _ops.astype(x, rdt, copy=False) if x.dtype != rdt else x for x in arrs
    ]
    terms, rhs = _parse_einsum(subscripts, [tuple(x.shape) for x in arrs])
    sizes = _einsum_sizes(terms, [tuple(x.shape) for x in arrs])
    if not _traced(*arrs) and _on_host(qid):
        views = [_host_view(x) for x in arrs]
        r = np.einsum(
            ",".join(terms) + "->" + rhs, *views, optimize=bool(optimize)
        )
        return _finish(
            _from_numpy(np.asarray(r, dtype=rdt), qid, kind), out, "einsum"
        )
    # One operand at a time: diagonals, then subscripts no one else needs
    # are summed first.
    xs, ts = [], []
    for idx, (x, t) in enumerate(zip(arrs, terms)):
        x, t = _diagonal_term(x, t)
        others = set(rhs)
        for j, u in enumerate(terms):
            if j != idx:
                others |= set(u)
        drop = [i for i, c in enumerate(t) if c not in others]
        if drop:
            x = (
                _ops.sum(x, axis=tuple(drop))
                if x.dtype.kind != "b"
                else _ops.any(x, axis=tuple(drop))
            )
            t = "".join(c for c in t if c in others)
        xs.append(x)
        ts.append(t)
    for i, j in _einsum_order(ts, rhs, sizes):
        others = set(rhs)
        for kk, u in enumerate(ts):
            if kk not in (i, j) and xs[kk] is not None:
                others |= set(u)
        r, t = _einsum_pair(xs[i], ts[i], xs[j], ts[j], others, sizes)
        xs[i] = xs[j] = None
        xs.append(r)
        ts.append(t)
    x, t = xs[-1], ts[-1]
    drop = [i for i, c in enumerate(t) if c not in rhs]
    if drop:
        x = _ops.sum(x, axis=tuple(drop))
        t = "".join(c for c in t if c in rhs)
    if x.dtype != rdt:
        x = _ops.astype(x, rdt, copy=False)
    if t != rhs:
        x = _ops.permute_dims(x, tuple(t.index(c) for c in rhs))
    shape = tuple(sizes[c] for c in rhs)
    if tuple(x.shape) != shape:
        x = _ops.broadcast_to(x, shape)
    return _finish(x, out, "einsum")


def _sublist(sub):
    """An interleaved einsum sublist (integers 0-51 and ``...``) as
    subscript letters."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    out = []
    for k in sub:
        if k is Ellipsis:
            out.append("...")
            continue
        try:
            i = operator.index(k)
        except TypeError:
            raise TypeError(
                "einsum: a sublist holds integers and Ellipsis, not "
                f"{type(k).__name__}"
            ) from None
        if not 0 <= i < len(letters):
            raise ValueError(
                f"einsum: subscript {i} is outside [0, {len(letters)})"
            )
        out.append(letters[i])
    return "".join(out)


def _interleaved(args):
    """NumPy's interleaved form ``einsum(a, [0, 1], b, [1, 2], [0, 2])``
    as (subscripts, operands)."""
    operands = list(args[0::2][: len(args) // 2])
    subs = [_sublist(s) for s in args[1::2]]
    text = ",".join(subs)
    if len(args) % 2:
        text += "->" + _sublist(args[-1])
    return text, operands


def einsum_path(subscripts, *operands, optimize="greedy"):
    """The pairwise contraction order einsum uses, as NumPy's
    ``einsum_path`` lists it: ``(["einsum_path", (i, j), ...], report)``."""
    if not isinstance(subscripts, str):
        subscripts, operands = _interleaved((subscripts, *operands))
    shapes = [
        tuple(np.shape(x)) if not hasattr(x, "shape") else tuple(x.shape)
        for x in operands
    ]
    terms, rhs = _parse_einsum(subscripts, shapes)
    sizes = _einsum_sizes(terms, shapes)
    order = _einsum_order(terms, rhs, sizes)
    path = ["einsum_path"]
    live = list(range(len(terms)))
    for step, (i, j) in enumerate(order):
        path.append((live.index(i), live.index(j)))
        live = [k for k in live if k not in (i, j)] + [len(terms) + step]
    return path, f"greedy order for {subscripts}: {order}"


# --- the precision switch ----------------------------------------------------

_PRECISIONS = ("highest", "tf32", "bf16")
_precision = None


def set_matmul_precision(precision):
    """Chooses the arithmetic of float32 matrix products on GPUs:
    ``"highest"`` (the default: full fp32, as NumPy), ``"tf32"`` or
    ``"bf16"`` (tensor cores: faster, about 3 decimal digits). The
    environment variable ``SLUICE_MATMUL_PRECISION`` sets the initial
    value; the runtime reads it at each cuBLAS product. Host and
    OpenCL/Level Zero products always compute in full precision
    (docs/linalg.md says which kernels honour the switch)."""
    global _precision
    if precision not in _PRECISIONS:
        raise ValueError(
            f"unknown matmul precision {precision!r}: expected "
            "one of " + ", ".join(repr(p) for p in _PRECISIONS)
        )
    _precision = precision
    # The runtime reads it at each library product (cuBLAS on CUDA).
    os.environ["SLUICE_MATMUL_PRECISION"] = precision


def get_matmul_precision():
    """The precision set by set_matmul_precision (or the environment)."""
    global _precision
    if _precision is None:
        env = os.environ.get("SLUICE_MATMUL_PRECISION", "highest")
        if env not in _PRECISIONS:
            raise ValueError(
                f"SLUICE_MATMUL_PRECISION={env!r}: expected "
                "one of " + ", ".join(_PRECISIONS)
            )
        _precision = env
    return _precision
