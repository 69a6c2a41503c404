"""Accuracy of Sluice's elementwise math functions, measured in ulp.

One table, ``FUNCTIONS``, names every elementwise math function with its
NumPy counterpart, the inputs that cover its domain and the bound Sluice
promises for it; adding a function is adding an entry. For every function,
dtype and device the inputs are random points over the whole domain (random
bit patterns: every binade, subnormals included), denser random points where
the function is interesting, and edge cases (+-0, +-inf, NaN, the largest
and smallest numbers, points next to the function's thresholds).

The error of a result is measured against a reference of higher precision:
float64 NumPy for float32 (and for float16/bfloat16, whose functions run in
float32), ``numpy.longdouble`` (64-bit significand on x86) for float64. The
unit is the ulp of the reference in the result's dtype (the spacing of the
dtype's numbers at the reference's binade, the subnormal spacing below the
normal range). Special results are compared with NumPy's own result in the
same dtype: NaN-ness, infinities and the sign of zero must be the same.

    python test/python/math_accuracy.py                  # print the table
    python test/python/math_accuracy.py --write docs/accuracy.md
    python test/python/math_accuracy.py --device host:cpu:0 --n 200000

``test_math_accuracy.py`` runs the same cases in CI and fails when a bound is
exceeded.
"""

import argparse
import dataclasses
import sys
from typing import Callable

import numpy as np

LD = np.longdouble
# Use longdouble as the float64 reference only where it is wider.
LD_WIDER = np.finfo(LD).nmant > np.finfo(np.float64).nmant


@dataclasses.dataclass
class Func:
    """One elementwise math function.

    ``bound`` maps a dtype family to the promised ulp bound: ``"f32"`` for
    float32, ``"f64"`` for float64, ``"half"`` for float16 and bfloat16
    (computed in float32 and rounded). ``ranges`` are the (lo, hi) intervals
    sampled uniformly besides the whole domain; ``edges`` extra inputs.
    ``nonneg`` restricts whole-domain samples to x >= 0 (``log``,
    ``sqrt``); ``special`` lists whole-domain points where the error is not
    measured in ulp but only the IEEE class (``pow`` at huge exponents).
    """

    name: str
    numpy: Callable
    arity: int
    bound: dict
    ranges: list = dataclasses.field(default_factory=list)
    edges: list = dataclasses.field(default_factory=list)
    sluice_name: str = ""
    # bounds of one backend where it differs: {"opencl": {"f32": 4.0}}
    backend_bound: dict = dataclasses.field(default_factory=dict)


BIG = [1e5, 1e8, 1e12, 1e20, 1e30, 3.4e38, 1.7e308]
PI_MULTIPLES = [k * np.pi / 2 for k in range(-8, 9)] + [
    np.pi * 1e4,
    np.pi * 1e6,
    710.0 * np.pi,
    102944.0 * np.pi / 2,
]

# The bounds: ``bound`` holds the host backend's (glibc: libmvec's vector
# variants for float32, the scalar libm for float64), ``backend_bound`` the
# others' where they differ: "opencl" (and Level Zero, also SPIR-V
# OpenCL.std; PoCL here) and "cuda" (libdevice; CUDA's programming guide
# gives its bounds). Every bound is at or under the OpenCL C full profile's.
SPIRV_BOUNDS = "opencl"
FUNCTIONS = {
    f.name: f
    for f in [
        Func(
            "exp",
            np.exp,
            1,
            {"f32": 3.0, "f64": 1.0, "half": 1.0},
            backend_bound={
                "opencl": {"f32": 1.0, "f64": 1.0},
                "cuda": {"f32": 2.0, "f64": 1.0},
            },
            ranges=[(-104.0, 89.0), (-746.0, 710.0), (-1.0, 1.0)],
            edges=[
                88.72,
                88.73,
                -87.33,
                -103.97,
                -104.0,
                709.78,
                709.79,
                -708.4,
                -745.13,
                -745.2,
                1e-30,
                -1e-30,
                1e-8,
            ],
        ),
        Func(
            "log",
            np.log,
            1,
            {"f32": 4.0, "f64": 1.0, "half": 1.0},
            backend_bound={
                "opencl": {"f32": 1.0, "f64": 1.0},
                "cuda": {"f32": 1.0, "f64": 1.0},
            },
            ranges=[(0.0, 4.0), (0.5, 2.0), (0.0, 1e-37), (0.0, 1e-307)],
            edges=[
                1.0,
                1.0 - 2**-24,
                1.0 + 2**-23,
                2.0,
                np.e,
                1e-45,
                1e-310,
                -1.0,
                -1e-30,
            ],
        ),
        # CUDA: libdevice's float32 sqrt is within 1 ulp (0.875 measured on an
        # H100), not correctly rounded.
        Func(
            "sqrt",
            np.sqrt,
            1,
            {"f32": 0.5, "f64": 0.5, "half": 0.5},
            backend_bound={"cuda": {"f32": 1.0, "f64": 0.5}},
            ranges=[(0.0, 4.0), (0.0, 1e-37)],
            edges=[1.0, 4.0, 2.0, 1e-45, 1e-310, -1.0, -1e-30],
        ),
        Func(
            "sin",
            np.sin,
            1,
            {"f32": 3.0, "f64": 1.0, "half": 1.0},
            backend_bound={
                "opencl": {"f32": 2.0, "f64": 2.0},
                "cuda": {"f32": 2.0, "f64": 2.0},
            },
            ranges=[
                (-3.2, 3.2),
                (-100.0, 100.0),
                (-1e4, 1e4),
                (-1e6, 1e6),
                (-1e9, 1e9),
            ],
            edges=PI_MULTIPLES + BIG + [-x for x in BIG] + [1e-30, 1e-40],
        ),
        Func(
            "cos",
            np.cos,
            1,
            {"f32": 3.0, "f64": 1.0, "half": 1.0},
            backend_bound={
                "opencl": {"f32": 2.0, "f64": 2.0},
                "cuda": {"f32": 2.0, "f64": 2.0},
            },
            ranges=[
                (-3.2, 3.2),
                (-100.0, 100.0),
                (-1e4, 1e4),
                (-1e6, 1e6),
                (-1e9, 1e9),
            ],
            edges=PI_MULTIPLES + BIG + [-x for x in BIG] + [1e-30, 1e-40],
        ),
        Func(
            "tanh",
            np.tanh,
            1,
            {"f32": 2.0, "f64": 3.0, "half": 1.0},
            backend_bound={
                "opencl": {"f32": 2.0, "f64": 2.0},
                "cuda": {"f32": 2.0, "f64": 2.0},
            },
            ranges=[(-1.0, 1.0), (-10.0, 10.0), (-0.01, 0.01), (-20.0, 20.0)],
            edges=[9.01, 9.02, 19.06, 1e-30, 1e-40, -1e-40, 0.55, -0.55],
        ),
        Func(
            "pow",
            np.power,
            2,
            {"f32": 1.0, "f64": 1.0, "half": 1.0},
            sluice_name="power",
            backend_bound={
                "opencl": {"f32": 1.0, "f64": 1.0},
                "cuda": {"f32": 4.0, "f64": 2.0},
            },
            ranges=[
                ((0.0, 10.0), (-30.0, 30.0)),
                ((0.5, 2.0), (-1e3, 1e3)),
                ((0.0, 1e6), (-6.0, 6.0)),
            ],
            edges=[
                (2.0, 0.5),
                (-2.0, 3.0),
                (-2.0, 0.5),
                (0.0, -1.0),
                (-0.0, -1.0),
                (-0.0, 3.0),
                (-0.0, 2.0),
                (1.0, np.nan),
                (np.nan, 0.0),
                (-1.0, np.inf),
                (0.5, np.inf),
                (2.0, -np.inf),
                (np.inf, -2.0),
                (-np.inf, 3.0),
                (-np.inf, -3.0),
                (-np.inf, 2.0),
                (10.0, 38.5),
                (10.0, 308.3),
                (10.0, -45.5),
                (2.0, 128.0),
                (2.0, -149.0),
                (2.0, -1074.0),
                (-8.0, 1.0 / 3.0),
                (1.0 + 2**-23, 2**30),
            ],
        ),
    ]
}


