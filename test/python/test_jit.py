"""@sluice.jit: tracing, caching, placement errors, lowering."""

import inspect
import os

import numpy as np
import pytest

import sluice
from sluice import _compiler

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def _line_of(fn, text):
    """The source line number in fn's file that contains `text`."""
    lines, start = inspect.getsourcelines(fn)
    for i, line in enumerate(lines):
        if text in line:
            return start + i
    raise AssertionError(text)


def _np(x):
    return sluice.asnumpy(x)


def test_jit_matches_numpy(device):
    @sluice.jit
    def f(a, b):
        return sluice.sqrt(a * a + b * b) - sluice.exp(-a) * 0.5

    a = np.linspace(-1, 1, 50, dtype=np.float32)
    b = np.linspace(0, 2, 50, dtype=np.float32)
    r = f(sluice.asarray(a, device=device), sluice.asarray(b, device=device))
    assert isinstance(r, sluice.Array)
    assert r.dtype == np.float32 and r.sycl_device == device
    np.testing.assert_allclose(
        _np(r),
        np.sqrt(a * a + b * b) - np.exp(-a) * np.float32(0.5),
        rtol=2e-5,
    )


def test_second_call_does_not_recompile_but_new_shape_does(device):
    calls = []

    @sluice.jit
    def f(x):
        calls.append(1)
        return x * 2 + 1

    x = sluice.arange(10, dtype=np.float32, device=device)
    compiled = (
        _compiler.stats["compiled"]
        + _compiler.stats["disk"]
        + _compiler.stats["memory"]
    )
    np.testing.assert_array_equal(_np(f(x)), np.arange(10) * 2 + 1)
    assert f.trace_count == 1 and len(calls) == 1
    after_first = (
        _compiler.stats["compiled"]
        + _compiler.stats["disk"]
        + _compiler.stats["memory"]
    )
    assert after_first == compiled + 1
    y = sluice.arange(10, 20, dtype=np.float32, device=device)
    np.testing.assert_array_equal(_np(f(y)), np.arange(10, 20) * 2 + 1)
    assert f.trace_count == 1 and len(calls) == 1  # same signature
    assert (
        _compiler.stats["compiled"]
        + _compiler.stats["disk"]
        + _compiler.stats["memory"]
        == after_first
    )  # no compiler at all
    z = sluice.arange(7, dtype=np.float32, device=device)
    np.testing.assert_array_equal(_np(f(z)), np.arange(7) * 2 + 1)
    assert f.trace_count == 2 and f.cache_size == 2  # new shape
    f(x.astype(np.int32))
    assert f.trace_count == 3  # new dtype
    f(x.to_device(sluice.Queue(device)))
    assert f.trace_count == 4  # new queue
    f(sluice.asarray(x, usm_type="shared"))
    assert f.trace_count == 5  # new USM kind


def test_python_scalars_are_dynamic_and_weak(device):
    @sluice.jit
    def axpy(a, x, y):
        return a * x + y

    x = sluice.ones(8, dtype=np.float32, device=device)
    y = sluice.arange(8, dtype=np.float32, device=device)
    r = axpy(2.0, x, y)
    assert r.dtype == np.float32  # the Python float follows the array
    np.testing.assert_array_equal(_np(r), 2 * np.ones(8) + np.arange(8))
    r = axpy(-3.5, x, y)
    np.testing.assert_array_equal(_np(r), -3.5 + np.arange(8))
    assert axpy.trace_count == 1  # the value is not part of the signature
    r = axpy(3, x, y)  # an int is another signature, same dtype result
    assert r.dtype == np.float32 and axpy.trace_count == 2
    np.testing.assert_array_equal(_np(r), 3 + np.arange(8))


def test_numpy_scalars_keep_their_dtype(device):
    if not device.has_aspect_fp64:
        pytest.skip("needs float64")

    @sluice.jit
    def f(x, s):
        return x + s

    x = sluice.ones(3, dtype=np.float32, device=device)
    r = f(x, np.float64(0.25))
    assert r.dtype == np.float64
    np.testing.assert_array_equal(_np(r), np.full(3, 1.25))
    r = f(x, np.int8(2))
    assert r.dtype == np.float32


