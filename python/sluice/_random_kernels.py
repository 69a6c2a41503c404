"""Kernels of the distributions of ``sluice.random`` beyond the basic ones
of ``_sort_kernels`` (uniform, normal, integers, gamma).

Every element i of a draw owns the Philox counter word ``ctr + i`` and
walks the second, 64-bit, part of the counter (0, 1, 2, ...) for as many
uniforms as it needs, so rejection loops run until they accept (no fixed
budget of tries) and still give the same numbers however the work is
split. Draws nested in others (the Gamma and Poisson of the negative
binomial, the binomials of the multinomial's categories) start their own
streams at fixed offsets of that word (``_GAMMA_BASE``, ``_POISSON_BASE``,
``_CATEGORY_BASE``) so that they never overlap.

Poisson: Knuth's product of uniforms below mean 10, Hoermann's transformed
rejection (PTRS) above. Binomial: inversion when n * min(p, 1 - p) < 10,
Hoermann's BTRS above. ln Gamma by Stirling's series after shifting the
argument past 7.
"""

import numpy as np

from . import _kernel as _k
from . import kernel_api as kapi

kernel = _k.kernel

_PI = 3.141592653589793


@_k.device_func
def philox_u01(k0, k1, c0, c1):
    # Philox-4x32-10 of the counter (c0, low word of c1, high word of c1, 0)
    # under key (k0, k1), as _sort_kernels.philox_u01 (the same numbers for
    # c1 < 2**32) with a 64-bit second word: 53 bits of the first two
    # output words as a float64 in [0, 1)
    w = np.uint64(c1)
    x0 = np.uint64(c0)
    x1 = w & 0xFFFFFFFF
    x2 = w >> 32
    x3 = np.uint64(0)
    a = np.uint64(k0)
    b = np.uint64(k1)
    for _ in range(10):
        p0 = x0 * 0xD2511F53
        p1 = x2 * 0xCD9E8D57
        y0 = (p1 >> 32) ^ x1 ^ a
        y2 = (p0 >> 32) ^ x3 ^ b
        x1 = p1 & 0xFFFFFFFF
        x3 = p0 & 0xFFFFFFFF
        x0 = y0 & 0xFFFFFFFF
        x2 = y2 & 0xFFFFFFFF
        a = (a + 0x9E3779B9) & 0xFFFFFFFF
        b = (b + 0xBB67AE85) & 0xFFFFFFFF
    hi = np.float64(x0 >> 5)
    lo = np.float64(x1 >> 6)
    return (hi * 67108864.0 + lo) * (1.0 / 9007199254740992.0)


@_k.device_func
def u_open(k0, k1, c0, c1):
    # a uniform in the open interval (0, 1): the 53-bit grid shifted by half
    # a step
    return philox_u01(k0, k1, c0, c1) + 0.5 / 9007199254740992.0


@_k.device_func
def std_normal(k0, k1, c0, c1):
    # Box-Muller of the uniforms at second words c1 and c1 + 1
    u1 = u_open(k0, k1, c0, c1)
    u2 = philox_u01(k0, k1, c0, c1 + 1)
    return np.sqrt(-2.0 * np.log(u1)) * np.cos(2.0 * _PI * u2)


@_k.device_func
def log_gamma(x):
    # ln Gamma(x), x > 0: shift to x >= 7, then Stirling's series
    shift = 0.0
    while x < 7.0:
        shift += np.log(x)
        x += 1.0
    r = 1.0 / (x * x)
    s = (
        1.0 / 12.0
        - r
        * (1.0 / 360.0 - r * (1.0 / 1260.0 - r * (1.0 / 1680.0 - r / 1188.0)))
    ) / x
    return (x - 0.5) * np.log(x) - x + 0.9189385332046728 + s - shift


