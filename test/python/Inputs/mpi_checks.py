"""Checks of sluice with MPI, run on every rank under mpirun by
test_mpi.py:

    mpirun -n 4 python mpi_checks.py DEVICE

Each check prints ``CHECK <name> ok`` on rank 0 when every rank passed it;
a failure prints ``FAIL <name>`` with the traceback and the run exits 1.
"""

import pickle
import sys
import threading
import time
import traceback

import numpy as np
from mpi4py import MPI

import sluice
import sluice.distributed as sd

DEVICE = sys.argv[1]
comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
failed = []
CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


def run():
    for fn in CHECKS:
        try:
            fn()
            ok = True
        except Exception:
            ok = False
            print(
                f"FAIL {fn.__name__} on rank {rank}:\n"
                f"{traceback.format_exc()}",
                flush=True,
            )
        every = comm.allreduce(ok, op=MPI.LAND)
        if rank == 0:
            print(
                f"CHECK {fn.__name__} {'ok' if every else 'failed'}",
                flush=True,
            )
        if not every:
            failed.append(fn.__name__)


def raises(exc, fn, *args, match=None):
    try:
        fn(*args)
    except exc as e:
        if match is not None and match not in str(e):
            raise AssertionError(
                f"message {str(e)!r} lacks {match!r}"
            ) from None
        return e
    raise AssertionError(f"{fn} did not raise {exc.__name__}")


def host_reachable(usm):
    x = sluice.empty(1, usm_type=usm, device=DEVICE)
    return sd.passable(x)


# --- layer 1: sluice arrays with mpi4py ------------------------------------
@check
def send_recv_as_is():
    for usm in ("device", "shared", "host"):
        x = sluice.arange(
            10, dtype=sluice.float32, device=DEVICE, usm_type=usm
        ) * (rank + 1)
        if not sd.passable(x):
            continue
        y = sluice.zeros(10, dtype=sluice.float32, device=DEVICE, usm_type=usm)
        comm.Sendrecv(
            x, dest=(rank + 1) % size, recvbuf=y, source=(rank - 1) % size
        )
        src = (rank - 1) % size
        np.testing.assert_array_equal(
            sluice.asnumpy(y), np.arange(10) * (src + 1)
        )
        assert y.sycl_queue == x.sycl_queue


