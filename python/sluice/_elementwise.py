"""Elementwise functions from one table, with ``out=`` and ``where=``.

Each row of ``FUNCTIONS`` is one public function: its name, the NumPy ufunc
whose type resolution it follows (Python scalars weak, float16/float64
fitted to the device), the usm op that computes it (a row of
include/sluice/Dialect/USM/IR/USMMathOps.td) and a one-line doc. A row's
function runs eagerly or inside ``@sluice.jit`` like every other operation,
and fuses with its neighbours. Functions that are compositions of others
(``modf``, ``isclose``, ``sinc`` ...) are written below the table;
docs/python.md lists them all (``python -m sluice._elementwise`` prints
the list).

Every function takes NumPy's ``out=`` (positional too: ``add(a, b, a)``,
``sqrt(a, a)``) and ``where=``; ``out`` may alias an input.
"""

import builtins
import math

import numpy as np

from . import _dispatch, _dtypes, _ir, _trace
from ._array import Array
from ._errors import TracerError

# sluice._ops, the operations this module wraps and calls, as bind() gets it:
# sluice._ops imports this module and hands itself over once its functions
# are defined, so this module imports no operation.
_ops = None

# name: (ufunc for type resolution, usm op, doc)
UNARY = {
    "tan": (np.tan, "tan", "Tangent."),
    "arcsin": (np.arcsin, "asin", "Inverse sine."),
    "arccos": (np.arccos, "acos", "Inverse cosine."),
    "arctan": (np.arctan, "atan", "Inverse tangent."),
    "sinh": (np.sinh, "sinh", "Hyperbolic sine."),
    "cosh": (np.cosh, "cosh", "Hyperbolic cosine."),
    "arcsinh": (np.arcsinh, "asinh", "Inverse hyperbolic sine."),
    "arccosh": (np.arccosh, "acosh", "Inverse hyperbolic cosine."),
    "arctanh": (np.arctanh, "atanh", "Inverse hyperbolic tangent."),
    "exp2": (np.exp2, "exp2", "2 to the power of x."),
    "expm1": (np.expm1, "expm1", "exp(x) - 1, accurate near 0."),
    "log2": (np.log2, "log2", "Base-2 logarithm."),
    "log10": (np.log10, "log10", "Base-10 logarithm."),
    "log1p": (np.log1p, "log1p", "log(1 + x), accurate near 0."),
    "cbrt": (np.cbrt, "cbrt", "Cube root."),
    "rsqrt": (np.sqrt, "rsqrt", "Reciprocal square root, 1 / sqrt(x)."),
    "reciprocal": (np.reciprocal, "reciprocal", "1 / x."),
    "erf": (np.sin, "erf", "Error function."),
    "erfc": (np.sin, "erfc", "Complementary error function, 1 - erf(x)."),
    "floor": (np.floor, "floor", "Round toward negative infinity."),
    "ceil": (np.ceil, "ceil", "Round toward positive infinity."),
    "trunc": (np.trunc, "trunc", "Round toward zero."),
    "rint": (np.rint, "rint", "Round to the nearest integer, ties to even."),
    "sign": (np.sign, "sign", "-1, 0 or 1 by the sign; NaN stays NaN."),
    "signbit": (np.signbit, "signbit", "Whether the sign bit is set."),
    "isnan": (np.isnan, "isnan", "Whether x is NaN."),
    "isinf": (np.isinf, "isinf", "Whether x is infinite."),
    "isfinite": (np.isfinite, "isfinite", "Whether x is finite."),
    "spacing": (
        np.spacing,
        "spacing",
        "Distance to the next representable value away from 0.",
    ),
    "bitwise_not": (
        np.invert,
        "bitwise_not",
        "Bitwise complement (logical not of booleans).",
    ),
}