@_k.device_func
def gamma_draw(k0, k1, c0, c1, shape):
    # Marsaglia-Tsang (shape >= 1; below 1 the draw for shape + 1 scaled by
    # u ** (1 / shape)), uniforms from second word c1 on
    a = shape
    if shape < 1.0:
        a = shape + 1.0
    d = a - 1.0 / 3.0
    c = 1.0 / np.sqrt(9.0 * d)
    res = 0.0
    t = c1 + 1
    done = False
    while not done:
        x = std_normal(k0, k1, c0, t)
        v = 1.0 + c * x
        if v > 0.0:
            v = v * v * v
            uu = u_open(k0, k1, c0, t + 2)
            if np.log(uu) < 0.5 * x * x + d - d * v + d * np.log(v):
                res = d * v
                done = True
        t += 3
    if shape < 1.0:
        res = res * np.exp(np.log(u_open(k0, k1, c0, c1)) / shape)
    return res


@_k.device_func
def poisson_draw(k0, k1, c0, c1, lam):
    # Knuth below 10, PTRS above
    k = 0
    t = c1
    if lam < 10.0:
        limit = np.exp(-lam)
        p = philox_u01(k0, k1, c0, t)
        while p > limit:
            k += 1
            t += 1
            p = p * philox_u01(k0, k1, c0, t)
    else:
        slam = np.sqrt(lam)
        loglam = np.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2.0)
        done = False
        while not done:
            u = philox_u01(k0, k1, c0, t) - 0.5
            v = u_open(k0, k1, c0, t + 1)
            t += 2
            us = 0.5 - np.abs(u)
            kf = np.floor((2.0 * a / us + b) * u + lam + 0.43)
            if us >= 0.07 and v <= vr:
                k = np.int64(kf)
                done = True
            elif kf >= 0.0 and (us >= 0.013 or v <= us):
                lhs = np.log(v) + np.log(inv_alpha) - np.log(a / (us * us) + b)
                if lhs <= -lam + kf * loglam - log_gamma(kf + 1.0):
                    k = np.int64(kf)
                    done = True
    return k


@_k.device_func
def binomial_draw(k0, k1, c0, c1, n, p):
    # inversion for small means, BTRS otherwise, on min(p, 1 - p)
    flip = p > 0.5
    pp = p
    if flip:
        pp = 1.0 - p
    q = 1.0 - pp
    k = 0
    t = c1
    if pp <= 0.0:
        k = 0
    elif n * pp < 10.0:
        s = pp / q
        f = np.exp(n * np.log(q))
        u = philox_u01(k0, k1, c0, t)
        while u > f and k < n:
            u -= f
            k += 1
            f = f * s * (n - k + 1) / k
    else:
        spq = np.sqrt(n * pp * q)
        b = 1.15 + 2.53 * spq
        a = -0.0873 + 0.0248 * b + 0.01 * pp
        c = n * pp + 0.5
        vr = 0.92 - 4.2 / b
        alpha = (2.83 + 5.1 / b) * spq
        lpq = np.log(pp / q)
        m = np.floor((n + 1) * pp)
        h = log_gamma(m + 1.0) + log_gamma(n - m + 1.0)
        done = False
        while not done:
            u = philox_u01(k0, k1, c0, t) - 0.5
            v = u_open(k0, k1, c0, t + 1)
            t += 2
            us = 0.5 - np.abs(u)
            kf = np.floor((2.0 * a / us + b) * u + c)
            if kf >= 0.0 and kf <= n:
                if us >= 0.07 and v <= vr:
                    k = np.int64(kf)
                    done = True
                else:
                    lv = np.log(v * alpha / (a / (us * us) + b))
                    rhs = (
                        h
                        - log_gamma(kf + 1.0)
                        - log_gamma(n - kf + 1.0)
                        + (kf - m) * lpq
                    )
                    if lv <= rhs:
                        k = np.int64(kf)
                        done = True
    if flip:
        k = n - k
    return k


# second-word offsets of the nested streams (far past any single loop)
_GAMMA_BASE = 1 << 40
_POISSON_BASE = 1 << 50
_CATEGORY_BASE = 1 << 40


