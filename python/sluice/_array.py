"""sluice.Array: an n-dimensional array in USM memory bound to a queue."""

import threading

import numpy as np

from . import _dtypes
from . import _sluice as _ext
from ._device import Device, _coerce_device, _queue_from_id
from ._errors import PLACEMENT_MESSAGE, ExecutionPlacementError, TracerError
from ._advanced_indexing import is_advanced
from ._indexing import view_of
from ._methods import ArrayMethods
from ._placement import USM_NAMES, queue_info


class Array(_ext.ArrayCore, ArrayMethods):
    """An array in USM memory (device, shared or host) on one queue, like
    ``dpnp.ndarray``.

    Operations on arrays run on the queue the arrays are on (compute follows
    data) and return at once; reading data (``asnumpy``, printing,
    ``float()``) waits for them. Arrays are made by sluice's creation
    functions (``asarray``, ``zeros``, ``arange``, ...) or, as in dpnp, by
    ``ndarray(shape, dtype=..., sycl_queue=...)``.
    ``x[...]`` with integers, slices, ``...`` and None gives views that
    share memory.
    """

    __slots__ = ()

    def __new__(cls, shape, dtype=None, buffer=None, offset=0, strides=None,
                order="C", device=None, usm_type="device", sycl_queue=None):
        """``ndarray(shape, dtype=None, buffer=None, offset=0, strides=None,
        order="C", device=None, usm_type="device", sycl_queue=None)``, as
        ``dpnp.ndarray``: a new uninitialised array of that shape on the
        device or queue given, or, with ``buffer`` (a sluice.memory object
        or anything with ``__sycl_usm_array_interface__``), an array over
        that memory with ``offset`` and ``strides`` in elements."""
        if buffer is None:
            if strides is not None or offset:
                raise ValueError("strides and offset need a buffer")
            from ._creation import empty
            return empty(shape, dtype=dtype, order=order, device=device,
                         usm_type=usm_type, sycl_queue=sycl_queue)
        if device is not None or sycl_queue is not None:
            raise ValueError("an array over a buffer lives where the "
                             "buffer is: give no device or sycl_queue")
        from .tensor import usm_ndarray
        return usm_ndarray(shape, dtype=dtype, strides=strides,
                           buffer=buffer, offset=offset, order=order)

    def __init__(self, *args, **kwargs):
        pass  # __new__ made the array

    # --- attributes -------------------------------------------------------
    @property
    def dtype(self):
        return _dtypes.DTYPES[self._dtype_code]

    @property
    def usm_type(self):
        """"device", "shared" or "host"."""
        return USM_NAMES[self._usm_kind]

    @property
    def strides(self):
        """Strides in bytes, as NumPy reports them."""
        item = self.itemsize
        return tuple(s * item for s in self._strides)

    @property
    def flags(self):
        return {"C_CONTIGUOUS": self._c_contiguous,
                "WRITEABLE": not self._readonly}

    # --- host conversion ------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            "Implicit conversion of a sluice.Array to a NumPy array is not "
            f"allowed (the data lives on {self.device.filter_string}): use "
            "sluice.asnumpy(x), or numpy.from_dlpack(x) for host-accessible "
            "memory")

    def asnumpy(self):
        return asnumpy(self)

    def _item(self):
        if self.size != 1:
            raise ValueError(
                "only arrays of one element can be converted to Python "
                f"scalars (this one has shape {self.shape})")
        return asnumpy(self).reshape(()).item()

    def item(self, *args):
        return asnumpy(self).item(*args)

    def tolist(self):
        return asnumpy(self).tolist()

    def __bool__(self):
        if self.size != 1:
            raise ValueError(
                "The truth value of an array with more than one element is "
                "ambiguous. Use a.any() or a.all()")
        return bool(self._item())

    def __float__(self):
        return float(self._item())

    def __int__(self):
        return int(self._item())

    def __complex__(self):
        return complex(self._item())

    def __index__(self):
        if self.dtype.kind not in "iu":
            raise TypeError("only integer scalar arrays can be converted to "
                            "a scalar index")
        return int(self._item())

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    def __repr__(self):
        data = asnumpy(self)
        body = np.array2string(data, separator=", ", prefix="Array(")
        q = self.sycl_queue
        place = q.sycl_device.filter_string
        if q.name:
            place += f" (queue {q.name!r})"
        return (f"Array({body}, dtype={self.dtype}, device={place}, "
                f"usm_type={self.usm_type})")

    def __str__(self):
        return str(asnumpy(self))

    def __format__(self, spec):
        if self.ndim == 0 and spec:
            return format(self._item(), spec)
        return str(self) if not spec else format(str(self), spec)

    # --- indexing -------------------------------------------------------------
    # ArrayCore's __getitem__/__setitem__ (C++) take basic keys (and array
    # values of the same dtype and queue); they call these for the rest.
    def _getitem_slow(self, key):
        if is_advanced(key):
            from ._advanced_indexing import getitem
            return getitem(self, key)
        offset, shape, strides = view_of(self.shape, self._strides,
                                         self._offset, key)
        return self._view(offset, shape, strides)

    def _setitem_slow(self, key, value):
        from ._trace import ScalarTracer, Tracer
        if self._readonly:
            raise ValueError("assignment destination is read-only")
        if is_advanced(key):
            from ._advanced_indexing import setitem
            return setitem(self, key, value)
        offset, shape, strides = view_of(self.shape, self._strides,
                                         self._offset, key)
        dst = self._view(offset, shape, strides)
        shape = tuple(shape)
        if isinstance(value, (Tracer, ScalarTracer)):
            raise TracerError("a traced value cannot be stored into a "
                              "concrete array inside @sluice.jit")
        if isinstance(value, Array):
            if value._queue_id != self._queue_id:
                raise ExecutionPlacementError(
                    f"{PLACEMENT_MESSAGE} The target is on "
                    f"{self.sycl_queue!r} and the value on "
                    f"{value.sycl_queue!r}; migrate the value with "
                    "to_device().")
            src = value
            if src.dtype != self.dtype:
                src = src.astype(self.dtype)
            dst._copy_from(_broadcast_view(src, shape))
            return
        if isinstance(value, (bool, int, float, np.generic)):
            v = np.asarray(value).astype(self.dtype) if isinstance(
                value, np.generic) else np.asarray(value, dtype=self.dtype)
            dst._fill(v.tobytes())
            return
        try:
            host = np.asarray(value, dtype=self.dtype)
        except (TypeError, ValueError) as e:
            raise TypeError(f"cannot assign {type(value).__name__} to a "
                            f"sluice.Array: {e}") from None
        src = _from_host(host, self._queue_id, self._usm_kind)
        dst._copy_from(_broadcast_view(src, shape))

    def fill(self, value):
        self[...] = value

    # --- in-place operators: compute, then copy into this array ---------------
    def _inplace(self, op, other, name):
        # The read and the write are submitted back to back under one lock,
        # so they are adjacent in queue order: an update from another thread
        # reads either before both or after both, and none is lost.
        with _INPLACE_LOCK:
            code = _FAST_OPS.get(name)
            if code is not None and _ext.fast_into(code, self, other, self):
                return self
            return self._inplace_locked(op, other, name)

    def _inplace_locked(self, op, other, name):
        if self._readonly:
            raise ValueError("output array is read-only")
        from . import _ops
        from ._trace import ScalarTracer, Tracer
        if name in _ops._BINARY and \
                not isinstance(other, (Tracer, ScalarTracer)) and \
                _ops.writable_in_place(
                    self, [other] if isinstance(other, Array) else []):
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
                    f"{self.dtype!r} with casting rule 'same_kind'")
            r = r.astype(self.dtype)
        if tuple(r.shape) != tuple(self.shape):
            raise ValueError(
                f"non-broadcastable output operand with shape {self.shape} "
                f"doesn't match the broadcast shape {r.shape}")
        self[...] = r
        return self

    def __iadd__(self, o):
        from . import _ops
        return self._inplace(_ops.add, o, "add")

    def __isub__(self, o):
        from . import _ops
        return self._inplace(_ops.subtract, o, "subtract")

    def __imul__(self, o):
        from . import _ops
        return self._inplace(_ops.multiply, o, "multiply")

    def __itruediv__(self, o):
        from . import _ops
        return self._inplace(_ops.divide, o, "divide")

    def __ifloordiv__(self, o):
        from . import _ops
        return self._inplace(_ops.floor_divide, o, "floor_divide")

    def __imod__(self, o):
        from . import _ops
        return self._inplace(_ops.remainder, o, "remainder")

    def __ipow__(self, o):
        from . import _ops
        return self._inplace(_ops.power, o, "power")

    def __reduce__(self):
        # Pickling (mpi4py's lowercase comm.send, multiprocessing) copies
        # the data to the host; unpickling copies it to the device of the
        # same filter string, in the same USM kind.
        return (_unpickle, (asnumpy(self), self.device.filter_string,
                            self.usm_type))
    def __iand__(self, o):
        from . import _ops
        return self._inplace(_ops.bitwise_and, o, "bitwise_and")

    def __ior__(self, o):
        from . import _ops
        return self._inplace(_ops.bitwise_or, o, "bitwise_or")

    def __ixor__(self, o):
        from . import _ops
        return self._inplace(_ops.bitwise_xor, o, "bitwise_xor")

    def __ilshift__(self, o):
        from . import _ops
        return self._inplace(_ops.left_shift, o, "left_shift")

    def __irshift__(self, o):
        from . import _ops
        return self._inplace(_ops.right_shift, o, "right_shift")

    # --- DLPack ------------------------------------------------------------------
    def __dlpack_device__(self):
        return tuple(self._dlpack_device())

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None,
                   copy=None):
        """A DLPack capsule of the array (waits for its data, so a
        consumer's ``stream`` may use it at once). Memory the host can reach
        is exported as CPU memory, so NumPy takes it without a copy; CUDA
        memory as CUDA memory of its device, for PyTorch, CuPy or JAX."""
        if stream is not None and not isinstance(stream, int):
            raise TypeError(f"stream must be an int or None, not "
                            f"{type(stream).__name__}")
        versioned = max_version is not None and tuple(max_version)[0] >= 1
        own = self.__dlpack_device__()
        if dl_device is None and own[0] == _DL_ONEAPI:
            raise BufferError(
                f"the array is device memory of {self.device.filter_string}"
                ", which the host cannot read: ask for a copy with "
                "dl_device=(1, 0), or share it through "
                "__sycl_usm_array_interface__ (for MPI: stage it with "
                "sluice.distributed.staged(x))")
        if dl_device is not None and tuple(dl_device) != own and \
                not (own[0] == _DL_CUDA_MANAGED and
                     tuple(dl_device) == (_DL_CUDA, own[1])):
            if tuple(dl_device)[0] != 1:
                raise BufferError(f"cannot export to DLPack device "
                                  f"{tuple(dl_device)}")
            if copy is False:
                raise BufferError("exporting to the CPU needs a copy, and "
                                  "copy=False forbids it")
            host = asnumpy(self)
            kw = {"max_version": max_version} if versioned else {}
            return host.__dlpack__(**kw)
        src = self
        if copy:
            src = self._contiguous(self._queue_id, self._usm_kind, True)
        return src._dlpack(versioned, bool(copy))


