"""USM memory as untyped bytes (dpctl.memory).

``MemoryUSMDevice(nbytes, alignment=0, queue=None)``,
``MemoryUSMShared(...)`` and ``MemoryUSMHost(...)`` allocate ``nbytes`` of
USM memory of their kind on ``queue`` (default: the default device's
canonical queue). Shared and host memory the host can reach give the
buffer protocol (``memoryview(m)``, ``numpy.frombuffer(m, ...)``); device
memory raises BufferError there. Every object describes itself with
``__sycl_usm_array_interface__`` and is made from any object that does
(``MemoryUSMShared(x)`` shares ``x``'s memory when it is shared memory;
``copy=True`` copies it when it is of another kind).

Copies (``copy_from_host``, ``copy_to_host``, ``copy_from_device``) and
``memset`` finish before they return, as in dpctl.
"""

import numpy as np

from . import _dtypes
from . import _sluice as _ext
from ._device import Device, Queue, _coerce_device, _queue_from_id
from ._errors import SluiceError, USMAllocationError
from ._placement import USM_KINDS, USM_NAMES

__all__ = [
    "MemoryUSMDevice",
    "MemoryUSMShared",
    "MemoryUSMHost",
    "as_usm_memory",
    "USMAllocationError",
]

_U8 = _dtypes.CODES[_dtypes.uint8]


def _default_queue(queue):
    if queue is None:
        return _coerce_device(None).sycl_queue
    if isinstance(queue, Queue):
        return queue
    raise TypeError(
        f"queue must be a sluice.SyclQueue or None, not {type(queue).__name__}"
    )


def _host_buffer(obj, writable):
    """A flat uint8 NumPy view of a Python buffer object."""
    try:
        mv = memoryview(obj)
    except TypeError:
        raise TypeError(
            f"{type(obj).__name__} does not support the buffer protocol"
        ) from None
    if writable and mv.readonly:
        raise ValueError("the destination buffer is read-only")
    if not mv.c_contiguous:
        raise ValueError("the buffer is not C-contiguous")
    if mv.ndim != 1 or mv.format != "B":
        mv = mv.cast("B")
    return np.frombuffer(mv, dtype=np.uint8)


class _Memory(_ext.MemoryCore):
    """The common part of the three USM memory classes."""

    _kind_name = None

    def __init__(self, nbytes, alignment=0, queue=None, copy=False):
        super().__init__()
        self._owner = None
        if isinstance(nbytes, (int, np.integer)) and not isinstance(
            nbytes, bool
        ):
            nbytes = int(nbytes)
            if nbytes <= 0:
                raise ValueError(
                    "the number of bytes to allocate must be "
                    f"positive, not {nbytes}"
                )
            if not isinstance(alignment, int) or (
                alignment > 0 and alignment & (alignment - 1)
            ):
                raise ValueError("alignment must be 0 or a power of two")
            q = _default_queue(queue)
            try:
                arr = _ext.empty(
                    q._id, USM_KINDS[self._kind_name], _U8, [nbytes]
                )
            except MemoryError as e:
                raise USMAllocationError(str(e)) from e
            except SluiceError as e:
                raise USMAllocationError(str(e)) from e
            if alignment > 0 and arr._data_pointer() % alignment:
                raise USMAllocationError(
                    f"no allocation aligned to {alignment} bytes"
                )
            self._set_bytes(arr)
            return
        if alignment or queue is not None:
            raise TypeError(
                "alignment and queue are for new allocations; "
                "an object with __sycl_usm_array_interface__ "
                "brings its own"
            )
        arr = _bytes_of(nbytes)
        kind = USM_KINDS[self._kind_name]
        if arr._usm_kind != kind:
            if not copy:
                raise ValueError(
                    f"the object's memory is USM {USM_NAMES[arr._usm_kind]} "
                    f"memory, not {self._kind_name}: pass copy=True to copy "
                    "it"
                )
            arr = arr._contiguous(arr._queue_id, kind, True)
        else:
            self._owner = nbytes
        self._set_bytes(arr)

    # --- attributes -------------------------------------------------------
    @property
    def nbytes(self):
        """Extent of the memory in bytes."""
        return self._bytes.shape[0]

    @property
    def size(self):
        return self.nbytes

    @property
    def _pointer(self):
        """The USM pointer (waits for pending writes)."""
        return self._bytes._data_pointer()

    @property
    def sycl_queue(self):
        return _queue_from_id(self._bytes._queue_id)

    _queue = sycl_queue

    @property
    def sycl_device(self):
        return self.sycl_queue.sycl_device

    @property
    def sycl_context(self):
        return self.sycl_queue.sycl_context

    _context = sycl_context

    @property
    def reference_obj(self):
        """The object whose memory this is (None for own allocations)."""
        return self._owner

    def get_usm_type(self, syclobj=None):
        """ "device", "shared" or "host"."""
        return USM_NAMES[self._bytes._usm_kind]

    def get_usm_type_enum(self, syclobj=None):
        """1 (device), 2 (shared), 3 (host)."""
        return self._bytes._usm_kind

    @property
    def __sycl_usm_array_interface__(self):
        _ext.usm_register_export(self._bytes)
        return {
            "data": (self._pointer, False),
            "shape": (self.nbytes,),
            "strides": None,
            "typestr": "|u1",
            "version": 1,
            "syclobj": self.sycl_queue,
            "offset": 0,
        }

    # --- copies -------------------------------------------------------------
    def copy_to_host(self, obj=None):
        """The memory's bytes in ``obj`` (a writable buffer of at least
        ``nbytes`` bytes), or in a new NumPy uint8 array when obj is
        None."""
        out = np.empty(self.nbytes, dtype=np.uint8)
        self._bytes._to_host(out)
        if obj is None:
            return out
        dst = _host_buffer(obj, writable=True)
        if dst.nbytes < self.nbytes:
            raise ValueError(
                f"the destination holds {dst.nbytes} bytes, "
                f"fewer than {self.nbytes}"
            )
        dst[: self.nbytes] = out
        return obj

    def copy_from_host(self, obj):
        """Copies the bytes of a Python buffer object to the start of the
        memory (at most ``nbytes``)."""
        src = _host_buffer(obj, writable=False)
        if src.nbytes > self.nbytes:
            raise ValueError(
                f"the source holds {src.nbytes} bytes, more "
                f"than the {self.nbytes} of this memory"
            )
        if src.nbytes == 0:
            return
        part = self._bytes[: src.nbytes]
        tmp = _ext.from_host(
            _host_queue_id(),
            USM_KINDS["host"],
            _U8,
            [src.nbytes],
            np.ascontiguousarray(src),
        )
        part._copy_from(tmp)
        part._wait()

    def copy_from_device(self, sycl_usm_ary):
        """Copies the memory of an object with
        ``__sycl_usm_array_interface__`` (at most ``nbytes``) to the start
        of this memory."""
        src = _bytes_of(sycl_usm_ary)
        n = src.shape[0]
        if n > self.nbytes:
            raise ValueError(
                f"the source holds {n} bytes, more than the "
                f"{self.nbytes} of this memory"
            )
        if n == 0:
            return
        part = self._bytes[:n]
        part._copy_from(src)
        part._wait()

    def memset(self, value=0):
        """Sets every byte to ``value`` (0..255)."""
        if not isinstance(value, (int, np.integer)) or not 0 <= value <= 255:
            raise ValueError("memset value must be an int in 0..255")
        b = self._bytes
        b._fill(bytes([int(value)]))
        b._wait()

    def tobytes(self):
        return self.copy_to_host().tobytes()

    def __len__(self):
        return self.nbytes

    def __repr__(self):
        return (
            f"<sluice.memory.{type(self).__name__} of {self.nbytes} "
            f"bytes on {self.sycl_device.filter_string}>"
        )


