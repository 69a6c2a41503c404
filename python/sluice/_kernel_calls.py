"""Calls inside kernels: work-item queries, math functions, casts,
private arrays, atomics, barriers and device functions (see
_kernel_codegen)."""

import ast
import builtins
import math

import numpy as np

from . import _dtypes, _kernel_cuda_atomics, _kernel_subgroups
from . import kernel_api as kapi
from ._kernel_codegen import (
    _BINARY_FLOAT,
    _ROUNDING,
    _UNARY_FLOAT,
    KernelError,
    _describe,
)
from ._kernel_values import (
    BOOL,
    CAS_PARAMS,
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
    SubGroupObj,
    cas_operands,
    cas_store_found,
    mlir_type,
)


def _bind(w, node, names, required):
    """Positional and keyword arguments of a call, by parameter name."""
    out = {}
    if len(node.args) > len(names):
        raise w.error(node, f"takes at most {len(names)} arguments")
    for n, a in zip(names, node.args):
        out[n] = a
    for kw in node.keywords:
        if kw.arg not in names:
            raise w.error(node, f"unexpected keyword argument {kw.arg!r}")
        if kw.arg in out:
            raise w.error(node, f"argument {kw.arg!r} given twice")
        out[kw.arg] = kw.value
    for n in required:
        if n not in out:
            raise w.error(node, f"missing argument {n!r}")
    return out


def _dim(w, node, args, ndim):
    if len(args) != 1 or node.keywords:
        raise w.error(node, "takes one dimension argument")
    d = w.expr(args[0])
    if not isinstance(d, Const) or not isinstance(d.value, int):
        raise w.error(node, "the dimension must be a constant integer")
    if not 0 <= d.value < ndim:
        raise w.error(
            node,
            f"dimension {d.value} is out of range for a "
            f"{ndim}-dimensional range",
        )
    return d.value


def _as_dtype(w, node, v):
    obj = v.obj if isinstance(v, PyObj) else None
    try:
        if obj is builtins.float:
            return F64
        if obj is builtins.int:
            return I64
        if obj is builtins.bool:
            return BOOL
        return _dtypes.to_dtype(obj)
    except TypeError:
        raise w.error(node, f"{obj!r} is not a data type") from None


