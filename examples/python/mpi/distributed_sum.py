"""A distributed sum with mpi4py: each rank sums its part of 1..N on its
device, and MPI adds the partial sums. Sluice arrays go to mpi4py as they
are where the host can reach their memory; device memory is staged through
host memory by sluice.distributed.staged (a visible copy).

    mpirun -n 4 python examples/python/mpi/distributed_sum.py [DEVICE] [N]
"""

import sys

from mpi4py import MPI

import sluice as np  # in place of `import dpnp as np`
import sluice.distributed as sd

device = sys.argv[1] if len(sys.argv) > 1 else None
n = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000_000
comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()

# This rank's block of 1..n, made on its device.
lo, hi = sd.balanced(n, size)[rank]
x = np.arange(lo + 1, hi + 1, dtype=np.float64, device=device)
part = np.sum(x, keepdims=True)  # runs on x's queue, asynchronously

# Allreduce reads `part` after the work that produces it (queue order).
total = np.empty_like(part)
with sd.staged(part) as send, sd.staged(total, read=False, write=True) as recv:
    comm.Allreduce(send, recv, op=MPI.SUM)
    staged = send is not part

if rank == 0:
    exact = n * (n + 1) / 2
    print(
        f"{size} ranks on {x.device.filter_string}: sum(1..{n}) = "
        f"{float(total[0]):.1f} (exact {exact:.1f}); staged through host "
        f"memory: {staged}"
    )
    print("correct:", float(total[0]) == exact)
