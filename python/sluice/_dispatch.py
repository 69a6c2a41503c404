"""Dispatch: how an operation on arrays runs, eagerly or traced.

An operation (sluice._ops and its neighbours) normalises its operands with
``_operand`` (sluice arrays, traced arrays, Python and NumPy scalars, NumPy
arrays), finds the queue they share with ``_placement`` (compute follows
data: two queues are an ExecutionPlacementError) and the coerced USM kind,
resolves dtypes as NumPy does with ``_resolve`` (through the ufunc's own
type resolution, Python scalars weak), and hands an ``emit`` function that
writes its usm IR to ``_execute``, which either

- records the op in the active trace (inside ``@sluice.jit``),
- records it in the queue's pending graph (lazy execution, sluice._lazy), or
- runs it now: a one-op program with dynamic sizes (static 1s, so that
  broadcasting is decided at compile time) is compiled once per op, dtypes,
  ranks and placement, cached, and submitted asynchronously to the queue.
"""

import builtins

import numpy as np

from . import _compiler, _dtypes, _ir, _lazy, _trace
from . import _sluice as _ext
from ._array import Array, _from_host
from ._errors import PLACEMENT_MESSAGE, ExecutionPlacementError, TracerError
from ._placement import coerce_kinds, execution_queue, queue_info
from ._device import _queue_from_id


# --- operands ---------------------------------------------------------------


class _Operand:
    """One operand of an operation.

    kind: "A" a sluice.Array, "T" a Tracer, "S" a scalar with a known value
    (Python or NumPy), "D" a traced scalar, "N" a NumPy array.
    """

    __slots__ = ("obj", "kind", "dtype", "weak", "shape", "qid", "usm")

    def __init__(
        self, obj, kind, dtype, weak=None, shape=(), qid=None, usm=None
    ):
        self.obj = obj
        self.kind = kind
        self.dtype = dtype
        self.weak = weak
        self.shape = shape
        self.qid = qid
        self.usm = usm

    @property
    def is_usm(self):
        return self.kind in "AT"

    def resolve_key(self):
        """What NumPy's type resolution sees: a dtype, or the Python type of
        a weak scalar."""
        if self.weak is not None and self.weak is not bool:
            return self.weak
        return self.dtype


def _operand(x):
    if isinstance(x, Array):
        return _Operand(
            x, "A", x.dtype, shape=x.shape, qid=x._queue_id, usm=x._usm_kind
        )
    if isinstance(x, _trace.Tracer):
        t = x._v.type
        return _Operand(x, "T", t.dtype, shape=t.shape, qid=t.qid, usm=t.kind)
    t = type(x)
    if t is bool or t is int or t is float:
        dt = (
            _dtypes.bool_
            if t is bool
            else _dtypes.int64
            if t is int
            else _dtypes.float64
        )
        return _Operand(x, "S", dt, weak=t)
    if isinstance(x, _trace.ScalarTracer):
        return _Operand(x, "D", x.dtype, weak=x.weak)
    if t is complex:  # weak, as Python floats are
        return _Operand(x, "S", _dtypes.complex128, weak=complex)
    if isinstance(x, np.generic):
        return _Operand(x.item(), "S", _dtypes.to_dtype(x.dtype))
    if isinstance(x, np.ndarray):
        return _Operand(x, "N", _dtypes.to_dtype(x.dtype), shape=x.shape)
    if isinstance(x, bool):  # subclasses (IntEnum, ...)
        return _operand(bool(x))
    if isinstance(x, int):
        return _operand(int(x))
    if isinstance(x, float):
        return _operand(float(x))
    if isinstance(x, complex):
        return _operand(complex(x))
    raise TypeError(
        f"unsupported operand type {t.__name__}: expected sluice.Array, a "
        "Python or NumPy scalar, or a NumPy array"
    )


def _placement(ops, where=None):
    """(queue id, USM kind) of the USM operands."""
    qids = [o.qid for o in ops if o.is_usm]
    if not qids:
        raise ExecutionPlacementError(
            f"{PLACEMENT_MESSAGE} One of the arguments must be a "
            "sluice.Array (NumPy data and scalars follow the array they "
            "meet)."
        )
    qid = execution_queue(qids, where)
    return qid, coerce_kinds([o.usm for o in ops if o.is_usm])


def _trace_for(ops):
    tr = None
    for o in ops:
        if o.kind in "TD":
            t = o.obj._trace
            if tr is None:
                tr = t
            elif t is not tr:
                raise TracerError("values of two different traces met")
    if tr is not None and tr is not _trace.current():
        raise TracerError("a traced value escaped its @sluice.jit function")
    return tr


_resolve_cache = {}


