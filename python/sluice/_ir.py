"""Writing usm dialect IR as text.

A FunctionBuilder collects one public function: arguments, ops (each with
an optional source location) and the returned values. ``render()`` gives the
module text with ``loc("file":line:col)`` on every op (what the compiler
sees, so that its diagnostics point at the user's Python source);
``render(locations=False)`` gives the same text without them, which keys
caches so that moving code around does not recompile it.

Types are described by ArrayT (dtype, shape with None for a dynamic size,
queue id, USM kind) and ScalarT (dtype). A Value is an SSA name with its
type.
"""

import struct

import numpy as np

from . import _dtypes
from ._device import _queue_from_id, _info
from ._placement import USM_NAMES


class ArrayT:
    __slots__ = ("dtype", "shape", "qid", "kind")

    def __init__(self, dtype, shape, qid, kind):
        self.dtype = dtype
        self.shape = tuple(shape)
        self.qid = qid
        self.kind = kind

    @property
    def ndim(self):
        return len(self.shape)

    def with_(self, dtype=None, shape=None, qid=None, kind=None):
        return ArrayT(
            self.dtype if dtype is None else dtype,
            self.shape if shape is None else shape,
            self.qid if qid is None else qid,
            self.kind if kind is None else kind,
        )

    def text(self):
        dims = "".join(
            ("?" if d is None else str(d)) + "x" for d in self.shape
        )
        q = _queue_from_id(self.qid)
        place = f'"{_info(q._device_handle)["filter_string"]}"'
        if q._name:
            place += f'("{q._name}")'
        return (
            f"!usm.array<{dims}{_dtypes.mlir(self.dtype)}, {place}, "
            f"{USM_NAMES[self.kind]}>"
        )

    def key(self):
        return ("A", self.dtype, self.shape, self.qid, self.kind)


class ScalarT:
    """A scalar of ``dtype``; ``signless`` for values arith makes or takes
    (unsigned integers are then written iN, as arith needs). ``dtype`` None
    is ``index``."""

    __slots__ = ("dtype", "signless")

    def __init__(self, dtype, signless=True):
        self.dtype = dtype
        self.signless = signless

    def text(self):
        if self.dtype is None:
            return "index"
        names = _dtypes.SIGNLESS if self.signless else _dtypes.MLIR_NAMES
        return names[_dtypes.CODES[self.dtype]]

    def key(self):
        return ("S", self.dtype, self.signless)


class Value:
    __slots__ = ("name", "type")

    def __init__(self, name, type_):
        self.name = name
        self.type = type_


def _loc_text(loc):
    if loc is None:
        return ""
    f, line, col = loc
    f = f.replace("\\", "\\\\").replace('"', '\\"')
    return f' loc("{f}":{line}:{col})'


class FunctionBuilder:
    def __init__(self, name="main"):
        self.name = name
        self.args = []
        self.arg_locs = []
        self.ops = []  # (text, loc)
        self.results = []
        self._n = 0
        # Arguments taken as views: index -> (base, [offset, sizes...,
        # strides...]) (the IR arguments that stand for it).
        self.views = {}

    def fresh(self):
        self._n += 1
        return f"%v{self._n}"

    def arg(self, type_, loc=None):
        v = Value(f"%a{len(self.args)}", type_)
        self.args.append(v)
        self.arg_locs.append(loc)
        return v

    def view_arg(self, type_, loc=None):
        """An array argument of ArrayT ``type_`` that the caller passes as a
        view of any strides (no copy): the function receives its 1-D base
        with the offset, sizes and strides, and reads it through a
        usm.strided_view."""
        i = len(self.args)
        base = Value(f"%a{i}", type_.with_(shape=(None,)))
        index = [
            Value(f"%a{i}_{j}", ScalarT(None))
            for j in range(1 + 2 * len(type_.shape))
        ]
        nd = len(type_.shape)
        sizes = ", ".join(v.name for v in index[1 : 1 + nd])
        strides = ", ".join(v.name for v in index[1 + nd :])
        v = self.op(
            f"usm.strided_view {base.name}[{index[0].name}] sizes({sizes}) "
            f"strides({strides}) : {base.type.text()} -> {type_.text()}",
            type_,
            loc,
        )
        self.views[i] = (base, index)
        self.args.append(v)
        self.arg_locs.append(loc)
        return v

    def _params(self):
        """The IR arguments: (Value, loc) per argument of each view."""
        for i, (a, loc) in enumerate(zip(self.args, self.arg_locs)):
            if i in self.views:
                base, index = self.views[i]
                yield base, loc
                for v in index:
                    yield v, loc
            else:
                yield a, loc

    def op(self, text, type_, loc=None):
        """Emits ``%new = <text>`` and returns the new value."""
        v = Value(self.fresh(), type_)
        self.ops.append((f"{v.name} = {text}", loc))
        return v

    def ret(self, values):
        self.results = list(values)

    def render(self, locations=True, name=None):
        """The module text; ``name`` renames the function."""
        args = ", ".join(
            f"{a.name}: {a.type.text()}"
            + (_loc_text(loc) if locations else "")
            for a, loc in self._params()
        )
        res = ", ".join(v.type.text() for v in self.results)
        lines = [f"func.func @{name or self.name}({args}) -> ({res}) {{"]
        for text, loc in self.ops:
            lines.append("  " + text + (_loc_text(loc) if locations else ""))
        if self.results:
            lines.append(
                "  return "
                + ", ".join(v.name for v in self.results)
                + " : "
                + res
            )
        else:
            lines.append("  return")
        lines.append("}")
        return "\n".join(lines) + "\n"


