"""The kernel language of ``@sluice.kernel``: index spaces, work-items,
workgroups, sub-groups, workgroup and private memory, barriers and
atomics.

The names and meanings follow numba-dpex's ``kernel_api`` (itself SYCL's):
a kernel is launched over a ``Range`` (independent work-items) or an
``NdRange`` (work-items in workgroups that share ``LocalAccessor`` memory
and meet at ``group_barrier``). Inside a kernel the first parameter is an
``Item`` (range kernels) or an ``NdItem`` (nd-range kernels)::

    from sluice import kernel_api as kapi

    @sluice.kernel
    def scale(item: kapi.Item, a, s):
        i = item.get_id(0)
        a[i] = a[i] * s

    sluice.call_kernel(scale, kapi.Range(a.shape[0]), a, 2.0)

Only ``Range``, ``NdRange``, ``LocalAccessor`` and the enumerations are
used outside kernels. The other classes and functions here describe what
the kernel compiler understands; calling them from plain Python raises
``RuntimeError``. See docs/kernels.md.
"""

import enum

import numpy as np

__all__ = [
    "AddressSpace",
    "AtomicRef",
    "Group",
    "GroupOp",
    "Item",
    "LocalAccessor",
    "MemoryOrder",
    "MemoryScope",
    "NdItem",
    "NdRange",
    "PrivateArray",
    "Range",
    "SubGroup",
    "atomic_fence",
    "exclusive_scan_over_group",
    "group_ballot",
    "group_barrier",
    "group_broadcast",
    "inclusive_scan_over_group",
    "permute_group_by_xor",
    "reduce_over_group",
    "select_from_group",
    "shift_group_left",
    "shift_group_right",
    "static_range",
]


def _sizes(what, values):
    if len(values) == 1 and isinstance(values[0], (tuple, list)):
        values = tuple(values[0])
    if not 1 <= len(values) <= 3:
        raise ValueError(f"{what} has 1, 2 or 3 dimensions, not {len(values)}")
    out = []
    for v in values:
        if isinstance(v, (bool, np.bool_)) or not isinstance(
            v, (int, np.integer)
        ):
            raise TypeError(
                f"{what} sizes must be integers, not {type(v).__name__}"
            )
        if v < 0:
            raise ValueError(f"{what} sizes must not be negative: {v}")
        out.append(int(v))
    return tuple(out)


