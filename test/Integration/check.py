#!/usr/bin/env python3
"""Runs usm programs with sluice-run and checks their results against NumPy.

    check.py FILE.mlir [--device=SELECTOR]... [--modes=fused,unfused]
                       [--case=N]... [--keep=DIR] [-v]
                       [--sluice-run=PATH] [--sluice-opt=PATH]

FILE holds one or more cases separated by `// -----` lines (as with
-split-input-file). Each case is a usm program plus directives in `//`
comments, so that a test file reads as the program next to its NumPy
reference:

    // FOR: n in [0, 1, 65, 1 << 20]       sizes; several FOR lines multiply
    // INPUT: a = rand(n, 'f32')           one per argument of the entry, in
    // INPUT: s = scalar(2.5, 'f32')       order (Python with NumPy as np)
    // EXPECT: a * s + 1                   one per result, in order
    // EXPECT[rtol=1e-4]: np.exp(a)        with its own tolerances
    // TOL: rtol=1e-5 atol=1e-6        tolerances of the case's float results
    // GROUPS: 1                           usm.fused groups fusion must form
    // SKIP-IF: device == "opencl:cpu:0" and n == 0  # why (a known bug)
    // ERROR: f"cannot reshape array of size {n}"  what sluice-run must say
                                        when NumPy raises (see below)

For every binding of the FOR variables the inputs are generated with a fixed
seed and written as .npy files; the program then runs once per device (the
placements in the program when no --device is given) and per mode (`fused`,
`unfused` = sluice-run --no-fusion), and every result is compared with its
EXPECT expression evaluated on the same inputs: same shape, same dtype, and
equal values (integers and booleans exactly; floats with
|got - expected| <= atol + rtol * |expected|, NaN equal to NaN).

Where NumPy raises ValueError for a binding (an EXPECT expression raises:
shapes that do not broadcast, the maximum of nothing, a bad reshape), the
program must fail too: sluice-run must exit with status 1 (not crash) and
its message must contain the ERROR expression's value (a Python string
expression over the FOR variables and inputs), or NumPy's own message when
the case has no ERROR line.

SKIP-IF conditions (Python, any of them true skips the run) see the FOR
variables, `device` (the --device selector, "" for the program's own
queues) and `mode`; they leave out runs that a known bug breaks, and a
`# comment` on the line says which bug.

Default float tolerances: f16 rtol 1e-3 atol 1e-4, f32 rtol 1e-5 atol 1e-6,
f64 rtol 1e-12 atol 1e-14. A case that needs others (transcendental
functions, reassociated float reductions) states them with TOL or
EXPECT[...] and says why.

Generators available to INPUT (and EXPECT), dtypes named as in MLIR ('f32',
'ui8', 'i1', ...):
  rand(shape, dtype, lo, hi)  uniform floats in [lo, hi), integers in
                              [lo, hi], random booleans
  scalar(value, dtype)        a 0-d array, for scalar arguments
  full(shape, value, dtype)
  special(shape, dtype)       floats mixed with 0, -0, inf, -inf and NaN
  edges(shape, dtype)         integers over the whole range mixed with the
                              minimum, the maximum, 0, 1, 2 and -1
and `rng` (the case's numpy Generator) and f32, i64, ... as NumPy types.

Any mismatch prints the case, the binding, the device, the mode, the command
to reproduce and the first differing elements (index, got, expected); the
exit status is non-zero when any check failed.
"""

import argparse
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

DTYPES = {
    "i1": np.bool_,
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "ui8": np.uint8,
    "ui16": np.uint16,
    "ui32": np.uint32,
    "ui64": np.uint64,
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
}

DEFAULT_TOL = {
    np.dtype(np.float16): (1e-3, 1e-4),
    np.dtype(np.float32): (1e-5, 1e-6),
    np.dtype(np.float64): (1e-12, 1e-14),
}

MAX_REPORTED = 10


def np_dtype(dtype):
    if isinstance(dtype, str):
        if dtype not in DTYPES:
            raise ValueError(f"unknown element type '{dtype}'")
        return np.dtype(DTYPES[dtype])
    return np.dtype(dtype)


def as_shape(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(d) for d in shape)


