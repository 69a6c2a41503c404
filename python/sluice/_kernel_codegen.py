"""Python kernel source -> the body of an MLIR ``gpu.func``.

The compiler walks the kernel's ``ast`` once per signature and writes MLIR
text: scalars are SSA values of arith/math ops, Python variables live in
one-element ``memref.alloca`` slots (so control flow needs no block
arguments; LLVM and the device compilers promote them to registers),
control flow is ``scf.if``/``scf.for``/``scf.while``, arrays are flat
buffers indexed row-major with NumPy's wrap-around for negative indices.

The types of variables are found by running the walk until they no longer
change (a variable has the NumPy result type of everything assigned to
it). See docs/kernels.md for the language and the launch model.
"""

import ast
import builtins
import inspect
import math
import textwrap

import numpy as np

from . import _dtypes
from ._kernel_values import (
    BOOL,
    F64,
    I64,
    ArrayRef,
    AtomicObj,
    Const,
    GroupObj,
    Index,
    ItemObj,
    PyObj,
    Scalar,
    mlir_type,
)
from . import kernel_api as kapi


class KernelError(TypeError):
    """A kernel uses Python the kernel compiler does not accept, or uses it
    wrongly; the message starts with the kernel's ``file:line``."""

    def __init__(self, message, location=None):
        if location is not None:
            message = f"{location[0]}:{location[1]}: {message}"
        super().__init__(message)
        self.location = location


class _Retry(Exception):
    pass


def _is_int_dt(dt):
    return dt.kind in "iu"


def _float_literal(value, dt):
    if dt.kind != "f":
        raise AssertionError(dt)
    if math.isnan(value) or math.isinf(value) or dt.itemsize == 2:
        bits = np.array(value, dtype=dt).view(f"u{dt.itemsize}").item()
        return f"0x{bits:0{dt.itemsize * 2}X}"
    r = repr(float(np.array(value, dtype=dt)))
    if "e" in r or "." in r:
        return r if "." in r.split("e")[0] else r.replace("e", ".0e")
    return r + ".0"


# Functions of math/numpy/sluice on scalars: name -> (MLIR op, kind).
# kind "f": float in, float out (ints computed as float64).
_UNARY_FLOAT = {
    "sqrt": "math.sqrt",
    "exp": "math.exp",
    "log": "math.log",
    "log2": "math.log2",
    "log10": "math.log10",
    "log1p": "math.log1p",
    "expm1": "math.expm1",
    "sin": "math.sin",
    "cos": "math.cos",
    "tan": "math.tan",
    "asin": "math.asin",
    "acos": "math.acos",
    "atan": "math.atan",
    "sinh": "math.sinh",
    "cosh": "math.cosh",
    "tanh": "math.tanh",
    "asinh": "math.asinh",
    "acosh": "math.acosh",
    "atanh": "math.atanh",
    "erf": "math.erf",
    "erfc": "math.erfc",
    "exp2": "math.exp2",
    "cbrt": "math.cbrt",
    "rsqrt": "math.rsqrt",
    "arcsin": "math.asin",
    "arccos": "math.acos",
    "arctan": "math.atan",
    "arcsinh": "math.asinh",
    "arccosh": "math.acosh",
    "arctanh": "math.atanh",
}
_BINARY_FLOAT = {
    "pow": "math.powf",
    "atan2": "math.atan2",
    "arctan2": "math.atan2",
    "copysign": "math.copysign",
    "power": "math.powf",
    "fmod": None,
    "hypot": None,
}
_ROUNDING = {"floor": "math.floor", "ceil": "math.ceil", "trunc": "math.trunc"}