def call(w, node):
    em = w.em
    f = node.func
    # Methods of kernel objects.
    if isinstance(f, ast.Attribute) and w.expr_obj(f) is None:
        base = w.expr(f.value)
        if isinstance(base, ItemObj):
            return item_method(w, node, base, f.attr)
        if isinstance(base, GroupObj):
            return group_method(w, node, f.attr)
        if isinstance(base, SubGroupObj):
            return _kernel_subgroups.method(w, node, f.attr)
        if isinstance(base, AtomicObj):
            return atomic_method(w, node, base, f.attr)
        raise w.error(
            node, f"{_describe(base)} has no method {f.attr!r} in kernels"
        )
    callee = w.expr_obj(f)
    if callee is None:
        v = w.expr(f)
        raise w.error(node, f"{_describe(v)} is not callable")
    obj = callee.obj
    from ._kernel import DeviceFunction, KernelFunction

    if isinstance(obj, DeviceFunction):
        return obj.inline(w, node)
    if isinstance(obj, KernelFunction):
        raise w.error(
            node,
            "a kernel cannot call another @sluice.kernel; "
            "make the callee a @sluice.device_func",
        )
    if obj is kapi.group_barrier:
        if w.em.ctx.target == "host":
            raise w.error(
                node,
                "group_barrier must be a statement of its "
                "own at the top of the kernel or inside for, "
                "while and if statements",
            )
        if not em.ctx.nd:
            raise w.error(
                node,
                "group_barrier needs an nd-range kernel "
                "(kapi.NdRange and an NdItem)",
            )
        a = _bind(w, node, ["group", "fence_scope"], ["group"])
        scope = w.expr(a["fence_scope"]) if "fence_scope" in a else Const(2)
        wide = em.ctx.target == "cuda" and not (
            isinstance(scope, Const) and int(scope.value) <= 2
        )
        # bar.sync orders memory within the block; a wider fence scope
        # takes a fence on either side.
        if wide:
            _kernel_cuda_atomics.fence(w, node, Const(4), scope)
        em.emit("gpu.barrier")
        if wide:
            _kernel_cuda_atomics.fence(w, node, Const(4), scope)
        return PyObj(None)
    if any(obj is f for f in _kernel_subgroups.FUNCTIONS):
        return _kernel_subgroups.call(w, node, obj)
    if obj is kapi.atomic_fence:
        a = _bind(w, node, ["memory_order", "memory_scope"], ["memory_order"])
        order = w.expr(a["memory_order"])
        scope = w.expr(a["memory_scope"]) if "memory_scope" in a else Const(3)
        if em.ctx.target == "cuda":
            _kernel_cuda_atomics.fence(w, node, order, scope)
        elif em.ctx.target != "host":
            raise w.error(
                node, "atomic_fence is not supported on this backend yet"
            )
        return PyObj(None)
    if obj is kapi.PrivateArray:
        return private_array(w, node)
    if obj is kapi.AtomicRef:
        return atomic_ref(w, node)
    if obj is kapi.LocalAccessor:
        raise w.error(
            node,
            "LocalAccessor is created outside the kernel "
            "and passed to call_kernel as an argument",
        )
    if obj is range:
        raise w.error(node, "range(...) is only allowed in for loops")
    args = node.args
    if node.keywords:
        raise w.error(
            node,
            "keyword arguments are not supported for this function in kernels",
        )
    if obj is builtins.len:
        a = w.expr(args[0]) if len(args) == 1 else None
        if isinstance(a, ArrayRef):
            d = a.dims[0]
            return em.from_index(em.ic(d) if isinstance(d, int) else d)
        if isinstance(a, tuple):
            return Const(len(a))
        raise w.error(node, "len() takes an array or a tuple")
    if obj in (builtins.min, builtins.max):
        if len(args) < 2:
            raise w.error(
                node, f"{obj.__name__}() takes 2 or more numbers in kernels"
            )
        vals = [w.scalar(a) for a in args]
        r = vals[0]
        for v in vals[1:]:
            r = minmax(w, obj.__name__, r, v)
        return r
    if obj is builtins.abs:
        return absolute(w, w.scalar(_one(w, node)))
    if obj in (builtins.int, builtins.float, builtins.bool):
        dt = {builtins.int: I64, builtins.float: F64, builtins.bool: BOOL}[obj]
        v = w.scalar(_one(w, node))
        if isinstance(v, Const):
            return Const(obj(v.value))
        r = em.cast(v, dt)
        r = Scalar(r.name, dt, weak=None, nonneg=r.nonneg)
        return r
    if (
        isinstance(obj, type)
        and issubclass(obj, np.generic)
        or isinstance(obj, np.dtype)
    ):
        dt = _as_dtype(w, node, PyObj(obj))
        v = w.scalar(_one(w, node))
        if isinstance(v, Const):
            return Const(np.array(v.value).astype(dt)[()])
        return em.cast(v, dt)
    name = getattr(obj, "__name__", None)
    mod = _module_of(obj)
    if mod is not None and name is not None:
        return math_call(w, node, mod, name, args)
    raise w.error(node, f"calling {obj!r} is not supported in kernels")


def _module_of(obj):
    """ "math", "numpy" or "sluice" when ``obj`` is a function of that
    module that kernels understand."""
    name = getattr(obj, "__name__", None)
    if name is None:
        return None
    if getattr(math, name, None) is obj:
        return "math"
    if getattr(np, name, None) is obj:
        return "numpy"
    import sluice

    if getattr(sluice, name, None) is obj:
        return "sluice"
    return None


def _one(w, node):
    if len(node.args) != 1:
        raise w.error(node, "takes exactly one argument")
    return node.args[0]


def minmax(w, which, a, b):
    em = w.em
    if isinstance(a, Const) and isinstance(b, Const):
        return Const(
            builtins.max(a.value, b.value)
            if which == "max"
            else builtins.min(a.value, b.value)
        )
    dt, weak = em.result_type(a, b)
    x = em.cast(em.materialize(a), dt)
    y = em.cast(em.materialize(b), dt)
    r = em.arith(which, x, y, dt)
    r.weak = weak
    return r


def absolute(w, v):
    em = w.em
    if isinstance(v, Const):
        return Const(builtins.abs(v.value))
    v = em.materialize(v)
    if v.dt.kind == "f":
        r = em.op(f"math.absf {v.name} : {v.type}", v.dt)
    elif v.dt.kind in "ub":
        return v
    else:
        r = em.op(f"math.absi {v.name} : {v.type}", v.dt, nonneg=True)
    r.weak = v.weak
    return r


