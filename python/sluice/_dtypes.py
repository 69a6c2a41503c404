"""Element types: NumPy dtypes, the extension's codes and MLIR names."""

import numpy as np

from . import _sluice as _ext

# Index = the extension's dtype code: SluiceDType, whose one list
# (sluice-c/DType.h) gives the extension these names.
DTYPES = tuple(np.dtype(name) for name in _ext.dtype_names)
CODES = {dt: i for i, dt in enumerate(DTYPES)}
MLIR_NAMES = (
    "i1",
    "i8",
    "i16",
    "i32",
    "i64",
    "ui8",
    "ui16",
    "ui32",
    "ui64",
    "f16",
    "f32",
    "f64",
    "complex<f32>",
    "complex<f64>",
)
# Signless integer names (arith works on these).
SIGNLESS = (
    "i1",
    "i8",
    "i16",
    "i32",
    "i64",
    "i8",
    "i16",
    "i32",
    "i64",
    "f16",
    "f32",
    "f64",
    "complex<f32>",
    "complex<f64>",
)

bool_ = DTYPES[0]
int8, int16, int32, int64 = DTYPES[1:5]
uint8, uint16, uint32, uint64 = DTYPES[5:9]
float16, float32, float64 = DTYPES[9:12]
complex64, complex128 = DTYPES[12:14]


def to_dtype(dtype):
    """The NumPy dtype for ``dtype`` (a dtype, a type, a string), or a
    TypeError for types sluice has no arrays of."""
    try:
        dt = np.dtype(dtype)
    except TypeError as e:
        raise TypeError(f"data type {dtype!r} not understood") from e
    if dt not in CODES:
        raise TypeError(
            f"sluice arrays have no data type {dt} "
            f"(supported: {', '.join(str(d) for d in DTYPES)})"
        )
    return dt


def code(dtype):
    return CODES[to_dtype(dtype)]


def mlir(dtype):
    return MLIR_NAMES[CODES[dtype]]


def is_float(dt):
    return dt.kind == "f"


def is_complex(dt):
    return dt.kind == "c"


def is_int(dt):
    return dt.kind in "iu"


def is_unsigned(dt):
    return dt.kind == "u"


def is_bool(dt):
    return dt.kind == "b"


def default_float(device_info):
    return float64 if device_info["has_fp64"] else float32


def check_supported(dt, device_info, what="arrays"):
    """dpctl's rule: no float16 / float64 data on devices without the
    aspect."""
    if dt == float16 and not device_info["has_fp16"]:
        raise ValueError(
            f"device {device_info['filter_string']} does not support "
            f"float16 {what}"
        )
    if dt in (float64, complex128) and not device_info["has_fp64"]:
        raise ValueError(
            f"device {device_info['filter_string']} does not support "
            f"{dt} {what}"
        )


def fit_device(dt, device_info):
    """A floating-point result type the device supports: float16 and
    float64 results of non-float inputs become float32 where the device
    lacks them (as dpctl does)."""
    if dt == float16 and not device_info["has_fp16"]:
        return float32
    if dt == float64 and not device_info["has_fp64"]:
        return float32
    if dt == complex128 and not device_info["has_fp64"]:
        return complex64
    return dt


def check_int_range(value, dt):
    """NumPy 2's rule for Python integers meeting an integer array: out of
    range is an OverflowError."""
    info = np.iinfo(dt)
    if not info.min <= value <= info.max:
        raise OverflowError(f"Python integer {value} out of bounds for {dt}")