@kernel
def k_continuous(it: kapi.Item, out, k0, k1, ctr, kind, a, b, c):
    # one element from up to three uniforms (second words 0, 1, 2); kind:
    # 0 gumbel(loc a, scale b), 1 laplace(a, b), 2 logistic(a, b),
    # 3 rayleigh(scale a), 4 weibull(a), 5 pareto(a), 6 power(a),
    # 7 standard_cauchy, 8 triangular(a, b, c), 9 wald(mean a, scale b),
    # 10 lognormal(mean a, sigma b), 11 vonmises(mu a, kappa b)
    i = it.get_id(0)
    c0 = ctr + i
    u = u_open(k0, k1, c0, 0)
    r = 0.0
    if kind == 0:
        r = a - b * np.log(-np.log(u))
    elif kind == 1:
        if u < 0.5:
            r = a + b * np.log(2.0 * u)
        else:
            r = a - b * np.log(2.0 * (1.0 - u))
    elif kind == 2:
        r = a + b * np.log(u / (1.0 - u))
    elif kind == 3:
        r = a * np.sqrt(-2.0 * np.log(u))
    elif kind == 4:
        if a > 0.0:
            r = np.exp(np.log(-np.log(u)) / a)
    elif kind == 5:
        r = np.expm1(-np.log(u) / a)
    elif kind == 6:
        r = np.exp(np.log(u) / a)
    elif kind == 7:
        r = np.tan(_PI * (u - 0.5))
    elif kind == 8:
        span = c - a
        left = b - a
        if u <= left / span:
            r = a + np.sqrt(u * left * span)
        else:
            r = c - np.sqrt((1.0 - u) * (c - b) * span)
    elif kind == 9:
        z = std_normal(k0, k1, c0, 1)
        y = a * z * z
        x = a + a / (2.0 * b) * (y - np.sqrt(4.0 * b * y + y * y))
        if u <= a / (a + x):
            r = x
        else:
            r = a * a / x
    elif kind == 10:
        r = np.exp(a + b * std_normal(k0, k1, c0, 1))
    else:
        r = vonmises_draw(k0, k1, c0, a, b)
    out[i] = r


@_k.device_func
def vonmises_draw(k0, k1, c0, mu, kappa):
    # Best and Fisher's rejection; a wrapped normal for very large kappa;
    # the result wrapped into [-pi, pi)
    res = 0.0
    if kappa < 1e-8:
        res = _PI * (2.0 * philox_u01(k0, k1, c0, 1) - 1.0)
    elif kappa > 1e6:
        res = std_normal(k0, k1, c0, 1) / np.sqrt(kappa)
    else:
        s = 0.5 / kappa
        if kappa >= 1e-5:
            r = 1.0 + np.sqrt(1.0 + 4.0 * kappa * kappa)
            rho = (r - np.sqrt(2.0 * r)) / (2.0 * kappa)
            s = (1.0 + rho * rho) / (2.0 * rho)
        w = 0.0
        t = 1
        done = False
        while not done:
            z = np.cos(_PI * philox_u01(k0, k1, c0, t))
            w = (1.0 + s * z) / (s + z)
            y = kappa * (s - w)
            v = u_open(k0, k1, c0, t + 1)
            t += 2
            if y * (2.0 - y) - v >= 0.0 or np.log(y / v) + 1.0 - y >= 0.0:
                done = True
        res = np.arccos(min(max(w, -1.0), 1.0))
        if philox_u01(k0, k1, c0, t) < 0.5:
            res = -res
    x = res + mu
    return x - 2.0 * _PI * np.floor((x + _PI) / (2.0 * _PI))


