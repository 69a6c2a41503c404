"""Operators and methods shared by arrays and traced arrays.

Both sluice.Array and the Tracer of ``@sluice.jit`` get Python's operators
and dpnp's array methods from ArrayMethods; each operation is one function
of sluice._ops, which runs it eagerly or records it in the trace.
"""


def _ops():
    from . import _ops as ops
    return ops


class ArrayMethods:
    __slots__ = ()

    # Placement (both kinds have _queue_id and _usm_kind).
    @property
    def sycl_queue(self):
        from ._device import _queue_from_id
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
        from .memory import array_interface
        return array_interface(self)

    # NumPy defers to the reflected operators (x + numpy_array works and
    # runs where x lives).
    __array_ufunc__ = None

    def __array_namespace__(self, api_version=None):
        import sluice
        return sluice

    # --- arithmetic -------------------------------------------------------
    def __add__(self, o):
        return _ops().add(self, o)

    def __radd__(self, o):
        return _ops().add(o, self)

    def __sub__(self, o):
        return _ops().subtract(self, o)

    def __rsub__(self, o):
        return _ops().subtract(o, self)

    def __mul__(self, o):
        return _ops().multiply(self, o)

    def __rmul__(self, o):
        return _ops().multiply(o, self)

    def __truediv__(self, o):
        return _ops().divide(self, o)

    def __rtruediv__(self, o):
        return _ops().divide(o, self)

    def __floordiv__(self, o):
        return _ops().floor_divide(self, o)

    def __rfloordiv__(self, o):
        return _ops().floor_divide(o, self)

    def __mod__(self, o):
        return _ops().remainder(self, o)

    def __rmod__(self, o):
        return _ops().remainder(o, self)

    def __pow__(self, o):
        return _ops().power(self, o)

    def __rpow__(self, o):
        return _ops().power(o, self)

    def __matmul__(self, o):
        from . import _products
        return _products.matmul(self, o)

    def __rmatmul__(self, o):
        from . import _products
        return _products.matmul(o, self)

    def __imatmul__(self, o):
        from . import _products
        return _products._imatmul(self, o)

    def dot(self, b, out=None):
        from . import _products
        return _products.dot(self, b, out=out)

    def __neg__(self):
        return _ops().negative(self)

    def __pos__(self):
        return _ops().positive(self)

    def __abs__(self):
        return _ops().absolute(self)

    def __invert__(self):
        return _ops().invert(self)

    def __and__(self, o):
        return _ops().bitwise_and(self, o)

    def __rand__(self, o):
        return _ops().bitwise_and(o, self)

    def __or__(self, o):
        return _ops().bitwise_or(self, o)

    def __ror__(self, o):
        return _ops().bitwise_or(o, self)

    def __xor__(self, o):
        return _ops().bitwise_xor(self, o)

    def __rxor__(self, o):
        return _ops().bitwise_xor(o, self)

    def __lshift__(self, o):
        return _ops().left_shift(self, o)

    def __rlshift__(self, o):
        return _ops().left_shift(o, self)

    def __rshift__(self, o):
        return _ops().right_shift(self, o)

    def __rrshift__(self, o):
        return _ops().right_shift(o, self)

    # --- comparisons ------------------------------------------------------
    def __eq__(self, o):
        return _ops().equal(self, o)

    def __ne__(self, o):
        return _ops().not_equal(self, o)

    def __lt__(self, o):
        return _ops().less(self, o)

    def __le__(self, o):
        return _ops().less_equal(self, o)

    def __gt__(self, o):
        return _ops().greater(self, o)

    def __ge__(self, o):
        return _ops().greater_equal(self, o)

    __hash__ = None

    # --- methods ------------------------------------------------------------
    def astype(self, dtype, copy=True, order="K", casting="unsafe",
               device=None):
        return _ops().astype(self, dtype, copy=copy, casting=casting,
                             device=device)

    def to_device(self, device, stream=None):
        """The array on ``device`` (a filter string, Device or Queue):
        itself when it is there already, else a copy."""
        return _ops().to_device(self, device)

    def reshape(self, *shape, order="C", copy=None):
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = shape[0]
        return _ops().reshape(self, shape, order=order, copy=copy)

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or
                               not isinstance(axes[0], int)):
            axes = axes[0]
        return _ops().transpose(self, axes or None)

    @property
    def T(self):
        return _ops().transpose(self)

    @property
    def mT(self):
        return _ops().matrix_transpose(self)

    def swapaxes(self, axis1, axis2):
        return _ops().swapaxes(self, axis1, axis2)

    def flatten(self):
        return _ops().reshape(self, (-1,), copy=True)

    def ravel(self):
        return _ops().reshape(self, (-1,))

    # Indexing and manipulation (sluice._indexing_functions, _manipulation).
    def take(self, indices, axis=None, out=None, mode="raise"):
        from ._indexing_functions import take
        return take(self, indices, axis, out, mode)

    def put(self, indices, values, mode="raise"):
        from ._indexing_functions import put
        return put(self, indices, values, mode)

    def nonzero(self):
        from ._indexing_functions import nonzero
        return nonzero(self)

    def compress(self, condition, axis=None, out=None):
        from ._indexing_functions import compress
        return compress(condition, self, axis, out)

    def choose(self, choices, out=None, mode="raise"):
        from ._indexing_functions import choose
        return choose(self, choices, out, mode)

    def repeat(self, repeats, axis=None):
        from ._manipulation import repeat
        return repeat(self, repeats, axis)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        from ._manipulation import diagonal
        return diagonal(self, offset, axis1, axis2)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        from ._manipulation import trace
        return trace(self, offset, axis1, axis2, dtype, out)

    def squeeze(self, axis=None):
        return _ops().squeeze(self, axis)

    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        return _ops().sum(self, axis=axis, dtype=dtype, out=out,
                          keepdims=keepdims)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):
        return _ops().prod(self, axis=axis, dtype=dtype, out=out,
                           keepdims=keepdims)

    def max(self, axis=None, out=None, keepdims=False):
        return _ops().max(self, axis=axis, out=out, keepdims=keepdims)

    def min(self, axis=None, out=None, keepdims=False):
        return _ops().min(self, axis=axis, out=out, keepdims=keepdims)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False):
        return _ops().mean(self, axis=axis, dtype=dtype, out=out,
                           keepdims=keepdims)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return _ops().var(self, axis=axis, dtype=dtype, out=out, ddof=ddof,
                          keepdims=keepdims)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return _ops().std(self, axis=axis, dtype=dtype, out=out, ddof=ddof,
                          keepdims=keepdims)

    def all(self, axis=None, out=None, keepdims=False):
        return _ops().all(self, axis=axis, out=out, keepdims=keepdims)

    def any(self, axis=None, out=None, keepdims=False):
        return _ops().any(self, axis=axis, out=out, keepdims=keepdims)

    def copy(self, order="C"):
        return _ops().copy(self)

    # sorting, searching and scans (python/sluice/_sorting.py, _scans.py)
    def argmax(self, axis=None, out=None, *, keepdims=False):
        from . import _sorting
        return _sorting.argmax(self, axis, keepdims=keepdims)

    def argmin(self, axis=None, out=None, *, keepdims=False):
        from . import _sorting
        return _sorting.argmin(self, axis, keepdims=keepdims)

    def argsort(self, axis=-1, kind=None, order=None):
        from . import _sorting
        return _sorting.argsort(self, axis)

    def sort(self, axis=-1, kind=None, order=None):
        """Sorts in place (as NumPy's ndarray.sort)."""
        from . import _sorting
        self[...] = _sorting.sort(self, axis)

    def searchsorted(self, v, side="left", sorter=None):
        from . import _sorting
        return _sorting.searchsorted(self, v, side, sorter)

    def cumsum(self, axis=None, dtype=None, out=None):
        from . import _scans
        return _scans.cumsum(self, axis, dtype, out)

    def cumprod(self, axis=None, dtype=None, out=None):
        from . import _scans
        return _scans.cumprod(self, axis, dtype, out)
    # Complex numbers (sluice._complex).
    @property
    def real(self):
        return _ops()._complex.real(self)

    @property
    def imag(self):
        return _ops()._complex.imag(self)

    def conj(self):
        return _ops()._complex.conj(self)

    def conjugate(self):
        return _ops()._complex.conj(self)