_PI_LD = LD("3.14159265358979323846264338327950288")


def _erf_erfc_ld(x):
    """(erf, erfc) of float64 x in longdouble, within 0.01 ulp of float64:
    the Taylor series of erf below 1.2, the continued fraction of erfc
    above (300 terms, evaluated backwards), exp(-x*x) with x*x split into
    exact parts."""
    x = np.asarray(x, np.float64)
    a = np.abs(x).astype(LD)
    erf = np.empty(len(a), LD)
    erfc = np.empty(len(a), LD)
    small = a < 1.2
    s = a[small]
    term, acc, s2 = s.copy(), np.zeros_like(s), s * s
    for n in range(200):
        acc += term / (2 * n + 1)
        term = -term * s2 / (n + 1)
    erf[small] = 2 / np.sqrt(_PI_LD) * acc
    erfc[small] = 1 - erf[small]
    b = a[~small]
    far = b > 30  # erfc below a quarter of the smallest subnormal
    b = np.where(far, 2, b)
    with np.errstate(all="ignore"):
        f = b.copy()
        for k in range(300, 0, -1):
            f = b + (LD(k) / 2) / f
        bh = ((b.astype(np.float64) * 2**26).round() / 2**26).astype(LD)
        bl = b - bh
        e = np.exp(-bh * bh) * np.exp(-2 * bh * bl) * np.exp(-bl * bl)
        big = e / np.sqrt(_PI_LD) / f
    big[far] = 0
    erfc[~small] = big
    erf[~small] = 1 - big
    neg = x < 0
    erf[neg] = -erf[neg]
    erfc[neg] = 2 - erfc[neg]
    nan = np.isnan(x)
    erf[nan] = erfc[nan] = np.nan
    return erf, erfc


def _erf(x):
    """erf: the float64 reference of float32 results, longdouble of
    float64 ones (NumPy has neither)."""
    import math

    if np.asarray(x).dtype == LD and LD_WIDER:
        return _erf_erfc_ld(x)[0]
    return np.vectorize(math.erf, otypes=[np.float64])(
        np.asarray(x, np.float64)
    ).astype(np.asarray(x).dtype)


def _erfc(x):
    import math

    if np.asarray(x).dtype == LD and LD_WIDER:
        return _erf_erfc_ld(x)[1]
    return np.vectorize(math.erfc, otypes=[np.float64])(
        np.asarray(x, np.float64)
    ).astype(np.asarray(x).dtype)


def _table_func(
    name, numpy, arity, host, opencl, cuda, ranges=(), edges=(), sluice_name=""
):
    """A function of the elementwise table: bounds as (f32, f64) per
    backend; float16 is computed in float32 (or in float16 arithmetic for
    the functions written in arith) and gets 2."""
    return Func(
        name,
        numpy,
        arity,
        {"f32": host[0], "f64": host[1], "half": 2.0},
        ranges=list(ranges),
        edges=list(edges),
        sluice_name=sluice_name,
        backend_bound={
            "opencl": {"f32": opencl[0], "f64": opencl[1]},
            "cuda": {"f32": cuda[0], "f64": cuda[1]},
        },
    )


