"""The assignment step of k-means: each point finds its nearest centroid
(a range kernel with loops and a running minimum).

    python kmeans_assign.py [DEVICE]
"""

import sys

import numpy as np

import sluice
from sluice import kernel_api as kapi


@sluice.kernel
def assign(item: kapi.Item, points, centroids, labels):
    i = item.get_id(0)
    k = centroids.shape[0]
    dims = points.shape[1]
    best = 0
    best_d = 3.0e38
    for c in range(k):
        dist = 0.0
        for j in range(dims):
            diff = points[i, j] - centroids[c, j]
            dist += diff * diff
        if dist < best_d:
            best_d = dist
            best = c
    labels[i] = best


def main(device):
    n, k, dims = 5000, 8, 4
    rng = np.random.default_rng(3)
    p_np = rng.random((n, dims), dtype=np.float32)
    c_np = rng.random((k, dims), dtype=np.float32)
    points = sluice.asarray(p_np, device=device)
    centroids = sluice.asarray(c_np, device=device)
    labels = sluice.empty(n, dtype=np.int32, device=device)
    sluice.call_kernel(assign, kapi.Range(n), points, centroids, labels)
    d = ((p_np[:, None, :] - c_np[None, :, :]) ** 2).sum(-1)
    ref = d.argmin(axis=1)
    got = sluice.asnumpy(labels)
    # Ties within rounding may pick either centroid: compare distances.
    worse = d[np.arange(n), got] - d[np.arange(n), ref]
    print(
        f"k-means assignment of {n} points to {k} centroids on "
        f"{labels.device.filter_string}: {np.sum(got != ref)} labels "
        f"differ, largest distance excess {worse.max():.3g}"
    )
    assert worse.max() < 1e-5
    print("OK")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
