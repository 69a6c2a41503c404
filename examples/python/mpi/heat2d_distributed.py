"""The 2-D heat equation with a distributed array: the same code as for one
device (slices of the whole grid), with sluice.distributed moving the
ghost rows between ranks where shifted slices meet (a halo exchange).

    mpirun -n 4 python examples/python/mpi/heat2d_distributed.py \
        [DEVICE] [N] [STEPS]
"""

import sys

import numpy

import sluice
import sluice.distributed as np  # the distributed namespace

device = sys.argv[1] if len(sys.argv) > 1 else None
n = int(sys.argv[2]) if len(sys.argv) > 2 else 256
steps = int(sys.argv[3]) if len(sys.argv) > 3 else 100
alpha = 0.2

init = numpy.zeros((n, n))
init[n // 4 : n // 2, n // 4 : 3 * n // 4] = 100.0
u = np.asarray(init, split=0, device=device)  # rows in blocks over ranks

for _ in range(steps):
    # The first term sets the blocks the sum is computed in: a centred one
    # makes the shifted rows u[:-2] and u[2:] the only ones that move.
    lap = (
        u[1:-1, :-2]
        + u[1:-1, 2:]
        + u[:-2, 1:-1]
        + u[2:, 1:-1]
        - 4 * u[1:-1, 1:-1]
    )
    u[1:-1, 1:-1] = u[1:-1, 1:-1] + alpha * lap

heat = float(u.sum())  # a reduction over ranks
got = u.asnumpy()
if u.comm.Get_rank() == 0:
    ref = init.copy()
    for _ in range(steps):
        lap = (
            ref[1:-1, :-2]
            + ref[1:-1, 2:]
            + ref[:-2, 1:-1]
            + ref[2:, 1:-1]
            - 4 * ref[1:-1, 1:-1]
        )
        ref[1:-1, 1:-1] += alpha * lap
    print(
        f"{u.comm.Get_size()} ranks on {u.device.filter_string}: {n}x{n} "
        f"grid, {steps} steps, heat {heat:.6g}; {u.layout.describe()}"
    )
    print(f"max error vs NumPy: {numpy.abs(got - ref).max():.3g}")

try:  # compute follows data, over ranks
    u + u.redistribute(split=1)
except sluice.ExecutionPlacementError as e:
    if u.comm.Get_rank() == 0:
        print("ExecutionPlacementError:", e)
