"""Tracing: the values ``@sluice.jit`` functions compute with.

While a jitted function is traced, its array arguments are Tracers (array
values of the function being built, with static shapes and placements) and
its scalar arguments ScalarTracers. Every operation on them writes usm IR
into the active Trace, with the location of the user's source line that
called it.
"""

import os
import sys
import threading
import weakref

import numpy as np

from . import _dtypes, _ir
from . import _sluice as _ext
from ._errors import TracerError
from ._placement import USM_NAMES

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


class _State(threading.local):
    def __init__(self):
        self.stack = []


_state = _State()


def current():
    """The innermost active Trace, or None."""
    stack = _state.stack
    return stack[-1] if stack else None


def user_location():
    """(file, line, column) of the innermost frame outside the sluice
    package: the user's line that called into it."""
    f = sys._getframe(1)
    while f is not None and f.f_code.co_filename.startswith(_PACKAGE_DIR):
        f = f.f_back
    if f is None:
        return None
    line, col = f.f_lineno, 1
    try:
        positions = list(f.f_code.co_positions())
        pos = positions[f.f_lasti // 2]
        if pos[0] is not None:
            line = pos[0]
        if pos[2] is not None:
            col = pos[2] + 1
    except (AttributeError, IndexError):
        pass
    return (f.f_code.co_filename, line, col)


class Trace:
    """One function being traced."""

    def __init__(self, name="main"):
        self.fb = _ir.FunctionBuilder("main")
        self.name = name
        # id(Array) -> (Array, Value) for arrays captured from outside.
        self.captured = {}
        # The live Tracers and ScalarTracers (a kernel launched while
        # tracing rebinds them: sluice._jit_kernels).
        self.tracers = weakref.WeakValueDictionary()

    def __enter__(self):
        _state.stack.append(self)
        _ext.trace_depth(1)  # no eager fast path while tracing
        return self

    def __exit__(self, *exc):
        _state.stack.pop()
        _ext.trace_depth(-1)

    def capture(self, array):
        """The argument that brings a concrete array from outside the
        function into it (passed again on every call)."""
        entry = self.captured.get(id(array))
        if entry is None:
            t = _ir.ArrayT(
                array.dtype, array.shape, array._queue_id, array._usm_kind
            )
            entry = (array, self.fb.arg(t, user_location()))
            self.captured[id(array)] = entry
        return entry[1]


class suspended:
    """No trace inside the block: library code run on concrete stand-ins
    while a function is traced (sluice._jit_library.by_example)."""

    def __enter__(self):
        self._saved = _state.stack[:]
        del _state.stack[:]
        _ext.trace_depth(-len(self._saved))
        return self

    def __exit__(self, *exc):
        _state.stack[:] = self._saved
        _ext.trace_depth(len(self._saved))


def _concrete_error(what):
    return TracerError(
        f"{what} needs a concrete value, but inside @sluice.jit this is a "
        "traced value; use sluice.where() for data-dependent choices, or "
        "mark the argument static (static_argnums / static_argnames)"
    )


class Tracer:
    """An array inside a function that ``@sluice.jit`` traces (its operators,
    methods and indexing: sluice._methods)."""

    __slots__ = ("_v", "_trace", "__weakref__")

    def __init__(self, value, trace):
        self._v = value
        self._trace = trace
        trace.tracers[id(self)] = self

    @property
    def shape(self):
        return self._v.type.shape

    @property
    def dtype(self):
        return self._v.type.dtype

    @property
    def ndim(self):
        return len(self._v.type.shape)

    @property
    def size(self):
        return int(np.prod(self._v.type.shape, dtype=np.int64))

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self.itemsize

    @property
    def _queue_id(self):
        return self._v.type.qid

    @property
    def _usm_kind(self):
        return self._v.type.kind

    @property
    def usm_type(self):
        return USM_NAMES[self._v.type.kind]

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __bool__(self):
        raise _concrete_error("bool()")

    def __float__(self):
        raise _concrete_error("float()")

    def __int__(self):
        raise _concrete_error("int()")

    def __index__(self):
        raise _concrete_error("an index")

    def __array__(self, *args, **kwargs):
        raise _concrete_error("conversion to a NumPy array")

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __repr__(self):
        return (
            f"Tracer(shape={self.shape}, dtype={self.dtype}, "
            f"device={self.device}, usm_type={self.usm_type})"
        )


class ScalarTracer:
    """A scalar argument of a traced function. ``weak`` is the Python type
    (bool, int, float) of a Python scalar, which follows the arrays it meets
    as NumPy's Python scalars do, or None for a NumPy scalar's fixed
    dtype. Its arithmetic is sluice._methods'."""

    __slots__ = ("_v", "_trace", "weak", "__weakref__")

    def __init__(self, value, trace, weak):
        self._v = value
        self._trace = trace
        self.weak = weak
        trace.tracers[id(self)] = self

    @property
    def dtype(self):
        return self._v.type.dtype

    def __bool__(self):
        raise _concrete_error("bool()")

    def __float__(self):
        raise _concrete_error("float()")

    def __int__(self):
        raise _concrete_error("int()")

    def __index__(self):
        raise _concrete_error("an index (shapes, axes, sizes)")

    def __repr__(self):
        kind = self.weak.__name__ if self.weak else str(self.dtype)
        return f"ScalarTracer({kind})"


def scalar_arg_dtype(weak, dtype):
    """The IR type of a scalar argument: Python scalars as i1/i64/f64."""
    if weak is bool:
        return _dtypes.bool_
    if weak is int:
        return _dtypes.int64
    if weak is float:
        return _dtypes.float64
    return dtype