class Emitter:
    """Writes the body of one kernel function.

    ``ctx`` describes the launch (see _kernel.KernelBuild): target
    ("host", "spirv", "cuda"), nd-range or range, the kernel's index
    arguments, and for host nd-range kernels the barrier mode.
    """

    def __init__(self, ctx, var_types, var_nonneg=None):
        self.ctx = ctx
        self.var_types = var_types  # name -> dtype or ("tuple", n)
        self.assigned = {}  # name -> dtype seen this pass
        # Variables only ever assigned values known not to be negative (so
        # their array indices need no wrap-around): from the last pass,
        # and as seen in this one.
        self.var_nonneg = var_nonneg or {}
        self.assigned_nonneg = {}
        self.prologue = []  # allocas, at the function's entry
        self.lines = []
        self.depth = 1
        self._n = 0
        self.slots = {}  # name -> (memref value, dtype)
        self.objects = {}  # name -> non-scalar binding
        self.loc = None
        self.cur_l = None  # host nd-range: the current work-item (Index)
        self.consts = {}
        # Bounds checking: (location, array label, axis, static size) per
        # checked index, in the order of the error buffer's slots.
        self.bounds_sites = []

    # --- text ----------------------------------------------------------------
    def fresh(self):
        self._n += 1
        return f"%t{self._n}"

    def emit(self, text):
        self.lines.append("  " * self.depth + text)

    def op(self, text, dt, **kw):
        name = self.fresh()
        self.emit(f"{name} = {text}")
        return Scalar(name, dt, **kw)

    def iop(self, text):
        name = self.fresh()
        self.emit(f"{name} = {text}")
        return Index(name)

    def error(self, msg):
        return KernelError(msg, self.loc)

    # --- index arithmetic ----------------------------------------------------
    def ic(self, v):
        """An index constant."""
        name = self.fresh()
        self.emit(f"{name} = arith.constant {int(v)} : index")
        return Index(name)

    def iadd(self, a, b):
        return self.iop(f"arith.addi {a.name}, {b.name} : index")

    def imul(self, a, b):
        return self.iop(f"arith.muli {a.name}, {b.name} : index")

    def idiv(self, a, b):
        return self.iop(f"arith.divui {a.name}, {b.name} : index")

    def irem(self, a, b):
        return self.iop(f"arith.remui {a.name}, {b.name} : index")

    def to_index(self, v):
        """An Index of an integer scalar or constant."""
        if isinstance(v, Index):
            return v
        if isinstance(v, Const):
            if not isinstance(v.value, (int, np.integer)) or isinstance(
                v.value, bool
            ):
                raise self.error(
                    f"an index must be an integer, not {v.value!r}"
                )
            return self.ic(int(v.value))
        if not isinstance(v, Scalar) or not _is_int_dt(v.dt):
            raise self.error("an index must be an integer")
        if v.dt.itemsize < 8:
            v = self.cast(v, I64 if v.dt.kind == "i" else np.dtype(np.uint64))
        return self.iop(f"arith.index_cast {v.name} : i64 to index")

    def from_index(self, i, nonneg=True):
        return self.op(
            f"arith.index_cast {i.name} : index to i64", I64, nonneg=nonneg
        )

    # --- scalars -------------------------------------------------------------
    def const(self, value, dt):
        if dt.kind == "b":
            lit = "true" if value else "false"
        elif dt.kind in "iu":
            lit = str(
                int(np.array(value).astype(dt).view(f"i{dt.itemsize}").item())
                if not isinstance(value, int)
                else int(value)
                if dt.kind == "i"
                else int(
                    np.array(
                        value, dtype=np.uint64 if value >= 0 else np.int64
                    )
                    .astype(dt)
                    .view(f"i{dt.itemsize}")
                )
            )
        else:
            lit = _float_literal(value, dt)
        if dt.kind == "b":
            return self.op(f"arith.constant {lit}", dt)
        return self.op(
            f"arith.constant {lit} : {mlir_type(dt)}",
            dt,
            nonneg=dt.kind != "f" and value >= 0,
        )

    def materialize(self, v, dt=None):
        """A Scalar of a Scalar or Const (Python ints as int64, floats as
        float64, both weak, unless ``dt`` is given)."""
        if isinstance(v, Scalar):
            return v if dt is None else self.cast(v, dt)
        if isinstance(v, Const):
            val = v.value
            if isinstance(val, (bool, np.bool_)):
                s = self.const(bool(val), BOOL)
                return s if dt is None else self.cast(s, dt)
            if isinstance(val, np.generic):
                s = self.const(val.item(), _dtypes.to_dtype(val.dtype))
                return s if dt is None else self.cast(s, dt)
            if dt is None:
                if isinstance(val, int):
                    if not -(2**63) <= val < 2**63:
                        raise self.error(f"integer {val} does not fit int64")
                    s = self.const(val, I64)
                    s.weak = int
                    return s
                if isinstance(val, float):
                    s = self.const(val, F64)
                    s.weak = float
                    return s
                raise self.error(f"{val!r} is not a number")
            if isinstance(val, float) and dt.kind != "f":
                return self.cast(self.materialize(v), dt)
            return self.const(val, dt)
        if isinstance(v, Index):
            return self.from_index(v)
        raise self.error(f"expected a number, not {_describe(v)}")

    def cast(self, v, dt):
        v = self.materialize(v)
        src = v.dt
        if src == dt:
            return v
        s, d = mlir_type(src), mlir_type(dt)
        if src.kind in "iu" and dt.kind in "iu" and s == d:
            return Scalar(v.name, dt, nonneg=v.nonneg and dt.kind == "u")
        if dt.kind == "b":
            if src.kind == "f":
                z = self.const(0.0, src)
                return self.op(f"arith.cmpf une, {v.name}, {z.name} : {s}", dt)
            z = self.const(0, src)
            return self.op(f"arith.cmpi ne, {v.name}, {z.name} : {s}", dt)
        if src.kind == "f" and dt.kind == "f":
            o = "arith.extf" if dt.itemsize > src.itemsize else "arith.truncf"
        elif src.kind == "f":
            o = "arith.fptoui" if dt.kind == "u" else "arith.fptosi"
        elif dt.kind == "f":
            o = "arith.uitofp" if src.kind in "ub" else "arith.sitofp"
        elif dt.itemsize > src.itemsize:
            o = "arith.extui" if src.kind in "ub" else "arith.extsi"
        else:
            o = "arith.trunci"
        return self.op(
            f"{o} {v.name} : {s} to {d}",
            dt,
            nonneg=v.nonneg and dt.kind != "f",
        )

    def result_type(self, a, b):
        """NumPy's result type of a binary operation (NEP 50: Python
        numbers are weak)."""
        wa = a.weak if isinstance(a, Scalar) else _const_kind(a)
        wb = b.weak if isinstance(b, Scalar) else _const_kind(b)
        da = a.dt if isinstance(a, Scalar) else None
        db = b.dt if isinstance(b, Scalar) else None
        if isinstance(a, Const) and isinstance(a.value, np.generic):
            da, wa = _dtypes.to_dtype(a.value.dtype), None
        if isinstance(b, Const) and isinstance(b.value, np.generic):
            db, wb = _dtypes.to_dtype(b.value.dtype), None
        if wa and wb:
            if float in (wa, wb):
                return F64, float
            if wa is bool and wb is bool:
                return BOOL, bool
            return I64, int
        if wa or wb:
            weak, strong = (wa, db) if wa else (wb, da)
            if weak is float and strong.kind in "biu":
                return F64, None
            if weak is int and strong.kind == "b":
                return I64, None
            return strong, None
        return np.result_type(da, db), None

    def binop(self, opname, a, b):
        if (
            isinstance(a, Const)
            and isinstance(b, Const)
            and not isinstance(a.value, np.generic)
            and not isinstance(b.value, np.generic)
        ):
            try:
                return Const(_PY_OPS[opname](a.value, b.value))
            except ZeroDivisionError:
                raise self.error("division by zero") from None
        dt, weak = self.result_type(a, b)
        if opname == "div":
            if dt.kind not in "fc":
                dt = F64
            weak = float if weak else None
        if (
            opname == "pow"
            and isinstance(b, Const)
            and isinstance(b.value, int)
            and not isinstance(b.value, bool)
            and 0 <= b.value <= 8
        ):
            x = self.materialize(
                a, dt if dt.kind == "f" or not isinstance(a, Const) else dt
            )
            x = self.cast(x, dt)
            if b.value == 0:
                r = self.const(1, dt)
            else:
                r = x
                for _ in range(b.value - 1):
                    r = self.arith("mul", r, x, dt)
            r.weak = weak
            return r
        x = self.cast(self.materialize(a), dt)
        y = self.cast(self.materialize(b), dt)
        r = self.arith(opname, x, y, dt)
        r.weak = weak
        return r

    def arith(self, opname, x, y, dt):
        t = mlir_type(dt)
        f = dt.kind == "f"
        u = dt.kind in "ub"
        nn = x.nonneg and y.nonneg
        if dt.kind == "b" and opname in ("add", "mul", "sub"):
            opname = {"add": "or", "mul": "and", "sub": "xor"}[opname]
        if dt.kind == "c" and opname in ("add", "sub", "mul", "div"):
            return self.op(f"complex.{opname} {x.name}, {y.name} : {t}", dt)
        if opname in ("add", "sub", "mul"):
            o = {"add": "add", "sub": "sub", "mul": "mul"}[opname]
            return self.op(
                f"arith.{o}{'f' if f else 'i'} {x.name}, {y.name} : {t}",
                dt,
                nonneg=nn and opname != "sub" and not f,
            )
        if opname == "div":
            return self.op(f"arith.divf {x.name}, {y.name} : {t}", dt)
        if opname == "pow":
            if not f:
                raise self.error(
                    "integer ** needs a constant exponent "
                    "from 0 to 8 (use float operands)"
                )
            return self.op(f"math.powf {x.name}, {y.name} : {t}", dt)
        if opname in ("floordiv", "mod"):
            return self.divmod_(opname, x, y, dt)
        if opname in ("and", "or", "xor"):
            if f:
                raise self.error(f"bitwise {opname} needs integers")
            return self.op(
                f"arith.{opname}i {x.name}, {y.name} : {t}", dt, nonneg=nn
            )
        if opname in ("lshift", "rshift"):
            if f or dt.kind == "b":
                raise self.error("shifts need integers")
            if opname == "lshift":
                return self.op(f"arith.shli {x.name}, {y.name} : {t}", dt)
            o = "arith.shrui" if u else "arith.shrsi"
            return self.op(f"{o} {x.name}, {y.name} : {t}", dt, nonneg=nn)
        if opname in ("max", "min"):
            if f:
                o = "arith.maximumf" if opname == "max" else "arith.minimumf"
            else:
                o = f"arith.{opname}{'u' if u else 's'}i"
            return self.op(
                f"{o} {x.name}, {y.name} : {t}",
                dt,
                nonneg=(x.nonneg or y.nonneg) if opname == "max" else nn,
            )
        raise self.error(f"operator {opname} is not supported")

    def select(self, c, x, y, dt):
        return self.op(
            f"arith.select {c.name}, {x.name}, {y.name} : {mlir_type(dt)}", dt
        )

    def divmod_(self, opname, x, y, dt):
        t = mlir_type(dt)
        if dt.kind == "f":
            if opname == "floordiv":
                q = self.op(f"arith.divf {x.name}, {y.name} : {t}", dt)
                return self.op(f"math.floor {q.name} : {t}", dt)
            r = self.op(f"arith.remf {x.name}, {y.name} : {t}", dt)
            z = self.const(0.0, dt)
            nz = self.op(f"arith.cmpf one, {r.name}, {z.name} : {t}", BOOL)
            rn = self.op(f"arith.cmpf olt, {r.name}, {z.name} : {t}", BOOL)
            yn = self.op(f"arith.cmpf olt, {y.name}, {z.name} : {t}", BOOL)
            diff = self.op(f"arith.xori {rn.name}, {yn.name} : i1", BOOL)
            fix = self.op(f"arith.andi {nz.name}, {diff.name} : i1", BOOL)
            ry = self.op(f"arith.addf {r.name}, {y.name} : {t}", dt)
            return self.select(fix, ry, r, dt)
        # Integers: Python's floor semantics; a zero divisor gives 0 as in
        # NumPy (instead of undefined behaviour).
        z = self.const(0, dt)
        one = self.const(1, dt)
        isz = self.op(f"arith.cmpi eq, {y.name}, {z.name} : {t}", BOOL)
        safe = self.select(isz, one, y, dt)
        u = dt.kind in "ub"
        if opname == "floordiv":
            o = "arith.divui" if u else "arith.floordivsi"
            q = self.op(
                f"{o} {x.name}, {safe.name} : {t}",
                dt,
                nonneg=x.nonneg and y.nonneg,
            )
            return Scalar(self.select(isz, z, q, dt).name, dt, nonneg=q.nonneg)
        if u or (x.nonneg and y.nonneg):
            r = self.op(
                f"arith.remui {x.name}, {safe.name} : {t}", dt, nonneg=True
            )
        else:
            r = self.op(f"arith.remsi {x.name}, {safe.name} : {t}", dt)
            nz = self.op(f"arith.cmpi ne, {r.name}, {z.name} : {t}", BOOL)
            rn = self.op(f"arith.cmpi slt, {r.name}, {z.name} : {t}", BOOL)
            yn = self.op(f"arith.cmpi slt, {y.name}, {z.name} : {t}", BOOL)
            diff = self.op(f"arith.xori {rn.name}, {yn.name} : i1", BOOL)
            fix = self.op(f"arith.andi {nz.name}, {diff.name} : i1", BOOL)
            ry = self.op(f"arith.addi {r.name}, {safe.name} : {t}", dt)
            r = self.select(fix, ry, r, dt)
        res = self.select(isz, z, r, dt)
        res.nonneg = r.nonneg
        return res

    def compare(self, opname, a, b):
        if isinstance(a, Const) and isinstance(b, Const):
            return Const(_PY_CMP[opname](a.value, b.value))
        dt, _ = self.result_type(a, b)
        x = self.cast(self.materialize(a), dt)
        y = self.cast(self.materialize(b), dt)
        t = mlir_type(dt)
        if dt.kind == "f":
            pred = {
                "eq": "oeq",
                "ne": "une",
                "lt": "olt",
                "le": "ole",
                "gt": "ogt",
                "ge": "oge",
            }[opname]
            return self.op(
                f"arith.cmpf {pred}, {x.name}, {y.name} : {t}", BOOL
            )
        if opname in ("eq", "ne"):
            pred = opname
        else:
            pred = (
                ("u" if dt.kind in "ub" else "s")
                + opname[0]
                + ("t" if opname[1] == "t" else "e")
            )
        return self.op(f"arith.cmpi {pred}, {x.name}, {y.name} : {t}", BOOL)

    def truth(self, v):
        if isinstance(v, Const):
            return self.const(bool(v.value), BOOL)
        v = self.materialize(v)
        return self.cast(v, BOOL)

    # --- variables -----------------------------------------------------------
    def alloca_text(self, dt, n=None):
        """A function-entry alloca of one element (or ``n``, an Index or
        int, elements) of ``dt``."""
        name = self.fresh()
        space = (
            ", #spirv.storage_class<Function>"
            if self.ctx.target == "spirv"
            else ""
        )
        if n is None or isinstance(n, int):
            size = 1 if n is None else n
            mt = f"memref<{size}x{mlir_type(dt)}{space}>"
            self.prologue.append(f"{name} = memref.alloca() : {mt}")
        else:
            mt = f"memref<?x{mlir_type(dt)}{space}>"
            self.prologue.append(f"{name} = memref.alloca({n.name}) : {mt}")
        return name, mt

    def slot(self, name, dt):
        key = (name, str(dt))
        s = self.slots.get(key)
        if s is None:
            per_item = (
                self.ctx.per_item_vars and name not in self.ctx.uniform_vars
            )
            s = self.alloca_text(
                dt, self.ctx.local_total if per_item else None
            ) + (per_item,)
            self.slots[key] = s
        return s

    def slot_index(self, per_item):
        if per_item:
            return self.cur_l.name
        return self.zero_index()

    def zero_index(self):
        return self.ic(0).name

    def store_var(self, name, v):
        if isinstance(v, tuple):
            for k, e in enumerate(v):
                self.store_var(f"{name}#{k}", e)
            self.note_type(name, ("tuple", len(v)))
            self.var_types.setdefault(name, ("tuple", len(v)))
            return
        if not isinstance(v, (Scalar, Const)):
            prev = self.objects.get(name)
            if prev is not None and prev is not v and not isinstance(v, PyObj):
                raise self.error(
                    f"{name} is assigned a second array or "
                    "object; kernels bind such names once"
                )
            self.objects[name] = v
            return
        if name in self.objects:
            raise self.error(
                f"{name} names an array or object and cannot "
                "be assigned a number"
            )
        v = self.materialize(v)
        self.note_type(name, v.dt, weak=v.weak)
        self.assigned_nonneg[name] = self.assigned_nonneg.get(
            name, True
        ) and bool(v.nonneg)
        dt = self.var_types.get(name)
        if dt is None:  # first seen: provisional until the types settle
            dt = self.var_types[name] = v.dt
        v = self.cast(v, dt)
        mem, mt, per_item = self.slot(name, dt)
        self.emit(
            f"memref.store {v.name}, {mem}[{self.slot_index(per_item)}] : {mt}"
        )

    def note_type(self, name, dt, weak=None):
        prev = self.assigned.get(name)
        if isinstance(dt, tuple):
            self.assigned[name] = dt
            return
        if prev is None:
            self.assigned[name] = dt
        elif prev != dt:
            self.assigned[name] = np.result_type(prev, dt)

    def load_var(self, name):
        dt = self.var_types.get(name)
        if isinstance(dt, tuple):
            return tuple(self.load_var(f"{name}#{k}") for k in range(dt[1]))
        if dt is None:
            raise _Retry(name)
        mem, mt, per_item = self.slot(name, dt)
        return self.op(
            f"memref.load {mem}[{self.slot_index(per_item)}] : {mt}",
            dt,
            nonneg=self.var_nonneg.get(name, False) and dt.kind != "f",
        )


