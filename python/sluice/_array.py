"""sluice.Array: an n-dimensional array in USM memory bound to a queue."""

import numpy as np

from . import _dtypes
from . import _sluice as _ext
from ._device import Device, _coerce_device, _queue_from_id
from ._errors import TracerError
from ._placement import USM_NAMES, queue_info
from ._trace import ScalarTracer, Tracer


class Array(_ext.ArrayCore):
    """An array in USM memory (device, shared or host) on one queue, like
    ``dpnp.ndarray``.

    Operations on arrays run on the queue the arrays are on (compute follows
    data) and return at once; reading data (``asnumpy``, printing,
    ``float()``) waits for them. Arrays are made by sluice's creation
    functions (``asarray``, ``zeros``, ``arange``, ...) or, as in dpnp, by
    ``ndarray(shape, dtype=..., sycl_queue=...)``.
    ``x[...]`` with integers, slices, ``...`` and None gives views that
    share memory.

    This module holds the array's data, attributes, host conversion and
    DLPack; its constructor, operators, methods, in-place operators and
    indexing beyond views are functions of the operations, which
    sluice._methods puts on the class.
    """

    __slots__ = ()

    def __init__(self, *args, **kwargs):
        pass  # __new__ made the array

    # --- attributes -------------------------------------------------------
    @property
    def dtype(self):
        return _dtypes.DTYPES[self._dtype_code]

    @property
    def usm_type(self):
        """ "device", "shared" or "host"."""
        return USM_NAMES[self._usm_kind]

    @property
    def strides(self):
        """Strides in bytes, as NumPy reports them."""
        item = self.itemsize
        return tuple(s * item for s in self._strides)

    @property
    def flags(self):
        return {
            "C_CONTIGUOUS": self._c_contiguous,
            "WRITEABLE": not self._readonly,
        }

    # --- host conversion -----------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            "Implicit conversion of a sluice.Array to a NumPy array is not "
            f"allowed (the data lives on {self.device.filter_string}): use "
            "sluice.asnumpy(x), or numpy.from_dlpack(x) for host-accessible "
            "memory"
        )

    def asnumpy(self):
        return asnumpy(self)

    def _item(self):
        if self.size != 1:
            raise ValueError(
                "only arrays of one element can be converted to Python "
                f"scalars (this one has shape {self.shape})"
            )
        return asnumpy(self).reshape(()).item()

    def item(self, *args):
        return asnumpy(self).item(*args)

    def tolist(self):
        return asnumpy(self).tolist()

    def __bool__(self):
        if self.size != 1:
            raise ValueError(
                "The truth value of an array with more than one element is "
                "ambiguous. Use a.any() or a.all()"
            )
        return bool(self._item())

    def __float__(self):
        return float(self._item())

    def __int__(self):
        return int(self._item())

    def __complex__(self):
        return complex(self._item())

    def __index__(self):
        if self.dtype.kind not in "iu":
            raise TypeError(
                "only integer scalar arrays can be converted to a scalar index"
            )
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
        return (
            f"Array({body}, dtype={self.dtype}, device={place}, "
            f"usm_type={self.usm_type})"
        )

    def __str__(self):
        return str(asnumpy(self))

    def __format__(self, spec):
        if self.ndim == 0 and spec:
            return format(self._item(), spec)
        return str(self) if not spec else format(str(self), spec)

    def fill(self, value):
        self[...] = value

    # --- DLPack --------------------------------------------------------------
    def __dlpack_device__(self):
        return tuple(self._dlpack_device())

    def __dlpack__(
        self, *, stream=None, max_version=None, dl_device=None, copy=None
    ):
        """A DLPack capsule of the array (waits for its data, so a
        consumer's ``stream`` may use it at once). Memory the host can reach
        is exported as CPU memory, so NumPy takes it without a copy; CUDA
        memory as CUDA memory of its device, for PyTorch, CuPy or JAX."""
        if stream is not None and not isinstance(stream, int):
            raise TypeError(
                f"stream must be an int or None, not {type(stream).__name__}"
            )
        versioned = max_version is not None and tuple(max_version)[0] >= 1
        own = self.__dlpack_device__()
        if dl_device is None and own[0] == _DL_ONEAPI:
            raise BufferError(
                f"the array is device memory of {self.device.filter_string}"
                ", which the host cannot read: ask for a copy with "
                "dl_device=(1, 0), or share it through "
                "__sycl_usm_array_interface__ (for MPI: stage it with "
                "sluice.distributed.staged(x))"
            )
        if (
            dl_device is not None
            and tuple(dl_device) != own
            and not (
                own[0] == _DL_CUDA_MANAGED
                and tuple(dl_device) == (_DL_CUDA, own[1])
            )
        ):
            if tuple(dl_device)[0] != 1:
                raise BufferError(
                    f"cannot export to DLPack device {tuple(dl_device)}"
                )
            if copy is False:
                raise BufferError(
                    "exporting to the CPU needs a copy, and "
                    "copy=False forbids it"
                )
            host = asnumpy(self)
            kw = {"max_version": max_version} if versioned else {}
            return host.__dlpack__(**kw)
        src = self
        if copy:
            src = self._contiguous(self._queue_id, self._usm_kind, True)
        return src._dlpack(versioned, bool(copy))


ndarray = Array
_ext.set_array_type(Array)


def _broadcast_view(src, shape):
    """A view of ``src`` broadcast to ``shape`` (zero strides)."""
    shape = tuple(shape)
    sshape = tuple(src.shape)
    try:
        ok = tuple(np.broadcast_shapes(sshape, shape)) == shape
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(
            f"could not broadcast input array from shape "
            f"{sshape} into shape {shape}"
        )
    if sshape == shape:
        return src
    pad = len(shape) - len(sshape)
    strides = [0] * pad + [
        0 if (d == 1 and t != 1) else s
        for d, s, t in zip(sshape, src._strides, shape[pad:])
    ]
    return src._view(src._offset, list(shape), strides)


def _from_host(host, qid, kind):
    """A new array on queue ``qid`` with the data of NumPy array
    ``host``."""
    dt = _dtypes.to_dtype(host.dtype)
    _dtypes.check_supported(dt, queue_info(_queue_from_id(qid)))
    host = np.asarray(host, dtype=dt, order="C")
    return _ext.from_host(
        qid,
        kind,
        _dtypes.CODES[dt],
        list(host.shape),
        host.reshape(-1).view(np.uint8),
    )


def asnumpy(x, order="C"):
    """The array's data as a new NumPy array (waits for pending work).
    NumPy arrays and other objects go through ``numpy.asarray``."""
    if isinstance(x, Array):
        out = np.empty(x.shape, dtype=x.dtype)
        x._to_host(out.reshape(-1).view(np.uint8))
        return out
    if isinstance(x, (Tracer, ScalarTracer)):
        raise TracerError(
            "asnumpy() of a traced value inside @sluice.jit: "
            "return the array and convert the result"
        )
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
            raise TypeError(
                f"{type(x).__name__} does not support DLPack "
                "(it has no __dlpack__)"
            )
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
                raise ValueError(
                    "the array is not on the requested device "
                    "and copy=False forbids moving it"
                )
            return arr.to_device(q)
    if copy and not copied:
        return arr.copy()
    return arr