ndarray = Array
_ext.set_array_type(Array)

_INPLACE_LOCK = threading.RLock()
_FAST_OPS = None  # sluice._dispatch._FAST_OPS, set when _ops is imported
_ext.set_index_fallbacks(Array._getitem_slow, Array._setitem_slow)


def _unpickle(data, device, usm_type):
    from ._creation import asarray
    return asarray(data, device=device, usm_type=usm_type)


def _broadcast_view(src, shape):
    """A view of ``src`` broadcast to ``shape`` (zero strides)."""
    shape = tuple(shape)
    sshape = tuple(src.shape)
    try:
        ok = tuple(np.broadcast_shapes(sshape, shape)) == shape
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"could not broadcast input array from shape "
                         f"{sshape} into shape {shape}")
    if sshape == shape:
        return src
    pad = len(shape) - len(sshape)
    strides = [0] * pad + [0 if (d == 1 and t != 1) else s for d, s, t in
                           zip(sshape, src._strides, shape[pad:])]
    return src._view(src._offset, list(shape), strides)


def _from_host(host, qid, kind):
    """A new array on queue ``qid`` with the data of NumPy array
    ``host``."""
    dt = _dtypes.to_dtype(host.dtype)
    _dtypes.check_supported(dt, queue_info(_queue_from_id(qid)))
    host = np.asarray(host, dtype=dt, order="C")
    return _ext.from_host(qid, kind, _dtypes.CODES[dt], list(host.shape),
                          host.reshape(-1).view(np.uint8))


