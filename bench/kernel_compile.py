"""Compile time of @sluice.kernel kernels, stage by stage: from the first
call_kernel of a kernel (tracing its Python source) to its first launch
finished, with the disk cache off.

    PYTHONPATH=build/python .venv/bin/python bench/kernel_compile.py \
        [--device host] [--reps 9] [--cold 5]

Stages (medians over --reps kernels, each new to the process: a constant in
its source differs, so nothing is found in a cache):

  python   the kernel's signature and its MLIR, written by _kernel_codegen
  mlir     parsing that module and Sluice's pipeline through the device
           binaries (placement, kernels, SPIR-V for OpenCL/Level Zero)
  llvm     host code: the host stage (launches to runtime calls, host
           kernels to functions), translation to LLVM IR, -O3 (host
           kernels; the launch code is compiled unoptimised), instruction
           selection, linking into the process (ORC JIT)
  launch   the first launch: loading the module (OpenCL: SPIR-V -> SPIR by
           llvm-spirv where the driver takes no SPIR-V, the driver's build)
           and running the kernel once on 1000 elements
  total    call_kernel to the launch finished, measured as one

"wall" is elapsed time, "cpu" the calling thread's CPU time (the compiler
runs on it; on a machine shared with other work it is the steadier figure).
PoCL's kernel cache is off (POCL_KERNEL_CACHE=0) unless set otherwise.
"first kernel" (wall) runs each measurement in a fresh process (--cold of
them): the first kernel a process compiles also pays for first uses (code
of the compiler libraries paged in, LLVM's and MLIR's one-time set-up).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

KERNELS = {
    "axpy": """
@sluice.kernel
def {name}(item: kapi.Item, a, b, c, alpha):
    i = item.get_id(0)
    c[i] = alpha * a[i] + b[i] + {k}
""",
    "black_scholes": """
@sluice.device_func
def cnd(d):
    return 0.5 + 0.5 * math.erf(d * (1.0 / math.sqrt(2.0)))


@sluice.kernel
def {name}(item: kapi.Item, price, strike, t, call, put):
    i = item.get_id(0)
    p = price[i]
    s = strike[i]
    tt = t[i]
    sig = 0.2 * math.sqrt(tt)
    d1 = (math.log(p / s) + (0.1 + 0.02) * tt) / sig
    d2 = d1 - sig
    disc = s * math.exp(-0.1 * tt) + {k}
    c = p * cnd(d1) - disc * cnd(d2)
    call[i] = c
    put[i] = c - p + disc
