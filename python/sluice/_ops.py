"""Array operations: NumPy semantics on usm IR, eager or traced.

The arithmetic, comparison and logical operations with fast paths, where,
astype, reductions (sum, prod, max, min, mean, var, std, all, any), shape
operations (reshape, transpose, squeeze, expand_dims, broadcast_to, ...)
and placement (to_device, copy). Each one checks its arguments, resolves
its dtypes and shape, and runs through sluice._dispatch (eagerly, lazily or
in the active trace); the elementwise functions of the table, with out= and
where= on every one, are sluice._elementwise's.
"""

import builtins
import math
import operator

import numpy as np

from . import _dtypes, _ir, _trace
from . import _sluice as _ext
from ._array import Array
from ._dispatch import (
    _FAST_OPS,
    fast_code,
    _INTO_BASE,
    _Operand,
    _broadcast,
    _broadcast_shapes,
    _broadcast_types,
    _execute,
    _operand,
    _placement,
    _resolve,
    _single,
    _trace_for,
)
from ._errors import TracerError
from ._placement import queue_info
from ._device import _coerce_device, _queue_from_id

try:  # NumPy >= 2
    from numpy.exceptions import AxisError
except ImportError:  # pragma: no cover
    AxisError = np.AxisError

# Functions of an order that complex numbers do not have (the Array API's
# rule; NumPy orders them lexicographically).
UNORDERED = frozenset(
    {
        "less",
        "less_equal",
        "greater",
        "greater_equal",
        "maximum",
        "minimum",
        "max",
        "min",
    }
)


def reject_ordering(name, dt):
    raise TypeError(
        f"sluice.{name} is not defined for complex numbers "
        f"({dt}): they have no order; compare real parts or "
        "absolute values instead"
    )


# --- elementwise -------------------------------------------------------------

# name -> (NumPy ufunc, usm op)
_BINARY = {
    "add": (np.add, "add"),
    "subtract": (np.subtract, "sub"),
    "multiply": (np.multiply, "mul"),
    "divide": (np.true_divide, "div"),
    "floor_divide": (np.floor_divide, "floor_divide"),
    "remainder": (np.remainder, "remainder"),
    "power": (np.power, "pow"),
    "maximum": (np.maximum, "maximum"),
    "minimum": (np.minimum, "minimum"),
    "equal": (np.equal, "eq"),
    "not_equal": (np.not_equal, "ne"),
    "less": (np.less, "lt"),
    "less_equal": (np.less_equal, "le"),
    "greater": (np.greater, "gt"),
    "greater_equal": (np.greater_equal, "ge"),
    "logical_and": (np.logical_and, "logical_and"),
    "logical_or": (np.logical_or, "logical_or"),
    "logical_xor": (np.logical_xor, "ne"),
}

_UNARY = {
    "negative": (np.negative, "negative"),
    "absolute": (np.absolute, "abs"),
    "exp": (np.exp, "exp"),
    "log": (np.log, "log"),
    "sqrt": (np.sqrt, "sqrt"),
    "sin": (np.sin, "sin"),
    "cos": (np.cos, "cos"),
    "tanh": (np.tanh, "tanh"),
    "logical_not": (np.logical_not, "logical_not"),
}


def _binary(name, x1, x2):
    op = _FAST_OPS[name]
    r = _ext.fast_call(op, x1, x2)
    if r is not None:
        return r
    fast = (op, (x1, x2))
    ufunc, usm_op = _BINARY[name]
    ops = [_operand(x1), _operand(x2)]
    tr = _trace_for(ops) or _trace.current()
    where = _trace.user_location() if tr is not None else None
    qid, kind = _placement(ops, where)
    d1, d2, out = _resolve(ufunc, ops, qid)
    if d1.kind == "c" and name in UNORDERED:
        reject_ordering(name, d1)
    if name == "logical_xor":  # "not equal" of the truth values
        d1 = d2 = _dtypes.bool_
    if out.kind == "b" and d1.kind == "b" and usm_op in ("add", "mul"):
        usm_op = "logical_or" if usm_op == "add" else "logical_and"
    shape = _broadcast([o.shape for o in ops])

    def emit(fb, vals):
        rt = _ir.ArrayT(
            out,
            _broadcast_types(
                [v.type.shape for v in vals if isinstance(v.type, _ir.ArrayT)]
            ),
            qid,
            kind,
        )
        return [_ir.elementwise(fb, usm_op, vals, rt)]

    return _single(
        _execute(
            ("bin", usm_op, out), ops, [d1, d2], emit, [shape], qid, kind, fast
        )
    )