BINARY = {
    "arctan2": (np.arctan2, "atan2", "Angle of the point (x2, x1)."),
    "hypot": (np.hypot, "hypot", "sqrt(x1**2 + x2**2) without overflow."),
    "copysign": (np.copysign, "copysign", "x1 with the sign of x2."),
    "nextafter": (
        np.nextafter,
        "nextafter",
        "Next representable value after x1 toward x2.",
    ),
    "fmod": (np.fmod, "fmod", "Remainder with the sign of the dividend."),
    "logaddexp": (np.logaddexp, "logaddexp", "log(exp(x1) + exp(x2))."),
    "logaddexp2": (np.logaddexp2, "logaddexp2", "log2(2**x1 + 2**x2)."),
    "fmax": (np.fmax, "fmax", "Larger value, ignoring NaN."),
    "fmin": (np.fmin, "fmin", "Smaller value, ignoring NaN."),
    "ldexp": (np.ldexp, "ldexp", "x1 * 2**x2, exact."),
    "bitwise_and": (np.bitwise_and, "bitwise_and", "Bitwise and."),
    "bitwise_or": (np.bitwise_or, "bitwise_or", "Bitwise or."),
    "bitwise_xor": (np.bitwise_xor, "bitwise_xor", "Bitwise exclusive or."),
    "left_shift": (
        np.left_shift,
        "left_shift",
        "x1 << x2 (0 when x2 is out of range).",
    ),
    "right_shift": (
        np.right_shift,
        "right_shift",
        "x1 >> x2, arithmetic for signed types.",
    ),
    "gcd": (np.gcd, "gcd", "Greatest common divisor."),
    "lcm": (np.lcm, "lcm", "Least common multiple."),
}

# Functions of _ops (with fast paths) that get out= and where= here.
WRAPPED_UNARY = {
    "negative": "-x.",
    "absolute": "|x|.",
    "exp": "Exponential.",
    "log": "Natural logarithm.",
    "sqrt": "Square root.",
    "sin": "Sine.",
    "cos": "Cosine.",
    "tanh": "Hyperbolic tangent.",
    "logical_not": "Logical not of the truth value.",
    "positive": "+x.",
    "square": "x * x.",
}
WRAPPED_BINARY = {
    "add": "x1 + x2.",
    "subtract": "x1 - x2.",
    "multiply": "x1 * x2.",
    "divide": "True division x1 / x2.",
    "floor_divide": "Quotient rounded toward negative infinity.",
    "remainder": "Remainder with the sign of the divisor.",
    "power": "x1 ** x2.",
    "maximum": "Larger value; NaN propagates.",
    "minimum": "Smaller value; NaN propagates.",
    "equal": "x1 == x2.",
    "not_equal": "x1 != x2.",
    "less": "x1 < x2.",
    "less_equal": "x1 <= x2.",
    "greater": "x1 > x2.",
    "greater_equal": "x1 >= x2.",
    "logical_and": "Logical and.",
    "logical_or": "Logical or.",
    "logical_xor": "Logical exclusive or.",
}

# Other names of the same functions (NumPy's and the Array API's).
ALIASES = {
    "asin": "arcsin",
    "acos": "arccos",
    "atan": "arctan",
    "atan2": "arctan2",
    "asinh": "arcsinh",
    "acosh": "arccosh",
    "atanh": "arctanh",
    "invert": "bitwise_not",
    "bitwise_invert": "bitwise_not",
    "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift",
    "fix": "trunc",
    "true_divide": "divide",
    "mod": "remainder",
    "pow": "power",
    "abs": "absolute",
    "degrees": "rad2deg",
    "radians": "deg2rad",
    "around": "round",
    "conj": "conjugate",
}


# --- running a row ----------------------------------------------------------


def _is_array(x):
    return isinstance(x, (Array, _trace.Tracer))


def _scalars_to_arrays(args):
    """Functions of Python or NumPy scalars alone run on the default device
    and return 0-d arrays (dpnp)."""
    if args[0].__class__ is Array or args[-1].__class__ is Array:
        return args  # (an array operand, the usual case: checked cheaply)
    if _trace.current() is not None:
        return args
    if not builtins.all(
        isinstance(a, (bool, int, float, np.generic)) for a in args
    ):
        return args
    from ._creation import asarray

    return (asarray(args[0]),) + tuple(args[1:])