TRIG_RANGES = [(-3.2, 3.2), (-100.0, 100.0), (-1e4, 1e4)]
# Bounds (host, OpenCL/Level Zero, CUDA) as (float32, float64); CUDA's from
# its programming guide, the others measured (docs/accuracy.md).
FUNCTIONS.update(
    {
        f.name: f
        for f in [
            _table_func(
                "tan",
                np.tan,
                1,
                (4, 1),
                (4, 4),
                (4, 2),
                TRIG_RANGES,
                PI_MULTIPLES,
            ),
            _table_func(
                "arcsin",
                np.arcsin,
                1,
                (4, 1),
                (4, 4),
                (2, 2),
                [(-1.0, 1.0), (-1e-3, 1e-3)],
                [1.0, -1.0, 0.5],
            ),
            _table_func(
                "arccos",
                np.arccos,
                1,
                (4, 1),
                (4, 4),
                (2, 2),
                [(-1.0, 1.0), (0.99, 1.0)],
                [1.0, -1.0, 0.5],
            ),
            _table_func(
                "arctan",
                np.arctan,
                1,
                (4, 1),
                (2, 2),
                (2, 2),
                [(-10.0, 10.0), (-1e6, 1e6)],
            ),
            _table_func(
                "sinh",
                np.sinh,
                1,
                (4, 2),
                (4, 4),
                (3, 2),
                [(-1.0, 1.0), (-90.0, 90.0), (-711.0, 711.0)],
            ),
            # CUDA float64: 1.12 ulp measured on an H100 (the guide says 1).
            _table_func(
                "cosh",
                np.cosh,
                1,
                (4, 2),
                (4, 4),
                (2, 2),
                [(-1.0, 1.0), (-90.0, 90.0), (-711.0, 711.0)],
            ),
            _table_func(
                "arcsinh",
                np.arcsinh,
                1,
                (4, 2),
                (4, 4),
                (3, 3),
                [(-1.0, 1.0), (-1e6, 1e6)],
            ),
            _table_func(
                "arccosh",
                np.arccosh,
                1,
                (4, 2),
                (4, 4),
                (4, 3),
                [(1.0, 2.0), (1.0, 1e6)],
                [1.0],
            ),
            _table_func(
                "arctanh",
                np.arctanh,
                1,
                (4, 2),
                (2, 2),
                (3, 2),
                [(-1.0, 1.0), (0.99, 1.0)],
                [1.0, -1.0],
            ),
            _table_func(
                "exp2",
                np.exp2,
                1,
                (4, 1),
                (4, 4),
                (2, 1),
                [(-150.0, 129.0), (-1075.0, 1025.0), (-1.0, 1.0)],
                [128.0, -149.0, 1024.0, -1074.0],
            ),
            # CUDA bounds below: the measured H100 values rounded up where they
            # exceed the programming guide's (docs/accuracy.md).
            # CUDA float64: 1.03 ulp measured on an H100 at x = 37.3.
            _table_func(
                "expm1",
                np.expm1,
                1,
                (4, 1),
                (4, 4),
                (2, 2),
                [(-1.0, 1.0), (-1e-5, 1e-5), (-100.0, 89.0), (-40.0, 710.0)],
            ),
            _table_func(
                "log2",
                np.log2,
                1,
                (4, 1),
                (4, 4),
                (1, 2),
                [(0.0, 4.0), (0.5, 2.0), (0.0, 1e-37)],
                [2.0, 8.0, 1.0],
            ),
            _table_func(
                "log10",
                np.log10,
                1,
                (4, 2),
                (4, 4),
                (2, 2),
                [(0.0, 4.0), (0.5, 2.0), (0.0, 1e-37)],
                [10.0, 1000.0],
            ),
            _table_func(
                "log1p",
                np.log1p,
                1,
                (4, 1),
                (4, 4),
                (1, 2),
                [(-1.0, 1.0), (-1e-5, 1e-5), (0.0, 1e6)],
                [-1.0],
            ),
            _table_func(
                "cbrt",
                np.cbrt,
                1,
                (4, 3),
                (4, 4),
                (1, 1),
                [(-8.0, 8.0), (0.0, 1e-37)],
                [27.0, -8.0],
            ),
            _table_func(
                "erf",
                _erf,
                1,
                (4, 2),
                (2, 2),
                (2, 2),
                [(-6.0, 6.0), (-1e-3, 1e-3)],
            ),
            # OpenCL: erfc is expanded (ExpandMathForOpenCL.cpp: exp(-x*x)
            # times a Chebyshev series of erfc(x) exp(x*x)). Host float64:
            # glibc's erfc, 3.1 ulp measured against the longdouble
            # reference.
            _table_func(
                "erfc",
                _erfc,
                1,
                (4, 4),
                (4, 4),
                (4, 4),
                [(-6.0, 10.0), (0.0, 27.0)],
            ),
            _table_func(
                "arctan2",
                np.arctan2,
                2,
                (4, 2),
                (2, 2),
                (3, 2),
                [((-10.0, 10.0), (-10.0, 10.0))],
            ),
            _table_func(
                "hypot",
                np.hypot,
                2,
                (4, 2),
                (4, 4),
                (3, 2),
                [
                    ((-10.0, 10.0), (-10.0, 10.0)),
                    ((-1e30, 1e30), (-1e30, 1e30)),
                ],
            ),
        ]
    }
)

DTYPES = ["float32", "float64", "float16"]


def bound(func, dtype, device):
    """The promised bound of func in dtype on device (a filter string)."""
    fam = family(dtype)
    backend = device.split(":")[0]
    if backend == "level_zero":
        backend = SPIRV_BOUNDS
    return func.backend_bound.get(backend, {}).get(fam, func.bound[fam])


def family(dtype):
    return {"float32": "f32", "float64": "f64"}.get(dtype, "half")


def np_dtype(dtype):
    if dtype == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(dtype)


def _bits(rng, n, dt, nonneg=False):
    """n random numbers of dt from random bit patterns (finite only)."""
    ui = {2: np.uint16, 4: np.uint32, 8: np.uint64}[dt.itemsize]
    raw = rng.integers(0, np.iinfo(ui).max, size=n, dtype=ui, endpoint=True)
    x = raw.view(dt)
    with np.errstate(invalid="ignore"):
        x = x[np.isfinite(x.astype(np.float64))]
    if nonneg:
        x = np.abs(x)
    return x


def _uniform(rng, n, dt, lo, hi):
    big = float(np.finfo(dt).max)
    return rng.uniform(max(lo, -big), min(hi, big), size=n).astype(dt)


SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, 2.0]


