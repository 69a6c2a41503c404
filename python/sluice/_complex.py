"""Complex numbers: the parts of complex arrays and NumPy's tests for them.

complex64 and complex128 arrays hold (real, imaginary) pairs, interleaved as
in NumPy. Arithmetic, powers, exp/log/sqrt/sin/cos/tanh, abs, equality,
where, astype and sum/mean take them through the usual functions of
sluice._ops (NumPy's type resolution handles the promotion); this module
adds the functions that take complex numbers apart or put them together.
A Python complex scalar is weak, like Python floats: ``x32 * 1j`` is
complex64.
"""

import math

import numpy as np

from . import _dispatch, _dtypes, _ir
from . import _ops


def _array_operand(name, x):
    o = _dispatch._operand(x)
    if not o.is_usm:
        from ._creation import asarray

        x = asarray(x)
        o = _dispatch._operand(x)
    return x, o


def _part_op(usm_op, x, in_dt, out_dt):
    """``usm.<usm_op>`` of ``x`` (converted to ``in_dt``) with ``out_dt``
    elements."""
    o = _dispatch._operand(x)
    qid, kind = o.qid, o.usm

    def emit(fb, vals):
        rt = _ir.ArrayT(out_dt, vals[0].type.shape, qid, kind)
        return [_ir.elementwise(fb, usm_op, vals, rt)]

    return _dispatch._single(
        _dispatch._execute(
            ("cplx", usm_op, out_dt), [o], [in_dt], emit, [o.shape], qid, kind
        )
    )


def _part_dtype(dt):
    return _dtypes.float32 if dt == _dtypes.complex64 else _dtypes.float64


def real(x):
    """The real part (a real array is its own real part)."""
    x, o = _array_operand("real", x)
    if o.dtype.kind != "c":
        return x
    return _part_op("real", x, o.dtype, _part_dtype(o.dtype))


def imag(x):
    """The imaginary part (zeros of the same dtype for a real array)."""
    x, o = _array_operand("imag", x)
    if o.dtype.kind != "c":
        from ._creation import zeros_like

        return zeros_like(x)
    return _part_op("imag", x, o.dtype, _part_dtype(o.dtype))


def conj(x):
    """The complex conjugate (a copy for a real array)."""
    x, o = _array_operand("conj", x)
    if o.dtype.kind != "c":
        return _ops.copy(x)
    return _part_op("conj", x, o.dtype, o.dtype)


conjugate = conj


def _float_of(o):
    if o.dtype.kind == "c":
        return o.dtype
    if o.dtype.kind == "f":
        return o.dtype
    from ._device import _queue_from_id, queue_info

    return _dtypes.fit_device(
        _dtypes.float64, queue_info(_queue_from_id(o.qid))
    )


def angle(z, deg=False):
    """The argument ``atan2(imag, real)``, in radians (degrees with
    ``deg``); real numbers have argument 0 or pi."""
    z, o = _array_operand("angle", z)
    dt = _float_of(o)
    out = _part_dtype(dt) if dt.kind == "c" else dt
    r = _part_op("angle", z, dt, out)
    if deg:
        r = _ops.multiply(r, 180.0 / math.pi)
    return r


def _from_parts(re, im):
    """The complex array ``re + im * 1j`` of two float arrays of one dtype
    (no arithmetic: infinities and NaNs stay in their parts)."""
    ore, oim = _dispatch._operand(re), _dispatch._operand(im)
    dt = np.result_type(ore.dtype, oim.dtype)
    if dt.kind != "f" or dt.itemsize < 4:
        dt = _dtypes.float32 if dt.itemsize <= 4 else _dtypes.float64
    qid, kind = _dispatch._placement([ore, oim])
    shape = _dispatch._broadcast([ore.shape, oim.shape])
    cdt = _dtypes.complex64 if dt == _dtypes.float32 else _dtypes.complex128

    def emit(fb, vals):
        rt = _ir.ArrayT(
            cdt,
            _dispatch._broadcast_types(
                [v.type.shape for v in vals if isinstance(v.type, _ir.ArrayT)]
            ),
            qid,
            kind,
        )
        return [_ir.elementwise(fb, "complex", vals, rt)]

    return _dispatch._single(
        _dispatch._execute(
            ("cplx", "complex", cdt),
            [ore, oim],
            [dt, dt],
            emit,
            [shape],
            qid,
            kind,
        )
    )


def proj(z):
    """The projection onto the Riemann sphere: every infinity (a part
    infinite, the other anything, NaN included) becomes inf + 0j with the
    sign of the imaginary part kept; other numbers are themselves."""
    z, o = _array_operand("proj", z)
    if o.dtype.kind != "c":
        return _ops.copy(z)
    re, im = real(z), imag(z)
    inf = float("inf")
    infinite = _ops.logical_or(
        _ops.equal(_ops.absolute(re), inf), _ops.equal(_ops.absolute(im), inf)
    )
    # copysign(0, im) without copysign: -0.0 where im is negative or -0.0.
    neg = _ops.less(
        _ops.divide(1.0, _ops.where(_ops.equal(im, 0.0), im, 1.0)), 0.0
    )
    neg = _ops.logical_or(neg, _ops.less(im, 0.0))
    zero = _ops.where(neg, -0.0, 0.0)
    if zero.dtype != re.dtype:
        zero = _ops.astype(zero, re.dtype)
    projected = _from_parts(
        _ops.where(infinite, inf, re), _ops.where(infinite, zero, im)
    )
    return projected


