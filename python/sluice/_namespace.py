"""The Array API's data-type functions and namespace inspection.

``finfo iinfo result_type can_cast promote_types isdtype issubdtype``,
dpnp's ``default_float_type``, ``__array_api_version__`` and
``__array_namespace_info__()``.
"""

import numpy as np

from . import _dtypes

__array_api_version__ = "2024.12"

__all__ = [
    "finfo",
    "iinfo",
    "result_type",
    "can_cast",
    "promote_types",
    "isdtype",
    "issubdtype",
    "default_float_type",
    "__array_api_version__",
    "__array_namespace_info__",
    "dtype",
]

dtype = np.dtype


def _dtype_of(x):
    d = getattr(x, "dtype", None)
    if d is not None and not isinstance(x, type):
        return np.dtype(d)
    return _dtypes.to_dtype(x)


class finfo_object:
    """Machine limits of a floating-point dtype (the Array API's fields as
    Python numbers, and NumPy's finfo's others)."""

    __module__ = "sluice"

    def __init__(self, dt):
        self._np = np.finfo(dt)
        # A complex dtype's limits are its parts': finfo(complex64).dtype
        # is float32, as in NumPy and the Array API.
        self.dtype = np.dtype(self._np.dtype)
        self.bits = int(self._np.bits)
        self.eps = float(self._np.eps)
        self.max = float(self._np.max)
        self.min = float(self._np.min)
        self.smallest_normal = float(self._np.smallest_normal)
        self.tiny = self.smallest_normal

    def __getattr__(self, name):
        return getattr(self._np, name)

    def __repr__(self):
        return (
            f"finfo(resolution={self._np.resolution}, min={self.min}, "
            f"max={self.max}, dtype={self.dtype})"
        )


class iinfo_object:
    """Machine limits of an integer dtype."""

    __module__ = "sluice"

    def __init__(self, dt):
        n = np.iinfo(dt)
        self.dtype = np.dtype(dt)
        self.bits = int(n.bits)
        self.max = int(n.max)
        self.min = int(n.min)

    def __repr__(self):
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype})"


def finfo(type):
    """Machine limits of a floating-point dtype or array."""
    return finfo_object(_dtype_of(type))


def iinfo(type):
    """Machine limits of an integer dtype or array."""
    return iinfo_object(_dtype_of(type))


def result_type(*arrays_and_dtypes):
    """The dtype of an operation on these arrays, dtypes and Python scalars
    (which are weak, as in NumPy 2)."""
    args = []
    for a in arrays_and_dtypes:
        if isinstance(a, (bool, int, float, complex)):
            args.append(a)
        else:
            args.append(_dtype_of(a))
    if not any(not isinstance(a, (bool, int, float, complex)) for a in args):
        raise ValueError("result_type needs at least one array or dtype")
    return _dtypes.to_dtype(np.result_type(*args))


def can_cast(from_, to, casting="safe"):
    """Whether ``from_`` (a dtype or array) casts to ``to`` under
    ``casting``."""
    return bool(np.can_cast(_dtype_of(from_), _dtypes.to_dtype(to), casting))


def promote_types(type1, type2):
    """The smallest dtype both promote to."""
    return _dtypes.to_dtype(
        np.promote_types(_dtype_of(type1), _dtype_of(type2))
    )


_KINDS = {
    "bool": lambda d: d.kind == "b",
    "signed integer": lambda d: d.kind == "i",
    "unsigned integer": lambda d: d.kind == "u",
    "integral": lambda d: d.kind in "iu",
    "real floating": lambda d: d.kind == "f",
    "complex floating": lambda d: d.kind == "c",
    "numeric": lambda d: d.kind in "iufc",
}


def isdtype(dtype, kind):
    """The Array API's dtype test: ``kind`` is a dtype, a kind name
    ('bool', 'signed integer', 'unsigned integer', 'integral',
    'real floating', 'complex floating', 'numeric') or a tuple of them."""
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if not isinstance(dtype, np.dtype):
        raise TypeError(f"isdtype needs a dtype, not {type(dtype).__name__}")
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"unknown dtype kind {kind!r}")
        return _KINDS[kind](dtype)
    return dtype == np.dtype(kind)


def issubdtype(arg1, arg2):
    """NumPy's issubdtype."""
    return bool(np.issubdtype(arg1, arg2))


def _queue(device=None, sycl_queue=None):
    from ._device import _coerce_device, select_default_device

    if sycl_queue is not None:
        return sycl_queue
    if device is None:
        return select_default_device().sycl_queue
    return _coerce_device(device).sycl_queue


def _has_fp64(q):
    return bool(getattr(q.sycl_device, "has_aspect_fp64", True))


def default_float_type(device=None, sycl_queue=None):
    """float64 where the device computes it, else float32 (dpnp)."""
    q = _queue(device, sycl_queue)
    return _dtypes.float64 if _has_fp64(q) else _dtypes.float32


class _NamespaceInfo:
    """What ``sluice.__array_namespace_info__()`` returns."""

    __module__ = "sluice"

    def capabilities(self):
        return {
            "boolean indexing": False,
            "data-dependent shapes": False,
            "max dimensions": 64,
        }

    def default_device(self):
        from ._device import select_default_device

        return select_default_device()

    def default_dtypes(self, *, device=None):
        return {
            "real floating": default_float_type(device),
            "integral": _dtypes.int64,
            "indexing": _dtypes.int64,
            "complex floating": np.dtype(np.complex128)
            if default_float_type(device) == _dtypes.float64
            else np.dtype(np.complex64),
        }

    def devices(self):
        from ._device import get_devices

        return list(get_devices())

    def dtypes(self, *, device=None, kind=None):
        q = _queue(device)
        fp64 = _has_fp64(q)
        out = {}
        for d in _dtypes.DTYPES:
            if d == _dtypes.float16:
                continue  # not an Array API dtype
            if d == _dtypes.float64 and not fp64:
                continue
            if kind is None or isdtype(d, kind):
                out[d.name] = d
        return out


def __array_namespace_info__():
    """The Array API's inspection namespace (capabilities, default device
    and dtypes, devices, dtypes)."""
    return _NamespaceInfo()
