"""Operators and methods of arrays, traced arrays and traced scalars.

The layer above the operations (CONTRIBUTING.md, "Layers of the Python
package"): the values, sluice.Array (sluice._array) and the Tracer and
ScalarTracer of ``@sluice.jit`` (sluice._trace), import no operation, so
that every operation can import them. This module, imported by the package
after the operations, puts on those classes what calls operations:
Python's operators, dpnp's array methods, sluice.Array's constructor,
in-place operators, pickling and indexing beyond views, and the Tracer's
indexing (sluice._traced_indexing). ``install`` puts a class body's
methods on a class as if the body were the class's last base: what the
class already has (sluice.Array's C++ core has the fast ``+ - * /``)
stays.
"""

import numpy as np

from . import (
    _advanced_indexing,
    _complex,
    _dispatch,
    _ops,
    _products,
    _scans,
    _sorting,
    _traced_indexing,
)
from . import _sluice as _ext
from ._advanced_indexing import is_advanced
from ._array import Array, _broadcast_view, _from_host, asnumpy
from ._creation import asarray, empty
from ._device import _queue_from_id
from ._errors import PLACEMENT_MESSAGE, ExecutionPlacementError, TracerError
from ._indexing import view_of
from ._indexing_functions import choose, compress, nonzero, put, take
from ._manipulation import diagonal, repeat, trace
from ._trace import ScalarTracer, Tracer
from .memory import array_interface
from .tensor import usm_ndarray

# The fast path's code of a whole-array sum (Array.sum's common case).
_SUM_ALL = _dispatch._FAST_OPS["sum/all"]
# The codes of reductions along an axis, by (name, axis, keepdims), as
# _ops._reduce numbers them (it makes the code the first time).
_PARAM_CODES = _dispatch._PARAM_CODES


def _fast_reduce(name, x, axis, keepdims):
    """A reduction along one integer axis seen before (what _ops._reduce
    asks first), without its Python layers; None otherwise."""
    if axis.__class__ is not int:
        return None
    code = _PARAM_CODES.get((name, axis, keepdims))
    return None if code is None else _ext.fast_call(code, x)


def _unpickle(data, device, usm_type):
    return asarray(data, device=device, usm_type=usm_type)


