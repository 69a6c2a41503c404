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
two gammas; Poisson by Knuth's product of uniforms below mean 10 and
Hoermann's transformed rejection (PTRS) above; binomial by inversion for
small means and Hoermann's BTRS otherwise; permutations by sorting random
keys. The other distributions of ``dpnp.random`` (``_random_kernels``):
inversion where it has a closed form (Gumbel, Laplace, logistic, Rayleigh,
Weibull, Pareto, power, Cauchy, triangular, geometric), Michael-Schucany-
Haas for Wald, Best-Fisher for von Mises, Kemp for the log-series,
Devroye's rejection for Zipf, an urn for the hypergeometric, conditional
binomials for the multinomial, Gamma mixtures (chi-square, F, Student's t,
Dirichlet, negative binomial, noncentral chi-square and F) and an SVD of
the covariance for the multivariate normal.
"""

import operator
import os

import numpy as np

from . import _dtypes, _ops
from . import _random_kernels as RK
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
    "bytes",
    "chisquare",
    "dirichlet",
    "f",
    "geometric",
    "gumbel",
    "hypergeometric",
    "laplace",
    "logistic",
    "lognormal",
    "logseries",
    "multinomial",
    "multivariate_normal",
    "negative_binomial",
    "noncentral_chisquare",
    "noncentral_f",
    "pareto",
    "power",
    "rayleigh",
    "standard_cauchy",
    "standard_t",
    "triangular",
    "vonmises",
    "wald",
    "weibull",
    "zipf",
    "get_random_state",
    "set_random_state",
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
        from . import _trace

        if _trace.current() is not None:
            from ._errors import TracerError

            # a draw in a traced function would run once, at trace time,
            # and every call would return the same numbers
            raise TracerError(
                "sluice.random inside @sluice.jit would draw its numbers "
                "once, when the function is traced: draw them outside and "
                "pass them in"
            )
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
        lam = float(lam)
        if not lam >= 0:
            raise ValueError("lam < 0 or lam is NaN")
        if lam > 1e18:
            raise ValueError("lam value too large")
        return self._discrete(3, lam, 0.0, size, device, usm_type, sycl_queue)

    def binomial(
        self, n, p, size=None, device=None, usm_type="device", sycl_queue=None
    ):
        n = operator.index(n)
        p = float(p)
        if n < 0:
            raise ValueError("n < 0")
        if not 0 <= p <= 1:
            raise ValueError("p < 0, p > 1 or p is NaN")
        out = self._out(
            _size(size), _dtypes.int64, "i", device, usm_type, sycl_queue
        )
        return self._run(RK.k_binomial, out, 1, n, p)

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

    # --- the other distributions of dpnp.random -----------------------------
    def _continuous(self, kind, a, b, c, size, device, usm_type, sycl_queue):
        out = self._out(_size(size), None, "f", device, usm_type, sycl_queue)
        return self._run(
            RK.k_continuous, out, 1, kind, float(a), float(b), float(c)
        )

    def _discrete(self, kind, a, b, size, device, usm_type, sycl_queue):
        out = self._out(
            _size(size), _dtypes.int64, "i", device, usm_type, sycl_queue
        )
        return self._run(RK.k_discrete, out, 1, kind, float(a), float(b))

    def _gamma_of(self, shapes, scale, sycl_queue):
        """One Gamma(shapes[i], scale) per element of the float array
        ``shapes`` (on its queue)."""
        out = _ops.astype(shapes, shapes.dtype, copy=True)
        n = out.size
        ctr = self._take(n)
        if n:
            call_kernel(
                RK.k_gamma_of,
                kapi.Range(n),
                _ops.reshape(out, (n,)),
                _ops.reshape(shapes, (n,)),
                self._key[0],
                self._key[1],
                ctr,
                float(scale),
            )
        return out

    def gumbel(
        self,
        loc=0.0,
        scale=1.0,
        size=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        _check(scale >= 0, "scale < 0")
        return self._continuous(
            0, loc, scale, 0, size, device, usm_type, sycl_queue
        )

    def laplace(
        self,
        loc=0.0,
        scale=1.0,
        size=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        _check(scale >= 0, "scale < 0")
        return self._continuous(
            1, loc, scale, 0, size, device, usm_type, sycl_queue
        )

    def logistic(
        self,
        loc=0.0,
        scale=1.0,
        size=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        _check(scale >= 0, "scale < 0")
        return self._continuous(
            2, loc, scale, 0, size, device, usm_type, sycl_queue
        )

    def rayleigh(
        self,
        scale=1.0,
        size=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        _check(scale >= 0, "scale < 0")
        return self._continuous(
            3, scale, 0, 0, size, device, usm_type, sycl_queue
        )

    def weibull(
        self, a, size=None, device=None, usm_type="device", sycl_queue=None
    ):
        _check(a >= 0, "a < 0")
        return self._continuous(4, a, 0, 0, size, device, usm_type, sycl_queue)

    def pareto(
        self, a, size=None, device=None, usm_type="device", sycl_queue=None
    ):
        _check(a > 0, "a <= 0")
        return self._continuous(5, a, 0, 0, size, device, usm_type, sycl_queue)

    def power(
        self, a, size=None, device=None, usm_type="device", sycl_queue=None
    ):
        _check(a > 0, "a <= 0")
        return self._continuous(6, a, 0, 0, size, device, usm_type, sycl_queue)

    def standard_cauchy(
        self, size=None, device=None, usm_type="device", sycl_queue=None
    ):
        return self._continuous(7, 0, 0, 0, size, device, usm_type, sycl_queue)

    def triangular(
        self,
        left,
        mode,
        right,
        size=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        _check(left <= mode, "left > mode")
        _check(mode <= right, "mode > right")
        _check(left != right, "left == right")
        return self._continuous(
            8, left, mode, right, size, device, usm_type, sycl_queue
        )

    def wald(
        self,
        mean,
        scale,
        size=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        _check(mean > 0, "mean <= 0")
        _check(scale > 0, "scale <= 0")
        return self._continuous(
            9, mean, scale, 0, size, device, usm_type, sycl_queue
        )

    def lognormal(
        self,
        mean=0.0,
        sigma=1.0,
        size=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        _check(sigma >= 0, "sigma < 0")
        return self._continuous(
            10, mean, sigma, 0, size, device, usm_type, sycl_queue
        )

    def vonmises(
        self,
        mu,
        kappa,
        size=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        _check(kappa >= 0, "kappa < 0")
        return self._continuous(
            11, mu, kappa, 0, size, device, usm_type, sycl_queue
        )

    def chisquare(
        self, df, size=None, device=None, usm_type="device", sycl_queue=None
    ):
        _check(df > 0, "df <= 0")
        g = self.gamma(
            float(df) / 2, 2.0, size, None, device, usm_type, sycl_queue
        )
        return g

    def standard_t(
        self, df, size=None, device=None, usm_type="device", sycl_queue=None
    ):
        _check(df > 0, "df <= 0")
        z = self.normal(0.0, 1.0, size, None, device, usm_type, sycl_queue)
        g = self.gamma(
            float(df) / 2, 2.0, size, None, device, usm_type, sycl_queue
        )
        return _ops.divide(z, _ops.sqrt(_ops.divide(g, float(df))))

    def f(
        self,
        dfnum,
        dfden,
        size=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        _check(dfnum > 0, "dfnum <= 0")
        _check(dfden > 0, "dfden <= 0")
        num = self.chisquare(dfnum, size, device, usm_type, sycl_queue)
        den = self.chisquare(dfden, size, device, usm_type, sycl_queue)
        return _ops.divide(
            _ops.multiply(num, float(dfden)), _ops.multiply(den, float(dfnum))
        )

    def noncentral_chisquare(
        self,
        df,
        nonc,
        size=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        _check(df > 0, "df <= 0")
        _check(nonc >= 0, "nonc < 0")
        df, nonc = float(df), float(nonc)
        if nonc == 0:
            return self.chisquare(df, size, device, usm_type, sycl_queue)
        if df > 1:
            c = self.chisquare(df - 1, size, device, usm_type, sycl_queue)
            z = self.normal(
                np.sqrt(nonc), 1.0, size, None, device, usm_type, sycl_queue
            )
            return _ops.add(c, _ops.multiply(z, z))
        # a Poisson(nonc / 2) mixture of chi-squares with df + 2i
        i = self.poisson(nonc / 2, size, device, usm_type, sycl_queue)
        q = self._out((), None, "f", device, usm_type, sycl_queue).sycl_queue
        shapes = _ops.add(_ops.astype(i, q_float(q)), df / 2)
        return self._gamma_of(shapes, 2.0, q)

    def noncentral_f(
        self,
        dfnum,
        dfden,
        nonc,
        size=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        _check(dfnum > 0, "dfnum <= 0")
        _check(dfden > 0, "dfden <= 0")
        _check(nonc >= 0, "nonc < 0")
        t = self.noncentral_chisquare(
            dfnum, nonc, size, device, usm_type, sycl_queue
        )
        d = self.chisquare(dfden, size, device, usm_type, sycl_queue)
        return _ops.divide(
            _ops.multiply(t, float(dfden)), _ops.multiply(d, float(dfnum))
        )

    def dirichlet(
        self, alpha, size=None, device=None, usm_type="device", sycl_queue=None
    ):
        from ._array import Array

        if isinstance(alpha, Array):
            alpha = alpha.asnumpy() if hasattr(alpha, "asnumpy") else None
        alpha = np.asarray(alpha, dtype=np.float64)
        if alpha.ndim != 1:
            raise ValueError("alpha must be a one-dimensional sequence")
        if (alpha < 0).any() or np.isnan(alpha).any():
            raise ValueError("alpha < 0")
        if alpha.size and (alpha == 0).all():
            raise ValueError("at least one alpha must be > 0")
        shape = _size(size) + (alpha.size,)
        q = self._out((), None, "f", device, usm_type, sycl_queue).sycl_queue
        from ._creation import asarray

        m = int(np.prod(shape[:-1], dtype=np.int64))
        shapes = asarray(
            np.broadcast_to(alpha, (m, alpha.size)).astype(q_float(q)),
            sycl_queue=q,
            usm_type=usm_type or "device",
        )
        g = _ops.reshape(self._gamma_of(shapes, 1.0, q), shape)
        # a zero alpha gives a zero component
        total = _ops.sum(g, axis=-1, keepdims=True)
        return _ops.divide(g, total) if g.size else g

    def geometric(
        self, p, size=None, device=None, usm_type="device", sycl_queue=None
    ):
        _check(0 < p <= 1, "p <= 0, p > 1 or p is NaN")
        return self._discrete(0, p, 0, size, device, usm_type, sycl_queue)

    def logseries(
        self, p, size=None, device=None, usm_type="device", sycl_queue=None
    ):
        _check(0 <= p < 1, "p < 0, p >= 1 or p is NaN")
        if p == 0:
            return self._discrete(
                0, 1.0, 0, size, device, usm_type, sycl_queue
            )
        return self._discrete(1, p, 0, size, device, usm_type, sycl_queue)

    def zipf(
        self, a, size=None, device=None, usm_type="device", sycl_queue=None
    ):
        _check(a > 1, "a <= 1 or a is NaN")
        return self._discrete(2, a, 0, size, device, usm_type, sycl_queue)

    def negative_binomial(
        self, n, p, size=None, device=None, usm_type="device", sycl_queue=None
    ):
        _check(n > 0, "n <= 0")
        _check(0 < p <= 1, "p <= 0, p > 1 or p is NaN")
        return self._discrete(4, n, p, size, device, usm_type, sycl_queue)

    def hypergeometric(
        self,
        ngood,
        nbad,
        nsample,
        size=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        ngood, nbad = operator.index(ngood), operator.index(nbad)
        nsample = operator.index(nsample)
        if ngood < 0 or nbad < 0:
            raise ValueError("ngood < 0 or nbad < 0")
        if nsample < 0:
            raise ValueError("nsample < 0")
        if nsample > ngood + nbad:
            raise ValueError("ngood + nbad < nsample")
        out = self._out(
            _size(size), _dtypes.int64, "i", device, usm_type, sycl_queue
        )
        return self._run(RK.k_hypergeometric, out, 1, ngood, nbad, nsample)

    def multinomial(
        self,
        n,
        pvals,
        size=None,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        from ._array import Array

        n = operator.index(n)
        if n < 0:
            raise ValueError("n < 0")
        if isinstance(pvals, Array):
            pvals = pvals.asnumpy()
        pv = np.asarray(pvals, dtype=np.float64)
        if pv.ndim != 1:
            raise ValueError("pvals must be a 1-d sequence")
        if ((pv < 0) | (pv > 1) | np.isnan(pv)).any():
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if pv.size and pv[:-1].sum() > 1.0 + 1e-12:
            raise ValueError("sum(pvals[:-1]) > 1.0")
        shape = _size(size) + (pv.size,)
        out = self._out(
            shape, _dtypes.int64, "i", device, usm_type, sycl_queue
        )
        m = int(np.prod(shape[:-1], dtype=np.int64))
        ctr = self._take(m)
        if m and pv.size:
            from ._creation import asarray

            q = out.sycl_queue
            pd = asarray(pv.astype(q_float(q)), sycl_queue=q)
            call_kernel(
                RK.k_multinomial,
                kapi.Range(m),
                _ops.reshape(out, (out.size,)),
                pd,
                pv.size,
                self._key[0],
                self._key[1],
                ctr,
                n,
            )
        return out

    def multivariate_normal(
        self,
        mean,
        cov,
        size=None,
        check_valid="warn",
        tol=1e-8,
        device=None,
        usm_type="device",
        sycl_queue=None,
    ):
        from ._array import Array
        from ._creation import asarray
        from ._products import matmul

        mean = np.asarray(
            mean.asnumpy() if isinstance(mean, Array) else mean, np.float64
        )
        cov = np.asarray(
            cov.asnumpy() if isinstance(cov, Array) else cov, np.float64
        )
        if mean.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if mean.shape[0] != cov.shape[0]:
            raise ValueError("mean and cov must have same length")
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError(
                "check_valid must equal 'warn', 'raise', or 'ignore'"
            )
        # cov = u s v: the draws are z @ (sqrt(s) v) + mean
        _, s, v = np.linalg.svd(cov)
        if check_valid != "ignore":
            psd = np.allclose(v.T @ (s[:, None] * v), cov, rtol=tol, atol=tol)
            if not psd:
                msg = "covariance is not symmetric positive-semidefinite."
                if check_valid == "raise":
                    raise ValueError(msg)
                import warnings

                warnings.warn(msg, RuntimeWarning, stacklevel=2)
        shape = _size(size) + mean.shape
        z = self.normal(0.0, 1.0, shape, None, device, usm_type, sycl_queue)
        q = z.sycl_queue
        fac = asarray((np.sqrt(s)[:, None] * v).astype(z.dtype), sycl_queue=q)
        if z.size == 0:
            return z
        x = matmul(_ops.reshape(z, (-1, mean.size)), fac)
        x = _ops.add(x, asarray(mean.astype(z.dtype), sycl_queue=q))
        return _ops.reshape(x, shape)

    def bytes(self, length):
        """``length`` random bytes (a Python bytes object)."""
        length = operator.index(length)
        if length < 0:
            raise ValueError("negative dimensions are not allowed")
        r = self.randint(0, 256, length, np.uint8)
        return r.asnumpy().tobytes() if length else b""

    def get_state(self):
        """The generator's state: ('Philox', key, counter)."""
        return ("Philox", self._key, self._ctr)

    def set_state(self, state):
        """Restores a state from ``get_state``."""
        name, key, ctr = state
        if name != "Philox":
            raise ValueError("not a Philox state")
        self._key = (int(key[0]), int(key[1]))
        self._ctr = int(ctr)


