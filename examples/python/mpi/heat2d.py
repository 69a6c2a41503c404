"""The 2-D heat equation on an N x N grid split by rows over the ranks,
written the dpnp way: each rank holds its rows plus one ghost row above and
below, exchanges the ghost rows with its neighbours through mpi4py
(Sendrecv of sluice arrays; staged through host memory where MPI cannot
read the device's memory), and updates its rows with slicing.

    mpirun -n 4 python examples/python/mpi/heat2d.py [DEVICE] [N] [STEPS]
"""

import sys

import numpy
from mpi4py import MPI

import sluice as np  # in place of `import dpnp as np`
import sluice.distributed as sd

device = sys.argv[1] if len(sys.argv) > 1 else None
n = int(sys.argv[2]) if len(sys.argv) > 2 else 256
steps = int(sys.argv[3]) if len(sys.argv) > 3 else 100
alpha = 0.2
comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
up = rank - 1 if rank > 0 else MPI.PROC_NULL
down = rank + 1 if rank < size - 1 else MPI.PROC_NULL


def initial(n):
    u = numpy.zeros((n, n))
    u[n // 4 : n // 2, n // 4 : 3 * n // 4] = 100.0  # a hot patch
    return u


lo, hi = sd.balanced(n, size)[rank]
u = np.zeros((hi - lo + 2, n), dtype=np.float64, device=device)
u[1:-1] = initial(n)[lo:hi]  # rows lo..hi, ghosts at 0 and -1


def exchange(u):
    # My first row goes up while the row above comes into ghost row 0;
    # my last row goes down while the row below comes into the last ghost.
    for send_row, dest, recv_row, source in (
        (1, up, -1, down),
        (-2, down, 0, up),
    ):
        with (
            sd.staged(u[send_row]) as s,
            sd.staged(u[recv_row], read=False, write=True) as r,
        ):
            comm.Sendrecv(s, dest=dest, recvbuf=r, source=source)


for _ in range(steps):
    exchange(u)
    lap = (
        u[:-2, 1:-1]
        + u[2:, 1:-1]
        + u[1:-1, :-2]
        + u[1:-1, 2:]
        - 4 * u[1:-1, 1:-1]
    )
    u[1:-1, 1:-1] = u[1:-1, 1:-1] + alpha * lap
    if rank == 0:
        u[1] = 0.0  # the grid's edge rows stay cold
    if rank == size - 1:
        u[-2] = 0.0

mine = np.asnumpy(u[1:-1])
blocks = comm.gather(mine, root=0)
if rank == 0:
    got = numpy.concatenate(blocks)
    ref = initial(n)
    for _ in range(steps):
        lap = (
            ref[:-2, 1:-1]
            + ref[2:, 1:-1]
            + ref[1:-1, :-2]
            + ref[1:-1, 2:]
            - 4 * ref[1:-1, 1:-1]
        )
        ref[1:-1, 1:-1] += alpha * lap
    print(
        f"{size} ranks on {u.device.filter_string}: {n}x{n} grid, "
        f"{steps} steps, heat {got.sum():.6g}"
    )
    print(f"max error vs NumPy: {numpy.abs(got - ref).max():.3g}")
