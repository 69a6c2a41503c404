"""USM memory objects (dpctl.memory): allocation, the buffer protocol for
shared and host memory, copies, memset, and exchanging memory with arrays
through __sycl_usm_array_interface__.

    python examples/python/dpctl/usm_memory.py [filter-string]
"""

import sys

import numpy as np

import sluice.compat

sluice.compat.install_aliases()

import dpctl  # noqa: E402
import dpctl.memory as dpmem  # noqa: E402
import dpctl.tensor as dpt  # noqa: E402

q = dpctl.SyclQueue(sys.argv[1] if len(sys.argv) > 1 else None)
print("device:", q.sycl_device.filter_string)

# Shared memory: the host reads and writes it through the buffer protocol.
ms = dpmem.MemoryUSMShared(32, queue=q)
ms.copy_from_host(b"sluice USM shared memory demo...")
print(
    "shared:",
    bytes(memoryview(ms)[:17]).decode(),
    "| usm type",
    ms.get_usm_type(),
)
view = np.frombuffer(ms, dtype=np.uint8)
print("numpy view size:", view.size)

# Device memory: copies only (the host may not reach it).
md = dpmem.MemoryUSMDevice(32, queue=q)
md.copy_from_device(ms)
print("device copy:", md.tobytes()[:6].decode())
md.memset(7)
print("after memset:", md.copy_to_host()[:4].tolist())

# Host memory.
mh = dpmem.MemoryUSMHost(16, queue=q)
mh.memset(0)
q.memcpy(mh, md, 16)
print("host memory after memcpy:", bytes(mh)[:4])

# Arrays and memory objects share memory through the interface.
x = dpt.arange(8, dtype="i4", sycl_queue=q)
mem = dpmem.as_usm_memory(x)
print("as_usm_memory:", type(mem).__name__, mem.nbytes, "bytes")
y = dpt.usm_ndarray((2, 4), dtype="i4", buffer=mem)
print("usm_ndarray over it:", dpt.asnumpy(y).tolist())
iface = x.__sycl_usm_array_interface__
print(
    "interface:",
    iface["shape"],
    iface["typestr"],
    iface["syclobj"] is x.sycl_queue,
)
z = dpt.asarray(ms)  # any object with the interface
print("asarray of shared memory:", z.dtype, z.shape)

try:
    memoryview(md)
    print("device memory: host-accessible on this backend")
except BufferError:
    print("device memory: BufferError (the host cannot read it)")
