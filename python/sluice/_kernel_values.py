"""Values of the kernel compiler (see _kernel_codegen): scalars as SSA
names with NumPy dtypes, Python constants, arrays (flat buffers with their
sizes), work-items, groups and atomic references."""

import numpy as np

from . import _dtypes

I64 = np.dtype(np.int64)
F64 = np.dtype(np.float64)
BOOL = np.dtype(np.bool_)


def mlir_type(dt):
    """The signless MLIR type of scalars of ``dt``."""
    return _dtypes.SIGNLESS[_dtypes.CODES[dt]]


class Scalar:
    """An SSA scalar of ``dt``. ``weak`` (int or float) marks a value that
    types like a Python number (NEP 50: ``x * 2`` keeps x's dtype);
    ``nonneg`` one known not to be negative (ids, sizes), whose array
    indices need no wrap-around."""

    __slots__ = ("name", "dt", "weak", "nonneg")

    def __init__(self, name, dt, weak=None, nonneg=False):
        self.name = name
        self.dt = dt
        self.weak = weak
        self.nonneg = nonneg

    @property
    def type(self):
        return mlir_type(self.dt)


class Const:
    """A Python number known at compile time (folded where it can be)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class Index:
    """An SSA value of MLIR's ``index`` type (internal only)."""

    __slots__ = ("name", "ok")

    def __init__(self, name):
        self.name = name
        # A flat array index under bounds checking: the i1 value that says
        # it is in bounds (loads and stores are skipped where it is not).
        self.ok = None


class ArrayRef:
    """An array inside a kernel: a flat buffer ``buf`` (memref type text
    ``mtype``) of ``dtype``, its sizes (Index values, or ints for static
    shapes) and where it lives ("global", "local", "private")."""

    __slots__ = (
        "buf",
        "mtype",
        "dtype",
        "dims",
        "space",
        "per_item",
        "addr",
        "label",
    )

    def __init__(
        self, buf, mtype, dtype, dims, space, per_item=None, label=None
    ):
        self.label = label  # how bounds-check errors name it
        self.buf = buf
        self.mtype = mtype
        self.dtype = dtype
        self.dims = dims
        self.space = space
        # For private arrays of host nd-range kernels with barriers: the
        # number of elements of one work-item's copy (the buffer holds one
        # copy per work-item).
        self.per_item = per_item
        # SPIR-V kernels: the buffer's address as an i64 argument (global
        # atomics are SPIR-V ops on a pointer made from it).
        self.addr = None

    @property
    def ndim(self):
        return len(self.dims)


class ItemObj:
    """``kapi.Item`` (nd=False) or ``kapi.NdItem`` (nd=True)."""

    __slots__ = ("nd",)

    def __init__(self, nd):
        self.nd = nd


class GroupObj:
    __slots__ = ()


class SubGroupObj:
    """``it.get_sub_group()`` (see _kernel_subgroups)."""

    __slots__ = ()


class AtomicObj:
    """``kapi.AtomicRef(array, index)``: the array and the element's flat
    index (Index)."""

    __slots__ = ("array", "index", "order", "scope")

    def __init__(self, array, index, order, scope):
        self.array = array
        self.index = index
        self.order = order
        self.scope = scope


class PyObj:
    """A Python object the kernel names (a module, a function, an enum):
    resolved at compile time."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj


# compare_exchange's parameters: all of them, and the required ones.
CAS_PARAMS = (
    ["expected", "desired", "success", "failure", "expected_idx"],
    ["expected", "desired"],
)


def cas_operands(w, node, a, dt):
    """compare_exchange's operands from its bound arguments ``a``: the
    array whose element receives the value found, that element's flat
    index, and the expected and desired values as ``dt``."""
    em = w.em
    exp_arr = w.expr(a["expected"])
    if not isinstance(exp_arr, ArrayRef):
        raise w.error(
            node,
            "compare_exchange's expected value is an "
            "array whose element receives the value found",
        )
    eidx = (
        w.flat_index(exp_arr, a["expected_idx"], node)
        if "expected_idx" in a
        else em.ic(0)
    )
    expected = em.cast(
        em.op(
            f"memref.load {exp_arr.buf}[{eidx.name}] : {exp_arr.mtype}",
            exp_arr.dtype,
        ),
        dt,
    )
    desired = em.cast(em.materialize(w.scalar(a["desired"])), dt)
    return exp_arr, eidx, expected, desired


def cas_store_found(em, ok, old, exp_arr, eidx):
    """Where the exchange failed (``ok`` false), the value found goes to
    the expected value's element."""
    em.emit(f"scf.if {ok.name} {{")
    em.emit("} else {")
    em.depth += 1
    o = em.cast(old, exp_arr.dtype)
    em.emit(
        f"memref.store {o.name}, {exp_arr.buf}[{eidx.name}] : {exp_arr.mtype}"
    )
    em.depth -= 1
    em.emit("}")