def test_scalar_arithmetic_inside(device):
    @sluice.jit
    def f(x, a, b):
        return x * (a - b) + a / 2 - (-b)

    x = sluice.ones(4, dtype=np.float32, device=device)
    np.testing.assert_allclose(_np(f(x, 3, 1)), np.full(4, 2 + 1.5 + 1))
    np.testing.assert_allclose(_np(f(x, 2.5, 0.5)), np.full(4, 2 + 1.25 + 0.5))


def test_static_arguments(device):
    @sluice.jit(static_argnums=(1,), static_argnames=("axis",))
    def f(x, n, axis=0):
        return (x * n).sum(axis=axis) if n > 1 else x.sum(axis=axis)

    x = sluice.ones((2, 3), dtype=np.float32, device=device)
    np.testing.assert_array_equal(_np(f(x, 2)), np.full(3, 4.0))
    np.testing.assert_array_equal(_np(f(x, 1, axis=1)), np.full(2, 3.0))
    np.testing.assert_array_equal(_np(f(x, 3, axis=1)), np.full(2, 9.0))
    assert f.trace_count == 3
    f(x, 3, axis=1)
    assert f.trace_count == 3
    with pytest.raises(TypeError, match="not hashable"):
        f(x, [1])
    with pytest.raises(ValueError, match="no parameter"):
        sluice.jit(lambda x: x, static_argnames="y")
    with pytest.raises(ValueError, match="out of range"):
        sluice.jit(lambda x: x, static_argnums=3)


def test_data_dependent_control_flow_is_an_error(device):
    @sluice.jit
    def f(x, t):
        if t > 0:
            return x
        return -x

    x = sluice.ones(3, device=device)
    with pytest.raises(sluice.TracerError, match="static_argnums"):
        f(x, 1)

    @sluice.jit
    def g(x):
        return float(x.sum())

    with pytest.raises(sluice.TracerError):
        g(x)

    @sluice.jit
    def h(x):
        return sluice.asnumpy(x)

    with pytest.raises(sluice.TracerError, match="asnumpy"):
        h(x)

    @sluice.jit
    def k(x):
        x[x > 0] = x * 2  # needs as many values as true elements
        return x

    with pytest.raises(sluice.TracerError, match="depends on the data"):
        k(x)

    @sluice.jit
    def s(x):
        return x[x > 0]

    with pytest.raises(sluice.TracerError, match="depends on the data"):
        s(x)

    @sluice.jit
    def n(x):
        return np.sin(x)

    with pytest.raises(TypeError):
        n(x)


def test_output_structures(device):
    @sluice.jit
    def f(x, y):
        s = x + y
        return {
            "sum": s,
            "pair": (s, x * 2),
            "in": y,
            "const": 7,
            "none": None,
        }

    x = sluice.ones(3, dtype=np.int32, device=device)
    y = sluice.arange(3, dtype=np.int32, device=device)
    r = f(x, y)
    assert r["in"] is y and r["const"] == 7 and r["none"] is None
    assert r["pair"][0] is r["sum"]
    np.testing.assert_array_equal(_np(r["sum"]), [1, 2, 3])
    np.testing.assert_array_equal(_np(r["pair"][1]), [2, 2, 2])


def test_identity_returns_the_argument(device):
    f = sluice.jit(lambda x: x)
    x = sluice.ones(2, device=device)
    assert f(x) is x


def test_list_and_dict_arguments(device):
    @sluice.jit
    def f(xs, opts):
        return xs[0] * opts["scale"] + xs[1]

    a = sluice.ones(3, dtype=np.float32, device=device)
    b = sluice.arange(3, dtype=np.float32, device=device)
    np.testing.assert_array_equal(_np(f([a, b], {"scale": 2.0})), [2, 3, 4])


def test_numpy_arguments_go_to_the_array_queue(device):
    @sluice.jit
    def f(x, n):
        return x + n

    x = sluice.ones(3, dtype=np.float32, device=device)
    r = f(x, np.arange(3, dtype=np.float32))
    assert r.sycl_queue is x.sycl_queue
    np.testing.assert_array_equal(_np(r), [1, 2, 3])
    r = f(x, np.arange(3, 6, dtype=np.float32))
    np.testing.assert_array_equal(_np(r), [4, 5, 6])
    assert f.trace_count == 1


