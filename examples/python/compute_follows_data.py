"""Compute follows data: an operation runs where its inputs live, and its
result lives there too. Mixing queues is an error until one input is
migrated with to_device().

    python examples/python/compute_follows_data.py [DEVICE]
"""

import sys

import numpy as np

import sluice as snp  # in place of `import dpnp as np`

device = sys.argv[1] if len(sys.argv) > 1 else None

x = snp.arange(8, dtype=snp.float32, device=device)  # on `device`
y = snp.ones(8, dtype=snp.float32, device=device, usm_type="shared")
z = snp.sqrt(x * x + y)  # runs on x's queue; USM kind coerced
print("z lives on", z.device, "as", z.usm_type, "memory")
print("z =", snp.asnumpy(z))

# NumPy data and Python scalars follow the array they meet.
w = z + np.arange(8, dtype=np.float32) * 0.5
print("w.sycl_queue is z.sycl_queue:", w.sycl_queue is z.sycl_queue)

# Arrays on two different queues cannot be combined...
other = snp.ones(8, dtype=snp.float32, sycl_queue=snp.Queue(x.sycl_device))
try:
    x + other
except snp.ExecutionPlacementError as e:
    print("ExecutionPlacementError:", e)

# ...until one is migrated explicitly.
print("x + other =", snp.asnumpy(x + other.to_device(x.device)))

# No silent host conversion: asnumpy() copies to the host on request.
try:
    np.asarray(x)
except TypeError as e:
    print("TypeError:", str(e).split(":")[0])
