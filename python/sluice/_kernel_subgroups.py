"""Sub-groups of nd-range kernels (see _kernel_calls): ``it.get_sub_group()``,
its queries, and the group functions over it (broadcast, shuffles, ballot,
reductions and scans).

On CUDA a sub-group is a warp: 32 consecutive work-items of the workgroup
(the last one shorter where the workgroup size is not a multiple of 32);
the functions are PTX's warp instructions (``shfl.sync``,
``vote.sync.ballot``) on the warp's member mask. On the host and on SPIR-V
devices a sub-group is one work-item (a size SYCL allows): every function
then returns the work-item's own value (an exclusive scan the identity,
a ballot its predicate as bit 0), so code written for any sub-group size
runs there unchanged.
"""

import numpy as np

from . import kernel_api as kapi
from ._kernel_values import BOOL, I64, Const, PyObj, Scalar, mlir_type

WARP = 32
U32 = np.dtype(np.uint32)
I32 = np.dtype(np.int32)
_OPS = {int(kapi.GroupOp.ADD): "add", int(kapi.GroupOp.MIN): "min"}
_OPS[int(kapi.GroupOp.MAX)] = "max"
_OPS[int(kapi.GroupOp.MUL)] = "mul"


def _warp(em):
    return em.ctx.target == "cuda"


def max_size(em):
    """Work-items of a full sub-group on this target (a constant)."""
    return WARP if _warp(em) else 1


def _i32_of_index(em, i):
    return em.op(f"arith.index_cast {i.name} : index to i32", I32)


def prologue(em):
    """At the kernel's entry (CUDA nd-range kernels): the lane, the
    sub-group's size and its member mask, which every function uses (dead
    code where none is called)."""
    em.sg = None
    em.sg = (lane(em), _size(em), _member_mask(em))


def lane(em):
    """This work-item's id in its sub-group (i32, CUDA)."""
    if getattr(em, "sg", None):
        return em.sg[0]
    t = _i32_of_index(em, em.lid)
    m = em.const(WARP - 1, I32)
    return em.op(f"arith.andi {t.name}, {m.name} : i32", I32)


def _size(em):
    """This sub-group's size (i32, CUDA): 32 but in a last, short warp."""
    if getattr(em, "sg", None):
        return em.sg[1]
    t = _i32_of_index(em, em.lid)
    lt = _i32_of_index(em, em.ctx.local_total)
    m = em.const(-WARP, I32)
    first = em.op(f"arith.andi {t.name}, {m.name} : i32", I32)
    rest = em.op(f"arith.subi {lt.name}, {first.name} : i32", I32)
    w = em.const(WARP, I32)
    return em.op(f"arith.minsi {rest.name}, {w.name} : i32", I32)


def _member_mask(em):
    """The warp's member mask: all 32 lanes, or the low ``size`` ones."""
    if getattr(em, "sg", None):
        return em.sg[2]
    s = _size(em)
    one = em.const(1, I32)
    sh = em.op(f"arith.shli {one.name}, {s.name} : i32", I32)
    low = em.op(f"arith.subi {sh.name}, {one.name} : i32", I32)
    w = em.const(WARP, I32)
    full = em.op(f"arith.cmpi sge, {s.name}, {w.name} : i32", BOOL)
    allm = em.const(-1, I32)
    return em.op(
        f"arith.select {full.name}, {allm.name}, {low.name} : i32", I32
    )


def method(w, node, attr):
    """A method of a SubGroup."""
    em = w.em
    if node.args or node.keywords:
        raise w.error(node, f"SubGroup.{attr}() takes no arguments")
    warp = _warp(em)
    if attr in ("get_local_id", "get_local_linear_id"):
        if not warp:
            return Scalar(em.const(0, I64).name, I64, nonneg=True)
        return _nonneg(em.cast(lane(em), I64))
    if attr in ("get_local_range", "get_local_linear_range"):
        if not warp:
            return _nonneg(em.const(1, I64))
        return _nonneg(em.cast(_size(em), I64))
    if attr == "get_max_local_range":
        return Const(max_size(em))
    if attr in ("get_group_id", "get_group_linear_id"):
        from ._kernel_calls import local_linear

        li = local_linear(em)
        if warp:
            li = em.idiv(li, em.ic(WARP))
        return em.from_index(li)
    if attr in ("get_group_range", "get_group_linear_range"):
        lt = em.ctx.local_total
        if warp:
            lt = em.idiv(em.iadd(lt, em.ic(WARP - 1)), em.ic(WARP))
        return em.from_index(lt)
    if attr == "leader":
        if not warp:
            return em.const(True, BOOL)
        z = em.const(0, I32)
        return em.op(f"arith.cmpi eq, {lane(em).name}, {z.name} : i32", BOOL)
    raise w.error(node, f"SubGroup has no method {attr!r}")


