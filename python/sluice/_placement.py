"""Placement: queues from dpnp's keywords, USM kinds and their coercion."""

from . import _sluice as _ext
from ._device import Device, Queue, _coerce_device, _info, _queue_from_id
from ._errors import PLACEMENT_MESSAGE, ExecutionPlacementError

# The USM kinds: SluiceUsmKind's numbers by the runtime's names
# (sluice/Runtime/UsmKind.h), in the order of coercion (device < shared <
# host, the smallest wins).
USM_KINDS = dict(_ext.usm_kinds())
USM_NAMES = {code: name for name, code in USM_KINDS.items()}


def usm_kind(usm_type, default="device"):
    """The USM kind code of a ``usm_type`` keyword (None: ``default``)."""
    if usm_type is None:
        usm_type = default
    try:
        return USM_KINDS[usm_type]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown usm_type {usm_type!r}: expected 'device', 'shared' or "
            "'host'"
        ) from None


def coerce_kinds(kinds):
    """dpctl's get_coerced_usm_type: device < shared < host, the smallest
    wins."""
    return min(kinds)


def resolve_queue(device=None, sycl_queue=None):
    """The queue an array created with ``device=`` / ``sycl_queue=`` lives
    on. Naming two different queues is a TypeError, as in dpnp."""
    if sycl_queue is not None:
        if isinstance(sycl_queue, Queue):
            q = sycl_queue
        elif isinstance(sycl_queue, Device):
            q = sycl_queue.sycl_queue
        else:
            raise TypeError(
                "sycl_queue must be a sluice.Queue, not "
                f"{type(sycl_queue).__name__}"
            )
        if device is not None:
            other = _coerce_device(device).sycl_queue
            if other is not q:
                raise TypeError(
                    "`device` and `sycl_queue` name different queues "
                    f"({other!r} and {q!r}); use one or the other"
                )
        return q
    return _coerce_device(device).sycl_queue


def queue_info(q):
    """Device properties (a dict) of a queue's device."""
    return _info(q._device_handle)


def execution_queue(queue_ids, where=None):
    """The one queue of the USM operands of an operation, or
    ExecutionPlacementError naming the queues."""
    first = None
    for qid in queue_ids:
        if first is None:
            first = qid
        elif qid != first:
            a, b = _queue_from_id(first), _queue_from_id(qid)
            msg = (
                f"{PLACEMENT_MESSAGE} The operands are on {a!r} and "
                f"{b!r}; migrate one of them with to_device()."
            )
            if where is not None:
                msg = f"{where[0]}:{where[1]}:{where[2]}: {msg}"
            raise ExecutionPlacementError(msg, where)
    return first