def bitwise_count(w, node, v):
    """np.bitwise_count: the set bits of |v| as uint8 (math.ctpop)."""
    em = w.em
    if isinstance(v, Const):
        return Const(np.uint8(bin(abs(int(v.value))).count("1")))
    v = em.materialize(v)
    if v.dt.kind not in "iub":
        raise w.error(node, "np.bitwise_count takes integers")
    if v.dt.kind == "b":
        return em.cast(v, np.dtype(np.uint8))
    if v.dt.kind == "i":
        v = absolute(w, v)
    if em.ctx.target != "spirv":
        r = em.op(f"math.ctpop {v.name} : {v.type}", v.dt, nonneg=True)
        return em.cast(r, np.dtype(np.uint8))
    return _swar_count(em, v)


def _swar_count(em, v):
    """Population count in arithmetic (SPIR-V's conversion has no
    math.ctpop): pairs, nibbles, then bytes summed by a multiply."""
    dt = np.dtype(np.uint64 if v.dt.itemsize == 8 else np.uint32)
    x = em.cast(Scalar(v.name, np.dtype(f"u{v.dt.itemsize}")), dt)
    t = mlir_type(dt)
    nb = dt.itemsize * 8

    def c(val):
        return em.const(val & ((1 << nb) - 1), dt)

    def op(o, a, b):
        return em.op(f"arith.{o} {a.name}, {b.name} : {t}", dt)

    x = op("subi", x, op("andi", op("shrui", x, c(1)), c(0x5555555555555555)))
    m3 = c(0x3333333333333333)
    x = op("addi", op("andi", x, m3), op("andi", op("shrui", x, c(2)), m3))
    x = op("andi", op("addi", x, op("shrui", x, c(4))), c(0x0F0F0F0F0F0F0F0F))
    x = op("shrui", op("muli", x, c(0x0101010101010101)), c(nb - 8))
    return em.cast(x, np.dtype(np.uint8))


def _hypot(em, x, y, dt, t):
    """sqrt(x*x + y*y) without overflow or underflow: the larger
    magnitude times sqrt(1 + r*r), r the ratio of the smaller to it (0
    where both are 0; a NaN stays NaN), as the array op's hypot."""
    a = em.op(f"math.absf {x.name} : {t}", dt)
    c = em.op(f"math.absf {y.name} : {t}", dt)
    big = em.op(f"arith.cmpf ogt, {a.name}, {c.name} : {t}", BOOL)
    mx = em.op(f"arith.select {big.name}, {a.name}, {c.name} : {t}", dt)
    mn = em.op(f"arith.select {big.name}, {c.name}, {a.name} : {t}", dt)
    zero = em.const(0, dt)
    one = em.const(1, dt)
    none = em.op(f"arith.cmpf oeq, {mx.name}, {zero.name} : {t}", BOOL)
    den = em.op(f"arith.select {none.name}, {one.name}, {mx.name} : {t}", dt)
    r = em.op(f"arith.divf {mn.name}, {den.name} : {t}", dt)
    rr = em.op(f"arith.mulf {r.name}, {r.name} : {t}", dt)
    s = em.op(f"arith.addf {one.name}, {rr.name} : {t}", dt)
    q = em.op(f"math.sqrt {s.name} : {t}", dt)
    return em.op(f"arith.mulf {mx.name}, {q.name} : {t}", dt)


def _float_dt(v):
    if isinstance(v, Scalar) and v.dt.kind == "f":
        return v.dt
    return F64


def _static_number(w, node):
    """The Python number that ``node`` is at compile time (a literal, a
    global or closure constant, a ``math`` function of such numbers, or
    arithmetic on them), else None. Emits no code."""
    if isinstance(node, ast.Constant):
        v = node.value
    elif isinstance(node, ast.UnaryOp) and isinstance(
        node.op, (ast.USub, ast.UAdd)
    ):
        v = _static_number(w, node.operand)
        if v is not None:
            v = -v if isinstance(node.op, ast.USub) else v
    elif isinstance(node, ast.BinOp) and isinstance(
        node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)
    ):
        x, y = _static_number(w, node.left), _static_number(w, node.right)
        if x is None or y is None or (isinstance(node.op, ast.Div) and not y):
            return None
        op = {ast.Add: "__add__", ast.Sub: "__sub__", ast.Mult: "__mul__"}
        v = (
            x / y
            if isinstance(node.op, ast.Div)
            else getattr(x, op[type(node.op)])(y)
        )
    elif isinstance(node, (ast.Name, ast.Attribute)):
        o = w.expr_obj(node)
        v = o.obj if o is not None else None
    elif (
        isinstance(node, ast.Call)
        and not node.keywords
        and w.expr_obj(node.func) is not None
        and _module_of(w.expr_obj(node.func).obj) == "math"
    ):
        vals = [_static_number(w, a) for a in node.args]
        if any(x is None for x in vals):
            return None
        try:
            v = w.expr_obj(node.func).obj(*vals)
        except (ValueError, OverflowError, TypeError):
            return None
    else:
        return None
    if type(v) not in (int, float):
        return None
    return v


