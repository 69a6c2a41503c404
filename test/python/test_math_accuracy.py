"""Every elementwise math function on every float dtype of the device stays
within its ulp bound (math_accuracy.FUNCTIONS) over its whole domain, and
gives NumPy's special values (NaN, infinities, signed zeros).

The points are those of the docs/accuracy.md table (random bit patterns,
ranges, edge cases), fewer of them (SLUICE_ACCURACY_N, default 20000 per
function and dtype) to keep the run short.
"""

import os

import numpy as np
import pytest

import math_accuracy as ma

N = int(os.environ.get("SLUICE_ACCURACY_N", "20000"))


def _skip_unsupported(device, dtype):
    if dtype == "float64" and not device.has_aspect_fp64:
        pytest.skip(f"{device.filter_string} has no float64")
    if dtype == "float16" and not device.has_aspect_fp16:
        pytest.skip(f"{device.filter_string} has no float16")


@pytest.mark.parametrize("dtype", ma.DTYPES)
@pytest.mark.parametrize("name", sorted(ma.FUNCTIONS))
def test_within_bound(device, name, dtype):
    _skip_unsupported(device, dtype)
    func = ma.FUNCTIONS[name]
    run = ma.sluice_runner(device.filter_string)
    err, worst, ncls, first = ma.evaluate(run, func, dtype, N)
    bound = ma.bound(func, dtype, device.filter_string)
    assert ncls == 0, (
        f"{name}({dtype}) differs from NumPy in IEEE class "
        f"at {ncls} inputs, first: input {first[0]} gave "
        f"{first[1]}, NumPy {first[2]}"
    )
    assert err <= bound, (
        f"{name}({dtype}) is {err:.3f} ulp from the "
        f"reference at {worst} (bound {bound})"
    )


@pytest.mark.parametrize("dtype", ma.CDTYPES)
@pytest.mark.parametrize("name", sorted(ma.CFUNCTIONS))
def test_complex_within_bound(device, name, dtype):
    """Complex functions: normwise relative error in epsilons over parts
    of every size (math_accuracy.cinputs)."""
    if dtype == "complex128" and not device.has_aspect_fp64:
        pytest.skip(f"{device.filter_string} has no float64")
    func = ma.CFUNCTIONS[name]
    err, worst = ma.cevaluate(
        ma.sluice_runner(device.filter_string), func, dtype, N
    )
    bound = ma.cbound(func, dtype, device.filter_string)
    assert err <= bound, (
        f"{name}({dtype}) is {err:.3f} epsilons from the reference at "
        f"{worst} (bound {bound})"
    )


@pytest.mark.parametrize("dtype", ma.CDTYPES)
def test_complex_power_within_conditioned_bound(device, dtype):
    """z ** w within 4 (1 + |w log z|) epsilons (docs/accuracy.md)."""
    if dtype == "complex128" and not device.has_aspect_fp64:
        pytest.skip(f"{device.filter_string} has no float64")
    err, worst = ma.cpower(device.filter_string, dtype, N)
    assert err <= 4, f"z ** w at {worst}: {err:.3f} (bound 4)"


def test_complex_measure_catches_errors():
    """The complex measure: a result one epsilon off in a part measures
    about 1, an infinity for a finite value and a wrong overflow are
    found, a subnormal result is measured in the subnormal spacing."""
    z = np.array([1 + 1j, 3 - 4j], np.complex128)
    ref = z.astype(np.clongdouble)
    off = z + np.spacing(1.0) * np.array([1, 5])
    err = ma.cerrors(off, ref, "complex128")
    assert 0.5 < err[0] < 1.5 and 0.5 < err[1] < 1.5, err
    bad = ma.cerrors(np.array([np.inf + 1j]), ref[:1], "complex128")
    assert np.isinf(bad[0])
    big = np.array([np.clongdouble(np.longdouble("1e309") + 1j)])
    assert ma.cerrors(np.array([np.inf + 1j]), big, "complex128")[0] == 0
    assert np.isinf(ma.cerrors(np.array([1e308 + 1j]), big, "complex128")[0])
    tiny = np.array([np.clongdouble(5e-324)], np.clongdouble)
    assert ma.cerrors(np.array([0j]), tiny, "complex128")[0] <= 1


def test_ulp_measure_catches_errors():
    """The measure itself: an answer one ulp off measures 1, a NaN for a
    number and a wrong signed zero are found."""
    x = np.array([0.5, 1.0, 3.0], np.float32)
    ref = np.sin(x.astype(np.float64))
    got = ref.astype(np.float32)  # correctly rounded: within 0.5 ulp
    assert np.all(ma.ulp_errors(got, ref, "float32") <= 0.5)
    off = np.nextafter(got, np.float32(np.inf))
    err = ma.ulp_errors(off, ref, "float32")
    assert np.all((err > 0.5) & (err < 1.5)), err
    got_nan = got.copy()
    got_nan[1] = np.nan
    assert np.isinf(ma.ulp_errors(got_nan, ref, "float32")[1])
    assert (
        len(
            ma.class_mismatches(
                np.array([0.0], np.float32), np.array([-0.0], np.float32)
            )
        )
        == 1
    )
    # float64 against the longdouble reference
    xd = np.array([0.5, 1.0, 3.0])
    refd = np.sin(xd.astype(np.longdouble))
    errd = ma.ulp_errors(
        np.nextafter(refd.astype(np.float64), np.inf), refd, "float64"
    )
    if ma.LD_WIDER:
        assert np.all((errd > 0.5) & (errd < 1.5)), errd