def _unary(name, x):
    op = _FAST_OPS[name]
    r = _ext.fast_call(op, x)
    if r is not None:
        return r
    fast = (op, (x,))
    ufunc, usm_op = _UNARY[name]
    ops = [_operand(x)]
    if not ops[0].is_usm:
        if ops[0].kind in "SD":
            raise TypeError(
                f"sluice.{name} needs an array; for scalars use "
                "the math module"
            )
        raise TypeError(
            f"sluice.{name} needs a sluice.Array, not a NumPy "
            "array (use sluice.asarray)"
        )
    qid, kind = ops[0].qid, ops[0].usm
    d, out = _resolve(ufunc, ops, qid)

    def emit(fb, vals):
        rt = _ir.ArrayT(out, vals[0].type.shape, qid, kind)
        return [_ir.elementwise(fb, usm_op, vals, rt)]

    return _single(
        _execute(
            ("un", usm_op, out),
            ops,
            [d],
            emit,
            [ops[0].shape],
            qid,
            kind,
            fast,
        )
    )


def writable_in_place(out, arrays):
    """Whether results may be stored straight into ``out`` while reading
    ``arrays``: ``out`` is C-contiguous, and every other array that shares
    its memory is the very same view (read at the element written), as
    NumPy requires before it skips its copy of overlapping inputs."""
    if not out._c_contiguous:
        return False
    for a in arrays:
        if a is out or not a._same_buffer(out):
            continue
        if (
            a.shape != out.shape
            or a._offset != out._offset
            or a._strides != out._strides
        ):
            return False
    return True


def _check_output(name, res, shape, out):
    if res != out.dtype and not np.can_cast(res, out.dtype, "same_kind"):
        raise TypeError(
            f"Cannot cast ufunc '{name}' output from {res!r} to "
            f"{out.dtype!r} with casting rule 'same_kind'"
        )
    if tuple(shape) != tuple(out.shape):
        raise ValueError(
            f"non-broadcastable output operand with shape {tuple(out.shape)} "
            f"doesn't match the broadcast shape {tuple(shape)}"
        )


def binary_into(name, x1, x2, out):
    """``out[...] = name(x1, x2)`` for a binary operation of _BINARY: see
    elementwise_into."""
    ufunc, usm_op = _BINARY[name]
    if name == "power":
        _check_integer_power(x1, x2)
    code = _FAST_OPS.get(name)
    return elementwise_into(name, ufunc, usm_op, (x1, x2), out, fast_code=code)


def elementwise_into(name, ufunc, usm_op, xs, out, fast_code=None):
    """``out[...] = usm_op(*xs)`` in one submission that reads the operands
    and writes ``out`` (a C-contiguous sluice.Array that only overlaps an
    operand as the same view: see writable_in_place), the result cast to
    ``out.dtype`` (same_kind) and computed straight into its memory. Types
    follow ``ufunc`` as the op's own function does. ``fast_code``: the
    op's _FAST_OPS code (binary ops), so the next call with operands of the
    same signatures takes the C++ fast path (FastPath.cpp, tryInto)."""
    ops = [_operand(x) for x in xs]
    if _trace_for(ops) is not None or _trace.current() is not None:
        raise TracerError(
            f"{name}: writing into a concrete array inside "
            "@sluice.jit is not supported: use the result"
        )
    qid, kind = _placement(ops + [_operand(out)])
    *dts, res = _resolve(ufunc, ops, qid)
    if name == "logical_xor":
        dts = [_dtypes.bool_] * len(dts)
    if res.kind == "b" and dts[0].kind == "b" and usm_op in ("add", "mul"):
        usm_op = "logical_or" if usm_op == "add" else "logical_and"
    shape = _broadcast([o.shape for o in ops])
    _check_output(name, res, shape, out)
    n = len(ops)
    # The destination is an operand once: the op reads it where it writes.
    dest = next((i for i, o in enumerate(ops) if o.obj is out), None)
    in_dtypes = list(dts)
    if dest is None:
        dest = n
        ops.append(_operand(out))
        in_dtypes.append(None)

    def emit(fb, vals):
        rt = _ir.ArrayT(
            res,
            _broadcast_types(
                [
                    v.type.shape
                    for v in vals[:n]
                    if isinstance(v.type, _ir.ArrayT)
                ]
            ),
            qid,
            kind,
        )
        v = _ir.elementwise(fb, usm_op, vals[:n], rt)
        if res != out.dtype:
            v = _ir.astype(fb, v, rt.with_(dtype=out.dtype))
        # A value of another USM kind is copied in (same queue).
        _ir.store(fb, v, fb.args[dest])
        return []

    fast = None
    if fast_code is not None and n == 2:
        fast = (
            _INTO_BASE + 3 * fast_code + builtins.min(dest, 2),
            (xs[0], xs[1], out),
        )
    _execute(
        ("into", usm_op, res, out.dtype, n, dest),
        ops,
        in_dtypes,
        emit,
        [],
        qid,
        kind,
        fast_key=fast,
        written=(dest,),
    )
    return out


def add(x1, x2):
    return _binary("add", x1, x2)