def _apply(usm_op, ufunc, args, second_as_first=False):
    args = _scalars_to_arrays(args)
    # Seen before with operands of these signatures: straight to the
    # program (FastPath.cpp), without type resolution.
    code = _dispatch.fast_code(("ew", usm_op, ufunc, second_as_first))
    if code is not None:
        r = _dispatch._ext.fast_call(code, *args)
        if r is not None:
            return r
    ops = [_dispatch._operand(a) for a in args]
    tr = _dispatch._trace_for(ops) or _trace.current()
    loc = _trace.user_location() if tr is not None else None
    qid, kind = _dispatch._placement(ops, loc)
    r = _dispatch._resolve(ufunc, ops, qid)
    ins = list(r[: len(ops)])
    if second_as_first:  # ldexp: the exponent as a value of x1's type
        ins[1] = ins[0]
    res = _dtypes.bool_ if usm_op in _PREDICATES else ins[0]
    if res.kind == "b" and usm_op in ("floor", "ceil", "trunc", "rint"):
        return _ops.astype(args[0], r[len(ops)], copy=True)
    shape = _dispatch._broadcast([o.shape for o in ops])

    def emit(fb, vals):
        rt = _ir.ArrayT(
            res,
            _dispatch._broadcast_types(
                [v.type.shape for v in vals if isinstance(v.type, _ir.ArrayT)]
            ),
            qid,
            kind,
        )
        return [_ir.elementwise(fb, usm_op, vals, rt)]

    want = r[len(ops)]
    direct = want == res or want.kind == "b"  # no conversion after
    fast = (code, tuple(args)) if code is not None and direct else None
    out = _dispatch._execute(
        ("ew", usm_op, res), ops, ins, emit, [shape], qid, kind, fast
    )[0]
    if want != res and want.kind != "b":
        out = _ops.astype(out, want, copy=False)
    return out


_PREDICATES = {"isnan", "isinf", "isfinite", "signbit"}


def _store(name, r, out, where):
    """NumPy's out= and where=: r where `where` holds, out's old values
    elsewhere; written into out (which may alias an input) and returned."""
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError(f"{name}: out must be a tuple of one array")
        out = out[0]
    if where is not True:
        r = _ops.where(where, r, out if out is not None else r)
    if out is None:
        return r
    if isinstance(out, _trace.Tracer) or _trace.current() is not None:
        raise TracerError(
            f"{name}(..., out=) writes into an array, which @sluice.jit "
            "cannot do: use the result"
        )
    if not isinstance(out, Array):
        raise TypeError(
            f"{name}: out must be a sluice.Array, not {type(out).__name__}"
        )
    if r.dtype != out.dtype and not np.can_cast(
        r.dtype, out.dtype, "same_kind"
    ):
        raise TypeError(
            f"Cannot cast ufunc '{name}' output from {r.dtype!r} to "
            f"{out.dtype!r} with casting rule 'same_kind'"
        )
    if _dispatch._broadcast_shapes(
        [tuple(r.shape), tuple(out.shape)]
    ) != tuple(out.shape):
        raise ValueError(
            f"non-broadcastable output operand with shape {out.shape} "
            f"doesn't match the broadcast shape {r.shape}"
        )
    out[...] = r
    return out


# The fast path's call (FastPath.cpp): a row with a fast-path code tries
# it first, as the body would after its Python layers (the same entry: the
# body registers it under this code, for operands of these signatures).
_fast_call = _dispatch._ext.fast_call


def _make_unary(name, body, doc, code=None):
    def f(x, /, out=None, *, where=True, dtype=None, **kwargs):
        if (
            code is not None
            and out is None
            and where is True
            and dtype is None
            and not kwargs
        ):
            r = _fast_call(code, x)
            if r is not None:
                return r
        _check_kwargs(name, kwargs)
        if dtype is not None:
            x = _ops.astype(x, dtype, copy=False) if _is_array(x) else x
        r = body(x)
        if dtype is not None and _is_array(r) and r.dtype != np.dtype(dtype):
            r = _ops.astype(r, dtype, copy=False)
        if out is None and where is True:
            return r
        return _store(name, r, out, where)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


def _make_binary(name, body, doc, code=None):
    def f(x1, x2, /, out=None, *, where=True, dtype=None, **kwargs):
        if (
            code is not None
            and out is None
            and where is True
            and dtype is None
            and not kwargs
        ):
            r = _fast_call(code, x1, x2)
            if r is not None:
                return r
        _check_kwargs(name, kwargs)
        if dtype is not None:
            x1 = _ops.astype(x1, dtype, copy=False) if _is_array(x1) else x1
            x2 = _ops.astype(x2, dtype, copy=False) if _is_array(x2) else x2
        r = body(x1, x2)
        if out is None and where is True:
            return r
        return _store(name, r, out, where)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


