"""Atomics and fences of CUDA kernels (see _kernel_calls): LLVM's atomic
instructions on a pointer to the element, with the memory order and the
synchronisation scope the kernel asked for. The NVPTX back end turns them
into ``atom``/``red``/``ld``/``st`` with ``.relaxed``/``.acquire``/...
and ``.cta``/``.gpu``/``.sys`` qualifiers, and into ``atom.cas`` loops for
the operations PTX lacks (float minima and maxima, float subtraction)."""

import numpy as np

from ._kernel_values import (
    BOOL,
    CAS_PARAMS,
    I64,
    Const,
    PyObj,
    Scalar,
    cas_operands,
    cas_store_found,
    mlir_type,
)

# kapi.MemoryOrder -> LLVM's atomic ordering.
_ORDERS = {
    0: "monotonic",  # RELAXED
    2: "acquire",
    3: "release",
    4: "acq_rel",
    5: "seq_cst",
}
# kapi.MemoryScope -> NVPTX's synchronisation scopes. PTX has no warp
# scope: a sub-group's atomics take the next wider one, the block.
_SCOPES = {
    0: "singlethread",  # WORK_ITEM
    1: "block",  # SUB_GROUP
    2: "block",  # WORK_GROUP
    3: "device",  # DEVICE
    4: "",  # SYSTEM (LLVM's default scope)
}
# Where the array lives -> NVPTX address space.
_SPACES = {"global": 1, "local": 3, "private": 0}

_INT_RMW = {
    "fetch_add": "add",
    "fetch_sub": "sub",
    "fetch_and": "_and",
    "fetch_or": "_or",
    "fetch_xor": "_xor",
    "exchange": "xchg",
}
# NaN-propagating float minima and maxima, as the host's.
_FLOAT_RMW = {
    "fetch_add": "fadd",
    "fetch_sub": "fsub",
    "fetch_min": "fminimum",
    "fetch_max": "fmaximum",
    "exchange": "xchg",
}


def _constant(w, node, v, what, table):
    if isinstance(v, PyObj) and isinstance(v.obj, int):
        v = Const(v.obj)
    if not isinstance(v, Const) or int(v.value) not in table:
        raise w.error(node, f"{what} must be a constant of kernel_api's enum")
    return int(v.value)


def _scope(scope):
    s = _SCOPES[scope]
    return f'syncscope("{s}") ' if s else ""


def fence(w, node, order, scope):
    """``atomic_fence(memory_order, memory_scope)``: an LLVM fence (a
    relaxed fence orders nothing and emits nothing)."""
    o = _constant(w, node, order, "memory_order", _ORDERS)
    s = _constant(w, node, scope, "memory_scope", _SCOPES)
    if o != 0:
        w.em.emit(f"llvm.fence {_scope(s)}{_ORDERS[o]}")


def _pointer(em, arr, index):
    """An LLVM pointer to element ``index`` of ``arr``."""
    space = _SPACES[arr.space] if em.ctx.target == "cuda" else 0
    ptr_t = f"!llvm.ptr<{space}>" if space else "!llvm.ptr"
    x = em.iop(
        f"memref.extract_aligned_pointer_as_index {arr.buf} : "
        f"{arr.mtype} -> index"
    )
    xi = em.op(f"arith.index_cast {x.name} : index to i64", I64)
    base = em.op(f"llvm.inttoptr {xi.name} : i64 to {ptr_t}", None)
    i = em.op(f"arith.index_cast {index.name} : index to i64", I64)
    t = mlir_type(arr.dtype)
    p = em.op(
        f"llvm.getelementptr inbounds {base.name}[{i.name}] : "
        f"({ptr_t}, i64) -> {ptr_t}, {t}",
        None,
    )
    return p, ptr_t


def _load_order(o):
    # A load cannot release: release and acq_rel loads acquire.
    return {3: 2, 4: 2}.get(o, o)


def _store_order(o):
    # A store cannot acquire: acquire and acq_rel stores release.
    return {2: 3, 4: 3}.get(o, o)


