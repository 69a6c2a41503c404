#!/usr/bin/env python3
"""Sluice's CPU benchmark: the expressions of DESIGN.md's CPU figures, timed
in one process through NumPy, numexpr, Numba and Sluice.

Each case reports the effective bandwidth of its compulsory traffic (every
input read once, the output written once, float32) in GB/s per engine, and
Sluice's ratio to each peer. Times are medians of --reps runs after warm-up.

Sluice is timed through its `sluice-run` tool: for each case this script
writes a usm-dialect program and its inputs (.npy) to a temporary directory
and runs

  sluice-run prog.mlir --entry=main --input=@a.npy ... --benchmark=REPS
             --output=@out.npy

which prints `sluice-run: benchmark: median <seconds> s over <REPS> runs`.
Its output is checked against NumPy's before its time is reported. An engine
that is not there (a peer not installed, sluice-run not built) prints n/a with
the reason.

usage: bench/cpu.py [--n 2e7] [--reps 9] [--sluice-run build/bin/sluice-run]
       (bench/run-cpu.sh sets up the venv and passes --sluice-run)
"""

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINES = ["numpy", "numexpr", "numba", "sluice"]
PEERS = ["numpy", "numexpr", "numba"]
PLACEMENT = '"host:cpu:0", device'
BENCHMARK_LINE = re.compile(
    r"sluice-run: benchmark: median ([0-9.eE+-]+|nan|inf) s over (\d+) runs"
)


# --------------------------------------------------------------------------
# Peers
# --------------------------------------------------------------------------


def load_numexpr():
    try:
        import numexpr
    except Exception as e:  # ImportError, or a broken build
        return None, f"numexpr not installed ({type(e).__name__}: {e})"
    return numexpr, None


def load_numba():
    try:
        import numba
    except Exception as e:
        return None, f"numba not installed ({type(e).__name__}: {e})"
    return numba, None


def numba_kernels(numba):
    """The cases' loops, compiled in parallel (prange) without fast math."""
    njit = numba.njit(parallel=True, fastmath=False, cache=False)
    prange = numba.prange

    @njit
    def copy(a, out):
        for i in prange(a.size):
            out[i] = a[i]

    @njit
    def axpy(a, b, c, d, out):
        for i in prange(a.size):
            out[i] = a[i] * b[i] + c[i] * d[i] - a[i]

    @njit
    def transcendental(a, b, out):
        for i in prange(a.size):
            x = a[i]
            out[i] = np.exp(-x * x) * np.sin(b[i]) + np.sqrt(np.abs(x))

    @njit
    def total(a):
        s = 0.0  # float64 partial sums per thread
        for i in prange(a.size):
            s += a[i]
        return s

    return {
        "copy": copy,
        "axpy": axpy,
        "transcendental": transcendental,
        "sum": total,
    }


# --------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------


@dataclass
class Case:
    key: str
    title: str
    inputs: List[str]  # array names, in argument order
    arrays: int  # arrays of compulsory traffic (reads + writes)
    reduction: bool
    numpy: Callable  # (arrays, out) -> result
    numexpr: Optional[str]  # expression over the inputs
    mlir_body: str  # ops from %a.. to %r, with !A and !S types
    result_type: str  # "!A" or "!S" (or "!C" for the copy)


CASES = [
    Case(
        "copy",
        "copy (1R1W)",
        ["a"],
        2,
        False,
        lambda x, out: np.copyto(out, x["a"]) or out,
        "a",
        # The one op that copies: a migration to another USM kind of the
        # same queue (a memcpy on the host); a same-type copy folds away.
        "    %r = usm.to_device %a : !A -> !C\n",
        "!C",
    ),
    Case(
        "axpy",
        "a*b+c*d-a (4R1W)",
        ["a", "b", "c", "d"],
        5,
        False,
        lambda x, out: np.subtract(
            x["a"] * x["b"] + x["c"] * x["d"], x["a"], out=out
        ),
        "a*b+c*d-a",
        "    %0 = usm.mul %a, %b : (!A, !A) -> !A\n"
        "    %1 = usm.mul %c, %d : (!A, !A) -> !A\n"
        "    %2 = usm.add %0, %1 : (!A, !A) -> !A\n"
        "    %r = usm.sub %2, %a : (!A, !A) -> !A\n",
        "!A",
    ),
    Case(
        "transcendental",
        "exp(-a*a)*sin(b)+sqrt(|a|) (2R1W)",
        ["a", "b"],
        3,
        False,
        lambda x, out: np.add(
            np.exp(-x["a"] * x["a"]) * np.sin(x["b"]),
            np.sqrt(np.abs(x["a"])),
            out=out,
        ),
        "exp(-a*a)*sin(b)+sqrt(abs(a))",
        "    %0 = usm.mul %a, %a : (!A, !A) -> !A\n"
        "    %1 = usm.negative %0 : (!A) -> !A\n"
        "    %2 = usm.exp %1 : (!A) -> !A\n"
        "    %3 = usm.sin %b : (!A) -> !A\n"
        "    %4 = usm.mul %2, %3 : (!A, !A) -> !A\n"
        "    %5 = usm.abs %a : (!A) -> !A\n"
        "    %6 = usm.sqrt %5 : (!A) -> !A\n"
        "    %r = usm.add %4, %6 : (!A, !A) -> !A\n",
        "!A",
    ),
    Case(
        "sum",
        "sum(a) (1R)",
        ["a"],
        1,
        True,
        lambda x, out: x["a"].sum(),
        "sum(a)",
        "    %r = usm.sum %a : !A -> !S\n",
        "!S",
    ),
]


