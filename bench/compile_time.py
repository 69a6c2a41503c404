"""Compile time of a usm program in-process, stage by stage, through the
compiler library (the path `@sluice.jit` takes), for a device that need not
be present (the program's types name it).

    .venv/bin/python bench/compile_time.py [FILE.mlir] [--reps N] [-O3]

Default FILE: bench/gpu-compile.mlir (the 10-op function on cuda:gpu:0).
Prints medians in milliseconds (wall time and the process's CPU time,
which a busy machine inflates less): the pipeline up to each stage (parse
included), the whole pipeline plus host code JIT-compiled (what a first
call of a jitted function costs after tracing), and an artifact written to
disk (`sluice-compile`'s work without its process start and linker).
Compiled CUDA kernels are reused by content (lib/Target/NVVM/
KernelObjectCache.h): the rows are measured with that cache off
(SLUICE_KERNEL_CACHE=off, a first compile of new kernels), then the first
call again with the kernels found in the process's cache.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    p = argparse.ArgumentParser()
    p.add_argument(
        "file", nargs="?", default=os.path.join(HERE, "gpu-compile.mlir")
    )
    p.add_argument("--reps", type=int, default=9)
    p.add_argument("-O", dest="opt", default="3")
    args = p.parse_args()
    from sluice import _sluice as ext
    from sluice import _compiler

    text = open(args.file).read()
    flags = [
        "--device=none",
        "--fusion",
        f"-O{args.opt}",
        "--workgroup-size=256",
    ]
    entry = ""

    def timed(fn):
        ts, cs = [], []
        for _ in range(args.reps):
            t = time.perf_counter()
            c = time.process_time()
            r = fn()
            ts.append((time.perf_counter() - t) * 1e3)
            cs.append((time.process_time() - c) * 1e3)
            if not r["ok"]:
                sys.exit(
                    f"compile failed: {r['failure']}\n"
                    + "\n".join(r["errors"])
                )
        return statistics.median(ts), statistics.median(cs)

    rows = []
    os.environ["SLUICE_KERNEL_CACHE"] = "off"
    for name, code in _compiler.STAGES.items():
        if code == 0:
            continue
        rows.append(
            (
                f"pipeline through '{name}'",
                timed(
                    lambda: ext.compile_program(
                        text, "bench", flags, entry, [code], False, ""
                    )
                ),
            )
        )
    rows.append(
        (
            "pipeline + host code JIT (a first call)",
            timed(
                lambda: ext.compile_program(
                    text, "bench", flags, entry, [], True, ""
                )
            ),
        )
    )
    out = os.path.join(tempfile.mkdtemp(), "bench.so")
    rows.append(
        (
            "pipeline + artifact (.so) on disk",
            timed(
                lambda: ext.compile_program(
                    text, "bench", flags, entry, [], False, out
                )
            ),
        )
    )
    del os.environ["SLUICE_KERNEL_CACHE"]
    os.environ.setdefault("SLUICE_CACHE_DIR", "off")  # memory only
    rows.append(
        (
            "the same, kernels from the cache",
            timed(
                lambda: ext.compile_program(
                    text, "bench", flags, entry, [], True, ""
                )
            ),
        )
    )
    print(
        f"{os.path.basename(args.file)}, -O{args.opt}, median of "
        f"{args.reps} (ms), load {os.getloadavg()[0]:.1f}:"
    )
    print(f"  {'':45s} {'wall':>7s} {'CPU':>7s}")
    for what, (ms, cpu) in rows:
        print(f"  {what:45s} {ms:7.1f} {cpu:7.1f}")


if __name__ == "__main__":
    main()
