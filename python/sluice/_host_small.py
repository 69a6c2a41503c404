"""Small arrays of host queues computed by NumPy on zero-copy views.

On the CPU, the fastest kernel for a small array is NumPy's own loop on the
array's memory: no launch, no task, no compile. The structural functions
that would otherwise launch several kernels (sorts, scans, arg-extremes,
indexing) take this path for arrays of a host queue up to ``LIMIT``
elements, outside traces. Views of sluice arrays wait for the tasks that
use their memory, so the order of the queue holds; results are new arrays
of the same queue and USM kind. NumPy's semantics are the reference, and
its errors are the ones raised.
"""

import numpy as np

from . import _trace

LIMIT = 1 << 16

_host_queues = {}


def on_host(qid):
    """Whether queue ``qid`` is a queue of the host backend."""
    r = _host_queues.get(qid)
    if r is None:
        from ._device import _queue_from_id

        r = _queue_from_id(qid).sycl_device.backend.name == "host"
        _host_queues[qid] = r
    return r


def applies(x, *others):
    """Whether x (a sluice array) and the sluice arrays among ``others``
    are small arrays of one host queue, outside a trace."""
    from ._array import Array

    if type(x) is not Array or x.size > LIMIT:
        return False
    qid = x._queue_id
    for o in others:
        if type(o) is Array and (o._queue_id != qid or o.size > LIMIT):
            return False
    return _trace.current() is None and on_host(qid)


def view(x):
    """A NumPy view of a host array (waits for the tasks using it)."""
    return np.from_dlpack(x)


def result(x, r):
    """NumPy's result ``r`` as a new array of x's queue and USM kind."""
    from ._array import _from_host

    r = np.asarray(r)  # (ascontiguousarray would make a scalar 1-d)
    if not r.flags.c_contiguous:
        r = r.copy()
    return _from_host(r, x._queue_id, x._usm_kind)