def _nonneg(s):
    s.nonneg = True
    return s


# --- moving values between lanes (CUDA) -------------------------------------


def _words(em, v):
    """``v`` as 32-bit words for shfl.sync, and how to rebuild it."""
    dt = v.dt
    if dt.kind == "b":
        return [em.op(f"arith.extui {v.name} : i1 to i32", I32)]
    t = mlir_type(dt)
    if dt.itemsize == 8:
        b = (
            em.op(f"arith.bitcast {v.name} : {t} to i64", I64)
            if (dt.kind == "f")
            else Scalar(v.name, I64)
        )
        lo = em.op(f"arith.trunci {b.name} : i64 to i32", I32)
        s = em.const(32, I64)
        hi0 = em.op(f"arith.shrui {b.name}, {s.name} : i64", I64)
        hi = em.op(f"arith.trunci {hi0.name} : i64 to i32", I32)
        return [lo, hi]
    if dt.itemsize == 4:
        if dt.kind == "f":
            return [em.op(f"arith.bitcast {v.name} : {t} to i32", I32)]
        return [Scalar(v.name, I32)]
    # 1- and 2-byte values
    n = dt.itemsize * 8
    ni = np.dtype(f"i{dt.itemsize}")
    b = (
        em.op(f"arith.bitcast {v.name} : {t} to i{n}", ni)
        if dt.kind == "f"
        else v
    )
    return [em.op(f"arith.extui {b.name} : i{n} to i32", I32)]


def _unwords(em, ws, dt):
    if dt.kind == "b":
        z = em.const(0, I32)
        return em.op(f"arith.cmpi ne, {ws[0].name}, {z.name} : i32", dt)
    t = mlir_type(dt)
    if dt.itemsize == 8:
        lo = em.op(f"arith.extui {ws[0].name} : i32 to i64", I64)
        hi = em.op(f"arith.extui {ws[1].name} : i32 to i64", I64)
        s = em.const(32, I64)
        hs = em.op(f"arith.shli {hi.name}, {s.name} : i64", I64)
        b = em.op(f"arith.ori {hs.name}, {lo.name} : i64", I64)
        if dt.kind == "f":
            return em.op(f"arith.bitcast {b.name} : i64 to {t}", dt)
        return Scalar(b.name, dt)
    if dt.itemsize == 4:
        if dt.kind == "f":
            return em.op(f"arith.bitcast {ws[0].name} : i32 to {t}", dt)
        return Scalar(ws[0].name, dt)
    n = dt.itemsize * 8
    b = em.op(
        f"arith.trunci {ws[0].name} : i32 to i{n}",
        np.dtype(f"i{dt.itemsize}"),
    )
    if dt.kind == "f":
        return em.op(f"arith.bitcast {b.name} : i{n} to {t}", dt)
    return Scalar(b.name, dt)


def shuffle(em, kind, v, operand, mask=None):
    """PTX's shfl.sync of ``kind`` (idx, bfly, up, down) of ``v`` with the
    i32 ``operand`` (source lane, xor mask or delta)."""
    mask = mask or _member_mask(em)
    c = em.const(0 if kind == "up" else WARP - 1, I32)
    out = []
    for x in _words(em, v):
        out.append(
            em.op(
                f"nvvm.shfl.sync {kind} {mask.name}, {x.name}, "
                f"{operand.name}, {c.name} : i32 -> i32",
                I32,
            )
        )
    r = _unwords(em, out, v.dt)
    r.weak = v.weak
    return r


def _to_i32(em, v):
    v = em.materialize(v)
    if v.dt.kind not in "iub":
        raise em.error("a sub-group lane, xor mask or delta is an integer")
    return em.cast(v, I32)


# --- the group functions ----------------------------------------------------


def _bind(w, node, names, required):
    from ._kernel_calls import _bind as bind

    return bind(w, node, names, required)


def _sub_group(w, node, a):
    from ._kernel_values import SubGroupObj

    g = w.expr(a["group"])
    if not isinstance(g, SubGroupObj):
        raise w.error(
            node,
            "the group functions take a SubGroup (it.get_sub_group()) in "
            "kernels; workgroups combine values through LocalAccessor "
            "memory and group_barrier",
        )


def _value(w, node, a):
    v = w.scalar(a["x"])
    return w.em.materialize(v)


