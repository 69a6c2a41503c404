"""A histogram with atomic additions: every work-item adds one to its
value's bin.

    python histogram.py [DEVICE]
"""

import sys

import numpy as np

import sluice
from sluice import kernel_api as kapi


@sluice.kernel
def histogram(item: kapi.Item, data, bins, counts):
    i = item.get_id(0)
    b = int(data[i] * bins)
    if b >= bins:
        b = bins - 1
    ref = kapi.AtomicRef(
        counts,
        index=b,
        memory_order=kapi.MemoryOrder.RELAXED,
        memory_scope=kapi.MemoryScope.DEVICE,
        address_space=kapi.AddressSpace.GLOBAL,
    )
    ref.fetch_add(1)


def main(device):
    n, nbins = 200_000, 64
    data_np = np.random.default_rng(4).random(n, dtype=np.float32)
    data = sluice.asarray(data_np, device=device)
    counts = sluice.zeros(nbins, dtype=np.int32, device=device)
    sluice.call_kernel(histogram, kapi.Range(n), data, nbins, counts)
    idx = np.minimum((data_np * nbins).astype(np.int64), nbins - 1)
    ref = np.bincount(idx, minlength=nbins)
    got = sluice.asnumpy(counts)
    print(
        f"histogram of {n} values in {nbins} bins on "
        f"{counts.device.filter_string}: total {got.sum()}, "
        f"{np.sum(got != ref)} bins differ"
    )
    assert np.array_equal(got, ref)
    print("OK")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
