"""Complex elementwise functions on another device, against the host and
NumPy: compile here, run there through the runtime alone, compare here.

    python bench/complex_check.py --prepare DIR [--device cuda:gpu:0]
    # on the device's machine (runtime-only build, see bench/run-gpu.sh):
    python test/python/math_accuracy.py --run-artifacts DIR --runtime LIB
    python bench/complex_check.py --compare DIR

Prints, per function and dtype, the largest normwise relative error
(|result - reference| / |reference|, in units of the dtype's epsilon)
against NumPy in complex128 over the finite references, for the device
and for the host, and how many results differ from the host's in class
(NaN, infinity). Inputs: 4096 points with both parts in +-4 * 10^[-3, 3).
"""

import argparse
import glob
import os

import numpy as np

FUNCS = [
    "exp",
    "log",
    "sqrt",
    "sin",
    "cos",
    "tanh",
    "tan",
    "sinh",
    "cosh",
    "arcsin",
    "arccos",
    "arctan",
    "arcsinh",
    "arccosh",
    "arctanh",
    "exp2",
    "expm1",
    "log2",
    "log10",
    "log1p",
    "reciprocal",
    "sign",
    "rint",
    "square",
]
DTYPES = ("complex64", "complex128")


def prepare(directory, device):
    import sluice

    os.makedirs(directory, exist_ok=True)
    rng = np.random.default_rng(5)
    n = 4096
    for dt in DTYPES:
        re = rng.uniform(-4, 4, n) * 10.0 ** rng.integers(-3, 3, n)
        im = rng.uniform(-4, 4, n) * 10.0 ** rng.integers(-3, 3, n)
        a = (re + 1j * im).astype(dt)
        x = sluice.asarray(a)
        for name in FUNCS:
            fn = getattr(sluice, name)
            f = sluice.jit(lambda z, fn=fn: fn(z))
            case = os.path.join(directory, f"{name}_{dt}")
            f.lower(x).save(case + ".so", device=device)
            np.save(case + "_in0.npy", a)
            np.save(case + "_host.npy", sluice.asnumpy(f(x)))


def compare(directory):
    print(
        f"{'function':10s} {'dtype':10s} {'device':>9s} {'host':>9s} "
        "class differences"
    )
    for out in sorted(glob.glob(os.path.join(directory, "*_out.npy"))):
        case = out[: -len("_out.npy")]
        name, dt = os.path.basename(case).rsplit("_", 1)
        a = np.load(case + "_in0.npy").astype(np.complex128)
        dev, host = np.load(out), np.load(case + "_host.npy")
        with np.errstate(all="ignore"):
            ref = 1 / a if name == "reciprocal" else getattr(np, name)(a)
        fin = np.isfinite(ref)
        eps = np.finfo(np.float32 if dt == "complex64" else np.float64).eps
        mag = np.maximum(np.abs(ref), np.finfo(np.float32).tiny)[fin]

        def err(r):
            e = np.abs(r.astype(np.complex128)[fin] - ref[fin]) / mag / eps
            return float(e.max()) if e.size else 0.0

        cls = int(
            np.sum(
                (np.isnan(dev) != np.isnan(host))
                | (np.isinf(dev) != np.isinf(host))
            )
        )
        print(f"{name:10s} {dt:10s} {err(dev):9.2f} {err(host):9.2f} {cls}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--prepare", metavar="DIR")
    p.add_argument("--device", default="cuda:gpu:0")
    p.add_argument("--compare", metavar="DIR")
    a = p.parse_args()
    if a.prepare:
        prepare(a.prepare, a.device)
    if a.compare:
        compare(a.compare)


if __name__ == "__main__":
    main()
