#!/usr/bin/env bash
# Matrix products on a CUDA GPU (bench/linalg.py), compiled here, run there.
#
#   bash bench/linalg-gpu.sh bundle DIR    # here: the sources and the jitted
#       cases compiled for cuda:gpu:0 (Lowered.save) into DIR
#   bash DIR/linalg-gpu.sh device DIR      # on the GPU machine: builds the
#       runtime and the Python package without the compiler, then runs
#       bench/linalg.py --load (CuPy and PyTorch as peers, cuBLAS loaded by
#       the runtime at run time)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mode="${1:-}"
dir="${2:-}"
[ -n "$mode" ] && [ -n "$dir" ] ||
  { echo "usage: linalg-gpu.sh bundle|device DIR" >&2; exit 2; }

if [ "$mode" = bundle ]; then
  top="$(cd "$here/.." && pwd)"
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  (cd "$top" && git archive HEAD) >"$dir/src.tar"
  cp "$here/linalg-gpu.sh" "$dir/"
  PYTHONPATH="$top/build/python" "$top/.venv/bin/python" "$top/bench/linalg.py" \
    --device cuda:gpu:0 --save "$dir/art"
  exit 0
fi

if [ "$mode" = device ]; then
  dir="$(cd "$dir" && pwd)"
  src=/tmp/sluice-src b=/tmp/sluice-rt
  rm -rf "$src" && mkdir -p "$src" && tar -xf "$dir/src.tar" -C "$src"
  py="$(command -v python3)"
  echo "== build: runtime and Python package, no compiler"
  cmake -G Ninja -S "$src" -B "$b" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER=/usr/bin/g++ -DCMAKE_C_COMPILER=/usr/bin/gcc \
    -DCMAKE_SHARED_LINKER_FLAGS=-Wl,--exclude-libs,ALL \
    -DCMAKE_MODULE_LINKER_FLAGS=-Wl,--exclude-libs,ALL \
    -DSLUICE_ENABLE_COMPILER=OFF -DSLUICE_ENABLE_SANITIZER_TESTS=OFF \
    -DCMAKE_DISABLE_FIND_PACKAGE_OpenCL=ON -DSLUICE_ENABLE_LEVEL_ZERO=OFF \
    -DSLUICE_PYTHON="$py" >"$b.log" 2>&1 || { tail -30 "$b.log"; exit 1; }
  ninja -C "$b" sluice-runtime _sluice >>"$b.log" 2>&1 ||
    { tail -30 "$b.log"; exit 1; }
  # cuBLAS: the runtime dlopens libcublas.so.13/.12; where neither is on the
  # loader's path, the copy PyTorch's wheels carry.
  if ! ldconfig -p | grep -q 'libcublas\.so\.1[23]'; then
    cand="$(ls /usr/local/cuda/lib64/libcublas.so.1* 2>/dev/null | head -1 || true)"
    if [ -z "$cand" ]; then
      cand="$("$py" "$src/bench/linalg.py" --find-cublas || true)"
    fi
    [ -n "$cand" ] && export SLUICE_CUBLAS="$cand"
  fi
  echo "== cuBLAS: ${SLUICE_CUBLAS:-found by the dynamic loader}"
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv || true
  PYTHONPATH="$b/python" LD_LIBRARY_PATH="$b/lib" SLUICE_CACHE_DIR=off \
    PYTHONUNBUFFERED=1 "$py" "$src/bench/linalg.py" --device cuda:gpu:0 \
    --load "$dir/art" --reps "${REPS:-10}"
  exit 0
fi
echo "usage: linalg-gpu.sh bundle|device DIR" >&2
exit 2
