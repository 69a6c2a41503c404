"""Helpers for the compute-follows-data model (dpctl.utils)."""

import contextlib
import threading
import weakref

from ._device import Device, Queue
from ._errors import ExecutionPlacementError
from ._placement import USM_KINDS

__all__ = [
    "get_execution_queue",
    "get_coerced_usm_type",
    "validate_usm_type",
    "ExecutionPlacementError",
    "SequentialOrderManager",
    "onetrace_enabled",
    "intel_device_info",
]

_USM_ORDER = tuple(USM_KINDS)  # device < shared < host


def get_execution_queue(qs, /):
    """The queue arrays on the queues ``qs`` run on: the queue when they
    all are the same one, else None (mixing queues is an
    ExecutionPlacementError where arrays meet)."""
    if not isinstance(qs, (list, tuple)):
        raise TypeError(
            "get_execution_queue() takes a list or tuple of "
            f"queues, not {type(qs).__name__}"
        )
    if not qs:
        return None
    for q in qs:
        if not isinstance(q, Queue):
            raise TypeError(
                "get_execution_queue() takes sluice.SyclQueue "
                f"objects, not {type(q).__name__}"
            )
    first = qs[0]
    return first if all(q is first for q in qs[1:]) else None


def get_coerced_usm_type(usm_types, /):
    """The usm_type of a result of arrays of ``usm_types``: "device" <
    "shared" < "host", the smallest wins; None when a name is not a USM
    type (or the sequence is empty)."""
    if not isinstance(usm_types, (list, tuple)):
        raise TypeError(
            "get_coerced_usm_type() takes a list or tuple of "
            f"strings, not {type(usm_types).__name__}"
        )
    if not usm_types or any(u not in _USM_ORDER for u in usm_types):
        return None
    return min(usm_types, key=_USM_ORDER.index)


def validate_usm_type(usm_type, /, *, allow_none=True):
    """Raises ValueError for a string that is not a USM type, TypeError
    for anything else (None passes when ``allow_none``)."""
    if usm_type is None and allow_none:
        return
    if not isinstance(usm_type, str):
        raise TypeError(
            "usm_type must be a string"
            + (" or None" if allow_none else "")
            + f", not {type(usm_type).__name__}"
        )
    if usm_type not in _USM_ORDER:
        raise ValueError(
            f"unknown usm_type {usm_type!r}: expected "
            "'device', 'shared' or 'host'"
        )


@contextlib.contextmanager
def onetrace_enabled():
    """A no-op context (dpctl turns on Intel's onetrace collection)."""
    yield


def intel_device_info(dev, /):
    """Intel-specific device descriptors: an empty dict (Sluice's runtime
    does not report them)."""
    if not isinstance(dev, Device):
        raise TypeError("intel_device_info() takes a device")
    return {}


class _SequentialOrder:
    """The events of one queue's work in submission order: what dpctl's
    functions thread through ``depends=`` keywords."""

    def __init__(self):
        self._lock = threading.Lock()
        self._submitted = []
        self._host = []

    def add_event_pair(self, host_task_event, comp_event):
        """Records the events of one operation (either may be None or a
        sequence)."""
        from ._sycl import SyclEvent

        def as_list(e):
            if e is None:
                return []
            if isinstance(e, SyclEvent):
                return [e]
            out = list(e)
            for x in out:
                if not isinstance(x, SyclEvent):
                    raise TypeError("expected SyclEvent objects")
            return out

        with self._lock:
            self._host.extend(as_list(host_task_event))
            self._submitted = as_list(comp_event) or self._submitted

    @property
    def submitted_events(self):
        with self._lock:
            return list(self._submitted)

    @property
    def host_task_events(self):
        with self._lock:
            return list(self._host)

    def wait(self):
        """Waits for every recorded event and forgets them."""
        with self._lock:
            events = self._host + self._submitted
            self._host, self._submitted = [], []
        for e in events:
            e.wait()

    def __copy__(self):
        c = _SequentialOrder()
        c._submitted = list(self._submitted)
        c._host = list(self._host)
        return c


class _SequentialOrderManager:
    """``SequentialOrderManager[q]``: the order of queue ``q``'s work."""

    def __init__(self):
        self._map = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def __getitem__(self, q):
        if not isinstance(q, Queue):
            raise TypeError(
                "SequentialOrderManager[...] takes a "
                f"sluice.SyclQueue, not {type(q).__name__}"
            )
        with self._lock:
            order = self._map.get(q)
            if order is None:
                order = self._map[q] = _SequentialOrder()
            return order

    def clear(self):
        """Waits for and forgets every queue's events."""
        with self._lock:
            orders = list(self._map.values())
            self._map = weakref.WeakKeyDictionary()
        for o in orders:
            o.wait()


SequentialOrderManager = _SequentialOrderManager()