# --- constants ------------------------------------------------------------


def scalar_literal(value, dt):
    """An MLIR literal of ``value`` as ``dt`` (floats as exact bit
    patterns)."""
    if dt.kind == "b":
        return "true" if value else "false"
    if dt.kind in "iu":
        return str(int(value))
    bits = np.array(value, dtype=dt).view(f"u{dt.itemsize}").item()
    return f"0x{bits:0{dt.itemsize * 2}X}"


def dense_literal(array):
    """``dense<...> : tensor<...>`` of a NumPy array."""
    dt = array.dtype
    shape = "".join(f"{d}x" for d in array.shape)
    ttype = f"tensor<{shape}{_dtypes.mlir(dt)}>"
    if dt.kind == "c":  # raw (real, imaginary) pairs; one pair is a splat
        data = np.ascontiguousarray(array).astype(dt.newbyteorder("<"))
        return f'dense<"0x{data.tobytes().hex().upper()}"> : {ttype}'
    if array.size == 1:
        body = scalar_literal(array.reshape(()).item(), dt)
    elif dt.kind == "b":
        body = (
            "["
            + ", ".join("true" if v else "false" for v in array.reshape(-1))
            + "]"
        )
        if array.ndim != 1:
            nested = np.array(
                ["true" if v else "false" for v in array.reshape(-1)]
            ).reshape(array.shape)
            body = np.array2string(
                nested, separator=", ", threshold=np.inf, max_line_width=np.inf
            ).replace("'", "")
    else:
        data = np.ascontiguousarray(array).astype(dt.newbyteorder("<"))
        body = '"0x' + data.tobytes().hex().upper() + '"'
    return f"dense<{body}> : {ttype}"


def arith_constant(fb, value, dt, loc=None):
    """A scalar constant (signless types only: bool, signed ints,
    floats)."""
    lit = scalar_literal(value, dt)
    if dt.kind == "b":  # `true`/`false` carry their type (i1)
        return fb.op(f"arith.constant {lit}", ScalarT(dt), loc)
    return fb.op(
        f"arith.constant {lit} : {_dtypes.SIGNLESS[_dtypes.CODES[dt]]}",
        ScalarT(dt),
        loc,
    )


def index_constant(fb, value, loc=None):
    return fb.op(f"arith.constant {int(value)} : index", ScalarT(None), loc)


def index_from(fb, v, loc=None):
    """An index value from an i64 scalar value."""
    return fb.op(
        f"arith.index_cast {v.name} : i64 to index", ScalarT(None), loc
    )


def array_constant(fb, array, qid, kind, loc=None):
    t = ArrayT(array.dtype, array.shape, qid, kind)
    return fb.op(f"usm.constant {dense_literal(array)} -> {t.text()}", t, loc)


def cast_scalar(fb, v, dt, loc=None):
    """Converts scalar value ``v`` to ``dt`` with arith casts (NumPy
    semantics for in-range values)."""
    src = v.type.dtype
    if src == dt:
        return v
    s, d = (
        _dtypes.SIGNLESS[_dtypes.CODES[src]],
        _dtypes.SIGNLESS[_dtypes.CODES[dt]],
    )
    if src.kind in "iub" and dt.kind in "iub" and s == d:
        return Value(v.name, ScalarT(dt))  # same bits, other signedness
    if not v.type.signless and src.kind == "u":
        raise AssertionError("unsigned scalars must be signless for arith")
    if dt.kind == "b":
        zero = arith_constant(
            fb,
            0,
            src if src.kind != "u" else np.dtype(f"i{src.itemsize}"),
            loc,
        )
        pred = "une" if src.kind == "f" else "ne"
        cmp = "arith.cmpf" if src.kind == "f" else "arith.cmpi"
        return fb.op(
            f"{cmp} {pred}, {v.name}, {zero.name} : {s}", ScalarT(dt), loc
        )
    if src.kind == "f" and dt.kind == "f":
        op = "arith.extf" if dt.itemsize > src.itemsize else "arith.truncf"
    elif src.kind == "f":
        op = "arith.fptoui" if dt.kind == "u" else "arith.fptosi"
    elif dt.kind == "f":
        op = "arith.uitofp" if src.kind in "ub" else "arith.sitofp"
    elif dt.itemsize > src.itemsize:
        op = "arith.extui" if src.kind in "ub" else "arith.extsi"
    else:
        op = "arith.trunci"
    return fb.op(f"{op} {v.name} : {s} to {d}", ScalarT(dt), loc)


