"""Histograms with atomic additions. ``histogram``: every work-item adds
one to its value's bin in global memory. ``histogram_local``: each
workgroup counts its share of the values in workgroup memory (atomics on
local memory), then adds its counts to the global bins.

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


@sluice.kernel
def histogram_local(item: kapi.NdItem, data, bins, counts, local_counts):
    lid = item.get_local_id(0)
    nl = item.get_local_range(0)
    group = item.get_group()
    b = lid
    while b < bins:
        local_counts[b] = 0
        b += nl
    kapi.group_barrier(group)
    # Work-items stride over the data by the size of the whole grid.
    n = data.shape[0]
    stride = item.get_global_range(0)
    i = item.get_global_id(0)
    while i < n:
        k = int(data[i] * bins)
        if k >= bins:
            k = bins - 1
        kapi.AtomicRef(
            local_counts, k, address_space=kapi.AddressSpace.LOCAL
        ).fetch_add(1)
        i += stride
    kapi.group_barrier(group)
    b = lid
    while b < bins:
        c = local_counts[b]
        if c != 0:
            kapi.AtomicRef(counts, b).fetch_add(c)
        b += nl


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
    groups, group = 16, 128
    counts2 = sluice.zeros(nbins, dtype=np.int32, device=device)
    sluice.call_kernel(
        histogram_local,
        kapi.NdRange((groups * group,), (group,)),
        data,
        nbins,
        counts2,
        kapi.LocalAccessor((nbins,), np.int32),
    )
    got2 = sluice.asnumpy(counts2)
    print(f"with workgroup-local bins: {np.sum(got2 != ref)} bins differ")
    assert np.array_equal(got2, ref)
    print("OK")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
