"""The dpctl-style examples in examples/python/dpctl run, on every device,
and print what they should."""

import os
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(
    os.path.dirname(__file__), "..", "..", "examples", "python", "dpctl"
)

EXPECT = {
    "device_selection.py": [
        "default device:",
        "highest score is the default: True",
        "select_cpu_device:",
        "select_accelerator_device: none (SyclDeviceCreationError)",
        "selected:",
        "a CPU with shared USM:",
    ],
    "filter_selection.py": [
        "SyclDevice('host') -> host:cpu:0",
        "same device: True",
        "SyclDevice('nonsense:gpu:0'): SyclDeviceCreationError",
        "SyclQueue('host:cpu:7'): SyclQueueCreationError",
    ],
    "lsplatform.py": [
        "== verbosity 2",
        "Platform 0 ::",
        "Num Devices",
        "Filter string   host:cpu:0",
        "Sluice host (host)",
    ],
    "queue_profiling.py": [
        "in order: True | profiling: True",
        "context holds the device: True",
        "status: complete",
        "timestamps ordered: True",
        "round trip exact: True",
        "sum after barrier: 200000.0",
        "timed on host and device: True True",
    ],
    "usm_memory.py": [
        "shared: sluice USM shared",
        "device copy: sluice",
        "after memset: [7, 7, 7, 7]",
        "host memory after memcpy: b'\\x07\\x07\\x07\\x07'",
        "as_usm_memory: MemoryUSMDevice 32 bytes",
        "usm_ndarray over it: [[0, 1, 2, 3], [4, 5, 6, 7]]",
        "interface: (8,) <i4 True",
        "asarray of shared memory: uint8 (32,)",
    ],
    "subdevices.py": ["device:", "partition=0: ValueError"],
}


def test_every_example_is_checked():
    found = sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".py"))
    assert found == sorted(EXPECT)


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_example_runs(device, name):
    args = [sys.executable, os.path.join(EXAMPLES, name), device.filter_string]
    r = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    for fragment in EXPECT[name]:
        assert fragment in r.stdout, (fragment, r.stdout)
    if name == "subdevices.py" and device.backend.name == "level_zero":
        # A card of two tiles shown as one device (the test driver).
        env = dict(
            os.environ,
            SLUICE_ZE_TEST_DRIVER_SUBDEVICES="2",
            ZE_FLAT_DEVICE_HIERARCHY="COMPOSITE",
        )
        r = subprocess.run(
            args, capture_output=True, text=True, timeout=600, env=env
        )
        assert r.returncode == 0, r.stderr
        assert (
            "partition='next_partitionable': 2 sub-devices: "
            "level_zero:gpu:0.0, level_zero:gpu:0.1" in r.stdout
        ), r.stdout
        assert "on level_zero:gpu:0.1: sum = 6.0" in r.stdout, r.stdout
    if name == "usm_memory.py":
        hosty = device.backend.name == "host"
        assert ("host-accessible" in r.stdout) == hosty, r.stdout
