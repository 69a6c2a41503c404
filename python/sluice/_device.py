"""Devices and queues, as dpctl spells them.

``Device`` is both dpctl's ``SyclDevice`` (a piece of hardware with
properties, made from a filter selector string) and
``dpctl.tensor.Device`` (where an array lives: a device with a queue,
``Device.create_device(obj)``). ``Queue`` is dpctl's ``SyclQueue``: every
``Queue(device)`` is a new, distinct in-order queue; each device also has a
canonical queue that arrays use unless told otherwise.
"""

import enum
import itertools
import threading

from . import _sluice as _ext


class backend_type(enum.Enum):
    level_zero = 0
    opencl = 1
    cuda = 2
    host = 3
    all = -1


class device_type(enum.Enum):
    gpu = 0
    cpu = 1
    accelerator = 2
    all = -1


_BACKEND_ALIASES = {"native_cpu": "host", "ze": "level_zero"}

_info_cache = {}


def _info(handle):
    info = _info_cache.get(handle)
    if info is None:
        info = _info_cache[handle] = _ext.device_info(handle)
    return info


def _enum_value(value, enum_type, what):
    if value is None:
        return None
    if isinstance(value, enum_type):
        return None if value.value == -1 else value.value
    if isinstance(value, str):
        name = _BACKEND_ALIASES.get(value.lower(), value.lower())
        try:
            v = enum_type[name]
        except KeyError:
            raise ValueError(
                f"unknown {what} {value!r} (expected one of "
                f"{', '.join(e.name for e in enum_type)})"
            ) from None
        return None if v.value == -1 else v.value
    raise TypeError(
        f"{what} must be a string or sluice.{enum_type.__name__},"
        f" got {type(value).__name__}"
    )


