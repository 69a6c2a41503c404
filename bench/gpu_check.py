#!/usr/bin/env python3
"""Runs the integration tests (test/Integration/*.mlir) on a CUDA device, in
two halves, for machines where the GPU and the compiler are apart:

  gpu_check.py prepare --out DIR [--sluice-compile PATH] [FILES...]
      (build machine) compiles every case of every file, fused and unfused,
      for cuda:gpu:0 (`sluice-compile --device=cuda:gpu:0`) into
      DIR/<file>/case<N>_<mode>.so, and copies the test files and their
      checker (check.py) into DIR.
  gpu_check.py run --dir DIR --runtime LIB [--device cuda:gpu:0] [-v]
      (GPU machine) generates each case's inputs and NumPy references with
      check.py's own generators and seeds, runs the artifacts through the
      runtime's C API (sluice_artifact.py) and compares the results with
      check.py's tolerances. Prints one line per failure and a summary;
      exits non-zero when anything failed.

A case whose compilation failed counts as a failure of both halves.
"""

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEVICE = "cuda:gpu:0"
MODES = ("fused", "unfused")


def load_checker(path):
    spec = importlib.util.spec_from_file_location("sluice_check", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def prepare(args):
    checker = load_checker(
        os.path.join(ROOT, "test", "Integration", "check.py")
    )
    files = args.files or sorted(
        os.path.join(ROOT, "test", "Integration", f)
        for f in os.listdir(os.path.join(ROOT, "test", "Integration"))
        if f.endswith(".mlir")
    )
    os.makedirs(args.out, exist_ok=True)
    shutil.copy(
        os.path.join(ROOT, "test", "Integration", "check.py"),
        os.path.join(args.out, "check.py"),
    )
    manifest = {"device": DEVICE, "files": {}}
    failed = 0
    t0 = time.time()
    for path in files:
        base = os.path.basename(path)
        stem = base[: -len(".mlir")]
        shutil.copy(path, os.path.join(args.out, base))
        outdir = os.path.join(args.out, stem)
        os.makedirs(outdir, exist_ok=True)
        entry = manifest["files"][base] = {}
        for case in checker.split_cases(path):
            prog = os.path.join(outdir, f"case{case.index}.mlir")
            with open(prog, "w") as f:
                f.write("\n" * (case.first_line - 1) + case.text + "\n")
            for mode in MODES:
                so = os.path.join(outdir, f"case{case.index}_{mode}.so")
                cmd = [
                    args.sluice_compile,
                    prog,
                    f"--device={DEVICE}",
                    "-o",
                    so,
                ] + (["--no-fusion"] if mode == "unfused" else [])
                r = subprocess.run(cmd, capture_output=True, text=True)
                key = f"{case.index}/{mode}"
                if r.returncode:
                    failed += 1
                    entry[key] = {"error": r.stderr[-2000:]}
                    print(
                        f"FAIL (compile): {base} {case.where()} {mode}:\n"
                        f"{r.stderr.strip()[:1500]}"
                    )
                else:
                    entry[key] = {"so": os.path.relpath(so, args.out)}
            os.remove(prog)
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(
        f"gpu_check prepare: {len(files)} files, {failed} compile "
        f"failures, {time.time() - t0:.1f} s"
    )
    return 1 if failed else 0


def run(args):
    sys.path.insert(0, HERE)
    from sluice_artifact import Artifact, Runtime, SluiceError

    checker = load_checker(os.path.join(args.dir, "check.py"))
    with open(os.path.join(args.dir, "manifest.json")) as f:
        manifest = json.load(f)
    rt = Runtime(args.runtime)
    passed = failed = skipped = 0
    t0 = time.time()
    for base, entries in manifest["files"].items():
        if args.only and not any(o in base for o in args.only):
            continue
        for case in checker.split_cases(os.path.join(args.dir, base)):
            for b, binding in enumerate(case.bindings()):
                rng = np.random.default_rng([case.index, b])
                env = checker.make_generators(rng)
                env.update(binding)
                label = ", ".join(f"{k}={v}" for k, v in binding.items())
                where = f"{base} {case.where()}" + (
                    f" [{label}]" if label else ""
                )
                # Where NumPy raises ValueError the run must fail with its
                # message, or the case's ERROR one (as in check.py).
                error = None
                try:
                    inputs = []
                    for name, expr in case.inputs:
                        value = np.asarray(eval(expr, env))
                        env[name] = value
                        inputs.append(value)
                    expected = []
                    for e, _, _ in case.expects:
                        try:
                            with np.errstate(all="ignore"):
                                expected.append(np.asarray(eval(e, dict(env))))
                        except ValueError as raised:
                            error = str(raised).strip()
                            break
                    if error is not None and getattr(case, "error", None):
                        error = str(eval(case.error, dict(env)))
                except Exception as e:
                    print(f"FAIL: {where}: inputs: {type(e).__name__}: {e}")
                    failed += 1
                    continue
                # "misaligned": the fused program again, with its array
                # arguments one element off 16-byte alignment.
                for mode in MODES + ("misaligned",):
                    compiled = "fused" if mode == "misaligned" else mode
                    skip_env = dict(binding, device=args.device, mode=compiled)
                    if any(
                        eval(expr, {"np": np}, skip_env)
                        for expr, _ in case.skips
                    ):
                        skipped += 1
                        continue
                    info = entries.get(f"{case.index}/{compiled}", {})
                    what = f"{where} {mode}"
                    if "so" not in info:
                        print(
                            f"FAIL: {what}: not compiled: "
                            f"{info.get('error', '?')[:500]}"
                        )
                        failed += 1
                        continue
                    problems = []
                    try:
                        art = Artifact(rt, os.path.join(args.dir, info["so"]))
                        call = art.prepare(
                            None, inputs, misalign=mode == "misaligned"
                        )
                        try:
                            if error is not None:
                                try:
                                    call.run()
                                    problems.append(
                                        f"NumPy raises ValueError: {error}; "
                                        "the program ran"
                                    )
                                except SluiceError as e:
                                    if error not in str(e):
                                        problems.append(
                                            f"failed without '{error}': {e}"
                                        )
                                outs = []
                            else:
                                outs = call.run()
                        finally:
                            call.close()
                        if error is None and len(outs) != len(expected):
                            problems.append(
                                f"{len(outs)} results, "
                                f"{len(expected)} EXPECT lines"
                            )
                        for k, (got, exp) in enumerate(zip(outs, expected)):
                            expr, rtol, atol = case.expects[k]
                            d_rtol, d_atol = checker.DEFAULT_TOL.get(
                                exp.dtype, (0.0, 0.0)
                            )
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
                            diff = checker.compare(got, exp, rtol, atol)
                            if diff:
                                problems.append(
                                    f"result {k} ({expr}): " + diff[0]
                                )
                                problems += ["  " + d for d in diff[1:]]
                    except (SluiceError, OSError, ValueError) as e:
                        problems.append(f"{type(e).__name__}: {e}")
                    if problems:
                        failed += 1
                        print(f"FAIL: {what}")
                        for p in problems[:12]:
                            print(f"  {p}")
                    else:
                        passed += 1
                        if args.verbose:
                            print(f"ok: {what}")
    print(
        f"gpu_check on {args.device}: {passed} passed, {failed} failed, "
        f"{skipped} skipped (SKIP-IF), {time.time() - t0:.1f} s"
    )
    return 1 if failed else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    pp = sub.add_parser("prepare")
    pp.add_argument("--out", required=True)
    pp.add_argument(
        "--sluice-compile",
        default=os.path.join(ROOT, "build", "bin", "sluice-compile"),
    )
    pp.add_argument("files", nargs="*")
    pr = sub.add_parser("run")
    pr.add_argument("--dir", required=True)
    pr.add_argument("--runtime", required=True)
    pr.add_argument("--device", default=DEVICE)
    pr.add_argument(
        "--only",
        action="append",
        help="run only files whose name contains this",
    )
    pr.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args()
    return prepare(args) if args.cmd == "prepare" else run(args)


if __name__ == "__main__":
    sys.exit(main())