def mlir_program(case: Case, n: int) -> str:
    args = ", ".join(f"%{name}: !A" for name in case.inputs)
    return (
        f"// bench/cpu.py: {case.title}, n = {n}\n"
        f"!A = !usm.array<{n}xf32, {PLACEMENT}>\n"
        f'!C = !usm.array<{n}xf32, "host:cpu:0", shared>\n'
        f"!S = !usm.array<f32, {PLACEMENT}>\n"
        f"func.func @main({args}) -> {case.result_type} {{\n"
        f"{case.mlir_body}"
        f"    return %r : {case.result_type}\n"
        f"}}\n"
    )


def reference(case: Case, x: Dict[str, np.ndarray]) -> np.ndarray:
    """The expected result, computed in float64 and rounded to float32."""
    a = x["a"].astype(np.float64)
    if case.key == "copy":
        return x["a"]
    if case.key == "axpy":
        b, c, d = (x[k].astype(np.float64) for k in "bcd")
        return (a * b + c * d - a).astype(np.float32)
    if case.key == "transcendental":
        b = x["b"].astype(np.float64)
        return (np.exp(-a * a) * np.sin(b) + np.sqrt(np.abs(a))).astype(
            np.float32
        )
    return np.array(a.sum(), dtype=np.float32)


def check_result(case: Case, x, got, expected) -> Optional[str]:
    """None when `got` matches, else why not."""
    got = np.asarray(got)
    if got.shape != expected.shape:
        return f"shape {got.shape}, expected {expected.shape}"
    if got.dtype != np.float32:
        return f"dtype {got.dtype}, expected float32"
    if case.reduction:
        # A float32 sum of n terms: allow n-proportional rounding of |a|.
        bound = 1e-6 * float(np.abs(x["a"]).astype(np.float64).sum()) + 1e-3
        diff = abs(float(got) - float(expected))
        return (
            None
            if diff <= bound
            else (
                f"sum {float(got)!r}, expected {float(expected)!r} "
                f"(|diff| {diff:.3g} > {bound:.3g})"
            )
        )
    if case.key == "copy":
        return None if np.array_equal(got, expected) else "copy differs"
    # float32 arithmetic against a float64 reference: a few ulps of terms
    # up to ~20 in size.
    close = np.isclose(got, expected, rtol=1e-5, atol=1e-5)
    if close.all():
        return None
    i = int(np.argmin(close))
    return (
        f"{int((~close).sum())} of {close.size} elements differ "
        f"(rtol 1e-5, atol 1e-5); first at {i}: {float(got[i])!r} vs "
        f"{float(expected[i])!r}"
    )


# --------------------------------------------------------------------------
# Timing
# --------------------------------------------------------------------------


def median_time(f, reps, warmup):
    for _ in range(warmup):
        f()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return float(np.median(times))


@dataclass
class Cell:
    seconds: Optional[float] = None
    why: Optional[str] = None  # n/a reason


