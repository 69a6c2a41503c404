"""Copies between strided views as kernels on the views' queue.

The runtime copies contiguous bytes. A copy from or into a strided view of
memory the host cannot reach on a device that is not the CPU (a GPU's
device memory) would otherwise stage the views' whole spans through the
host: a slice
assignment or a sliced operand of a 1024x1024 stencil on a GPU cost a
round trip over PCIe. The extension calls ``copy`` instead (Array.cpp,
``kernelCopy``) with flat unsigned-integer views of both spans and the
copy's geometry (at most three axes after merging), and this launches one
kernel over it, ordered with the queue's other work.
"""

import os

from . import _sluice as _ext
from . import kernel_api as kapi
from ._kernel import call_kernel, kernel


@kernel
def _copy1(item: kapi.Item, dst, src, d0, s0, df, sf):
    i = item.get_id(0)
    dst[df + i * d0] = src[sf + i * s0]


@kernel
def _copy2(item: kapi.Item, dst, src, d0, d1, s0, s1, df, sf):
    i = item.get_id(0)
    j = item.get_id(1)
    dst[df + i * d0 + j * d1] = src[sf + i * s0 + j * s1]


@kernel
def _copy3(item: kapi.Item, dst, src, d0, d1, d2, s0, s1, s2, df, sf):
    i = item.get_id(0)
    j = item.get_id(1)
    k = item.get_id(2)
    dst[df + i * d0 + j * d1 + k * d2] = src[sf + i * s0 + j * s1 + k * s2]


_KERNELS = (_copy1, _copy2, _copy3)

# "auto": kernels on devices other than CPUs (a CPU device's memory is the
# host's, and staging through it is a memcpy: faster than a kernel there,
# 11 against 19 ms for a 1024x1024 stencil step on PoCL); "1": on every
# device the host cannot reach directly (tests); "0": never.
_mode = os.environ.get("SLUICE_KERNEL_COPIES", "auto")
_on_cpu = {}


def set_mode(mode):
    """Sets where strided copies run as kernels: "auto", "1" or "0"."""
    global _mode
    if mode not in ("auto", "1", "0"):
        raise ValueError(f"mode must be 'auto', '1' or '0', not {mode!r}")
    _mode = mode


def copy(dst, src, shape, dst_strides, src_strides, dst_first, src_first):
    """Copies ``src`` into ``dst`` (flat views; element ``(i, j, ...)`` at
    ``first + i * strides[0] + ...`` of each) with one kernel; False where
    the extension copies as before."""
    if _mode == "0":
        return False
    if _mode != "1":
        q = dst._queue_id
        cpu = _on_cpu.get(q)
        if cpu is None:
            cpu = _on_cpu[q] = ":cpu:" in dst.device.filter_string
        if cpu:
            return False
    call_kernel(
        _KERNELS[len(shape) - 1],
        kapi.Range(*shape),
        dst,
        src,
        *dst_strides,
        *src_strides,
        dst_first,
        src_first,
    )
    return True


def install():
    """Makes the extension copy strided views with ``copy``; only where the
    compiler is present (kernels are compiled on first use)."""
    from ._compiler import version

    if version():
        _ext.set_strided_copy_hook(copy)