def _resolve(ufunc, ops, qid):
    """NumPy's loop dtypes for ``ufunc`` on the operands, with float16 and
    float64 results fitted to the device."""
    key = (ufunc, tuple(o.resolve_key() for o in ops), qid)
    r = _resolve_cache.get(key)
    if r is None:
        r = ufunc.resolve_dtypes(
            tuple(o.resolve_key() for o in ops) + (None,) * ufunc.nout
        )
        r = tuple(_dtypes.to_dtype(d) for d in r)
        info = queue_info(_queue_from_id(qid))
        strong = {o.dtype for o in ops if o.weak is None}
        r = tuple(d if d in strong else _dtypes.fit_device(d, info) for d in r)
        _resolve_cache[key] = r
    for o, d in zip(ops, r):
        if o.kind == "S" and o.weak is int and d.kind in "iu":
            _dtypes.check_int_range(o.obj, d)
    return r


def _broadcast_types(shapes):
    """NumPy broadcasting of shapes whose sizes may be None (dynamic)."""
    nd = builtins.max((len(s) for s in shapes), default=0)
    out = []
    for i in range(nd):
        dims = [s[i - nd + len(s)] for s in shapes if i - nd + len(s) >= 0]
        static = [d for d in dims if d is not None and d != 1]
        if static:
            out.append(static[0])
        elif builtins.any(d is None for d in dims):
            out.append(None)
        else:
            out.append(1)
    return tuple(out)


def _broadcast_shapes(shapes):
    """NumPy broadcasting of static shapes, in Python integers (no size
    limit: NumPy's own refuses shapes it could not allocate); None when they
    do not broadcast."""
    nd = builtins.max((len(s) for s in shapes), default=0)
    out = []
    for i in range(nd):
        size = 1
        for s in shapes:
            j = i - nd + len(s)
            if j < 0 or s[j] == 1:
                continue
            if size != 1 and s[j] != size:
                return None
            size = s[j]
        out.append(size)
    return tuple(out)


def _broadcast(shapes):
    shape = _broadcast_shapes([tuple(s) for s in shapes])
    if shape is None:
        raise ValueError(
            "operands could not be broadcast together with shapes "
            + " ".join(str(tuple(s)) for s in shapes)
        )
    return shape


# --- running an operation ----------------------------------------------------


class _Kernel:
    """A compiled one-op program and how to call it."""

    __slots__ = ("program", "array_args")

    def __init__(self, program, array_args):
        self.program = program
        self.array_args = array_args


_kernels = {}


def kernel_cache_size():
    """How many eager kernels this process has compiled or loaded."""
    return len(_kernels)


# ArrayCore's C++ operators (+ - * /).
_FAST_OPS = {
    name: i
    for i, name in enumerate(
        ["add", "subtract", "multiply", "divide"]
        + [
            "floor_divide",
            "remainder",
            "power",
            "maximum",
            "minimum",
            "equal",
            "not_equal",
            "less",
            "less_equal",
            "greater",
            "greater_equal",
            "logical_and",
            "logical_or",
            "logical_xor",
            "negative",
            "absolute",
            "exp",
            "log",
            "sqrt",
            "sin",
            "cos",
            "tanh",
            "logical_not",
            "sum/all",
            "prod/all",
            "max/all",
            "min/all",
        ]
    )
}


# Codes of parametrised operations (an axis reduction with its axes and
# keepdims), numbered from 256 as they are met; FastPath.cpp takes codes
# below 4096.
_PARAM_CODES = {}
_PARAM_BASE, _PARAM_LIMIT = 256, 4096


def fast_code(key):
    """The fast-path code of a parametrised operation (a hashable key such
    as ``("sum", 1, True)``), or None when the key is not hashable or the
    codes are used up (the operation then always takes the slow path)."""
    try:
        code = _PARAM_CODES.get(key)
    except TypeError:
        return None
    if code is None:
        code = _PARAM_BASE + len(_PARAM_CODES)
        if code >= _PARAM_LIMIT:
            return None
        _PARAM_CODES[key] = code
    return code


