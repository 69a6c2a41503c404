"""Sluice: arrays that live on a device queue, compiled.

The programming model of dpctl/dpnp (compute follows data) with Sluice's
compiler behind it::

    import sluice as np   # in place of `import dpnp as np`

    x = np.arange(10.0, device="opencl:cpu:0")
    y = np.exp(-x * x)          # runs on the OpenCL device, asynchronously
    print(np.asnumpy(y.sum()))  # waits for the result

    @np.jit                     # one fused kernel per signature
    def f(a, b):
        return np.sqrt(a * a + b * b)

    f.lower(x, x).save("f.so")  # compiled ahead of time: an artifact that
    g = np.load("f.so")         # runs without the compiler (sluice.load)

See docs/python.md for the whole guide.
"""

import atexit as _atexit

from . import _sluice
from ._errors import (
    ArtifactError,
    CompileError,
    DeviceNotFoundError,
    ExecutionPlacementError,
    OutOfMemoryError,
    SluiceError,
    SyclContextCreationError,
    SyclDeviceCreationError,
    SyclKernelInvalidRangeError,
    SyclKernelSubmitError,
    SyclQueueCreationError,
    SyclSubDeviceCreationError,
    TracerError,
)

_sluice.set_exception_types(
    {
        "runtime": SluiceError,
        "device_not_found": SyclDeviceCreationError,
        "compile": CompileError,
        "out_of_memory": OutOfMemoryError,
    }
)

from . import _dtypes  # noqa: E402
from ._device import (
    Device,
    Queue,
    backend_type,
    device_type,  # noqa: E402
    get_devices,
    get_num_devices,
    has_accelerator_devices,
    has_cpu_devices,
    has_gpu_devices,
    select_accelerator_device,
    select_cpu_device,
    select_default_device,
    select_gpu_device,
    synchronize,
)
from ._array import Array, asnumpy, from_dlpack, ndarray  # noqa: E402
from ._creation import (
    arange,
    array,
    asarray,
    copy,
    empty,  # noqa: E402
    empty_like,
    eye,
    full,
    full_like,
    identity,
    linspace,
    ones,
    ones_like,
    zeros,
    zeros_like,
)
from ._ops import (
    abs,
    absolute,
    add,
    all,
    amax,
    amin,
    any,  # noqa: E402
    astype,
    bitwise_and,
    bitwise_not,
    bitwise_or,
    bitwise_xor,
    broadcast_arrays,
    broadcast_to,
    clip,
    cos,
    divide,
    equal,
    exp,
    expand_dims,
    floor_divide,
    greater,
    greater_equal,
    invert,
    less,
    less_equal,
    log,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    matrix_transpose,
    max,
    maximum,
    mean,
    min,
    minimum,
    mod,
    multiply,
    negative,
    not_equal,
    permute_dims,
    positive,
    pow,
    power,
    prod,
    remainder,
    reshape,
    sin,
    sqrt,
    square,
    squeeze,
    std,
    subtract,
    sum,
    swapaxes,
    tanh,
    to_device,
    transpose,
    true_divide,
    var,
    where,
)
from ._sorting import (
    argmax,
    argmin,
    argpartition,
    argsort,  # noqa: E402
    count_nonzero,
    intersect1d,
    isin,
    nanargmax,
    nanargmin,
    partition,
    searchsorted,
    setdiff1d,
    sort,
    union1d,
    unique,
    unique_all,
    unique_counts,
    unique_inverse,
    unique_values,
)
from ._scans import (
    cumprod,
    cumsum,
    cumulative_prod,  # noqa: E402
    cumulative_sum,
    diff,
    ediff1d,
    nancumprod,
    nancumsum,
)
from ._statistics import (
    average,
    bincount,
    corrcoef,
    cov,  # noqa: E402
    digitize,
    histogram,
    histogram2d,
    histogram_bin_edges,
    histogramdd,
    logsumexp,
    median,
    nanmax,
    nanmean,
    nanmedian,
    nanmin,
    nanpercentile,
    nanprod,
    nanquantile,
    nanstd,
    nansum,
    nanvar,
    percentile,
    ptp,
    quantile,
    reduce_hypot,
)
from ._manipulation import (
    array_split,
    atleast_1d,  # noqa: E402
    atleast_2d,
    atleast_3d,
    column_stack,
    concat,
    concatenate,
    copyto,
    diag,
    diagflat,
    diagonal,
    dsplit,
    dstack,
    flatten,
    flip,
    fliplr,
    flipud,
    hsplit,
    hstack,
    meshgrid,
    mgrid,
    moveaxis,
    ogrid,
    pad,
    ravel,
    repeat,
    resize,
    roll,
    rollaxis,
    rot90,
    row_stack,
    split,
    stack,
    tile,
    trace,
    tril,
    triu,
    trim_zeros,
    unstack,
    vsplit,
    vstack,
)
from ._indexing_functions import (
    argwhere,
    choose,  # noqa: E402
    compress,
    diag_indices,
    diag_indices_from,
    extract,
    flatnonzero,
    indices,
    ix_,
    nonzero,
    place,
    put,
    put_along_axis,
    putmask,
    ravel_multi_index,
    select,
    take,
    take_along_axis,
    tril_indices,
    tril_indices_from,
    triu_indices,
    triu_indices_from,
    unravel_index,
)
from ._elementwise import *  # noqa: E402,F401,F403
from ._namespace import (
    __array_api_version__,  # noqa: E402,F401
    __array_namespace_info__,
    can_cast,
    default_float_type,
    dtype,
    finfo,
    iinfo,
    isdtype,
    issubdtype,
    promote_types,
    result_type,
)
from ._products import (
    dot,
    einsum,
    einsum_path,
    get_matmul_precision,  # noqa: E402,E501
    inner,
    kron,
    matmul,
    matrix_power,
    outer,
    set_matmul_precision,
    tensordot,
    vdot,
    vecdot,
)
from ._complex import (
    angle,
    conj,
    conjugate,
    imag,
    iscomplex,  # noqa: E402
    iscomplexobj,
    isreal,
    isrealobj,
    proj,
    real,
)
from ._memory_pool import MemoryPool, get_memory_pool  # noqa: E402
from ._jit import JitFunction, Lowered, jit  # noqa: E402
from ._artifact import LoadedProgram, load  # noqa: E402
from . import kernel_api  # noqa: E402
from ._kernel import (
    KernelError,
    call_kernel,  # noqa: E402
    call_kernel_async,
    device_func,
    kernel,
)
from . import random  # noqa: E402