def make_generators(rng):
    def rand(shape, dtype="f32", lo=None, hi=None):
        shape, dt = as_shape(shape), np_dtype(dtype)
        if dt == np.bool_:
            return rng.integers(0, 2, size=shape).astype(np.bool_)
        if dt.kind == "f":
            lo = -1.0 if lo is None else lo
            hi = 1.0 if hi is None else hi
            return rng.uniform(lo, hi, size=shape).astype(dt)
        info = np.iinfo(dt)
        if lo is None:
            lo = 0 if dt.kind == "u" else max(info.min, -1000)
        if hi is None:
            hi = min(info.max, 1000)
        return rng.integers(lo, hi, size=shape, dtype=dt, endpoint=True)

    def scalar(value, dtype="f32"):
        return np.array(value, dtype=np_dtype(dtype))

    def full(shape, value, dtype="f32"):
        return np.full(as_shape(shape), value, dtype=np_dtype(dtype))

    def special(shape, dtype="f32", lo=-4.0, hi=4.0):
        shape, dt = as_shape(shape), np_dtype(dtype)
        a = rng.uniform(lo, hi, size=shape).astype(dt)
        specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan], dtype=dt)
        pick = rng.integers(0, 3 * len(specials), size=shape)
        mask = pick < len(specials)
        a[mask] = specials[pick[mask]]
        return a

    def edges(shape, dtype):
        """Integers over the type's whole range with a quarter of them
        replaced by its minimum, maximum, 0, 1, 2 and (signed) -1."""
        shape, dt = as_shape(shape), np_dtype(dtype)
        if dt.kind == "f":
            return special(shape, dt)
        if dt == np.bool_:
            return rand(shape, dt)
        info = np.iinfo(dt)
        a = rand(shape, dt, info.min, info.max)
        picks = [info.min, info.max, 0, 1, 2] + ([-1] if info.min else [])
        specials = np.array(picks, dtype=dt)
        pick = rng.integers(0, 4 * len(specials), size=shape)
        mask = pick < len(specials)
        a[mask] = specials[pick[mask]]
        return a

    names = {
        "np": np,
        "rng": rng,
        "rand": rand,
        "scalar": scalar,
        "full": full,
        "special": special,
        "edges": edges,
    }
    for name, t in DTYPES.items():
        names[name] = t
    return names


class Case:
    def __init__(self, index, first_line, text):
        self.index = index
        self.first_line = first_line
        self.text = text
        self.fors = []  # (targets, expr)
        self.inputs = []  # (name, expr)
        self.expects = []  # (expr, rtol or None, atol or None)
        self.tol = {}
        self.groups = None
        self.skips = []  # (expr, lineno)
        self.error = None  # expr
        self.parse()

    def where(self):
        return f"case {self.index} (line {self.first_line})"

    def parse(self):
        directive = re.compile(r"^\s*//\s*([A-Z-]+)(\[[^\]]*\])?:\s*(.*?)\s*$")
        for offset, line in enumerate(self.text.splitlines()):
            m = directive.match(line)
            if not m or m.group(1) not in (
                "FOR",
                "INPUT",
                "EXPECT",
                "TOL",
                "GROUPS",
                "SKIP-IF",
                "ERROR",
            ):
                continue
            kind, options, body = m.group(1), m.group(2), m.group(3)
            lineno = self.first_line + offset
            if kind == "FOR":
                fm = re.match(r"^(.+?)\s+in\s+(.+)$", body)
                if not fm:
                    raise SyntaxError(
                        f"line {lineno}: expected FOR: x in [...]"
                    )
                targets = [t.strip() for t in fm.group(1).split(",")]
                self.fors.append((targets, fm.group(2)))
            elif kind == "INPUT":
                im = re.match(r"^([A-Za-z_]\w*)\s*=\s*(.+)$", body)
                if not im:
                    raise SyntaxError(
                        f"line {lineno}: expected INPUT: name = expr"
                    )
                self.inputs.append((im.group(1), im.group(2)))
            elif kind == "EXPECT":
                tol = parse_tol(options[1:-1] if options else "", lineno)
                self.expects.append((body, tol.get("rtol"), tol.get("atol")))
            elif kind == "TOL":
                self.tol = parse_tol(body, lineno)
            elif kind == "GROUPS":
                self.groups = int(body)
            elif kind == "SKIP-IF":
                self.skips.append((body, lineno))
            elif kind == "ERROR":
                self.error = body
        if not self.expects:
            raise SyntaxError(f"{self.where()}: no EXPECT line")

    def bindings(self):
        if not self.fors:
            yield {}
            return
        lists = []
        for targets, expr in self.fors:
            values = list(eval(expr, {"np": np}))
            if len(targets) == 1:
                lists.append([{targets[0]: v} for v in values])
            else:
                lists.append([dict(zip(targets, v)) for v in values])
        for combo in itertools.product(*lists):
            env = {}
            for part in combo:
                env.update(part)
            yield env


def parse_tol(text, lineno):
    tol = {}
    for item in re.split(r"[,\s]+", text.strip()):
        if not item:
            continue
        key, _, value = item.partition("=")
        if key not in ("rtol", "atol") or not value:
            raise SyntaxError(f"line {lineno}: bad tolerance '{item}'")
        tol[key] = float(value)
    return tol