def iscomplexobj(x):
    """True for an array (or scalar) of a complex dtype."""
    dt = getattr(x, "dtype", None)
    if dt is None:
        return isinstance(x, complex) or np.iscomplexobj(x)
    return np.dtype(dt).kind == "c"


def isrealobj(x):
    return not iscomplexobj(x)


def iscomplex(x):
    """Elementwise: the imaginary part is not zero (False for real
    dtypes)."""
    x, o = _array_operand("iscomplex", x)
    if o.dtype.kind != "c":
        from ._creation import zeros_like

        return zeros_like(x, dtype=_dtypes.bool_)
    return _ops.not_equal(imag(x), 0)


def isreal(x):
    """Elementwise: the imaginary part is zero (True for real dtypes)."""
    x, o = _array_operand("isreal", x)
    if o.dtype.kind != "c":
        from ._creation import ones_like

        return ones_like(x, dtype=_dtypes.bool_)
    return _ops.equal(imag(x), 0)


# --- reductions of complex arrays --------------------------------------------


def _reduced(o, axis):
    """(axes, kept axes, number of reduced elements) of a reduction."""
    axes = _ops._normalize_axes(axis, len(o.shape))
    kept = [i for i in range(len(o.shape)) if i not in axes]
    n = 1
    for a in axes:
        n *= o.shape[a]
    return axes, kept, n


def prod(x, axis=None, keepdims=False):
    """The product of complex elements: a tree of elementwise complex
    products (the reduced axes moved last and padded with ones to a power
    of two, then halved), since a complex product does not split into
    reductions of the parts as a sum does."""
    o = _dispatch._operand(x)
    axes, kept, n = _reduced(o, axis)
    if not axes:
        return _ops.copy(x)
    rest = tuple(o.shape[i] for i in kept)
    y = (
        _ops.transpose(x, tuple(kept) + axes)
        if kept + list(axes) != list(range(len(o.shape)))
        else x
    )
    y = _ops.reshape(y, rest + (n,))
    shape = tuple(
        1 if i in axes else d
        for i, d in enumerate(o.shape)
        if keepdims or i not in axes
    )
    if n == 0:
        from ._creation import ones
        from ._device import _queue_from_id

        return ones(
            shape,
            dtype=o.dtype,
            sycl_queue=_queue_from_id(o.qid),
            usm_type={1: "device", 2: "shared", 3: "host"}[o.usm],
        )
    m = 1
    while m < n:
        m *= 2
    if m != n:
        from ._manipulation import concatenate

        one = _ops.where(True, complex(1.0), y[..., :1])
        y = concatenate([y, _ops.broadcast_to(one, rest + (m - n,))], axis=-1)
    while m > 1:
        m //= 2
        y = _ops.multiply(y[..., :m], y[..., m:])
    return _ops.reshape(y, shape)


def var(x, axis=None, ddof=0, keepdims=False, where=None):
    """NumPy's variance of complex numbers, ``mean(|x - mean(x)|**2)``:
    a real array of the parts' dtype (``where``, a mask or None, selects
    the elements counted)."""
    o = _dispatch._operand(x)
    axes, kept, n = _reduced(o, axis)
    part = _part_dtype(o.dtype)
    if where is None:
        m = _ops.mean(x, axis=axis, keepdims=True)
    else:
        m = masked_mean(x, where, axis, True, o.dtype)
    d = _ops.subtract(x, m)
    re, im = real(d), imag(d)
    sq = _ops.add(_ops.multiply(re, re), _ops.multiply(im, im))
    if where is None:
        s = _ops.sum(sq, axis=axis, keepdims=keepdims)
        return _ops.divide(s, float(max(n - ddof, 0)) or float("nan"))
    s = _ops.sum(_ops.where(where, sq, 0), axis=axis, keepdims=keepdims)
    cnt = _count(x, where, axis, keepdims, part)
    return _ops.divide(s, _ops.maximum(_ops.subtract(cnt, float(ddof)), 0.0))


def _count(x, where, axis, keepdims, dt):
    """How many elements of ``x`` the mask ``where`` selects, per result
    element, as ``dt``."""
    ones = _ops.where(where, 1.0, 0.0)
    ones = _ops.broadcast_to(ones, tuple(x.shape))
    return _ops.astype(
        _ops.sum(ones, axis=axis, keepdims=keepdims), dt, copy=False
    )


def masked_mean(x, where, axis, keepdims, dt):
    """The mean of the elements of ``x`` that ``where`` selects, in ``dt``
    (float16 accumulates in float32, as mean does)."""
    acc = _dtypes.float32 if dt == _dtypes.float16 else dt
    xs = _ops.astype(x, acc, copy=False)
    s = _ops.sum(_ops.where(where, xs, 0), axis=axis, keepdims=keepdims)
    part = _part_dtype(acc) if acc.kind == "c" else acc
    r = _ops.divide(s, _count(x, where, axis, keepdims, part))
    return _ops.astype(r, dt, copy=False)