class Range(tuple):
    """The sizes of a 1-, 2- or 3-dimensional index space: one work-item
    per index. ``Range(n)``, ``Range(n, m)``, ``Range(n, m, k)``; the last
    dimension varies fastest in linear ids."""

    def __new__(cls, *sizes):
        return super().__new__(cls, _sizes("Range", sizes))

    @property
    def ndim(self):
        return len(self)

    def get(self, dim):
        return self[dim]

    def size(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __repr__(self):
        return f"Range{tuple(self)!r}"


class NdRange:
    """A global ``Range`` split into workgroups of ``local_size`` (the same
    number of dimensions; each global size a multiple of the local one)."""

    def __init__(self, global_size, local_size):
        g = (
            global_size
            if isinstance(global_size, Range)
            else Range(
                *(
                    global_size
                    if isinstance(global_size, (tuple, list))
                    else (global_size,)
                )
            )
        )
        lo = (
            local_size
            if isinstance(local_size, Range)
            else Range(
                *(
                    local_size
                    if isinstance(local_size, (tuple, list))
                    else (local_size,)
                )
            )
        )
        if len(g) != len(lo):
            raise ValueError(
                f"NdRange: the global range {tuple(g)} and the local range "
                f"{tuple(lo)} have different numbers of dimensions"
            )
        for d, (gs, ls) in enumerate(zip(g, lo)):
            if ls == 0 or gs % ls:
                raise ValueError(
                    f"NdRange: global size {gs} of dimension {d} is not a "
                    f"multiple of the local size {ls}"
                )
        self._global = g
        self._local = lo

    @property
    def global_range(self):
        return self._global

    @property
    def local_range(self):
        return self._local

    def get_global_range(self):
        return self._global

    def get_local_range(self):
        return self._local

    @property
    def ndim(self):
        return len(self._global)

    def __eq__(self, other):
        return (
            isinstance(other, NdRange)
            and self._global == other._global
            and self._local == other._local
        )

    def __hash__(self):
        return hash((tuple(self._global), tuple(self._local)))

    def __repr__(self):
        return (
            f"NdRange(global_size={tuple(self._global)}, "
            f"local_size={tuple(self._local)})"
        )


class MemoryOrder(enum.IntEnum):
    """Memory orders of atomic operations and fences (SYCL's)."""

    RELAXED = 0
    ACQUIRE = 2
    RELEASE = 3
    ACQ_REL = 4
    SEQ_CST = 5


class MemoryScope(enum.IntEnum):
    """The work-items an atomic operation or fence orders memory for."""

    WORK_ITEM = 0
    SUB_GROUP = 1
    WORK_GROUP = 2
    DEVICE = 3
    SYSTEM = 4


class AddressSpace(enum.IntEnum):
    """Where the memory of an atomic reference lives."""

    PRIVATE = 0
    GLOBAL = 1
    CONSTANT = 2
    LOCAL = 3
    GENERIC = 4


class LocalAccessor:
    """Workgroup memory of ``shape`` and ``dtype``: one array per workgroup,
    shared by its work-items. Created on the host and passed to
    ``call_kernel`` as an argument of an nd-range kernel."""

    def __init__(self, shape, dtype=np.float32):
        if isinstance(shape, (int, np.integer)):
            shape = (int(shape),)
        shape = tuple(int(s) for s in shape)
        if not 1 <= len(shape) <= 3 or any(s <= 0 for s in shape):
            raise ValueError(
                "LocalAccessor: shape must have 1 to 3 positive "
                f"sizes, not {shape}"
            )
        from . import _dtypes

        self.shape = shape
        self.dtype = _dtypes.to_dtype(dtype)
        self.ndim = len(shape)

    def __repr__(self):
        return f"LocalAccessor(shape={self.shape}, dtype={self.dtype})"


def _only_in_kernels(name):
    raise RuntimeError(
        f"kernel_api.{name} can only be used inside a @sluice.kernel function"
    )


class _KernelOnly:
    def __init__(self, *args, **kwargs):
        _only_in_kernels(type(self).__name__)


class Item(_KernelOnly):
    """A work-item of a range kernel: ``get_id(d)``, ``get_range(d)``,
    ``get_linear_id()``, ``get_linear_range()``."""


class NdItem(_KernelOnly):
    """A work-item of an nd-range kernel: ``get_global_id(d)``,
    ``get_local_id(d)``, ``get_group()``, ``get_global_linear_id()``,
    ``get_local_linear_id()``, ``get_global_range(d)``,
    ``get_local_range(d)``, ``get_group_range(d)``, ``get_sub_group()``."""


class Group(_KernelOnly):
    """A workgroup: ``get_group_id(d)``, ``get_group_linear_id()``,
    ``get_group_range(d)``, ``get_group_linear_range()``,
    ``get_local_range(d)``, ``get_local_linear_range()``, ``leader()``."""


class SubGroup(_KernelOnly):
    """The sub-group of an nd-range work-item (``it.get_sub_group()``):
    work-items of one workgroup that run in lockstep and exchange values
    without workgroup memory. ``get_local_id()`` (the lane),
    ``get_local_range()`` (this sub-group's size),
    ``get_max_local_range()`` (a full sub-group's size, a compile-time
    constant: 32 on CUDA, 1 on the host and SPIR-V devices),
    ``get_group_id()``, ``get_group_range()``, ``leader()``; the
    ``*_linear_*`` spellings are the same. Sub-group ``k`` holds the
    workgroup's work-items of local linear ids ``k * max`` to
    ``k * max + max - 1``."""


class GroupOp(enum.IntEnum):
    """The combining operation of ``reduce_over_group`` and the scans."""

    ADD = 0
    MIN = 1
    MAX = 2
    MUL = 3


class PrivateArray(_KernelOnly):
    """``PrivateArray(shape, dtype, fill_zeros=False)``: an array of each
    work-item's own (static shape)."""


class AtomicRef(_KernelOnly):
    """``AtomicRef(array, index=0, memory_order=..., memory_scope=...,
    address_space=...)``: atomic operations on one element."""


def static_range(*args):
    """``range`` of constant integers whose loop the kernel compiler unrolls:
    the body once per value, the target a constant in each (private arrays
    indexed by it stay in registers; loads of different values can all be
    in flight). Outside kernels it is ``range``."""
    return range(*args)


def group_barrier(group, fence_scope=MemoryScope.WORK_GROUP):
    """Waits until every work-item of the group reaches the barrier; the
    memory they wrote before is visible to all after it."""
    _only_in_kernels("group_barrier")


def atomic_fence(memory_order, memory_scope):
    """Orders this work-item's memory accesses."""
    _only_in_kernels("atomic_fence")


# --- sub-group functions (every work-item of the sub-group calls them, in
# converged control flow; see docs/kernels.md) ------------------------------


def group_broadcast(group, x, local_id=0):
    """``x`` of the sub-group's work-item ``local_id``."""
    _only_in_kernels("group_broadcast")


def select_from_group(group, x, remote_local_id):
    """``x`` of work-item ``remote_local_id`` (any lane per work-item; an
    id outside the sub-group gives an unspecified value)."""
    _only_in_kernels("select_from_group")


def permute_group_by_xor(group, x, mask):
    """``x`` of the work-item whose local id is this one's xor ``mask``."""
    _only_in_kernels("permute_group_by_xor")


def shift_group_left(group, x, delta=1):
    """``x`` of local id + ``delta`` (unspecified past the end)."""
    _only_in_kernels("shift_group_left")


def shift_group_right(group, x, delta=1):
    """``x`` of local id - ``delta`` (unspecified before the start)."""
    _only_in_kernels("shift_group_right")


def group_ballot(group, predicate=True):
    """A uint32 whose bit ``k`` is set when work-item ``k`` of the
    sub-group has a true ``predicate``."""
    _only_in_kernels("group_ballot")


def reduce_over_group(group, x, op=GroupOp.ADD):
    """``op`` over the sub-group's ``x`` (every work-item gets it)."""
    _only_in_kernels("reduce_over_group")


def inclusive_scan_over_group(group, x, op=GroupOp.ADD):
    """``op`` over ``x`` of local ids 0 to this one's."""
    _only_in_kernels("inclusive_scan_over_group")


def exclusive_scan_over_group(group, x, op=GroupOp.ADD):
    """``op`` over ``x`` of the local ids before this one's (the identity:
    0, the type's largest or smallest value, at local id 0)."""
    _only_in_kernels("exclusive_scan_over_group")