def split_cases(path):
    with open(path) as f:
        lines = f.read().split("\n")
    cases, start, chunk = [], 1, []
    for i, line in enumerate(lines, start=1):
        if line.strip() == "// -----":
            cases.append((start, "\n".join(chunk)))
            start, chunk = i + 1, []
        else:
            chunk.append(line)
    cases.append((start, "\n".join(chunk)))
    return [Case(n, first, text) for n, (first, text) in enumerate(cases)]


def fmt(v):
    if isinstance(v, (np.floating, float)):
        return repr(float(v)) if np.isfinite(v) else str(v)
    return repr(v.item() if hasattr(v, "item") else v)


def compare(got, expected, rtol, atol):
    """Returns a list of lines describing the differences, empty if none."""
    if got.shape != expected.shape:
        return [f"shape: got {got.shape}, expected {expected.shape}"]
    if got.dtype != expected.dtype:
        return [f"dtype: got {got.dtype}, expected {expected.dtype}"]
    if got.dtype.kind == "f":
        with np.errstate(invalid="ignore", over="ignore"):
            g = got.astype(np.float64)
            e = expected.astype(np.float64)
            ok = np.isclose(g, e, rtol=rtol, atol=atol, equal_nan=True)
    else:
        ok = got == expected
    ok = np.asarray(ok)
    if ok.all():
        return []
    bad = np.argwhere(~ok) if ok.ndim else np.zeros((1, 0), dtype=np.int64)
    lines = [
        f"{len(bad)} of {got.size} elements differ"
        + (f" (rtol={rtol}, atol={atol})" if got.dtype.kind == "f" else "")
    ]
    if got.dtype.kind == "f":
        with np.errstate(invalid="ignore", over="ignore"):
            err = np.abs(got.astype(np.float64) - expected.astype(np.float64))
            rel = err / np.maximum(np.abs(expected.astype(np.float64)), 1e-300)
            err, rel = np.where(ok, 0, err), np.where(ok, 0, rel)
        lines.append(
            f"max abs error {np.nanmax(err):.3g}, "
            f"max rel error {np.nanmax(rel):.3g}"
        )
    for idx in bad[:MAX_REPORTED]:
        idx = tuple(int(i) for i in idx)
        lines.append(
            f"  at {list(idx)}: got {fmt(got[idx])}, "
            f"expected {fmt(expected[idx])}"
        )
    if len(bad) > MAX_REPORTED:
        lines.append(f"  ... and {len(bad) - MAX_REPORTED} more")
    return lines