def subtract(x1, x2):
    return _binary("subtract", x1, x2)


def multiply(x1, x2):
    return _binary("multiply", x1, x2)


def divide(x1, x2):
    return _binary("divide", x1, x2)


true_divide = divide


def floor_divide(x1, x2):
    return _binary("floor_divide", x1, x2)


def remainder(x1, x2):
    return _binary("remainder", x1, x2)


mod = remainder


def _int_kind(x):
    """'b', 'i', 'u' for booleans and integers (Python, NumPy or arrays),
    else None."""
    if isinstance(x, bool):
        return "b"
    if isinstance(x, (int, np.integer)):
        return "i" if isinstance(x, int) else np.dtype(type(x)).kind
    dt = getattr(x, "dtype", None)
    if dt is None:
        return None
    k = np.dtype(dt).kind
    return k if k in "biu" else None


def _check_integer_power(x1, x2):
    """ValueError, as in NumPy, for integers to negative integer powers:
    checked eagerly (for an array exponent, by reading its minimum)."""
    k1, k2 = _int_kind(x1), _int_kind(x2)
    if k1 is None or k2 != "i":
        return
    if isinstance(x2, (int, np.integer)):
        negative = x2 < 0
    elif isinstance(x2, np.ndarray):
        negative = x2.size > 0 and bool((x2 < 0).any())
    elif type(x2) is Array:
        negative = x2.size > 0 and bool(any(less(x2, 0)))
    else:  # a traced value: known when the program runs
        return
    if negative:
        raise ValueError(
            "Integers to negative integer powers are not allowed."
        )


def power(x1, x2):
    _check_integer_power(x1, x2)
    # ``x ** 2`` as ``x * x``, as NumPy does: the exponent is a run-time
    # argument of the compiled program, so pow() cannot be reduced there
    # (and pow is ten times the cost of a product on the host). Only where
    # the product has power's dtype: a Python int, or a Python float with a
    # floating or complex array.
    if (
        type(x2) in (int, float)
        and x2 == 2
        and isinstance(x1, Array)
        and x1.dtype != np.bool_
        and (type(x2) is int or x1.dtype.kind in "fc")
    ):
        return _binary("multiply", x1, x1)
    return _binary("power", x1, x2)


pow = power


def maximum(x1, x2):
    return _binary("maximum", x1, x2)


def minimum(x1, x2):
    return _binary("minimum", x1, x2)


def equal(x1, x2):
    return _binary("equal", x1, x2)


def not_equal(x1, x2):
    return _binary("not_equal", x1, x2)


def less(x1, x2):
    return _binary("less", x1, x2)


def less_equal(x1, x2):
    return _binary("less_equal", x1, x2)


def greater(x1, x2):
    return _binary("greater", x1, x2)


def greater_equal(x1, x2):
    return _binary("greater_equal", x1, x2)


def logical_and(x1, x2):
    return _binary("logical_and", x1, x2)


def logical_or(x1, x2):
    return _binary("logical_or", x1, x2)


def logical_xor(x1, x2):
    return _binary("logical_xor", x1, x2)


def _require_bool(name, *xs):
    for x in xs:
        o = _operand(x)
        if o.dtype.kind != "b" and not (o.kind == "S" and o.weak is bool):
            raise TypeError(
                f"sluice has no bitwise operations on {o.dtype} ({name}); "
                "on booleans it is the logical one"
            )


def bitwise_and(x1, x2):
    _require_bool("&", x1, x2)
    return logical_and(x1, x2)


def bitwise_or(x1, x2):
    _require_bool("|", x1, x2)
    return logical_or(x1, x2)


def bitwise_xor(x1, x2):
    _require_bool("^", x1, x2)
    return logical_xor(x1, x2)


def invert(x):
    _require_bool("~", x)
    return logical_not(x)


bitwise_not = invert


def negative(x):
    return _unary("negative", x)


def positive(x):
    o = _operand(x)
    if o.dtype.kind == "b":
        raise TypeError("the unary + of a boolean array is not supported")
    return copy(x) if o.kind == "A" else x


def absolute(x):
    o = _operand(x)
    if o.dtype.kind in "bu":
        return copy(x) if o.kind == "A" else x
    return _unary("absolute", x)


abs = absolute


def exp(x):
    return _unary("exp", x)


def log(x):
    return _unary("log", x)


def sqrt(x):
    return _unary("sqrt", x)


def sin(x):
    return _unary("sin", x)


def cos(x):
    return _unary("cos", x)


def tanh(x):
    return _unary("tanh", x)


def logical_not(x):
    return _unary("logical_not", x)


def square(x):
    if _operand(x).dtype.kind == "b":  # NumPy squares booleans as int8
        x = astype(x, _dtypes.int8)
    return multiply(x, x)