def math_call(w, node, mod, name, args):
    em = w.em
    nargs = len(args)
    if mod == "math":
        # Python's math functions of Python numbers are Python numbers
        # (weak: math.sqrt(2.0) * x keeps x's dtype): computed now.
        v = _static_number(w, node)
        if v is not None:
            return Const(v)
    if mod == "numpy" or mod == "sluice":
        if name in ("absolute", "abs") and nargs == 1:
            return absolute(w, w.scalar(args[0]))
        if name in ("minimum", "maximum") and nargs == 2:
            return minmax(w, name[:3], w.scalar(args[0]), w.scalar(args[1]))
        if name == "square" and nargs == 1:
            v = w.scalar(args[0])
            return em.binop("mul", v, v)
        if name == "bitwise_count" and nargs == 1:
            return bitwise_count(w, node, w.scalar(args[0]))
        if name == "where" and nargs == 3:
            c = w.scalar(args[0])
            return w.conditional(
                c, lambda: w.scalar(args[1]), lambda: w.scalar(args[2])
            )
    if name in ("isnan", "isinf", "isfinite") and nargs == 1:
        v = w.scalar(args[0])
        if isinstance(v, Const):
            return Const(getattr(math, name)(v.value))
        v = em.materialize(v)
        if v.dt.kind != "f":
            return em.const(name == "isfinite", BOOL)
        if name == "isnan":
            return em.op(
                f"arith.cmpf uno, {v.name}, {v.name} : {v.type}", BOOL
            )
        a = em.op(f"math.absf {v.name} : {v.type}", v.dt)
        inf = em.const(float("inf"), v.dt)
        pred = "oeq" if name == "isinf" else "olt"
        return em.op(
            f"arith.cmpf {pred}, {a.name}, {inf.name} : {v.type}", BOOL
        )
    if name in _UNARY_FLOAT and nargs == 1:
        v = w.scalar(args[0])
        dt = _float_dt(em.materialize(v) if isinstance(v, Const) else v)
        x = em.cast(em.materialize(v), dt)
        return em.op(f"{_UNARY_FLOAT[name]} {x.name} : {mlir_type(dt)}", dt)
    if name in ("fabs",) and nargs == 1:
        v = w.scalar(args[0])
        dt = _float_dt(v)
        x = em.cast(em.materialize(v), dt)
        return em.op(f"math.absf {x.name} : {mlir_type(dt)}", dt)
    if name in _ROUNDING and nargs == 1:
        v = w.scalar(args[0])
        if isinstance(v, Scalar) and v.dt.kind in "iub":
            return v if mod == "math" else em.cast(v, F64)
        dt = _float_dt(v)
        x = em.cast(em.materialize(v), dt)
        r = em.op(f"{_ROUNDING[name]} {x.name} : {mlir_type(dt)}", dt)
        # Python's math.floor/ceil/trunc return integers.
        return em.cast(r, I64) if mod == "math" else r
    if name in _BINARY_FLOAT and nargs == 2:
        a, b = w.scalar(args[0]), w.scalar(args[1])
        dt, _ = em.result_type(a, b)
        if dt.kind != "f":
            dt = F64
        x = em.cast(em.materialize(a), dt)
        y = em.cast(em.materialize(b), dt)
        t = mlir_type(dt)
        if name == "fmod":
            return em.op(f"arith.remf {x.name}, {y.name} : {t}", dt)
        if name == "hypot":
            return _hypot(em, x, y, dt, t)
        return em.op(f"{_BINARY_FLOAT[name]} {x.name}, {y.name} : {t}", dt)
    raise w.error(
        node,
        f"{mod}.{name} with {nargs} argument(s) is not supported in kernels",
    )


# --- work-items and groups ---------------------------------------------------


def _decompose(em, linear, sizes, d):
    """Component ``d`` of a row-major linear index over ``sizes``
    (Index values; the last varies fastest)."""
    n = len(sizes)
    if n == 1:
        return linear
    x = linear
    for k in range(n - 1, d, -1):
        x = em.idiv(x, sizes[k])
    if d == 0:
        return x
    return em.irem(x, sizes[d])