class Device:
    """A device, optionally bound to one of its queues.

    ``Device("opencl:cpu:0")``, ``Device("gpu,cpu")``, ``Device(2)`` (the
    third device), ``Device()`` (the default device), ``Device(queue)``
    (the queue's device, bound to that queue). Arrays report their placement
    as a Device bound to their queue; ``sycl_queue`` is that queue, or the
    device's canonical queue when the Device is not bound.
    """

    __slots__ = ("_handle", "_queue")

    def __init__(self, filter_string=None):
        other = _coerce_device(filter_string)
        self._handle = other._handle
        self._queue = other._queue

    @classmethod
    def create_device(cls, obj=None):
        """dpctl.tensor.Device.create_device: a Device for a filter string,
        a Device, a Queue or None (the default device)."""
        if isinstance(obj, Device):
            return obj
        return _coerce_device(obj)

    @classmethod
    def _from_handle(cls, handle, queue=None):
        d = object.__new__(cls)
        d._handle = handle
        d._queue = queue
        return d

    # --- placement ----------------------------------------------------
    @property
    def sycl_queue(self):
        """The Queue arrays on this Device use."""
        if self._queue is None:
            self._queue = Queue._canonical(self._handle)
        return self._queue

    @property
    def sycl_device(self):
        """The device itself (not bound to a queue)."""
        return Device._from_handle(self._handle)

    # --- properties -----------------------------------------------------
    @property
    def filter_string(self):
        """The normalised filter string, "backend:type:index"."""
        return _info(self._handle)["filter_string"]

    def get_filter_string(self):
        return self.filter_string

    @property
    def name(self):
        return _info(self._handle)["name"]

    @property
    def vendor(self):
        return _info(self._handle)["vendor"]

    @property
    def driver_version(self):
        return _info(self._handle)["driver_version"]

    @property
    def backend(self):
        return backend_type(_info(self._handle)["backend"])

    @property
    def device_type(self):
        return device_type(_info(self._handle)["type"])

    @property
    def is_gpu(self):
        return self.device_type is device_type.gpu

    @property
    def is_cpu(self):
        return self.device_type is device_type.cpu

    @property
    def is_accelerator(self):
        return self.device_type is device_type.accelerator

    @property
    def max_compute_units(self):
        return _info(self._handle)["compute_units"]

    @property
    def global_mem_size(self):
        return _info(self._handle)["global_memory_bytes"]

    @property
    def max_work_group_size(self):
        return _info(self._handle)["max_work_group_size"]

    @property
    def has_aspect_fp16(self):
        return _info(self._handle)["has_fp16"]

    @property
    def has_aspect_fp64(self):
        return _info(self._handle)["has_fp64"]

    @property
    def has_aspect_usm_device_allocations(self):
        return bool(_info(self._handle)["usm_capabilities"] & 1)

    @property
    def has_aspect_usm_shared_allocations(self):
        return bool(_info(self._handle)["usm_capabilities"] & 2)

    @property
    def has_aspect_usm_host_allocations(self):
        return bool(_info(self._handle)["usm_capabilities"] & 4)

    # --- dpctl.SyclDevice's other attributes ---------------------------
    @property
    def has_aspect_cpu(self):
        return self.is_cpu

    @property
    def has_aspect_gpu(self):
        return self.is_gpu

    @property
    def has_aspect_accelerator(self):
        return self.is_accelerator

    @property
    def has_aspect_custom(self):
        return False

    @property
    def has_aspect_host(self):
        return False

    @property
    def has_aspect_emulated(self):
        return False

    @property
    def has_aspect_queue_profiling(self):
        """Every Sluice queue records submit/start/end timestamps."""
        return True

    @property
    def has_aspect_usm_system_allocations(self):
        """Kernels read plain host memory only on the host backend."""
        return self.backend is backend_type.host

    @property
    def has_aspect_atomic64(self):
        return True

    @property
    def has_aspect_image(self):
        return False

    @property
    def has_aspect_online_compiler(self):
        return False

    @property
    def has_aspect_online_linker(self):
        return False

    @property
    def default_selector_score(self):
        """The score of the default selector: the default device (the
        first GPU, else the host CPU) scores highest, ties go to the
        device listed first; devices of no usable kind score below 0."""
        base = {
            device_type.gpu: 500,
            device_type.cpu: 300,
            device_type.accelerator: 75,
        }[self.device_type]
        bonus = {
            backend_type.level_zero: 30,
            backend_type.opencl: 20,
            backend_type.cuda: 10,
            backend_type.host: 50,
        }[self.backend]
        return base + bonus

    @property
    def max_work_item_dims(self):
        return 3

    @property
    def max_work_item_sizes3d(self):
        n = self.max_work_group_size
        return (n, n, n)

    @property
    def max_work_item_sizes2d(self):
        return self.max_work_item_sizes3d[:2]

    @property
    def max_work_item_sizes1d(self):
        return self.max_work_item_sizes3d[:1]

    @property
    def max_mem_alloc_size(self):
        v = self._property_int("max allocation bytes")
        return v if v is not None else self.global_mem_size

    @property
    def local_mem_size(self):
        for key in ("local memory bytes", "shared local memory"):
            v = self._property_int(key)
            if v is not None:
                return v
        return 0

    @property
    def max_clock_frequency(self):
        v = self._property_int("max clock MHz")
        return v if v is not None else 0

    def _property_int(self, key):
        value = dict(_ext.device_properties(self._handle)).get(key)
        try:
            return int(str(value).split()[0])
        except (ValueError, IndexError):
            return None

    @property
    def sycl_platform(self):
        """The platform (driver) the device belongs to."""
        from ._sycl import SyclPlatform

        return SyclPlatform._of_device(self)

    @property
    def parent_device(self):
        """The device this one is a sub-device of, else None."""
        h = _ext.device_parent(self._handle)
        return Device._from_handle(h) if h else None

    def get_unpartitioned_parent_device(self):
        d = self.sycl_device
        while True:
            p = d.parent_device
            if p is None:
                return d
            d = p

    def get_device_id(self):
        """The device's position in ``get_devices()`` (root devices)."""
        for i, d in enumerate(get_devices()):
            if d._handle == self._handle:
                return i
        raise ValueError(f"{self.filter_string} is not a root device")

    def addressof_ref(self):
        """The runtime's handle of the device, as an integer."""
        return self._handle

    def _sub_device_handles(self):
        return _ext.device_sub_devices(self._handle)

    @property
    def has_aspect_is_composite(self):
        return bool(self._sub_device_handles())

    @property
    def has_aspect_is_component(self):
        return _ext.device_parent(self._handle) != 0

    def create_sub_devices(self, *, partition=None):
        """dpctl's partitioning. ``partition=`` an affinity domain
        ("next_partitionable" or "numa": the tiles of a multi-tile Level
        Zero card that shows as one device, under
        ``ZE_FLAT_DEVICE_HIERARCHY=COMPOSITE``), an int (compute units per
        sub-device) or a list of counts. Sluice's runtime partitions only
        by affinity into tiles; other requests, and devices without tiles,
        raise SyclSubDeviceCreationError. Sub-devices are devices like any
        other (queues, arrays); their filter strings are
        "<parent's>.<i>"."""
        from ._errors import SyclSubDeviceCreationError

        domains = (
            "numa",
            "L4_cache",
            "L3_cache",
            "L2_cache",
            "L1_cache",
            "next_partitionable",
        )
        if partition is None:
            raise TypeError("create_sub_devices() needs partition=")
        if isinstance(partition, str):
            if partition not in domains:
                raise ValueError(
                    f"partition {partition!r} is not an "
                    "affinity domain (one of "
                    f"{', '.join(domains)})"
                )
            if partition in ("numa", "next_partitionable"):
                subs = self._sub_device_handles()
                if subs:
                    return [Device._from_handle(h) for h in subs]
            how = f"by the affinity domain {partition!r}"
        elif isinstance(partition, int) and not isinstance(partition, bool):
            if partition <= 0:
                raise ValueError(
                    "partition must be a positive number of compute units"
                )
            how = f"equally ({partition} compute units each)"
        else:
            try:
                counts = [int(c) for c in partition]
            except TypeError:
                raise TypeError(
                    "partition must be an int, a list of ints "
                    "or an affinity domain name, not "
                    f"{type(partition).__name__}"
                ) from None
            if not counts or any(c < 0 for c in counts):
                raise ValueError("partition counts must be non-negative")
            if sum(counts) == 0:
                raise ValueError("partition counts must not all be zero")
            how = f"by counts {counts}"
        raise SyclSubDeviceCreationError(
            f"{self.filter_string} cannot be partitioned {how}: Sluice "
            "partitions only the tiles of a composite Level Zero device "
            "(partition='next_partitionable' or 'numa')"
        )

    @property
    def properties(self):
        """Every property as text (what ``sluice-ls --verbose`` prints)."""
        info = _info(self._handle)
        usm = [
            k
            for bit, k in ((1, "device"), (2, "shared"), (4, "host"))
            if info["usm_capabilities"] & bit
        ]
        props = {
            "backend": info["backend_name"],
            "type": device_type(info["type"]).name,
            "name": info["name"],
            "vendor": info["vendor"],
            "driver": info["driver_version"],
            "compute units": str(info["compute_units"]),
            "global memory": f"{info['global_memory_bytes']} bytes",
            "max workgroup size": str(info["max_work_group_size"]),
            "fp16": "yes" if info["has_fp16"] else "no",
            "fp64": "yes" if info["has_fp64"] else "no",
            "USM": ", ".join(usm),
        }
        props.update(_ext.device_properties(self._handle))
        return props

    def print_device_info(self):
        print(f"[{self.filter_string}] {self.name}")
        for key, value in self.properties.items():
            print(f"    {key:<20} {value}")

    # --- identity -----------------------------------------------------
    def __eq__(self, other):
        if not isinstance(other, Device):
            return NotImplemented
        return (
            self._handle == other._handle
            and self.sycl_queue is other.sycl_queue
        )

    def __hash__(self):
        return hash((self._handle, id(self.sycl_queue)))

    def __repr__(self):
        q = self._queue
        if q is not None and q._name:
            return f"Device({self.filter_string}, queue={q._name!r})"
        return f"Device({self.filter_string})"

    def __str__(self):
        return self.filter_string