def where(condition, x=None, y=None):
    """``x`` where ``condition`` is true, else ``y`` (NumPy broadcasting;
    the condition is converted to bool, x and y to their common type).
    ``where(condition)`` is ``nonzero(condition)``."""
    if x is None and y is None:
        from ._indexing_functions import nonzero

        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    code = fast_code(("where",))
    r = _ext.fast_call(code, condition, x, y)
    if r is not None:
        return r
    ops = [_operand(condition), _operand(x), _operand(y)]
    tr = _trace_for(ops) or _trace.current()
    where_ = _trace.user_location() if tr is not None else None
    qid, kind = _placement(ops, where_)
    dx, dy, out = _resolve(np.maximum, ops[1:], qid)
    shape = _broadcast([o.shape for o in ops])

    def emit(fb, vals):
        rt = _ir.ArrayT(
            out,
            _broadcast_types(
                [v.type.shape for v in vals if isinstance(v.type, _ir.ArrayT)]
            ),
            qid,
            kind,
        )
        return [_ir.elementwise(fb, "where", vals, rt)]

    return _single(
        _execute(
            ("where", out),
            ops,
            [_dtypes.bool_, dx, dy],
            emit,
            [shape],
            qid,
            kind,
            (code, (condition, x, y)),
        )
    )


def clip(x, a_min=None, a_max=None):
    r = x
    if a_min is not None:
        r = maximum(r, a_min)
    if a_max is not None:
        r = minimum(r, a_max)
    return r if r is not x else copy(x)


def astype(x, dtype, copy=True, casting="unsafe", device=None):
    dt = _dtypes.to_dtype(dtype)
    fast = None
    if (
        device is None
        and casting == "unsafe"
        and type(x) is Array
        and x.dtype != dt
    ):
        code = fast_code(("astype", dt))
        r = _ext.fast_call(code, x)
        if r is not None:
            return r
        fast = (code, (x,))
    if casting != "unsafe" and not np.can_cast(x.dtype, dt, casting):
        raise TypeError(
            f"cannot cast {x.dtype} to {dt} with casting rule {casting!r}"
        )
    if device is not None:
        x = to_device(x, device)
    o = _operand(x)
    if not o.is_usm:
        raise TypeError("astype needs a sluice.Array")
    _dtypes.check_supported(dt, queue_info(_queue_from_id(o.qid)))
    if dt == o.dtype:
        return globals()["copy"](x) if copy and o.kind == "A" else x

    def emit(fb, vals):
        return [vals[0]]

    return _single(
        _execute(
            ("astype", dt), [o], [dt], emit, [o.shape], o.qid, o.usm, fast
        )
    )


# --- scalar arithmetic inside traces -----------------------------------------

_ARITH = {
    "add": ("arith.addf", "arith.addi"),
    "subtract": ("arith.subf", "arith.subi"),
    "multiply": ("arith.mulf", "arith.muli"),
    "divide": ("arith.divf", None),
}


def scalar_or_array_binary(name, a, b, reflected):
    if reflected:
        a, b = b, a
    oa, ob = _operand(a), _operand(b)
    if oa.is_usm or ob.is_usm or oa.kind == "N" or ob.kind == "N":
        return globals()[name](a, b)
    if name not in _ARITH:
        raise TracerError(
            f"{name} of traced scalars needs their values: inside "
            "@sluice.jit, Python scalar arguments are traced; mark the "
            "argument static (static_argnums / static_argnames) to compute "
            "with its value, or combine it with arrays"
        )
    tr = _trace_for([oa, ob])
    fb = tr.fb
    loc = _trace.user_location()
    # Weak scalars stay weak: int op int is int, anything with a float is
    # float (true division always).
    weak_a, weak_b = oa.weak, ob.weak
    if weak_a and weak_b:
        kind = float if float in (weak_a, weak_b) or name == "divide" else int
        dt = _dtypes.float64 if kind is float else _dtypes.int64
        weak = kind
    else:
        dt = np.result_type(*(o.dtype for o in (oa, ob) if not o.weak))
        if name == "divide" and dt.kind != "f":
            dt = _dtypes.float64
        weak = None
    vals = []
    for o in (oa, ob):
        if o.kind == "S":
            vals.append(_ir.arith_constant(fb, o.obj, dt, loc))
        else:
            vals.append(_ir.cast_scalar(fb, o.obj._v, dt, loc))
    fop, iop = _ARITH[name]
    op = fop if dt.kind == "f" else iop
    t = _dtypes.SIGNLESS[_dtypes.CODES[dt]]
    v = fb.op(
        f"{op} {vals[0].name}, {vals[1].name} : {t}", _ir.ScalarT(dt), loc
    )
    return _trace.ScalarTracer(v, tr, weak)


def scalar_negative(s):
    return scalar_or_array_binary("subtract", 0, s, False)


# --- reductions --------------------------------------------------------------


