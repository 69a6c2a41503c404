"""Inputs that once crashed the interpreter or gave answers unlike NumPy's:
sizes whose byte count overflows, integer powers, NaN fills, signed zeros
of remainder.

Crash regressions run in a child process with a time limit, so that a
regression is a failed test, never a dead test run.
"""

import math
import subprocess
import sys

import numpy as np
import pytest

import sluice

HAS_COMPILER = sluice.compiler_version() != ""
needs_compiler = pytest.mark.skipif(
    not HAS_COMPILER, reason="this build of sluice has no compiler"
)

_CHILD = """
import sys, sluice
dev = sys.argv[1]
expr = sys.argv[2]
try:
    r = eval(expr, {"sluice": sluice, "dev": dev})
    sluice.asnumpy(r) if isinstance(r, sluice.Array) else r
except (ValueError, MemoryError, OverflowError, sluice.SluiceError) as e:
    print(type(e).__name__ + ":", e)
    sys.exit(3)
print("no error")
"""

HUGE = 2**62

OVERFLOWING = [
    "sluice.broadcast_to(sluice.ones(1, dtype='float32', device=dev), "
    f"({HUGE},)) + 1",
    "sluice.broadcast_to(sluice.ones(1, dtype='float32', device=dev), "
    f"({HUGE},)).sum()",
    "sluice.broadcast_to(sluice.ones((1, 1), dtype='float32', device=dev), "
    f"({HUGE}, 4))",
    f"sluice.arange(0, {HUGE}, dtype='float32', device=dev)",
    f"sluice.linspace(0, 1, {HUGE}, dtype='float32', device=dev)",
    f"sluice.empty({HUGE}, dtype='float32', device=dev)",
    f"sluice.full(({2**21}, {2**21}, {2**21}), 1.0, dtype='float32', "
    "device=dev)",
    f"sluice.zeros(({2**40}, {2**40}), dtype='int8', device=dev)",
]


@needs_compiler
@pytest.mark.parametrize("expr", OVERFLOWING)
def test_overflowing_sizes_raise(device, expr):
    r = subprocess.run(
        [sys.executable, "-c", _CHILD, device.filter_string, expr],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 3, (r.returncode, r.stdout, r.stderr[-2000:])
    assert r.stdout.startswith("ValueError: array is too big"), r.stdout


@needs_compiler
def test_overflowing_sizes_raise_in_process(device):
    x = sluice.ones(1, dtype="float32", device=device)
    with pytest.raises(
        ValueError,
        match=r"array is too big: shape "
        r"\(4611686018427387904,\)",
    ):
        sluice.broadcast_to(x, (HUGE,))
    with pytest.raises(ValueError, match="array is too big"):
        sluice.arange(0, HUGE, dtype="float32", device=device)
    with pytest.raises(ValueError, match="array is too big"):
        sluice.empty((HUGE, 2), dtype="int8", device=device)
    # The largest sizes still work where they fit; the queue is unharmed.
    y = sluice.arange(0, 5, dtype="float32", device=device) + 1
    np.testing.assert_array_equal(sluice.asnumpy(y), [1, 2, 3, 4, 5])


@needs_compiler
def test_overflowing_static_shape_in_jit(device):
    # A traced shape too large is a compile error, not a crash.
    @sluice.jit
    def f(x):
        return sluice.broadcast_to(x, (2**21, 2**21, 2**21))

    x = sluice.ones(1, dtype="float32", device=device)
    with pytest.raises(
        (sluice.CompileError, ValueError), match="too (large|big)"
    ):
        f(x)


@needs_compiler
def test_integer_negative_power_raises(device):
    a = sluice.asarray(np.arange(1, 5, dtype=np.int32), device=device)
    msg = "Integers to negative integer powers are not allowed."
    with pytest.raises(ValueError, match=msg):
        np.arange(1, 5, dtype=np.int32) ** -1  # NumPy, for reference
    with pytest.raises(ValueError, match=msg):
        a**-1
    with pytest.raises(ValueError, match=msg):
        sluice.power(a, np.int64(-2))
    with pytest.raises(ValueError, match=msg):
        a ** sluice.asarray(
            np.array([1, 2, -1, 0], dtype=np.int32), device=device
        )
    with pytest.raises(ValueError, match=msg):
        2 ** sluice.asarray(np.array([1, -1], dtype=np.int64), device=device)
    with pytest.raises(ValueError, match=msg):
        a.copy().__ipow__(-1)
    # Non-negative integer powers and float exponents work as in NumPy.
    np.testing.assert_array_equal(sluice.asnumpy(a**2), [1, 4, 9, 16])
    np.testing.assert_array_equal(
        sluice.asnumpy(
            a
            ** sluice.asarray(
                np.array([0, 1, 2, 3], dtype=np.int32), device=device
            )
        ),
        [1, 2, 9, 64],
    )
    f = sluice.asnumpy(a**-1.0)
    np.testing.assert_allclose(f, np.arange(1, 5, dtype=np.int32) ** -1.0)


@needs_compiler
def test_full_of_nan_or_inf_for_integers_raises(device):
    # As Python's int(nan) and NumPy before 2 (NumPy 2 warns and stores
    # INT_MIN).
    with pytest.raises(
        ValueError, match="cannot convert float NaN to integer"
    ):
        sluice.full(3, float("nan"), dtype="int32", device=device)
    with pytest.raises(
        ValueError, match="cannot convert float NaN to integer"
    ):
        sluice.full(3, np.float32("nan"), dtype="uint8", device=device)
    with pytest.raises(OverflowError, match="cannot convert float infinity"):
        sluice.full(3, float("inf"), dtype="int64", device=device)
    # Floats and bools take NaN; finite floats truncate into integers.
    assert math.isnan(
        float(sluice.full(2, float("nan"), dtype="float32", device=device)[0])
    )
    np.testing.assert_array_equal(
        sluice.asnumpy(sluice.full(2, 2.7, dtype="int32", device=device)),
        np.full(2, 2.7).astype(np.int32),
    )


@needs_compiler
def test_remainder_signed_zeros(device):
    dts = [np.float32] + ([np.float64] if device.has_aspect_fp64 else [])
    for dt in dts:
        x = np.array([-0.0, 0.0, 0.0, -0.0, 3.0, -3.0, 1.5, -1.5], dtype=dt)
        y = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0, -1.0, 1.0], dtype=dt)
        want = np.remainder(x, y)
        got = sluice.asnumpy(
            sluice.remainder(
                sluice.asarray(x, device=device),
                sluice.asarray(y, device=device),
            )
        )
        np.testing.assert_array_equal(got, want)
        assert (np.signbit(got) == np.signbit(want)).all(), (dt, got, want)
        # The scalar forms and the operator.
        r = sluice.asnumpy(
            sluice.asarray(np.array([-0.0], dtype=dt), device=device) % 1.0
        )
        assert r[0] == 0 and not np.signbit(r[0])
        r = sluice.asnumpy(
            sluice.asarray(np.array([0.0], dtype=dt), device=device) % -1.0
        )
        assert r[0] == 0 and np.signbit(r[0])