class Queue:
    """An in-order queue on a device (dpctl.SyclQueue).

    ``Queue(device)`` makes a new queue, distinct from every other even on
    the same device: arrays on different queues cannot be combined without
    ``to_device``. ``device`` is anything ``Device()`` takes; a Device bound
    to a queue gives a new queue on its device all the same.
    """

    __slots__ = ("_id", "_device_handle", "_name", "_props", "__weakref__")

    _counter = itertools.count(1)
    _lock = threading.Lock()

    def __init__(self, *args, property=None):
        """``Queue()``, ``Queue(device)``, ``Queue(filter_string)``,
        ``Queue(context, device)``, each with ``property=`` "in_order",
        "enable_profiling", "default" or a sequence of them (dpctl's
        forms). Raises SyclQueueCreationError (a ValueError) when no device
        matches, the context lacks the device or a property is not
        supported ("out_of_order": Sluice queues are in order)."""
        from ._errors import DeviceNotFoundError, SyclQueueCreationError

        props = _queue_properties(property)
        if len(args) > 2:
            raise TypeError(
                f"Queue() takes at most 2 positional arguments "
                f"({len(args)} given)"
            )
        ctx = None
        if len(args) == 2:
            ctx, device = args
            from ._sycl import SyclContext

            if not isinstance(ctx, SyclContext):
                raise TypeError(
                    "Queue(context, device) needs a "
                    "SyclContext first, not "
                    f"{type(ctx).__name__}"
                )
        else:
            device = args[0] if args else None
            from ._sycl import SyclContext

            if isinstance(device, SyclContext):
                ctx, device = device, None
                if device is None and ctx.device_count == 1:
                    device = ctx.get_devices()[0]
                elif device is None:
                    raise SyclQueueCreationError(
                        "Queue(context) needs a device when the context "
                        f"holds {ctx.device_count} devices"
                    )
        try:
            dev = _coerce_device(device)
        except DeviceNotFoundError as e:
            raise SyclQueueCreationError(str(e)) from e
        if ctx is not None and dev.sycl_device not in ctx.get_devices():
            raise SyclQueueCreationError(
                f"the context does not hold the device {dev.filter_string}"
            )
        with Queue._lock:
            name = f"q{next(Queue._counter)}"
        qid = _ext.get_queue(_info(dev._handle)["filter_string"], name)
        self._id = qid
        self._device_handle = dev._handle
        self._name = name
        self._props = props
        if "enable_profiling" in props:
            # Every task of the queue carries timestamps (on CUDA an event
            # per task; other queues mark tasks only where needed).
            _ext.queue_set_profiling(qid, True)
        _QUEUES[qid] = self

    @classmethod
    def _canonical(cls, handle):
        qid = _ext.get_queue(_info(handle)["filter_string"], "")
        return _queue_from_id(qid)

    @property
    def sycl_device(self):
        return Device._from_handle(self._device_handle)

    @property
    def device(self):
        """A Device bound to this queue."""
        return Device._from_handle(self._device_handle, self)

    @property
    def is_canonical(self):
        return not self._name

    @property
    def name(self):
        """The queue's name in compiled programs ("" for the canonical
        queue)."""
        return self._name

    def wait(self):
        """Blocks until everything submitted to the queue has finished;
        raises SluiceError for an operation that failed since the last
        wait."""
        _ext.queue_wait(self._id)

    # --- dpctl.SyclQueue ------------------------------------------------
    @property
    def is_in_order(self):
        """Always True: Sluice queues run their work in order."""
        return True

    @property
    def has_enable_profiling(self):
        """Whether the queue was made with ``property="enable_profiling"``:
        every event of its work has profiling timestamps. Other queues'
        events have them where the backend keeps them anyway (host,
        OpenCL, Level Zero), and on CUDA only for events that were the
        queue's newest work when handed out (markers, SyclTimer)."""
        return "enable_profiling" in self._props

    @property
    def sycl_context(self):
        from ._sycl import SyclContext

        return SyclContext._of_device(self.sycl_device)

    @property
    def backend(self):
        return self.sycl_device.backend

    def get_sycl_context(self):
        return self.sycl_context

    def get_sycl_device(self):
        return self.sycl_device

    def get_sycl_backend(self):
        return self.backend

    def addressof_ref(self):
        """The queue's id in the extension, as an integer."""
        return self._id

    def _get_capsule(self):
        raise NotImplementedError(
            "Sluice queues are not exchanged as SYCL capsules; pass the "
            "Queue, or its native handle (sluice.Queue.native_handle)"
        )

    @property
    def native_handle(self):
        """The backend's handle of the queue: a cl_command_queue (opencl),
        a CUstream (cuda), 0 (host)."""
        return _ext.queue_native_handle(self._id)

    def memcpy(self, dest, src, count):
        """Copies ``count`` bytes from ``src`` to ``dest`` (USM memory
        objects, arrays, or objects with the buffer protocol) and waits."""
        self.memcpy_async(dest, src, count).wait()

    def memcpy_async(self, dest, src, count, dEvents=None):
        """Submits a copy of ``count`` bytes after ``dEvents`` and returns
        its SyclEvent."""
        from .memory import _copy_bytes

        return _copy_bytes(self, dest, src, count, dEvents)

    def submit_barrier(self, dependent_events=None):
        """An event that completes once everything submitted to the queue
        so far, and ``dependent_events``, has."""
        from ._sycl import SyclEvent

        return SyclEvent._marker(self, dependent_events)

    def prefetch(self, mem, count=None):
        """A hint; Sluice's USM needs none (validated, then ignored)."""
        from .memory import as_usm_memory

        as_usm_memory(mem)

    def mem_advise(self, mem, count, advice):
        """A hint; Sluice's USM needs none (validated, then ignored)."""
        from .memory import as_usm_memory

        as_usm_memory(mem)
        if not isinstance(advice, int):
            raise TypeError("advice must be an int")

    def print_device_info(self):
        self.sycl_device.print_device_info()

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return hash(self._id)

    def __repr__(self):
        f = _info(self._device_handle)["filter_string"]
        if self._name:
            return f"Queue({f}, name={self._name!r})"
        return f"Queue({f})"


