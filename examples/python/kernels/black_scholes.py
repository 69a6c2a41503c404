"""Black-Scholes option pricing with a range kernel (math functions in a
kernel), checked against NumPy.

    python black_scholes.py [DEVICE]
"""

import math
import sys

import numpy as np

import sluice
from sluice import kernel_api as kapi

RISK_FREE = 0.1
VOLATILITY = 0.2


@sluice.device_func
def cnd(d):
    # The standard normal distribution function.
    return 0.5 + 0.5 * math.erf(d * (1.0 / math.sqrt(2.0)))


@sluice.kernel
def black_scholes(item: kapi.Item, price, strike, t, call, put):
    i = item.get_id(0)
    p = price[i]
    s = strike[i]
    tt = t[i]
    sig_sqrt_t = VOLATILITY * math.sqrt(tt)
    d1 = (
        math.log(p / s) + (RISK_FREE + 0.5 * VOLATILITY * VOLATILITY) * tt
    ) / sig_sqrt_t
    d2 = d1 - sig_sqrt_t
    discounted = s * math.exp(-RISK_FREE * tt)
    c = p * cnd(d1) - discounted * cnd(d2)
    call[i] = c
    put[i] = c - p + discounted


def reference(price, strike, t):
    from math import erf

    cnd = np.vectorize(lambda d: 0.5 + 0.5 * erf(d / math.sqrt(2.0)))
    sig_sqrt_t = VOLATILITY * np.sqrt(t)
    d1 = (
        np.log(price / strike) + (RISK_FREE + 0.5 * VOLATILITY**2) * t
    ) / sig_sqrt_t
    d2 = d1 - sig_sqrt_t
    discounted = strike * np.exp(-RISK_FREE * t)
    call = price * cnd(d1) - discounted * cnd(d2)
    return call, call - price + discounted


def main(device):
    n = 10_000
    rng = np.random.default_rng(1)
    dt = np.float64 if sluice.Device(device).has_aspect_fp64 else np.float32
    price = rng.uniform(10.0, 50.0, n).astype(dt)
    strike = rng.uniform(10.0, 50.0, n).astype(dt)
    t = rng.uniform(1.0, 2.0, n).astype(dt)
    args = [sluice.asarray(x, device=device) for x in (price, strike, t)]
    call = sluice.empty_like(args[0])
    put = sluice.empty_like(args[0])
    sluice.call_kernel(black_scholes, kapi.Range(n), *args, call, put)
    rc, rp = reference(
        price.astype(np.float64),
        strike.astype(np.float64),
        t.astype(np.float64),
    )
    err = max(
        np.max(np.abs(sluice.asnumpy(call) - rc)),
        np.max(np.abs(sluice.asnumpy(put) - rp)),
    )
    print(
        f"black-scholes ({np.dtype(dt).name}) on "
        f"{call.device.filter_string}: max error {err:.3g}"
    )
    assert err < (1e-9 if dt == np.float64 else 1e-3)
    print("OK")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