def _normalize_axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    # A tuple as NumPy takes, or a list (dpctl.tensor takes them too);
    # anything else must be an integer (operator.index raises NumPy's error).
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out = []
    for a in axes:
        a = operator.index(a)
        if not -ndim <= a < ndim:
            raise AxisError(a, ndim)
        a %= ndim if ndim else 1
        if a in out:
            raise ValueError("duplicate value in 'axis'")
        out.append(a)
    return tuple(sorted(out))


def _reduce(name, x, axis, keepdims, dtype=None, out=None):
    fast = None
    if dtype is None and out is None:
        if axis is None and not keepdims:
            op = _FAST_OPS[name + "/all"]
        else:  # the raw axis: the operand's rank is part of the fast key
            op = fast_code(
                (name, tuple(axis) if type(axis) is list else axis, keepdims)
            )
        if op is not None:
            r = _ext.fast_call(op, x)
            if r is not None:
                return r
            fast = (op, (x,))
    if out is not None:
        raise TypeError(
            "out= is not supported (sluice arrays are results of operations)"
        )
    o = _operand(x)
    if not o.is_usm:
        raise TypeError(f"sluice.{name} needs a sluice.Array")
    if dtype is not None:
        x = astype(x, dtype, copy=False)
        o = _operand(x)
    axes = _normalize_axes(axis, len(o.shape))
    if name in ("max", "min") and builtins.any(o.shape[a] == 0 for a in axes):
        raise ValueError(
            f"zero-size array to reduction operation "
            f"{'maximum' if name == 'max' else 'minimum'} "
            "which has no identity"
        )
    dt = o.dtype
    if dt.kind == "c" and name in UNORDERED:
        reject_ordering(name, dt)
    if name in ("sum", "prod") and (
        dt.kind == "b" or (dt.kind in "iu" and dt.itemsize < 8)
    ):
        rdt = _dtypes.uint64 if dt.kind == "u" else _dtypes.int64
    else:
        rdt = dt
    shape = tuple(
        (1 if i in axes else d)
        for i, d in enumerate(o.shape)
        if keepdims or i not in axes
    )

    def emit(fb, vals):
        s = vals[0].type.shape
        rs = tuple(
            (1 if i in axes else d)
            for i, d in enumerate(s)
            if keepdims or i not in axes
        )
        rt = _ir.ArrayT(rdt, rs, o.qid, o.usm)
        return [_ir.reduction(fb, name, vals[0], axes, keepdims, rt)]

    if not axes:
        r = astype(x, rdt, copy=True)
    else:
        r = _single(
            _execute(
                ("reduce", name, axes, keepdims),
                [o],
                [None],
                emit,
                [shape],
                o.qid,
                o.usm,
                fast,
            )
        )
    if dtype is not None and rdt != o.dtype:
        r = astype(r, o.dtype, copy=False)  # NumPy returns the dtype asked
    return r


def sum(x, axis=None, dtype=None, out=None, keepdims=False):
    return _reduce("sum", x, axis, keepdims, dtype, out)


def prod(x, axis=None, dtype=None, out=None, keepdims=False):
    if (
        out is None
        and _operand(x).is_usm
        and np.result_type(x.dtype, dtype or x.dtype).kind == "c"
    ):  # a tree (_complex.py, a layer above: imported here, when needed)
        from . import _complex

        return _complex.prod(
            astype(x, dtype or x.dtype, copy=False), axis, keepdims
        )
    return _reduce("prod", x, axis, keepdims, dtype, out)


def max(x, axis=None, out=None, keepdims=False):
    return _reduce("max", x, axis, keepdims, None, out)


def min(x, axis=None, out=None, keepdims=False):
    return _reduce("min", x, axis, keepdims, None, out)


amax = max
amin = min


def _float_for(x):
    dt = x.dtype
    if dt.kind in "fc":
        return dt
    return _dtypes.fit_device(
        _dtypes.float64, queue_info(_queue_from_id(x._queue_id))
    )


def _moment_size(x, axis):
    """The element count mean/var divide by (the fast path's operand: the
    operand signature fixes the shape, so this is cheap and cannot fail)."""
    if axis is None:
        return x.size
    shape = x.shape
    if type(axis) is int:
        return shape[axis]
    return math.prod(shape[a] for a in axis)


