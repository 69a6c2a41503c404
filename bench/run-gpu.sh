#!/usr/bin/env bash
# The GPU benchmark and the CUDA correctness runs, for a GPU machine that has
# the CUDA driver and Python with CuPy, PyTorch and JAX but no LLVM/MLIR.
#
#   bash bench/run-gpu.sh bundle [DIR]   (build machine) builds what runs
#       there into DIR (default .cuda-bundle): the runtime (no compiler, no
#       OpenCL) and its tests, the benchmark's artifacts compiled with
#       `sluice-compile --device=cuda:gpu:0`, every integration test case
#       compiled the same way (bench/gpu_check.py prepare), the compile-time
#       figures of a 10-op function measured here, and these scripts
#       (with bench/gpu-reductions.mlir compiled for reduce_check.py).
#   bash DIR/bench/run-gpu.sh device [DIR]   (GPU machine) runs the runtime's
#       CUDA tests, the integration cases against NumPy (gpu_check.py run),
#       the full reductions against NumPy (reduce_check.py) and the benchmark (gpu.py), with the latency of small calls
#       (gpu_latency) before. Extra arguments after DIR go to gpu.py.
#   bash bench/run-gpu.sh python [DIR]   (GPU machine, from a copy of the
#       source tree) builds the runtime and the Python package there without
#       the compiler (the machine's python3 holds PyTorch and CuPy) and runs
#       the CUDA DLPack tests (test/python/test_dlpack_cuda.py) with the
#       bundle's artifact of test/python/Inputs/cuda_axpb.mlir, and
#       test_load.py's cases that need no compiler, then the runtime's CUDA
#       and USM tests.
#
#   bash bench/run-gpu.sh wheel [DIR]   (build machine) builds the wheel
#       (pyproject.toml: runtime, compiler with static LLVM/MLIR/LLD, tools;
#       docs/wheel.md) in build-wheel-dist/ and puts its native part, which
#       no Python version changes, in DIR/wheel/native.tar.xz (default
#       .cuda-bundle/wheel; 46 MB: carry DIR, under the 64 MiB limit).
#   bash bench/run-gpu.sh wheel-device [DIR] [-- pytest args]   (GPU
#       machine, from a copy of the source tree) installs that wheel into a
#       fresh venv (--system-site-packages: the machine's NumPy, pytest,
#       PyTorch, CuPy). Where the machine's Python differs from the build
#       machine's, it first builds a wheel for it from this tree around the
#       carried wheel's runtime, compiler and tools (SLUICE_PREBUILT_DIR: only
#       the extension is compiled; no LLVM needed). Then, from the installed
#       package alone: the Python test suite on cuda:gpu:0 (eager, @jit,
#       compile on use, kernels) and host:cpu:0, and the Python benchmarks
#       (bench/eager.py, bench/python_overhead.py, bench/lazy.py,
#       bench/kernels_gpu.py) on cuda:gpu:0.
#
# SLUICE_BUILD_DIR names the compiler build (default build/); the runtime
# for the bundle is built in build-gpu-runtime/.
set -euo pipefail
mode="${1:-}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if [ "$mode" = bundle ]; then
  top="$(cd "$here/.." && pwd)"
  out="$(mkdir -p "${2:-$top/.cuda-bundle}" && cd "${2:-$top/.cuda-bundle}" && pwd)"
  build="${SLUICE_BUILD_DIR:-$top/build}"
  rtbuild="$top/build-gpu-runtime"
  py="${SLUICE_PYTHON:-$top/.venv/bin/python}"
  [ -x "$py" ] || py=python3
  if [ ! -f "$rtbuild/build.ninja" ]; then
    cmake -G Ninja -S "$top" -B "$rtbuild" -DCMAKE_BUILD_TYPE=Release \
      -DSLUICE_ENABLE_COMPILER=OFF -DSLUICE_ENABLE_SANITIZER_TESTS=OFF \
      -DCMAKE_DISABLE_FIND_PACKAGE_OpenCL=ON \
      -DSLUICE_ENABLE_LEVEL_ZERO=OFF >/dev/null
  fi
  ninja -C "$rtbuild" -j "${SLUICE_JOBS:-2}" sluice-runtime \
    sluice-runtime-tests sluice-ls >/dev/null
  rm -rf "$out/lib" "$out/bin" "$out/bench" "$out/check"
  mkdir -p "$out/lib" "$out/bin" "$out/bench"
  cp "$rtbuild/lib/libsluice-runtime.so" "$out/lib/"
  cp "$rtbuild/bin/sluice-runtime-tests" "$rtbuild/bin/sluice-ls" "$out/bin/"
  # SLUICE_BEFORE_RUNTIME: another build of the runtime library (an earlier
  # commit's), timed by gpu_latency in the same run for a before/after.
  rm -rf "$out/lib-before"
  if [ -n "${SLUICE_BEFORE_RUNTIME:-}" ]; then
    mkdir -p "$out/lib-before"
    cp "$SLUICE_BEFORE_RUNTIME" "$out/lib-before/libsluice-runtime.so"
  fi
  cp "$here/gpu.py" "$here/sluice_artifact.py" "$here/gpu_check.py" \
    "$here/reduce_check.py" "$here/run-gpu.sh" "$out/bench/"

  "${CXX:-c++}" -O2 -std=c++17 -I"$top/include" "$here/gpu_latency.cpp" \
    -o "$out/bin/gpu_latency" -L"$out/lib" -lsluice-runtime -ldl
  compile="$build/bin/sluice-compile"
  "$compile" "$here/gpu-programs.mlir" -o "$out/bench/bench.so"
  "$compile" "$top/test/python/Inputs/cuda_axpb.mlir" -o "$out/bench/axpb.so"
  "$compile" "$here/gpu-reductions.mlir" -o "$out/bench/reductions.so"
  # Compile time of the 10-op function, here: the whole tool (process start,
  # parsing, every pass, PTX, host code, and for .so the link), and the
  # pass pipeline alone as MLIR's timer reports it.
  "$py" - "$compile" "$build/bin/sluice-opt" "$here/gpu-compile.mlir" \
    "$out/bench/compile.json" <<'EOF'