class MemoryUSMDevice(_Memory):
    """``nbytes`` of USM device memory (the host cannot read it: no
    buffer protocol on backends other than host)."""

    _kind_name = "device"


class MemoryUSMShared(_Memory):
    """``nbytes`` of USM shared memory (buffer protocol)."""

    _kind_name = "shared"


class MemoryUSMHost(_Memory):
    """``nbytes`` of USM host memory (buffer protocol)."""

    _kind_name = "host"


_CLASSES = {1: MemoryUSMDevice, 2: MemoryUSMShared, 3: MemoryUSMHost}

_host_queue = None


def _host_queue_id():
    global _host_queue
    if _host_queue is None:
        _host_queue = Device("host").sycl_queue
    return _host_queue._id


# --- __sycl_usm_array_interface__ --------------------------------------------


def _typestr_dtype(typestr):
    try:
        dt = np.dtype(typestr)
    except TypeError:
        raise ValueError(f"bad typestr {typestr!r}") from None
    if dt not in _dtypes.CODES:
        raise ValueError(f"unsupported element type {typestr!r}")
    return dt


def _interface_queue(syclobj):
    from ._sycl import SyclContext

    if isinstance(syclobj, Queue):
        return syclobj
    if isinstance(syclobj, Device):
        return syclobj.sycl_queue
    if isinstance(syclobj, SyclContext):
        return syclobj.get_devices()[0].sycl_queue
    if syclobj is None:
        return None
    raise TypeError(
        "syclobj of __sycl_usm_array_interface__ must be a "
        f"SyclQueue or SyclContext, not {type(syclobj).__name__}"
    )