def _check_kwargs(name, kwargs):
    for k, v in kwargs.items():
        if k == "casting" and v in ("same_kind", "unsafe", "safe"):
            continue
        if k == "order" and v in ("K", "C", "A", None):
            continue
        if k == "subok" and v:
            continue
        raise TypeError(f"{name}() got an unsupported keyword argument {k!r}")


_table = {}
for _name, (_uf, _op, _doc) in UNARY.items():
    _table[_name] = _make_unary(
        _name,
        (lambda op, uf: lambda x: _apply(op, uf, (x,)))(_op, _uf),
        _doc,
        _dispatch.fast_code(("ew", _op, _uf, False)),
    )
for _name, (_uf, _op, _doc) in BINARY.items():
    _ld = _name == "ldexp"
    _table[_name] = _make_binary(
        _name,
        (lambda op, uf, ld: lambda a, b: _apply(op, uf, (a, b), ld))(
            _op, _uf, _ld
        ),
        _doc,
        _dispatch.fast_code(("ew", _op, _uf, _ld)),
    )


def _wrap_operations():
    """The table's rows for sluice._ops's own functions (bind)."""
    for name, doc in WRAPPED_UNARY.items():
        op = getattr(_ops, name)
        _table[name] = _make_unary(
            name,
            (lambda fn: lambda x: fn(*_scalars_to_arrays((x,))))(op),
            doc,
            _dispatch._FAST_OPS.get(name),
        )
    for name, doc in WRAPPED_BINARY.items():
        op = getattr(_ops, name)
        _table[name] = _make_binary(
            name,
            (lambda fn: lambda a, b: fn(*_scalars_to_arrays((a, b))))(op),
            doc,
            # (power checks its operands before the fast path: not here)
            None if name == "power" else _dispatch._FAST_OPS.get(name),
        )


# --- compositions ------------------------------------------------------------


def _float_dtype(ufunc, *xs):
    ops = [_dispatch._operand(x) for x in xs]
    qid, _ = _dispatch._placement(ops)
    return _dispatch._resolve(ufunc, ops, qid)[-1]


def _as(x, dt):
    if _is_array(x) and x.dtype != dt:
        return _ops.astype(x, dt, copy=False)
    return x


def _compose(name, doc, nin=1):
    def deco(body):
        f = (_make_unary if nin == 1 else _make_binary)(name, body, doc)
        _table[name] = f
        return f

    return deco


@_compose("deg2rad", "Degrees to radians.")
def _deg2rad(x):
    x = _scalars_to_arrays((x,))[0]
    return _ops.multiply(_as(x, _float_dtype(np.deg2rad, x)), math.pi / 180)


@_compose("rad2deg", "Radians to degrees.")
def _rad2deg(x):
    x = _scalars_to_arrays((x,))[0]
    return _ops.multiply(_as(x, _float_dtype(np.rad2deg, x)), 180 / math.pi)


@_compose("sinc", "sin(pi x) / (pi x), 1 at 0.")
def _sinc(x):
    x = _scalars_to_arrays((x,))[0]
    x = _as(x, _float_dtype(np.sin, x))
    y = _ops.multiply(_ops.where(_ops.equal(x, 0), 1.0e-20, x), math.pi)
    return _ops.divide(_ops.sin(y), y)


@_compose("heaviside", "0 for x1 < 0, x2 for x1 == 0, 1 for x1 > 0.", 2)
def _heaviside(x1, x2):
    x1, x2 = _scalars_to_arrays((x1, x2))
    dt = _float_dtype(np.heaviside, x1, x2)
    x1, x2 = _as(x1, dt), _as(x2, dt)
    r = _ops.where(
        _ops.less(x1, 0), 0.0, _ops.where(_ops.greater(x1, 0), 1.0, x2)
    )
    return _as(_ops.where(_table["isnan"](x1), x1, r), dt)


@_compose(
    "float_power",
    "x1 ** x2 in float64 (float32 on devices without float64).",
    2,
)
def _float_power(x1, x2):
    x1, x2 = _scalars_to_arrays((x1, x2))
    dt = _float_dtype(np.float_power, x1, x2)
    return _ops.power(_as(x1, dt), _as(x2, dt))