_QUEUES = {}


def _queue_from_id(qid):
    q = _QUEUES.get(qid)
    if q is None:
        device, name, handle, _ = _ext.queue_info(qid)
        q = object.__new__(Queue)
        q._id = qid
        q._device_handle = handle
        q._name = name
        q._props = frozenset()
        _QUEUES[qid] = q
    return q


_QUEUE_PROPERTIES = ("in_order", "enable_profiling", "default")


def _queue_properties(property):
    from ._errors import SyclQueueCreationError

    if property is None:
        return frozenset()
    items = [property] if isinstance(property, str) else property
    try:
        items = list(items)
    except TypeError:
        raise TypeError(
            "property must be a string or a sequence of strings"
        ) from None
    for p in items:
        if not isinstance(p, str):
            raise TypeError(
                "property must be a string or a sequence of "
                f"strings, not {type(p).__name__}"
            )
        if p not in _QUEUE_PROPERTIES:
            raise SyclQueueCreationError(
                f"unsupported queue property {p!r} (sluice queues are in "
                "order; supported: in_order, enable_profiling, default)"
            )
    return frozenset(items)


_default_handle = None


def _coerce_device(obj):
    """A Device from what the ``device=`` keyword of dpnp takes."""
    global _default_handle
    if obj is None:
        if _default_handle is None:
            _default_handle = _ext.select_device("")
        return Device._from_handle(_default_handle)
    if isinstance(obj, Device):
        return Device._from_handle(obj._handle, obj._queue)
    if isinstance(obj, Queue):
        return Device._from_handle(obj._device_handle, obj)
    if isinstance(obj, str):
        return Device._from_handle(_ext.select_device(obj))
    if isinstance(obj, int) and not isinstance(obj, bool):
        return Device._from_handle(_ext.select_device(str(obj)))
    raise TypeError(
        "a device is given as a filter string, a sluice.Device, a "
        f"sluice.Queue or None, not {type(obj).__name__}"
    )


