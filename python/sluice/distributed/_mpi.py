"""Sluice arrays and mpi4py: buffers, staging through host memory, the
device of a rank.

mpi4py takes a ``sluice.Array`` as it is wherever the host can reach its
memory (the host device; ``shared`` and ``host`` USM on any device): it
reads the array through DLPack, and ``__dlpack__`` waits for the work that
produces the array, so a send is ordered after it on the array's queue.
Device memory the host cannot reach goes through ``staged``, a visible copy
into USM host memory (pinned) on the array's own queue.
"""

import contextlib
import ctypes
import os

import numpy as np

import sluice

_MPI = None


def mpi():
    """The ``mpi4py.MPI`` module (imported on first use), or ImportError
    saying how to get it."""
    global _MPI
    if _MPI is None:
        try:
            from mpi4py import MPI
        except ImportError as e:
            raise ImportError(
                "sluice.distributed needs mpi4py and an MPI library "
                "(Debian: apt-get install openmpi-bin libopenmpi-dev; then "
                "pip install mpi4py, as scripts/setup.sh does): "
                f"{e}"
            ) from None
        _MPI = MPI
    return _MPI


def world():
    """``MPI.COMM_WORLD``."""
    return mpi().COMM_WORLD


_DEVICE_AWARE = None


def device_aware():
    """Whether the MPI library reads CUDA device memory itself: what Open
    MPI's ``MPIX_Query_cuda_support`` says (Debian's build: no), else False;
    ``SLUICE_MPI_CUDA_AWARE=1`` or ``0`` overrides it."""
    global _DEVICE_AWARE
    if _DEVICE_AWARE is None:
        env = os.environ.get("SLUICE_MPI_CUDA_AWARE")
        if env is not None:
            _DEVICE_AWARE = env.strip() not in ("", "0")
        else:
            mpi()  # loads libmpi
            try:
                f = ctypes.CDLL(None).MPIX_Query_cuda_support
                f.restype = ctypes.c_int
                _DEVICE_AWARE = bool(f())
            except (AttributeError, OSError):  # not an MPI that can say
                _DEVICE_AWARE = False
    return _DEVICE_AWARE


def host_accessible(x):
    """Whether MPI can read and write ``x``'s memory from the host."""
    return bool(x._host_accessible)


def _cuda(x):
    return x.sycl_device.backend == "cuda"


def passable(x):
    """Whether ``x`` (a sluice.Array) can be handed to mpi4py as it is:
    C-contiguous memory the host can reach, or CUDA device memory when the
    MPI library is device-aware."""
    if not x._c_contiguous:
        return False
    return host_accessible(x) or (_cuda(x) and device_aware())


def buffer(x):
    """``x`` when mpi4py can use it as it is (see ``passable``), else a
    BufferError that names ``staged``: Sluice never copies behind the
    caller's back."""
    if not isinstance(x, sluice.Array):
        return x
    if passable(x):
        return x
    why = (
        "is not C-contiguous"
        if not x._c_contiguous
        else f"is device memory of {x.device.filter_string}, which this MPI "
        "library cannot read"
    )
    raise BufferError(
        f"the array {why}: stage it through host memory with "
        "sluice.distributed.staged(x) (a copy), or use usm_type='shared' or "
        "'host'"
    )


@contextlib.contextmanager
def staged(x, *, read=True, write=False):
    """A buffer for MPI with ``x``'s data: ``x`` itself when mpi4py can use
    it as it is, else a copy in USM host memory on ``x``'s queue (made after
    the work that produces ``x``). ``read=False`` skips filling it (a
    receive buffer); ``write=True`` copies it back into ``x`` when the block
    ends (after a receive), in ``x``'s queue order::

        with sluice.distributed.staged(x) as buf:
            comm.Send(buf, dest=1)
        with sluice.distributed.staged(y, read=False, write=True) as buf:
            comm.Recv(buf, source=0)
    """
    if not isinstance(x, sluice.Array):
        raise TypeError(
            f"staged() needs a sluice.Array, not {type(x).__name__}"
        )
    if passable(x):
        yield x
        return
    h = sluice.empty(
        x.shape, dtype=x.dtype, usm_type="host", sycl_queue=x.sycl_queue
    )
    if read:
        h[...] = x
    yield h
    if write:
        x[...] = h


def to_host_buffer(x):
    """A contiguous array MPI can read with ``x``'s data: ``x`` (or a
    contiguous copy on its queue) when the host reaches it, else a copy in
    USM host memory."""
    if not x._c_contiguous:
        x = sluice.copy(x)
    if passable(x):
        return x
    h = sluice.empty(
        x.shape, dtype=x.dtype, usm_type="host", sycl_queue=x.sycl_queue
    )
    h[...] = x
    return h


def recv_buffer(shape, dtype, queue, usm_type):
    """An array MPI can receive into that ends up on ``queue``: of
    ``usm_type`` when the host reaches that kind there, else USM host
    memory (the caller copies it to where it belongs)."""
    a = sluice.empty(shape, dtype=dtype, usm_type=usm_type, sycl_queue=queue)
    if passable(a):
        return a
    return sluice.empty(shape, dtype=dtype, usm_type="host", sycl_queue=queue)


def mpi_op(name):
    MPI = mpi()
    return {
        "sum": MPI.SUM,
        "prod": MPI.PROD,
        "max": MPI.MAX,
        "min": MPI.MIN,
        "all": MPI.LAND,
        "any": MPI.LOR,
    }[name]


def allreduce_array(comm, x, op):
    """The elementwise reduction ``op`` of ``x`` over every rank of
    ``comm``, as a new array on ``x``'s queue."""
    send = to_host_buffer(x)
    recv = recv_buffer(x.shape, x.dtype, x.sycl_queue, x.usm_type)
    if x.dtype == np.bool_:  # MPI's logical ops on bytes
        sv, rv = _as_uint8(send), _as_uint8(recv)
        comm.Allreduce(sv, rv, op=mpi_op(op))
    else:
        comm.Allreduce(send, recv, op=mpi_op(op))
    if recv.usm_type != x.usm_type:
        out = sluice.empty(
            x.shape,
            dtype=x.dtype,
            usm_type=x.usm_type,
            sycl_queue=x.sycl_queue,
        )
        out[...] = recv
        return out
    return recv


def _as_uint8(a):
    # MPI has no bool type mpi4py maps from DLPack: pass the bytes.
    return np.from_dlpack(a).view(np.uint8)
