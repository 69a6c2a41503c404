"""Array creation with dpnp's signatures and placement keywords.

Every function takes ``device=`` (a filter string, Device or Queue),
``usm_type=`` ("device", "shared", "host") and ``sycl_queue=``; naming two
different queues with them is a TypeError. Without them arrays go to the
default device's canonical queue, in device memory.
"""

import math
import operator

import numpy as np

from . import _dispatch, _dtypes, _ir, _ops, _trace
from . import _sluice as _ext
from ._array import Array, _from_host, from_dlpack
from ._placement import queue_info, resolve_queue, usm_kind


def _shape_tuple(shape):
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    try:
        shape = tuple(operator.index(d) for d in shape)
    except TypeError:
        raise TypeError("shape must be an int or a sequence of ints") from None
    if any(d < 0 for d in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


def _placement(device, usm_type, sycl_queue, like=None):
    if like is not None and device is None and sycl_queue is None:
        q = like.sycl_queue
    else:
        q = resolve_queue(device, sycl_queue)
    default = like.usm_type if like is not None else "device"
    return q, usm_kind(usm_type, default)


def _check_like(like):
    """dpnp's like=: an array whose queue the result goes to (NumPy's
    array-function protocol object, which sluice arrays are)."""
    if like is None:
        return None
    if not hasattr(like, "sycl_queue"):
        raise TypeError(
            f"like= must be a sluice.Array or None, not {type(like).__name__}"
        )
    return like


def _check_order(shape, order):
    """Arrays are C-ordered; "F" is the same layout for at most one
    dimension larger than 1."""
    if order in ("C", "K", "A", None, "c", "k", "a"):
        return shape
    if order in ("F", "f"):
        if sum(1 for d in shape if d > 1) <= 1:
            return shape
        raise NotImplementedError(
            "sluice arrays are C-ordered: order='F' is not supported"
        )
    raise ValueError(f"order must be one of 'C', 'F', 'A', 'K', not {order!r}")


def _default_dtype(q, kind="f"):
    info = queue_info(q)
    if kind == "f":
        return _dtypes.default_float(info)
    if kind == "b":
        return _dtypes.bool_
    return _dtypes.int64


def _fill_value_dtype(value, q):
    if isinstance(value, bool):
        return _dtypes.bool_
    if isinstance(value, int):
        return _dtypes.int64
    if isinstance(value, float):
        return _default_dtype(q)
    if isinstance(value, complex):
        return _dtypes.fit_device(_dtypes.complex128, queue_info(q))
    if isinstance(value, np.generic):
        return _dtypes.to_dtype(value.dtype)
    raise TypeError(f"fill value must be a scalar, not {type(value).__name__}")


def empty(
    shape,
    dtype=None,
    order="C",
    *,
    like=None,
    device=None,
    usm_type="device",
    sycl_queue=None,
):
    """An uninitialised array."""
    shape = _check_order(_shape_tuple(shape), order)
    q, kind = _placement(device, usm_type, sycl_queue, _check_like(like))
    dt = _dtypes.to_dtype(dtype) if dtype is not None else _default_dtype(q)
    _dtypes.check_supported(dt, queue_info(q))
    tr = _trace.current()
    if tr is not None:
        return full(
            shape, 0, dtype=dt, sycl_queue=q, usm_type=usm_type or "device"
        )
    return _ext.empty(q._id, kind, _dtypes.CODES[dt], list(shape))


def full(
    shape,
    fill_value,
    dtype=None,
    order="C",
    *,
    like=None,
    device=None,
    usm_type=None,
    sycl_queue=None,
):
    """An array with every element ``fill_value``."""
    shape = _check_order(_shape_tuple(shape), order)
    like = _check_like(like)
    if like is not None and device is None and sycl_queue is None:
        sycl_queue = like.sycl_queue
    if isinstance(fill_value, Array):
        if fill_value.size != 1:
            raise ValueError(
                "fill_value must be a scalar or a one-element array"
            )
        if device is None and sycl_queue is None:
            sycl_queue = fill_value.sycl_queue
        fill_value = fill_value._item()
    q, kind = _placement(device, usm_type, sycl_queue)
    dt = (
        _dtypes.to_dtype(dtype)
        if dtype is not None
        else _fill_value_dtype(fill_value, q)
    )
    _dtypes.check_supported(dt, queue_info(q))
    if isinstance(fill_value, np.generic):
        fill_value = fill_value.item()
    if (
        isinstance(fill_value, float)
        and dt.kind in "iu"
        and not math.isfinite(fill_value)
    ):
        if math.isnan(fill_value):  # NumPy's errors
            raise ValueError("cannot convert float NaN to integer")
        raise OverflowError("cannot convert float infinity to integer")
    value = (
        np.asarray(fill_value, dtype=dt)
        if not isinstance(fill_value, float) or dt.kind == "f"
        else np.asarray(fill_value).astype(dt)
    )
    tr = _trace.current()
    if tr is not None:
        return _traced_full(tr, shape, value, dt, q, kind)
    a = _ext.empty(q._id, kind, _dtypes.CODES[dt], list(shape))
    a._fill(value.tobytes())
    return a


def _traced_full(tr, shape, value, dt, q, kind):
    fb = tr.fb
    loc = _trace.user_location()
    t = _ir.ArrayT(dt, shape, q._id, kind)
    if dt.kind == "c":  # a 0-d constant, broadcast
        c = _ir.array_constant(
            fb, np.asarray(value, dtype=dt), q._id, kind, loc
        )
        return _trace.Tracer(_ir.broadcast_to(fb, c, t, loc=loc), tr)
    if dt.kind == "u":
        c = _ir.arith_constant(
            fb,
            value.astype(f"i{dt.itemsize}").item(),
            np.dtype(f"i{dt.itemsize}"),
            loc,
        )
    else:
        c = _ir.arith_constant(fb, value.item(), dt, loc)
    return _trace.Tracer(_ir.full(fb, c, t, loc=loc), tr)


def zeros(
    shape,
    dtype=None,
    order="C",
    *,
    like=None,
    device=None,
    usm_type="device",
    sycl_queue=None,
):
    q, _ = _placement(device, usm_type, sycl_queue, _check_like(like))
    dt = _dtypes.to_dtype(dtype) if dtype is not None else _default_dtype(q)
    return full(shape, 0, dt, order, sycl_queue=q, usm_type=usm_type)


def ones(
    shape,
    dtype=None,
    order="C",
    *,
    like=None,
    device=None,
    usm_type="device",
    sycl_queue=None,
):
    q, _ = _placement(device, usm_type, sycl_queue, _check_like(like))
    dt = _dtypes.to_dtype(dtype) if dtype is not None else _default_dtype(q)
    return full(shape, 1, dt, order, sycl_queue=q, usm_type=usm_type)


def _like(x, dtype, device, usm_type, sycl_queue, shape):
    if not isinstance(x, (Array, _trace.Tracer)):
        raise TypeError("the first argument must be a sluice.Array")
    q, kind = _placement(device, usm_type, sycl_queue, like=x)
    dt = _dtypes.to_dtype(dtype) if dtype is not None else x.dtype
    shape = x.shape if shape is None else _shape_tuple(shape)
    return q, {1: "device", 2: "shared", 3: "host"}[kind], dt, shape


def empty_like(
    x,
    /,
    *,
    dtype=None,
    order="K",
    device=None,
    usm_type=None,
    sycl_queue=None,
    shape=None,
):
    q, u, dt, shape = _like(x, dtype, device, usm_type, sycl_queue, shape)
    return empty(shape, dtype=dt, sycl_queue=q, usm_type=u)


def zeros_like(
    x,
    /,
    *,
    dtype=None,
    order="K",
    device=None,
    usm_type=None,
    sycl_queue=None,
    shape=None,
):
    q, u, dt, shape = _like(x, dtype, device, usm_type, sycl_queue, shape)
    return full(shape, 0, dtype=dt, sycl_queue=q, usm_type=u)


def ones_like(
    x,
    /,
    *,
    dtype=None,
    order="K",
    device=None,
    usm_type=None,
    sycl_queue=None,
    shape=None,
):
    q, u, dt, shape = _like(x, dtype, device, usm_type, sycl_queue, shape)
    return full(shape, 1, dtype=dt, sycl_queue=q, usm_type=u)


def full_like(
    x,
    /,
    fill_value,
    *,
    dtype=None,
    order="K",
    device=None,
    usm_type=None,
    sycl_queue=None,
    shape=None,
):
    q, u, dt, shape = _like(x, dtype, device, usm_type, sycl_queue, shape)
    return full(shape, fill_value, dtype=dt, sycl_queue=q, usm_type=u)


def _gather_arrays(seq, found):
    """``seq`` (nested lists and tuples) with each sluice.Array in it
    replaced by its values (a copy to the host, as an explicit asarray
    asks), the arrays appended to ``found``."""
    out = []
    for v in seq:
        if isinstance(v, Array):
            found.append(v)
            from ._array import asnumpy

            v = asnumpy(v)
        elif isinstance(v, (list, tuple)):
            v = _gather_arrays(v, found)
        out.append(v)
    return out


def asarray(
    a,
    dtype=None,
    *,
    device=None,
    usm_type=None,
    sycl_queue=None,
    copy=None,
    order="C",
):
    """An array of ``a``: a sluice.Array (moved or converted only when
    asked), NumPy data, nested sequences or scalars (copied to the
    device), or a DLPack producer."""
    if isinstance(a, _trace.Tracer):
        r = a
        if device is not None or sycl_queue is not None:
            r = _ops.to_device(r, resolve_queue(device, sycl_queue))
        return _ops.astype(r, dtype, copy=False) if dtype is not None else r
    if isinstance(a, Array):
        q = (
            a.sycl_queue
            if device is None and sycl_queue is None
            else resolve_queue(device, sycl_queue)
        )
        kind = usm_kind(usm_type, a.usm_type)
        dt = _dtypes.to_dtype(dtype) if dtype is not None else a.dtype
        same = q._id == a._queue_id and kind == a._usm_kind
        if copy is False and (not same or dt != a.dtype):
            raise ValueError("asarray(copy=False) would need a copy")
        r = a
        if not same:
            r = a._contiguous(q._id, kind, True)
        if dt != r.dtype:
            r = _ops.astype(r, dt)
        elif copy and r is a:
            r = a.copy()
        return r
    if not isinstance(
        a, (np.ndarray, np.generic, list, tuple, bool, int, float)
    ) and hasattr(a, "__sycl_usm_array_interface__"):
        # A USM object of another library (or sluice.memory): its memory,
        # without a copy, unless a device, kind or dtype asks for one.
        from .memory import from_usm_interface

        return asarray(
            from_usm_interface(a),
            dtype,
            device=device,
            usm_type=usm_type,
            sycl_queue=sycl_queue,
            copy=copy,
        )
    if not isinstance(
        a, (np.ndarray, np.generic, list, tuple, bool, int, float)
    ) and hasattr(a, "__dlpack__"):
        # Another library's array (PyTorch, CuPy, ...): used where it is,
        # without a copy, unless a device, kind or dtype asks for one.
        return asarray(
            from_dlpack(a),
            dtype,
            device=device,
            usm_type=usm_type,
            sycl_queue=sycl_queue,
            copy=copy,
        )
    if copy is False:
        raise ValueError("asarray(copy=False) of host data would need a copy")
    if isinstance(a, (list, tuple)):
        # Sequences holding sluice arrays (dpctl's asarray takes them): their
        # values, on their device unless one is asked for.
        found = []
        a = _gather_arrays(a, found)
        if found and device is None and sycl_queue is None:
            sycl_queue = found[0].sycl_queue
            usm_type = usm_type or found[0].usm_type
    q = resolve_queue(device, sycl_queue)
    kind = usm_kind(usm_type)
    if dtype is not None:
        dt = _dtypes.to_dtype(dtype)
        host = np.asarray(a, dtype=dt)
    else:
        host = np.asarray(a)
        if (
            host.dtype.kind == "f"
            and host.dtype.itemsize == 8
            and not isinstance(a, (np.ndarray, np.generic))
        ):
            host = host.astype(_default_dtype(q), copy=False)
        elif (
            host.dtype.kind == "c"
            and host.dtype.itemsize == 16
            and not isinstance(a, (np.ndarray, np.generic))
        ):
            host = host.astype(
                _dtypes.fit_device(_dtypes.complex128, queue_info(q)),
                copy=False,
            )
        elif host.dtype.kind in "OUSV":
            raise TypeError(f"sluice arrays cannot hold {host.dtype} data")
    return _from_host(host, q._id, kind)


def array(
    a,
    dtype=None,
    *,
    copy=True,
    order="C",
    ndmin=0,
    device=None,
    usm_type=None,
    sycl_queue=None,
):
    r = asarray(
        a,
        dtype,
        device=device,
        usm_type=usm_type,
        sycl_queue=sycl_queue,
        copy=copy if copy else None,
    )
    if ndmin > r.ndim:
        r = _ops.reshape(r, (1,) * (ndmin - r.ndim) + tuple(r.shape))
    return r


def copy(a, order="C"):
    return _ops.copy(a)


def _arange_length(start, stop, step):
    if step == 0:
        raise ZeroDivisionError("arange: step must not be zero")
    n = math.ceil((stop - start) / step)
    return max(int(n), 0)


def arange(
    start,
    /,
    stop=None,
    step=1,
    *,
    dtype=None,
    device=None,
    usm_type="device",
    sycl_queue=None,
):
    """Evenly spaced values ``start, start + step, ...`` below ``stop``."""
    if stop is None:
        start, stop = 0, start
    for v in (start, stop, step):
        if (
            not isinstance(v, (int, float, np.integer, np.floating))
            or isinstance(v, bool)
            and False
        ):
            raise TypeError("arange takes numbers")
    q, kind = _placement(device, usm_type, sycl_queue)
    if dtype is None:
        dt = np.result_type(*(np.asarray(v) for v in (start, stop, step)))
        dt = (
            _default_dtype(q, "f")
            if dt.kind == "f"
            else (_dtypes.int64 if dt.kind in "iub" else dt)
        )
    else:
        dt = _dtypes.to_dtype(dtype)
        if dt.kind == "c":
            raise TypeError("arange is real-only (no complex dtype)")
    _dtypes.check_supported(dt, queue_info(q))
    n = _arange_length(start, stop, step)
    # NumPy computes start and start + step in the dtype, then steps by
    # their difference.
    first = np.asarray(start).astype(dt)
    delta = (
        (np.asarray(start + step).astype(dt) - first).astype(dt)
        if n > 1
        else np.asarray(step).astype(dt)
    )
    return _arange(n, first, delta, dt, q, kind)


def _arange(n, first, delta, dt, q, kind):
    tr = _trace.current()
    if tr is not None:
        fb = tr.fb
        loc = _trace.user_location()
        sdt = np.dtype(f"i{dt.itemsize}") if dt.kind == "u" else dt
        s = _ir.arith_constant(fb, first.astype(sdt).item(), sdt, loc)
        t = _ir.arith_constant(fb, delta.astype(sdt).item(), sdt, loc)
        rt = _ir.ArrayT(dt, (n,), q._id, kind)
        return _trace.Tracer(_ir.arange(fb, s, t, rt, loc=loc), tr)
    ops = [
        _dispatch._Operand(first.item(), "S", dt),
        _dispatch._Operand(delta.item(), "S", dt),
        _dispatch._Operand(int(n), "S", _dtypes.int64),
    ]

    def emit(fb, vals):
        size = _ir.index_from(fb, vals[2])
        rt = _ir.ArrayT(dt, (None,), q._id, kind)
        return [_ir.arange(fb, vals[0], vals[1], rt, size=size)]

    return _dispatch._execute(
        ("arange", dt), ops, [dt, dt, _dtypes.int64], emit, [(n,)], q._id, kind
    )[0]


def linspace(
    start,
    stop,
    /,
    num=50,
    *,
    dtype=None,
    device=None,
    usm_type="device",
    sycl_queue=None,
    endpoint=True,
    retstep=False,
):
    """``num`` evenly spaced values from ``start`` to ``stop``."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    q, kind = _placement(device, usm_type, sycl_queue)
    ft = _default_dtype(q, "f")
    dt = _dtypes.to_dtype(dtype) if dtype is not None else ft
    _dtypes.check_supported(dt, queue_info(q))
    div = (num - 1) if endpoint else num
    delta = float(stop) - float(start)
    step = delta / div if div > 0 else float("nan")
    u = usm_type or "device"
    i = arange(num, dtype=ft, sycl_queue=q, usm_type=u)
    if div > 0:
        y = _ops.add(_ops.multiply(i, step), float(start))
    else:
        y = _ops.add(_ops.multiply(i, delta), float(start))
    if endpoint and num > 1:
        y = _ops.where(_ops.equal(i, float(num - 1)), float(stop), y)
    if dt.kind in "iu":
        y = _ops.floor_divide(y, 1.0)
    y = _ops.astype(y, dt, copy=False)
    return (y, step) if retstep else y


def eye(
    N,
    M=None,
    k=0,
    *,
    dtype=None,
    device=None,
    usm_type="device",
    sycl_queue=None,
):
    M = N if M is None else M
    q, kind = _placement(device, usm_type, sycl_queue)
    dt = _dtypes.to_dtype(dtype) if dtype is not None else _default_dtype(q)
    r = arange(N, dtype=_dtypes.int64, sycl_queue=q, usm_type=usm_type)
    c = arange(M, dtype=_dtypes.int64, sycl_queue=q, usm_type=usm_type)
    # A diagonal past every column is empty (any k, beyond int64 too).
    k = int(k)
    if not -N < k < M:
        k = M
    m = _ops.equal(_ops.reshape(r, (N, 1)), _ops.subtract(c, k))
    return _ops.astype(m, dt, copy=False)


def identity(
    n, *, dtype=None, device=None, usm_type="device", sycl_queue=None
):
    return eye(
        n, dtype=dtype, device=device, usm_type=usm_type, sycl_queue=sycl_queue
    )