def test_captured_arrays(device):
    w = sluice.arange(4, dtype=np.float32, device=device)

    @sluice.jit
    def f(x):
        return x * w + 1.0

    x = sluice.ones(4, dtype=np.float32, device=device)
    np.testing.assert_array_equal(_np(f(x)), np.arange(4) + 1)
    w[0] = 10.0  # captured by reference: the update is seen
    np.testing.assert_array_equal(_np(f(x)), [11, 2, 3, 4])


def test_creation_and_shape_ops_inside(device):
    @sluice.jit
    def f(x):
        n = x.shape[0]
        r = sluice.arange(n, dtype=x.dtype, device=x.device)
        z = sluice.zeros((2, n), dtype=x.dtype, device=x.device)
        o = sluice.full((n,), 3, dtype=x.dtype, device=x.device)
        m = (z + r).T.reshape(2, n) + o
        b = sluice.broadcast_to(x, (2, n))
        return (
            m + b,
            sluice.where(x > 1, x, 0).max(),
            m.sum(axis=0, keepdims=True),
        )

    a = np.arange(4, dtype=np.float32)
    x = sluice.asarray(a, device=device)
    m, mx, s = f(x)
    z = np.zeros((2, 4), np.float32) + np.arange(4, dtype=np.float32)
    em = z.T.reshape(2, 4) + 3
    np.testing.assert_array_equal(_np(m), em + np.broadcast_to(a, (2, 4)))
    assert float(mx) == 3.0
    np.testing.assert_array_equal(_np(s), em.sum(axis=0, keepdims=True))


def test_unsigned_constants_and_scalars(device):
    @sluice.jit
    def f(x, s):
        return (x + 3) * s - x // 2

    a = np.array([1, 200, 4000000000], dtype=np.uint32)
    x = sluice.asarray(a, device=device)
    np.testing.assert_array_equal(
        _np(f(x, np.uint32(2))), (a + np.uint32(3)) * np.uint32(2) - a // 2
    )
    np.testing.assert_array_equal(
        _np(f(x, 2)), (a + np.uint32(3)) * np.uint32(2) - a // 2
    )


def test_nested_jit_inlines(device):
    inner = sluice.jit(lambda x: x * 2)

    @sluice.jit
    def outer(x):
        return inner(x) + 1

    x = sluice.ones(3, device=device)
    np.testing.assert_array_equal(_np(outer(x)), [3, 3, 3])
    assert inner.trace_count == 0


def test_placement_error_points_at_the_source_line(device):
    q1, q2 = sluice.Queue(device), sluice.Queue(device)

    @sluice.jit
    def f(x, y):
        z = x * 2
        return z + y  # the bad line

    x = sluice.ones(3, sycl_queue=q1)
    y = sluice.ones(3, sycl_queue=q2)
    with pytest.raises(sluice.ExecutionPlacementError) as info:
        f(x, y)
    line = _line_of(f.__wrapped__, "the bad line")
    file, at, col = info.value.location
    assert file == __file__ and at == line and col > 1
    msg = str(info.value)
    assert msg.startswith(f"{__file__}:{line}:")
    assert (
        "Execution placement can not be unambiguously inferred from "
        "input arguments." in msg
    )
    assert q1.name in msg and q2.name in msg


def test_migration_inside_jit(device, host):
    @sluice.jit
    def f(x):
        y = (x + 1).to_device(host)
        return y * 2, x

    x = sluice.arange(5, dtype=np.float32, device=device)
    y, same = f(x)
    assert y.sycl_device == host and same is x
    np.testing.assert_array_equal(_np(y), (np.arange(5) + 1) * 2)


def test_lower_shows_the_ir(device):
    @sluice.jit
    def f(a, b):
        c = a * b + 1.0
        return sluice.exp(c) - a, c.sum()

    x = sluice.ones((4, 4), dtype=np.float32, device=device)
    lowered = f.lower(x, x)
    text = lowered.as_text()
    assert "func.func @main(" in text and "usm.mul" in text
    assert "usm.exp" in text and "usm.sum" in text
    assert f'"{device.filter_string}"' in text
    assert "loc(" not in text
    with_locs = lowered.as_text(locations=True)
    assert f'loc("{__file__}":' in with_locs
    fused = lowered.as_text("fused")
    assert "usm.fused" in fused
    report = lowered.fusion_report()
    assert report.startswith("fused group #1 on queue")
    assert "usm.mul" in report and "usm.exp" in report
    assert "func.func" in lowered.as_text(
        "kernels"
    ) or "gpu.module" in lowered.as_text("kernels")
    assert "llvm.func" in lowered.as_text("llvm")
    with pytest.raises(ValueError, match="unknown stage"):
        lowered.as_text("assembly")
    assert f.trace_count == 1 and f.cache_size == 0  # lowering only


