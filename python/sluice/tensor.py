"""The Array API namespace as dpctl.tensor spells it.

Every array function of ``sluice`` is here under its own name, plus
dpctl.tensor's ``usm_ndarray`` (``sluice.Array``, constructible from a
shape as in dpctl), ``to_numpy``/``asnumpy``, ``from_numpy`` and
``Device``. ``import sluice.tensor as dpt`` ports dpctl.tensor code.
"""

import builtins as _builtins

import sluice as _sluice

from ._array import Array as _Array
from ._array import asnumpy
from .memory import _Memory
from .memory import from_usm_interface as _from_usm_interface

_SKIP = {"tensor", "memory", "utils", "compat", "random"}
globals().update(
    {
        n: getattr(_sluice, n)
        for n in dir(_sluice)
        if not n.startswith("_") and n not in _SKIP
    }
)


class _UsmNdarrayType(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, _Array)

    def __subclasscheck__(cls, sub):
        return issubclass(sub, _Array)


class usm_ndarray(metaclass=_UsmNdarrayType):
    """``usm_ndarray(shape, dtype=None, strides=None, buffer="device",
    offset=0, order="C", buffer_ctor_kwargs=None)``: a new uninitialised
    array of a USM kind (``buffer`` "device", "shared" or "host";
    ``buffer_ctor_kwargs={"queue": q}`` places it), or an array over the
    memory of ``buffer`` (a sluice.memory object or any object with
    ``__sycl_usm_array_interface__``) with the given dtype, ``strides``
    (elements) and ``offset`` (elements). ``isinstance(x, usm_ndarray)``
    holds for every sluice array."""

    def __new__(
        cls,
        shape,
        dtype=None,
        strides=None,
        buffer="device",
        offset=0,
        order="C",
        buffer_ctor_kwargs=None,
        array_namespace=None,
    ):
        import numpy as np

        from . import _dtypes
        from . import _sluice as _ext

        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        if order not in ("C", "F"):
            raise ValueError("order must be 'C' or 'F'")
        if isinstance(buffer, str):
            kw = dict(buffer_ctor_kwargs or {})
            queue = kw.pop("queue", None)
            if kw:
                raise TypeError(
                    "buffer_ctor_kwargs takes only 'queue' ("
                    f"not {', '.join(kw)})"
                )
            if strides is not None or offset:
                raise ValueError("strides and offset need a buffer object")
            x = _sluice.empty(
                shape, dtype=dtype, usm_type=buffer, sycl_queue=queue
            )
            if order == "F" and len(shape) > 1:
                x = _sluice.empty(
                    shape[::-1],
                    dtype=x.dtype,
                    usm_type=buffer,
                    sycl_queue=queue,
                ).T
            return x
        raw = (
            _from_usm_interface(buffer)
            if not isinstance(buffer, _Memory)
            else buffer._bytes
        )
        dt = _dtypes.to_dtype(dtype if dtype is not None else "f8")
        item = np.dtype(dt).itemsize
        if strides is None:
            strides, acc = [], 1
            dims = shape if order == "C" else shape[::-1]
            for d in reversed(dims):
                strides.insert(0, acc)
                acc *= _builtins.max(d, 1)
            if order == "F":
                strides = strides[::-1]
        base = raw._offset * raw.itemsize
        if base % item:
            raise ValueError("the buffer is not aligned to the dtype")
        return _ext.core_reinterpret(
            raw,
            _dtypes.CODES[dt],
            base // item + int(offset),
            list(shape),
            [int(s) for s in strides],
        )


def to_numpy(x):
    """The array's data as a new NumPy array."""
    return asnumpy(x)


def from_numpy(np_ary, /, *, device=None, usm_type="device", sycl_queue=None):
    """A new array with the data of a NumPy array."""
    return _sluice.asarray(
        np_ary, device=device, usm_type=usm_type, sycl_queue=sycl_queue
    )


__all__ = sorted(n for n in globals() if not n.startswith("_"))
