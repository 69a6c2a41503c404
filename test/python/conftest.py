"""Shared set-up of the Python tests.

Tests that take the ``device`` fixture run once per device of
``--sluice-device`` (repeatable; or ``SLUICE_TEST_DEVICES``, comma
separated; default: every visible device among host, OpenCL, Level Zero and
CUDA). A device that is not present is skipped, with a reason, and when no
requested device is present the run prints ``SLUICE-DEVICE-MISSING`` (CTest
then reports the test as skipped).
"""

import os

import pytest

CANDIDATES = ["host:cpu:0", "opencl:cpu:0", "level_zero:gpu:0", "cuda:gpu:0"]


def pytest_addoption(parser):
    parser.addoption(
        "--sluice-device",
        action="append",
        default=None,
        help="run device tests on this filter string (repeatable)",
    )


def _requested(config):
    opt = config.getoption("--sluice-device")
    if opt:
        return opt
    env = os.environ.get("SLUICE_TEST_DEVICES")
    if env:
        return [d.strip() for d in env.split(",") if d.strip()]
    return CANDIDATES


def _present():
    import sluice

    return {d.filter_string for d in sluice.get_devices()}


_missing = []


def pytest_generate_tests(metafunc):
    if "device" in metafunc.fixturenames:
        metafunc.parametrize(
            "device", _requested(metafunc.config), indirect=True
        )


@pytest.fixture
def device(request):
    name = request.param
    import sluice

    try:
        dev = sluice.Device(name)
    except sluice.DeviceNotFoundError:
        dev = None
    if dev is None or dev.filter_string not in _present():
        if name not in _missing:
            _missing.append(name)
        pytest.skip(f"device {name} is not present on this machine")
    return dev


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    requested = _requested(config)
    if _missing and set(_missing) >= set(requested):
        terminalreporter.write_line(
            "SLUICE-DEVICE-MISSING: " + ", ".join(_missing)
        )


@pytest.fixture
def host():
    import sluice

    return sluice.Device("host")


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """An empty disk cache and no compiled programs in memory."""
    from sluice import _compiler, _dispatch

    _compiler.flush_cache_writes()  # earlier tests' artifacts go elsewhere
    monkeypatch.setenv("SLUICE_CACHE_DIR", str(tmp_path / "cache"))
    saved_entries = dict(_compiler._entries)
    saved_kernels = dict(_dispatch._kernels)
    _compiler._entries.clear()
    _dispatch._kernels.clear()
    _dispatch._ext.fast_clear()
    yield tmp_path / "cache"
    _compiler.flush_cache_writes()
    _compiler._entries.clear()
    _compiler._entries.update(saved_entries)
    _dispatch._kernels.clear()
    _dispatch._kernels.update(saved_kernels)
    _dispatch._ext.fast_clear()


def sluice_compile_tool():
    """The sluice-compile of the build the tests import (or $SLUICE_COMPILE),
    or None (test_load.py imports it)."""
    import sluice

    tool = os.environ.get("SLUICE_COMPILE")
    if not tool:
        build = os.path.dirname(
            os.path.dirname(os.path.dirname(os.path.abspath(sluice.__file__)))
        )
        tool = os.path.join(build, "bin", "sluice-compile")
    return tool if os.access(tool, os.X_OK) else None


@pytest.fixture
def cuda_ptx(monkeypatch, tmp_path):
    """``cuda_ptx(kernel, range, *args)``: the PTX of a ``@sluice.kernel``
    lowered for cuda:gpu:0 and compiled by sluice-compile (no GPU needed;
    skips where the build has no sluice-compile)."""
    import re
    import subprocess

    from sluice import _kernel

    tool = sluice_compile_tool()
    if tool is None:
        pytest.skip("no sluice-compile tool (set SLUICE_COMPILE)")
    monkeypatch.setattr(_kernel.KernelFunction, "_target", lambda s, q: "cuda")
    monkeypatch.setattr(_kernel, "_place", lambda q: '"cuda:gpu:0"')

    def compile(kernel, rng, *args):
        name = getattr(kernel, "__name__", "kernel")
        src = tmp_path / f"{name}.mlir"
        src.write_text(kernel.lower(rng, *args).as_text())
        out = tmp_path / f"{name}.out.mlir"
        r = subprocess.run(
            [
                tool,
                str(src),
                "--device=cuda:gpu:0",
                "--emit=mlir",
                "--stop-after=binaries",
                "-o",
                str(out),
            ],
            capture_output=True,
            text=True,
        )
        assert r.returncode == 0, r.stderr
        m = re.search(r'assembly = "(.*?)">', out.read_text(), re.S)
        assert m, f"no PTX in the module compiled from {name}"
        return m.group(1).replace("\\0A", "\n").replace("\\09", " ")

    return compile


_USABLE = {}


def usable_device(name):
    """The device ``name`` when it is present and runs a compiled
    operation, else None: an OpenCL device is listed where the machine has
    an OpenCL driver but no SPIR-V translator (the GPU machine), and then
    compiles nothing. The probe's failure is consumed here."""
    import sluice

    if name not in _USABLE:
        dev = None
        if name in {d.filter_string for d in sluice.get_devices()}:
            d = sluice.Device(name)
            try:
                x = sluice.asarray([1.0, 2.0, 3.0], device=d)
                sluice.asnumpy(sluice.exp(x) * x + 1.0)
                dev = d
            except sluice.SluiceError:
                try:
                    sluice.synchronize()
                except sluice.SluiceError:
                    pass
        _USABLE[name] = dev
    return _USABLE[name]