# The distributions whose parameters are scalars (NumPy also broadcasts
# arrays of parameters; Sluice, like dpnp's legacy functions, does not)
_SCALAR_PARAMS = (
    "uniform normal exponential gamma standard_gamma beta randint "
    "random_integers poisson binomial gumbel laplace logistic rayleigh "
    "weibull pareto power triangular wald lognormal vonmises chisquare "
    "standard_t f noncentral_chisquare noncentral_f geometric logseries "
    "zipf negative_binomial hypergeometric"
).split()
_NOT_PARAMS = {"self", "size", "dtype", "device", "usm_type", "sycl_queue"}


def _scalar_params(fn):
    import functools
    import inspect

    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def f(*args, **kwargs):
        b = sig.bind(*args, **kwargs)
        for k, v in b.arguments.items():
            if k in _NOT_PARAMS:
                continue
            nd = getattr(v, "ndim", None)
            if nd is None:
                nd = np.ndim(v)
            if nd != 0:
                raise TypeError(
                    f"sluice.random.{fn.__name__}: {k} must be a scalar "
                    "(array-valued parameters are not supported)"
                )
        return fn(*args, **kwargs)

    return f


for _name in _SCALAR_PARAMS:
    setattr(RandomState, _name, _scalar_params(getattr(RandomState, _name)))