def atomic(w, node, ref, attr, bind):
    """An AtomicRef method of a CUDA kernel."""
    em = w.em
    arr = ref.array
    dt = arr.dtype
    t = mlir_type(dt)
    order = _constant(w, node, ref.order, "memory_order", _ORDERS)
    scope_id = _constant(w, node, ref.scope, "memory_scope", _SCOPES)
    scope = _scope(scope_id)
    align = dt.itemsize
    if attr == "load":
        bind(w, node, ["order"], [])
        p, ptr_t = _pointer(em, arr, ref.index)
        o = _ORDERS[_load_order(order)]
        return em.op(
            f"llvm.load {p.name} atomic {scope}{o} {{alignment = {align} : "
            f"i64}} : {ptr_t} -> {t}",
            dt,
        )
    if attr == "compare_exchange":
        return _compare_exchange(w, node, ref, order, scope, bind)
    a = bind(w, node, ["val", "order"], ["val"])
    v = em.cast(em.materialize(w.scalar(a["val"])), dt)
    p, ptr_t = _pointer(em, arr, ref.index)
    if attr == "store":
        o = _ORDERS[_store_order(order)]
        em.emit(
            f"llvm.store {v.name}, {p.name} atomic {scope}{o} "
            f"{{alignment = {align} : i64}} : {t}, {ptr_t}"
        )
        return PyObj(None)
    if dt.kind == "f":
        op = _FLOAT_RMW.get(attr)
        if op is None:
            raise w.error(node, f"{attr} needs an integer array")
    elif attr in ("fetch_min", "fetch_max"):
        op = ("u" if dt.kind == "u" else "") + attr[6:]
    else:
        op = _INT_RMW.get(attr)
    if op is None:
        raise w.error(node, f"AtomicRef has no method {attr!r}")
    if scope_id == 4:
        return _cas_loop(em, op, p, ptr_t, v, dt, order)
    # NVPTX lowers the read-modify-writes that PTX has (atom.add, .min,
    # .and, .exch, ...) as relaxed atom at GPU scope whatever their order
    # and scope: the order is made of fences at the scope asked for (a
    # release fence before, an acquire fence after, fence.sc before a
    # sequentially consistent one), as PTX's memory model maps C++'s.
    if order in (3, 4, 5):
        em.emit(f"llvm.fence {scope}{'seq_cst' if order == 5 else 'release'}")
    r = em.op(
        f"llvm.atomicrmw {op} {p.name}, {v.name} {scope}monotonic "
        f": {ptr_t}, {t}",
        dt,
    )
    if order in (2, 4, 5):
        em.emit(f"llvm.fence {scope}acquire")
    return r


_COMBINE = {
    "add": "arith.addi",
    "sub": "arith.subi",
    "_and": "arith.andi",
    "_or": "arith.ori",
    "_xor": "arith.xori",
    "min": "arith.minsi",
    "max": "arith.maxsi",
    "umin": "arith.minui",
    "umax": "arith.maxui",
    "fadd": "arith.addf",
    "fsub": "arith.subf",
    "fminimum": "arith.minimumf",
    "fmaximum": "arith.maximumf",
}


