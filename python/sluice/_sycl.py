"""dpctl's SYCL object model over Sluice's runtime: contexts, platforms,
events, platform listing and a timer.

``SyclDevice`` and ``SyclQueue`` are sluice.Device and sluice.Queue (see
_device.py). A *platform* is a backend's driver: the host backend, each
OpenCL platform, the Level Zero driver, CUDA. A *context* is the set of
devices of one platform (its default context); every queue's context is
its platform's default context, as in DPC++.
"""

import enum
import time

from . import _sluice as _ext
from ._device import (
    Device,
    Queue,
    _coerce_device,
    _info,
    backend_type,
    device_type,
    get_devices,
)
from ._errors import (
    DeviceNotFoundError,
    SyclContextCreationError,
    SyclDeviceCreationError,
)


class event_status_type(enum.Enum):
    """What ``SyclEvent.execution_status`` reports."""

    unknown_status = 0
    submitted = 1
    running = 2
    complete = 3


# --- platforms ------------------------------------------------------------


def _platform_key(dev):
    """(backend, platform name) of a device."""
    info = _info(dev._handle)
    backend = backend_type(info["backend"])
    props = dict(_ext.device_properties(dev._handle))
    if backend is backend_type.opencl:
        return backend, props.get("platform", "OpenCL")
    return backend, _PLATFORM_NAMES[backend]


_PLATFORM_NAMES = {
    backend_type.host: "Sluice host",
    backend_type.level_zero: "Level-Zero",
    backend_type.cuda: "CUDA",
    backend_type.opencl: "OpenCL",
}


class SyclPlatform:
    """A platform: the driver of one backend (dpctl.SyclPlatform).

    ``SyclPlatform()`` is the default device's platform;
    ``SyclPlatform(filter_string)`` the platform of the device the string
    selects (SyclDeviceCreationError when none does).
    """

    __slots__ = ("_backend", "_name")

    def __init__(self, arg=None):
        if arg is not None and not isinstance(arg, (str, Device)):
            raise TypeError(
                "SyclPlatform() takes a filter string or a "
                f"device, not {type(arg).__name__}"
            )
        dev = _coerce_device(arg)
        self._backend, self._name = _platform_key(dev)

    @classmethod
    def _of_device(cls, dev):
        p = object.__new__(cls)
        p._backend, p._name = _platform_key(dev)
        return p

    def _devices(self):
        return [
            d
            for d in get_devices()
            if _platform_key(d) == (self._backend, self._name)
        ]

    @property
    def name(self):
        return self._name

    @property
    def backend(self):
        return self._backend

    @property
    def vendor(self):
        devs = self._devices()
        if self._backend is backend_type.host:
            return "Sluice"
        return devs[0].vendor if devs else ""

    @property
    def version(self):
        devs = self._devices()
        if not devs:
            return ""
        props = dict(_ext.device_properties(devs[0]._handle))
        for key in ("platform version", "API version"):
            if key in props:
                return props[key]
        return devs[0].driver_version

    @property
    def default_context(self):
        return SyclContext._of_platform(self)

    def get_devices(self, device_type=None):
        """The platform's devices, optionally of one type."""
        out = self._devices()
        if device_type is not None:
            want = _device_type_of(device_type)
            if want is not None:
                out = [d for d in out if d.device_type is want]
        return out

    def print_platform_info(self, verbosity=0):
        print(_describe_platform(self, None, verbosity), end="")

    def __eq__(self, other):
        if not isinstance(other, SyclPlatform):
            return NotImplemented
        return (self._backend, self._name) == (other._backend, other._name)

    def __hash__(self):
        return hash((self._backend, self._name))

    def __repr__(self):
        return (
            f"<sluice.SyclPlatform [{self.name}, {self.vendor}, "
            f"{self.version}]>"
        )


