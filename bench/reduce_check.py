#!/usr/bin/env python3
"""Full reductions on a CUDA device against NumPy, for the GPU machine
(no compiler there): runs the artifact of bench/gpu-reductions.mlir
(`sluice-compile --device=cuda:gpu:0`) through the runtime's C API.

    python3 bench/reduce_check.py LIBRUNTIME ARTIFACT [--other ARTIFACT]

For every element type and a range of lengths (empty, shorter than a
workgroup's slice, not multiples of the vector width, many slices), each
reduction is compared with NumPy, called three times and required to give
the same bits every time; with --other, the results of a second artifact
(an earlier build's) are compared bit for bit too. Then reductions on two
queues of the device at once (@two_queues: each queue counts the workgroups
of its single-launch reductions in its own word), and the same entry called
from two threads at once, every result against NumPy and bit for bit against
the first call. Prints one line per problem and a summary; exits non-zero
when anything failed.
"""

import argparse
import os
import sys
import threading

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sluice_artifact import Artifact, Runtime, SluiceError  # noqa: E402

SIZES = [0, 1, 3, 1000, 2047, 2048, 2049, 8191, 65537, 1000003, 2**22 + 7]
BIG = 2**24 + 1  # f32 and i32 only (the benchmark's range)
OPS = {
    "f32": "sum prod max min",
    "f64": "sum prod max min",
    "f16": "sum max min",
    "i32": "sum prod max min",
    "i64": "sum prod max min",
    "i8": "sum max min",
    "i1": "max min",
}
NP = {
    "f32": np.float32,
    "f64": np.float64,
    "f16": np.float16,
    "i32": np.int32,
    "i64": np.int64,
    "i8": np.int8,
    "i1": np.bool_,
}


def inputs(t, n, rng):
    if t in ("f32", "f64"):
        return rng.uniform(0.999, 1.001, n).astype(NP[t])
    if t == "f16":
        return rng.uniform(-1, 1, n).astype(np.float16)
    if t in ("i32", "i64"):
        x = rng.integers(-1000, 1000, n).astype(NP[t])
        # Products: mostly 1 and -1, a few 2s and 3s (wrapping is exact).
        return x
    if t == "i8":
        return rng.integers(-128, 128, n).astype(np.int8)
    # i1: mostly true, so that `all` is not always false.
    return rng.random(n) < (1.0 if n % 2 else 0.9999)


def prod_input(t, x, rng):
    if t in ("i32", "i64"):
        return rng.choice(np.array([1, -1, 1, 1, 2, 3], dtype=NP[t]), x.size)
    return x


def reference(t, op, x):
    if op == "sum":
        if t in ("f32", "f64", "f16"):
            return np.sum(x.astype(np.float64))
        return np.sum(x.astype(np.int64))
    if op == "prod":
        if t in ("f32", "f64"):
            return np.prod(x.astype(np.float64))
        return np.prod(x.astype(np.int64))
    if x.size == 0:
        return None
    if t == "i1":
        return np.any(x) if op == "max" else np.all(x)
    return np.max(x) if op == "max" else np.min(x)


def close(t, op, got, ref, x):
    if ref is None:
        return True
    got = np.asarray(got).reshape(())
    if op in ("max", "min") or t not in ("f32", "f64", "f16"):
        return bool(got == ref) if t != "f16" else float(got) == float(ref)
    g = float(got)
    if t == "f16":
        return abs(g - ref) <= 1e-2 * np.sum(np.abs(x.astype(np.float64))) + 1
    rtol = {"f32": 1e-5, "f64": 1e-12}[t]
    if op == "prod":
        # Products of millions of f32 values near 1 drift: the tree of
        # lane accumulators and partials (16 per work-item, 256 work-items,
        # up to 1024 workgroups), emulated in NumPy on the same input, is
        # 1.4% off the exact product at n = 2^24 + 1 (each rounding of a
        # product of two values near 1 is not unbiased).
        rtol = {"f32": 3e-2, "f64": 1e-9}[t]
    return abs(g - ref) <= rtol * abs(ref) + 1e-30