def test_fusion_can_be_turned_off(device):
    def body(a):
        return sluice.sin(a) * 2 + a

    x = sluice.ones(8, dtype=np.float32, device=device)
    fused = sluice.jit(body).lower(x).fusion_report()
    unfused = sluice.jit(body, fusion=False).lower(x).fusion_report()
    assert "3 array ops" in fused
    assert unfused.startswith("no fused groups")
    np.testing.assert_allclose(
        _np(sluice.jit(body, fusion=False)(x)),
        np.sin(np.ones(8, np.float32)) * 2 + 1,
        rtol=1e-6,
    )


def test_disk_cache(device, fresh_cache):
    def body(a):
        return a * 3.0 - 1.0

    x = sluice.ones(5, dtype=np.float32, device=device)
    # Writes still pending from earlier calls must not count below.
    _compiler.flush_cache_writes()
    before = dict(_compiler.stats)
    f = sluice.jit(body)
    np.testing.assert_array_equal(_np(f(x)), np.full(5, 2.0))
    assert _compiler.stats["compiled"] == before.get("compiled", 0) + 1
    _compiler.flush_cache_writes()  # artifacts are written in background
    assert _compiler.stats["written"] == before.get("written", 0) + 1
    # One program artifact; device kernels' objects (CUDA) are kept apart,
    # under ptx/ (docs/runtime.md, SLUICE_KERNEL_CACHE).
    files = [
        os.path.join(d, n)
        for d, _, ns in os.walk(fresh_cache)
        for n in ns
        if os.path.relpath(d, fresh_cache).split(os.sep)[0] != "ptx"
    ]
    assert len(files) == 1 and files[0].endswith(".so")
    # A new process would find it: forget what is in memory.
    _compiler._entries.clear()
    g = sluice.jit(body)
    np.testing.assert_array_equal(_np(g(x)), np.full(5, 2.0))
    assert _compiler.stats["compiled"] == before.get("compiled", 0) + 1
    assert _compiler.stats["disk"] == before.get("disk", 0) + 1
    # A damaged cache entry is compiled again (damage one this process
    # has not loaded: a loaded artifact stays mapped).
    h = sluice.jit(lambda a: a * 4.0)
    keytext = h.lower(x).as_text()
    flags = _compiler.DEFAULT_FLAGS + _compiler.program_flags(keytext)
    path = _compiler._artifact_path(_compiler._key(keytext, flags))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(b"not an artifact")
    np.testing.assert_array_equal(_np(h(x)), np.full(5, 4.0))
    assert _compiler.stats["compiled"] == before.get("compiled", 0) + 2
    _compiler.flush_cache_writes()
    assert os.path.getsize(path) > 1000


def test_disk_cache_off(device, monkeypatch):
    monkeypatch.setenv("SLUICE_CACHE_DIR", "off")
    assert _compiler.cache_dir() is None
    _compiler._entries.clear()
    f = sluice.jit(lambda a: a - 0.125)
    x = sluice.ones(2, dtype=np.float32, device=device)
    np.testing.assert_array_equal(_np(f(x)), [0.875, 0.875])


def test_compiler_diagnostics_carry_locations():
    bad = (
        'func.func @main(%x: !usm.array<4xf32, "host:cpu:0", device>) '
        "-> () {\n  %y = usm.frobnicate %x\n  return\n}\n"
    )
    with pytest.raises(sluice.CompileError) as info:
        _compiler.compile_text(bad, bad, name="bad.mlir")
    d = info.value.diagnostics[0]
    assert d.severity == "error" and d.location[0] == "bad.mlir"
    assert d.location[1] == 2
    assert "bad.mlir:2:" in str(info.value)
    placed = (
        'func.func @main(%x: !usm.array<4xf32, "host:cpu:0", device>, '
        '%y: !usm.array<4xf32, "host:cpu:0"("other"), device>) -> '
        '!usm.array<4xf32, "host:cpu:0", device> {\n'
        '  %z = usm.add %x, %y : (!usm.array<4xf32, "host:cpu:0", device>, '
        '!usm.array<4xf32, "host:cpu:0"("other"), device>) -> '
        '!usm.array<4xf32, "host:cpu:0", device> loc("user.py":12:7)\n'
        '  return %z : !usm.array<4xf32, "host:cpu:0", device>\n}\n'
    )
    with pytest.raises(sluice.ExecutionPlacementError) as info:
        _compiler.compile_text(placed, placed, name="placed")
    assert info.value.location == ("user.py", 12, 7)
    assert "user.py:12:7" in str(info.value)


