"""More than one device: Sluice arrays with MPI (mpi4py).

Two layers (docs/distributed.md is the guide):

* **MPI interoperability.** A ``sluice.Array`` goes to mpi4py as it is
  (``comm.Send(x, dest=1)``, ``comm.Allreduce(x, y)``) where the host can
  reach its memory; ``__dlpack__`` waits for the work that produces ``x``,
  so the message is ordered after it. Device memory MPI cannot read goes
  through ``staged(x)``: a visible copy into USM host memory on ``x``'s
  queue. Pickled messages (``comm.send(x)``) carry the data and the
  device's filter string.
* **Distributed arrays** (``DArray``): a global array split in blocks along
  one axis over a communicator's ranks, each block on its rank's device
  queue; elementwise functions and operators, reductions, slicing with
  realignment (the halo exchange of a stencil), redistribution between
  layouts. Mixing arrays of different communicators or incompatible
  layouts raises ``ExecutionPlacementError``.

Every rank runs the same program (SPMD): start it with
``mpirun -n 4 python prog.py``.
"""

import sluice as _sluice
from sluice import _jit

from ._darray import (
    DArray,
    all,
    any,
    arange,
    asarray,
    asnumpy,  # noqa: F401
    check_placement,
    default_device,
    elementwise,
    empty,
    empty_like,
    from_local,
    full,
    full_like,
    map_blocks,
    matmul,
    max,
    mean,
    min,
    ones,
    ones_like,
    prod,
    reduce,
    reset_stats,
    stats,
    sum,
    zeros,
    zeros_like,
)
from ._layout import Layout, balanced, same_comm  # noqa: F401
from ._mpi import (
    buffer,
    device_aware,
    mpi,
    passable,  # noqa: F401
    staged,
    world,
)

# Elementwise functions of sluice, lifted to distributed arrays (block by
# block, after the distribution check); with no DArray among the
# arguments they are sluice's own.
_ELEMENTWISE = (
    "abs absolute add bitwise_and bitwise_not bitwise_or bitwise_xor clip "
    "cos divide equal exp floor_divide greater greater_equal invert less "
    "less_equal log logical_and logical_not logical_or logical_xor maximum "
    "minimum mod multiply negative not_equal positive pow power remainder "
    "sin sqrt square subtract tanh true_divide where "
    # added to sluice by other work, lifted where present
    "acos acosh asin asinh atan atan2 atanh cbrt ceil conj copysign cosh "
    "exp2 expm1 floor hypot isfinite isinf isnan log10 log1p log2 "
    "logaddexp nextafter reciprocal rint round sign signbit sinh tan trunc"
).split()


def _lift(name):
    fn = getattr(_sluice, name)

    def lifted(*args, **kwargs):
        return map_blocks(fn, *args, **kwargs)

    lifted.__name__ = name
    lifted.__qualname__ = name
    lifted.__doc__ = (
        f"sluice.{name} of distributed arrays, block by block "
        f"(see map_blocks)."
    )
    return lifted


# @sluice.jit hands distributed arguments to map_blocks (sluice._jit sits
# below this package and imports none of it).
_jit.run_distributed = map_blocks

for _name in _ELEMENTWISE:
    if hasattr(_sluice, _name):
        globals()[_name] = _lift(_name)
del _name


def jit(fn=None, **kwargs):
    """``@sluice.jit`` for functions of distributed arrays made of
    elementwise operations: the arguments' communicators and layouts are
    checked when the function is called, before it is traced (a mismatch is
    an ExecutionPlacementError), and each rank compiles and runs the
    function on its blocks."""
    if fn is None:
        return lambda f: jit(f, **kwargs)
    return elementwise(_sluice.jit(fn, **kwargs))
