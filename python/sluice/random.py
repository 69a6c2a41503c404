"""Random numbers, like ``dpnp.random``, drawn on the device.

Numbers come from Philox-4x32-10, a counter-based generator computed in
kernels on the queue the result lives on: element i of a draw is a pure
function of the seed (the key) and a 64-bit counter, so a seed gives the
same numbers on every device and however the work is split. Each draw
advances the generator's counter past the counters it used. Every function
takes dpnp's placement keywords (``device=``, ``usm_type=``,
``sycl_queue=``). The sequences differ from NumPy's Mersenne Twister.

Algorithms: uniform from 53 bits (24 for float32 results); normal by
Box-Muller; integers by scaling a uniform; exponential by inversion;
gamma by Marsaglia-Tsang (with the u ** (1/shape) boost below 1); beta from
two gammas; Poisson by Knuth's product of uniforms; binomial as a sum of
Bernoulli draws; permutations by sorting random keys.
"""

import operator
import os

import numpy as np

from . import _dtypes, _ops
from . import _sort_kernels as K
from . import kernel_api as kapi
from ._kernel import call_kernel
from ._placement import queue_info, resolve_queue

__all__ = [
    "RandomState",
    "seed",
    "rand",
    "randn",
    "random",
    "random_sample",
    "ranf",
    "sample",
    "uniform",
    "normal",
    "randint",
    "random_integers",
    "standard_normal",
    "exponential",
    "standard_exponential",
    "gamma",
    "standard_gamma",
    "beta",
    "binomial",
    "poisson",
    "choice",
    "permutation",
    "shuffle",
]


def _size(size):
    if size is None:
        return ()
    if isinstance(size, (int, np.integer)):
        return (operator.index(size),)
    return tuple(operator.index(d) for d in size)


