"""Pairwise Euclidean distances between points with a 2-D range kernel.

python pairwise_distance.py [DEVICE]
"""

import math
import sys

import numpy as np

import sluice
from sluice import kernel_api as kapi


@sluice.kernel
def pairwise_distance(item: kapi.Item, x, d):
    i = item.get_id(0)
    j = item.get_id(1)
    ndims = x.shape[1]
    s = 0.0
    for k in range(ndims):
        diff = x[i, k] - x[j, k]
        s += diff * diff
    d[i, j] = math.sqrt(s)


def main(device):
    n, dims = 300, 3
    x_np = np.random.default_rng(2).random((n, dims), dtype=np.float32)
    x = sluice.asarray(x_np, device=device)
    d = sluice.empty((n, n), dtype=np.float32, device=device)
    sluice.call_kernel(pairwise_distance, kapi.Range(n, n), x, d)
    ref = np.sqrt(((x_np[:, None, :] - x_np[None, :, :]) ** 2).sum(-1))
    err = np.max(np.abs(sluice.asnumpy(d) - ref))
    print(
        f"pairwise distance of {n} points on {d.device.filter_string}: "
        f"max error {err:.3g}"
    )
    assert err < 1e-5
    print("OK")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
