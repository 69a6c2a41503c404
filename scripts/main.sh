#!/usr/bin/env bash
# README command 1: set up, build, and run Sluice's main job on the default
# device (the first GPU, else the host CPU): list the devices, then compile
# an example program (placement checks, fusion, kernels, host code) and run
# it there, printing its result.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$top/scripts/setup.sh" >&2
BUILD="${SLUICE_BUILD_DIR:-$top/build}"
example="$top/examples/softmax.mlir"
input="16xf32=[0.5 1 1.5 2 2.5 3 3.5 4 -1 -2 0 7 1 1 1 1]"
echo "== sluice-ls" >&2
"$BUILD/bin/sluice-ls" >&2
echo "== sluice-run $example --device=default --input=\"$input\"" >&2
"$BUILD/bin/sluice-run" "$example" --device=default --input="$input"