def run_case(case, args, workdir):
    failures = 0
    prog = os.path.join(workdir, f"case{case.index}.mlir")
    with open(prog, "w") as f:
        # Blank lines keep diagnostics' line numbers those of the test file.
        f.write("\n" * (case.first_line - 1) + case.text + "\n")

    if case.groups is not None:
        r = subprocess.run(
            [
                args.sluice_opt,
                "--usm-verify-placement",
                "--canonicalize",
                "--usm-fuse-elementwise",
                prog,
            ],
            capture_output=True,
            text=True,
        )
        count = len(re.findall(r"\busm\.fused\b", r.stdout))
        if r.returncode != 0 or count != case.groups:
            print(
                f"FAIL: {case.where()}: fusion formed {count} groups, "
                f"expected {case.groups}\n{r.stderr}"
            )
            failures += 1

    for b, binding in enumerate(case.bindings()):
        rng = np.random.default_rng([case.index, b])
        env = make_generators(rng)
        env.update(binding)
        label = ", ".join(f"{k}={v}" for k, v in binding.items())
        files = []
        expected = []
        error = None  # the message sluice-run must print, when NumPy raises
        try:
            for k, (name, expr) in enumerate(case.inputs):
                what = f"INPUT {name}"
                value = np.asarray(eval(expr, env))
                env[name] = value
                path = os.path.join(
                    workdir, f"case{case.index}_b{b}_in{k}.npy"
                )
                np.save(path, value.copy(order="C"))
                files.append(path)
            for expr, _, _ in case.expects:
                what = f"EXPECT {expr}"
                try:
                    with np.errstate(all="ignore"):
                        expected.append(np.asarray(eval(expr, dict(env))))
                except ValueError as e:
                    error = str(e).strip()
                    break
            if error is not None and case.error:
                what = f"ERROR {case.error}"
                error = str(eval(case.error, dict(env)))
        except Exception as e:
            print(
                f"FAIL: {case.where()}"
                + (f" [{label}]" if label else "")
                + f": {what}: {type(e).__name__}: {e}"
            )
            failures += 1
            continue
        for device in args.device or [None]:
            for mode in args.modes:
                outs = [
                    os.path.join(workdir, f"case{case.index}_b{b}_out{k}.npy")
                    for k in range(len(case.expects))
                ]
                for o in outs:
                    if os.path.exists(o):
                        os.remove(o)
                cmd = [args.sluice_run, prog]
                cmd += [f"--input=@{p}" for p in files]
                cmd += [f"--output=@{o}" for o in outs]
                if device:
                    cmd.append(f"--device={device}")
                if mode == "unfused":
                    cmd.append("--no-fusion")
                what = (
                    f"{case.where()}"
                    + (f" [{label}]" if label else "")
                    + f" on {device or 'its queues'}, {mode}"
                )
                skip_env = dict(binding, device=device or "", mode=mode)
                skipped = [
                    line
                    for expr, line in case.skips
                    if eval(expr, {"np": np}, skip_env)
                ]
                if skipped:
                    if args.verbose:
                        print(
                            f"skipped: {what} (SKIP-IF at line {skipped[0]})"
                        )
                    continue
                r = subprocess.run(cmd, capture_output=True, text=True)
                problems = []
                if error is not None:
                    if r.returncode != 1:
                        problems.append(f"NumPy raises ValueError: {error}")
                        problems.append(
                            f"but sluice-run exited with {r.returncode}, not 1"
                        )
                        problems += r.stderr.rstrip().splitlines()[:20]
                    elif error not in r.stderr:
                        problems.append(
                            f"sluice-run failed without the message '{error}':"
                        )
                        problems += r.stderr.rstrip().splitlines()[:20]
                elif r.returncode != 0:
                    problems.append(f"sluice-run exited with {r.returncode}")
                    problems += r.stderr.rstrip().splitlines()[:20]
                elif r.stdout.strip():
                    problems.append(
                        "the program has more results than EXPECT "
                        "lines; extra output:"
                    )
                    problems += r.stdout.rstrip().splitlines()[:5]
                else:
                    for k, (o, e) in enumerate(zip(outs, expected)):
                        if not os.path.exists(o):
                            problems.append(
                                f"result {k}: not written (the "
                                "program has fewer results than "
                                "EXPECT lines)"
                            )
                            continue
                        got = np.load(o)
                        expr, rtol, atol = case.expects[k]
                        d_rtol, d_atol = DEFAULT_TOL.get(e.dtype, (0.0, 0.0))
                        rtol = (
                            rtol
                            if rtol is not None
                            else case.tol.get("rtol", d_rtol)
                        )
                        atol = (
                            atol
                            if atol is not None
                            else case.tol.get("atol", d_atol)
                        )
                        diff = compare(got, e, rtol, atol)
                        if diff:
                            problems.append(f"result {k} ({expr}): " + diff[0])
                            problems += ["  " + d for d in diff[1:]]
                if problems:
                    failures += 1
                    print(f"FAIL: {what}")
                    for p in problems:
                        print(f"  {p}")
                    print("  reproduce: " + " ".join(cmd))
                    args.keep_files = True
                elif args.verbose:
                    print(f"ok: {what}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file")
    parser.add_argument(
        "--device",
        action="append",
        help="run on this device (sluice-run --device); "
        "repeatable; default: the program's own queues",
    )
    parser.add_argument(
        "--modes",
        default="fused,unfused",
        help="comma-separated: fused, unfused",
    )
    parser.add_argument("--sluice-run", default=shutil.which("sluice-run"))
    parser.add_argument("--sluice-opt", default=shutil.which("sluice-opt"))
    parser.add_argument(
        "--keep", help="write temporary files here and keep them"
    )
    parser.add_argument(
        "--case",
        type=int,
        action="append",
        help="run only this case (0-based); repeatable",
    )
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    args.modes = [m for m in args.modes.split(",") if m]
    for m in args.modes:
        if m not in ("fused", "unfused"):
            parser.error(f"unknown mode '{m}'")
    if not args.sluice_run:
        parser.error("sluice-run not found; pass --sluice-run")
    args.keep_files = bool(args.keep)

    cases = split_cases(args.file)
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        workdir = args.keep
    else:
        workdir = tempfile.mkdtemp(prefix="sluice-check-")
    failures = 0
    for case in cases:
        if args.case and case.index not in args.case:
            continue
        if case.groups is not None and not args.sluice_opt:
            parser.error("sluice-opt not found; pass --sluice-opt")
        failures += run_case(case, args, workdir)
    if args.keep_files:
        print(f"files kept in {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    if failures:
        print(f"{failures} check(s) failed in {args.file}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
