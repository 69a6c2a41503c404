"""Moving blocks between ranks: every change of layout (realignment for a
stencil, redistribution, replication) is one exchange of boxes, each from
the rank that holds it to the rank that needs it, by point-to-point MPI
messages (device memory staged through USM host memory)."""

import sluice

from ._mpi import passable, recv_buffer, to_host_buffer


def _region(layout, rank):
    """The box of the global array rank ``rank`` holds: ``(lo, hi)`` per
    axis."""
    box = [(0, n) for n in layout.shape]
    if layout.split is not None:
        box[layout.split] = layout.bounds[rank]
    return box


def _intersect(a, b):
    out = []
    for (alo, ahi), (blo, bhi) in zip(a, b):
        lo, hi = max(alo, blo), min(ahi, bhi)
        if hi <= lo:
            return None
        out.append((lo, hi))
    return out


def _key(box, origin):
    return tuple(
        slice(lo - o[0], hi - o[0]) for (lo, hi), o in zip(box, origin)
    )


def move(local, old, new, stats=None):
    """The block this rank holds in layout ``new`` of the array whose block
    in layout ``old`` is ``local`` (same global shape and communicator), as
    a new array on ``local``'s queue."""
    comm = old.comm
    me, size = comm.Get_rank(), comm.Get_size()
    mine_old = _region(old, me)
    mine_new = _region(new, me)
    out = sluice.empty(
        new.local_shape(me),
        dtype=local.dtype,
        usm_type=local.usm_type,
        sycl_queue=local.sycl_queue,
    )
    reqs, keep, copies = [], [], []
    tag = 0x5C
    # Receives first, then sends, so no rank waits on a send.
    for src in range(size):
        box = _intersect(_region(old, src), mine_new)
        if box is None:
            continue
        dst = out[_key(box, mine_new)]
        if src == me:
            dst[...] = local[_key(box, mine_old)]
            continue
        buf = (
            dst
            if (dst._c_contiguous and passable(dst))
            else recv_buffer(dst.shape, dst.dtype, dst.sycl_queue, "host")
        )
        reqs.append(comm.Irecv(buf, source=src, tag=tag))
        keep.append(buf)
        if buf is not dst:
            copies.append((dst, buf))
    for dest in range(size):
        if dest == me:
            continue
        box = _intersect(mine_old, _region(new, dest))
        if box is None:
            continue
        buf = to_host_buffer(local[_key(box, mine_old)])
        keep.append(buf)
        reqs.append(comm.Isend(buf, dest=dest, tag=tag))
        if stats is not None:
            stats["bytes"] = stats.get("bytes", 0) + buf.nbytes
    if reqs:
        from ._mpi import mpi

        mpi().Request.Waitall(reqs)
    for dst, buf in copies:
        dst[...] = buf
    return out