""",
}
HEADER = "import math\nimport sluice\nfrom sluice import kernel_api as kapi\n"


def make_kernel(directory, case, k):
    import importlib.util

    name = f"{case}_{k}"
    path = os.path.join(directory, name + ".py")
    with open(path, "w") as f:
        f.write(HEADER + KERNELS[case].format(name=name, k=k))
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, name)


def arguments(case, device):
    import numpy as np
    import sluice

    n = 1000
    x = [
        sluice.asarray(
            np.linspace(1.0, 2.0, n, dtype=np.float32), device=device
        )
        for _ in range(5)
    ]
    if case == "axpy":
        return x[:3] + [np.float32(2.0)]
    return x


def stages(case, device, directory, k):
    """One kernel new to the process, compiled and launched stage by stage
    (the compile is repeated per stage: each timing starts from the text)."""
    import sluice
    from sluice import _compiler
    from sluice import _sluice as ext
    from sluice import kernel_api as kapi

    kern = make_kernel(directory, case, k)
    args = arguments(case, device)
    q = args[0].sycl_queue
    q.wait()
    rng = kapi.Range(1000)
    W, C = time.perf_counter, time.thread_time
    w0, c0 = W(), C()
    _, nd, ndim, sigs, qid, _ = kern._signature(rng, tuple(args))
    text = kern._build_text(nd, ndim, sigs, qid)
    w1, c1 = W(), C()
    flags = list(_compiler.DEFAULT_FLAGS) + list(getattr(kern, "_flags", ()))
    r = ext.compile_program(text, "bench", flags, "main", [4], False, "")
    w2, c2 = W(), C()
    assert r["ok"], r.get("failure")
    r = ext.compile_program(
        text + "// jit\n", "bench", flags, "main", [], True, ""
    )
    w3, c3 = W(), C()
    assert r["ok"], r.get("failure")
    # The whole first call, from scratch, of another new kernel.
    kern2 = make_kernel(directory, case, k + 100000)
    w4, c4 = W(), C()
    sluice.call_kernel(kern2, rng, *args)
    q.wait()
    w5, c5 = W(), C()
    out = {}
    for tag, t in (
        ("", (w0, w1, w2, w3, w4, w5)),
        ("cpu ", (c0, c1, c2, c3, c4, c5)),
    ):
        t0, t1, t2, t3, t4, t5 = t
        compile_ms = (t1 - t0) + (t3 - t2)
        out.update(
            {
                tag + "python": (t1 - t0) * 1e3,
                tag + "mlir": (t2 - t1) * 1e3,
                tag + "llvm": (t3 - t2 - (t2 - t1)) * 1e3,
                tag + "launch": ((t5 - t4) - compile_ms) * 1e3,
                tag + "total": (t5 - t4) * 1e3,
            }
        )
    return out


def first_kernel(case, device, directory, k):
    """In this (fresh) process: the first call of the first kernel (wall
    milliseconds)."""
    import sluice
    from sluice import kernel_api as kapi

    kern = make_kernel(directory, case, k)
    args = arguments(case, device)
    q = args[0].sycl_queue
    q.wait()
    t0 = time.perf_counter()
    sluice.call_kernel(kern, kapi.Range(1000), *args)
    q.wait()
    return (time.perf_counter() - t0) * 1e3


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="host")
    p.add_argument("--reps", type=int, default=9)
    p.add_argument("--cold", type=int, default=5)
    p.add_argument("--cases", default="axpy,black_scholes")
    p.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    os.environ["SLUICE_CACHE_DIR"] = "off"
    # PoCL's own kernel cache would hand later runs the same kernels built.
    os.environ.setdefault("POCL_KERNEL_CACHE", "0")
    directory = tempfile.mkdtemp(prefix="sluice-kbench-")
    if args.child:
        case, k = args.child.split(":")
        print(first_kernel(case, args.device, directory, int(k)))
        return
    import sluice

    print(
        f"device {args.device}; milliseconds, medians of {args.reps} "
        f"kernels (first kernel: {args.cold} fresh processes)"
    )
    cols = ["python", "mlir", "llvm", "launch", "total"]
    print(
        f"{'kernel':14} {'':5} "
        + " ".join(f"{c:>7}" for c in cols)
        + f" {'first kernel':>13}"
    )
    for case in args.cases.split(","):
        stages(case, args.device, directory, 0)  # first uses
        rows = [
            stages(case, args.device, directory, k + 1)
            for k in range(args.reps)
        ]
        med = {c: statistics.median(r[c] for r in rows) for c in rows[0]}
        firsts = []
        for k in range(args.cold):
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--device",
                    args.device,
                    "--child",
                    f"{case}:{k}",
                ],
                capture_output=True,
                text=True,
                env=dict(os.environ),
                check=True,
            )
            firsts.append(float(out.stdout.strip().splitlines()[-1]))
        print(
            f"{case:14} {'wall':5} "
            + " ".join(f"{med[c]:7.1f}" for c in cols)
            + f" {statistics.median(firsts):13.1f}"
        )
        print(
            f"{'':14} {'cpu':5} "
            + " ".join(f"{med['cpu ' + c]:7.1f}" for c in cols)
        )
    del sluice


if __name__ == "__main__":
    main()
