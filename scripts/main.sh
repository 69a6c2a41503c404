#!/usr/bin/env bash
# README command 1: set up, build, and run Sluice's main job on the default device.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$top/scripts/setup.sh" >&2
BUILD="${SLUICE_BUILD_DIR:-$top/build}"
example="$top/examples/saxpy.mlir"
echo "== sluice-opt --usm-verify --canonicalize $example" >&2
"$BUILD/bin/sluice-opt" --canonicalize "$example"