def _product(em, sizes):
    r = sizes[0]
    for s in sizes[1:]:
        r = em.imul(r, s)
    return r


def global_linear(em):
    ctx = em.ctx
    if not ctx.nd:
        return em.gid
    # group linear * local total + local linear only matches SYCL's global
    # linear id in 1-D; compute it from the global ids.
    ids = [global_id(em, d) for d in range(ctx.ndim)]
    r = ids[0]
    for d in range(1, ctx.ndim):
        r = em.iadd(em.imul(r, ctx.glob[d]), ids[d])
    return r


def local_linear(em):
    return em.cur_l if em.ctx.target == "host" else em.lid


def local_id(em, d):
    return _decompose(em, local_linear(em), em.ctx.local, d)


def group_id(em, d):
    return _decompose(em, em.grp, em.ctx.groups, d)


def global_id(em, d):
    ctx = em.ctx
    if not ctx.nd:
        return _decompose(em, em.gid, ctx.glob, d)
    return em.iadd(em.imul(group_id(em, d), ctx.local[d]), local_id(em, d))


def item_method(w, node, item, attr):
    em = w.em
    ctx = em.ctx
    nd = ctx.ndim
    if not item.nd:
        table = {
            "get_id": "gid",
            "get_range": "grange",
            "get_linear_id": "glin",
            "get_linear_range": "glinr",
        }
    else:
        table = {
            "get_global_id": "gid",
            "get_local_id": "lid",
            "get_global_range": "grange",
            "get_local_range": "lrange",
            "get_group_range": "nrange",
            "get_group": "group",
            "get_sub_group": "subgroup",
            "get_global_linear_id": "glin",
            "get_local_linear_id": "llin",
            "get_global_linear_range": "glinr",
            "get_local_linear_range": "llinr",
        }
    what = table.get(attr)
    if what is None:
        raise w.error(
            node, f"{'NdItem' if item.nd else 'Item'} has no method {attr!r}"
        )
    if what in ("gid", "grange", "lid", "lrange", "nrange"):
        d = _dim(w, node, node.args, nd)
        if what == "gid":
            return em.from_index(global_id(em, d))
        if what == "lid":
            return em.from_index(local_id(em, d))
        if what == "grange":
            return em.from_index(ctx.glob[d])
        if what == "lrange":
            return em.from_index(ctx.local[d])
        return em.from_index(ctx.groups[d])
    if node.args or node.keywords:
        raise w.error(node, f"{attr}() takes no arguments")
    if what == "group":
        return GroupObj()
    if what == "subgroup":
        return SubGroupObj()
    if what == "glin":
        return em.from_index(global_linear(em))
    if what == "llin":
        return em.from_index(local_linear(em))
    if what == "glinr":
        return em.from_index(_product(em, ctx.glob))
    return em.from_index(ctx.local_total)


def group_method(w, node, attr):
    em = w.em
    ctx = em.ctx
    if attr in ("get_group_id", "get_group_range", "get_local_range"):
        d = _dim(w, node, node.args, ctx.ndim)
        if attr == "get_group_id":
            return em.from_index(group_id(em, d))
        if attr == "get_group_range":
            return em.from_index(ctx.groups[d])
        return em.from_index(ctx.local[d])
    if node.args or node.keywords:
        raise w.error(node, f"{attr}() takes no arguments")
    if attr == "get_group_linear_id":
        return em.from_index(em.grp)
    if attr == "get_group_linear_range":
        return em.from_index(_product(em, ctx.groups))
    if attr == "get_local_linear_range":
        return em.from_index(ctx.local_total)
    if attr == "leader":
        z = em.ic(0)
        return em.op(
            f"arith.cmpi eq, {local_linear(em).name}, {z.name} : index", BOOL
        )
    raise w.error(node, f"Group has no method {attr!r}")


# --- private arrays and atomics ----------------------------------------------


def _static_shape(w, node, v):
    if isinstance(v, Const) and isinstance(v.value, int):
        v = (v,)
    if (
        not isinstance(v, tuple)
        or not v
        or not all(
            isinstance(e, Const) and isinstance(e.value, int) and e.value > 0
            for e in v
        )
    ):
        raise w.error(
            node,
            "the shape must be a positive constant integer or a tuple of them",
        )
    return tuple(e.value for e in v)


