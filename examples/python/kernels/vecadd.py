"""Vector addition with a range kernel: one work-item per element.

python vecadd.py [DEVICE]      (DEVICE: a filter string, e.g. opencl:cpu:0)
"""

import sys

import numpy as np

import sluice
from sluice import kernel_api as kapi


@sluice.kernel
def vecadd(item: kapi.Item, a, b, c):
    i = item.get_id(0)
    c[i] = a[i] + b[i]


def main(device):
    n = 100_003  # not a multiple of any workgroup size
    rng = np.random.default_rng(0)
    a_np = rng.random(n, dtype=np.float32)
    b_np = rng.random(n, dtype=np.float32)
    a = sluice.asarray(a_np, device=device)
    b = sluice.asarray(b_np, device=device)
    c = sluice.empty_like(a)
    sluice.call_kernel(vecadd, kapi.Range(n), a, b, c)
    err = np.max(np.abs(sluice.asnumpy(c) - (a_np + b_np)))
    print(f"vecadd on {c.device.filter_string}: n = {n}, max error {err}")
    assert err == 0
    print("OK")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