def _device_type_of(value):
    if isinstance(value, device_type):
        return None if value is device_type.all else value
    if isinstance(value, str):
        try:
            v = device_type[value.lower()]
        except KeyError:
            raise ValueError(f"unknown device type {value!r}") from None
        return None if v is device_type.all else v
    raise TypeError("device_type must be a string or sluice.device_type")


def get_platforms():
    """Every platform with a visible device, in the order of
    ``get_devices()``."""
    seen = []
    for d in get_devices():
        p = SyclPlatform._of_device(d)
        if p not in seen:
            seen.append(p)
    return seen


def get_num_platforms():
    return len(get_platforms())


def _describe_platform(p, index, verbosity):
    if verbosity not in (0, 1, 2):
        raise ValueError(f"verbosity must be 0, 1 or 2, not {verbosity!r}")
    if verbosity == 0:
        return f"{p.name} {p.version}\n"
    devs = p.get_devices()
    head = "Platform" if index is None else f"Platform {index}"
    lines = [
        f"{head} ::",
        f"    Name        {p.name}",
        f"    Version     {p.version}",
        f"    Vendor      {p.vendor}",
        f"    Backend     {p.backend.name}",
        f"    Num Devices {len(devs)}",
    ]
    if verbosity == 2:
        for i, d in enumerate(devs):
            lines += [
                f"      # {i}",
                f"        Name            {d.name}",
                f"        Version         {d.driver_version}",
                f"        Filter string   {d.filter_string}",
            ]
    return "\n".join(lines) + "\n"


def lsplatform(verbosity=0):
    """Prints the platforms: their names and versions (verbosity 0); with
    vendor, backend and number of devices (1); and each device's name,
    driver version and filter string (2). ``sluice-ls --platforms`` with
    ``-v``/``-vv`` prints the same."""
    if not isinstance(verbosity, int) or isinstance(verbosity, bool):
        raise TypeError("verbosity must be an int")
    if verbosity not in (0, 1, 2):
        raise ValueError(f"verbosity must be 0, 1 or 2, not {verbosity}")
    out = [
        _describe_platform(p, i, verbosity)
        for i, p in enumerate(get_platforms())
    ]
    print("".join(out), end="")


# --- contexts -------------------------------------------------------------


class SyclContext:
    """The devices of one platform, as a SYCL context (dpctl.SyclContext).

    ``SyclContext()`` is the default device's context;
    ``SyclContext(filter_string or device)`` and ``SyclContext([devices])``
    hold those devices, which must belong to one platform. The context of
    a queue or array (``q.sycl_context``) is its platform's default
    context, holding every device of the platform.
    """

    __slots__ = ("_handles",)

    def __init__(self, arg=None):
        try:
            if arg is None or isinstance(arg, (str, Device)):
                devs = [_coerce_device(arg).sycl_device]
            elif isinstance(arg, Queue):
                devs = list(arg.sycl_context.get_devices())
            else:
                try:
                    items = list(arg)
                except TypeError:
                    raise TypeError(
                        "SyclContext() takes a filter string, a device or "
                        f"a list of devices, not {type(arg).__name__}"
                    ) from None
                if not items:
                    raise SyclContextCreationError(
                        "a context needs at least one device"
                    )
                for d in items:
                    if not isinstance(d, Device):
                        raise TypeError(
                            "SyclContext([...]) takes devices, "
                            f"not {type(d).__name__}"
                        )
                devs = [d.sycl_device for d in items]
        except (DeviceNotFoundError, SyclDeviceCreationError) as e:
            raise SyclContextCreationError(str(e)) from e
        platforms = {_platform_key(d) for d in devs}
        if len(platforms) != 1:
            raise SyclContextCreationError(
                "the devices of a context must belong to one platform, not "
                + ", ".join(sorted(f"{b.name} ({n})" for b, n in platforms))
            )
        handles = []
        for d in devs:
            if d._handle not in handles:
                handles.append(d._handle)
        self._handles = tuple(handles)

    @classmethod
    def _of_platform(cls, platform):
        c = object.__new__(cls)
        c._handles = tuple(d._handle for d in platform._devices())
        return c

    @classmethod
    def _of_device(cls, dev):
        c = cls._of_platform(SyclPlatform._of_device(dev))
        root = dev.get_unpartitioned_parent_device()
        if dev._handle not in c._handles and root._handle in c._handles:
            # a sub-device: in its root device's context
            c._handles = c._handles + (dev._handle,)
        return c

    def get_devices(self):
        return [Device._from_handle(h) for h in self._handles]

    @property
    def device_count(self):
        return len(self._handles)

    def addressof_ref(self):
        return hash(self._handles)

    def __eq__(self, other):
        if not isinstance(other, SyclContext):
            return NotImplemented
        return set(self._handles) == set(other._handles)

    def __hash__(self):
        return hash(frozenset(self._handles))

    def __repr__(self):
        names = ", ".join(_info(h)["filter_string"] for h in self._handles)
        return f"<sluice.SyclContext [{names}]>"