def private_array(w, node):
    em = w.em
    a = _bind(w, node, ["shape", "dtype", "fill_zeros"], ["shape"])
    shape = _static_shape(w, node, w.expr(a["shape"]))
    dt = _as_dtype(w, node, w.expr(a["dtype"])) if "dtype" in a else F64
    size = int(np.prod(shape))
    per_item = em.ctx.per_item_vars
    if per_item:
        c, n = em.fresh(), em.fresh()
        em.prologue.append(f"{c} = arith.constant {size} : index")
        em.prologue.append(
            f"{n} = arith.muli {em.ctx.local_total.name}, {c} : index"
        )
        name, mt = em.alloca_text(dt, Index(n))
    else:
        name, mt = em.alloca_text(dt, size)
    arr = ArrayRef(
        name,
        mt,
        dt,
        list(shape),
        "private",
        per_item=size if per_item else None,
        label="a PrivateArray",
    )
    fill = w.expr(a["fill_zeros"]) if "fill_zeros" in a else Const(False)
    if not isinstance(fill, Const):
        raise w.error(node, "fill_zeros must be a constant")
    if fill.value:
        c0, c1, cn = em.ic(0), em.ic(1), em.ic(size)
        iv = em.fresh()
        em.emit(f"scf.for {iv} = {c0.name} to {cn.name} step {c1.name} {{")
        em.depth += 1
        z = em.const(0, dt)
        idx = Index(iv)
        if arr.per_item is not None:
            idx = em.iadd(em.imul(em.cur_l, em.ic(size)), idx)
        em.emit(f"memref.store {z.name}, {name}[{idx.name}] : {mt}")
        em.depth -= 1
        em.emit("}")
    return arr


def atomic_ref(w, node):
    a = _bind(
        w,
        node,
        ["ref", "index", "memory_order", "memory_scope", "address_space"],
        ["ref"],
    )
    arr = w.expr(a["ref"])
    if not isinstance(arr, ArrayRef):
        raise w.error(node, "AtomicRef takes an array")
    if arr.dtype.kind not in "iuf" or arr.dtype.itemsize not in (4, 8):
        raise w.error(
            node,
            "AtomicRef needs an array of 32- or 64-bit "
            f"integers or floats, not {arr.dtype}",
        )
    if "index" in a:
        idx_node = a["index"]
        sl = idx_node
        idx = (
            w.flat_index(arr, sl, node)
            if arr.ndim > 1 or not isinstance(w.expr(sl), tuple)
            else w.flat_index(arr, sl, node)
        )
    else:
        if arr.ndim != 1:
            raise w.error(
                node, "AtomicRef of a multi-dimensional array needs an index"
            )
        idx = w.em.ic(0)
    order = w.expr(a["memory_order"]) if "memory_order" in a else Const(0)
    scope = w.expr(a["memory_scope"]) if "memory_scope" in a else Const(3)
    return AtomicObj(arr, idx, order, scope)


_RMW = {
    "fetch_add": ("addf", "addi", "addi"),
    "fetch_min": ("minimumf", "mins", "minu"),
    "fetch_max": ("maximumf", "maxs", "maxu"),
    "fetch_and": (None, "andi", "andi"),
    "fetch_or": (None, "ori", "ori"),
    "exchange": ("assign", "assign", "assign"),
}