_PY_OPS = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "floordiv": lambda a, b: a // b,
    "mod": lambda a, b: a % b,
    "pow": lambda a, b: a**b,
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
    "lshift": lambda a, b: a << b,
    "rshift": lambda a, b: a >> b,
    "max": max,
    "min": min,
}
_PY_CMP = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
}
_BINOPS = {
    ast.Add: "add",
    ast.Sub: "sub",
    ast.Mult: "mul",
    ast.Div: "div",
    ast.FloorDiv: "floordiv",
    ast.Mod: "mod",
    ast.Pow: "pow",
    ast.BitAnd: "and",
    ast.BitOr: "or",
    ast.BitXor: "xor",
    ast.LShift: "lshift",
    ast.RShift: "rshift",
}
_CMPOPS = {
    ast.Eq: "eq",
    ast.NotEq: "ne",
    ast.Lt: "lt",
    ast.LtE: "le",
    ast.Gt: "gt",
    ast.GtE: "ge",
}


def _const_kind(c):
    if isinstance(c, Const):
        v = c.value
        if isinstance(v, bool):
            return bool
        if isinstance(v, int):
            return int
        if isinstance(v, float):
            return float
    return None


def _describe(v):
    if isinstance(v, ArrayRef):
        return "an array"
    if isinstance(v, ItemObj):
        return "an NdItem" if v.nd else "an Item"
    if isinstance(v, GroupObj):
        return "a Group"
    if type(v).__name__ == "SubGroupObj":
        return "a SubGroup"
    if isinstance(v, AtomicObj):
        return "an AtomicRef"
    if isinstance(v, PyObj):
        return f"the Python object {v.obj!r}"
    if isinstance(v, tuple):
        return "a tuple"
    return type(v).__name__