def asnumpy(x, order="C"):
    """The array's data as a new NumPy array (waits for pending work).
    NumPy arrays and other objects go through ``numpy.asarray``."""
    from ._trace import ScalarTracer, Tracer
    if isinstance(x, Array):
        out = np.empty(x.shape, dtype=x.dtype)
        x._to_host(out.reshape(-1).view(np.uint8))
        return out
    if isinstance(x, (Tracer, ScalarTracer)):
        raise TracerError("asnumpy() of a traced value inside @sluice.jit: "
                          "return the array and convert the result")
    return np.asarray(x, order=order)


_host_queue = None


def _host_queue_id():
    global _host_queue
    if _host_queue is None:
        _host_queue = Device("host").sycl_queue
    return _host_queue._id


# DLPack device types.
_DL_CUDA = 2
_DL_CUDA_MANAGED = 13
_DL_ONEAPI = 14


def _producer_device(x):
    f = getattr(x, "__dlpack_device__", None)
    if f is None:
        return None
    try:
        dev = tuple(f())
    except Exception:
        return None
    return dev if len(dev) == 2 else None


def from_dlpack(x, /, *, device=None, copy=None):
    """A sluice.Array of a DLPack producer (NumPy, PyTorch, CuPy, ...),
    without a copy: host memory lives on the host device, CUDA memory on the
    canonical queue of its GPU (``cuda:gpu:N``), a Sluice array's memory
    where it was. ``device=`` moves it (a copy; ``copy=False`` then
    raises)."""
    if isinstance(x, Array):
        arr = x
        copied = False
    else:
        if not hasattr(x, "__dlpack__"):
            raise TypeError(f"{type(x).__name__} does not support DLPack "
                            "(it has no __dlpack__)")
        kw = {}
        dev = _producer_device(x)
        if dev is not None and dev[0] in (_DL_CUDA, _DL_CUDA_MANAGED):
            # The producer makes its data ready on the stream of the queue
            # the array will live on (the canonical queue of that GPU).
            qid = _ext.get_queue(f"cuda:gpu:{dev[1]}", "")
            kw["stream"] = _ext.queue_native_handle(qid)
        try:
            capsule = x.__dlpack__(max_version=(1, 0), copy=copy, **kw)
        except TypeError:
            capsule = x.__dlpack__(**kw)
        arr = _ext.dlpack_import(capsule, _host_queue_id())
        copied = bool(copy)
    if device is not None:
        q = _coerce_device(device).sycl_queue
        if q._id != arr._queue_id:
            if copy is False:
                raise ValueError("the array is not on the requested device "
                                 "and copy=False forbids moving it")
            return arr.to_device(q)
    if copy and not copied:
        return arr.copy()
    return arr