class ArrayMethods:
    """What sluice.Array and the Tracer share: placement attributes,
    Python's operators and dpnp's array methods (each one a function of the
    operations, which runs it eagerly or records it in the trace)."""

    # Placement (both kinds have _queue_id and _usm_kind).
    @property
    def sycl_queue(self):
        return _queue_from_id(self._queue_id)

    @property
    def sycl_device(self):
        return self.sycl_queue.sycl_device

    @property
    def device(self):
        """Where the array lives: a Device bound to its queue."""
        return self.sycl_queue.device

    @property
    def sycl_context(self):
        return self.sycl_queue.sycl_context

    @property
    def __sycl_usm_array_interface__(self):
        """The array's memory for other USM libraries (waits for pending
        writes); traced values have none (AttributeError)."""
        if not hasattr(self, "_data_pointer"):
            raise AttributeError("a traced value has no USM memory")
        return array_interface(self)

    # NumPy defers to the reflected operators (x + numpy_array works and
    # runs where x lives).
    __array_ufunc__ = None

    def __array_namespace__(self, api_version=None):
        import sluice

        return sluice

    # --- arithmetic -------------------------------------------------------
    def __add__(self, o):
        return _ops.add(self, o)

    def __radd__(self, o):
        return _ops.add(o, self)

    def __sub__(self, o):
        return _ops.subtract(self, o)

    def __rsub__(self, o):
        return _ops.subtract(o, self)

    def __mul__(self, o):
        return _ops.multiply(self, o)

    def __rmul__(self, o):
        return _ops.multiply(o, self)

    def __truediv__(self, o):
        return _ops.divide(self, o)

    def __rtruediv__(self, o):
        return _ops.divide(o, self)

    def __floordiv__(self, o):
        return _ops.floor_divide(self, o)

    def __rfloordiv__(self, o):
        return _ops.floor_divide(o, self)

    def __mod__(self, o):
        return _ops.remainder(self, o)

    def __rmod__(self, o):
        return _ops.remainder(o, self)

    def __pow__(self, o):
        return _ops.power(self, o)

    def __rpow__(self, o):
        return _ops.power(o, self)

    def __matmul__(self, o):
        return _products.matmul(self, o)

    def __rmatmul__(self, o):
        return _products.matmul(o, self)

    def __imatmul__(self, o):
        return _products._imatmul(self, o)

    def dot(self, b, out=None):
        return _products.dot(self, b, out=out)

    def __neg__(self):
        return _ops.negative(self)

    def __pos__(self):
        return _ops.positive(self)

    def __abs__(self):
        return _ops.absolute(self)

    def __invert__(self):
        return _ops.invert(self)

    def __and__(self, o):
        return _ops.bitwise_and(self, o)

    def __rand__(self, o):
        return _ops.bitwise_and(o, self)

    def __or__(self, o):
        return _ops.bitwise_or(self, o)

    def __ror__(self, o):
        return _ops.bitwise_or(o, self)

    def __xor__(self, o):
        return _ops.bitwise_xor(self, o)

    def __rxor__(self, o):
        return _ops.bitwise_xor(o, self)

    def __lshift__(self, o):
        return _ops.left_shift(self, o)

    def __rlshift__(self, o):
        return _ops.left_shift(o, self)

    def __rshift__(self, o):
        return _ops.right_shift(self, o)

    def __rrshift__(self, o):
        return _ops.right_shift(o, self)

    # --- comparisons ------------------------------------------------------
    def __eq__(self, o):
        return _ops.equal(self, o)

    def __ne__(self, o):
        return _ops.not_equal(self, o)

    def __lt__(self, o):
        return _ops.less(self, o)

    def __le__(self, o):
        return _ops.less_equal(self, o)

    def __gt__(self, o):
        return _ops.greater(self, o)

    def __ge__(self, o):
        return _ops.greater_equal(self, o)

    __hash__ = None

    # --- methods ------------------------------------------------------------
    def astype(
        self, dtype, copy=True, order="K", casting="unsafe", device=None
    ):
        return _ops.astype(
            self, dtype, copy=copy, casting=casting, device=device
        )

    def to_device(self, device, stream=None):
        """The array on ``device`` (a filter string, Device or Queue):
        itself when it is there already, else a copy."""
        return _ops.to_device(self, device)

    def reshape(self, *shape, order="C", copy=None):
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = shape[0]
        return _ops.reshape(self, shape, order=order, copy=copy)

    def transpose(self, *axes):
        if len(axes) == 1 and (
            axes[0] is None or not isinstance(axes[0], int)
        ):
            axes = axes[0]
        return _ops.transpose(self, axes or None)

    @property
    def T(self):
        return _ops.transpose(self)

    @property
    def mT(self):
        return _ops.matrix_transpose(self)

    def swapaxes(self, axis1, axis2):
        return _ops.swapaxes(self, axis1, axis2)

    def flatten(self, order="C"):
        from ._manipulation import flatten

        return flatten(self, order)

    def ravel(self, order="C"):
        from ._manipulation import ravel

        return ravel(self, order)

    # Indexing and manipulation (sluice._indexing_functions, _manipulation).
    def take(self, indices, axis=None, out=None, mode="raise"):
        return take(self, indices, axis, out, mode)

    def put(self, indices, values, mode="raise"):
        return put(self, indices, values, mode)

    def nonzero(self):
        return nonzero(self)

    def compress(self, condition, axis=None, out=None):
        return compress(condition, self, axis, out)

    def choose(self, choices, out=None, mode="raise"):
        return choose(self, choices, out, mode)

    def repeat(self, repeats, axis=None):
        return repeat(self, repeats, axis)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        return diagonal(self, offset, axis1, axis2)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        return trace(self, offset, axis1, axis2, dtype, out)

    def squeeze(self, axis=None):
        return _ops.squeeze(self, axis)

    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        if axis is None and dtype is None and out is None and not keepdims:
            # Seen before: straight to the fast path (what _ops.sum asks
            # first), without the Python layers of keyword handling.
            r = _ext.fast_call(_SUM_ALL, self)
            if r is not None:
                return r
        elif dtype is None and out is None:
            r = _fast_reduce("sum", self, axis, keepdims)
            if r is not None:
                return r
        return _ops.sum(
            self, axis=axis, dtype=dtype, out=out, keepdims=keepdims
        )

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):
        return _ops.prod(
            self, axis=axis, dtype=dtype, out=out, keepdims=keepdims
        )

    def max(self, axis=None, out=None, keepdims=False):
        if out is None:
            r = _fast_reduce("max", self, axis, keepdims)
            if r is not None:
                return r
        return _ops.max(self, axis=axis, out=out, keepdims=keepdims)

    def min(self, axis=None, out=None, keepdims=False):
        if out is None:
            r = _fast_reduce("min", self, axis, keepdims)
            if r is not None:
                return r
        return _ops.min(self, axis=axis, out=out, keepdims=keepdims)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False):
        return _ops.mean(
            self, axis=axis, dtype=dtype, out=out, keepdims=keepdims
        )

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return _ops.var(
            self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims
        )

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return _ops.std(
            self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims
        )

    def all(self, axis=None, out=None, keepdims=False):
        return _ops.all(self, axis=axis, out=out, keepdims=keepdims)

    def any(self, axis=None, out=None, keepdims=False):
        return _ops.any(self, axis=axis, out=out, keepdims=keepdims)

    def copy(self, order="C"):
        return _ops.copy(self)

    # sorting, searching and scans (python/sluice/_sorting.py, _scans.py)
    def argmax(self, axis=None, out=None, *, keepdims=False):
        return _sorting.argmax(self, axis, keepdims=keepdims)

    def argmin(self, axis=None, out=None, *, keepdims=False):
        return _sorting.argmin(self, axis, keepdims=keepdims)

    def argsort(self, axis=-1, kind=None, order=None):
        return _sorting.argsort(self, axis)

    def sort(self, axis=-1, kind=None, order=None):
        """Sorts in place (as NumPy's ndarray.sort)."""
        self[...] = _sorting.sort(self, axis)

    def searchsorted(self, v, side="left", sorter=None):
        return _sorting.searchsorted(self, v, side, sorter)

    def cumsum(self, axis=None, dtype=None, out=None):
        return _scans.cumsum(self, axis, dtype, out)

    def cumprod(self, axis=None, dtype=None, out=None):
        return _scans.cumprod(self, axis, dtype, out)

    # Complex numbers (sluice._complex).
    @property
    def real(self):
        return _complex.real(self)

    @property
    def imag(self):
        return _complex.imag(self)

    def conj(self):
        return _complex.conj(self)

    def conjugate(self):
        return _complex.conj(self)