def atomic_method(w, node, ref, attr):
    em = w.em
    arr = ref.arr if hasattr(ref, "arr") else ref.array
    dt = arr.dtype
    t = mlir_type(dt)
    kind = 0 if dt.kind == "f" else (1 if dt.kind == "i" else 2)
    if em.ctx.target == "cuda":
        return _kernel_cuda_atomics.atomic(w, node, ref, attr, _bind)
    if (
        em.ctx.target == "spirv"
        and attr != "load"
        and (arr.space != "local" or dt.kind == "f")
    ):
        if arr.space == "global" and dt.kind in "iu":
            return spirv_global_atomic(w, node, ref, attr)
        if (
            arr.space == "global"
            and dt.kind == "f"
            and attr
            in (
                "fetch_add",
                "fetch_sub",
                "fetch_min",
                "fetch_max",
                "exchange",
                "store",
            )
        ):
            return spirv_global_float_atomic(w, node, ref, attr)
        # MLIR 22 converts memref.atomic_rmw to SPIR-V only for integers
        # in workgroup memory; global memory takes SPIR-V atomics on
        # pointers.
        raise w.error(
            node,
            f"{attr} on {dt} is not supported on OpenCL "
            "and Level Zero queues yet (integer and float arrays "
            "in global memory and integer LocalAccessor memory "
            "are)",
        )
    if attr == "load":
        return em.op(
            f"memref.load {arr.buf}[{ref.index.name}] : {arr.mtype}", dt
        )
    if (
        attr in ("store", "exchange")
        or attr in _RMW
        or attr in ("fetch_sub", "fetch_xor")
    ):
        a = _bind(w, node, ["val", "order"], ["val"]) if attr != "load" else {}
        v = em.cast(em.materialize(w.scalar(a["val"])), dt)
        rmw = attr
        if attr == "store":
            rmw = "exchange"
        if attr == "fetch_sub":
            if dt.kind == "f":
                v = em.op(f"arith.negf {v.name} : {t}", dt)
            else:
                z = em.const(0, dt)
                v = em.op(f"arith.subi {z.name}, {v.name} : {t}", dt)
            rmw = "fetch_add"
        if attr == "fetch_xor":
            return _generic_rmw(
                w,
                node,
                arr,
                ref.index,
                dt,
                lambda cur: (
                    em.op(f"arith.xori {cur}, {v.name} : {t}", dt).name
                ),
            )
        k = _RMW[rmw][kind]
        if k is None:
            raise w.error(node, f"{attr} needs an integer array")
        r = em.op(
            f"memref.atomic_rmw {k} {v.name}, {arr.buf}["
            f"{ref.index.name}] : ({t}, {arr.mtype}) -> {t}",
            dt,
        )
        return PyObj(None) if attr == "store" else r
    if attr == "compare_exchange" and dt.kind == "f":
        return _kernel_cuda_atomics.compare_exchange(w, node, ref, _bind)
    if attr == "compare_exchange":
        a = _bind(w, node, *CAS_PARAMS)
        exp_arr, eidx, expected, desired = cas_operands(w, node, a, dt)
        cmp = "arith.cmpi eq"

        def update(cur):
            eq = em.op(f"{cmp}, {cur}, {expected.name} : {t}", BOOL)
            return em.select(eq, desired, Scalar(cur, dt), dt).name

        old = _generic_rmw(w, node, arr, ref.index, dt, update)
        ok = em.op(f"{cmp}, {old.name}, {expected.name} : {t}", BOOL)
        cas_store_found(em, ok, old, exp_arr, eidx)
        return ok
    raise w.error(node, f"AtomicRef has no method {attr!r}")


def _generic_rmw(w, node, arr, index, dt, update):
    em = w.em
    if em.ctx.target != "host":
        raise KernelError(
            "this atomic operation is supported on the host "
            "backend only for now",
            w.src.location(node),
        )
    t = mlir_type(dt)
    res = em.fresh()
    cur = em.fresh()
    em.emit(
        f"{res} = memref.generic_atomic_rmw {arr.buf}[{index.name}] : "
        f"{arr.mtype} {{"
    )
    em.emit(f"^bb0({cur}: {t}):")
    em.depth += 1
    new = update(cur)
    em.emit(f"memref.atomic_yield {new} : {t}")
    em.depth -= 1
    em.emit("}")
    return Scalar(res, dt)


_SPIRV_RMW = {
    "fetch_add": "AtomicIAdd",
    "fetch_sub": "AtomicISub",
    "fetch_and": "AtomicAnd",
    "fetch_or": "AtomicOr",
    "fetch_xor": "AtomicXor",
    "exchange": "AtomicExchange",
    "store": "AtomicExchange",
}