# --- events ---------------------------------------------------------------


class SyclEvent:
    """The completion of work submitted to a queue (dpctl.SyclEvent).

    ``SyclEvent()`` is complete from the start. Queues return events from
    ``memcpy_async`` and ``submit_barrier``; an event completes once the
    work its queue had received when it was made has finished, and its
    profiling timestamps (nanoseconds) are those of the last of that work
    on the device.
    """

    __slots__ = ("_core", "_deps", "__weakref__")

    def __init__(self, arg=None):
        if arg is None:
            self._core = _ext.EventCore()
            self._deps = ()
        elif isinstance(arg, SyclEvent):
            self._core = arg._core
            self._deps = arg._deps
        else:
            raise TypeError(
                "SyclEvent() takes nothing or a SyclEvent, not "
                f"{type(arg).__name__}"
            )

    @classmethod
    def _marker(cls, queue, deps=None):
        if not isinstance(queue, Queue):
            raise TypeError("a queue is a sluice.SyclQueue")
        deps = _event_list(deps)
        e = object.__new__(cls)
        e._core = _ext.submit_marker(queue._id, [d._core for d in deps])
        e._deps = tuple(deps)
        return e

    def wait(self):
        """Blocks until the event's work has finished; raises SluiceError
        when it failed."""
        self._core.wait()

    @staticmethod
    def wait_for(events):
        """Waits for an event or a sequence of events."""
        for e in _event_list(events):
            e.wait()

    @property
    def execution_status(self):
        return event_status_type[self._core.status]

    @property
    def backend(self):
        b = self._core.backend
        return backend_type(b) if b >= 0 else None

    def get_wait_list(self):
        """The events this one was made to wait for."""
        return list(self._deps)

    def _profile(self, i):
        return self._core.profiling()[i]

    @property
    def profiling_info_submit(self):
        return self._profile(0)

    @property
    def profiling_info_start(self):
        return self._profile(1)

    @property
    def profiling_info_end(self):
        return self._profile(2)

    def addressof_ref(self):
        return id(self._core)

    def __repr__(self):
        return f"<sluice.SyclEvent {self._core.status}>"


def _event_list(events):
    if events is None:
        return []
    if isinstance(events, SyclEvent):
        return [events]
    out = list(events)
    for e in out:
        if not isinstance(e, SyclEvent):
            raise TypeError(
                f"expected SyclEvent objects, not {type(e).__name__}"
            )
    return out


# --- timing ---------------------------------------------------------------