import json, re, subprocess, sys, tempfile, time, os
compile_, opt, src, dst = sys.argv[1:]
tmp = tempfile.mkdtemp()
def wall(cmd, reps=7):
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        ts.append(time.perf_counter() - t)
    return sorted(ts)[reps // 2] * 1e3
res = {
  "sluice-compile -o .so": wall([compile_, src, "-o", os.path.join(tmp, "t.so")]),
  "sluice-compile --emit=obj": wall([compile_, src, "--emit=obj", "-o", os.path.join(tmp, "t.o")]),
}
ts = []
for _ in range(7):
    r = subprocess.run([opt, src, "--sluice-compile-program", "--mlir-timing",
                        "-o", os.devnull], check=True, capture_output=True, text=True)
    m = re.search(r"Total Execution Time: ([0-9.]+) seconds", r.stderr)
    ts.append(float(m.group(1)) * 1e3)
res["passes (sluice-opt --mlir-timing)"] = sorted(ts)[3]
json.dump(res, open(dst, "w"), indent=1)
print("compile times (ms):", {k: round(v, 1) for k, v in res.items()})
EOF
  # The benchmark's kernels as a CUBIN, for their SASS on the GPU machine.
  if command -v ptxas >/dev/null || [ -x /usr/local/cuda/bin/ptxas ]; then
    "$compile" "$here/gpu-programs.mlir" --emit=mlir --stop-after=binaries \
      -o - | "$py" "$top/test/Target/NVVM/extract-ptx.py" --only sluice_cuda_kernels \
      >"$out/bench/bench.ptx"
    PATH="$PATH:/usr/local/cuda/bin" ptxas -arch=sm_90 -v \
      "$out/bench/bench.ptx" -o "$out/bench/bench.sm_90.cubin" 2>&1 |
      grep -E "Compiling|Used|spill" >"$out/bench/ptxas.txt" || true
  fi
  "$py" "$here/gpu_check.py" prepare --out "$out/check" \
    --sluice-compile "$compile" >"$out/prepare.log" 2>&1 ||
    { tail -40 "$out/prepare.log"; exit 1; }
  tail -1 "$out/prepare.log"
  du -sh "$out"
  exit 0
fi

if [ "$mode" = device ]; then
  bundle="$(cd "${2:-$here/..}" && pwd)"
  shift $(( $# >= 2 ? 2 : 1 ))
  export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export PYTHONUNBUFFERED=1
  py="${SLUICE_PYTHON:-python3}"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem \
    --format=csv || true
  echo "== sluice-ls --verbose"
  "$bundle/bin/sluice-ls" --verbose || true
  echo "== runtime tests (cuda)"
  timeout 180 "$bundle/bin/sluice-runtime-tests" "--gtest_filter=Cuda*:Backends/Conformance.*/cuda" ||
    echo "RUNTIME TESTS FAILED"
  SLUICE_CUDA_TIMESTAMPS=exact timeout 60 "$bundle/bin/sluice-runtime-tests" \
    "--gtest_filter=CudaModule.*:CudaQueue.*:Backends/Conformance.*/cuda" --gtest_brief=1 ||
    echo "RUNTIME TESTS (exact timestamps) FAILED"
  SLUICE_CUDA_DRIVER=/does-not-exist/libcuda.so.1 \
    "$bundle/bin/sluice-runtime-tests" --gtest_filter='CudaBackend.NoDriver' \
    --gtest_brief=1 || echo "NO-DRIVER TEST FAILED"
  if [ -f "$bundle/bench/bench.sm_90.cubin" ] && command -v cuobjdump >/dev/null; then
    echo "== sum_reduce: spills (LDL/STL) and global loads (LDG) in its SASS"
    cuobjdump -sass -fun sum_reduce "$bundle/bench/bench.sm_90.cubin" |
      grep -nE "LDL|STL|LDG|BRA|BAR" | head -40 || true
  fi
  echo "== latency of small synchronous calls"
  timeout 120 "$bundle/bin/gpu_latency" "$bundle/bench/bench.so" || true
  SLUICE_CUDA_TIMESTAMPS=exact timeout 120 "$bundle/bin/gpu_latency" \
    "$bundle/bench/bench.so" | sed 's/^/[exact start times] /' || true
  if [ -f "$bundle/lib-before/libsluice-runtime.so" ]; then
    LD_LIBRARY_PATH="$bundle/lib-before:$LD_LIBRARY_PATH" timeout 120 \
      "$bundle/bin/gpu_latency" "$bundle/bench/bench.so" |
      sed 's/^/[before: SLUICE_BEFORE_RUNTIME] /' || true
  fi
  echo "== integration cases on cuda:gpu:0"
  timeout 300 "$py" "$bundle/bench/gpu_check.py" run --dir "$bundle/check" \
    --runtime "$bundle/lib/libsluice-runtime.so" || echo "GPU CHECK FAILED"
  echo "== full reductions against NumPy, two queues at once (reduce_check)"
  timeout 300 "$py" "$bundle/bench/reduce_check.py" \
    "$bundle/lib/libsluice-runtime.so" "$bundle/bench/reductions.so" ||
    echo "REDUCE CHECK FAILED"
  echo "== benchmark"
  "$py" "$bundle/bench/gpu.py" --bundle "$bundle" "$@"
  exit 0
fi

if [ "$mode" = python ]; then
  src="$(cd "$here/.." && pwd)"
  bundle="$(cd "${2:-$src/.cuda-bundle}" && pwd)"
  b="${SLUICE_GPU_PY_BUILD:-/tmp/sluice-gpu-python}"
  py="${SLUICE_PYTHON:-$(command -v python3)}"
  export PYTHONUNBUFFERED=1
  # The system's C++ compiler and its shared libstdc++, as PyTorch's: a
  # toolchain that links libstdc++ statically would export a second copy of
  # it, which PyTorch then mixes with its own (a crash in std::locale).
  cxx=/usr/bin/g++ cc=/usr/bin/gcc
  [ -x "$cxx" ] || { cxx="${CXX:-c++}"; cc="${CC:-cc}"; }
  hide="-Wl,--exclude-libs,ALL"
  echo "== build: runtime and Python package, no compiler ($py, $cxx)"
  cmake -G Ninja -S "$src" -B "$b" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_SHARED_LINKER_FLAGS="$hide" -DCMAKE_MODULE_LINKER_FLAGS="$hide" \
    -DSLUICE_ENABLE_COMPILER=OFF -DSLUICE_ENABLE_SANITIZER_TESTS=OFF \
    -DCMAKE_DISABLE_FIND_PACKAGE_OpenCL=ON -DSLUICE_ENABLE_LEVEL_ZERO=OFF \
    -DSLUICE_PYTHON="$py" >"$b.log" 2>&1 ||
    { tail -30 "$b.log"; exit 1; }
  ninja -C "$b" sluice-runtime _sluice >>"$b.log" 2>&1 ||
    { tail -30 "$b.log"; exit 1; }
  echo "== CUDA DLPack with PyTorch and CuPy"
  status=0
  PYTHONPATH="$b/python" LD_LIBRARY_PATH="$b/lib" SLUICE_CACHE_DIR=off \
    SLUICE_TEST_CUDA_ARTIFACT="$bundle/bench/axpb.so" \
    timeout 300 "$py" -m pytest -q -rs -p no:cacheprovider \
    --sluice-device=cuda:gpu:0 "$src/test/python/test_dlpack_cuda.py" \
    "$src/test/python/test_load.py" ||
    status=1
  if [ -x "$bundle/bin/sluice-runtime-tests" ]; then
    echo "== runtime tests (cuda, usm)"
    LD_LIBRARY_PATH="$bundle/lib" timeout 180 \
      "$bundle/bin/sluice-runtime-tests" "--gtest_filter=Cuda*:Usm.*:Backends/Conformance.*/cuda" \
      --gtest_brief=1 || status=1
  fi
  exit $status
fi

if [ "$mode" = wheel ]; then
  top="$(cd "$here/.." && pwd)"
  out="$(mkdir -p "${2:-$top/.cuda-bundle}/wheel" && cd "${2:-$top/.cuda-bundle}/wheel" && pwd)"
  py="${SLUICE_PYTHON:-$top/.venv/bin/python}"
  dist="$top/build-wheel-dist"
  rm -rf "$out"/* "$dist" && mkdir -p "$dist"
  (cd "$top" && CCACHE_BASEDIR="$top" CMAKE_BUILD_PARALLEL_LEVEL="${SLUICE_JOBS:-2}" \
    "$py" -m pip wheel . --no-build-isolation --no-deps -w "$dist" -q)
  whl="$(ls "$dist"/sluice-*.whl)"
  # The wheel (72 MB as a zip) is over the 64 MiB that travels: carry its
  # native part (runtime, compiler library, tools: the same for every
  # Python) as xz (46 MB); the GPU machine builds the extension around it.
  "$py" -m zipfile -e "$whl" "$dist/x"
  tar -C "$dist/x/sluice" -cf - lib bin | xz -T"${SLUICE_JOBS:-2}" -6 >"$out/native.tar.xz"
  basename "$whl" >"$out/built-from"
  ls -l "$whl" "$out/native.tar.xz"
  exit 0
fi

if [ "$mode" = wheel-device ]; then
  src="$(cd "$here/.." && pwd)"
  bundle="$(cd "${2:-$src/.cuda-bundle}" && pwd)"
  shift $(( $# >= 2 ? 2 : 1 ))
  [ "${1:-}" = "--" ] && shift
  py="${SLUICE_PYTHON:-$(command -v python3)}"
  tmp="${SLUICE_GPU_WHEEL_DIR:-/tmp/sluice-wheel}"
  export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
  whl="$(ls "$bundle"/wheel/sluice-*.whl 2>/dev/null | head -1 || true)"
  tag="$("$py" -c 'import sys; print("cp%d%d" % sys.version_info[:2])')"
  rm -rf "$tmp" && mkdir -p "$tmp/dist" "$tmp/run" "$tmp/carried/sluice"
  # SLUICE_GPU_WHEEL_REBUILD=1 takes that path even where the tags match
  # (to test it on the build machine).
  if [[ -z "$whl" || "$(basename "$whl")" != *"-$tag-$tag-"* || -n "${SLUICE_GPU_WHEEL_REBUILD:-}" ]]; then
    echo "== a wheel for $tag around the carried native part of $(cat "$bundle/wheel/built-from" 2>/dev/null)"
    if [ -f "$bundle/wheel/native.tar.xz" ]; then
      tar -C "$tmp/carried/sluice" -xJf "$bundle/wheel/native.tar.xz"
    else
      "$py" -m zipfile -e "$whl" "$tmp/carried"
    fi
    chmod +x "$tmp"/carried/sluice/bin/*
    cxx=/usr/bin/g++ cc=/usr/bin/gcc
    [ -x "$cxx" ] || { cxx="${CXX:-c++}"; cc="${CC:-cc}"; }
    (cd "$src" && CXX="$cxx" CC="$cc" "$py" -m pip wheel . --no-build-isolation \
      --no-deps -w "$tmp/dist" -Cbuild-dir="$tmp/build" -Cbuild.targets=_sluice \
      -Ccmake.define.SLUICE_PREBUILT_DIR="$tmp/carried/sluice" \
      -Ccmake.define.SLUICE_ENABLE_LEVEL_ZERO=OFF) >"$tmp/build.log" 2>&1 ||
      { tail -40 "$tmp/build.log"; exit 1; }
    whl="$(ls "$tmp"/dist/sluice-*.whl)"
  fi
  echo "== installing $(basename "$whl") into a fresh venv"
  "$py" -m venv --system-site-packages "$tmp/venv"
  # Where the machine's python3 is itself a venv (/opt/torch/.venv), the new
  # venv sees the base interpreter's packages only: add the outer one's.
  "$py" -c 'import site; print("\n".join(site.getsitepackages()))' \
    >"$("$tmp/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/outer.pth"
  "$tmp/venv/bin/python" -m pip install -q --no-index --no-deps "$whl"
  vpy="$tmp/venv/bin/python"
  # The tests read examples/, docs/ and include/ beside them: copy them with
  # the tree's layout (the package itself comes from the venv only).
  mkdir -p "$tmp/run/test"
  cp -r "$src/test/python" "$tmp/run/test/"
  cp -r "$src/examples" "$src/docs" "$src/include" "$src/bench" "$tmp/run/"
  cd "$tmp/run/test/python"
  status=0
  "$vpy" -c 'import sluice, sys; print(sluice.__file__); [print(d) for d in sluice.get_devices()]'
  PATH="$tmp/venv/bin:$PATH" sluice-ls || status=1
  if [ "${SLUICE_GPU_TESTS:-1}" != 0 ]; then
    echo "== Python tests from the wheel on cuda:gpu:0 and host:cpu:0"
    SLUICE_COMPILE="$tmp/venv/bin/sluice-compile" SLUICE_CACHE_DIR="$tmp/cache" \
      timeout "${SLUICE_GPU_TEST_TIMEOUT:-420}" "$vpy" -m pytest -q -rs \
      -p no:cacheprovider --sluice-device=cuda:gpu:0 --sluice-device=host:cpu:0 \
      "${@:-.}" || status=1
  fi
  # SLUICE_GPU_BENCH=0 skips the benchmarks (a device call is at most 10
  # minutes: run them in a second call, with SLUICE_GPU_TESTS=0).
  if [ "${SLUICE_GPU_BENCH:-1}" != 0 ]; then
    echo "== Python benchmarks from the wheel on cuda:gpu:0"
    timeout 240 "$vpy" "$src/bench/python_overhead.py" --device=cuda:gpu:0 || status=1
    timeout 300 "$vpy" "$src/bench/eager.py" --device=cuda:gpu:0 --quick || status=1
    timeout 420 "$vpy" "$src/bench/lazy.py" --device=cuda:gpu:0 --reps 5 || status=1
    timeout 240 "$vpy" "$src/bench/kernels_gpu.py" --quick || status=1
  fi
  exit $status
fi

echo "usage: run-gpu.sh bundle [DIR] | run-gpu.sh device [DIR] [gpu.py args] | run-gpu.sh python [DIR] | run-gpu.sh wheel [DIR] | run-gpu.sh wheel-device [DIR] [-- pytest args]" >&2
exit 2
