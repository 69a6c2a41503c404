"""Weak and strong scaling of Sluice over MPI ranks: the 2-D heat equation
(halo exchange) and a distributed reduction, from 1 to 4 ranks, with the
share of the time spent communicating.

    python bench/distributed.py [--device host] [--ranks 1,2,4] [--quick]

runs itself under ``mpirun -n R`` for each R and prints one table. Cases:

* heat, ghost rows: examples/python/mpi/heat2d.py's scheme (sluice arrays,
  ghost rows exchanged with mpi4py Sendrecv);
* heat, DArray: the same update on a sluice.distributed array (shifted
  slices realigned by the library);
* heat, NumPy + mpi4py: the hand-written peer (NumPy arrays, Sendrecv);
* sum: ``x.sum()`` of a distributed float64 vector (local sum + Allreduce).

Strong scaling keeps the problem fixed; weak scaling grows it with the
ranks. "comm" is the largest share over the ranks of time spent in MPI
(after waiting for the rank's own queued work, so it is communication
only). On one machine the ranks share its cores: with 2 cores, more than
2 ranks oversubscribe them.
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy

ALPHA = 0.2


def worker(args):
    from mpi4py import MPI

    import sluice
    import sluice.distributed as sd

    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    dev = sluice.Device(args.device)
    q = dev.sycl_queue
    out = []

    def timed(fn, reps):
        fn(1)  # warm-up: compiles, fills pools
        q.wait()
        comm.Barrier()
        t = time.perf_counter()
        c = fn(reps)
        q.wait()
        comm.Barrier()
        total = time.perf_counter() - t
        share = comm.allreduce(c / total if total else 0.0, op=MPI.MAX)
        return comm.allreduce(total, op=MPI.MAX) / reps, share

    def heat_ghost(n, cols, steps):
        lo, hi = sd.balanced(n, size)[rank]
        u = sluice.zeros((hi - lo + 2, cols), dtype=sluice.float64, device=dev)
        u[1:-1, cols // 4 : cols // 2] = 1.0
        up = rank - 1 if rank else MPI.PROC_NULL
        down = rank + 1 if rank < size - 1 else MPI.PROC_NULL

        def run(reps):
            comm_s = 0.0
            for _ in range(reps):
                q.wait()
                t = time.perf_counter()
                for s_row, dest, r_row, src in (
                    (1, up, -1, down),
                    (-2, down, 0, up),
                ):
                    with (
                        sd.staged(u[s_row]) as s,
                        sd.staged(u[r_row], read=False, write=True) as r,
                    ):
                        comm.Sendrecv(s, dest=dest, recvbuf=r, source=src)
                comm_s += time.perf_counter() - t
                lap = (
                    u[:-2, 1:-1]
                    + u[2:, 1:-1]
                    + u[1:-1, :-2]
                    + u[1:-1, 2:]
                    - 4 * u[1:-1, 1:-1]
                )
                u[1:-1, 1:-1] = u[1:-1, 1:-1] + ALPHA * lap
            return comm_s

        return timed(run, steps)

    def heat_darray(n, cols, steps):
        u = sd.zeros((n, cols), dtype=sluice.float64, device=dev)
        u[:, cols // 4 : cols // 2] = 1.0

        def run(reps):
            sd.reset_stats(sync=q)
            for _ in range(reps):
                lap = (
                    u[1:-1, :-2]
                    + u[1:-1, 2:]
                    + u[:-2, 1:-1]
                    + u[2:, 1:-1]
                    - 4 * u[1:-1, 1:-1]
                )
                u[1:-1, 1:-1] = u[1:-1, 1:-1] + ALPHA * lap
            s = sd.stats["seconds"]
            sd.reset_stats()
            return s

        return timed(run, steps)

    def heat_numpy(n, cols, steps):
        lo, hi = sd.balanced(n, size)[rank]
        u = numpy.zeros((hi - lo + 2, cols))
        u[1:-1, cols // 4 : cols // 2] = 1.0
        up = rank - 1 if rank else MPI.PROC_NULL
        down = rank + 1 if rank < size - 1 else MPI.PROC_NULL

        def run(reps):
            comm_s = 0.0
            for _ in range(reps):
                t = time.perf_counter()
                comm.Sendrecv(u[1], dest=up, recvbuf=u[-1], source=down)
                comm.Sendrecv(u[-2], dest=down, recvbuf=u[0], source=up)
                comm_s += time.perf_counter() - t
                lap = (
                    u[:-2, 1:-1]
                    + u[2:, 1:-1]
                    + u[1:-1, :-2]
                    + u[1:-1, 2:]
                    - 4 * u[1:-1, 1:-1]
                )
                u[1:-1, 1:-1] += ALPHA * lap
            return comm_s

        return timed(run, steps)

    def reduction(n, reps):
        x = sd.arange(n, dtype=sluice.float64, device=dev)

        def run(r):
            sd.reset_stats(sync=q)
            for _ in range(r):
                float(x.sum())
            s = sd.stats["seconds"]
            sd.reset_stats()
            return s

        return timed(run, reps)

    a = args
    heat_cases = (
        ("heat, ghost rows (sluice + mpi4py)", heat_ghost),
        ("heat, DArray (sluice.distributed)", heat_darray),
        ("heat, NumPy + mpi4py (peer)", heat_numpy),
    )
    for label, fn in heat_cases:
        t, c = fn(a.heat_n, a.heat_n, a.steps)
        out.append(
            dict(
                case=label,
                scaling="strong",
                size=f"{a.heat_n}x{a.heat_n}",
                t=t,
                comm=c,
                cells=a.heat_n * a.heat_n,
            )
        )
        rows = a.heat_rows * size
        t, c = fn(rows, a.heat_n, a.steps)
        out.append(
            dict(
                case=label,
                scaling="weak",
                size=f"{rows}x{a.heat_n}",
                t=t,
                comm=c,
                cells=rows * a.heat_n,
            )
        )
    t, c = reduction(a.sum_n, a.reps)
    out.append(
        dict(
            case="sum (sluice.distributed)",
            scaling="strong",
            size=f"{a.sum_n}",
            t=t,
            comm=c,
            cells=a.sum_n,
        )
    )
    t, c = reduction(a.sum_per_rank * size, a.reps)
    out.append(
        dict(
            case="sum (sluice.distributed)",
            scaling="weak",
            size=f"{a.sum_per_rank * size}",
            t=t,
            comm=c,
            cells=a.sum_per_rank * size,
        )
    )
    if rank == 0:
        for r in out:
            r["ranks"] = size
            print("RESULT " + json.dumps(r), flush=True)


def driver(args):
    env = dict(os.environ)
    if os.geteuid() == 0:
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    env.setdefault("OMPI_MCA_btl_vader_single_copy_mechanism", "none")
    results = []
    for r in [int(v) for v in args.ranks.split(",")]:
        cmd = [
            "mpirun",
            "-n",
            str(r),
            "--oversubscribe",
            "--bind-to",
            "none",
            sys.executable,
            os.path.abspath(__file__),
            "--worker",
        ] + [a for a in sys.argv[1:] if a != "--worker"]
        p = subprocess.run(
            cmd, capture_output=True, text=True, env=env, timeout=1800
        )
        if p.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed:\n{p.stdout}\n{p.stderr}")
        results += [
            json.loads(line[7:])
            for line in p.stdout.splitlines()
            if line.startswith("RESULT ")
        ]
    print(
        f"device {args.device}, {os.cpu_count()} CPU cores, "
        f"{args.steps} heat steps, float64; time per step (heat) or per "
        "sum; speedup vs 1 rank (strong), efficiency t1/tR (weak); comm: "
        "largest share of time in MPI over the ranks"
    )
    print(
        f"{'case':38} {'scaling':7} {'size':>12} {'ranks':>5} "
        f"{'ms':>9} {'Mcell/s':>8} {'speedup/eff':>11} {'comm':>6}"
    )
    base = {}
    for r in results:
        key = (r["case"], r["scaling"])
        if r["ranks"] == 1:
            base[key] = r["t"]
        rel = base.get(key, float("nan")) / r["t"]
        print(
            f"{r['case']:38} {r['scaling']:7} {r['size']:>12} "
            f"{r['ranks']:>5} {r['t'] * 1e3:9.3f} "
            f"{r['cells'] / r['t'] / 1e6:8.1f} {rel:11.2f} "
            f"{r['comm'] * 100:5.1f}%"
        )


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="host")
    p.add_argument("--ranks", default="1,2,4")
    p.add_argument(
        "--quick", action="store_true", help="small sizes (a smoke run)"
    )
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.quick:
        args.heat_n, args.heat_rows, args.steps = 128, 64, 3
        args.sum_n, args.sum_per_rank, args.reps = 1 << 16, 1 << 15, 3
    else:
        args.heat_n, args.heat_rows, args.steps = 2048, 1024, 20
        args.sum_n, args.sum_per_rank, args.reps = 1 << 24, 1 << 23, 10
    (worker if args.worker else driver)(args)


if __name__ == "__main__":
    main()