class RandomState:
    """A generator bound to a placement (``device`` / ``sycl_queue``):
    Philox-4x32-10 keyed by ``seed`` (None: from the OS)."""

    def __init__(self, seed=None, device=None, sycl_queue=None):
        self._queue = resolve_queue(device, sycl_queue)
        self.seed(seed)

    def seed(self, seed=None):
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        elif not isinstance(seed, (int, np.integer)):
            seed = int(np.asarray(seed, dtype=np.uint64).sum())
        seed = int(seed)
        if seed < 0:
            raise ValueError("Seed must be non-negative")
        self._key = (seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF)
        self._ctr = 0

    def _take(self, count):
        """Reserves ``count`` counters; returns the first."""
        c = self._ctr
        self._ctr += int(count)
        if self._ctr >= 1 << 63:
            self._ctr = 0  # wraps after 2**63 draws
        return c

    def _out(self, shape, dtype, default_kind, device, usm_type, sycl_queue):
        if device is None and sycl_queue is None:
            q = self._queue
        else:
            q = resolve_queue(device, sycl_queue)
        info = queue_info(q)
        if dtype is None:
            dt = (
                _dtypes.default_float(info)
                if default_kind == "f"
                else _dtypes.int64
            )
        else:
            dt = _dtypes.to_dtype(dtype)
        _dtypes.check_supported(dt, info)
        from ._creation import empty

        return empty(
            shape, dtype=dt, sycl_queue=q, usm_type=usm_type or "device"
        )

    def _run(self, kern, out, per, *args):
        n = out.size
        ctr = self._take(n * per)
        if n:
            flat = _ops.reshape(out, (n,))
            call_kernel(
                kern,
                kapi.Range(n),
                flat,
                self._key[0],
                self._key[1],
                ctr,
                *args,
            )
        return out

    # --- continuous ---------------------------------------------------------
    def uniform(
        self,
        low=0.0,
        high=1.0,
        size=None,
        dtype=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        out = self._out(_size(size), dtype, "f", device, usm_type, sycl_queue)
        if out.dtype.kind != "f":
            raise TypeError("uniform draws floats")
        return self._run(
            K.k_uniform,
            out,
            1,
            float(low),
            float(high) - float(low),
            int(out.dtype.itemsize < 8),
        )

    def random_sample(
        self,
        size=None,
        dtype=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        return self.uniform(
            0.0, 1.0, size, dtype, device, usm_type, sycl_queue
        )

    random = random_sample

    def rand(self, *shape, device=None, usm_type="device", sycl_queue=None):
        return self.uniform(
            0.0, 1.0, shape, None, device, usm_type, sycl_queue
        )

    def normal(
        self,
        loc=0.0,
        scale=1.0,
        size=None,
        dtype=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        if scale < 0:
            raise ValueError("scale < 0")
        out = self._out(_size(size), dtype, "f", device, usm_type, sycl_queue)
        return self._run(K.k_normal, out, 2, float(loc), float(scale))

    def standard_normal(
        self,
        size=None,
        dtype=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        return self.normal(0.0, 1.0, size, dtype, device, usm_type, sycl_queue)

    def randn(self, *shape, device=None, usm_type="device", sycl_queue=None):
        return self.normal(0.0, 1.0, shape, None, device, usm_type, sycl_queue)

    def exponential(
        self,
        scale=1.0,
        size=None,
        dtype=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        if scale < 0:
            raise ValueError("scale < 0")
        u = self.uniform(0.0, 1.0, size, dtype, device, usm_type, sycl_queue)
        return _ops.multiply(
            _ops.negative(_ops.log(_ops.subtract(1, u))), scale
        )

    def standard_exponential(
        self,
        size=None,
        dtype=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        return self.exponential(1.0, size, dtype, device, usm_type, sycl_queue)

    def gamma(
        self,
        shape,
        scale=1.0,
        size=None,
        dtype=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        if shape <= 0 or scale < 0:
            raise ValueError("shape <= 0 or scale < 0")
        out = self._out(_size(size), dtype, "f", device, usm_type, sycl_queue)
        tries = 12
        return self._run(
            K.k_gamma, out, 3 * tries + 1, float(shape), float(scale), tries
        )

    def standard_gamma(
        self,
        shape,
        size=None,
        dtype=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        return self.gamma(
            shape, 1.0, size, dtype, device, usm_type, sycl_queue
        )

    def beta(
        self,
        a,
        b,
        size=None,
        dtype=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        if a <= 0 or b <= 0:
            raise ValueError("a <= 0 or b <= 0")
        x = self.gamma(a, 1.0, size, dtype, device, usm_type, sycl_queue)
        y = self.gamma(b, 1.0, size, dtype, device, usm_type, sycl_queue)
        return _ops.divide(x, _ops.add(x, y))

    # --- discrete ------------------------------------------------------------
    def randint(
        self,
        low,
        high=None,
        size=None,
        dtype=int,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        if high is None:
            low, high = 0, low
        low, high = int(low), int(high)
        if high <= low:
            raise ValueError("low >= high")
        dt = _dtypes.to_dtype(np.dtype(dtype))
        info = np.iinfo(dt)
        if low < info.min or high - 1 > info.max:
            raise ValueError(f"low or high out of bounds for {dt}")
        out = self._out(
            _size(size), _dtypes.int64, "i", device, usm_type, sycl_queue
        )
        self._run(K.k_randint, out, 1, low, high - low)
        return out if dt == _dtypes.int64 else _ops.astype(out, dt)

    def random_integers(
        self,
        low,
        high=None,
        size=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        if high is None:
            low, high = 1, low
        return self.randint(
            low, int(high) + 1, size, int, device, usm_type, sycl_queue
        )

    def poisson(
        self,
        lam=1.0,
        size=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        if lam < 0:
            raise ValueError("lam < 0")
        if lam > 1e4:
            raise NotImplementedError("poisson with lam > 1e4")
        tries = int(lam + 12 * np.sqrt(lam) + 30)
        out = self._out(
            _size(size), _dtypes.int64, "i", device, usm_type, sycl_queue
        )
        return self._run(K.k_poisson, out, tries, float(lam), tries)

    def binomial(
        self, n, p, size=None, device=None, usm_type="device", sycl_queue=None
    ):
        n = operator.index(n)
        if n < 0 or not 0 <= p <= 1:
            raise ValueError("n < 0 or p out of [0, 1]")
        out = self._out(
            _size(size), _dtypes.int64, "i", device, usm_type, sycl_queue
        )
        return self._run(K.k_binomial, out, max(n, 1), n, float(p))

    def permutation(self, x, device=None, usm_type="device", sycl_queue=None):
        """A random permutation of ``range(x)`` (an int) or a permuted copy
        of an array along its first axis."""
        from ._array import Array
        from ._sorting import _gather, _iota, argsort

        if isinstance(x, Array):
            n = x.shape[0] if x.ndim else 0
            if x.ndim == 0:
                raise IndexError(
                    "x must be an integer or at least 1-dimensional"
                )
            keys = self.uniform(
                size=n,
                dtype=_dtypes.float64
                if x.sycl_device.has_aspect_fp64
                else _dtypes.float32,
                sycl_queue=x.sycl_queue,
            )
            perm = argsort(keys)
            if x.ndim == 1:
                return _gather(x, perm)
            row = int(np.prod(x.shape[1:]))
            idx = _ops.add(
                _ops.multiply(_ops.reshape(perm, (n, 1)), row),
                _ops.reshape(_iota(row, x), (1, row)),
            )
            return _ops.reshape(_gather(x, idx), x.shape)
        n = operator.index(x)
        keys = self.uniform(
            size=n, device=device, usm_type=usm_type, sycl_queue=sycl_queue
        )
        return argsort(keys)

    def shuffle(self, x):
        """Permutes ``x`` in place along its first axis."""
        x[...] = self.permutation(x)

    def choice(
        self,
        a,
        size=None,
        replace=True,
        p=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        from ._array import Array
        from ._sorting import _gather, searchsorted

        pool = a if isinstance(a, Array) else None
        n = a.shape[0] if pool is not None else operator.index(a)
        if pool is not None and pool.ndim != 1:
            raise ValueError("a must be 1-dimensional")
        if n <= 0:
            raise ValueError(
                "a must be greater than 0 unless no samples are taken"
            )
        if pool is not None and device is None and sycl_queue is None:
            sycl_queue = pool.sycl_queue
        shape = _size(size)
        m = int(np.prod(shape, dtype=np.int64))
        if p is not None:
            if not replace:
                raise NotImplementedError("choice(replace=False, p=...)")
            from ._creation import asarray
            from ._scans import cumsum

            q = (
                self._queue
                if device is None and sycl_queue is None
                else resolve_queue(device, sycl_queue)
            )
            pw = (
                p
                if isinstance(p, Array)
                else asarray(
                    np.asarray(p, dtype=_dtypes.default_float(queue_info(q))),
                    sycl_queue=q,
                )
            )
            cdf = cumsum(pw)
            u = self.uniform(
                0.0, 1.0, shape, cdf.dtype, device, usm_type, sycl_queue
            )
            idx = _ops.minimum(
                searchsorted(cdf, _ops.multiply(u, cdf[n - 1]), side="right"),
                n - 1,
            )
        elif replace:
            idx = self.randint(
                0, n, shape, np.int64, device, usm_type, sycl_queue
            )
        else:
            if m > n:
                raise ValueError(
                    "Cannot take a larger sample than "
                    "population when 'replace=False'"
                )
            perm = self.permutation(n, device, usm_type, sycl_queue)
            idx = _ops.reshape(perm[:m], shape)
        if pool is None:
            return idx
        return _gather(pool, idx)


_global = None


def _state():
    global _global
    if _global is None:
        _global = RandomState()
    return _global


def seed(seed=None):
    """Seeds the module's generator."""
    _state().seed(seed)


def uniform(low=0.0, high=1.0, size=None, **kw):
    return _state().uniform(low, high, size, **kw)


def normal(loc=0.0, scale=1.0, size=None, **kw):
    return _state().normal(loc, scale, size, **kw)


def standard_normal(size=None, **kw):
    return _state().standard_normal(size, **kw)


def random_sample(size=None, **kw):
    return _state().random_sample(size, **kw)


random = ranf = sample = random_sample


def rand(*shape, **kw):
    return _state().rand(*shape, **kw)


def randn(*shape, **kw):
    return _state().randn(*shape, **kw)


def randint(low, high=None, size=None, dtype=int, **kw):
    return _state().randint(low, high, size, dtype, **kw)


def random_integers(low, high=None, size=None, **kw):
    return _state().random_integers(low, high, size, **kw)


def exponential(scale=1.0, size=None, **kw):
    return _state().exponential(scale, size, **kw)


def standard_exponential(size=None, **kw):
    return _state().standard_exponential(size, **kw)


def gamma(shape, scale=1.0, size=None, **kw):
    return _state().gamma(shape, scale, size, **kw)


def standard_gamma(shape, size=None, **kw):
    return _state().standard_gamma(shape, size, **kw)


def beta(a, b, size=None, **kw):
    return _state().beta(a, b, size, **kw)


def poisson(lam=1.0, size=None, **kw):
    return _state().poisson(lam, size, **kw)


def binomial(n, p, size=None, **kw):
    return _state().binomial(n, p, size, **kw)


def choice(a, size=None, replace=True, p=None, **kw):
    return _state().choice(a, size, replace, p, **kw)


def permutation(x, **kw):
    return _state().permutation(x, **kw)


def shuffle(x):
    _state().shuffle(x)