# --- array ops ------------------------------------------------------------


def _operand_types(values):
    return ", ".join(v.type.text() for v in values)


def elementwise(fb, name, operands, result, loc=None):
    names = ", ".join(v.name for v in operands)
    return fb.op(
        f"usm.{name} {names} : ({_operand_types(operands)}) -> "
        f"{result.text()}",
        result,
        loc,
    )


def store(fb, value, dest, loc=None):
    """``usm.store``: writes ``value`` into the memory of ``dest``."""
    fb.ops.append(
        (
            f"usm.store {value.name}, {dest.name} : "
            f"{value.type.text()}, {dest.type.text()}",
            loc,
        )
    )


def astype(fb, v, result, loc=None):
    return fb.op(
        f"usm.astype {v.name} : {v.type.text()} to {result.text()}",
        result,
        loc,
    )


def reduction(fb, name, v, axes, keepdims, result, loc=None):
    text = f"usm.{name} {v.name}"
    if axes is not None:
        text += " axes [" + ", ".join(str(a) for a in axes) + "]"
    if keepdims:
        text += " keepdims"
    return fb.op(f"{text} : {v.type.text()} -> {result.text()}", result, loc)


def _sizes(sizes):
    return f" ({', '.join(s.name for s in sizes)})" if sizes else ""


def reshape(fb, v, result, sizes=(), loc=None):
    return fb.op(
        f"usm.reshape {v.name}{_sizes(sizes)} : {v.type.text()} -> "
        f"{result.text()}",
        result,
        loc,
    )


def broadcast_to(fb, v, result, sizes=(), loc=None):
    return fb.op(
        f"usm.broadcast_to {v.name}{_sizes(sizes)} : "
        f"{v.type.text()} -> {result.text()}",
        result,
        loc,
    )


def transpose(fb, v, perm, result, loc=None):
    p = ", ".join(str(i) for i in perm)
    return fb.op(
        f"usm.transpose {v.name} [{p}] : {v.type.text()} -> {result.text()}",
        result,
        loc,
    )


def to_device(fb, v, result, loc=None):
    return fb.op(
        f"usm.to_device {v.name} : {v.type.text()} -> {result.text()}",
        result,
        loc,
    )


def full(fb, value, result, sizes=(), loc=None):
    return fb.op(
        f"usm.full {value.name}{_sizes(sizes)} : "
        f"{value.type.text()} -> {result.text()}",
        result,
        loc,
    )


def arange(fb, start, step, result, size=None, loc=None):
    sz = f" ({size.name})" if size is not None else ""
    return fb.op(
        f"usm.arange {start.name}, {step.name}{sz} : "
        f"{start.type.text()} -> {result.text()}",
        result,
        loc,
    )


def empty(fb, result, sizes=(), loc=None):
    return fb.op(
        f"usm.empty({', '.join(s.name for s in sizes)}) : {result.text()}",
        result,
        loc,
    )


def float_bits(value, dt):
    """The bit pattern of a float as an integer (for tests and caches)."""
    fmt = {2: "e", 4: "f", 8: "d"}[dt.itemsize]
    return int.from_bytes(struct.pack("<" + fmt, value), "little")


# The longest last axis (of an array of two or more dimensions) that an
# eager kernel is compiled for: reductions over such short rows unroll
# (ShortRowLowering.cpp), which a dynamic row length does not allow.
SHORT_ROW = 8


def generic_shape(shape):
    """The compiled form of a shape for eager kernels: 1s stay static (they
    decide broadcasting), and so does a short last axis (SHORT_ROW) of an
    array of two or more dimensions; every other size is dynamic."""
    n = len(shape)
    return tuple(
        d if d == 1 or (i == n - 1 and n > 1 and 1 < d <= SHORT_ROW) else None
        for i, d in enumerate(shape)
    )


def convert_operand(fb, value, dt, qid, kind, loc=None):
    """``value`` (an operand of an operation) converted to ``dt``: arrays
    through usm.astype, scalars through arith (unsigned scalars become 0-d
    arrays, as usm ops take only uiN-typed scalars for unsigned arrays)."""
    t = value.type
    if isinstance(t, ArrayT):
        if t.dtype == dt:
            return value
        return astype(fb, value, t.with_(dtype=dt), loc)
    if not t.signless:  # an eager kernel's scalar argument, already dt
        return value
    if dt.kind == "c":  # a real scalar with complex arrays: a 0-d array
        part = _dtypes.float32 if dt.itemsize == 8 else _dtypes.float64
        v = full(
            fb,
            cast_scalar(fb, value, part, loc),
            ArrayT(part, (), qid, kind),
            loc=loc,
        )
        return astype(fb, v, ArrayT(dt, (), qid, kind), loc)
    v = cast_scalar(fb, value, dt, loc)
    if dt.kind == "u":
        return full(fb, v, ArrayT(dt, (), qid, kind), loc=loc)
    return v