def contains_barrier(node, env):
    """Whether statement ``node`` contains a group_barrier call."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            f = sub.func
            name = (
                f.attr
                if isinstance(f, ast.Attribute)
                else (f.id if isinstance(f, ast.Name) else None)
            )
            if name == "group_barrier":
                obj = env.get(f.id) if isinstance(f, ast.Name) else None
                if isinstance(f, ast.Name) and obj is not kapi.group_barrier:
                    continue
                return True
    return False


def _quick_source(fn):
    """The function's source as ``inspect`` finds it, without its tokenizer
    (whose first use costs milliseconds): the lines from the code's first
    line (its first decorator) to the next one after the ``def`` indented
    no deeper than it. None where
    that does not parse to one function (``inspect`` decides then)."""
    import linecache

    try:
        code = fn.__code__
        file = code.co_filename
        first = code.co_firstlineno
    except AttributeError:
        return None
    lines = linecache.getlines(file)
    if not lines or first > len(lines):
        return None
    head = lines[first - 1]
    indent = len(head) - len(head.lstrip())
    end = first - 1  # past the decorators, to the def
    while end < len(lines) and not lines[end].lstrip().startswith(
        ("def ", "async def ")
    ):
        end += 1
    end += 1
    while end < len(lines):
        text = lines[end]
        stripped = text.strip()
        if (
            stripped
            and not stripped.startswith("#")
            and len(text) - len(text.lstrip()) <= indent
        ):
            break
        end += 1
    block = lines[first - 1 : end]
    try:
        tree = ast.parse(textwrap.dedent("".join(block)))
    except SyntaxError:
        return None
    if (
        len(tree.body) != 1
        or not isinstance(
            tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)
        )
        or tree.body[0].name != fn.__name__
    ):
        return None
    return tree, block, first, file


class FunctionSource:
    """The parsed source of a kernel or device function."""

    def __init__(self, fn):
        self.fn = fn
        self.name = fn.__name__
        tree = _quick_source(fn)
        if tree is None:
            try:
                src = inspect.getsource(fn)
                self.lines, self.first = inspect.getsourcelines(fn)
            except (OSError, TypeError) as e:
                raise KernelError(
                    f"the source of {fn.__qualname__} is not "
                    f"available ({e}); kernels must be "
                    "defined in a file"
                ) from None
            self.file = inspect.getsourcefile(fn) or "<unknown>"
            tree = ast.parse(textwrap.dedent(src))
        else:
            tree, self.lines, self.first, self.file = tree
        fdef = tree.body[0]
        if not isinstance(fdef, (ast.FunctionDef,)):
            raise KernelError(
                f"{self.name} is not a def function", (self.file, self.first)
            )
        self.tree = fdef
        a = fdef.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            raise KernelError(
                f"{self.name}: kernels take plain positional parameters only",
                (self.file, self.first),
            )
        self.params = [p.arg for p in a.args]
        self.defaults = list(a.defaults)
        # Names the function can see: globals, closure cells, builtins.
        env = dict(builtins.__dict__)
        env.update(fn.__globals__)
        if fn.__closure__:
            for name, cell in zip(fn.__code__.co_freevars, fn.__closure__):
                try:
                    env[name] = cell.cell_contents
                except ValueError:
                    pass
        self.env = env

    def location(self, node):
        return (self.file, self.first + getattr(node, "lineno", 1) - 1)


def _terminates(stmts):
    """Whether a statement list always ends in ``return``."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ast.Return):
        return True
    if isinstance(last, ast.If):
        return _terminates(last.body) and _terminates(last.orelse)
    return False


def _loop_exits(stmts):
    """Whether statements contain a break or continue of the enclosing
    loop (not of loops nested in them)."""
    todo = list(stmts)
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.Break, ast.Continue)):
            return True
        if isinstance(n, (ast.For, ast.While, ast.FunctionDef, ast.Lambda)):
            continue
        todo.extend(ast.iter_child_nodes(n))
    return False


def _has_return(stmts):
    return any(isinstance(n, ast.Return) for s in stmts for n in ast.walk(s))


