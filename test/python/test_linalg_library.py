"""Matrix products that a library computes inside @sluice.jit (BLAS on the
host, cuBLAS on CUDA; docs/linalg.md, "Library calls") against NumPy: odd
sizes, batched, broadcast batches, transposed and sliced operands, empty
results, float32/float64/complex, with the elementwise ops around them
fused; on OpenCL the same programs run the generated kernel, and eager
products the tiled workgroup-memory kernel."""

import os
import subprocess
import sys

import numpy as np
import pytest

import sluice

RNG = np.random.default_rng(2121)


def _data(shape, dtype):
    x = RNG.uniform(-1, 1, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.uniform(-1, 1, shape)
    return x.astype(dtype)


def _check(got, expected):
    got = sluice.asnumpy(got)
    expected = np.asarray(expected)
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype
    single = got.dtype in (np.float32, np.complex64)
    np.testing.assert_allclose(
        got,
        expected,
        rtol=1e-4 if single else 1e-11,
        atol=1e-4 if single else 1e-11,
    )


def _dtypes(device, complex_too=True):
    out = ["float32"] + (["float64"] if device.has_aspect_fp64 else [])
    if complex_too:
        out += ["complex64"] + (
            ["complex128"] if device.has_aspect_fp64 else []
        )
    return out


# Every product here does at least library-min-size (4096) multiply-adds,
# except the empty ones.
SHAPES = [
    ((64, 96), (96, 80)),  # a plain product
    ((33, 65), (65, 17)),  # odd sizes
    ((5, 40, 30), (30, 20)),  # a batch against one matrix (stride 0)
    ((1, 40, 30), (6, 30, 20)),  # a broadcast batch of the first operand
    ((4, 40, 30), (4, 30, 20)),  # two batches
    ((2, 1, 24, 32), (3, 32, 16)),  # batch axes that broadcast partly
    ((1, 4096), (4096, 3)),  # one row
    ((0, 96), (96, 80)),  # empty result
]


@pytest.mark.parametrize("sa,sb", SHAPES)
def test_jit_products(device, sa, sb):
    f = sluice.jit(lambda x, y: x @ y)
    for dt in _dtypes(device):
        a, b = _data(sa, dt), _data(sb, dt)
        _check(
            f(
                sluice.asarray(a, device=device),
                sluice.asarray(b, device=device),
            ),
            a @ b,
        )


@pytest.mark.parametrize("sa,sb", SHAPES)
def test_eager_products(device, sa, sb):
    # OpenCL and Level Zero: float32/float64 run the tiled workgroup-memory
    # kernel (_matmul_kernels.py), complex the generated kernel.
    for dt in _dtypes(device):
        a, b = _data(sa, dt), _data(sb, dt)
        x = sluice.asarray(a, device=device)
        y = sluice.asarray(b, device=device)
        _check(x @ y, a @ b)
        _check(sluice.matmul(x[..., ::-1, :], y), a[..., ::-1, :] @ b)


def test_jit_fused_around_the_call(device):
    a, b = _data((64, 96), "float32"), _data((96, 80), "float32")
    bias, mu = _data((80,), "float32"), _data((96,), "float32")
    x, y, c, m = (sluice.asarray(t, device=device) for t in (a, b, bias, mu))

    @sluice.jit
    def layer(x, w, bias):
        return sluice.maximum(x @ w + bias, 0)

    @sluice.jit
    def centred(x, mu, w):
        return (x - mu) @ w

    _check(layer(x, y, c), np.maximum(a @ b + bias, 0))
    _check(centred(x, m, y), (a - mu) @ b)
    report = layer.lower(x, y, c).fusion_report()
    if device.backend.name in ("host", "cuda"):
        # One library call, the bias and the relu one kernel after it.
        assert "not fused: usm.matmul" in report
        assert "(usm.add, usm.maximum)" in report
    else:
        assert "usm.mul, usm.sum, usm.add, usm.maximum" in report


def test_jit_transposed_and_sliced_operands(device):
    for dt in _dtypes(device, complex_too=False):
        p, q = _data((70, 64), dt), _data((50, 64), dt)
        x1 = sluice.asarray(p, device=device)
        x2 = sluice.asarray(q, device=device)

        @sluice.jit
        def dist(x1, x2):  # pairwise distances, the dpnp way
            s1 = sluice.sum(x1 * x1, axis=1)
            s2 = sluice.sum(x2 * x2, axis=1)
            return sluice.sqrt(
                sluice.maximum(s1[:, None] + s2 - 2 * (x1 @ x2.T), 0)
            )

        ref = np.sqrt(
            np.maximum(
                (p * p).sum(1)[:, None] + (q * q).sum(1) - 2 * (p @ q.T), 0
            )
        )
        _check(dist(x1, x2), ref)
        g = sluice.jit(lambda x, y: x[::2, 1:] @ y[1:, ::-1])
        _check(
            g(x1, sluice.asarray(q.T.copy(), device=device)),
            p[::2, 1:] @ q.T[1:, ::-1],
        )


def test_jit_mlp(device):
    x, w1, b1 = (_data(s, "float32") for s in ((64, 128), (128, 96), (96,)))
    w2, b2 = _data((96, 32), "float32"), _data((32,), "float32")
    args = [sluice.asarray(t, device=device) for t in (x, w1, b1, w2, b2)]
    f = sluice.jit(
        lambda x, w1, b1, w2, b2: sluice.maximum(x @ w1 + b1, 0) @ w2 + b2
    )
    _check(f(*args), np.maximum(x @ w1 + b1, 0) @ w2 + b2)


def test_builtin_loops_without_blas(device, tmp_path):
    """SLUICE_BLAS=none: the runtime's own loops give NumPy's results."""
    if device.backend.name != "host":
        pytest.skip("host products only")
    code = (
        "import numpy as np, sluice\n"
        "r = np.random.default_rng(0)\n"
        "a = r.uniform(-1, 1, (3, 37, 45)); b = r.uniform(-1, 1, (45, 29))\n"
        "f = sluice.jit(lambda x, y: x @ y)\n"
        "got = sluice.asnumpy(f(sluice.asarray(a, device='host'),"
        " sluice.asarray(b, device='host')))\n"
        "np.testing.assert_allclose(got, a @ b, rtol=1e-12, atol=1e-12)\n"
        "c = (a[0] + 1j * a[1]).astype(np.complex64)\n"
        "d = (b + 0.5j * b).astype(np.complex64)\n"
        "got = sluice.asnumpy(f(sluice.asarray(c, device='host'),"
        " sluice.asarray(d, device='host')))\n"
        "np.testing.assert_allclose(got, c @ d, rtol=1e-4, atol=1e-4)\n"
        "print('ok')\n"
    )
    env = dict(os.environ, SLUICE_BLAS="none", SLUICE_CACHE_DIR=str(tmp_path))
    r = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


def test_precision_switch_reaches_the_runtime(device, monkeypatch):
    if device.backend.name != "host":
        pytest.skip("once, with the host run")
    from sluice import _products

    monkeypatch.setattr(_products, "_precision", None)
    monkeypatch.setenv("SLUICE_MATMUL_PRECISION", "highest")
    sluice.set_matmul_precision("tf32")
    assert os.environ["SLUICE_MATMUL_PRECISION"] == "tf32"
    sluice.set_matmul_precision("highest")
    assert os.environ["SLUICE_MATMUL_PRECISION"] == "highest"