def check_concurrent(art, rng, reps):
    """(checks, failures) of @two_queues and of @r_f32 on two threads."""
    checks = failures = 0
    n = [BIG, 2**22 + 7, 1000003, 65537]
    xs = [inputs("f32", n[0], rng), inputs("f32", n[1], rng)]
    xs += [inputs("f64", n[2], rng), inputs("f64", n[3], rng)]
    refs = [np.sum(x.astype(np.float64)) for x in xs]
    first = None
    call = art.prepare("two_queues", xs)
    for rep in range(max(reps, 20)):
        got = [np.asarray(r).copy() for r in call.run()]
        for k, (g, ref) in enumerate(zip(got, refs)):
            checks += 1
            t = "f32" if k < 2 else "f64"
            if not close(t, "sum", g, ref, xs[k]):
                failures += 1
                print(f"FAIL two_queues sum {k} (call {rep}): {g!r}, {ref!r}")
        bits = [g.tobytes() for g in got]
        if first is None:
            first = bits
        elif bits != first:
            failures += 1
            print(f"FAIL two_queues: call {rep} differs from the first")
    call.close()
    # The same entry on two threads at once (one queue, two invocations).
    x = xs[0]
    call = art.prepare("r_f32", [x])
    want = [np.asarray(r).copy().tobytes() for r in call.run()]
    call.close()
    bad = []

    def worker():
        c = art.prepare("r_f32", [x])
        for _ in range(10):
            got = [np.asarray(r).copy().tobytes() for r in c.run()]
            if got != want:
                bad.append(got)
        c.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    checks += 20
    if bad:
        failures += len(bad)
        print(f"FAIL r_f32 on two threads: {len(bad)} of 20 calls differ")
    return checks, failures


def main():
    p = argparse.ArgumentParser()
    p.add_argument("runtime")
    p.add_argument("artifact")
    p.add_argument("--other")
    p.add_argument("--reps", type=int, default=3)
    args = p.parse_args()
    rt = Runtime(args.runtime)
    art = Artifact(rt, args.artifact)
    other = Artifact(rt, args.other) if args.other else None
    rng = np.random.default_rng(25)
    failures, checks, same_as_other = 0, 0, 0
    for t, ops in OPS.items():
        ops = ops.split()
        sizes = SIZES + ([BIG] if t in ("f32", "i32") else [])
        for n in sizes:
            x = inputs(t, n, rng)
            if n == 0:
                # NumPy raises for max and min of nothing: so must Sluice,
                # cleanly.
                call = art.prepare(f"r_{t}", [x])
                checks += 1
                try:
                    call.run()
                    failures += 1
                    print(f"FAIL {t} n=0: max/min of nothing did not fail")
                except SluiceError as e:
                    if "zero-size" not in str(e):
                        failures += 1
                        print(f"FAIL {t} n=0: unexpected error {e}")
                call.close()
                if t == "f32":
                    call = art.prepare("sp_f32", [x])
                    got = call.run()
                    call.close()
                    checks += 1
                    if float(got[0]) != 0.0 or float(got[1]) != 1.0:
                        failures += 1
                        print(f"FAIL sum/prod of nothing: {got}")
                continue
            runs = []
            for _ in range(args.reps):
                call = art.prepare(f"r_{t}", [x])
                runs.append([np.asarray(r).copy() for r in call.run()])
                call.close()
            # Products of integers take their own input.
            if "prod" in ops and t in ("i32", "i64"):
                xp = prod_input(t, x, rng)
                call = art.prepare(f"r_{t}", [xp])
                prod_result = call.run()[ops.index("prod")]
                call.close()
            for k, op in enumerate(ops):
                checks += 1
                got = runs[0][k]
                data = x
                if op == "prod" and t in ("i32", "i64"):
                    got, data = prod_result, xp
                ref = reference(t, op, data)
                if not close(t, op, got, ref, data):
                    failures += 1
                    print(f"FAIL {t} n={n} {op}: got {got!r}, NumPy {ref!r}")
                bits = {runs[j][k].tobytes() for j in range(args.reps)}
                if len(bits) != 1:
                    failures += 1
                    print(
                        f"FAIL {t} n={n} {op}: differs between runs: "
                        f"{[runs[j][k] for j in range(args.reps)]}"
                    )
            if other is not None:
                call = other.prepare(f"r_{t}", [x])
                theirs = [np.asarray(r).copy() for r in call.run()]
                call.close()
                for k, op in enumerate(ops):
                    if theirs[k].tobytes() == runs[0][k].tobytes():
                        same_as_other += 1
                    elif not (op == "prod" and t in ("i32", "i64")):
                        print(
                            f"note {t} n={n} {op}: {runs[0][k]!r} here, "
                            f"{theirs[k]!r} from --other"
                        )
    c, f = check_concurrent(art, rng, args.reps)
    checks += c
    failures += f
    same = f", {same_as_other} results bit-identical to --other"
    print(
        f"reduce_check: {checks} checks, {failures} failures"
        + (same if other else "")
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
