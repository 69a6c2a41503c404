"""Random numbers, like ``dpnp.random``.

Numbers are drawn on the host with NumPy's Mersenne Twister
(``numpy.random.RandomState``), so a seed gives the same sequence as NumPy
with that seed, and then copied to the requested device. Every function
takes dpnp's placement keywords (``device=``, ``usm_type=``,
``sycl_queue=``).
"""

import numpy as np

from . import _dtypes
from ._array import _from_host
from ._placement import queue_info, resolve_queue, usm_kind

__all__ = ["RandomState", "seed", "rand", "randn", "random", "random_sample",
           "uniform", "normal", "randint", "standard_normal"]


class RandomState:
    """A generator bound to a placement (``device`` / ``sycl_queue``) that
    draws like ``numpy.random.RandomState(seed)``."""

    def __init__(self, seed=None, device=None, sycl_queue=None):
        self._state = np.random.RandomState(seed)
        self._queue = resolve_queue(device, sycl_queue)

    def _place(self, host, dtype, device, usm_type, sycl_queue):
        if device is None and sycl_queue is None:
            q = self._queue
        else:
            q = resolve_queue(device, sycl_queue)
        info = queue_info(q)
        if dtype is None:
            dt = _dtypes.default_float(info) if host.dtype.kind == "f" else (
                _dtypes.int64 if host.dtype.kind in "iu" else host.dtype)
        else:
            dt = _dtypes.to_dtype(dtype)
        return _from_host(np.asarray(host).astype(dt, copy=False), q._id,
                          usm_kind(usm_type))

    def seed(self, seed=None):
        self._state.seed(seed)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=None, device=None,
                usm_type="device", sycl_queue=None):
        return self._place(self._state.uniform(low, high, size), dtype,
                           device, usm_type, sycl_queue)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=None, device=None,
               usm_type="device", sycl_queue=None):
        return self._place(self._state.normal(loc, scale, size), dtype,
                           device, usm_type, sycl_queue)

    def standard_normal(self, size=None, dtype=None, device=None,
                        usm_type="device", sycl_queue=None):
        return self._place(self._state.standard_normal(size), dtype, device,
                           usm_type, sycl_queue)

    def random_sample(self, size=None, dtype=None, device=None,
                      usm_type="device", sycl_queue=None):
        return self._place(self._state.random_sample(size), dtype, device,
                           usm_type, sycl_queue)

    def rand(self, *shape, device=None, usm_type="device", sycl_queue=None):
        return self._place(self._state.rand(*shape), None, device, usm_type,
                           sycl_queue)

    def randn(self, *shape, device=None, usm_type="device", sycl_queue=None):
        return self._place(self._state.randn(*shape), None, device, usm_type,
                           sycl_queue)

    def randint(self, low, high=None, size=None, dtype=int, device=None,
                usm_type="device", sycl_queue=None):
        dt = np.dtype(dtype)
        return self._place(self._state.randint(low, high, size, dtype=dt),
                           dt, device, usm_type, sycl_queue)


_global = None


def _state():
    global _global
    if _global is None:
        _global = RandomState()
    return _global


def seed(seed=None):
    """Seeds the module's generator (NumPy's sequence for that seed)."""
    _state().seed(seed)


def uniform(low=0.0, high=1.0, size=None, **kw):
    return _state().uniform(low, high, size, **kw)


def normal(loc=0.0, scale=1.0, size=None, **kw):
    return _state().normal(loc, scale, size, **kw)


def standard_normal(size=None, **kw):
    return _state().standard_normal(size, **kw)


def random_sample(size=None, **kw):
    return _state().random_sample(size, **kw)


random = random_sample


def rand(*shape, **kw):
    return _state().rand(*shape, **kw)


def randn(*shape, **kw):
    return _state().randn(*shape, **kw)


def randint(low, high=None, size=None, dtype=int, **kw):
    return _state().randint(low, high, size, dtype, **kw)