@_compose(
    "conjugate", "The complex conjugate (the value itself for real numbers)."
)
def _conjugate(x):
    x = _scalars_to_arrays((x,))[0]
    return _ops.positive(x) if x.dtype.kind != "b" else _ops.copy(x)


@_compose("fabs", "|x| of real numbers, as a float (NumPy's fabs).")
def _fabs(x):
    x = _scalars_to_arrays((x,))[0]
    return _ops.absolute(_as(x, _float_dtype(np.fabs, x)))


@_compose("isposinf", "Whether x is +inf.")
def _isposinf(x):
    x = _scalars_to_arrays((x,))[0]
    if x.dtype.kind not in "fc":
        return _ops.not_equal(x, x)
    return _ops.equal(x, math.inf)


@_compose("isneginf", "Whether x is -inf.")
def _isneginf(x):
    x = _scalars_to_arrays((x,))[0]
    if x.dtype.kind not in "fc":
        return _ops.not_equal(x, x)
    return _ops.equal(x, -math.inf)


@_compose("bitwise_count", "The number of one bits of |x| (uint8).")
def _bitwise_count(x):
    x = _scalars_to_arrays((x,))[0]
    if x.dtype.kind == "b":
        return _ops.astype(x, _dtypes.uint8)
    if x.dtype.kind not in "iu":
        raise TypeError(f"bitwise_count needs integers, not {x.dtype}")
    bits = 8 * np.dtype(x.dtype).itemsize
    v = _ops.astype(
        _ops.absolute(x) if x.dtype.kind == "i" else x, np.dtype(f"uint{bits}")
    )
    ones = (1 << bits) - 1
    band, shr = _table["bitwise_and"], _table["right_shift"]
    # the bits summed in pairs, nibbles, bytes, then the bytes
    v = _ops.subtract(v, band(shr(v, 1), ones // 3))
    v = _ops.add(band(v, ones // 5), band(shr(v, 2), ones // 5))
    v = band(_ops.add(v, shr(v, 4)), ones // 17)
    k = 8
    while k < bits:
        v = _ops.add(v, shr(v, k))
        k *= 2
    return _ops.astype(band(v, 0xFF), _dtypes.uint8)


@_compose("i0", "Modified Bessel function of the first kind, order 0.")
def _i0(x):
    x = _scalars_to_arrays((x,))[0]
    a = _ops.absolute(_as(x, _float_dtype(np.sin, x)))
    # |x| <= 20: the series sum_k (x^2/4)^k / (k!)^2 (positive terms, 45 of
    # them); above: e^x / sqrt(2 pi x) sum_n a_n / x^n with a_n =
    # ((2n-1)!!)^2 / (n! 8^n), 31 terms, e^x as e^(x/2) twice (no early
    # overflow). Within 6 epsilons of NumPy's i0.
    t = _ops.multiply(_ops.multiply(a, a), 0.25)
    s = 1.0 / math.factorial(45) ** 2
    for k in range(44, -1, -1):
        s = _ops.add(_ops.multiply(s, t), 1.0 / math.factorial(k) ** 2)
    big = _ops.greater(a, 20.0)
    v = _ops.where(big, a, 21.0)
    u = _ops.divide(1.0, v)
    coef = [1.0]
    for n in range(1, 31):
        coef.append(coef[-1] * (2 * n - 1) ** 2 / (8 * n))
    p = coef[-1]
    for c in coef[-2::-1]:
        p = _ops.add(_ops.multiply(p, u), c)
    h = _ops.exp(_ops.multiply(v, 0.5))
    far = _ops.multiply(
        _ops.multiply(
            h, _ops.divide(p, _ops.sqrt(_ops.multiply(v, 2 * math.pi)))
        ),
        h,
    )
    return _ops.where(big, far, s)


def divmod(x1, x2, out1=None, out2=None, /, *, out=(None, None), where=True):
    """Quotient rounded toward negative infinity and remainder, as a pair
    (NumPy's divmod)."""
    q = _ops.floor_divide(x1, x2)
    r = _ops.remainder(x1, x2)
    o1, o2 = (
        out1 if out1 is not None else out[0],
        out2 if out2 is not None else out[1],
    )
    if o1 is not None or where is not True:
        q = _store("divmod", q, o1, where)
    if o2 is not None or where is not True:
        r = _store("divmod", r, o2, where)
    return q, r


def array_equiv(a1, a2):
    """Whether the arrays broadcast to one shape with equal elements (a 0-d
    boolean array)."""
    a1, a2 = _scalars_to_arrays((a1, a2))
    try:
        np.broadcast_shapes(
            tuple(getattr(a1, "shape", ())), tuple(getattr(a2, "shape", ()))
        )
    except ValueError:
        from ._creation import asarray

        return asarray(False, device=getattr(a1, "device", None))
    return _ops.all(_ops.equal(a1, a2))


def round(x, /, decimals=0, out=None):
    """Round to ``decimals`` decimals, ties to even (NumPy's ``round``)."""
    x = _scalars_to_arrays((x,))[0]
    if x.dtype.kind in "biu" and decimals >= 0:
        r = _ops.copy(x) if isinstance(x, Array) else x
    elif decimals == 0:
        r = _table["rint"](x)
    elif decimals > 0:
        s = 10.0**decimals
        r = _ops.divide(_table["rint"](_ops.multiply(x, s)), s)
    else:
        s = 10.0**-decimals
        r = _ops.multiply(_table["rint"](_ops.divide(x, s)), s)
        if x.dtype.kind in "iu":
            r = _ops.astype(r, x.dtype)
    return r if out is None else _store("round", r, out, True)


def modf(x, out1=None, out2=None, /, *, out=(None, None), where=True):
    """Fractional and integral parts, both with x's sign."""
    x = _scalars_to_arrays((x,))[0]
    o = _dispatch._operand(x)
    x = _as(x, _dispatch._resolve(np.modf, [o], o.qid)[1])
    i = _table["trunc"](x)
    f = _ops.where(
        _table["isinf"](x),
        _table["copysign"](0.0, x),
        _table["copysign"](_ops.subtract(x, i), x),
    )
    o1, o2 = (
        out1 if out1 is not None else out[0],
        out2 if out2 is not None else out[1],
    )
    if o1 is not None or where is not True:
        f = _store("modf", f, o1, where)
    if o2 is not None or where is not True:
        i = _store("modf", i, o2, where)
    return f, i


def frexp(x, out1=None, out2=None, /, *, out=(None, None), where=True):
    """Mantissa in [0.5, 1) and integer exponent: x = m * 2**e."""
    x = _scalars_to_arrays((x,))[0]
    o = _dispatch._operand(x)
    dt = _dispatch._resolve(np.frexp, [o], o.qid)[1]
    x = _as(x, dt)
    m = _apply("frexp_mantissa", np.negative, (x,))
    e = _ops.astype(_apply("frexp_exponent", np.negative, (x,)), _dtypes.int32)
    o1, o2 = (
        out1 if out1 is not None else out[0],
        out2 if out2 is not None else out[1],
    )
    if o1 is not None or where is not True:
        m = _store("frexp", m, o1, where)
    if o2 is not None or where is not True:
        e = _store("frexp", e, o2, where)
    return m, e


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether a and b agree within atol + rtol * |b| (NumPy's isclose)."""
    a, b = _scalars_to_arrays((a, b))
    oa, ob = _dispatch._operand(a), _dispatch._operand(b)
    qid, _ = _dispatch._placement([oa, ob])
    dt = _dispatch._resolve(np.add, [oa, ob], qid)[-1]
    if dt.kind != "f":
        dt = _dispatch._resolve(
            np.sin, [_dispatch._Operand(None, "A", dt, qid=qid)], qid
        )[-1]
    a, b = _as(a, dt), _as(b, dt)
    isfinite, isnan = _table["isfinite"], _table["isnan"]
    close = _ops.less_equal(
        _ops.absolute(_ops.subtract(a, b)),
        _ops.add(_ops.multiply(_ops.absolute(b), float(rtol)), float(atol)),
    )
    fin = _ops.logical_and(isfinite(a), isfinite(b))
    r = _ops.where(fin, close, _ops.equal(a, b))
    if equal_nan:
        r = _ops.logical_or(r, _ops.logical_and(isnan(a), isnan(b)))
    return r


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element is close (a 0-d boolean array, as dpnp)."""
    return _ops.all(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1, a2, equal_nan=False):
    """Whether the arrays have one shape and equal elements (a 0-d boolean
    array, as dpnp)."""
    a1, a2 = _scalars_to_arrays((a1, a2))
    if tuple(getattr(a1, "shape", ())) != tuple(getattr(a2, "shape", ())):
        from ._creation import asarray

        return asarray(False, device=getattr(a1, "device", None))
    eq = _ops.equal(a1, a2)
    if equal_nan:
        eq = _ops.logical_or(
            eq, _ops.logical_and(_table["isnan"](a1), _table["isnan"](a2))
        )
    return _ops.all(eq)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN to ``nan``, infinities to the largest finite values (or the
    values given)."""
    x = _scalars_to_arrays((x,))[0]
    if x.dtype.kind != "f":
        return _ops.copy(x) if copy and isinstance(x, Array) else x
    fi = np.finfo(x.dtype)
    hi = float(fi.max) if posinf is None else float(posinf)
    lo = float(fi.min) if neginf is None else float(neginf)
    r = _ops.where(_table["isnan"](x), float(nan), x)
    r = _ops.where(_ops.equal(x, math.inf), hi, r)
    r = _ops.where(_ops.equal(x, -math.inf), lo, r)
    r = _as(r, x.dtype)
    if not copy and isinstance(x, Array):
        x[...] = r
        return x
    return r


def isreal(x):
    """True for every element of a real array."""
    return (
        _ops.equal(
            _ops.astype(x, _dtypes.bool_), _ops.astype(x, _dtypes.bool_)
        )
        if _is_array(x)
        else True
    )


def iscomplex(x):
    """False for every element of a real array."""
    return _ops.logical_not(isreal(x)) if _is_array(x) else False


def isrealobj(x):
    return True


def iscomplexobj(x):
    return False


# --- reductions with out=, where= --------------------------------------------

_REDUCTIONS = ("sum", "prod", "max", "min", "mean", "var", "std", "all", "any")
_orig = {}  # name -> sluice._ops's own function (bind)
_IDENTITY = {"sum": 0, "prod": 1, "all": True, "any": False}


def _reduction(name):
    fn = _orig[name]

    def f(
        x,
        /,
        axis=None,
        dtype=None,
        out=None,
        keepdims=False,
        *,
        where=True,
        initial=None,
        correction=None,
        ddof=None,
    ):
        x = _scalars_to_arrays((x,))[0]
        kw = {}
        if dtype is not None:
            if name in ("max", "min", "all", "any"):
                raise TypeError(
                    f"{name}() got an unexpected keyword argument 'dtype'"
                )
            kw["dtype"] = dtype
        if name in ("var", "std"):
            if correction is not None and ddof is not None:
                raise ValueError(
                    "ddof and correction are the same argument: give one"
                )
            kw["ddof"] = correction if correction is not None else (ddof or 0)
        if where is not True:
            if name in _IDENTITY:
                x = _ops.where(where, x, _IDENTITY[name])
            elif name in ("max", "min"):
                if initial is None:
                    raise ValueError(
                        f"reduction operation '{name}imum' does not have an "
                        "identity, so to use a where mask one has to specify "
                        "'initial'"
                    )
                x = _ops.where(where, x, initial)
            else:  # mean, var, std: of the selected elements, as NumPy
                return _masked_statistic(
                    name, x, axis, keepdims, where, out, kw
                )
        r = fn(x, axis=axis, keepdims=keepdims, **kw)
        if initial is not None:
            op = {
                "sum": _ops.add,
                "prod": _ops.multiply,
                "max": _ops.maximum,
                "min": _ops.minimum,
            }.get(name)
            if op is None:
                raise TypeError(
                    f"{name}() got an unexpected keyword argument 'initial'"
                )
            r = _as(op(r, initial), r.dtype)
        if out is not None and tuple(getattr(out, "shape", ())) != tuple(
            r.shape
        ):
            raise ValueError(
                f"output parameter for reduction operation "
                f"{name} has the wrong shape {out.shape} "
                f"(the result's is {tuple(r.shape)})"
            )
        return r if out is None else _store(name, r, out, True)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"NumPy's {name} with axis, dtype, out, keepdims, where" + (
        ", correction (the Array API's ddof)."
        if name in ("var", "std")
        else "."
    )
    return f


def _masked_statistic(name, x, axis, keepdims, where, out, kw):
    """mean/var/std(where=): the selected elements' sums over their counts
    (NaN where none is selected, as NumPy)."""
    from . import _complex

    if not _is_array(where):
        from ._creation import asarray

        where = asarray(where, dtype=_dtypes.bool_, device=x.device)
    dt = kw.get("dtype")
    dt = _dtypes.to_dtype(dt) if dt is not None else _ops._float_for(x)
    x = _ops.astype(x, dt, copy=False)
    if name == "mean":
        r = _complex.masked_mean(x, where, axis, keepdims, dt)
    elif dt.kind == "c":
        r = _complex.var(x, axis, kw["ddof"], keepdims, where)
    else:
        m = _complex.masked_mean(x, where, axis, True, dt)
        d = _ops.subtract(x, m)
        s = _ops.sum(
            _ops.where(where, _ops.multiply(d, d), 0),
            axis=axis,
            keepdims=keepdims,
        )
        cnt = _complex._count(x, where, axis, keepdims, dt)
        r = _ops.divide(
            s, _ops.maximum(_ops.subtract(cnt, float(kw["ddof"])), 0.0)
        )
    if name == "std":
        r = _ops.sqrt(r)
    return r if out is None else _store(name, r, out, True)


def clip(
    x, /, min=None, max=None, out=None, *, a_min=None, a_max=None, where=True
):
    """x limited to [min, max] (either may be None or an array); the
    Array API's and NumPy's spellings."""
    lo = min if min is not None else a_min
    hi = max if max is not None else a_max
    r = x
    if lo is not None:
        r = _ops.maximum(r, lo)
    if hi is not None:
        r = _ops.minimum(r, hi)
    if r is x:
        r = _ops.copy(x) if isinstance(x, Array) else x
    if (
        _is_array(x)
        and r.dtype != x.dtype
        and x.dtype.kind != "b"
        and not builtins.any(_is_array(v) for v in (lo, hi))
    ):
        r = _ops.astype(r, x.dtype, copy=False)
    if out is None and where is True:
        return r
    return _store("clip", r, out, where)


_table.update(
    round=round,
    modf=modf,
    frexp=frexp,
    isclose=isclose,
    allclose=allclose,
    array_equal=array_equal,
    divmod=divmod,
    array_equiv=array_equiv,
    nan_to_num=nan_to_num,
    isreal=isreal,
    iscomplex=iscomplex,
    isrealobj=isrealobj,
    iscomplexobj=iscomplexobj,
    clip=clip,
)


def bind(ops):
    """Takes sluice._ops (which calls this once its own functions are
    defined): wraps its functions and reductions, and makes the whole
    table this module's names (``__all__``), which then take the place of
    sluice._ops's own."""
    global _ops, __all__
    _ops = ops
    _wrap_operations()
    _orig.update((n, getattr(ops, n)) for n in _REDUCTIONS)
    for name in _REDUCTIONS:
        _table[name] = _reduction(name)
    for alias, target in ALIASES.items():
        _table[alias] = _table[target]
    globals().update(_table)
    __all__ = sorted(_table)


def function_list():
    """(name, doc) of every elementwise function, for docs/python.md."""
    rows = []
    for n in sorted(_table):
        f = _table[n]
        doc = (f.__doc__ or "").strip().splitlines()[0] if f.__doc__ else ""
        alias = f.__name__ if f.__name__ != n else ""
        rows.append((n, f"alias of `{alias}`" if alias else doc))
    return rows


def markdown():
    """The function table of docs/python.md."""
    lines = ["| function | what it computes |", "|---|---|"]
    lines += [f"| `{n}` | {d} |" for n, d in function_list()]
    return "\n".join(lines) + "\n"


def write_docs(path):
    """Rewrites the table between <!-- functions --> and
    <!-- /functions --> in ``path``::

        python -c "import sluice._elementwise as e;
                   e.write_docs('docs/python.md')"
    """
    with open(path) as f:
        text = f.read()
    a, b = "<!-- functions -->\n", "<!-- /functions -->"
    i, j = text.index(a) + len(a), text.index(b)
    with open(path, "w") as f:
        f.write(text[:i] + markdown() + text[j:])
