#!/usr/bin/env python3
"""sluice-arrayio against NumPy: files NumPy writes are read (arrayio-tool
copy/print), files sluice-arrayio writes load in NumPy, input specs give the
arrays NumPy would, and printed arrays parse back.

usage: npy_interop.py ARRAYIO_TOOL
Exits 77 (CTest: skipped) when this Python has no NumPy.
"""

import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("SKIP: no numpy in", sys.executable)
    sys.exit(77)

TOOL = sys.argv[1]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def tool(*args):
    return subprocess.run([TOOL, *args], capture_output=True, text=True)


def same(a, b):
    """Same dtype, shape and values (nan equal to nan, -0.0 to 0.0 not)."""
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    return a.tobytes() == b.tobytes()


def sample(dtype, shape, rng):
    n = int(np.prod(shape, dtype=np.int64))
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return (rng.integers(0, 2, n) == 1).reshape(shape)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        v = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        if n >= 2:
            v[0], v[1] = info.min, info.max
        return v.reshape(shape)
    v = (rng.standard_normal(n) * 1e3).astype(dt)
    special = np.array(
        [
            np.nan,
            np.inf,
            -np.inf,
            -0.0,
            np.finfo(dt).tiny / 4,
            np.finfo(dt).max,
            0.1,
        ],
        dtype=dt,
    )
    k = min(n, special.size)
    v[:k] = special[:k]
    return v.reshape(shape)


DTYPES = [
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
]
SHAPES = [(), (0,), (1,), (7,), (2, 3), (2, 0, 3), (3, 1, 2, 2), (1000,)]

rng = np.random.default_rng(0)
tmp = tempfile.mkdtemp(prefix="arrayio-interop-")

# 1. NumPy writes, sluice-arrayio reads and writes back, NumPy reads.
for dtype in DTYPES:
    for shape in SHAPES:
        a = sample(dtype, shape, rng)
        src, dst = os.path.join(tmp, "in.npy"), os.path.join(tmp, "out.npy")
        np.save(src, a)
        r = tool("copy", src, dst)
        if r.returncode:
            check(False, f"copy {dtype}{shape}: {r.stderr.strip()}")
            continue
        b = np.load(dst)
        check(same(a, b), f"copy {dtype}{shape}: {a!r} became {b!r}")
        # Our header is NumPy's: aligned data, version 1.0.
        with open(dst, "rb") as f:
            version = np.lib.format.read_magic(f)
            np.lib.format.read_array_header_1_0(f)
            check(
                version == (1, 0) and f.tell() % 64 == 0,
                f"header of {dtype}{shape}: version {version}, "
                f"data at {f.tell()}",
            )
        # The printed array parses back to the same array.
        if a.dtype.kind == "f" and np.isnan(a).any():
            a = np.where(np.isnan(a), np.array(np.nan, a.dtype), a)
            np.save(src, a)
            tool("copy", src, dst)
        text = tool("print", dst).stdout.strip()
        r = tool("parse", text, dst)
        check(
            r.returncode == 0 and same(a, np.load(dst)),
            f"print/parse {dtype}{shape}: {text[:200]} {r.stderr.strip()}",
        )

# 2. Format versions 1.0, 2.0, 3.0.
a = np.arange(6, dtype=np.float32).reshape(2, 3)
for version in [(1, 0), (2, 0), (3, 0)]:
    path = os.path.join(tmp, f"v{version[0]}.npy")
    with open(path, "wb") as f:
        np.lib.format.write_array(f, a, version=version)
    r = tool("print", path)
    check(
        r.returncode == 0 and r.stdout.strip() == "2x3xf32=[[0 1 2][3 4 5]]",
        f"version {version}: {r.stdout.strip()} {r.stderr.strip()}",
    )

# 3. Big-endian files are converted.
for dtype in [">i2", ">u4", ">i8", ">f2", ">f4", ">f8"]:
    a = sample(dtype[1:], (5,), rng).astype(dtype)
    src, dst = os.path.join(tmp, "be.npy"), os.path.join(tmp, "le.npy")
    np.save(src, a)
    r = tool("copy", src, dst)
    b = np.load(dst) if r.returncode == 0 else None
    check(
        b is not None
        and b.dtype == a.dtype.newbyteorder("<")
        and same(a.astype(b.dtype), b),
        f"big-endian {dtype}: {r.stderr.strip()}",
    )

# 4. What sluice-arrayio refuses, with a message that says why.
refused = {
    "fortran": (
        np.asfortranarray(np.ones((2, 3), np.float32)),
        "Fortran-order arrays",
    ),
    "complex256": (np.ones(3, np.clongdouble), "unsupported dtype '<c32'"),
    "unicode": (np.array(["ab"]), "unsupported dtype '<U2'"),
    "datetime": (
        np.array(["2024-01-01"], "datetime64[D]"),
        "unsupported dtype '<M8[D]'",
    ),
    "structured": (np.zeros(2, [("x", "<f4")]), "structured dtypes"),
    "object": (np.array([None, 1], dtype=object), "unsupported dtype '|O'"),
}
for name, (a, message) in refused.items():
    path = os.path.join(tmp, name + ".npy")
    np.save(path, a, allow_pickle=True)
    r = tool("print", path)
    check(
        r.returncode == 1
        and message in r.stderr
        and "Traceback" not in r.stderr,
        f"{name}: exit {r.returncode}, {r.stderr.strip()!r}",
    )

# 5. Input specs give the arrays NumPy would.
specs = {
    "2x3xf32=[[1,2,3],[4,5,6]]": np.array([[1, 2, 3], [4, 5, 6]], np.float32),
    "2x3xf32=[1 2 3 4 5 6]": np.arange(1, 7, dtype=np.float32).reshape(2, 3),
    "2x2xf64=[0.1 -2.5][1e-3 inf]": np.array(
        [[0.1, -2.5], [1e-3, np.inf]], np.float64
    ),
    "2x3xf32=1.5": np.full((2, 3), 1.5, np.float32),
    "f32=3": np.array(3, np.float32),
    "i64=-3": np.array(-3, np.int64),
    "4xi1=[true,false,1,0]": np.array([True, False, True, False]),
    "3xf16=[0.1, 65504, -2]": np.array([0.1, 65504, -2], np.float16),
    "2xui64=[18446744073709551615, 0x10]": np.array(
        [2**64 - 1, 16], np.uint64
    ),
    "3xi8=[-128, 127, -0x10]": np.array([-128, 127, -16], np.int8),
    "0x3xf32=[]": np.zeros((0, 3), np.float32),
}
for text, expected in specs.items():
    path = os.path.join(tmp, "spec.npy")
    r = tool("parse", text, path)
    check(
        r.returncode == 0 and same(np.load(path), expected),
        f"spec {text}: {r.stderr.strip()}",
    )

# 6. Printed floats are NumPy's shortest round-trip reprs.
a = np.array([0.1, 1 / 3, 1e-7, 123456.79, 3.4028235e38], np.float32)
path = os.path.join(tmp, "repr.npy")
np.save(path, a)
printed = tool("print", path).stdout.strip().split("=", 1)[1][1:-1].split()
check(
    printed == [str(x) for x in a],
    f"shortest floats: {printed} vs NumPy's {[str(x) for x in a]}",
)
check(
    np.array(printed, dtype=np.float32).tobytes() == a.tobytes(),
    f"shortest floats round-trip: {printed}",
)

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("all NumPy interoperability checks passed")