class SyclTimer:
    """Host and device time of the work in a ``with`` block
    (dpctl.SyclTimer)::

        timer = sluice.SyclTimer()
        with timer(q):
            ...               # work submitted to q
        host_s, device_s = timer.dt

    The device time is measured between barriers submitted to the queue at
    the start and the end of the block (device timestamps), the host time
    with ``host_timer`` (time.perf_counter). Both are scaled by
    ``time_scale`` (1: seconds).
    """

    def __init__(
        self, host_timer=time.perf_counter, device_timer=None, time_scale=1
    ):
        if device_timer not in (None, "queue_barrier"):
            raise ValueError(
                f"unsupported device_timer {device_timer!r} "
                "(only 'queue_barrier')"
            )
        self._host_timer = host_timer
        self._scale = time_scale
        self._queue = None
        self._marks = []

    def __call__(self, queue=None):
        if queue is not None and not isinstance(queue, Queue):
            raise TypeError("SyclTimer(...)(queue) takes a sluice.SyclQueue")
        self._queue = queue
        return self

    def __enter__(self):
        if self._queue is None:
            raise ValueError(
                "SyclTimer needs a queue: use `with timer(queue):`"
            )
        self._start_event = self._queue.submit_barrier()
        self._start = self._host_timer()
        return self

    def __exit__(self, *exc):
        end_event = self._queue.submit_barrier()
        end_event.wait()
        self._host_end = self._host_timer()
        self._start_event.wait()
        self._marks.append(
            (self._start, self._host_end, self._start_event, end_event)
        )
        return False

    @property
    def dt(self):
        """(host, device) time of the last block, scaled by
        ``time_scale``."""
        if not self._marks:
            raise ValueError("no block was timed")
        h0, h1, e0, e1 = self._marks[-1]
        host = (h1 - h0) * self._scale
        try:
            t0 = e0.profiling_info_end
        except ValueError:  # nothing ran on the queue before the block
            t0 = None
        try:
            t1 = e1.profiling_info_end
        except ValueError:
            t1 = None
        if t1 is None:
            device = 0.0
        elif t0 is None:
            device = (t1 - e1.profiling_info_start) * 1e-9 * self._scale
        else:
            device = max(t1 - t0, 0) * 1e-9 * self._scale
        return host, device


# --- selection helpers ------------------------------------------------------


class global_mem_cache_type(enum.Enum):
    indeterminate = 0
    none = 1
    read_only = 2
    read_write = 3


def select_device_with_aspects(required_aspects, excluded_aspects=()):
    """The device with the highest ``default_selector_score`` among those
    that have every aspect of ``required_aspects`` and none of
    ``excluded_aspects`` (names such as "fp64", "gpu",
    "usm_shared_allocations"); SyclDeviceCreationError when none does."""

    def names(a):
        return [a] if isinstance(a, str) else list(a)

    req, exc = names(required_aspects), names(excluded_aspects)
    for a in req + exc:
        if not isinstance(a, str):
            raise TypeError("aspects are given by name (strings)")
        if not hasattr(Device, "has_aspect_" + a):
            raise AttributeError(f"unknown aspect {a!r}")
    best = None
    for d in get_devices():
        if all(getattr(d, "has_aspect_" + a) for a in req) and not any(
            getattr(d, "has_aspect_" + a) for a in exc
        ):
            if (
                best is None
                or d.default_selector_score > best.default_selector_score
            ):
                best = d
    if best is None:
        raise SyclDeviceCreationError(
            f"no device has the aspects {req}"
            + (f" without {exc}" if exc else "")
        )
    return best


def get_device_cached_queue(dev):
    """The device's canonical queue (the queue arrays on it use)."""
    if isinstance(dev, Queue):
        return dev
    return _coerce_device(dev).sycl_device.sycl_queue


def get_include():
    """The directory of Sluice's C API headers (sluice-c/Runtime.h) when
    the package is built from a source tree; None otherwise."""
    import os

    here = os.path.dirname(os.path.realpath(__file__))
    cand = os.path.normpath(os.path.join(here, "..", "..", "include"))
    return (
        cand
        if os.path.isfile(os.path.join(cand, "sluice-c", "Runtime.h"))
        else None
    )
