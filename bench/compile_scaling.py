"""Scaling of the compiler with program size: elementwise chains through
`usm-fuse-elementwise`, and functions with many arguments through the whole
`sluice-compile` (down to a linked artifact for the host).

    .venv/bin/python bench/compile_scaling.py [--bin build/bin]
        [--chains 5000,10000,20000] [--args 125,250,500,1000,2000]
        [--timeout 120]

Prints the wall time of each run in seconds (one run each: the times are
seconds, not microseconds) and, per series, the ratio of the last time to
the first against the ratio of the sizes: near-linear scaling keeps the two
close. A run over --timeout is reported as such. The default run takes
about half a minute on a 2-core machine.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
A = '!usm.array<1024xf32, "host:cpu:0", device>'


def chain(n):
    """One function: x -> ((x * c0 + c1) * c2 + ...), n ops on one array."""
    lines = [f"func.func @main(%x: {A}, %s: f32) -> {A} {{"]
    prev = "%x"
    for i in range(n):
        op = ("usm.mul", "usm.add", "usm.sub")[i % 3]
        lines.append(f"  %v{i} = {op} {prev}, %s : ({A}, f32) -> {A}")
        prev = f"%v{i}"
    lines.append(f"  return {prev} : {A}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def many_args(n):
    """One function of n array arguments summed pairwise into one result."""
    params = ", ".join(f"%a{i}: {A}" for i in range(n))
    lines = [f"func.func @main({params}) -> {A} {{"]
    prev = "%a0"
    for i in range(1, n):
        lines.append(f"  %s{i} = usm.add {prev}, %a{i} : ({A}, {A}) -> {A}")
        prev = f"%s{i}"
    lines.append(f"  return {prev} : {A}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def timed(cmd, timeout):
    t = time.perf_counter()
    try:
        r = subprocess.run(
            cmd, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return None, "timed out"
    dt = time.perf_counter() - t
    if r.returncode != 0:
        return None, (r.stderr.strip().splitlines() or ["failed"])[-1]
    return dt, ""


def series(title, sizes, make, cmd_for, timeout, tmp):
    print(f"\n{title}")
    print(f"{'size':>8} {'seconds':>10}")
    done = []
    for n in sizes:
        path = os.path.join(tmp, f"p{n}.mlir")
        with open(path, "w") as f:
            f.write(make(n))
        dt, err = timed(cmd_for(path), timeout)
        if dt is None:
            print(f"{n:>8} {'-':>10}  ({err})")
            continue
        print(f"{n:>8} {dt:>10.2f}")
        done.append((n, dt))
    if len(done) >= 2:
        (n0, t0), (n1, t1) = done[0], done[-1]
        print(f"size x{n1 / n0:.1f} -> time x{t1 / t0:.1f}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bin", default=os.path.join(HERE, "..", "build", "bin"))
    p.add_argument("--chains", default="5000,10000,20000")
    p.add_argument("--args", default="125,250,500,1000,2000")
    p.add_argument("--timeout", type=float, default=120)
    a = p.parse_args()
    opt = os.path.join(a.bin, "sluice-opt")
    comp = os.path.join(a.bin, "sluice-compile")
    for tool in (opt, comp):
        if not os.access(tool, os.X_OK):
            sys.exit(f"no {tool}: build first or pass --bin")
    ints = lambda s: [int(x) for x in s.split(",") if x]  # noqa: E731
    with tempfile.TemporaryDirectory() as tmp:
        series(
            "usm-fuse-elementwise on an elementwise chain (ops)",
            ints(a.chains),
            chain,
            lambda f: [opt, f, "--usm-fuse-elementwise", "-o", os.devnull],
            a.timeout,
            tmp,
        )
        series(
            "sluice-compile of a chain to a host artifact (ops)",
            ints(a.chains),
            chain,
            lambda f: [
                comp,
                f,
                "--device=host",
                "-o",
                os.path.join(tmp, "c.so"),
            ],
            a.timeout,
            tmp,
        )
        series(
            "sluice-compile of a function of many arguments (arguments)",
            ints(a.args),
            many_args,
            lambda f: [
                comp,
                f,
                "--device=host",
                "-o",
                os.path.join(tmp, "a.so"),
            ],
            a.timeout,
            tmp,
        )


if __name__ == "__main__":
    main()
