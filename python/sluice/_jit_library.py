"""Library functions inside ``@sluice.jit``: sorts, scans and searches.

These functions are written as sequences of kernel launches whose sizes
depend on the data's statistics (a radix sort reads the bits its keys
vary in), so they are not traced into the program. Called on traced
arrays, a function marked ``@steps(rule)`` becomes a step of the traced
function (sluice._jit_kernels.call): the array program before it ends, the
function runs on the concrete arrays when the jitted function is called,
on their queue, and its results start the next program. ``rule`` gives
the results' types from the arguments at trace time, so that the code
after the call is traced with the right shapes; every call checks the
results against them.

A rule is a table entry: ``along(dtype)`` for a result shaped like the
input along an axis (None: flattened), ``reduced(dtype)`` for one with the
axis removed, ``like_arg(name, dtype)`` for one shaped like another
argument. ``dtype`` is a dtype or a function of the bound arguments.
"""

import functools
import inspect

import numpy as np

from . import _dtypes, _ir, _jit_kernels, _trace

try:  # NumPy >= 2
    from numpy.exceptions import AxisError
except ImportError:  # pragma: no cover
    AxisError = np.AxisError


def _axis(axis, nd, name):
    a = int(axis)
    if not -nd <= a < max(nd, 1):
        raise AxisError(
            f"{name}: axis {axis} is out of bounds for array of dimension {nd}"
        )
    return a % max(nd, 1)


def _size(shape):
    if any(d is None for d in shape):
        return None
    return int(np.prod(shape, dtype=np.int64))


def _dtype_of(dtype, b):
    return dtype(b) if callable(dtype) else _dtypes.to_dtype(dtype)


def along(dtype=None):
    """Results shaped like the first argument (flattened when the axis is
    None); ``dtype`` None keeps the argument's."""

    def rule(name, b):
        a = b.arguments[_first(b)]
        axis = b.arguments["axis"]
        if axis is None:
            shape = (_size(a.shape),)
        else:
            _axis(axis, a.ndim, name)
            shape = tuple(a.shape) if a.ndim else (1,)
        dt = a.dtype if dtype is None else _dtype_of(dtype, b)
        return [(dt, shape)]

    return rule


def reduced(dtype):
    """One result per line along the axis (None: one in all), keepdims
    as in NumPy."""

    def rule(name, b):
        a = b.arguments[_first(b)]
        axis = b.arguments.get("axis")
        keep = b.arguments.get("keepdims", False)
        if axis is None:
            shape = (1,) * a.ndim if keep else ()
        else:
            ax = _axis(axis, a.ndim, name)
            shape = list(a.shape)
            if keep:
                shape[ax] = 1
            else:
                del shape[ax]
        return [(_dtype_of(dtype, b), tuple(shape))]

    return rule


def cumulative(name, b):
    """The Array API's cumulative_sum/prod: one more element along the
    axis with ``include_initial``."""
    x = b.arguments["x"]
    axis = b.arguments["axis"]
    if axis is None:
        if x.ndim != 1:
            raise ValueError(
                f"{name} needs axis= for arrays of other than one dimension"
            )
        axis = 0
    ax = _axis(axis, x.ndim, name)
    shape = list(x.shape)
    if b.arguments["include_initial"] and shape[ax] is not None:
        shape[ax] += 1
    from ._scans import _acc_dtype

    return [(_acc_dtype(x.dtype, b.arguments["dtype"]), tuple(shape))]


def accumulated(b):
    """The dtype NumPy's cumsum/cumprod give (small integers widen)."""
    from ._scans import _acc_dtype

    return _acc_dtype(b.arguments["a"].dtype, b.arguments["dtype"])


def like_arg(arg, dtype):
    """A result shaped like argument ``arg`` (an array or a scalar)."""

    def rule(name, b):
        return [(_dtype_of(dtype, b), tuple(np.shape(b.arguments[arg])))]

    return rule