class _ArrayOwn:
    """sluice.Array's own methods that call operations."""

    def __new__(
        cls,
        shape,
        dtype=None,
        buffer=None,
        offset=0,
        strides=None,
        order="C",
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        """``ndarray(shape, dtype=None, buffer=None, offset=0, strides=None,
        order="C", device=None, usm_type="device", sycl_queue=None)``, as
        ``dpnp.ndarray``: a new uninitialised array of that shape on the
        device or queue given, or, with ``buffer`` (a sluice.memory object
        or anything with ``__sycl_usm_array_interface__``), an array over
        that memory with ``offset`` and ``strides`` in elements."""
        if buffer is None:
            if strides is not None or offset:
                raise ValueError("strides and offset need a buffer")
            return empty(
                shape,
                dtype=dtype,
                order=order,
                device=device,
                usm_type=usm_type,
                sycl_queue=sycl_queue,
            )
        if device is not None or sycl_queue is not None:
            raise ValueError(
                "an array over a buffer lives where the "
                "buffer is: give no device or sycl_queue"
            )
        return usm_ndarray(
            shape,
            dtype=dtype,
            strides=strides,
            buffer=buffer,
            offset=offset,
            order=order,
        )

    # --- indexing ------------------------------------------------------------
    # ArrayCore's __getitem__/__setitem__ (C++) take basic keys (and array
    # values of the same dtype and queue); they call these for the rest.
    def _getitem_slow(self, key):
        if is_advanced(key):
            return _advanced_indexing.getitem(self, key)
        offset, shape, strides = view_of(
            self.shape, self._strides, self._offset, key
        )
        return self._view(offset, shape, strides)

    def _setitem_slow(self, key, value):
        if self._readonly:
            raise ValueError("assignment destination is read-only")
        if is_advanced(key):
            return _advanced_indexing.setitem(self, key, value)
        offset, shape, strides = view_of(
            self.shape, self._strides, self._offset, key
        )
        dst = self._view(offset, shape, strides)
        shape = tuple(shape)
        if isinstance(value, (Tracer, ScalarTracer)):
            raise TracerError(
                "a traced value cannot be stored into a "
                "concrete array inside @sluice.jit"
            )
        if isinstance(value, Array):
            if value._queue_id != self._queue_id:
                raise ExecutionPlacementError(
                    f"{PLACEMENT_MESSAGE} The target is on "
                    f"{self.sycl_queue!r} and the value on "
                    f"{value.sycl_queue!r}; migrate the value with "
                    "to_device()."
                )
            src = value
            if src.dtype != self.dtype:
                src = src.astype(self.dtype)
            dst._copy_from(_broadcast_view(src, shape))
            return
        if isinstance(value, (bool, int, float, np.generic)):
            v = (
                np.asarray(value).astype(self.dtype)
                if isinstance(value, np.generic)
                else np.asarray(value, dtype=self.dtype)
            )
            dst._fill(v.tobytes())
            return
        try:
            host = np.asarray(value, dtype=self.dtype)
        except (TypeError, ValueError) as e:
            raise TypeError(
                f"cannot assign {type(value).__name__} to a sluice.Array: {e}"
            ) from None
        src = _from_host(host, self._queue_id, self._usm_kind)
        dst._copy_from(_broadcast_view(src, shape))

    # --- in-place operators: compute, then copy into this array --------------
    # ArrayCore's += -= *= /= //= %= (C++, FastPath.cpp) run an "into"
    # program seen before for these operands; they call _inplace for the
    # rest, as the other in-place operators do.
    def _inplace(self, op, other, name):
        # The read and the write are submitted back to back under one lock,
        # so they are adjacent in queue order: an update from another thread
        # reads either before both or after both, and none is lost. (The
        # C++ operators take the same lock.)
        _ext.inplace_lock_acquire()
        try:
            if name == "power":
                # Before the fast path: it would not look at the exponent.
                _ops._check_integer_power(self, other)
            code = _dispatch._FAST_OPS.get(name)
            if code is not None and _ext.fast_into(code, self, other, self):
                return self
            return self._inplace_locked(op, other, name)
        finally:
            _ext.inplace_lock_release()

    def _inplace_locked(self, op, other, name):
        if self._readonly:
            raise ValueError("output array is read-only")
        if (
            name in _ops._BINARY
            and not isinstance(other, (Tracer, ScalarTracer))
            and _ops.writable_in_place(
                self, [other] if isinstance(other, Array) else []
            )
        ):
            # One pass: the op writes this array's memory.
            return _ops.binary_into(name, self, other, self)
        r = op(self, other)
        if r.dtype == self.dtype and r.shape == self.shape:
            self._copy_from(r)  # the common case, without indexing
            return self
        if r.dtype != self.dtype:
            if not np.can_cast(r.dtype, self.dtype, "same_kind"):
                raise TypeError(
                    f"Cannot cast ufunc '{name}' output from {r.dtype!r} to "
                    f"{self.dtype!r} with casting rule 'same_kind'"
                )
            r = r.astype(self.dtype)
        if tuple(r.shape) != tuple(self.shape):
            raise ValueError(
                f"non-broadcastable output operand with shape {self.shape} "
                f"doesn't match the broadcast shape {r.shape}"
            )
        self[...] = r
        return self

    def __ipow__(self, o):
        return self._inplace(_ops.power, o, "power")

    def __reduce__(self):
        # Pickling (mpi4py's lowercase comm.send, multiprocessing) copies
        # the data to the host; unpickling copies it to the device of the
        # same filter string, in the same USM kind.
        return (
            _unpickle,
            (asnumpy(self), self.device.filter_string, self.usm_type),
        )

    def __iand__(self, o):
        return self._inplace(_ops.bitwise_and, o, "bitwise_and")

    def __ior__(self, o):
        return self._inplace(_ops.bitwise_or, o, "bitwise_or")

    def __ixor__(self, o):
        return self._inplace(_ops.bitwise_xor, o, "bitwise_xor")

    def __ilshift__(self, o):
        return self._inplace(_ops.left_shift, o, "left_shift")

    def __irshift__(self, o):
        return self._inplace(_ops.right_shift, o, "right_shift")


class _TracerOwn:
    """The Tracer's indexing."""

    def __getitem__(self, key):
        return _traced_indexing.traced_getitem(self, key)

    def __setitem__(self, key, value):
        # Value semantics: this Tracer now names the updated array.
        _traced_indexing.traced_setitem(self, key, value)


class _ScalarTracerOwn:
    """The ScalarTracer's arithmetic."""

    # Arithmetic with arrays goes through the array operations; with other
    # scalars it is scalar arith.
    def _binary(self, other, op, reflected=False):
        return _ops.scalar_or_array_binary(op, self, other, reflected)

    def __add__(self, o):
        return self._binary(o, "add")

    def __radd__(self, o):
        return self._binary(o, "add", True)

    def __sub__(self, o):
        return self._binary(o, "subtract")

    def __rsub__(self, o):
        return self._binary(o, "subtract", True)

    def __mul__(self, o):
        return self._binary(o, "multiply")

    def __rmul__(self, o):
        return self._binary(o, "multiply", True)

    def __truediv__(self, o):
        return self._binary(o, "divide")

    def __rtruediv__(self, o):
        return self._binary(o, "divide", True)

    def __lt__(self, o):
        return self._binary(o, "less")

    def __le__(self, o):
        return self._binary(o, "less_equal")

    def __gt__(self, o):
        return self._binary(o, "greater")

    def __ge__(self, o):
        return self._binary(o, "greater_equal")

    def __eq__(self, o):
        return self._binary(o, "equal")

    def __ne__(self, o):
        return self._binary(o, "not_equal")

    __hash__ = None

    def __pow__(self, o):
        return self._binary(o, "power")

    def __rpow__(self, o):
        return self._binary(o, "power", True)

    def __floordiv__(self, o):
        return self._binary(o, "floor_divide")

    def __rfloordiv__(self, o):
        return self._binary(o, "floor_divide", True)

    def __mod__(self, o):
        return self._binary(o, "remainder")

    def __rmod__(self, o):
        return self._binary(o, "remainder", True)

    def __neg__(self):
        return _ops.scalar_negative(self)

    def __pos__(self):
        return self


# Names of a class body that are not its methods.
_NOT_METHODS = frozenset(
    {
        "__module__",
        "__qualname__",
        "__doc__",
        "__dict__",
        "__weakref__",
        "__slots__",
        "__firstlineno__",
        "__static_attributes__",
    }
)


def install(cls, body, override=False):
    """Puts the methods, properties and attributes defined in class
    ``body`` on ``cls``: all of them with ``override``, else those that
    ``cls`` and its bases (other than object) do not define, as if ``body``
    were the last base of ``cls``."""
    for name, value in vars(body).items():
        if name in _NOT_METHODS:
            continue
        if not override and any(name in vars(c) for c in cls.__mro__[:-1]):
            continue
        setattr(cls, name, value)


install(Array, _ArrayOwn, override=True)
install(Array, ArrayMethods)
install(Tracer, _TracerOwn, override=True)
install(Tracer, ArrayMethods)
install(ScalarTracer, _ScalarTracerOwn, override=True)
# ArrayCore's __getitem__/__setitem__ (C++) call these for what is not a
# view or a copy within one queue.
_ext.set_index_fallbacks(Array._getitem_slow, Array._setitem_slow)


def _inplace_fallback(name):
    def fallback(self, other):
        return self._inplace(getattr(_ops, name), other, name)

    return fallback


# ArrayCore's in-place operators (C++) call these when the fast path does
# not take the operation.
for _name in (
    "add",
    "subtract",
    "multiply",
    "divide",
    "floor_divide",
    "remainder",
):
    _ext.set_inplace_fallback(
        _dispatch._FAST_OPS[_name], _inplace_fallback(_name)
    )