def _execute(
    opkey,
    ops,
    in_dtypes,
    emit,
    out_shapes,
    qid,
    kind,
    fast_key=None,
    written=(),
):
    """Runs ``emit(fb, values) -> [Value]`` on the operands.

    ``in_dtypes[i]`` is the dtype operand i takes part in the op with
    (None: as it is). In a trace the outputs are Tracers; otherwise the op is
    compiled (once per key) and submitted, and ``out_shapes`` gives the
    result shapes. ``written``: the operands the program stores into
    (``usm.store`` destinations; C-contiguous arrays).
    """
    tr = _trace_for(ops)
    if tr is None and _trace.current() is not None:
        tr = _trace.current()
    if tr is not None:
        return _execute_traced(tr, ops, in_dtypes, emit, qid, kind)
    key_parts = [opkey, qid, kind]
    args = []
    for o, dt in zip(ops, in_dtypes):
        if o.kind == "S" and (dt or o.dtype).kind == "c":
            _complex_scalar_operand(o, dt or o.dtype)
            fast_key = None
    for o, dt in zip(ops, in_dtypes):
        if o.kind == "N":
            o.obj = _from_numpy(o.obj, qid, kind)
            o.kind = "A"
            o.shape = o.obj.shape
            o.usm = kind
            o.qid = qid
        if o.kind == "A":
            key_parts.append(
                (
                    o.dtype,
                    dt,
                    _ir.generic_shape(o.shape),
                    o.usm,
                    _is_view(o, len(args), written),
                )
            )
        else:
            key_parts.append(("S", dt if dt is not None else o.dtype))
        args.append(o.obj)
    key = tuple(key_parts)
    lazy = _lazy._enabled and not written and opkey[0] in _lazy.RECORDABLE
    if lazy and _lazy.worth_recording(ops, out_shapes, qid):
        results = _lazy.record(
            key,
            ops,
            in_dtypes,
            emit,
            out_shapes,
            qid,
            kind,
            fast_key,
            _scalar_bounds(ops, in_dtypes) if fast_key is not None else (),
        )
        if results is not None:
            return results
        lazy = False
    k = _kernels.get(key)
    if k is None:
        fb = _ir.FunctionBuilder("main")
        values = []
        for i, (o, dt) in enumerate(zip(ops, in_dtypes)):
            if o.kind == "A":
                t = _ir.ArrayT(o.dtype, _ir.generic_shape(o.shape), qid, o.usm)
                v = fb.view_arg(t) if _is_view(o, i, written) else fb.arg(t)
            else:
                v = fb.arg(
                    _ir.ScalarT(
                        dt if dt is not None else o.dtype, signless=False
                    )
                )
            values.append(
                _ir.convert_operand(fb, v, dt or o.dtype, qid, kind, None)
                if dt is not None
                else v
            )
        outs = emit(fb, values)
        fb.ret(outs)
        program = _compiler.compile_function(fb, name=f"sluice.{opkey[0]}")
        if written:
            program.written_arguments = list(written)
        k = _Kernel(program, None)
        _kernels[key] = k
    results = k.program(args, out_shapes)
    if fast_key is not None:
        op, operands = fast_key
        bounds = _scalar_bounds(ops, in_dtypes)
        _ext.fast_register(op, operands, k.program, out_shapes, bounds)
        if lazy:
            # Small now, but the fast path's tape records it next time.
            _lazy.register(
                key,
                ops,
                in_dtypes,
                emit,
                out_shapes,
                qid,
                kind,
                fast_key,
                bounds,
            )
    return results


def _is_view(o, i, written=()):
    """Whether array operand ``o`` (operand ``i``) is passed as a view: a
    strided array the program reads (a basic slice, a transpose, negative
    steps) is read in place rather than copied first."""
    return len(o.shape) > 0 and i not in written and not o.obj._c_contiguous


def _scalar_bounds(ops, in_dtypes):
    """The ranges the fast path must check Python int operands against."""
    bounds = []
    for i, (o, dt) in enumerate(zip(ops, in_dtypes)):
        if (
            o.kind == "S"
            and o.weak is int
            and dt is not None
            and dt.kind in "iu"
        ):
            info = np.iinfo(dt)
            # (uint64's top half is past the C++ check's int64: those
            # values take the slow path, which is right for them too.)
            bounds.append(
                (i, int(info.min), builtins.min(int(info.max), 2**63 - 1))
            )
    return bounds


def _execute_traced(tr, ops, in_dtypes, emit, qid, kind):
    fb = tr.fb
    loc = _trace.user_location()
    values = []
    for o, dt in zip(ops, in_dtypes):
        if o.kind == "T":
            v = o.obj._v
        elif o.kind == "D":
            v = o.obj._v
        elif o.kind == "A":
            v = tr.capture(o.obj)
        elif o.kind == "N":
            v = _ir.array_constant(
                fb, np.asarray(o.obj, order="C"), qid, kind, loc
            )
        else:  # "S": a constant
            target = dt if dt is not None else o.dtype
            if target.kind in "uc":
                v = _ir.array_constant(
                    fb, np.array(o.obj, dtype=target), qid, kind, loc
                )
            else:
                v = _ir.arith_constant(fb, o.obj, target, loc)
        if dt is not None:
            v = _ir.convert_operand(fb, v, dt, qid, kind, loc)
        values.append(v)
    outs = _with_loc(emit, fb, values, loc)
    return [_trace.Tracer(v, tr) for v in outs]


def _with_loc(emit, fb, values, loc):
    """Calls emit with every op it writes at ``loc``."""
    start = len(fb.ops)
    outs = emit(fb, values)
    for i in range(start, len(fb.ops)):
        text, at = fb.ops[i]
        if at is None:
            fb.ops[i] = (text, loc)
    return outs


def _from_numpy(a, qid, kind):
    return _from_host(np.asarray(a), qid, kind)


def _single(results):
    return results[0]


# FastPath.cpp's kIntoBase: "into" programs register under
# _INTO_BASE + 3 * op + the position of the destination (0, 1, else 2).
_INTO_BASE = 128


def _complex_scalar_operand(o, dt):
    """A complex scalar operand as a 0-d NumPy array of ``dt`` (the
    programs' scalar arguments are at most 8 bytes: complex scalars travel
    as arrays)."""
    o.obj = np.asarray(o.obj, dtype=dt)
    o.kind = "N"
    o.dtype = dt
    o.weak = None
    o.shape = ()
