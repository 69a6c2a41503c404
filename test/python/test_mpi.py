"""Sluice with MPI: Inputs/mpi_checks.py and the examples in
examples/python/mpi run under ``mpirun -n 2`` and ``-n 4 --oversubscribe``
on each device. Where MPI (mpirun, or mpi4py for this Python) is absent,
the tests are skipped with the reason, and the run prints
``SLUICE-MPI-MISSING`` with the reason (CTest reports the test as
skipped)."""

import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKS = os.path.join(HERE, "Inputs", "mpi_checks.py")
EXAMPLES = os.path.join(HERE, "..", "..", "examples", "python", "mpi")
TIMEOUT = 300  # seconds per mpirun; a hang is a failure, not a stuck run

# Every check of mpi_checks.py (each must print "CHECK <name> ok").
CHECK_NAMES = [
    "send_recv_as_is",
    "allreduce_as_is",
    "device_memory_needs_staging",
    "staged_send_recv",
    "send_waits_for_the_producer",
    "pickled_send",
    "layouts",
    "elementwise_and_creation",
    "reductions",
    "slicing_and_stencil",
    "redistribution",
    "placement_errors",
    "jit_checks_layouts_before_tracing",
    "matmul",
]


def _mpi_missing():
    if shutil.which("mpirun") is None:
        return (
            "MPI is not installed: no mpirun on PATH (Debian: apt-get "
            "install openmpi-bin libopenmpi-dev; scripts/setup.sh does)"
        )
    r = subprocess.run(
        [sys.executable, "-c", "import mpi4py"], capture_output=True, text=True
    )
    if r.returncode != 0:
        return (
            f"mpi4py is not installed for {sys.executable} (pip install "
            "-r scripts/requirements.txt)"
        )
    return None


@pytest.fixture(scope="module")
def mpirun():
    why = _mpi_missing()
    if why:  # pytest -rs prints the reason, which CTest looks for
        pytest.skip(f"SLUICE-MPI-MISSING: {why}")
    cmd = ["mpirun"]
    env = dict(os.environ)
    if os.geteuid() == 0:  # containers run as root; Open MPI refuses that
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    # Shared-memory transport without cross-process memory attach (often
    # not permitted in containers).
    env.setdefault("OMPI_MCA_btl_vader_single_copy_mechanism", "none")
    env.setdefault("OMPI_MCA_rmaps_base_oversubscribe", "1")

    def run(n, script, *args):
        argv = cmd + ["-n", str(n)]
        if n > (os.cpu_count() or 1):
            argv.append("--oversubscribe")
        argv += [sys.executable, script, *args]
        try:
            r = subprocess.run(
                argv, capture_output=True, text=True, env=env, timeout=TIMEOUT
            )
        except subprocess.TimeoutExpired as e:
            pytest.fail(
                f"{' '.join(argv)} did not finish in {TIMEOUT} s:\n"
                f"{e.stdout}\n{e.stderr}"
            )
        return r

    return run


@pytest.mark.parametrize("ranks", [2, 4])
def test_checks(mpirun, device, ranks):
    r = mpirun(ranks, CHECKS, device.filter_string)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    for name in CHECK_NAMES:
        assert f"CHECK {name} ok" in r.stdout, out


@pytest.mark.parametrize(
    "script,ranks,args,expect",
    [
        ("distributed_sum.py", 2, ["100000"], ["correct: True"]),
        ("heat2d.py", 4, ["48", "20"], ["max error vs NumPy: 0"]),
        (
            "heat2d_distributed.py",
            2,
            ["48", "20"],
            [
                "max error vs NumPy: 0",
                "ExecutionPlacementError: Execution "
                "placement can not be unambiguously inferred",
            ],
        ),
    ],
)
def test_example(mpirun, device, script, ranks, args, expect):
    r = mpirun(
        ranks, os.path.join(EXAMPLES, script), device.filter_string, *args
    )
    assert r.returncode == 0, r.stdout + r.stderr
    for fragment in expect:
        assert fragment in r.stdout, r.stdout
    if script == "distributed_sum.py":
        staged = "staged through host memory: True" in r.stdout
        assert staged == (not device.filter_string.startswith("host"))


def test_every_example_is_run():
    found = sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".py"))
    assert found == [
        "distributed_sum.py",
        "heat2d.py",
        "heat2d_distributed.py",
    ]