@dataclass
class SluiceRunner:
    tool: str
    reps: int
    tmp: str
    timeout: float
    available: bool = field(init=False)
    reason: Optional[str] = field(init=False, default=None)

    def __post_init__(self):
        self.available = (
            bool(self.tool)
            and os.path.isfile(self.tool)
            and os.access(self.tool, os.X_OK)
        )
        if not self.available:
            self.reason = "sluice-run not built" + (
                f": no {self.tool}" if self.tool else ""
            )

    def run(self, case: Case, n: int, x, expected) -> Cell:
        if not self.available:
            return Cell(why=self.reason)
        work = os.path.join(self.tmp, case.key)
        os.makedirs(work, exist_ok=True)
        prog = os.path.join(work, "prog.mlir")
        with open(prog, "w") as f:
            f.write(mlir_program(case, n))
        cmd = [self.tool, prog, "--entry=main"]
        for name in case.inputs:
            path = os.path.join(self.tmp, f"{name}.npy")
            if not os.path.exists(path):
                np.save(path, x[name])
            cmd.append(f"--input=@{path}")
        out = os.path.join(work, "out.npy")
        if os.path.exists(out):
            os.remove(out)
        cmd += [f"--benchmark={self.reps}", f"--output=@{out}"]
        try:
            proc = subprocess.run(
                cmd, capture_output=True, text=True, timeout=self.timeout
            )
        except subprocess.TimeoutExpired:
            return Cell(why=f"sluice-run timed out after {self.timeout:.0f} s")
        except OSError as e:
            return Cell(why=f"sluice-run did not start: {e}")
        text = proc.stdout + proc.stderr
        if proc.returncode != 0:
            last = [ln for ln in text.strip().splitlines() if ln.strip()]
            return Cell(
                why=f"sluice-run failed (exit {proc.returncode}): "
                f"{last[-1] if last else 'no output'}"
            )
        match = BENCHMARK_LINE.search(text)
        if not match:
            return Cell(
                why="sluice-run printed no 'sluice-run: benchmark: "
                "median ... s over ... runs' line"
            )
        try:
            got = np.load(out)
        except Exception as e:
            return Cell(why=f"no readable output {out}: {e}")
        wrong = check_result(case, x, got, expected)
        if wrong:
            return Cell(why=f"wrong result, time not reported: {wrong}")
        return Cell(seconds=float(match.group(1)))


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------


def default_sluice_run():
    build = os.environ.get("SLUICE_BUILD_DIR", os.path.join(ROOT, "build"))
    return os.path.join(build, "bin", "sluice-run")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--n", type=float, default=2e7, help="elements per array (default 2e7)"
    )
    p.add_argument(
        "--reps",
        type=int,
        default=9,
        help="timed runs per case and engine, at least 7 "
        "(default 9); the median is reported",
    )
    p.add_argument(
        "--warmup",
        type=int,
        default=2,
        help="untimed runs first (default 2; Numba compiles in the first)",
    )
    p.add_argument(
        "--sluice-run",
        default=default_sluice_run(),
        help="the sluice-run tool (default $SLUICE_BUILD_DIR or "
        "build/, bin/sluice-run)",
    )
    p.add_argument(
        "--cases",
        default=",".join(c.key for c in CASES),
        help="comma-separated subset of: " + ", ".join(c.key for c in CASES),
    )
    p.add_argument(
        "--engines",
        default=",".join(ENGINES),
        help="comma-separated subset of: " + ", ".join(ENGINES),
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=600,
        help="seconds allowed per sluice-run call",
    )
    p.add_argument(
        "--tmpdir",
        default=None,
        help="where programs and inputs go (default: a new "
        "temporary directory, removed at the end)",
    )
    p.add_argument(
        "--json", default=None, help="also write the results to this file"
    )
    args = p.parse_args(argv)
    if args.reps < 7:
        p.error("--reps must be at least 7")
    args.n = int(args.n)
    if args.n < 1:
        p.error("--n must be positive")
    known = {c.key for c in CASES}
    args.cases = [c for c in args.cases.split(",") if c]
    args.engines = [e for e in args.engines.split(",") if e]
    for c in args.cases:
        if c not in known:
            p.error(f"unknown case {c!r}")
    for e in args.engines:
        if e not in ENGINES:
            p.error(f"unknown engine {e!r}")
    return args


def fmt_gbs(cell: Cell, nbytes: int) -> str:
    return (
        "n/a" if cell.seconds is None else f"{nbytes / cell.seconds / 1e9:.2f}"
    )


