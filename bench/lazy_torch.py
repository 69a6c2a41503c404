"""PyTorch peers of bench/lazy.py's programs: eager and torch.compile.

Black-Scholes and the Jacobi stencil are bench/lazy.py's own programs run
with `torch` as the array module; pairwise distances and the softmax are
written here with PyTorch's reductions (`dim=`, `keepdim=`, `amax`). Each
program exposes one step (`run.step`, repeated `run.repeat` times per run):
`torch.compile` gets that step as one function, as its user would write it,
and its compile time is excluded (the first, untimed run).

    columns(labels, reps, time_run, programs) -> {"torch": {...},
    "torch.compile": {...}} (a peer that cannot run is left out, with a
    printed reason); `programs` maps a label to bench/lazy.py's
    (function, args).
"""

import types

import numpy as np


def _pairwise(torch, make, sync, n):
    rng = np.random.default_rng(2)
    pts = make(rng.standard_normal((n, 3)).astype(np.float32))

    def step():
        d = pts[:, None, :] - pts[None, :, :]
        return torch.sqrt((d * d).sum(dim=-1))

    def run():
        step()
        sync()

    run.step, run.repeat = step, 1
    return run, None


def _softmax(torch, make, sync, rows, cols):
    rng = np.random.default_rng(3)
    x = make(rng.standard_normal((rows, cols)).astype(np.float32))

    def step():
        e = torch.exp(x - torch.amax(x, dim=1, keepdim=True))
        return e / e.sum(dim=1, keepdim=True)

    def run():
        step()
        sync()

    run.step, run.repeat = step, 1
    return run, None


def _namespace(torch):
    """The names bench/lazy.py's programs call, from PyTorch (its
    true_divide takes no Python number as the dividend)."""
    names = {n: getattr(torch, n) for n in ("log", "sqrt", "tanh", "exp")}
    return types.SimpleNamespace(true_divide=lambda a, b: a / b, **names)


def _column(torch, labels, reps, time_run, programs, compiled):
    def make(a):
        return torch.from_numpy(a).to("cuda")

    xp = _namespace(torch)

    out = {}
    for label in labels:
        prog, args = programs[label]
        module = xp
        if label.startswith(("pairwise", "softmax")):
            prog = _pairwise if label.startswith("pairwise") else _softmax
            module = torch
        run, _ = prog(module, make, torch.cuda.synchronize, *args)
        if compiled:
            step, times = torch.compile(run.step), run.repeat

            def run(step=step, times=times):
                for _ in range(times):
                    step()
                torch.cuda.synchronize()

        out[label] = time_run(run, reps)
    return out


def columns(labels, reps, time_run, programs):
    try:
        import torch
    except ImportError as e:
        print(f"torch peers left out: {e}")
        return {}
    if not torch.cuda.is_available():
        print("torch peers left out: no CUDA device")
        return {}
    cols = {}
    for name, compiled in (("torch", False), ("torch.compile", True)):
        try:
            cols[name] = _column(
                torch, labels, reps, time_run, programs, compiled
            )
        except Exception as e:  # noqa: BLE001 - Inductor may be missing
            print(f"{name} peer left out: {type(e).__name__}: {e}")
    return cols