del _name


def q_float(q):
    """The default float dtype of queue ``q``."""
    return _dtypes.default_float(queue_info(q))


def _check(ok, msg):
    if not ok:
        raise ValueError(msg)


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


def _module_function(name):
    def f(*args, **kw):
        return getattr(_state(), name)(*args, **kw)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = getattr(RandomState, name).__doc__
    return f


bytes = _module_function("bytes")
chisquare = _module_function("chisquare")
dirichlet = _module_function("dirichlet")
f = _module_function("f")
geometric = _module_function("geometric")
gumbel = _module_function("gumbel")
hypergeometric = _module_function("hypergeometric")
laplace = _module_function("laplace")
logistic = _module_function("logistic")
lognormal = _module_function("lognormal")
logseries = _module_function("logseries")
multinomial = _module_function("multinomial")
multivariate_normal = _module_function("multivariate_normal")
negative_binomial = _module_function("negative_binomial")
noncentral_chisquare = _module_function("noncentral_chisquare")
noncentral_f = _module_function("noncentral_f")
pareto = _module_function("pareto")
power = _module_function("power")
rayleigh = _module_function("rayleigh")
standard_cauchy = _module_function("standard_cauchy")
standard_t = _module_function("standard_t")
triangular = _module_function("triangular")
vonmises = _module_function("vonmises")
wald = _module_function("wald")
weibull = _module_function("weibull")
zipf = _module_function("zipf")


def get_random_state():
    """The module's RandomState (the generator behind its functions)."""
    return _state()


def set_random_state(state):
    """Makes ``state`` (a RandomState) the module's generator."""
    global _global
    if not isinstance(state, RandomState):
        raise TypeError("state must be a sluice.random.RandomState")
    _global = state
