"""A work-group reduction: each workgroup sums its slice in workgroup
memory (a tree of additions between barriers), then one atomic addition per
workgroup combines them.

    python reduction.py [DEVICE]
"""

import sys

import numpy as np

import sluice
from sluice import kernel_api as kapi

GROUP = 64


@sluice.kernel
def group_sum(item: kapi.NdItem, a, partial, total, scratch):
    gid = item.get_global_id(0)
    lid = item.get_local_id(0)
    group = item.get_group()
    scratch[lid] = a[gid]
    kapi.group_barrier(group)
    stride = item.get_local_range(0) // 2
    while stride > 0:
        if lid < stride:
            scratch[lid] += scratch[lid + stride]
        kapi.group_barrier(group)
        stride = stride // 2
    if lid == 0:
        partial[group.get_group_id(0)] = scratch[0]
        kapi.AtomicRef(total, 0).fetch_add(scratch[0])


def main(device):
    groups = 500
    n = groups * GROUP
    a_np = np.random.default_rng(5).integers(0, 100, n).astype(np.int64)
    a = sluice.asarray(a_np, device=device)
    partial = sluice.zeros(groups, dtype=np.int64, device=device)
    total = sluice.zeros(1, dtype=np.int64, device=device)
    sluice.call_kernel(
        group_sum,
        kapi.NdRange((n,), (GROUP,)),
        a,
        partial,
        total,
        kapi.LocalAccessor((GROUP,), np.int64),
    )
    got = sluice.asnumpy(partial)
    ref = a_np.reshape(groups, GROUP).sum(axis=1)
    print(
        f"sum of {n} integers in workgroups of {GROUP} on "
        f"{partial.device.filter_string}: {sluice.asnumpy(total)[0]} "
        f"(NumPy {a_np.sum()})"
    )
    assert np.array_equal(got, ref)
    assert sluice.asnumpy(total)[0] == a_np.sum()
    print("OK")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