@check
def allreduce_as_is():
    x = sluice.full(
        5, rank + 1, dtype=sluice.int64, device=DEVICE, usm_type="shared"
    )
    y = sluice.empty_like(x)
    comm.Allreduce(x, y, op=MPI.SUM)
    assert sluice.asnumpy(y).tolist() == [size * (size + 1) // 2] * 5


@check
def device_memory_needs_staging():
    x = sluice.ones(4, device=DEVICE)
    if sd.passable(x):  # the host device: device USM is host memory
        assert x.device.filter_string.startswith("host") or sd.device_aware()
        return
    e = raises(BufferError, sd.buffer, x)
    assert "staged" in str(e)
    if x.device.backend.name == "cuda":
        # mpi4py takes CUDA memory through DLPack (kDLCUDA) as it takes
        # CuPy's and hands the pointer to MPI, which must then be
        # CUDA-aware (docs/distributed.md): nothing to refuse here.
        return
    # mpi4py itself refuses it, and the message names the way out.
    raises(
        BufferError,
        comm.Allreduce,
        x,
        sluice.empty_like(x),
        match="sluice.distributed.staged",
    )


@check
def staged_send_recv():
    x = sluice.arange(6, dtype=sluice.float64, device=DEVICE) + rank
    y = sluice.zeros(6, dtype=sluice.float64, device=DEVICE)
    with sd.staged(x) as s, sd.staged(y, read=False, write=True) as r:
        assert sd.passable(s) and sd.passable(r)
        assert (s is x) == sd.passable(x)
        comm.Sendrecv(
            s, dest=(rank + 1) % size, recvbuf=r, source=(rank - 1) % size
        )
    np.testing.assert_array_equal(
        sluice.asnumpy(y), np.arange(6) + (rank - 1) % size
    )


@check
def send_waits_for_the_producer():
    # Rank 0 holds its queue, submits the work that makes x and sends x
    # while the work cannot have run: the send must wait for it.
    n = 1000
    if rank == 0:
        usm = "shared" if host_reachable("shared") else "device"
        a = sluice.arange(n, dtype=sluice.float32, device=DEVICE, usm_type=usm)
        a.sycl_queue.wait()
        gate = sluice._sluice.debug_block_queue(a.sycl_queue._id)
        x = a * 2 + 1
        timer = threading.Timer(0.3, gate.release)
        timer.start()
        t = time.perf_counter()
        with sd.staged(x) as s:
            comm.Send(s, dest=1, tag=7)
        assert time.perf_counter() - t > 0.2
        timer.join()
    elif rank == 1:
        got = np.empty(n, dtype=np.float32)
        comm.Recv(got, source=0, tag=7)
        np.testing.assert_array_equal(got, np.arange(n) * 2 + 1)


@check
def pickled_send():
    x = sluice.arange(4.0, device=DEVICE, usm_type="shared") + rank
    y = comm.sendrecv(x, dest=(rank + 1) % size, source=(rank - 1) % size)
    assert isinstance(y, sluice.Array)
    assert y.device.filter_string == x.device.filter_string
    assert y.usm_type == "shared"
    np.testing.assert_array_equal(
        sluice.asnumpy(y), np.arange(4.0) + (rank - 1) % size
    )
    d = sd.zeros(8, device=DEVICE)
    raises(TypeError, pickle.dumps, d)


# --- layer 2: distributed arrays ---------------------------------------------
def agree(x, ref, **kw):
    np.testing.assert_allclose(sd.asnumpy(x), ref, **kw)


@check
def layouts():
    assert sd.balanced(10, 4) == ((0, 3), (3, 6), (6, 8), (8, 10))
    assert sd.balanced(2, 4) == ((0, 1), (1, 2), (2, 2), (2, 2))
    x = sd.zeros((7, 3), device=DEVICE)
    assert x.shape == (7, 3) and x.split == 0
    assert x.local.shape == x.layout.local_shape()
    assert x.device.filter_string == sluice.Device(DEVICE).filter_string
    raises(ValueError, sd.Layout, comm, (4,), 0, ((0, 1),) * size)


@check
def elementwise_and_creation():
    ref = np.arange(23, dtype=np.float32)
    x = sd.arange(23, dtype=sluice.float32, device=DEVICE)
    agree(x, ref)
    h = sd.asarray(ref, device=DEVICE)
    agree(
        sd.sqrt(x * h + 1) - 2 / (x + 1),
        np.sqrt(ref * ref + 1) - 2 / (ref + 1),
        rtol=1e-6,
    )
    agree(sd.where(x > 5, x, -x), np.where(ref > 5, ref, -ref))
    agree(3 - x, 3 - ref)
    # Broadcasting with replicated arrays and host data.
    m = sd.asarray(np.arange(12.0).reshape(4, 3), device=DEVICE)
    row = np.array([1.0, 2.0, 3.0])
    agree(m * row, np.arange(12.0).reshape(4, 3) * row)
    col = sd.asarray(np.arange(4.0).reshape(4, 1), split=None, device=DEVICE)
    agree(m + col, np.arange(12.0).reshape(4, 3) + np.arange(4.0)[:, None])
    # More ranks than rows: empty blocks.
    t = sd.asarray(np.array([1.0, 2.0]), device=DEVICE)
    agree(t * 2, [2.0, 4.0])


@check
def reductions():
    ref = np.arange(1, 31, dtype=np.float64).reshape(5, 6) / 7
    x = sd.asarray(ref, device=DEVICE)
    assert abs(float(x.sum()) - ref.sum()) < 1e-9
    agree(x.sum(axis=0), ref.sum(axis=0))
    s1 = x.sum(axis=1)
    assert s1.split == 0 and s1.bounds == x.bounds
    agree(s1, ref.sum(axis=1))
    agree(x.max(axis=0, keepdims=True), ref.max(axis=0, keepdims=True))
    assert float(x.min()) == ref.min() and float(x.max()) == ref.max()
    assert abs(float(x.mean()) - ref.mean()) < 1e-12
    assert abs(float(sd.prod(x[:2, :2])) - ref[:2, :2].prod()) < 1e-12
    assert bool((x > 0).all()) and not bool((x > 5).any())
    assert bool((x > 4).any())
    # Empty blocks (2 rows over more ranks): max/min still right.
    t = sd.asarray(np.array([[-3, 5], [2, -7]], dtype=np.int32), device=DEVICE)
    assert int(t.max()) == 5 and int(t.min()) == -7
    assert int(t.sum()) == -3
    e = sd.zeros((0,), device=DEVICE)
    raises(ValueError, e.max)


@check
def slicing_and_stencil():
    ref = np.arange(90.0).reshape(10, 9)
    u = sd.asarray(ref, device=DEVICE)
    agree(u[2:7], ref[2:7])
    agree(u[-3:, ::2], ref[-3:, ::2])
    agree(u[4], ref[4])
    agree(u[:, 3], ref[:, 3])
    lap = (
        u[:-2, 1:-1]
        + u[2:, 1:-1]
        + u[1:-1, :-2]
        + u[1:-1, 2:]
        - 4 * u[1:-1, 1:-1]
    )
    rl = (
        ref[:-2, 1:-1]
        + ref[2:, 1:-1]
        + ref[1:-1, :-2]
        + ref[1:-1, 2:]
        - 4 * ref[1:-1, 1:-1]
    )
    agree(lap, rl)
    u[1:-1, 1:-1] = u[1:-1, 1:-1] + 0.1 * lap
    ref[1:-1, 1:-1] = ref[1:-1, 1:-1] + 0.1 * rl
    agree(u, ref)
    u[3:5] = 1.5
    ref[3:5] = 1.5
    agree(u, ref)
    u[2:6, 1] = np.arange(4.0)  # host data: each rank its rows
    ref[2:6, 1] = np.arange(4.0)
    u[:, 0] = sd.asarray(
        np.arange(10.0)[::-1].copy(), split=None, device=DEVICE
    )  # a replicated array
    ref[:, 0] = np.arange(10.0)[::-1]
    agree(u, ref)
    raises(NotImplementedError, u.__setitem__, (4, 1), 0.0)
    agree(u[:5] + u[5:], ref[:5] + ref[5:])  # a long shift
    raises(NotImplementedError, u.__getitem__, slice(None, None, 2))


@check
def redistribution():
    ref = np.arange(77.0).reshape(7, 11)
    x = sd.asarray(ref, device=DEVICE)
    y = x.redistribute(split=1)
    assert y.split == 1 and y.local.shape[0] == 7
    agree(y, ref)
    z = y.redistribute(split=None)
    assert z.split is None and z.local.shape == (7, 11)
    np.testing.assert_array_equal(sluice.asnumpy(z.local), ref)
    skew = tuple(sd.balanced(0, size)[:-1]) + ((0, 7),)
    w = z.redistribute(split=0, bounds=skew)
    assert w.bounds == skew
    agree(w, ref)
    agree(w.redistribute(split=0), ref)
    agree(w + x, 2 * ref)  # realigned to w's blocks
    assert (w + x).bounds == skew
    # Blocks of any size stack into one array.
    loc = sluice.full((rank + 1, 2), rank, dtype=sluice.int32, device=DEVICE)
    f = sd.from_local(loc, split=0)
    assert f.shape == (size * (size + 1) // 2, 2)
    agree(
        f,
        np.repeat(np.arange(size), np.arange(1, size + 1))[:, None]
        * np.ones((1, 2)),
    )


@check
def placement_errors():
    x = sd.ones(12, device=DEVICE)
    other = comm.Dup()
    try:
        y = sd.ones(12, device=DEVICE, comm=other)
        e = raises(sluice.ExecutionPlacementError, lambda: x + y)
        assert str(e).startswith(
            "Execution placement can not be unambiguously inferred"
        )
        assert "different communicators" in str(e)
    finally:
        other.Free()
    m = sd.ones((4, 6), device=DEVICE)
    e = raises(
        sluice.ExecutionPlacementError, lambda: m + m.redistribute(split=1)
    )
    assert "incompatible layouts" in str(e) and "redistribute" in str(e)
    # Blocks on different queues of one rank: sluice's own rule.
    q = sluice.Queue(sluice.Device(DEVICE))
    a = sd.ones(8, device=DEVICE)
    b = sd.ones(8, sycl_queue=q)
    raises(sluice.ExecutionPlacementError, lambda: a + b)


@check
def jit_checks_layouts_before_tracing():
    traced = []

    @sd.jit
    def axpy(a, x, y):
        traced.append(1)
        return a * x + y

    ref = np.linspace(0, 1, 19)
    x = sd.asarray(ref, device=DEVICE)
    agree(axpy(2.0, x, x), 3 * ref, rtol=1e-12)
    n = len(traced)
    m = sd.ones((4, 6), device=DEVICE)
    raises(
        sluice.ExecutionPlacementError, axpy, 1.0, m, m.redistribute(split=1)
    )
    assert len(traced) == n  # found before anything was traced

    @sluice.jit  # sluice's own jit takes distributed arrays too
    def blend(a, b):
        traced.append(2)
        return sluice.sqrt(a * a + b * b)

    agree(blend(x, 2 * x), np.sqrt(5) * ref, rtol=1e-12)
    n = len(traced)
    raises(sluice.ExecutionPlacementError, blend, m, m.redistribute(split=1))
    other = comm.Dup()
    try:
        raises(
            sluice.ExecutionPlacementError,
            blend,
            x,
            sd.asarray(ref, device=DEVICE, comm=other),
        )
    finally:
        other.Free()
    assert len(traced) == n
    assert sd.zeros(3, device=DEVICE).dtype == np.float64


@check
def matmul():
    a = sd.asarray(np.arange(12.0).reshape(4, 3), device=DEVICE)
    b = sd.asarray(np.arange(6.0).reshape(3, 2), device=DEVICE)
    if not hasattr(sluice, "matmul"):
        raises(NotImplementedError, lambda: a @ b)
        return
    ref = np.arange(12.0).reshape(4, 3) @ np.arange(6.0).reshape(3, 2)
    agree(a @ b, ref)
    agree(a.redistribute(split=1) @ b, ref)


run()
sys.exit(1 if failed else 0)