def _moment(name, x, axis, keepdims, ddof):
    """mean (name "mean") or var of a real floating array in one program:
    the sums and the divisions in one call (var: sum((x - mean)**2)),
    remembered by the fast path under (name, axis, keepdims)."""
    key_axis = tuple(axis) if type(axis) is list else axis
    code = fast_code((name, key_axis, keepdims))
    if code is not None:  # (fast_call takes no entry while tracing)
        n = _moment_size(x, key_axis)
        d = builtins.max(n - ddof, 0) if name == "var" else n
        r = _ext.fast_call(code, x, float(n), float(d) or math.nan)
        if r is not None:
            return r
    o = _operand(x)
    axes = _normalize_axes(axis, len(o.shape))
    n = math.prod(o.shape[a] for a in axes)
    d = builtins.max(n - ddof, 0) if name == "var" else n
    rdt = _float_for(x)
    shape = tuple(
        (1 if i in axes else s)
        for i, s in enumerate(o.shape)
        if keepdims or i not in axes
    )

    def emit(fb, vals):
        xv, nv, dv = vals
        s = xv.type.shape

        def typed(dims):
            return _ir.ArrayT(rdt, tuple(dims), o.qid, o.usm)

        kept = typed(1 if i in axes else e for i, e in enumerate(s))
        out_t = typed(
            (1 if i in axes else e)
            for i, e in enumerate(s)
            if keepdims or i not in axes
        )
        if name == "mean":
            total = _ir.reduction(fb, "sum", xv, axes, keepdims, out_t)
            return [_ir.elementwise(fb, "div", [total, dv], out_t)]
        total = _ir.reduction(fb, "sum", xv, axes, True, kept)
        m = _ir.elementwise(fb, "div", [total, nv], kept)
        dev = _ir.elementwise(fb, "sub", [xv, m], typed(s))
        sq = _ir.elementwise(fb, "mul", [dev, dev], typed(s))
        ss = _ir.reduction(fb, "sum", sq, axes, keepdims, out_t)
        return [_ir.elementwise(fb, "div", [ss, dv], out_t)]

    nf, df = float(n), float(d) or math.nan
    fast = (code, (x, nf, df)) if code is not None else None
    return _single(
        _execute(
            ("moment", name, axes, keepdims, rdt),
            [o, _operand(nf), _operand(df)],
            [rdt, rdt, rdt],
            emit,
            [shape],
            o.qid,
            o.usm,
            fast,
        )
    )


def _one_program_moment(x, dtype, out):
    """Whether mean/var of x can be one program (_moment): real floating
    results at their own precision (float16 sums in float32, complex var
    is real) and no dtype= or out=."""
    if dtype is not None or out is not None:
        return False
    rdt = _float_for(x)
    return rdt.kind == "f" and rdt != _dtypes.float16


def mean(x, axis=None, dtype=None, out=None, keepdims=False):
    if type(x) is Array and _one_program_moment(x, dtype, out):
        return _moment("mean", x, axis, keepdims, 0)
    o = _operand(x)
    if not o.is_usm:
        raise TypeError("sluice.mean needs a sluice.Array")
    axes = _normalize_axes(axis, len(o.shape))
    n = int(np.prod([o.shape[a] for a in axes], dtype=np.int64))
    rdt = _dtypes.to_dtype(dtype) if dtype is not None else _float_for(x)
    acc = _dtypes.float32 if rdt == _dtypes.float16 else rdt
    s = sum(astype(x, acc, copy=False), axis=axis, keepdims=keepdims, out=out)
    r = divide(s, float(n) if n else float("nan"))
    return astype(r, rdt, copy=False)