def by_example(fn, fill=None):
    """The results' types of ``fn`` on zero-filled stand-ins of the traced
    arrays (static shapes), run once at trace time: for functions whose
    results' sizes follow from the shapes alone (reductions, quantiles,
    covariances, histograms with a bin count). ``fill(shape, dtype,
    queue)`` makes other stand-ins (identity matrices for solvers, which
    reject singular ones); a list of them is tried in order until one
    gives no numpy.linalg.LinAlgError."""

    def rule(name, b):
        from ._creation import zeros
        from ._device import _queue_from_id
        from ._errors import TracerError

        def stand_in(v, make):
            if isinstance(v, _trace.ScalarTracer):
                raise TracerError(
                    f"sluice.{name} inside @sluice.jit takes its scalar "
                    "arguments as Python values (static), not traced ones"
                )
            if not isinstance(v, _trace.Tracer):
                if isinstance(v, (list, tuple)):
                    return type(v)(stand_in(x, make) for x in v)
                return v
            t = v._v.type
            if any(d is None for d in t.shape):
                raise TracerError(
                    f"sluice.{name} inside @sluice.jit needs static shapes"
                )
            if make is not None:
                return make(t.shape, t.dtype, _queue_from_id(t.qid))
            return zeros(
                t.shape, dtype=t.dtype, sycl_queue=_queue_from_id(t.qid)
            )

        import warnings

        fills = fill if isinstance(fill, (list, tuple)) else [fill]
        for i, make in enumerate(fills):
            try:
                with _trace.suspended():  # (creation in a trace is traced)
                    args = [stand_in(v, make) for v in b.args]
                    kwargs = {
                        k: stand_in(v, make) for k, v in b.kwargs.items()
                    }
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        out = fn(*args, **kwargs)
                break
            except np.linalg.LinAlgError as e:
                if i + 1 == len(fills):
                    raise TracerError(
                        f"sluice.{name} inside @sluice.jit: its results' "
                        "types could not be found from stand-ins of the "
                        f"arguments' shapes ({e})"
                    ) from None
        outs = out if isinstance(out, tuple) else (out,)
        for o in outs:
            if not hasattr(o, "dtype") or not hasattr(o, "shape"):
                raise TracerError(
                    f"sluice.{name} inside @sluice.jit: its results must be "
                    "arrays"
                )
        return [(o.dtype, tuple(o.shape)) for o in outs]

    return rule


def steps_by_example(fn):
    """``steps(by_example(fn))`` applied to ``fn``."""
    return steps(by_example(fn))(fn)


def _first(b):
    return next(iter(b.arguments))


def _traced(args, kwargs):
    tracers = (_trace.Tracer, _trace.ScalarTracer)
    for a in args:
        if isinstance(a, tracers):
            return a._trace
    for a in kwargs.values():
        if isinstance(a, tracers):
            return a._trace
    return None


def steps(rule):
    """Marks a library function that runs as a step of ``@sluice.jit``
    functions (see the module's docstring)."""

    def wrap(fn):
        sig = inspect.signature(fn)

        @functools.wraps(fn)
        def call(*args, **kwargs):
            tr = _traced(args, kwargs)
            if tr is None:
                return fn(*args, **kwargs)
            return _step(tr, fn, sig, rule, args, kwargs)

        return call

    return wrap


def _step(tr, fn, sig, rule, args, kwargs):
    from ._errors import TracerError

    if tr is not _trace.current():
        raise TracerError("a traced value escaped its function")
    if kwargs.get("out") is not None:
        raise TracerError(
            f"sluice.{fn.__name__}(out=...) is not supported inside "
            "@sluice.jit: use its result"
        )
    b = sig.bind(*args, **kwargs)
    first = b.arguments[_first(b)]
    if not isinstance(first, _trace.Tracer):
        raise TracerError(
            f"sluice.{fn.__name__} inside @sluice.jit takes its array as "
            "its first argument (a traced array)"
        )
    b.apply_defaults()
    ty = first._v.type
    types = [
        _ir.ArrayT(dt, shape, ty.qid, ty.kind)
        for dt, shape in rule(fn.__name__, b)
    ]
    results = _jit_kernels.call(tr, fn, args, kwargs, types)
    return results[0] if len(results) == 1 else tuple(results)
