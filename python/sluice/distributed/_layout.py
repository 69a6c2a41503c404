"""Layouts of distributed arrays: a global shape split in blocks along one
axis over the ranks of a communicator, and the rules that say which
layouts meet in one operation (compute follows data, extended to
distributions)."""

from .._errors import PLACEMENT_MESSAGE, ExecutionPlacementError
from ._mpi import mpi


def balanced(n, size):
    """Block bounds of ``n`` items over ``size`` ranks: the first
    ``n % size`` ranks hold one more."""
    base, extra = divmod(n, size)
    bounds, lo = [], 0
    for r in range(size):
        hi = lo + base + (1 if r < extra else 0)
        bounds.append((lo, hi))
        lo = hi
    return tuple(bounds)


class Layout:
    """Where the elements of a distributed array live: ``shape`` (global),
    ``split`` (the axis cut in blocks, or None: every rank holds the whole
    array) and ``bounds`` (for each rank in order, the ``[lo, hi)`` of the
    split axis it holds; consecutive, covering the axis, possibly empty)."""

    __slots__ = ("comm", "shape", "split", "bounds")

    def __init__(self, comm, shape, split, bounds=None):
        self.comm = comm
        self.shape = tuple(int(d) for d in shape)
        if split is not None:
            if not -len(self.shape) <= split < len(self.shape):
                raise ValueError(
                    f"split axis {split} is out of bounds for "
                    f"an array of {len(self.shape)} dimensions"
                )
            split %= len(self.shape)
            n = self.shape[split]
            if bounds is None:
                bounds = balanced(n, comm.Get_size())
            bounds = tuple((int(lo), int(hi)) for lo, hi in bounds)
            if (
                len(bounds) != comm.Get_size()
                or bounds[0][0] != 0
                or bounds[-1][1] != n
                or any(a[1] != b[0] for a, b in zip(bounds, bounds[1:]))
                or any(hi < lo for lo, hi in bounds)
            ):
                raise ValueError(
                    f"bounds {bounds} do not cut an axis of "
                    f"{n} in {comm.Get_size()} blocks"
                )
        else:
            bounds = None
        self.split = split
        self.bounds = bounds

    @classmethod
    def _trusted(cls, comm, shape, split, bounds):
        """A layout of parts known to be consistent (no checks)."""
        self = cls.__new__(cls)
        self.comm, self.shape, self.split = comm, tuple(shape), split
        self.bounds = bounds if split is not None else None
        return self

    @property
    def rank(self):
        return self.comm.Get_rank()

    def local_bounds(self, rank=None):
        r = self.rank if rank is None else rank
        return self.bounds[r]

    def local_shape(self, rank=None):
        if self.split is None:
            return self.shape
        lo, hi = self.local_bounds(rank)
        s = list(self.shape)
        s[self.split] = hi - lo
        return tuple(s)

    def with_bounds(self, bounds):
        return Layout._trusted(
            self.comm, self.shape, self.split, tuple(bounds)
        )

    def describe(self):
        if self.split is None:
            return f"replicated over {_comm_name(self.comm)}"
        blocks = ", ".join(f"{lo}:{hi}" for lo, hi in self.bounds)
        return (
            f"split along axis {self.split} over "
            f"{_comm_name(self.comm)} in blocks [{blocks}]"
        )

    def __eq__(self, other):
        return (
            isinstance(other, Layout)
            and same_comm(self.comm, other.comm)
            and self.shape == other.shape
            and self.split == other.split
            and self.bounds == other.bounds
        )

    def __hash__(self):
        return hash((self.shape, self.split, self.bounds))

    def __repr__(self):
        return f"Layout(shape={self.shape}, {self.describe()})"


def _comm_name(comm):
    name = comm.Get_name() or "a communicator"
    return f"{name} ({comm.Get_size()} ranks)"


def same_comm(a, b):
    if a is b:
        return True
    MPI = mpi()
    return MPI.Comm.Compare(a, b) == MPI.IDENT


def check_comms(arrays, what="operation"):
    """ExecutionPlacementError unless every distributed array of
    ``arrays`` is on one communicator."""
    first = arrays[0]
    for other in arrays[1:]:
        if not same_comm(first.comm, other.comm):
            raise ExecutionPlacementError(
                f"{PLACEMENT_MESSAGE} The arrays of this {what} are "
                f"distributed over different communicators: "
                f"{_comm_name(first.comm)} and {_comm_name(other.comm)} "
                "(communicators are equal only when MPI says they are "
                "identical); gather one with asnumpy() and distribute it "
                "over the other's communicator."
            )


def incompatible(a, b, why):
    return ExecutionPlacementError(
        f"{PLACEMENT_MESSAGE} The arrays are distributed in incompatible "
        f"layouts: one is {a.describe()} and the other {b.describe()} "
        f"({why}); redistribute one with x.redistribute(split=...)."
    )