def get_devices(backend=None, device_type=None):
    """Every visible device, optionally of one backend
    (``"opencl"``, ``sluice.backend_type.host``) and type (``"gpu"``)."""
    b = _enum_value(backend, backend_type, "backend")
    t = _enum_value(device_type, globals()["device_type"], "device type")
    out = []
    for i in range(_ext.device_count()):
        h = _ext.device_handle(i)
        info = _info(h)
        if b is not None and info["backend"] != b:
            continue
        if t is not None and info["type"] != t:
            continue
        out.append(Device._from_handle(h))
    return out


def get_num_devices(backend=None, device_type=None):
    return len(get_devices(backend, device_type))


def select_default_device():
    """The default device: the first GPU, else the host CPU (or what
    ``SLUICE_DEVICE_SELECTOR`` leaves)."""
    return _coerce_device(None)


def select_gpu_device():
    return Device("gpu")


def select_cpu_device():
    return Device("cpu")


def select_accelerator_device():
    return Device("accelerator")


def has_gpu_devices():
    return bool(get_devices(device_type="gpu"))


def has_cpu_devices():
    return bool(get_devices(device_type="cpu"))


def has_accelerator_devices():
    return bool(get_devices(device_type="accelerator"))


def synchronize():
    """Waits for every queue sluice has used."""
    for q in list(_QUEUES.values()):
        q.wait()