@kernel
def k_discrete(it: kapi.Item, out, k0, k1, ctr, kind, a, b):
    # one integer per element; kind: 0 geometric(p a), 1 logseries(p a),
    # 2 zipf(a), 3 poisson(lam a),
    # 4 negative_binomial(n a, p b): Poisson of a Gamma(n, (1 - p) / p)
    i = it.get_id(0)
    c0 = ctr + i
    k = np.int64(0)
    if kind == 0:
        if a >= 1.0:
            k = np.int64(1)
        else:
            u = u_open(k0, k1, c0, 0)
            k = np.int64(max(np.ceil(np.log(u) / np.log1p(-a)), 1.0))
    elif kind == 1:
        k = logseries_draw(k0, k1, c0, a)
    elif kind == 2:
        k = zipf_draw(k0, k1, c0, a)
    elif kind == 3:
        k = poisson_draw(k0, k1, c0, 0, a)
    else:
        g = gamma_draw(k0, k1, c0, _GAMMA_BASE, a)
        k = poisson_draw(k0, k1, c0, _POISSON_BASE, g * (1.0 - b) / b)
    out[i] = k


@kernel
def k_binomial(it: kapi.Item, out, k0, k1, ctr, ntrials, prob):
    i = it.get_id(0)
    out[i] = binomial_draw(k0, k1, ctr + i, 0, ntrials, prob)


@kernel
def k_hypergeometric(it: kapi.Item, out, k0, k1, ctr, good, bad, nsample):
    i = it.get_id(0)
    out[i] = hypergeometric_draw(k0, k1, ctr + i, good, bad, nsample)


@_k.device_func
def logseries_draw(k0, k1, c0, p):
    # Kemp's second accelerated generator
    r = np.log1p(-p)
    k = np.int64(1)
    v = u_open(k0, k1, c0, 0)
    if v < p:
        q = -np.expm1(r * philox_u01(k0, k1, c0, 1))
        if v <= q * q:
            k = np.int64(max(np.floor(1.0 + np.log(v) / np.log(q)), 1.0))
        elif v < q:
            k = np.int64(2)
    return k


@_k.device_func
def zipf_draw(k0, k1, c0, a):
    # rejection from the continuous Pareto envelope (Devroye)
    am1 = a - 1.0
    b = np.exp(am1 * 0.6931471805599453)
    k = np.int64(1)
    t = 0
    done = False
    while not done:
        u = u_open(k0, k1, c0, t)
        v = philox_u01(k0, k1, c0, t + 1)
        t += 2
        x = np.floor(np.exp(-np.log(u) / am1))
        if x >= 1.0 and x < 9.2e18:
            tt = np.exp(am1 * np.log1p(1.0 / x))
            if v * x * (tt - 1.0) / (b - 1.0) <= tt / b:
                k = np.int64(x)
                done = True
    return k


@_k.device_func
def hypergeometric_draw(k0, k1, c0, good, bad, nsample):
    # an urn drawn one ball at a time, on the smaller of the sample and
    # its complement
    total = good + bad
    m = nsample
    if nsample > total // 2:
        m = total - nsample
    g = good
    left = total
    k = np.int64(0)
    for t in range(m):
        if philox_u01(k0, k1, c0, t) * left < g:
            g -= 1
            k += 1
        left -= 1
    if nsample > total // 2:
        k = good - k
    return k


@kernel
def k_gamma_of(it: kapi.Item, out, shapes, k0, k1, ctr, scale):
    # a Gamma(shapes[i], scale) per element (chi-square of per-element
    # degrees of freedom)
    i = it.get_id(0)
    out[i] = gamma_draw(k0, k1, ctr + i, 0, shapes[i]) * scale


@kernel
def k_multinomial(it: kapi.Item, out, pvals, npv, k0, k1, ctr, ntrials):
    # one row of npv counts: conditional binomials over the categories, the
    # last takes what is left; second words from 2**40 * j for category j
    i = it.get_id(0)
    left = ntrials
    rest = 1.0
    for j in range(npv - 1):
        pj = pvals[j]
        x = np.int64(0)
        if left > 0 and rest > 0.0:
            p = min(max(pj / rest, 0.0), 1.0)
            x = binomial_draw(k0, k1, ctr + i, j * _CATEGORY_BASE, left, p)
        out[i * npv + j] = x
        left -= x
        rest -= pj
    out[i * npv + npv - 1] = left