# dpctl's names: SyclDevice and SyclQueue are Device and Queue.
from ._sycl import (
    SyclContext,
    SyclEvent,
    SyclPlatform,  # noqa: E402
    SyclTimer,
    event_status_type,
    get_device_cached_queue,
    get_include,
    get_num_platforms,
    get_platforms,
    global_mem_cache_type,
    lsplatform,
    select_device_with_aspects,
)

SyclDevice = Device
SyclQueue = Queue
from . import memory, utils  # noqa: E402
from . import linalg  # noqa: E402

bool_ = _dtypes.bool_
int8, int16, int32, int64 = (
    _dtypes.int8,
    _dtypes.int16,
    _dtypes.int32,
    _dtypes.int64,
)
uint8, uint16, uint32, uint64 = (
    _dtypes.uint8,
    _dtypes.uint16,
    _dtypes.uint32,
    _dtypes.uint64,
)
float16, float32, float64 = _dtypes.float16, _dtypes.float32, _dtypes.float64
complex64, complex128 = _dtypes.complex64, _dtypes.complex128

e = 2.718281828459045
pi = 3.141592653589793
inf = float("inf")
nan = float("nan")
newaxis = None

__version__ = "0.1.0"


def set_synchronous(on=True):
    """Runs every operation on the calling thread before returning (for
    debugging; also ``SLUICE_SYNC=1``). Lazy execution is off meanwhile."""
    from . import _lazy

    _lazy.synchronous(bool(on))
    _sluice.set_synchronous(bool(on))


def set_lazy(on=True, min_elements=False):
    """Turns lazy execution of eager operations on or off (``SLUICE_LAZY=0``
    starts with it off); turning it off submits what is pending. Returns
    the previous setting. ``min_elements``: record only operations whose
    result has at least that many elements, or that use a pending result
    (None: the defaults, 65536 on the host and 4096 on other devices;
    also ``SLUICE_LAZY_MIN_ELEMENTS``), or smaller ones once they repeat
    in chains of small operations (a loop body; SLUICE_LAZY_SMALL_REPEATS,
    docs/python.md)."""
    from . import _lazy

    if min_elements is not False:
        _lazy.set_min_elements(min_elements)
    return _lazy.set_enabled(on)


def lazy_enabled():
    """Whether eager operations are recorded and fused (lazy execution)."""
    from ._lazy import enabled

    return enabled()


def lazy_report(reset=False):
    """What lazy execution did: operations recorded and submitted, graphs
    submitted, programs compiled and reused, pending operations, and how
    often each reason ended a graph (``boundaries``). ``reset`` clears the
    counts after reading them."""
    from . import _lazy

    r = _lazy.report()
    if reset:
        _lazy.reset_report()
    return r


def compiler_version():
    """The compiler's version string."""
    from ._compiler import version

    return version()


def _finish():
    # Let queued work finish before the interpreter tears down.
    try:
        synchronize()
    except Exception:  # errors of abandoned work have no one to go to
        pass


_atexit.register(_finish)

from . import tensor  # noqa: E402  (after every name it re-exports)

# The layer above the operations: the arrays' operators and methods.
from . import _methods  # noqa: E402,F401
from . import _strided_copy  # noqa: E402

_strided_copy.install()

__all__ = sorted(n for n in dir() if not n.startswith("_"))
