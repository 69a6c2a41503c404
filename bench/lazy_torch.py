"""PyTorch peers of bench/lazy.py's programs: eager and torch.compile.

The same mathematics as the dpnp-style programs of bench/lazy.py, written
with PyTorch's names (`dim=`, `keepdim=`), on the CUDA device of the run.
`torch.compile` gets each program's step as one function (for the Jacobi
stencil: one iteration, called 100 times, as its user would write it);
its compile time is excluded (the first, untimed call).

    columns(labels, reps, time_run) -> {"torch": {...}, "torch.compile":
    {...}} (a peer that cannot run is left out, with a printed reason)
"""

import numpy as np


def _black_scholes(torch, dev, n):
    rng = np.random.default_rng(1)

    def make(a):
        return torch.from_numpy(a.astype(np.float32)).to(dev)

    price = make(rng.uniform(10, 50, n))
    strike = make(rng.uniform(10, 50, n))
    t = make(rng.uniform(1, 2, n))
    rate, vol = 0.1, 0.2

    def step(price, strike, t):
        p_s = torch.log(price / strike)
        b = t * rate
        z = t * (vol * vol * 2.0)
        c = 0.25 * z
        y = torch.true_divide(1.0, torch.sqrt(z))
        w1 = (p_s - b + c) * y
        w2 = (p_s - b - c) * y
        d1 = 0.5 + 0.5 * torch.tanh(w1 * 0.7071067811865476)
        d2 = 0.5 + 0.5 * torch.tanh(w2 * 0.7071067811865476)
        se = torch.exp(b) * strike
        call = price * d1 - se * d2
        return call, call - price + se

    return step, (price, strike, t), 1


def _jacobi(torch, dev, n):
    u = torch.zeros((n, n), dtype=torch.float32, device=dev)
    u[0, :] = 1.0

    def step(u):
        u[1:-1, 1:-1] = 0.25 * (
            u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
        )
        return u

    return step, (u,), 100


def _pairwise(torch, dev, n):
    rng = np.random.default_rng(2)
    pts = torch.from_numpy(rng.standard_normal((n, 3)).astype(np.float32))
    pts = pts.to(dev)

    def step(pts):
        d = pts[:, None, :] - pts[None, :, :]
        return torch.sqrt((d * d).sum(dim=-1))

    return step, (pts,), 1


def _softmax(torch, dev, rows, cols):
    rng = np.random.default_rng(3)
    x = torch.from_numpy(
        rng.standard_normal((rows, cols)).astype(np.float32)
    ).to(dev)

    def step(x):
        m = x.max(dim=1, keepdim=True).values
        e = torch.exp(x - m)
        return e / e.sum(dim=1, keepdim=True)

    return step, (x,), 1


PROGRAMS = {
    "black-scholes 2^20": (_black_scholes, (1 << 20,)),
    "black-scholes 2^12": (_black_scholes, (1 << 12,)),
    "jacobi 61x61 x100": (_jacobi, (61,)),
    "jacobi 1024x1024 x100": (_jacobi, (1024,)),
    "pairwise 256x3": (_pairwise, (256,)),
    "pairwise 2048x3": (_pairwise, (2048,)),
    "softmax 64x64": (_softmax, (64, 64)),
    "softmax 4096x256": (_softmax, (4096, 256)),
    "softmax 1024x1024": (_softmax, (1024, 1024)),
}


def _column(torch, labels, reps, time_run, compiled):
    out = {}
    for label in labels:
        if label not in PROGRAMS:
            continue
        make, args = PROGRAMS[label]
        step, operands, times = make(torch, "cuda", *args)
        if compiled:
            step = torch.compile(step)

        def run(step=step, operands=operands, times=times):
            for _ in range(times):
                step(*operands)
            torch.cuda.synchronize()

        out[label] = time_run(run, reps)
    return out


def columns(labels, reps, time_run):
    try:
        import torch
    except ImportError as e:
        print(f"torch peers left out: {e}")
        return {}
    if not torch.cuda.is_available():
        print("torch peers left out: no CUDA device")
        return {}
    cols = {"torch": _column(torch, labels, reps, time_run, False)}
    try:
        cols["torch.compile"] = _column(torch, labels, reps, time_run, True)
    except Exception as e:  # noqa: BLE001 - Inductor may be unavailable
        print(f"torch.compile peer left out: {type(e).__name__}: {e}")
    return cols