def _group_op(w, node, a):
    op = w.expr(a["op"]) if "op" in a else Const(int(kapi.GroupOp.ADD))
    if isinstance(op, PyObj) and isinstance(op.obj, int):
        op = Const(int(op.obj))
    if not isinstance(op, Const) or int(op.value) not in _OPS:
        raise w.error(node, "op must be a constant of kapi.GroupOp")
    return _OPS[int(op.value)]


_SHUFFLES = {
    "group_broadcast": ("idx", "local_id", False),
    "select_from_group": ("idx", "remote_local_id", True),
    "permute_group_by_xor": ("bfly", "mask", True),
    "shift_group_left": ("down", "delta", False),
    "shift_group_right": ("up", "delta", False),
}


def call(w, node, fn):
    """A group function of kernel_api on a sub-group."""
    em = w.em
    name = fn.__name__
    if not em.ctx.nd:
        raise w.error(node, f"{name} needs an nd-range kernel (kapi.NdRange)")
    if name in _SHUFFLES:
        kind, arg, required = _SHUFFLES[name]
        a = _bind(
            w, node, ["group", "x", arg], ["group", "x"] + [arg] * required
        )
        _sub_group(w, node, a)
        v = _value(w, node, a)
        if arg in a:
            o = _to_i32(em, w.scalar(a[arg]))
        else:
            o = em.const(1 if kind in ("up", "down") else 0, I32)
        if not _warp(em):
            return v
        return shuffle(em, kind, v, o)
    if name == "group_ballot":
        a = _bind(w, node, ["group", "predicate"], ["group"])
        _sub_group(w, node, a)
        p = (
            em.cast(em.materialize(w.scalar(a["predicate"])), BOOL)
            if "predicate" in a
            else em.const(True, BOOL)
        )
        if not _warp(em):
            return em.cast(p, U32)
        m = _member_mask(em)
        b = em.op(f"nvvm.vote.sync ballot {m.name}, {p.name} -> i32", I32)
        return Scalar(b.name, U32, nonneg=True)
    a = _bind(w, node, ["group", "x", "op"], ["group", "x"])
    _sub_group(w, node, a)
    v = _value(w, node, a)
    if v.dt.kind not in "iuf":
        raise w.error(node, f"{name} takes numbers, not {v.dt}")
    op = _group_op(w, node, a)
    if name == "reduce_over_group":
        return _reduce(em, v, op)
    if name == "inclusive_scan_over_group":
        return _scan(em, v, op)
    return _exclusive(em, v, op)


def _combine(em, op, a, b):
    r = em.arith(op, a, b, a.dt)
    r.weak = a.weak
    return r


def _scan(em, v, op):
    """Inclusive scan over the warp: log2(32) shuffles up; a lane below
    the distance keeps its value (no identity is ever combined)."""
    if not _warp(em):
        return v
    m = _member_mask(em)
    ln = lane(em)
    d = 1
    while d < WARP:
        dd = em.const(d, I32)
        y = shuffle(em, "up", v, dd, m)
        ok = em.op(f"arith.cmpi sge, {ln.name}, {dd.name} : i32", BOOL)
        s = _combine(em, op, y, v)
        v = em.select(ok, s, v, v.dt)
        d *= 2
    return v


def _reduce(em, v, op):
    """The scan's last lane, broadcast (right for short warps too)."""
    if not _warp(em):
        return v
    s = _scan(em, v, op)
    one = em.const(1, I32)
    last = em.op(f"arith.subi {_size(em).name}, {one.name} : i32", I32)
    return shuffle(em, "idx", s, last)


def identity(em, dt, op):
    if op in ("add", "mul"):
        return em.const(int(op == "mul"), dt)
    if dt.kind == "f":
        return em.const(np.inf if op == "min" else -np.inf, dt)
    info = np.iinfo(dt)
    return em.const(info.max if op == "min" else info.min, dt)


def _exclusive(em, v, op):
    """The inclusive scan shifted one lane up; lane 0 the identity."""
    idn = identity(em, v.dt, op)
    idn.weak = v.weak
    if not _warp(em):
        return idn
    s = _scan(em, v, op)
    one = em.const(1, I32)
    y = shuffle(em, "up", s, one)
    z = em.const(0, I32)
    first = em.op(f"arith.cmpi eq, {lane(em).name}, {z.name} : i32", BOOL)
    return em.select(first, idn, y, v.dt)


FUNCTIONS = (
    kapi.group_broadcast,
    kapi.select_from_group,
    kapi.permute_group_by_xor,
    kapi.shift_group_left,
    kapi.shift_group_right,
    kapi.group_ballot,
    kapi.reduce_over_group,
    kapi.inclusive_scan_over_group,
    kapi.exclusive_scan_over_group,
)