def var(x, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    if type(x) is Array and _one_program_moment(x, dtype, out):
        return _moment("var", x, axis, keepdims, ddof)
    o = _operand(x)
    if not o.is_usm:
        raise TypeError("sluice.var needs a sluice.Array")
    axes = _normalize_axes(axis, len(o.shape))
    n = int(np.prod([o.shape[a] for a in axes], dtype=np.int64))
    rdt = _dtypes.to_dtype(dtype) if dtype is not None else _float_for(x)
    xf = astype(x, rdt, copy=False)
    if rdt.kind == "c":  # real, as NumPy: mean(|x - mean(x)|**2)
        from . import _complex

        return _complex.var(xf, axis, ddof, keepdims)
    m = mean(xf, axis=axis, keepdims=True)
    d = subtract(xf, m)
    s = sum(multiply(d, d), axis=axis, keepdims=keepdims, out=out)
    return divide(s, float(builtins.max(n - ddof, 0)) or float("nan"))


def std(x, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    return sqrt(
        var(x, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)
    )


def all(x, axis=None, out=None, keepdims=False):
    return _logical_reduce(x, axis, keepdims, out, True)


def any(x, axis=None, out=None, keepdims=False):
    return _logical_reduce(x, axis, keepdims, out, False)


def _logical_reduce(x, axis, keepdims, out, is_all):
    o = _operand(x)
    if not o.is_usm:
        raise TypeError("sluice.all/any need a sluice.Array")
    axes = _normalize_axes(axis, len(o.shape))
    b = astype(x, _dtypes.bool_, copy=False)
    if builtins.any(o.shape[a] == 0 for a in axes):
        # Nothing to reduce: all is true and any false everywhere (no true
        # element is counted).
        count = sum(b, axis=axis, keepdims=keepdims)
        return (equal if is_all else not_equal)(count, 0)
    return (min if is_all else max)(b, axis=axis, keepdims=keepdims, out=out)


# --- shapes ------------------------------------------------------------------


def _normalize_shape(shape, size):
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    shape = [operator.index(d) for d in shape]
    unknown = [i for i, d in enumerate(shape) if d == -1]
    if len(unknown) > 1:
        raise ValueError("can only specify one unknown dimension")
    if builtins.any(d < -1 for d in shape):
        raise ValueError("negative dimensions not allowed")
    known = math.prod(d for d in shape if d != -1)
    if unknown:
        if known == 0 or size % known:
            raise ValueError(
                f"cannot reshape array of size {size} into "
                f"shape {tuple(shape)}"
            )
        shape[unknown[0]] = size // known
    elif known != size:
        raise ValueError(
            f"cannot reshape array of size {size} into shape {tuple(shape)}"
        )
    return tuple(shape)


def reshape(x, shape, order="C", copy=None):
    if order not in ("C", None):
        raise NotImplementedError("sluice arrays are C-ordered: order='C'")
    o = _operand(x)
    if not o.is_usm:
        raise TypeError("sluice.reshape needs a sluice.Array")
    size = math.prod(o.shape)
    new = _normalize_shape(shape, size)
    if o.kind == "T" or _trace.current() is not None and o.kind == "A":
        if new == tuple(o.shape):
            return x

        def emit(fb, vals):
            rt = vals[0].type.with_(shape=new)
            return [_ir.reshape(fb, vals[0], rt)]

        return _single(
            _execute(("reshape", new), [o], [None], emit, [new], o.qid, o.usm)
        )
    if not copy:
        strides = _reshaped_strides(o.shape, x._strides, new)
        if strides is not None:
            # A view, as NumPy's wherever the strides allow one: writes
            # through it reach x.
            return x._view(x._offset, list(new), strides)
        if copy is False:
            raise ValueError("cannot reshape without a copy (copy=False)")
    base = x._contiguous(x._queue_id, x._usm_kind, True)
    return base._view(base._offset, list(new), c_strides(new))


def c_strides(shape):
    """C-ordered strides, in elements, of an array of ``shape``."""
    strides = []
    s = 1
    for d in reversed(shape):
        strides.append(s)
        s *= builtins.max(d, 1)
    return strides[::-1]


def _reshaped_strides(shape, strides, new):
    """The strides (in elements) that view an array of ``shape`` and
    ``strides`` as ``new`` (the same size), or None where no view can:
    each run of old axes that merges or splits into new axes must be laid
    out as one block (each stride the next one times its extent)."""
    if math.prod(shape) == 0:
        return c_strides(new)
    old = [(d, s) for d, s in zip(shape, strides) if d != 1]
    keep = [k for k, d in enumerate(new) if d != 1]
    out = [0] * len(new)
    i = j = 0
    while i < len(old) and j < len(keep):
        i0, j0 = i, j
        po, pn = old[i][0], new[keep[j]]
        while po != pn:
            if po < pn:
                i += 1
                po *= old[i][0]
            else:
                j += 1
                pn *= new[keep[j]]
        for k in range(i0, i):
            if old[k][1] != old[k + 1][1] * old[k + 1][0]:
                return None
        s = old[i][1]
        for k in range(j, j0 - 1, -1):
            out[keep[k]] = s
            s *= new[keep[k]]
        i += 1
        j += 1
    # Axes of extent 1 take the stride a C-ordered layout would give them.
    nxt = 1
    for k in range(len(new) - 1, -1, -1):
        if new[k] == 1:
            out[k] = nxt
        else:
            nxt = out[k] * new[k]
    return out


def transpose(x, axes=None):
    o = _operand(x)
    if not o.is_usm:
        raise TypeError("sluice.transpose needs a sluice.Array")
    nd = len(o.shape)
    if axes is None:
        perm = tuple(range(nd))[::-1]
    else:
        perm = tuple(operator.index(a) for a in axes)
        if len(perm) != nd:
            raise ValueError("axes don't match array")
        perm = tuple(a % nd if -nd <= a < nd else -1 for a in perm)
        if sorted(perm) != list(range(nd)):
            raise ValueError(
                f"axes {tuple(axes)} are not a permutation of the {nd} axes"
            )
    if perm == tuple(range(nd)):
        return (
            x
            if o.kind != "A"
            else x._view(x._offset, list(x.shape), list(x._strides))
        )
    shape = tuple(o.shape[p] for p in perm)
    if o.kind == "A" and _trace.current() is None:
        # A view with its strides permuted, as NumPy's: writes through it
        # reach x, and nothing is copied.
        st = x._strides
        return x._view(x._offset, list(shape), [st[p] for p in perm])

    def emit(fb, vals):
        s = vals[0].type.shape
        rt = vals[0].type.with_(shape=tuple(s[p] for p in perm))
        return [_ir.transpose(fb, vals[0], perm, rt)]

    return _single(
        _execute(("transpose", perm), [o], [None], emit, [shape], o.qid, o.usm)
    )


def matrix_transpose(x):
    nd = len(x.shape)
    if nd < 2:
        raise ValueError("matrix_transpose needs at least 2 dimensions")
    return transpose(x, tuple(range(nd - 2)) + (nd - 1, nd - 2))


def swapaxes(x, axis1, axis2):
    nd = len(x.shape)
    perm = list(range(nd))
    a, b = _normalize_axes(axis1, nd)[0], _normalize_axes(axis2, nd)[0]
    perm[a], perm[b] = perm[b], perm[a]
    return transpose(x, perm)


def permute_dims(x, axes):
    return transpose(x, axes)


def squeeze(x, axis=None):
    shape = tuple(x.shape)
    if axis is None:
        axes = tuple(i for i, d in enumerate(shape) if d == 1)
    else:
        axes = _normalize_axes(axis, len(shape))
        for a in axes:
            if shape[a] != 1:
                raise ValueError(
                    "cannot select an axis to squeeze out "
                    "which has size not equal to one"
                )
    return reshape(x, tuple(d for i, d in enumerate(shape) if i not in axes))


def expand_dims(x, axis):
    shape = list(x.shape)
    # A tuple as NumPy takes, or a list (dpctl.tensor takes them too);
    # anything else must be an integer (operator.index raises NumPy's error).
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    nd = len(shape) + len(axes)
    for a in sorted(_normalize_axes(axes, nd)):
        shape.insert(a, 1)
    return reshape(x, tuple(shape))


def broadcast_to(x, shape):
    o = _operand(x)
    if not o.is_usm:
        raise TypeError("sluice.broadcast_to needs a sluice.Array")
    shape = (
        (shape,)
        if isinstance(shape, (int, np.integer))
        else tuple(operator.index(d) for d in shape)
    )
    if builtins.any(d < 0 for d in shape):
        raise ValueError(
            "all elements of broadcast shape must be non-negative"
        )
    ok = (
        len(shape) >= len(o.shape)
        and _broadcast_shapes([tuple(o.shape), shape]) == shape
    )
    if not ok:
        raise ValueError(
            f"cannot broadcast an array of shape "
            f"{tuple(o.shape)} to shape {shape}"
        )
    if shape == tuple(o.shape):
        return x if o.kind != "A" else copy(x)
    eager = o.kind == "A" and _trace.current() is None
    ops = [o]
    if eager:
        ops += [_Operand(int(d), "S", _dtypes.int64, weak=int) for d in shape]

    def emit(fb, vals):
        v = vals[0]
        if len(vals) > 1:
            sizes = [_ir.index_from(fb, s) for s in vals[1:]]
            rt = v.type.with_(shape=(None,) * len(shape))
            return [_ir.broadcast_to(fb, v, rt, sizes)]
        return [_ir.broadcast_to(fb, v, v.type.with_(shape=shape))]

    return _single(
        _execute(
            ("broadcast_to", len(shape)),
            ops,
            [None] + [_dtypes.int64] * (len(ops) - 1),
            emit,
            [shape],
            o.qid,
            o.usm,
        )
    )


def broadcast_arrays(*args):
    shape = _broadcast([a.shape for a in args])
    return [broadcast_to(a, shape) for a in args]


# --- placement ---------------------------------------------------------------


def to_device(x, device):
    o = _operand(x)
    if not o.is_usm:
        raise TypeError("to_device needs a sluice.Array")
    q = _coerce_device(device).sycl_queue
    if q._id == o.qid:
        return x
    _dtypes.check_supported(o.dtype, queue_info(q))
    if o.kind == "A" and _trace.current() is None:
        return x._contiguous(q._id, o.usm, True)

    def emit(fb, vals):
        return [_ir.to_device(fb, vals[0], vals[0].type.with_(qid=q._id))]

    return _single(
        _execute(
            ("to_device", q._id), [o], [None], emit, [o.shape], o.qid, o.usm
        )
    )


def copy(x):
    o = _operand(x)
    if o.kind == "A":
        return x._contiguous(o.qid, o.usm, True)
    if o.kind == "T":
        return x
    raise TypeError("sluice.copy needs a sluice.Array")


for _i, _fn in enumerate((add, subtract, multiply, divide)):
    _ext.set_fast_fallback(_i, _fn)


# The elementwise functions of the table (USMMathOps.td), and out=/where= on
# every elementwise function and reduction: _elementwise.py, the layer above,
# which imports no operation: it is handed this module (bind), wraps the
# functions above, and its functions then take their place here. (The
# complex functions, _complex.py, are above this module too.)
import sys  # noqa: E402

from . import _elementwise  # noqa: E402

_elementwise.bind(sys.modules[__name__])
from ._elementwise import *  # noqa: E402,F401,F403