def spirv_global_atomic(w, node, ref, attr):
    """An atomic operation on a 32-bit integer of a global array of a
    SPIR-V kernel: SPIR-V's atomic instructions on a pointer made from the
    buffer's address (upstream's memref.atomic_rmw conversion takes
    workgroup memory only)."""
    em = w.em
    arr = ref.array
    dt = arr.dtype
    t = mlir_type(dt)
    u = dt.kind == "u"
    ptr_t = f"!spirv.ptr<{t}, CrossWorkgroup>"
    sem = "<SequentiallyConsistent|CrossWorkgroupMemory>"
    base = em.fresh()
    m1 = em.const(-1, I64)
    addr = em.op(f"arith.xori {arr.addr}, {m1.name} : i64", I64)
    em.emit(f"{base} = spirv.ConvertUToPtr {addr.name} : i64 to {ptr_t}")
    i = em.op(f"arith.index_cast {ref.index.name} : index to i64", I64)
    ep = em.fresh()
    em.emit(
        f"{ep} = spirv.InBoundsPtrAccessChain {base}[{i.name}] : "
        f"{ptr_t}, i64 -> {ptr_t}"
    )
    if attr == "compare_exchange":
        a = _bind(w, node, *CAS_PARAMS)
        exp_arr, eidx, expected, desired = cas_operands(w, node, a, dt)
        old = em.op(
            f"spirv.AtomicCompareExchange <Device> {sem} {sem} "
            f"{ep}, {desired.name}, {expected.name} : {ptr_t}",
            dt,
        )
        ok = em.op(f"arith.cmpi eq, {old.name}, {expected.name} : {t}", BOOL)
        cas_store_found(em, ok, old, exp_arr, eidx)
        return ok
    a = _bind(w, node, ["val", "order"], ["val"])
    v = em.cast(em.materialize(w.scalar(a["val"])), dt)
    if attr in ("fetch_min", "fetch_max"):
        o = ("AtomicU" if u else "AtomicS") + attr[6:].capitalize()
    elif attr in _SPIRV_RMW:
        o = _SPIRV_RMW[attr]
    else:
        raise w.error(node, f"AtomicRef has no method {attr!r}")
    r = em.op(f"spirv.{o} <Device> {sem} {ep}, {v.name} : {ptr_t}", dt)
    return PyObj(None) if attr == "store" else r


def spirv_global_float_atomic(w, node, ref, attr):
    """Float atomics on a global array of a SPIR-V kernel: a
    compare-and-swap loop on the element's bits."""
    em = w.em
    arr = ref.array
    fdt = arr.dtype
    ft = mlir_type(fdt)
    idt = np.dtype(f"i{fdt.itemsize}")
    it = mlir_type(idt)
    ptr_t = f"!spirv.ptr<{it}, CrossWorkgroup>"
    sem = "<SequentiallyConsistent|CrossWorkgroupMemory>"
    a = _bind(w, node, ["val", "order"], ["val"])
    v = em.cast(em.materialize(w.scalar(a["val"])), fdt)
    base = em.fresh()
    m1 = em.const(-1, I64)
    addr = em.op(f"arith.xori {arr.addr}, {m1.name} : i64", I64)
    em.emit(f"{base} = spirv.ConvertUToPtr {addr.name} : i64 to {ptr_t}")
    i = em.op(f"arith.index_cast {ref.index.name} : index to i64", I64)
    ep = em.fresh()
    em.emit(
        f"{ep} = spirv.InBoundsPtrAccessChain {base}[{i.name}] : "
        f"{ptr_t}, i64 -> {ptr_t}"
    )
    if attr in ("exchange", "store"):
        bits = em.op(f"arith.bitcast {v.name} : {ft} to {it}", idt)
        old = em.op(
            f"spirv.AtomicExchange <Device> {sem} {ep}, {bits.name} : {ptr_t}",
            idt,
        )
        if attr == "store":
            return PyObj(None)
        return em.op(f"arith.bitcast {old.name} : {it} to {ft}", fdt)
    combine = {
        "fetch_add": "arith.addf",
        "fetch_sub": "arith.subf",
        "fetch_min": "arith.minimumf",
        "fetch_max": "arith.maximumf",
    }[attr]
    zero = em.const(0, idt)
    res, expect, got = em.fresh(), em.fresh(), em.fresh()
    em.emit(f"{res} = scf.while ({expect} = {zero.name}) : ({it}) -> {it} {{")
    em.depth += 1
    of = em.op(f"arith.bitcast {expect} : {it} to {ft}", fdt)
    nf = em.op(f"{combine} {of.name}, {v.name} : {ft}", fdt)
    nb = em.op(f"arith.bitcast {nf.name} : {ft} to {it}", idt)
    g = em.op(
        f"spirv.AtomicCompareExchange <Device> {sem} {sem} {ep}, "
        f"{nb.name}, {expect} : {ptr_t}",
        idt,
    )
    retry = em.op(f"arith.cmpi ne, {g.name}, {expect} : {it}", BOOL)
    em.emit(f"scf.condition({retry.name}) {g.name} : {it}")
    em.depth -= 1
    em.emit("} do {")
    em.emit(f"^bb0({got}: {it}):")
    em.depth += 1
    em.emit(f"scf.yield {got} : {it}")
    em.depth -= 1
    em.emit("}")
    return em.op(f"arith.bitcast {res} : {it} to {ft}", fdt)