def test_jit_keyword_arguments(device):
    @sluice.jit
    def f(x, *, scale=1.0, **extra):
        return x * scale + extra.get("shift", 0.0)

    x = sluice.ones(2, dtype=np.float32, device=device)
    np.testing.assert_array_equal(_np(f(x, scale=2.0)), [2, 2])
    np.testing.assert_array_equal(_np(f(x, scale=2.0, shift=1.0)), [3, 3])
    assert f.__name__ == "f"


def test_tiny_static_host_programs():
    """Host programs whose arrays are static and tiny compile at -O0."""
    t = _compiler.tiny_static_host
    host = '"host:cpu:0", device>'
    assert t(f"!usm.array<16xf32, {host} !usm.array<f32, {host}")
    assert t(f"!usm.array<4x5xcomplex<f32>, {host}")
    assert t(f"!usm.array<{_compiler.TINY_STATIC_ELEMENTS}xi8, {host}")
    assert not t(f"!usm.array<{_compiler.TINY_STATIC_ELEMENTS + 1}xi8, {host}")
    assert not t(f"!usm.array<16xf32, {host} !usm.array<4x?xf32, {host}")
    assert not t(f"!usm.array<16x16x2xf32, {host}")
    assert not t('!usm.array<16xf32, "cuda:gpu:0", device>')
    assert not t('!usm.array<16xf32, "opencl:cpu:0", device>')
    assert not t("func.func @main() {}")


@pytest.mark.parametrize("n", [16, 4096])
def test_jit_tiny_and_large_static(device, fresh_cache, n):
    """A static 16-element program (at -O0 on the host) and a larger one
    (-O3) give NumPy's results."""
    seen = []
    compile_text = _compiler.compile_text

    def spy(text, keytext, flags=(), name="program"):
        seen.append(tuple(flags))
        return compile_text(text, keytext, flags, name)

    @sluice.jit
    def f(a, b):
        t = sluice.tanh(a * b + 1.5) * sluice.exp(b) - a / (b + 3.0)
        return t + sluice.sqrt(sluice.abs(a)) * 2.0

    a = np.linspace(-1, 1, n, dtype=np.float32)
    b = np.linspace(0, 2, n, dtype=np.float32)
    _compiler.compile_text = spy
    try:
        r = f(
            sluice.asarray(a, device=device), sluice.asarray(b, device=device)
        )
    finally:
        _compiler.compile_text = compile_text
    t = np.tanh(a * b + 1.5) * np.exp(b) - a / (b + 3)
    np.testing.assert_allclose(
        _np(r), t + np.sqrt(np.abs(a)) * 2, rtol=1e-5, atol=1e-6
    )
    host = str(device).startswith("host")
    tiny = host and n <= _compiler.TINY_STATIC_ELEMENTS
    assert seen and (("-O0" in seen[-1]) == tiny)


def test_stage_names_come_from_the_compiler():
    """sluice._compiler.STAGES is the compiler's table
    (sluiceCompileStageName), in pipeline order; lowering takes each name
    and rejects others."""
    from sluice import _compiler

    names = list(_compiler.STAGES)
    assert list(_compiler.STAGES.values()) == list(range(len(names)))
    assert names[0] == "input" and names[-1] == "llvm"
    assert {"placed", "fused", "kernels", "binaries"} <= set(names)

    @sluice.jit
    def f(a):
        return a * 2.0

    x = sluice.ones(4, dtype=np.float32)
    for stage in names:
        assert f.lower(x).as_text(stage)
    with pytest.raises(ValueError, match="unknown stage"):
        f.lower(x).as_text("nowhere")
