"""Every example in examples/python runs, on every device."""

import os
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(
    os.path.dirname(__file__), "..", "..", "examples", "python"
)

# What each example must print (a line fragment per check).
EXPECT = {
    "devices.py": [
        "devices:",
        "host:cpu:0",
        "default device:",
        "no such device:",
    ],
    "compute_follows_data.py": [
        "z lives on",
        "ExecutionPlacementError: "
        "Execution placement can not be "
        "unambiguously inferred",
        "x + other = [1. 2. 3. 4. 5. 6. 7. 8.]",
        "TypeError: Implicit conversion",
    ],
    "queues.py": [
        "same queue: False",
        "c on q1: True",
        "TypeError: `device` and `sycl_queue` name different",
        "r = [0.  0.5 1.  1.5 2. ]",
    ],
    "timing.py": ["submit:", "run to completion:", "checksum:"],
    "dlpack_numpy.py": [
        "h after writing x[0]: [100.",
        "NumPy view of shared USM: [1. 1. 1. 1.]",
        "copied to the CPU: [0 1 2]",
    ],
    "jit_fused.py": [
        "(traced 1 time)",
        "max error vs NumPy:",
        "fused group #1",
        "9 array ops",
    ],
}


def test_every_example_is_checked():
    found = sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".py"))
    assert found == sorted(EXPECT)


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_example_runs(device, name):
    args = [sys.executable, os.path.join(EXAMPLES, name)]
    if name != "devices.py":
        args.append(device.filter_string)
    if name == "timing.py":
        args.append("100000")
    r = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    for fragment in EXPECT[name]:
        assert fragment in r.stdout, (fragment, r.stdout)
    if name == "jit_fused.py":
        err = float(r.stdout.split("max error vs NumPy:")[1].split()[0])
        assert err < 1e-4
