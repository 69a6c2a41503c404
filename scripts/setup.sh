#!/usr/bin/env bash
# Installs everything Sluice needs on Debian 12 (packages + a Python venv),
# then configures and builds it. Idempotent: on a ready machine it only runs
# an incremental ninja build.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"

DEB_PACKAGES=(
  build-essential cmake ninja-build ccache git pkg-config
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  spirv-tools libze-dev ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
  clinfo llvm-spirv-15 libgtest-dev python3-venv python3-dev graphviz clang-format
  openmpi-bin libopenmpi-dev libopenblas0-pthread
  liblld-22-dev lld-22 zlib1g-dev libzstd-dev
)

missing=()
for p in "${DEB_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Python packages live in a venv the project owns.
VENV="$top/.venv"
PY_REQS="$top/scripts/requirements.txt"
stamp="$VENV/.sluice-reqs"
if [ ! -x "$VENV/bin/python" ]; then
  echo "setup: creating $VENV"
  /usr/bin/python3 -m venv "$VENV"
fi
if ! cmp -s "$PY_REQS" "$stamp" 2>/dev/null; then
  echo "setup: installing Python packages"
  "$VENV/bin/python" -m pip install -q --upgrade pip
  "$VENV/bin/python" -m pip install -q -r "$PY_REQS"
  cp "$PY_REQS" "$stamp"
fi

# Configure once, then build incrementally.
BUILD="${SLUICE_BUILD_DIR:-$top/build}"
JOBS="${SLUICE_JOBS:-2}"
# In CI (CI=true) every warning is an error (cmake/SluiceTargetRules.cmake).
werror=()
[ "${CI:-}" = true ] && werror=(-DSLUICE_WARNINGS_AS_ERRORS=ON)
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -G Ninja -S "$top" -B "$BUILD" \
    -DCMAKE_BUILD_TYPE=Release \
    -DPython3_EXECUTABLE="$VENV/bin/python" \
    -DSLUICE_PYTHON="$VENV/bin/python" "${werror[@]}"
elif ((${#werror[@]})); then
  cmake -B "$BUILD" "${werror[@]}" >/dev/null
fi
export CCACHE_BASEDIR="$top"
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
cmake --build "$BUILD" -j "$JOBS"

# `import sluice` in the venv uses this build (python/CMakeLists.txt puts
# the package in $BUILD/python; its .py files link to the sources).
if [ -d "$BUILD/python/sluice" ]; then
  site="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  echo "$BUILD/python" > "$site/sluice-build.pth"
fi