class Walker:
    """Emits the statements of one function body (a kernel's, or a device
    function's inlined into it)."""

    def __init__(self, em, src, params, prefix="", ret_name=None):
        self.em = em
        self.src = src
        self.params = params  # name -> value (Scalar, ArrayRef, ...)
        self.prefix = prefix
        self.ret_name = ret_name
        self.loop_depth = 0
        self.group_level = False
        self.loops = []  # per enclosing loop: its break/continue flags
        self.n_loops = 0
        assigned = set()
        for node in ast.walk(src.tree):
            if isinstance(
                node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For)
            ):
                targets = (
                    node.targets
                    if isinstance(node, ast.Assign)
                    else [node.target]
                )
                for t in targets:
                    # Only the names stored to: in ``buf[k + W] = v`` the
                    # names of the subscript are read.
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name) and isinstance(
                            n.ctx, ast.Store
                        ):
                            assigned.add(n.id)
        self.assigned = assigned

    def error(self, node, msg):
        return KernelError(msg, self.src.location(node))

    def at(self, node):
        self.em.loc = self.src.location(node)

    def var(self, name):
        return self.prefix + name

    def start(self):
        """Scalar parameters that the body assigns become variables."""
        names = [
            n
            for n, v in self.params.items()
            if n in self.assigned and isinstance(v, (Scalar, Const))
        ]
        if not names:
            return
        em = self.em
        if self.group_level:  # every work-item's copy
            l0, one = em.ic(0), em.ic(1)
            iv = em.fresh()
            em.emit(
                f"scf.for {iv} = {l0.name} to {em.ctx.local_total.name} "
                f"step {one.name} {{"
            )
            em.depth += 1
            saved, em.cur_l = em.cur_l, Index(iv)
        for name in names:
            em.store_var(self.var(name), self.params.pop(name))
        if self.group_level:
            em.cur_l = saved
            em.depth -= 1
            em.emit("}")

    # --- statements ----------------------------------------------------------
    def stmts(self, body):
        body = list(body)
        if self.group_level:
            return self.group_stmts(body)
        k = 0
        while k < len(body):
            s = body[k]
            rest = body[k + 1 :]
            if isinstance(s, ast.Return):
                self.ret(s)
                return
            if (
                isinstance(s, ast.If)
                and rest
                and (_terminates(s.body) or _terminates(s.orelse))
            ):
                if self.loop_depth:
                    raise self.error(
                        s, "return inside a loop is not supported in kernels"
                    )
                if _terminates(s.body):
                    s = ast.If(
                        test=s.test,
                        body=s.body,
                        orelse=list(s.orelse) + rest,
                        lineno=s.lineno,
                        col_offset=s.col_offset,
                    )
                else:
                    s = ast.If(
                        test=s.test,
                        body=list(s.body) + rest,
                        orelse=s.orelse,
                        lineno=s.lineno,
                        col_offset=s.col_offset,
                    )
                self.stmt(s)
                return
            self.stmt(s)
            k += 1
            if rest and self.loops and self.loops[-1] and _loop_exits([s]):
                # The rest runs unless a break or continue happened.
                self.guarded(rest)
                return

    def flags(self):
        return self.loops[-1]

    def not_exited(self):
        """i1: neither the innermost loop's break nor its continue flag is
        set."""
        em = self.em
        brk, cont = self.flags()
        b = em.load_var(brk)
        c = em.load_var(cont)
        either = em.op(f"arith.ori {b.name}, {c.name} : i1", BOOL)
        t = em.const(True, BOOL)
        return em.op(f"arith.xori {either.name}, {t.name} : i1", BOOL)

    def guarded(self, rest):
        em = self.em
        ok = self.not_exited()
        em.emit(f"scf.if {ok.name} {{")
        self.region(lambda: self.stmts(rest))
        em.emit("}")

    def loop_flags(self, body, node):
        """Break/continue flags of a loop whose body has them (else
        None)."""
        if not _loop_exits(body):
            return None
        if self.group_level:
            raise self.error(
                node,
                "break and continue are not supported "
                "in loops that contain a group_barrier",
            )
        self.n_loops += 1
        base = self.var(f"<loop{self.n_loops}>")
        return (base + ".break", base + ".continue")

    def group_stmts(self, body):
        """Host nd-range kernels with barriers: the statements between
        barriers run in a loop over the workgroup's work-items; statements
        that contain barriers run once per workgroup (their conditions and
        bounds are the same for every work-item, as SYCL requires)."""
        em = self.em
        env = self.src.env
        run = []

        def flush():
            if not run:
                return
            l0, lend, one = em.ic(0), em.ctx.local_total, em.ic(1)
            iv = em.fresh()
            em.emit(
                f"scf.for {iv} = {l0.name} to {lend.name} step {one.name} {{"
            )
            em.depth += 1
            saved = em.cur_l
            em.cur_l = Index(iv)
            self.group_level = False
            try:
                self.stmts(list(run))
            finally:
                self.group_level = True
                em.cur_l = saved
            em.depth -= 1
            em.emit("}")
            run.clear()

        for k, s in enumerate(body):
            if isinstance(s, ast.If) and (
                _terminates(s.body) or _terminates(s.orelse)
            ):
                if any(contains_barrier(r, env) for r in body[k + 1 :]):
                    raise self.error(
                        s,
                        "a return before a group_barrier is "
                        "not supported on the host backend",
                    )
            if isinstance(s, ast.Return):
                flush()
                return
            if not contains_barrier(s, env):
                run.append(s)
                continue
            flush()
            self.at(s)
            saved = em.cur_l
            em.cur_l = em.ic(0)  # uniform values: work-item 0's
            try:
                if isinstance(s, ast.Expr):
                    self.barrier_call(s.value)
                elif isinstance(s, ast.For):
                    self.for_(s)
                elif isinstance(s, ast.If):
                    self.if_(s)
                elif isinstance(s, ast.While):
                    self.while_(s)
                else:
                    raise self.error(
                        s, "a group_barrier must be a statement of its own"
                    )
            finally:
                em.cur_l = saved
        flush()

    def barrier_call(self, call):
        if not (
            isinstance(call, ast.Call)
            and isinstance(self.expr_obj(call.func), PyObj)
            and self.expr_obj(call.func).obj is kapi.group_barrier
        ):
            raise self.error(
                call, "a group_barrier must be a statement of its own"
            )
        # The work-item loops around it are the barrier.

    def ret(self, s):
        if self.loop_depth:
            raise self.error(
                s, "return inside a loop is not supported in kernels"
            )
        if self.ret_name is None:
            if s.value is not None:
                v = self.expr(s.value)
                if not (isinstance(v, PyObj) and v.obj is None):
                    raise self.error(
                        s,
                        "a kernel cannot return a value; "
                        "write results into an array argument",
                    )
            return
        if s.value is None:
            raise self.error(s, "a device function must return a value")
        v = self.expr(s.value)
        self.em.store_var(self.ret_name, v)

    def stmt(self, s):
        self.at(s)
        if isinstance(s, ast.Expr):
            if isinstance(s.value, ast.Constant):
                return  # docstring
            self.expr(s.value)
        elif isinstance(s, ast.Assign):
            v = self.expr(s.value)
            for t in s.targets:
                self.assign(t, v)
        elif isinstance(s, ast.AnnAssign):
            if s.value is not None:
                self.assign(s.target, self.expr(s.value))
        elif isinstance(s, ast.AugAssign):
            opname = _BINOPS.get(type(s.op))
            if opname is None:
                raise self.error(s, "operator not supported in kernels")
            if isinstance(s.target, ast.Name):
                cur = self.name(s.target)
                self.assign(
                    s.target, self.em.binop(opname, cur, self.expr(s.value))
                )
            elif isinstance(s.target, ast.Subscript):
                arr, idx = self.element(s.target)
                cur = self.load(arr, idx)
                self.store(
                    arr, idx, self.em.binop(opname, cur, self.expr(s.value))
                )
            else:
                raise self.error(s, "unsupported assignment target")
        elif isinstance(s, ast.If):
            self.if_(s)
        elif isinstance(s, ast.For):
            self.for_(s)
        elif isinstance(s, ast.While):
            self.while_(s)
        elif isinstance(s, ast.Pass):
            pass
        elif isinstance(s, ast.Return):
            self.ret(s)
        elif isinstance(s, (ast.Break, ast.Continue)):
            if not self.loops or not self.loops[-1]:
                raise self.error(
                    s, f"{type(s).__name__.lower()} outside a loop"
                )
            brk, cont = self.loops[-1]
            self.em.store_var(
                brk if isinstance(s, ast.Break) else cont, Const(True)
            )
        else:
            raise self.error(
                s,
                f"{type(s).__name__} statements are not supported in kernels",
            )

    def assign(self, t, v):
        if isinstance(t, ast.Name):
            if t.id in self.params:
                raise self.error(t, f"cannot assign to parameter {t.id}")
            self.em.store_var(self.var(t.id), v)
        elif isinstance(t, (ast.Tuple, ast.List)):
            if not isinstance(v, tuple) or len(v) != len(t.elts):
                raise self.error(
                    t,
                    "cannot unpack: the value is not a "
                    f"tuple of {len(t.elts)}",
                )
            for tt, vv in zip(t.elts, v):
                self.assign(tt, vv)
        elif isinstance(t, ast.Subscript):
            arr, idx = self.element(t)
            self.store(arr, idx, v)
        else:
            raise self.error(t, "unsupported assignment target")

    def region(self, fn):
        em = self.em
        em.depth += 1
        try:
            fn()
        finally:
            em.depth -= 1

    def if_(self, s):
        em = self.em
        c = self.expr(s.test)
        if isinstance(c, Const):
            self.stmts(s.body if c.value else s.orelse)
            return
        c = em.truth(c)
        em.emit(f"scf.if {c.name} {{")
        self.region(lambda: self.stmts(s.body))
        if s.orelse:
            em.emit("} else {")
            self.region(lambda: self.stmts(s.orelse))
        em.emit("}")

    def for_(self, s):
        em = self.em
        it = s.iter
        if s.orelse:
            raise self.error(s, "for-else is not supported in kernels")
        f = self.expr_obj(it.func) if isinstance(it, ast.Call) else None
        if isinstance(f, PyObj) and f.obj is kapi.static_range:
            return self.static_for(s)
        if not (isinstance(f, PyObj) and f.obj is range):
            raise self.error(s, "kernels loop only over range(...)")
        if it.keywords or not 1 <= len(it.args) <= 3:
            raise self.error(s, "range takes 1 to 3 arguments")
        args = [self.expr(a) for a in it.args]
        for a in args:
            if not (isinstance(a, Scalar) and _is_int_dt(a.dt)) and not (
                isinstance(a, Const) and isinstance(a.value, int)
            ):
                raise self.error(s, "range arguments must be integers")
        if len(args) == 1:
            start, stop, step = Const(0), args[0], Const(1)
        elif len(args) == 2:
            start, stop, step = args[0], args[1], Const(1)
        else:
            start, stop, step = args
        if not isinstance(s.target, ast.Name):
            raise self.error(s, "a for loop's target must be a name")
        # Trip count n = max(0, ceil((stop - start) / step)), then
        # target = start + k * step for k in [0, n).
        if isinstance(step, Const):
            if step.value == 0:
                raise self.error(s, "range step must not be zero")
            sv = step.value
            st = em.materialize(start, I64)
            sp = em.materialize(stop, I64)
            if sv > 0:
                span = em.op(f"arith.subi {sp.name}, {st.name} : i64", I64)
                adj = em.const(sv - 1, I64)
            else:
                span = em.op(f"arith.subi {st.name}, {sp.name} : i64", I64)
                adj = em.const(-sv - 1, I64)
            num = em.op(f"arith.addi {span.name}, {adj.name} : i64", I64)
            d = em.const(abs(sv), I64)
            n = em.op(f"arith.divsi {num.name}, {d.name} : i64", I64)
            z = em.const(0, I64)
            n = em.op(f"arith.maxsi {n.name}, {z.name} : i64", I64)
            nonneg = sv > 0 and (
                isinstance(start, Const)
                and start.value >= 0
                or getattr(start, "nonneg", False)
            )
        else:
            st = em.materialize(start, I64)
            sp = em.materialize(stop, I64)
            stp = em.materialize(step, I64)
            z = em.const(0, I64)
            one = em.const(1, I64)
            pos = em.op(f"arith.cmpi sgt, {stp.name}, {z.name} : i64", BOOL)
            span = em.op(f"arith.subi {sp.name}, {st.name} : i64", I64)
            # ceil(span / step) for either sign: (span + step -+ 1) / step
            adj = em.select(
                pos,
                em.op(f"arith.subi {stp.name}, {one.name} : i64", I64),
                em.op(f"arith.addi {stp.name}, {one.name} : i64", I64),
                I64,
            )
            num = em.op(f"arith.addi {span.name}, {adj.name} : i64", I64)
            n = em.op(f"arith.divsi {num.name}, {stp.name} : i64", I64)
            n = em.op(f"arith.maxsi {n.name}, {z.name} : i64", I64)
            nonneg = False
        ni = em.iop(f"arith.index_cast {n.name} : i64 to index")
        flags = self.loop_flags(s.body, s)
        if flags:
            em.store_var(flags[0], Const(False))
        c0, c1 = em.ic(0), em.ic(1)
        iv = em.fresh()
        em.emit(f"scf.for {iv} = {c0.name} to {ni.name} step {c1.name} {{")

        def body():
            if flags:
                # After a break the remaining iterations do nothing.
                b = em.load_var(flags[0])
                t = em.const(True, BOOL)
                nb = em.op(f"arith.xori {b.name}, {t.name} : i1", BOOL)
                em.emit(f"scf.if {nb.name} {{")
                em.depth += 1
                em.store_var(flags[1], Const(False))
            k = em.from_index(Index(iv))
            if isinstance(step, Const) and step.value == 1:
                val = em.op(f"arith.addi {st.name}, {k.name} : i64", I64)
            else:
                stv = em.materialize(step, I64)
                m = em.op(f"arith.muli {k.name}, {stv.name} : i64", I64)
                val = em.op(f"arith.addi {st.name}, {m.name} : i64", I64)
            val.nonneg = nonneg
            self.em.store_var(self.var(s.target.id), val)
            self.loop_depth += 1
            self.loops.append(flags)
            try:
                self.stmts(s.body)
            finally:
                self.loop_depth -= 1
                self.loops.pop()
            if flags:
                em.depth -= 1
                em.emit("}")

        self.region(body)
        em.emit("}")

    def static_for(self, s):
        """``for i in kapi.static_range(...)``: the body once per value,
        ``i`` a constant in each (no loop is left)."""
        it = s.iter
        args = [self.expr(a) for a in it.args]
        if (
            it.keywords
            or not 1 <= len(args) <= 3
            or not all(
                isinstance(a, Const) and isinstance(a.value, int) for a in args
            )
        ):
            raise self.error(s, "static_range takes 1 to 3 constant integers")
        if not isinstance(s.target, ast.Name):
            raise self.error(s, "a for loop's target must be a name")
        if _loop_exits(s.body) or contains_barrier(s, self.src.env):
            raise self.error(
                s,
                "a static_range loop has no break, continue or group_barrier",
            )
        for v in range(*(a.value for a in args)):
            self.em.store_var(self.var(s.target.id), Const(v))
            self.stmts(s.body)

    def while_(self, s):
        em = self.em
        if s.orelse:
            raise self.error(s, "while-else is not supported in kernels")
        # A loop-carried i1 that is never used (canonicalisation drops it):
        # MLIR 22's greedy SCF-to-CF expansion crashed on some scf.while
        # loops without values; convert-host-to-runtime no longer uses it,
        # and this keeps kernels safe on builds that do.
        flags = self.loop_flags(s.body, s)
        if flags:
            em.store_var(flags[0], Const(False))
        t = em.const(True, BOOL)
        a, b = em.fresh(), em.fresh()
        em.emit(f"{em.fresh()} = scf.while ({a} = {t.name}) : (i1) -> i1 {{")

        def cond():
            if flags:  # the condition is not evaluated after a break
                c = self.conditional(
                    em.load_var(flags[0]),
                    lambda: Const(False),
                    lambda: em.truth(self.expr(s.test)),
                )
            else:
                c = self.expr(s.test)
            c = em.truth(c)
            em.emit(f"scf.condition({c.name}) {a} : i1")

        self.region(cond)
        em.emit("} do {")
        em.emit(f"^bb0({b}: i1):")

        def body():
            if flags:
                em.store_var(flags[1], Const(False))
            self.loop_depth += 1
            self.loops.append(flags)
            try:
                self.stmts(s.body)
            finally:
                self.loop_depth -= 1
                self.loops.pop()
            em.emit(f"scf.yield {b} : i1")

        self.region(body)
        em.emit("}")

    # --- arrays --------------------------------------------------------------
    def element(self, node):
        """The array and flat Index of ``a[i, j]``."""
        arr = self.expr(node.value)
        if not isinstance(arr, ArrayRef):
            raise self.error(
                node, f"cannot assign to an element of {_describe(arr)}"
            )
        return arr, self.flat_index(arr, node.slice, node)

    def flat_index(self, arr, sl, node):
        em = self.em
        if isinstance(sl, ast.Slice) or (
            isinstance(sl, ast.Tuple)
            and any(isinstance(e, ast.Slice) for e in sl.elts)
        ):
            raise self.error(
                node,
                "slices of arrays are not supported in "
                "kernels; index single elements",
            )
        idx = self.expr(sl)
        if not isinstance(idx, tuple):
            idx = (idx,)
        if len(idx) != arr.ndim:
            raise self.error(
                node,
                f"an array of {arr.ndim} dimension(s) "
                f"takes {arr.ndim} indices, not {len(idx)}",
            )
        flat = None
        ok = None
        for d, i in enumerate(idx):
            dim = arr.dims[d]
            dim = em.ic(dim) if isinstance(dim, int) else dim
            if (
                isinstance(i, Const)
                and isinstance(i.value, (int, np.integer))
                and not isinstance(i.value, bool)
            ):
                iv = int(i.value)
                given = em.ic(iv)
                if iv >= 0:
                    ii = given
                else:
                    ii = em.iadd(dim, em.ic(iv))
            else:
                if not (isinstance(i, Scalar) and _is_int_dt(i.dt)):
                    raise self.error(node, "array indices must be integers")
                ii = given = em.to_index(i)
                if not i.nonneg and i.dt.kind != "u":
                    z = em.ic(0)
                    neg = em.op(
                        f"arith.cmpi slt, {ii.name}, {z.name} : index", BOOL
                    )
                    w = em.iadd(ii, dim)
                    ii = em.iop(
                        f"arith.select {neg.name}, {w.name}, {ii.name} : index"
                    )
            if em.ctx.bounds is not None:
                ii, ok = self.bounds_check(node, arr, d, dim, given, ii, ok)
            flat = ii if flat is None else em.iadd(em.imul(flat, dim), ii)
        if arr.per_item is not None:
            base = em.imul(em.cur_l, em.ic(arr.per_item))
            flat = em.iadd(base, flat)
        flat.ok = ok
        return flat

    def bounds_check(self, node, arr, axis, dim, given, ii, ok):
        """Under bounds checking (SLUICE_KERNEL_BOUNDS_CHECK): whether index
        ``ii`` (``given`` before NumPy's wrap-around) is within ``dim``. An
        index that is not is recorded in the error buffer, in the slots of
        this access and axis (the launch raises IndexError from them), and
        replaced by 0. Returns the index and the running in-bounds flag."""
        em = self.em
        err = em.ctx.bounds
        site = len(em.bounds_sites)
        em.bounds_sites.append(
            (
                self.src.location(node),
                arr.label,
                axis,
                arr.dims[axis] if isinstance(arr.dims[axis], int) else None,
            )
        )
        good = em.op(f"arith.cmpi ult, {ii.name}, {dim.name} : index", BOOL)
        bad = em.op(f"arith.cmpi uge, {ii.name}, {dim.name} : index", BOOL)
        em.emit(f"scf.if {bad.name} {{")
        em.depth += 1
        one = em.const(1, I64)
        v = em.op(f"arith.index_cast {given.name} : index to i64", I64)
        s0, s1 = em.ic(2 * site), em.ic(2 * site + 1)
        em.emit(f"memref.store {one.name}, {err.buf}[{s0.name}] : {err.mtype}")
        em.emit(f"memref.store {v.name}, {err.buf}[{s1.name}] : {err.mtype}")
        em.depth -= 1
        em.emit("}")
        z = em.ic(0)
        ii = em.iop(f"arith.select {good.name}, {ii.name}, {z.name} : index")
        if ok is not None:
            good = em.op(f"arith.andi {ok.name}, {good.name} : i1", BOOL)
        return ii, good

    def load(self, arr, idx):
        em = self.em
        if idx.ok is None:
            return em.op(
                f"memref.load {arr.buf}[{idx.name}] : {arr.mtype}", arr.dtype
            )
        # Bounds-checked: out of bounds reads nothing (and gives 0).
        t = mlir_type(arr.dtype)
        res = em.fresh()
        em.emit(f"{res} = scf.if {idx.ok.name} -> ({t}) {{")
        em.depth += 1
        v = em.op(
            f"memref.load {arr.buf}[{idx.name}] : {arr.mtype}", arr.dtype
        )
        em.emit(f"scf.yield {v.name} : {t}")
        em.depth -= 1
        em.emit("} else {")
        em.depth += 1
        z = em.const(False if arr.dtype.kind == "b" else 0, arr.dtype)
        em.emit(f"scf.yield {z.name} : {t}")
        em.depth -= 1
        em.emit("}")
        return Scalar(res, arr.dtype)

    def store(self, arr, idx, v):
        if not isinstance(v, (Scalar, Const)):
            raise self.error_here(
                f"cannot store {_describe(v)} in an array element"
            )
        v = self.em.cast(self.em.materialize(v), arr.dtype)
        if idx.ok is not None:
            self.em.emit(f"scf.if {idx.ok.name} {{")
        self.em.emit(
            f"memref.store {v.name}, {arr.buf}[{idx.name}] : {arr.mtype}"
        )
        if idx.ok is not None:
            self.em.emit("}")

    def error_here(self, msg):
        return self.em.error(msg)

    # --- expressions ---------------------------------------------------------
    def expr_obj(self, node):
        """Resolves a name or attribute chain to a Python object at compile
        time when it names one (without emitting code), else None."""
        if isinstance(node, ast.Name):
            if (
                node.id in self.params
                or self.var(node.id) in self.em.var_types
                or self.var(node.id) in self.em.objects
            ):
                return None
            if node.id in self.src.env:
                return PyObj(self.src.env[node.id])
            return None
        if isinstance(node, ast.Attribute):
            base = self.expr_obj(node.value)
            if isinstance(base, PyObj):
                try:
                    return PyObj(getattr(base.obj, node.attr))
                except AttributeError:
                    raise self.error(
                        node, f"{base.obj!r} has no attribute {node.attr!r}"
                    ) from None
        return None

    def name(self, node):
        n = node.id
        if n in self.params:
            return self.params[n]
        key = self.var(n)
        if key in self.em.objects:
            return self.em.objects[key]
        if key in self.em.var_types:
            return self.em.load_var(key)
        if n in self.assigned:
            raise _Retry(n)
        if n in self.src.env:
            return _python_value(self.src.env[n])
        raise self.error(node, f"name {n!r} is not defined")

    def expr(self, node):
        self.em.loc = self.src.location(node)
        m = getattr(self, "x_" + type(node).__name__, None)
        if m is None:
            raise self.error(
                node,
                f"{type(node).__name__} expressions are "
                "not supported in kernels",
            )
        return m(node)

    def x_Constant(self, node):
        v = node.value
        if isinstance(v, (bool, int, float)):
            return Const(v)
        if v is None:
            return PyObj(None)
        raise self.error(node, f"constant {v!r} is not supported in kernels")

    def x_Name(self, node):
        return self.name(node)

    def x_Tuple(self, node):
        return tuple(self.expr(e) for e in node.elts)

    x_List = x_Tuple

    def x_BinOp(self, node):
        opname = _BINOPS.get(type(node.op))
        if opname is None:
            raise self.error(node, "operator not supported in kernels")
        a, b = self.scalar(node.left), self.scalar(node.right)
        return self.em.binop(opname, a, b)

    def scalar(self, node):
        v = self.expr(node)
        if not isinstance(v, (Scalar, Const)):
            raise self.error(node, f"expected a number, not {_describe(v)}")
        if isinstance(v, Const) and not isinstance(
            v.value, (bool, int, float, np.generic)
        ):
            raise self.error(node, f"expected a number, not {v.value!r}")
        return v

    def x_UnaryOp(self, node):
        em = self.em
        v = self.scalar(node.operand)
        if isinstance(node.op, ast.Not):
            if isinstance(v, Const):
                return Const(not v.value)
            b = em.truth(v)
            t = em.const(True, BOOL)
            return em.op(f"arith.xori {b.name}, {t.name} : i1", BOOL)
        if isinstance(node.op, ast.UAdd):
            return v
        if isinstance(node.op, ast.USub):
            if isinstance(v, Const):
                return Const(-v.value)
            if v.dt.kind == "f":
                r = em.op(f"arith.negf {v.name} : {v.type}", v.dt)
            else:
                r = em.binop(
                    "sub", Const(0) if v.dt.kind != "b" else Const(False), v
                )
                r = em.cast(r, v.dt) if v.dt.kind != "b" else r
            r.weak = v.weak
            return r
        if isinstance(node.op, ast.Invert):
            if isinstance(v, Const):
                return Const(~v.value)
            if v.dt.kind == "f":
                raise self.error(node, "~ needs an integer or a bool")
            ones = em.const(
                -1
                if v.dt.kind == "i"
                else (
                    True if v.dt.kind == "b" else (1 << 8 * v.dt.itemsize) - 1
                ),
                v.dt,
            )
            return em.op(f"arith.xori {v.name}, {ones.name} : {v.type}", v.dt)
        raise self.error(node, "operator not supported in kernels")

    def x_Compare(self, node):
        em = self.em
        left = self.scalar(node.left)
        result = None
        for op, right_node in zip(node.ops, node.comparators):
            opname = _CMPOPS.get(type(op))
            if opname is None:
                raise self.error(
                    node, "only ==, !=, <, <=, >, >= compare in kernels"
                )
            right = self.scalar(right_node)
            c = em.compare(opname, left, right)
            if result is None:
                result = c
            elif isinstance(result, Const) and isinstance(c, Const):
                result = Const(result.value and c.value)
            else:
                a, b = em.truth(result), em.truth(c)
                result = em.op(f"arith.andi {a.name}, {b.name} : i1", BOOL)
            left = right
        return result

    def conditional(self, cond, then_fn, else_fn):
        """``scf.if`` with one result: emits both branches, then casts them
        to their common type."""
        em = self.em
        c = em.truth(cond)
        saved = em.lines
        outs = []
        for fn in (then_fn, else_fn):
            em.lines = []
            em.depth += 1
            v = fn()
            if not isinstance(v, (Scalar, Const)):
                em.lines = saved
                em.depth -= 1
                raise em.error("both branches must be numbers")
            outs.append([v, em.lines, em.depth])
            em.depth -= 1
        em.lines = saved
        dt, weak = em.result_type(outs[0][0], outs[1][0])
        res = em.fresh()
        em.emit(f"{res} = scf.if {c.name} -> ({mlir_type(dt)}) {{")
        for k, (v, lines, depth) in enumerate(outs):
            em.lines, em.depth = lines, depth
            v = em.cast(em.materialize(v), dt)
            em.emit(f"scf.yield {v.name} : {mlir_type(dt)}")
            em.lines, em.depth = saved, depth - 1
            em.lines.extend(lines)
            if k == 0:
                em.emit("} else {")
        em.emit("}")
        return Scalar(res, dt, weak=weak)

    def x_IfExp(self, node):
        c = self.scalar(node.test)
        if isinstance(c, Const):
            return self.expr(node.body if c.value else node.orelse)
        return self.conditional(
            c, lambda: self.scalar(node.body), lambda: self.scalar(node.orelse)
        )

    def x_BoolOp(self, node):
        # Short-circuit: later operands are evaluated only when needed (they
        # may index arrays that the first operands guard).
        is_and = isinstance(node.op, ast.And)

        def chain(values):
            first = self.scalar(values[0])
            if len(values) == 1:
                return (
                    first if isinstance(first, Const) else self.em.truth(first)
                )
            if isinstance(first, Const):
                if bool(first.value) == is_and:
                    return chain(values[1:])
                return Const(bool(first.value))
            if is_and:
                return self.conditional(
                    first, lambda: chain(values[1:]), lambda: Const(False)
                )
            return self.conditional(
                first, lambda: Const(True), lambda: chain(values[1:])
            )

        r = chain(node.values)
        if isinstance(r, Scalar) and r.dt != BOOL:
            r = self.em.truth(r)
        return r

    def x_Subscript(self, node):
        base = self.expr(node.value)
        if isinstance(base, tuple):
            i = self.expr(node.slice)
            if not isinstance(i, Const) or not isinstance(i.value, int):
                raise self.error(node, "tuples are indexed by constants")
            try:
                return base[i.value]
            except IndexError:
                raise self.error(node, "tuple index out of range") from None
        if isinstance(base, ArrayRef):
            return self.load(base, self.flat_index(base, node.slice, node))
        raise self.error(node, f"{_describe(base)} cannot be indexed")

    def x_Attribute(self, node):
        obj = self.expr_obj(node)
        if obj is not None:
            return _python_value(obj.obj)
        base = self.expr(node.value)
        em = self.em
        if isinstance(base, ArrayRef):
            if node.attr == "shape":
                return tuple(
                    em.from_index(em.ic(d) if isinstance(d, int) else d)
                    for d in base.dims
                )
            if node.attr == "ndim":
                return Const(base.ndim)
            if node.attr == "size":
                n = None
                for d in base.dims:
                    di = em.ic(d) if isinstance(d, int) else d
                    n = di if n is None else em.imul(n, di)
                return em.from_index(n)
            if node.attr == "dtype":
                return PyObj(base.dtype)
        if isinstance(base, (Scalar, Const)) and node.attr in ("real",):
            return base
        raise self.error(
            node,
            f"{_describe(base)} has no attribute {node.attr!r} in kernels",
        )

    def x_Call(self, node):
        from . import _kernel_calls

        return _kernel_calls.call(self, node)


def _python_value(obj):
    if isinstance(obj, (bool, int, float)):
        return Const(obj)
    if isinstance(obj, np.generic) and obj.dtype in _dtypes.CODES:
        return Const(obj)
    if isinstance(obj, enum_types()):
        return Const(int(obj))
    return PyObj(obj)


def enum_types():
    return (
        kapi.MemoryOrder,
        kapi.MemoryScope,
        kapi.AddressSpace,
        kapi.GroupOp,
    )
