"""Ahead-of-time compiled programs: Lowered.save, sluice.load, artifacts of
the sluice-compile CLI, and every error on the way.

Tests that compile need the compiler (skipped in a build without it);
tests of CLI artifacts also need the sluice-compile tool ($SLUICE_COMPILE,
else the build's bin/sluice-compile). The two ``deploy`` tests carry
artifacts from a build with the compiler to one without it: with
$SLUICE_TEST_EXPORT_DIR the first writes artifacts, inputs and expected
results there; with $SLUICE_TEST_IMPORT_DIR the second runs them
(scripts/check-runtime-only.sh does both).
"""

import os
import re
import subprocess
import sys
import time

import numpy as np
import pytest

import sluice
from conftest import sluice_compile_tool

HAS_COMPILER = sluice.compiler_version() != ""
needs_compiler = pytest.mark.skipif(
    not HAS_COMPILER, reason="this build of sluice has no compiler"
)


SLUICE_COMPILE = sluice_compile_tool()
needs_cli = pytest.mark.skipif(
    SLUICE_COMPILE is None,
    reason="no sluice-compile tool (set SLUICE_COMPILE)",
)


def _np(x):
    return sluice.asnumpy(x)


def _compile_cli(tmp_path, text, name="prog.so"):
    src = tmp_path / (name + ".mlir")
    src.write_text(text)
    out = tmp_path / name
    r = subprocess.run(
        [SLUICE_COMPILE, str(src), "-o", str(out)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    return out


def _dtypes_for(device):
    dts = [np.float32, np.int32, np.uint8, np.int64]
    if device.has_aspect_fp64:
        dts.append(np.float64)
    if device.has_aspect_fp16:
        dts.append(np.float16)
    return dts


# --- Lowered.save + sluice.load ---------------------------------------------


@needs_compiler
@pytest.mark.parametrize(
    "dtype", [np.float32, np.int32, np.uint8, np.int64, np.float64, np.float16]
)
def test_round_trip_matches_numpy(device, tmp_path, dtype):
    if dtype not in _dtypes_for(device):
        pytest.skip(f"{device.filter_string} has no {np.dtype(dtype)}")

    @sluice.jit
    def f(a, b, s):
        c = a * b + s
        return c, sluice.sum(c), sluice.max(a - b, axis=1)

    rng = np.random.default_rng(1)
    a = rng.integers(0, 5, (3, 7)).astype(dtype)
    b = rng.integers(0, 5, (3, 7)).astype(dtype)
    x = sluice.asarray(a, device=device)
    y = sluice.asarray(b, device=device)
    path = tmp_path / "f.so"
    f.lower(x, y, 2).save(path)
    prog = sluice.load(path)
    assert isinstance(prog, sluice.LoadedProgram)
    assert prog.name == "f" and prog.path == str(path)
    assert prog.signature.startswith("f(3x7x")
    assert len(prog.args) == 3 and len(prog.results) == 3
    assert prog.args[2].shape is None and prog.args[2].queue is None
    assert prog.args[0].queue == x.sycl_queue
    assert prog.args[0].usm_type == "device"
    assert "LoadedProgram f(" in repr(prog) and "f.so" in repr(prog)
    c, total, mx = prog(x, y, 3)
    want = a * b + np.array(3).astype(dtype)
    assert c.dtype == dtype and c.sycl_device == device
    rtol = 1e-2 if dtype == np.float16 else 1e-6
    np.testing.assert_allclose(_np(c), want, rtol=rtol)
    np.testing.assert_allclose(_np(total), want.sum(), rtol=rtol)
    np.testing.assert_array_equal(_np(mx), (a - b).max(axis=1))
    # The jitted function agrees with its saved program.
    jc, _, _ = f(x, y, 3)
    np.testing.assert_array_equal(_np(jc), _np(c))


@needs_compiler
def test_scalars_numpy_arguments_and_one_result(device, tmp_path):
    @sluice.jit
    def axpy(a, x, y):
        return a * x + y

    x = sluice.arange(6, dtype=np.float32, device=device)
    y = sluice.ones(6, dtype=np.float32, device=device)
    axpy.lower(2.0, x, y).save(tmp_path / "axpy.so")
    prog = sluice.load(str(tmp_path / "axpy.so"))
    r = prog(0.5, x, y)
    assert isinstance(r, sluice.Array)  # one result: not a tuple
    np.testing.assert_array_equal(_np(r), 0.5 * np.arange(6) + 1)
    # Python ints and NumPy scalars for a float scalar; NumPy arrays are
    # copied to the argument's queue.
    r = prog(np.float32(-1), np.arange(6, dtype=np.float32), y)
    np.testing.assert_array_equal(_np(r), 1 - np.arange(6))
    r = prog(3, x, np.full(6, 2, dtype=np.float32))
    np.testing.assert_array_equal(_np(r), 3 * np.arange(6) + 2)
    # A non-contiguous view is accepted like jit accepts it.
    z = sluice.arange(12, dtype=np.float32, device=device)[::2]
    np.testing.assert_array_equal(_np(prog(1, z, y)), np.arange(0, 12, 2) + 1)


@needs_compiler
def test_entry_names(device, tmp_path):
    x = sluice.ones(4, dtype=np.int32, device=device)
    double = sluice.jit(lambda v: v * 2)
    double.lower(x).save(tmp_path / "lam.so")
    prog = sluice.load(tmp_path / "lam.so")
    assert prog.name == "_lambda_"
    np.testing.assert_array_equal(_np(prog(x)), [2, 2, 2, 2])
    double.lower(x).save(tmp_path / "named.so", name="twice")
    assert sluice.load(tmp_path / "named.so").name == "twice"
    assert sluice.load(tmp_path / "named.so", name="twice").name == "twice"
    with pytest.raises(ValueError, match="not an identifier"):
        double.lower(x).save(tmp_path / "bad.so", name="2x")
    with pytest.raises(ValueError, match="not an identifier"):
        double.lower(x).save(tmp_path / "bad.so", name="a-b")
    assert not (tmp_path / "bad.so").exists()


@needs_compiler
def test_what_cannot_be_saved(device, tmp_path):
    x = sluice.ones(4, dtype=np.float32, device=device)
    outside = sluice.ones(4, dtype=np.float32, device=device)
    with pytest.raises(ValueError, match="from outside"):
        sluice.jit(lambda v: v + outside).lower(x).save(tmp_path / "c.so")
    for fn in (
        lambda v: (v + 1, v),
        lambda v: {"a": v + 1},
        lambda v: 3,
        lambda v: (lambda w: (w, w))(v + 1),
        lambda v: ((v + 1, v * 2),),
    ):
        with pytest.raises(ValueError, match="must return an array"):
            sluice.jit(fn).lower(x).save(tmp_path / "r.so")
    assert not list(tmp_path.iterdir())
    # A list of arrays is saved; the program returns a tuple.
    sluice.jit(lambda v: [v + 1, v * 3]).lower(x).save(tmp_path / "l.so")
    r = sluice.load(tmp_path / "l.so")(x)
    assert type(r) is tuple and len(r) == 2
    np.testing.assert_array_equal(_np(r[1]), [3, 3, 3, 3])
    with pytest.raises(TypeError, match="filter string"):
        sluice.jit(lambda v: v).lower(x).save(tmp_path / "d.so", device=0)
    with pytest.raises(sluice.DeviceNotFoundError):
        sluice.jit(lambda v: v + 1).lower(x).save(
            tmp_path / "d.so", device="nonsense:::"
        )
    with pytest.raises(FileNotFoundError):
        sluice.jit(lambda v: v + 1).lower(x).save(
            tmp_path / "no" / "such" / "dir.so"
        )


@needs_compiler
def test_save_for_a_device_this_machine_lacks(device, tmp_path):
    # Compiling for a device needs no such device; running does.
    x = sluice.ones(4, dtype=np.float32, device=device)
    sluice.jit(lambda v: v * 2).lower(x).save(
        tmp_path / "acc.so", device="opencl:accelerator:7"
    )
    with pytest.raises(
        sluice.DeviceNotFoundError, match="opencl:accelerator:7"
    ):
        sluice.load(tmp_path / "acc.so")
    # Retargeting onto the test's own device runs there.
    host = sluice.ones(4, dtype=np.float32, device="host")
    sluice.jit(lambda v: v * 2).lower(host).save(
        tmp_path / "re.so", device=device.filter_string
    )
    prog = sluice.load(tmp_path / "re.so")
    assert prog.args[0].queue.sycl_device == device
    np.testing.assert_array_equal(_np(prog(x)), [2, 2, 2, 2])


@needs_compiler
def test_loading_again_reuses_until_the_file_changes(device, tmp_path):
    x = sluice.arange(4, dtype=np.int32, device=device)
    path = tmp_path / "g.so"
    sluice.jit(lambda v: v + 1).lower(x).save(path, name="g")
    first = sluice.load(path)
    assert sluice.load(str(path)) is first
    link = tmp_path / "link.so"
    link.symlink_to(path)
    assert sluice.load(link) is first  # the same file
    np.testing.assert_array_equal(_np(first(x)), [1, 2, 3, 4])
    # Saved over: the new program runs, the old one still works.
    time.sleep(0.01)
    sluice.jit(lambda v: v * 10).lower(x).save(path, name="g")
    second = sluice.load(path)
    assert second is not first
    np.testing.assert_array_equal(_np(second(x)), [0, 10, 20, 30])
    np.testing.assert_array_equal(_np(first(x)), [1, 2, 3, 4])
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


@needs_compiler
def test_argument_errors(device, tmp_path):
    @sluice.jit
    def f(a, x, y):
        return a * x + y

    x = sluice.ones((2, 3), dtype=np.float32, device=device)
    f.lower(1, x, x).save(tmp_path / "f.so")
    prog = sluice.load(tmp_path / "f.so")
    with pytest.raises(TypeError, match=r"takes 3 arguments .*2 were given"):
        prog(1, x)
    with pytest.raises(TypeError, match="argument 1 has dtype int32"):
        prog(1, x.astype(np.int32), x)
    with pytest.raises(TypeError, match=r"shape \(6,\)"):
        prog(1, x.reshape(6), x)
    with pytest.raises(TypeError, match=r"shape \(2, 4\)"):
        prog(1, x, sluice.ones((2, 4), dtype=np.float32, device=device))
    with pytest.raises(TypeError, match="argument 2 has dtype float64"):
        prog(1, x, np.ones((2, 3)))
    with pytest.raises(TypeError, match="argument 0 is the float 1.5"):
        prog(1.5, x, x)  # the int scalar takes no float
    with pytest.raises(TypeError, match="argument 0 is of type Array"):
        prog(x, x, x)
    with pytest.raises(TypeError, match="argument 2 is of type list"):
        prog(1, x, [1, 2, 3])
    other = x.to_device(sluice.Queue(device))
    with pytest.raises(
        sluice.ExecutionPlacementError, match="argument 2 is on Queue.*name="
    ):
        prog(1, x, other)
    with pytest.raises(sluice.ExecutionPlacementError, match="shared"):
        prog(1, sluice.asarray(x, usm_type="shared"), x)
    # The placement error is a ValueError, as jit's are.
    with pytest.raises(ValueError):
        prog(1, x, other)
    np.testing.assert_array_equal(_np(prog(2, x, x)), np.full((2, 3), 3))


# --- artifacts of the sluice-compile CLI -------------------------------------


def _two_entries(dev):
    return f"""
!X = !usm.array<?xf32, "{dev}", device>
!S = !usm.array<f32, "{dev}", device>
func.func @axpy(%a: f32, %x: !X, %y: !X) -> !X {{
  %ax = usm.mul %x, %a : (!X, f32) -> !X
  %r = usm.add %ax, %y : (!X, !X) -> !X
  return %r : !X
}}
func.func @stats(%x: !X) -> (!S, !S, !X) {{
  %s = usm.sum %x : !X -> !S
  %m = usm.max %x : !X -> !S
  %n = usm.negative %x : (!X) -> !X
  return %s, %m, %n : !S, !S, !X
}}
"""


@needs_cli
def test_cli_artifact_with_several_entries(device, tmp_path):
    path = _compile_cli(tmp_path, _two_entries(device.filter_string), "two.so")
    with pytest.raises(
        sluice.ArtifactError, match=r"several entry points \(@axpy, @stats\)"
    ):
        sluice.load(path)
    with pytest.raises(
        sluice.ArtifactError,
        match=r"no entry point @main \(it has @axpy, @stats\)",
    ):
        sluice.load(path, name="main")
    with pytest.raises(TypeError, match="must be a string"):
        sluice.load(path, name=1)
    axpy = sluice.load(path, "axpy")
    stats = sluice.load(path, name="stats")
    assert axpy.signature.startswith("axpy(f32,?xf32@")
    assert axpy.args[1].shape == (None,)
    for n in (0, 1, 1000, 70001):  # dynamic sizes
        a = np.linspace(0.5, 1.5, n, dtype=np.float32)
        x = sluice.asarray(a, device=device)
        r = axpy(2.0, x, x)
        assert r.shape == (n,)  # known from the call, which waits
        np.testing.assert_allclose(_np(r), 3 * a, rtol=1e-6)
        if n:
            s, m, neg = stats(x)
            # Positive terms: the reassociated f32 sum stays within
            # about log2(n) * eps of NumPy's.
            np.testing.assert_allclose(
                _np(s), a.sum(dtype=np.float64), rtol=1e-5
            )
            assert float(_np(m)) == a.max()
            np.testing.assert_array_equal(_np(neg), -a)
    with pytest.raises(TypeError, match=r"shape \(2, 2\)"):
        axpy(1.0, sluice.ones((2, 2), device=device), x)


@needs_cli
def test_cli_artifact_failing_at_run_time(device, tmp_path):
    path = _compile_cli(tmp_path, _two_entries(device.filter_string), "two.so")
    stats = sluice.load(path, "stats")
    # The max of nothing fails in the program; the call that waits for its
    # dynamic-shape result raises at once.
    with pytest.raises(sluice.SluiceError, match="stats failed"):
        stats(sluice.empty(0, dtype=np.float32, device=device))
    # Its queue reports the failure too, at the next wait.
    with pytest.raises(sluice.SluiceError, match="stats failed"):
        device.sycl_queue.wait()
    device.sycl_queue.wait()


@needs_cli
def test_cli_artifact_with_scalar_results(device, tmp_path):
    dev = device.filter_string
    half = "f16, " if device.has_aspect_fp16 else ""
    d_arg = "%d: f16, " if half else ""
    d = "%d, " if half else ""
    types = f"i8, ui64, {half}i1, f32, !R"
    text = f"""
!A = !usm.array<2x?xi32, "{dev}", shared>
!R = !usm.array<2xi64, "{dev}", shared>
func.func @main(%a: !A, %b: i8, %c: ui64, {d_arg}%e: i1,
                %f: f32) -> ({types}) {{
  %r = usm.sum %a axes [1] : !A -> !R
  return %b, %c, {d}%e, %f, %r : {types}
}}
"""
    prog = sluice.load(_compile_cli(tmp_path, text))
    assert prog.name == "main"
    a = np.arange(10, dtype=np.int32).reshape(2, 5)
    args = [a, -3, 2**64 - 1] + ([1.5] if half else []) + [True, 0.25]
    out = prog(*args)
    want = [-3, 2**64 - 1] + ([1.5] if half else []) + [True, 0.25]
    assert list(out[:-1]) == want
    assert type(out[-3]) is bool
    np.testing.assert_array_equal(_np(out[-1]), a.sum(axis=1))
    assert out[-1].usm_type == "shared"
    # NumPy integers for integer scalars; a float for i8 is refused.
    out = prog(a, np.int8(5), np.uint64(7), *args[3:])
    assert out[:2] == (5, 7)
    with pytest.raises(TypeError, match="argument 1 is the float"):
        prog(a, 1.0, *args[2:])


@needs_cli
def test_cli_artifact_without_arrays(tmp_path):
    text = """
func.func @main(%a: f32, %b: f32) -> f32 {
  %r = arith.addf %a, %b : f32
  return %r : f32
}
"""
    path = _compile_cli(tmp_path, text)
    with pytest.raises(
        sluice.ArtifactError, match="takes and returns no arrays"
    ):
        sluice.load(path)


# --- files that are not artifacts --------------------------------------------


def test_files_that_are_not_artifacts(tmp_path):
    with pytest.raises(FileNotFoundError):
        sluice.load(tmp_path / "missing.so")
    with pytest.raises(IsADirectoryError):
        sluice.load(tmp_path)
    text = tmp_path / "prog.mlir"
    text.write_text("func.func @main() { return }\n")
    with pytest.raises(
        sluice.ArtifactError, match="is not a Sluice artifact.*not an ELF"
    ):
        sluice.load(text)
    # A shared object that is not an artifact: the extension module.
    ext = sluice._sluice.__file__
    with pytest.raises(
        sluice.ArtifactError, match="not a Sluice artifact, or a truncated one"
    ):
        sluice.load(ext)
    # An ELF file without the seal of an artifact.
    broken = tmp_path / "broken.so"
    broken.write_bytes(b"\x7fELF" + b"\0" * 60)
    with pytest.raises(
        sluice.ArtifactError, match="does not end with the seal"
    ):
        sluice.load(broken)
    assert issubclass(sluice.ArtifactError, sluice.SluiceError)
    assert issubclass(sluice.ArtifactError, ValueError)


_DAMAGED_CHILD = """
import sys, sluice
try:
    sluice.load(sys.argv[1])
except sluice.ArtifactError as e:
    print("ArtifactError:", e)
    sys.exit(3)
print("loaded")
"""


@needs_compiler
def test_damaged_artifacts_raise(device, tmp_path):
    # Truncated and overwritten artifacts raise ArtifactError before the
    # dynamic loader maps them (before: SIGBUS in dlopen, or SIGSEGV when
    # an entry ran). Loaded in a child process, so that a regression is a
    # failed test and not a dead test run.
    x = sluice.arange(4, dtype=np.int32, device=device)
    path = tmp_path / "good.so"
    sluice.jit(lambda v: v + 1).lower(x).save(path, name="g")
    data = path.read_bytes()
    n = len(data)
    damaged = {
        "t10": (data[: n // 10], "truncated one"),
        "t50": (data[: n // 2], "truncated one"),
        "o8": (
            data[: n // 3] + b"\xff" * 8 + data[n // 3 + 8 :],
            "damaged Sluice artifact",
        ),
        "elf": (data[:40] + b"\0" * 8 + data[48:], "damaged Sluice artifact"),
    }
    for name, (content, message) in damaged.items():
        bad = tmp_path / f"{name}.so"
        bad.write_bytes(content)
        r = subprocess.run(
            [sys.executable, "-c", _DAMAGED_CHILD, str(bad)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert r.returncode == 3, (name, r.returncode, r.stdout, r.stderr)
        assert message in r.stdout and str(bad) in r.stdout, r.stdout
        with pytest.raises(sluice.ArtifactError, match=message):
            sluice.load(bad)
    np.testing.assert_array_equal(_np(sluice.load(path)(x)), [1, 2, 3, 4])


# --- compile here, run there -------------------------------------------------


def _device_dir(root, device):
    return os.path.join(
        root, re.sub(r"[^A-Za-z0-9]", "_", device.filter_string)
    )


@pytest.mark.skipif(
    not os.environ.get("SLUICE_TEST_EXPORT_DIR"),
    reason="set SLUICE_TEST_EXPORT_DIR to export artifacts",
)
@needs_compiler
@needs_cli
def test_deploy_export(device, tmp_path):
    out = _device_dir(os.environ["SLUICE_TEST_EXPORT_DIR"], device)
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(7)
    a = rng.standard_normal((4, 33)).astype(np.float32)
    b = rng.standard_normal((4, 33)).astype(np.float32)

    @sluice.jit
    def blend(x, y, t):
        z = x * t + y * (1 - t)
        return sluice.exp(-z * z), sluice.sum(z, axis=0)

    x = sluice.asarray(a, device=device)
    y = sluice.asarray(b, device=device)
    blend.lower(x, y, 0.25).save(os.path.join(out, "blend.so"))
    e, s = blend(x, y, 0.25)
    np.savez(os.path.join(out, "blend.npz"), a=a, b=b, e=_np(e), s=_np(s))
    cli = _compile_cli(tmp_path, _two_entries(device.filter_string))
    os.replace(cli, os.path.join(out, "two.so"))


@pytest.mark.skipif(
    not os.environ.get("SLUICE_TEST_IMPORT_DIR"),
    reason="set SLUICE_TEST_IMPORT_DIR to run exported artifacts",
)
def test_deploy_import(device):
    src = _device_dir(os.environ["SLUICE_TEST_IMPORT_DIR"], device)
    if not os.path.isdir(src):
        pytest.skip(f"nothing exported for {device.filter_string}")
    data = np.load(os.path.join(src, "blend.npz"))
    blend = sluice.load(os.path.join(src, "blend.so"))
    e, s = blend(data["a"], sluice.asarray(data["b"], device=device), 0.25)
    # The expected values may come from another device (artifacts retargeted
    # with save(device=...)): exp and the sum's order may differ by an ulp
    # or two.
    np.testing.assert_allclose(_np(e), data["e"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(_np(s), data["s"], rtol=1e-5, atol=1e-6)
    axpy = sluice.load(os.path.join(src, "two.so"), "axpy")
    # (No sluice.arange: without the compiler only copies work.)
    x = sluice.asarray(np.arange(5, dtype=np.float32), device=device)
    np.testing.assert_array_equal(_np(axpy(2.0, x, x)), 3 * np.arange(5))
    with pytest.raises(sluice.ArtifactError, match="several entry points"):
        sluice.load(os.path.join(src, "two.so"))
    if not HAS_COMPILER:
        with pytest.raises(sluice.CompileError, match="no compiler"):
            sluice.jit(lambda v: v + 1)(x)
