#!/usr/bin/env bash
# "Compile here, run there": artifacts written by a build with the compiler
# run in a build of the runtime and the Python package without it
# (SLUICE_ENABLE_COMPILER=OFF, no LLVM/MLIR).
#
#   scripts/check-runtime-only.sh BUILD PYTHON [RUNTIME_ONLY_BUILD]
#
# Configures RUNTIME_ONLY_BUILD (default BUILD/runtime-only) once and builds
# its Python extension; then test/python/test_load.py exports artifacts,
# inputs and expected results with BUILD's package
# (SLUICE_TEST_EXPORT_DIR) and runs them with the runtime-only package
# (SLUICE_TEST_IMPORT_DIR), on every device of SLUICE_TEST_DEVICES (default:
# those of test/python/conftest.py) that is present. CTest runs it as
# python/load/runtime-only.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ $# -lt 2 ]; then
  echo "usage: $0 BUILD PYTHON [RUNTIME_ONLY_BUILD]" >&2
  exit 2
fi
build="$(cd "$1" && pwd)"
python="$2"
rt="${3:-$build/runtime-only}"

werror=()
[ "${CI:-}" = true ] && werror=(-DSLUICE_WARNINGS_AS_ERRORS=ON)
if [ ! -f "$rt/build.ninja" ]; then
  cmake -G Ninja -S "$top" -B "$rt" -DCMAKE_BUILD_TYPE=Release \
    -DSLUICE_ENABLE_COMPILER=OFF -DSLUICE_ENABLE_SANITIZER_TESTS=OFF \
    -DPython3_EXECUTABLE="$python" -DSLUICE_PYTHON="$python" "${werror[@]}" >"$rt.log" 2>&1 ||
    { cat "$rt.log"; exit 1; }
fi
cmake --build "$rt" --target _sluice -j "${SLUICE_JOBS:-2}"
if [ ! -f "$rt"/python/sluice/_sluice*.so ]; then
  echo "check-runtime-only: $rt built no Python extension" >&2
  exit 1
fi

# Level Zero runs through the test driver where the build has one.
wrap=()
[ -x "$build/bin/sluice-ze-test-env" ] && wrap=("$build/bin/sluice-ze-test-env")
artifacts="$rt/aot-artifacts"
rm -rf "$artifacts"
mkdir -p "$artifacts"
devices=()
for d in $(echo "${SLUICE_TEST_DEVICES:-}" | tr , " "); do devices+=("--sluice-device=$d"); done
tests="$top/test/python/test_load.py"
pytest=("$python" -m pytest -rs -p no:cacheprovider "${devices[@]}")

echo "== exporting with $build"
(cd "$artifacts" &&
  PYTHONPATH="$build/python" SLUICE_TEST_EXPORT_DIR="$artifacts" \
    "${wrap[@]}" "${pytest[@]}" -q -k deploy_export "$tests")
echo "== running them with $rt (no compiler)"
(cd "$artifacts" &&
  PYTHONPATH="$rt/python" SLUICE_TEST_IMPORT_DIR="$artifacts" \
    "${wrap[@]}" "${pytest[@]}" -v "$tests") | tee "$artifacts/import.log"
# At least one device ran the exported programs.
if ! grep -q "test_deploy_import.* PASSED" "$artifacts/import.log"; then
  echo "check-runtime-only: no device ran the exported artifacts" >&2
  exit 1
fi
if ! "$python" - "$rt/python" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import sluice
assert sluice.compiler_version() == "", "the runtime-only build has a compiler"
EOF
then
  exit 1
fi
echo "check-runtime-only: OK"