def from_usm_interface(obj):
    """A sluice.Array over the memory ``obj`` describes with
    ``__sycl_usm_array_interface__`` (no copy). Sluice arrays and memory
    objects give their own memory, with its pending work; other objects'
    pointers are looked up among Sluice's allocations (then the array is
    on the queue that made them) or taken as memory of the interface's
    queue; ``obj`` stays alive as long as the array."""
    if isinstance(obj, _ext.ArrayCore):  # a sluice.Array
        return obj
    if isinstance(obj, _Memory):
        return obj._bytes
    try:
        iface = obj.__sycl_usm_array_interface__
    except AttributeError:
        raise TypeError(
            f"{type(obj).__name__} has no __sycl_usm_array_interface__"
        ) from None
    if not isinstance(iface, dict):
        raise TypeError("__sycl_usm_array_interface__ must be a dict")
    try:
        ptr, readonly = iface["data"]
        shape = tuple(int(d) for d in iface["shape"])
        typestr = iface["typestr"]
    except (KeyError, TypeError, ValueError):
        raise ValueError(
            "__sycl_usm_array_interface__ needs 'data' "
            "(pointer, read-only flag), 'shape' and "
            "'typestr'"
        ) from None
    version = iface.get("version", 1)
    if version != 1:
        raise ValueError(
            f"unsupported __sycl_usm_array_interface__ version {version}"
        )
    dt = _typestr_dtype(typestr)
    item = dt.itemsize
    strides = iface.get("strides")
    if strides is None:
        strides, acc = [], 1
        for d in reversed(shape):
            strides.insert(0, acc)
            acc *= max(d, 1)
    strides = [int(s) for s in strides]
    if len(strides) != len(shape):
        raise ValueError("shape and strides differ in rank")
    offset = int(iface.get("offset", 0) or 0)
    q = _interface_queue(iface.get("syclobj"))
    first = int(ptr) + offset * item
    lo = hi = 0
    if all(shape):
        for d, s in zip(shape, strides):
            ext = (d - 1) * s * item
            if ext < 0:
                lo += ext
            else:
                hi += ext
        hi += item
    if q is None:
        kind, qid, _, _ = _ext.pointer_info(
            first + lo if all(shape) else first
        )
        if not qid:
            raise ValueError(
                "__sycl_usm_array_interface__ without a "
                "syclobj describes memory Sluice did not "
                "allocate"
            )
        q = _queue_from_id(qid)
    return _ext.usm_import(
        first,
        lo,
        hi,
        _dtypes.CODES[dt],
        list(shape),
        strides,
        obj,
        bool(readonly),
        q._id,
    )


def _bytes_of(obj):
    """The contiguous bytes of a USM object, as a flat uint8 Array."""
    arr = from_usm_interface(obj)
    if not arr._c_contiguous:
        raise ValueError("the USM object's memory is not contiguous")
    n = arr.size * arr.itemsize
    if arr._dtype_code == _U8 and arr.ndim == 1:
        return arr
    return _ext.core_reinterpret(
        arr, _U8, arr._offset * arr.itemsize, [n], [1]
    )


def as_usm_memory(obj):
    """A USM memory object of the kind of ``obj``'s memory, sharing it
    (``obj`` has ``__sycl_usm_array_interface__``)."""
    if isinstance(obj, _Memory):
        return obj
    arr = _bytes_of(obj)
    cls = _CLASSES[arr._usm_kind]
    return cls(obj)


def _copy_bytes(queue, dest, src, count, deps):
    """Queue.memcpy_async: ``count`` bytes from src to dest."""
    from ._sycl import SyclEvent

    if not isinstance(count, (int, np.integer)) or count < 0:
        raise ValueError("count must be a non-negative int")
    count = int(count)
    evs = (
        []
        if deps is None
        else ([deps] if isinstance(deps, SyclEvent) else list(deps))
    )
    for e in evs:
        e.wait()

    def side(obj, writable):
        if hasattr(obj, "__sycl_usm_array_interface__") or isinstance(
            obj, _Memory
        ):
            return _bytes_of(obj), None
        h = _host_buffer(obj, writable)
        return None, h

    d_usm, d_host = side(dest, True)
    s_usm, s_host = side(src, False)
    for name, usm, host in (
        ("destination", d_usm, d_host),
        ("source", s_usm, s_host),
    ):
        n = usm.shape[0] if usm is not None else host.nbytes
        if n < count:
            raise ValueError(
                f"the {name} holds {n} bytes, fewer than count={count}"
            )
    if d_usm is None and s_usm is None:
        raise TypeError("memcpy needs USM memory on one side at least")
    if count:
        if d_usm is None:
            tmp = np.empty(count, dtype=np.uint8)
            s_usm[:count]._to_host(tmp)
            d_host[:count] = tmp
        else:
            if s_usm is None:
                s_usm = _ext.from_host(
                    _host_queue_id(),
                    USM_KINDS["host"],
                    _U8,
                    [count],
                    np.ascontiguousarray(s_host[:count]),
                )
            # Through the runtime's queue: the event's timestamps are the
            # copy's.
            d_usm[:count]._copy_from(s_usm[:count], profiled=True)
            queue = _queue_from_id(d_usm._queue_id)
    return SyclEvent._marker(queue)


def array_interface(x):
    """``__sycl_usm_array_interface__`` of a sluice.Array (waits for
    pending writes)."""
    ptr = x._data_pointer()
    _ext.usm_register_export(x)
    return {
        "data": (ptr, bool(x._readonly)),
        "shape": tuple(x.shape),
        "strides": None if x._c_contiguous else tuple(x._strides),
        "typestr": x.dtype.str,
        "version": 1,
        "syclobj": x.sycl_queue,
        "offset": 0,
    }