def fmt_ratio(sluice_seconds, peer_seconds) -> str:
    """Sluice's bandwidth over the peer's: the peer's time over Sluice's."""
    if sluice_seconds is None or peer_seconds is None:
        return "n/a"
    r = peer_seconds / sluice_seconds
    return f"{r:.2f}x" if r >= 0.1 else f"{r:.2g}x"


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    n = args.n
    rng = np.random.default_rng(0)
    x = {k: rng.standard_normal(n, dtype=np.float32) for k in "abcd"}
    out = np.empty(n, np.float32)

    ne, ne_why = (
        load_numexpr() if "numexpr" in args.engines else (None, "not selected")
    )
    nb, nb_why = (
        load_numba() if "numba" in args.engines else (None, "not selected")
    )
    kernels = numba_kernels(nb) if nb else {}

    own_tmp = args.tmpdir is None
    tmp = tempfile.mkdtemp(prefix="sluice-bench-") if own_tmp else args.tmpdir
    os.makedirs(tmp, exist_ok=True)
    sluice = SluiceRunner(
        args.sluice_run if "sluice" in args.engines else "",
        args.reps,
        tmp,
        args.timeout,
    )
    if "sluice" not in args.engines:
        sluice.reason = "not selected"

    threads = []
    if ne:
        threads.append(f"numexpr {ne.__version__} ({ne.nthreads} threads)")
    if nb:
        threads.append(
            f"numba {nb.__version__} ({nb.get_num_threads()} threads)"
        )
    print(
        f"N={n} float32, {os.cpu_count()} cores ({platform.machine()}), "
        f"median of {args.reps} after {args.warmup} warm-up; "
        f"numpy {np.__version__}" + "".join(", " + t for t in threads)
    )
    print(
        f"sluice: {args.sluice_run}"
        if sluice.available
        else f"sluice: n/a ({sluice.reason})"
    )

    results = []
    notes = []
    try:
        for case in CASES:
            if case.key not in args.cases:
                continue
            nbytes = case.arrays * n * 4
            expected = reference(case, x)
            cells: Dict[str, Cell] = {}

            def timed(f):
                try:
                    got = f()
                    wrong = check_result(case, x, got, expected)
                    if wrong:
                        return Cell(why=f"wrong result: {wrong}")
                    return Cell(seconds=median_time(f, args.reps, args.warmup))
                except Exception as e:
                    return Cell(why=f"{type(e).__name__}: {e}")

            if "numpy" in args.engines:
                cells["numpy"] = timed(lambda: case.numpy(x, out))
            else:
                cells["numpy"] = Cell(why="not selected")
            if ne:
                if case.reduction:
                    f = lambda: ne.evaluate(case.numexpr, local_dict=x)
                else:
                    f = lambda: ne.evaluate(
                        case.numexpr, local_dict=x, out=out
                    )
                cells["numexpr"] = timed(f)
            else:
                cells["numexpr"] = Cell(why=ne_why)
            if nb:
                k = kernels[case.key]
                args_nb = [x[name] for name in case.inputs]
                if case.reduction:
                    f = lambda: np.float32(k(*args_nb))
                else:
                    f = lambda: (k(*args_nb, out), out)[1]
                cells["numba"] = timed(f)
            else:
                cells["numba"] = Cell(why=nb_why)
            cells["sluice"] = (
                sluice.run(case, n, x, expected)
                if "sluice" in args.engines
                else Cell(why="not selected")
            )

            for engine, cell in cells.items():
                if cell.why and cell.why != "not selected":
                    note = f"{engine}: n/a ({cell.why})"
                    if note not in notes:
                        notes.append(note)
            results.append((case, nbytes, cells))
    finally:
        if own_tmp:
            shutil.rmtree(tmp, ignore_errors=True)

    # The table: GB/s per engine, then Sluice's ratio to each peer.
    w = max(len(c.title) for c, _, _ in results) if results else 10
    head = (
        f"{'case':{w}s}"
        + "".join(f" {e:>8s}" for e in ENGINES)
        + "   "
        + "".join(f" {'vs ' + p:>11s}" for p in PEERS)
    )
    print()
    print(
        f"{'':{w}s}{'effective bandwidth, GB/s':^{9 * len(ENGINES)}s}   "
        f"{'sluice / peer (higher: sluice faster)':^{12 * len(PEERS)}s}"
    )
    print(head)
    print("-" * len(head))
    for case, nbytes, cells in results:
        row = f"{case.title:{w}s}"
        row += "".join(f" {fmt_gbs(cells[e], nbytes):>8s}" for e in ENGINES)
        row += "   "
        s = cells["sluice"].seconds
        for p in PEERS:
            t = cells[p].seconds
            row += f" {fmt_ratio(s, t):>11s}"
        print(row)
    if notes:
        print()
        for note in notes:
            print(note)

    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {
                    "n": n,
                    "dtype": "float32",
                    "reps": args.reps,
                    "cores": os.cpu_count(),
                    "cases": [
                        {
                            "case": case.key,
                            "title": case.title,
                            "bytes": nbytes,
                            "engines": {
                                e: {
                                    "seconds": c.seconds,
                                    "gbs": None
                                    if c.seconds is None
                                    else nbytes / c.seconds / 1e9,
                                    "na": c.why,
                                }
                                for e, c in cells.items()
                            },
                        }
                        for case, nbytes, cells in results
                    ],
                },
                f,
                indent=1,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