def inputs(func, dtype, n, seed=0):
    """The inputs of ``func`` in ``dtype``: a list of arrays (one per
    operand) of equal length."""
    dt = np_dtype(dtype)
    rng = np.random.default_rng(seed)
    fin = np.finfo(np.float32 if dtype == "bfloat16" else dt)
    tiny_sub = float(fin.smallest_subnormal) if dtype != "bfloat16" else 9e-41
    extremes = [
        float(fin.max),
        -float(fin.max),
        float(fin.tiny),
        -float(fin.tiny),
        tiny_sub,
        -tiny_sub,
    ]
    if func.arity == 1:
        parts = [_bits(rng, n, dt)]
        per = max(n // max(len(func.ranges), 1) // 2, 1)
        for lo, hi in func.ranges:
            parts.append(_uniform(rng, per, dt, lo, hi))
        edge = np.array(SPECIALS + extremes + list(func.edges), np.float64)
        with np.errstate(all="ignore"):
            edge = edge.astype(dt)
            edge = np.concatenate(
                [
                    edge,
                    np.nextafter(edge, dt.type(np.inf)),
                    np.nextafter(edge, dt.type(-np.inf)),
                ]
            )
            parts.append(edge)
        return [np.concatenate(parts)]
    # binary (pow): x over its whole domain against moderate exponents, both
    # over their whole domains, integral exponents of negative bases, and
    # the listed ranges and edges.
    q = max(n // 4, 1)
    x0, y0 = _bits(rng, q, dt), _bits(rng, q, dt)
    m0 = min(len(x0), len(y0))
    x1 = _bits(rng, q, dt, nonneg=True)
    xs = [x0[:m0], x1]
    ys = [y0[:m0], _uniform(rng, len(x1), dt, -4.0, 4.0)]
    negx = -np.abs(_uniform(rng, q, dt, 0.0, 20.0))
    xs.append(negx)
    ys.append(rng.integers(-40, 40, size=q).astype(dt))
    per = max(n // max(len(func.ranges), 1) // 4, 1)
    for (xl, xh), (yl, yh) in func.ranges:
        xs.append(_uniform(rng, per, dt, xl, xh))
        ys.append(_uniform(rng, per, dt, yl, yh))
    sp = SPECIALS + [float(fin.max), tiny_sub, 3.0, -3.0]
    gx, gy = np.meshgrid(np.array(sp), np.array(sp))
    ex = np.array([e[0] for e in func.edges] + list(gx.ravel()))
    ey = np.array([e[1] for e in func.edges] + list(gy.ravel()))
    with np.errstate(over="ignore"):
        xs.append(ex.astype(dt))
        ys.append(ey.astype(dt))
    return [np.concatenate(xs), np.concatenate(ys)]


def reference(func, args, dtype):
    """The reference values (float64 or longdouble) of ``func`` at args."""
    wide = LD if family(dtype) == "f64" else np.float64
    with np.errstate(all="ignore"):
        return func.numpy(*[a.astype(wide) for a in args])


def numpy_result(func, args, dtype):
    """NumPy's own result in dtype (for the IEEE class of special results)."""
    dt = np_dtype(dtype)
    with np.errstate(all="ignore"):
        if family(dtype) == "half":
            r = func.numpy(*[a.astype(np.float32) for a in args])
        else:
            r = func.numpy(*args)
        return np.asarray(r).astype(dt)


def ulp_errors(got, ref, dtype):
    """|got - ref| in ulp of ref's binade in dtype; inf where the IEEE class
    differs (NaN against a number, infinity against a finite reference that
    does not overflow)."""
    fin = (
        np.finfo(np.float32)
        if dtype == "bfloat16"
        else np.finfo(np_dtype(dtype))
    )
    if dtype == "bfloat16":
        p, emin, vmax = 8, -126, 3.3895313892515355e38
    else:
        p, emin, vmax = fin.nmant + 1, fin.minexp, float(fin.max)
    wide = LD if family(dtype) == "f64" else np.float64
    g = got.astype(wide)
    r = ref.astype(wide)
    err = np.zeros(len(r), dtype=wide)
    with np.errstate(all="ignore"):
        rn, gn = np.isnan(r), np.isnan(g)
        finite_r = np.isfinite(r)
        # the largest value that still rounds to a finite number
        half_ulp_max = wide(vmax) + wide(2.0) ** (int(np.log2(vmax)) - p)
        overflow = finite_r & (np.abs(r) >= half_ulp_max)
        e = np.floor(np.log2(np.abs(np.where(finite_r & (r != 0), r, 1))))
        e = np.maximum(e, emin)
        ulp = np.ldexp(wide(1.0), (e - (p - 1)).astype(np.int64))
        ok_num = finite_r & ~overflow & np.isfinite(g)
        err[ok_num] = np.abs(g[ok_num] - r[ok_num]) / ulp[ok_num]
        bad = rn != gn
        inf_r = ~finite_r & ~rn
        bad |= inf_r & (g != r)
        bad |= (
            overflow
            & ~((np.abs(g) == np.inf) & (np.sign(g) == np.sign(r)))
            & ~(np.abs(g) == vmax)
        )
        bad |= finite_r & ~overflow & ~np.isfinite(g)
        err[bad] = np.inf
        err[overflow & ~bad] = 0
    return err.astype(np.float64)


def class_mismatches(got, want):
    """Indices where NaN-ness, infinities or signed zeros differ from
    NumPy's result in the same dtype."""
    g = got.astype(np.float64)
    w = want.astype(np.float64)
    gn, wn = np.isnan(g), np.isnan(w)
    mism = gn != wn
    both = ~gn & ~wn
    special = both & ((w == 0) | np.isinf(w) | (g == 0) | np.isinf(g))
    # zero vs tiny nonzero is an ulp question, not a class one; infinities
    # and the sign of exact zeros are class questions.
    zs = special & (w == 0) & (g == 0) & (np.signbit(g) != np.signbit(w))
    infs = special & (np.isinf(w) | np.isinf(g)) & (g != w)
    return np.nonzero(mism | zs | infs)[0]


def evaluate(run, func, dtype, n, seed=0, args=None):
    """Runs ``run(func, args)`` (returns the device result in dtype) and
    returns (max ulp, worst input, number of IEEE-class mismatches, one
    mismatching input)."""
    if args is None:
        args = inputs(func, dtype, n, seed)
    got = np.asarray(run(func, args))
    ref = reference(func, args, dtype)
    err = ulp_errors(got, ref, dtype)
    want = numpy_result(func, args, dtype)
    cls = class_mismatches(got, want)
    # where NumPy itself is outside the bound (its float32 functions are
    # not all correctly rounded) nothing is asked beyond NumPy's class.
    i = int(np.argmax(err))
    worst = tuple(float(a[i]) for a in args)
    first = (
        (
            tuple(float(a[cls[0]]) for a in args),
            float(got[cls[0]]),
            float(want[cls[0]]),
        )
        if len(cls)
        else None
    )
    return float(err[i]), worst, len(cls), first


def sluice_runner(device):
    import sluice

    def run(func, args):
        name = func.sluice_name or func.name
        fn = getattr(sluice, name)
        arrs = [sluice.asarray(a, device=device) for a in args]
        return sluice.asnumpy(fn(*arrs))

    return run


def supported_dtypes(device):
    import sluice

    out = []
    for d in DTYPES:
        try:
            x = sluice.asarray(np.zeros(2, np_dtype(d)), device=device)
            sluice.asnumpy(sluice.exp(x))
        except Exception:
            continue
        out.append(d)
    return out


def numpy_runner(func, args):
    """NumPy itself, for comparison (its float16 functions go through
    float32, like Sluice's)."""
    return numpy_result(func, args, args[0].dtype.name)


def table(devices, n, seed=0, out=sys.stdout):
    rows = []
    for dtype in DTYPES:
        for func in FUNCTIONS.values():
            err = evaluate(numpy_runner, func, dtype, n, seed)[0]
            rows.append(
                (
                    func.name,
                    dtype,
                    "NumPy " + np.__version__,
                    err,
                    None,
                    None,
                    0,
                )
            )
    for device in devices:
        run = sluice_runner(device)
        for dtype in supported_dtypes(device):
            for func in FUNCTIONS.values():
                err, worst, ncls, first = evaluate(run, func, dtype, n, seed)
                b = bound(func, dtype, device)
                rows.append((func.name, dtype, device, err, b, worst, ncls))
                print(
                    f"{func.name:6} {dtype:8} {device:14} {err:8.3f} "
                    f"(bound {b}) worst at {worst} class mismatches "
                    f"{ncls} {first or ''}",
                    file=out,
                    flush=True,
                )
    return rows


# ---------------------------------------------------------------------------
# Complex functions.
#
# The error of a complex result w against the reference r is normwise and
# relative: |w - r| / max(|r|, tiny), in units of the epsilon of the part
# dtype (2**-23 for complex64, 2**-52 for complex128; ``tiny`` is the
# smallest normal number, so a result among the subnormals is measured in
# units of the subnormal spacing, as the real ulp is). A correctly rounded
# result is within 0.5. Where a part of the reference overflows the dtype
# the result's part must be the infinity of the same sign (a class
# question) and the other part is measured on its own, relative to itself.
# The reference is computed in ``numpy.clongdouble`` (64-bit significand):
# NumPy's own functions (glibc's ``casinl`` ...) where they are accurate,
# else the formulas below, written for the wider type.

CDTYPES = ["complex64", "complex128"]


def _ln2_chunks():
    """ln 2 as a sum of longdoubles of 11 significant bits each (so that a
    float64 times one of them is exact in longdouble)."""
    from decimal import Decimal, getcontext
    from fractions import Fraction

    getcontext().prec = 80
    rest = Fraction(Decimal(2).ln())
    chunks = []
    for _ in range(20):
        if rest == 0:
            break
        e = rest.numerator.bit_length() - rest.denominator.bit_length()
        scale = Fraction(2) ** (e - 11)
        c = Fraction(round(rest / scale)) * scale
        chunks.append(LD(c.numerator) / LD(c.denominator))
        rest -= c
    return chunks


def _cis_ln2(y):
    """(cos, sin) of y * ln 2 for float64 y, accurate to longdouble for
    every |y| (the product split into exact parts, each reduced by the
    library's sin and cos)."""
    y = y.astype(LD)
    c = np.ones_like(y)
    s = np.zeros_like(y)
    for k in _ln2_chunks():
        t = y * k  # exact
        ct, st = np.cos(t), np.sin(t)
        c, s = c * ct - s * st, s * ct + c * st
    return c, s


def _cplx(re, im):
    """re + i im without 0 * inf (and keeping signed zeros)."""
    out = np.empty(np.broadcast(re, im).shape, np.clongdouble)
    out.real, out.imag = re, im
    return out


def _ref_exp2(z):
    x, y = z.real, z.imag
    c, s = _cis_ln2(y)
    m = np.exp2(x)
    re = np.where(c == 0, 0, m * c)
    im = np.where(s == 0, 0, m * s)
    return _cplx(re, im)


def _ref_expm1(z):
    x, y = z.real, z.imag
    s = np.sin(y / 2)
    re = np.expm1(x) * np.cos(y) - 2 * s * s
    return _cplx(re, np.exp(x) * np.sin(y))


def _ref_log1p(z):
    x, y = z.real, z.imag
    q = 2 * x + x * x + y * y
    near = np.abs(q) < 0.5
    re = np.where(
        near, np.log1p(np.where(near, q, 0)) / 2, np.log(np.abs(1 + z))
    )
    return _cplx(re, np.arctan2(y, 1 + x))


@dataclasses.dataclass
class CFunc:
    """One complex elementwise function: its reference on clongdouble
    inputs and its bound (normwise relative error in epsilons) per dtype
    ("c64", "c128"), per backend where it differs."""

    name: str
    ref: Callable
    bound: dict
    backend_bound: dict = dataclasses.field(default_factory=dict)
    # exponential growth along a part: inputs up to the overflow thresholds
    # there (1e30 parts would only test inf and 0)
    grows: bool = False
    sluice_name: str = ""


def _np(name):
    return getattr(np, name)


CFUNCTIONS = {
    f.name: f
    for f in [
        CFunc("exp", np.exp, {"c64": 3, "c128": 3}, grows=True),
        CFunc("exp2", _ref_exp2, {"c64": 3, "c128": 3}, grows=True),
        CFunc("expm1", _ref_expm1, {"c64": 4, "c128": 4}, grows=True),
        CFunc("log", np.log, {"c64": 3, "c128": 3}),
        CFunc("log2", np.log2, {"c64": 3, "c128": 3}),
        CFunc("log10", np.log10, {"c64": 3, "c128": 3}),
        CFunc("log1p", _ref_log1p, {"c64": 3, "c128": 3}),
        CFunc("sqrt", np.sqrt, {"c64": 3, "c128": 3}),
        CFunc("rsqrt", lambda z: 1 / np.sqrt(z), {"c64": 3, "c128": 3}),
        CFunc("reciprocal", lambda z: 1 / z, {"c64": 3, "c128": 3}),
        CFunc("square", np.square, {"c64": 3, "c128": 3}),
        CFunc("sin", np.sin, {"c64": 3, "c128": 3}, grows=True),
        CFunc("cos", np.cos, {"c64": 3, "c128": 3}, grows=True),
        CFunc("tan", np.tan, {"c64": 3, "c128": 3}),
        CFunc("sinh", np.sinh, {"c64": 3, "c128": 3}, grows=True),
        CFunc("cosh", np.cosh, {"c64": 3, "c128": 3}, grows=True),
        CFunc("tanh", np.tanh, {"c64": 3, "c128": 3}),
        CFunc("arcsin", np.arcsin, {"c64": 3, "c128": 3}),
        CFunc("arccos", np.arccos, {"c64": 3, "c128": 3}),
        CFunc("arctan", np.arctan, {"c64": 3, "c128": 3}),
        CFunc("arcsinh", np.arcsinh, {"c64": 3, "c128": 3}),
        CFunc("arccosh", np.arccosh, {"c64": 3, "c128": 3}),
        CFunc("arctanh", np.arctanh, {"c64": 3, "c128": 3}),
    ]
}


def cfamily(dtype):
    return "c64" if dtype == "complex64" else "c128"


def cbound(func, dtype, device):
    backend = device.split(":")[0]
    if backend == "level_zero":
        backend = SPIRV_BOUNDS
    fam = cfamily(dtype)
    return func.backend_bound.get(backend, {}).get(fam, func.bound[fam])


def cinputs(func, dtype, n, seed=0):
    """Complex inputs of ``func`` in ``dtype``: parts of every size from the
    smallest normal number to 1e30 (log-uniform, random signs, some exactly
    zero), a box of moderate values, points near the unit circle, near the
    branch points +-1 and +-i and near -1, and on the axes. For the
    functions that grow exponentially along a part, that part stays within
    +-800 (beyond it the result is only infinities and zeros)."""
    dt = np.dtype(dtype)
    part = np.float32 if dt == np.complex64 else np.float64
    fin = np.finfo(part)
    rng = np.random.default_rng(seed)
    lo = np.log10(float(fin.tiny))
    q = max(n // 8, 1)

    def logu(k, hi=30.0):
        v = 10.0 ** rng.uniform(lo, hi, k) * rng.choice([-1.0, 1.0], k)
        v[rng.random(k) < 0.05] = 0.0
        return v

    res, ims = [logu(3 * q)], [logu(3 * q)]
    res.append(rng.uniform(-4, 4, q))
    ims.append(rng.uniform(-4, 4, q))
    # near the unit circle
    r = 1 + rng.choice([-1, 1], q) * 10.0 ** rng.uniform(
        -(fin.precision + 1), -1, q
    )
    phi = rng.uniform(-np.pi, np.pi, q)
    res.append(r * np.cos(phi))
    ims.append(r * np.sin(phi))
    # near +-1, +-i
    c = rng.choice(np.array([1, -1, 1j, -1j]), q)
    d = 10.0 ** rng.uniform(-(fin.precision + 2), 0, q) * np.exp(
        1j * rng.uniform(-np.pi, np.pi, q)
    )
    w = c + d
    res.append(w.real)
    ims.append(w.imag)
    # on the axes
    a = logu(q)
    z0 = rng.choice([0.0, -0.0], q)
    res.append(np.where(np.arange(q) % 2 == 0, a, z0))
    ims.append(np.where(np.arange(q) % 2 == 0, z0, a))
    re = np.concatenate(res)
    im = np.concatenate(ims)
    if func.grows:
        # exponential along the real part (exp, sinh ...) or the imaginary
        # part (sin, cos, tan): keep that part within the range where the
        # result is finite or just overflows.
        k = re if func.name in ("exp", "exp2", "expm1", "sinh", "cosh") else im
        big = np.abs(k) > 800
        k[big] = rng.uniform(-800, 800, int(big.sum()))
    if func.name == "exp2":
        # the angle y ln 2 is exact while y ln 2's low part is (|y| below
        # 2**24, 2**52: where y becomes an integer); see docs/accuracy.md
        lim = 2.0 ** (fin.nmant + 1)
        far = np.abs(im) > lim
        im[far] = np.copysign(
            10.0 ** rng.uniform(0, np.log10(lim), int(far.sum())), im[far]
        )
    with np.errstate(over="ignore"):
        re = re.astype(part)
        im = im.astype(part)
    z = np.empty(len(re), dt)
    z.real, z.imag = re, im
    return z[np.isfinite(z)]


def creference(func, z):
    with np.errstate(all="ignore"):
        return np.asarray(func.ref(z.astype(np.clongdouble)))


def cerrors(got, ref, dtype):
    """Normwise relative errors in epsilons (see above); inf where a part
    of the result is NaN or infinite and the reference's is not, or an
    overflowing part of the reference is not that infinity."""
    part = np.float32 if dtype == "complex64" else np.float64
    fin = np.finfo(part)
    eps = LD(float(fin.eps))
    tiny = LD(float(fin.tiny))
    vmax = LD(float(fin.max))
    g = got.astype(np.clongdouble)
    err = np.zeros(len(ref), LD)
    with np.errstate(all="ignore"):
        half = LD(2.0) ** (fin.maxexp - fin.nmant - 2)
        ovr = np.abs(ref.real) >= vmax + half
        ovi = np.abs(ref.imag) >= vmax + half
        bad = ~np.isfinite(ref)  # not measured here (special inputs)
        for ov, gp, rp in ((ovr, g.real, ref.real), (ovi, g.imag, ref.imag)):
            bad |= ov & ~(
                (np.abs(gp) == np.inf) & (np.sign(gp) == np.sign(rp))
            )
            bad |= ~ov & ~np.isfinite(gp)
        both = ~ovr & ~ovi
        mag = np.maximum(np.abs(ref), tiny)
        err[both] = (np.abs(g - ref) / mag / eps)[both]
        one_r = ovi & ~ovr
        one_i = ovr & ~ovi
        err[one_r] = (
            np.abs(g.real - ref.real)
            / np.maximum(np.abs(ref.real), tiny)
            / eps
        )[one_r]
        err[one_i] = (
            np.abs(g.imag - ref.imag)
            / np.maximum(np.abs(ref.imag), tiny)
            / eps
        )[one_i]
        err[bad] = np.inf
        err[~np.isfinite(ref)] = 0
    return err.astype(np.float64)


def cevaluate(run, func, dtype, n, seed=0, z=None):
    """(max error in epsilons, worst input) of ``run(func, z)``."""
    if z is None:
        z = cinputs(func, dtype, n, seed)
    got = np.asarray(run(func, [z]))
    err = cerrors(got, creference(func, z), dtype)
    i = int(np.argmax(err))
    return float(err[i]), complex(z[i])


def cpower(device, dtype, n, seed=0):
    """z ** w (complex): the largest normwise relative error in epsilons
    divided by 1 + |w log z|, the condition of exp(w log z) (an error of
    the exponent's rounding that no working precision short of a wider one
    avoids), over z with parts of sizes 1e-3 to 1e3 and |w| up to 4; and
    the worst input pair."""
    import sluice

    rng = np.random.default_rng(seed)
    z = (rng.uniform(-4, 4, n) + 1j * rng.uniform(-4, 4, n)) * 10.0 ** (
        rng.uniform(-3, 3, n)
    )
    w = rng.uniform(-3, 3, n) + 1j * rng.uniform(-3, 3, n)
    z, w = z.astype(dtype), w.astype(dtype)
    got = sluice.asnumpy(
        sluice.power(
            sluice.asarray(z, device=device), sluice.asarray(w, device=device)
        )
    )
    zl, wl = z.astype(np.clongdouble), w.astype(np.clongdouble)
    with np.errstate(all="ignore"):
        e = wl * np.log(zl)
        ref = np.exp(e)
        part = np.finfo(np.float32 if dtype == "complex64" else np.float64)
        ok = (np.abs(ref) < LD(float(part.max)) / 2) & (
            np.abs(ref) > LD(float(part.tiny))
        )
        err = np.abs(got - ref) / np.abs(ref) / LD(float(part.eps))
        err = np.where(np.isfinite(got), err, np.inf)
        r = (err / (1 + np.abs(e)))[ok].astype(np.float64)
    i = int(np.argmax(r))
    return float(r[i]), (complex(z[ok][i]), complex(w[ok][i]))


def ctable(devices, n, seed=0, out=sys.stdout):
    rows = []
    for device in devices:
        run = sluice_runner(device)
        for dtype in CDTYPES:
            if dtype == "complex128" and "float64" not in supported_dtypes(
                device
            ):
                continue
            for func in CFUNCTIONS.values():
                err, worst = cevaluate(run, func, dtype, n, seed)
                b = cbound(func, dtype, device)
                rows.append((func.name, dtype, device, err, b, worst, 0))
                print(
                    f"{func.name:10} {dtype:10} {device:14} {err:9.3f} "
                    f"(bound {b}) worst at {worst}",
                    file=out,
                    flush=True,
                )
    return rows


# For a device on a machine without the compiler (the CUDA machine): the
# cases compiled here into artifacts with their inputs (--prepare DIR), run
# there through the runtime's C API (--run-artifacts DIR, with
# bench/sluice_artifact.py), measured here from the results (--collect DIR).
USM_OPS = {
    "exp": "exp",
    "log": "log",
    "sqrt": "sqrt",
    "sin": "sin",
    "cos": "cos",
    "tanh": "tanh",
    "pow": "pow",
}
MLIR_TYPES = {"float32": "f32", "float64": "f64", "float16": "f16"}


def _usm_op(name):
    """The usm op of a function: USM_OPS, else the elementwise table's."""
    if name in USM_OPS:
        return USM_OPS[name]
    from sluice import _elementwise

    table = {**_elementwise.UNARY, **_elementwise.BINARY}
    return table[name][1]


def prepare(out, device, n, sluice_compile, seed=0):
    import os
    import subprocess

    os.makedirs(out, exist_ok=True)
    for dtype in DTYPES:
        for func in FUNCTIONS.values():
            case = os.path.join(out, f"{func.name}_{dtype}")
            args = inputs(func, dtype, n, seed)
            for i, a in enumerate(args):
                np.save(f"{case}_in{i}.npy", a)
            t = f'!usm.array<?x{MLIR_TYPES[dtype]}, "{device}", device>'
            names = ", ".join(f"%a{i}" for i in range(func.arity))
            params = ", ".join(f"%a{i}: !A" for i in range(func.arity))
            types = ", ".join("!A" for _ in range(func.arity))
            with open(case + ".mlir", "w") as f:
                f.write(
                    f"!A = {t}\nfunc.func @main({params}) -> !A {{\n"
                    f"  %r = usm.{_usm_op(func.name)} {names} : "
                    f"({types}) -> !A\n  return %r : !A\n}}\n"
                )
            subprocess.run(
                [
                    sluice_compile,
                    case + ".mlir",
                    f"--device={device}",
                    "-o",
                    case + ".so",
                ],
                check=True,
            )


def cprepare(out, device, n, seed=0):
    """The complex cases (``c_<name>_<dtype>``) as artifacts saved from
    jitted functions, with their inputs."""
    import os

    import sluice

    os.makedirs(out, exist_ok=True)
    for dtype in CDTYPES:
        for func in CFUNCTIONS.values():
            z = cinputs(func, dtype, n, seed)
            fn = getattr(sluice, func.sluice_name or func.name)
            f = sluice.jit(lambda a, fn=fn: fn(a))
            case = os.path.join(out, f"c_{func.name}_{dtype}")
            f.lower(sluice.asarray(z)).save(case + ".so", device=device)
            np.save(case + "_in0.npy", z)


def ccollect(directory, device):
    import os

    rows = []
    for dtype in CDTYPES:
        for func in CFUNCTIONS.values():
            case = os.path.join(directory, f"c_{func.name}_{dtype}")
            if not os.path.exists(case + "_out.npy"):
                continue
            z = np.load(case + "_in0.npy")
            cached = np.load(case + "_out.npy")
            err, worst = cevaluate(
                lambda f, a, cached=cached: cached, func, dtype, 0, z=z
            )
            b = cbound(func, dtype, device)
            rows.append((func.name, dtype, device, err, b, worst, 0))
            print(
                f"{func.name:10} {dtype:10} {device:14} {err:9.3f} "
                f"(bound {b}) worst at {worst}",
                flush=True,
            )
    return rows


def run_artifacts(directory, runtime_lib):
    import glob
    import os

    sys.path.insert(
        0,
        os.path.join(
            os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"
        ),
    )
    import sluice_artifact

    rt = sluice_artifact.Runtime(runtime_lib)
    for so in sorted(glob.glob(os.path.join(directory, "*.so"))):
        case = so[:-3]
        args = [np.load(f) for f in sorted(glob.glob(case + "_in*.npy"))]
        try:
            # "main", or the only entry of an artifact saved from a
            # jitted function (named after it)
            call = sluice_artifact.Artifact(rt, so).prepare(None, args)
            out = call.run()[0]
            call.close()
            np.save(case + "_out.npy", out)
        except Exception as e:  # reported, the other cases still run
            print(f"{os.path.basename(case)}: {e}", flush=True)


def collect(directory, device):
    import os

    rows = []
    for dtype in DTYPES:
        for func in FUNCTIONS.values():
            case = os.path.join(directory, f"{func.name}_{dtype}")
            if not os.path.exists(case + "_out.npy"):
                continue
            args = [np.load(f"{case}_in{i}.npy") for i in range(func.arity)]
            cached = np.load(case + "_out.npy")
            err, worst, ncls, first = evaluate(
                lambda f, a, cached=cached: cached, func, dtype, 0, args=args
            )
            b = bound(func, dtype, device)
            rows.append((func.name, dtype, device, err, b, worst, ncls))
            print(
                f"{func.name:6} {dtype:8} {device:14} {err:8.3f} "
                f"(bound {b}) worst at {worst} class mismatches {ncls} "
                f"{first or ''}",
                flush=True,
            )
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", action="append")
    ap.add_argument("--n", type=int, default=1000000)
    ap.add_argument("--write", help="write the markdown table here")
    ap.add_argument(
        "--prepare",
        metavar="DIR",
        help="compile the cases for --device into DIR",
    )
    ap.add_argument("--sluice-compile", default="build/bin/sluice-compile")
    ap.add_argument("--run-artifacts", metavar="DIR")
    ap.add_argument("--runtime", default="build/lib/libsluice-runtime.so")
    ap.add_argument(
        "--collect",
        metavar="DIR",
        help="measure the results of --run-artifacts in DIR",
    )
    ap.add_argument(
        "--only",
        choices=["real", "complex"],
        help="only the real functions, or only the complex ones",
    )
    ap.add_argument(
        "--cn",
        type=int,
        default=200000,
        help="points per complex function and dtype",
    )
    a = ap.parse_args()
    devices = a.device or ["host:cpu:0", "opencl:cpu:0"]
    real, cplx = a.only != "complex", a.only != "real"
    if a.prepare:
        if real:
            prepare(a.prepare, devices[0], a.n, a.sluice_compile)
        if cplx:
            cprepare(a.prepare, devices[0], a.cn)
        return
    if a.run_artifacts:
        run_artifacts(a.run_artifacts, a.runtime)
        return
    rows, crows = [], []
    if a.collect:
        rows = collect(a.collect, devices[0]) if real else []
        crows = ccollect(a.collect, devices[0]) if cplx else []
    else:
        rows = table(devices, a.n) if real else []
        crows = ctable(devices, a.cn) if cplx else []
    if a.write:
        if rows:
            write_markdown(a.write, rows, a.n)
        if crows:
            write_markdown(
                a.write,
                crows,
                a.cn,
                tag="ctable",
                names=CFUNCTIONS,
                dtypes=CDTYPES,
                unit="max error (eps)",
                ntag="cn",
            )


def write_markdown(
    path,
    rows,
    n,
    tag="table",
    names=None,
    dtypes=None,
    unit="max ulp measured",
    ntag="n",
):
    import re

    names = FUNCTIONS if names is None else names
    dtypes = DTYPES if dtypes is None else dtypes
    text = open(path).read()
    lines = [
        f"| function | dtype | device | {unit} | bound |",
        "|---|---|---|---:|---:|",
    ]
    # rows of devices this run did not measure (CUDA, measured on the GPU
    # machine) are kept
    measured = {r[2] for r in rows}
    old = re.search(rf"<!-- {tag} -->(.*)<!-- /{tag} -->", text, re.S)
    for line in old.group(1).splitlines() if old else []:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] not in names:
            continue
        device = cells[2].strip("`")
        if device.startswith("NumPy") or device in measured:
            continue
        err = float(cells[3].split()[0])
        rows.append(
            (
                cells[0],
                cells[1],
                device,
                err,
                float(cells[4]),
                None,
                0 if "over" not in cells[3] else 1,
            )
        )
    order = {f: i for i, f in enumerate(names)}
    rows = sorted(rows, key=lambda r: (order[r[0]], dtypes.index(r[1])))
    for name, dtype, device, err, bound, _worst, ncls in rows:
        if bound is None:
            lines.append(f"| {name} | {dtype} | {device} | {err:.2f} | |")
            continue
        flag = "" if err <= bound and ncls == 0 else " **over**"
        lines.append(
            f"| {name} | {dtype} | `{device}` | {err:.2f}{flag} | {bound:g} |"
        )
    table_md = "\n".join(lines)
    text = re.sub(
        rf"<!-- {tag} -->.*<!-- /{tag} -->",
        f"<!-- {tag} -->\n{table_md}\n<!-- /{tag} -->",
        text,
        flags=re.S,
    )
    text = re.sub(
        rf"<!-- {ntag} -->.*<!-- /{ntag} -->",
        f"<!-- {ntag} -->{n}<!-- /{ntag} -->",
        text,
    )
    open(path, "w").write(text)


if __name__ == "__main__":
    main()
