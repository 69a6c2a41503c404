#!/usr/bin/env bash
# The installable package: builds the wheel (pyproject.toml; static LLVM,
# MLIR and LLD in build-wheel/, which ccache fills from the ordinary build),
# checks that every binary in it needs only the C/C++ system libraries,
# installs it into a fresh virtual environment and runs Python tests against
# the installed package, with no build or source tree on any path, no
# LD_LIBRARY_PATH and no C compiler or linker on PATH.
#
#   scripts/check-wheel.sh PYTHON [WORK_DIR]
#
# PYTHON is the project venv's interpreter (scikit-build-core, nanobind,
# numpy, pytest); WORK_DIR (default build/wheel-check) gets the wheel and the
# venv. SLUICE_WHEEL_TESTS overrides the pytest files run (paths under
# test/python); SLUICE_WHEEL_DEVICES the devices (default host:cpu:0).
# CTest runs it as python/wheel.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
py="${1:?usage: check-wheel.sh PYTHON [WORK_DIR]}"
work="$(mkdir -p "${2:-$top/build/wheel-check}" && cd "${2:-$top/build/wheel-check}" && pwd)"
rm -rf "$work/dist" "$work/venv" "$work/run"
mkdir -p "$work/dist" "$work/run"

echo "== building the wheel (build-wheel/)"
t0=$(date +%s)
(cd "$top" && CCACHE_BASEDIR="$top" CMAKE_BUILD_PARALLEL_LEVEL="${SLUICE_JOBS:-2}" \
  "$py" -m pip wheel . --no-build-isolation --no-deps -w "$work/dist" -v) \
  >"$work/build.log" 2>&1 || { tail -60 "$work/build.log"; exit 1; }
t1=$(date +%s)
whl="$(ls "$work"/dist/sluice-*.whl)"
echo "built $(basename "$whl"): $(du -k "$whl" | cut -f1) KiB in $((t1 - t0)) s"

echo "== installing it into a fresh venv"
"$py" -m venv "$work/venv"
venv_py="$work/venv/bin/python"
# numpy, pytest and hypothesis from the project venv, added as a plain path
# (its .pth files, which name the build tree, are not read from there).
site="$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
vsite="$("$venv_py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
echo "$site" >"$vsite/zz-test-deps.pth"
"$venv_py" -m pip install -q --no-index --no-deps "$whl"

echo "== the installed binaries"
"$venv_py" "$top/scripts/check-wheel-deps.py" "$vsite/sluice"

# Only the venv (and nothing with a C compiler or linker) on PATH; the tests
# run from a directory outside the trees.
# The test files run where they are (they read examples/ and Inputs/ beside
# them); pytest puts only test/python on sys.path, which holds no package.
tests=()
for t in ${SLUICE_WHEEL_TESTS:-test_arrays test_async test_creation test_devices test_dlpack test_dpctl test_dpctl_examples test_examples test_hardening test_jit test_kernel test_load test_memory test_math_accuracy}; do
  tests+=("$top/test/python/$t.py")
done
devices=()
for d in $(echo "${SLUICE_WHEEL_DEVICES:-host:cpu:0}" | tr , " "); do
  devices+=("--sluice-device=$d")
done
clean_env=(env -i HOME="$work/run" PATH="$work/venv/bin"
  SLUICE_CACHE_DIR="$work/run/cache" PYTHONDONTWRITEBYTECODE=1
  SLUICE_COMPILE="$work/venv/bin/sluice-compile" ${OCL_ICD_VENDORS:+OCL_ICD_VENDORS=$OCL_ICD_VENDORS})
cd "$work/run"
echo "== the package and its tools"
"${clean_env[@]}" "$venv_py" - "$top" "$work" "$site" <<'PY'
import os, subprocess, sys
top = os.path.realpath(sys.argv[1])
work = os.path.realpath(sys.argv[2])
# The test dependencies' site-packages (NumPy, pytest: the project's venv,
# which may lie inside the tree, as in CI) is on the path on purpose; its
# .pth files (one names the build tree) are not read from there.
deps = os.path.realpath(sys.argv[3])
import sluice
where = os.path.realpath(sluice.__file__)
assert where.startswith(os.path.realpath(sys.prefix)), where
bad = [p for p in sys.path if p and os.path.realpath(p).startswith(top)
       and not os.path.realpath(p).startswith(work)
       and os.path.realpath(p) != deps]
assert not bad, f"the source or build tree is on sys.path: {bad}"
import numpy as np
a = sluice.arange(8, dtype="float32", device="host")
@sluice.jit
def f(x):
    return sluice.exp(x) * 2 + x
got = sluice.asnumpy(f(a))
want = np.exp(np.arange(8, dtype=np.float32)) * 2 + np.arange(8, dtype=np.float32)
assert np.allclose(got, want), got
maps = open("/proc/self/maps").read()
# (An OpenCL driver may load an LLVM of its own: PoCL loads libLLVM-15.)
for lib in ("libMLIR", "libLLVM.so.22", "/llvm-22/"):
    assert lib not in maps, f"{lib} is loaded"
print("import, eager and jit: ok;", where)
for tool in ("sluice-ls", "sluice-opt", "sluice-compile", "sluice-run"):
    r = subprocess.run([tool, "--help"], capture_output=True, text=True)
    assert r.returncode == 0, (tool, r.stderr[-2000:])
print("console scripts: ok")
PY
"${clean_env[@]}" sluice-compile "$top/examples/saxpy.mlir" --device=host -o saxpy.so
"${clean_env[@]}" sluice-run saxpy.so --input=f32=2 --input=1024xf32=1.5 \
  --input=1024xf32=1 --print-max-elements=4 | tee saxpy.out
grep -q "4" saxpy.out
echo "== pytest against the installed package: ${SLUICE_WHEEL_TESTS:-all but test_ops}"
t2=$(date +%s)
"${clean_env[@]}" "$venv_py" -m pytest -q -rs -p no:cacheprovider \
  --rootdir="$work/run" "${devices[@]}" "${tests[@]}"
"${clean_env[@]}" "$venv_py" -c 'import sluice, sys; print("tested", sluice.__file__)'

echo "wheel build $((t1 - t0)) s, tests $(($(date +%s) - t2)) s"