def _cas_loop(em, op, p, ptr_t, v, dt, order):
    """A read-modify-write at system scope: a compare-and-swap loop on the
    element's bits (NVPTX keeps the scope of cmpxchg, not of the
    read-modify-writes it lowers to atom)."""
    t = mlir_type(dt)
    idt = np.dtype(f"i{dt.itemsize}")
    it = mlir_type(idt)
    f = dt.kind == "f"
    cur = em.op(
        f"llvm.load {p.name} atomic monotonic {{alignment = {dt.itemsize} : "
        f"i64}} : {ptr_t} -> {it}",
        idt,
    )
    res, expect, got = em.fresh(), em.fresh(), em.fresh()
    em.emit(f"{res} = scf.while ({expect} = {cur.name}) : ({it}) -> {it} {{")
    em.depth += 1
    if op == "xchg":
        new = em.op(f"arith.bitcast {v.name} : {t} to {it}", idt) if f else v
    elif f:
        old = em.op(f"arith.bitcast {expect} : {it} to {t}", dt)
        nf = em.op(f"{_COMBINE[op]} {old.name}, {v.name} : {t}", dt)
        new = em.op(f"arith.bitcast {nf.name} : {t} to {it}", idt)
    else:
        new = em.op(f"{_COMBINE[op]} {expect}, {v.name} : {it}", idt)
    pair = em.op(
        f"llvm.cmpxchg {p.name}, {expect}, {new.name} {_ORDERS[order]} "
        f"{_ORDERS[_load_order(order)]} : {ptr_t}, {it}",
        None,
    )
    st = f"!llvm.struct<({it}, i1)>"
    old = em.op(f"llvm.extractvalue {pair.name}[0] : {st}", idt)
    ok = em.op(f"llvm.extractvalue {pair.name}[1] : {st}", BOOL)
    one = em.op("arith.constant true", BOOL)
    retry = em.op(f"arith.xori {ok.name}, {one.name} : i1", BOOL)
    em.emit(f"scf.condition({retry.name}) {old.name} : {it}")
    em.depth -= 1
    em.emit("} do {")
    em.emit(f"^bb0({got}: {it}):")
    em.depth += 1
    em.emit(f"scf.yield {got} : {it}")
    em.depth -= 1
    em.emit("}")
    if f:
        return em.op(f"arith.bitcast {res} : {it} to {t}", dt)
    return Scalar(res, dt)


def compare_exchange(w, node, ref, bind):
    """compare_exchange on the host (used for floats, which the host's
    generic read-modify-write cannot compare-and-swap): LLVM's cmpxchg,
    sequentially consistent."""
    return _compare_exchange(w, node, ref, 5, "", bind)


def _compare_exchange(w, node, ref, order, scope, bind):
    """``compare_exchange(expected, desired)``: LLVM's cmpxchg (floats
    compare their bits, as C++'s and SYCL's compare_exchange do); the value
    found goes to ``expected`` when it differs."""
    em = w.em
    arr = ref.array
    dt = arr.dtype
    a = bind(w, node, *CAS_PARAMS)
    succ = order
    if "success" in a:
        succ = _constant(w, node, w.expr(a["success"]), "success", _ORDERS)
    fail = _load_order(succ)
    if "failure" in a:
        fail = _constant(w, node, w.expr(a["failure"]), "failure", _ORDERS)
        fail = _load_order(fail)
    # LLVM: the failure order is no stronger than the success order.
    if fail == 5 and succ != 5:
        fail = 2
    exp_arr, eidx, expected, desired = cas_operands(w, node, a, dt)
    p, ptr_t = _pointer(em, arr, ref.index)
    idt = np.dtype(f"i{dt.itemsize}")
    it = mlir_type(idt)
    t = mlir_type(dt)
    if dt.kind == "f":
        expected = em.op(f"arith.bitcast {expected.name} : {t} to {it}", idt)
        desired = em.op(f"arith.bitcast {desired.name} : {t} to {it}", idt)
    pair = em.op(
        f"llvm.cmpxchg {p.name}, {expected.name}, {desired.name} {scope}"
        f"{_ORDERS[succ]} {_ORDERS[fail]} : {ptr_t}, {it}",
        None,
    )
    old = em.op(
        f"llvm.extractvalue {pair.name}[0] : !llvm.struct<({it}, i1)>", idt
    )
    ok = em.op(
        f"llvm.extractvalue {pair.name}[1] : !llvm.struct<({it}, i1)>", BOOL
    )
    if dt.kind == "f":
        old = em.op(f"arith.bitcast {old.name} : {it} to {t}", dt)
    else:
        old.dt = dt
    cas_store_found(em, ok, old, exp_arr, eidx)
    return ok
