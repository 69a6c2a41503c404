#!/usr/bin/env bash
# README command 1: set up, build, and run Sluice's main job on the default
# device. Until compile-and-run lands, the job is the compiler front half:
# list the devices, then check placement, fold and fuse an example program
# and print the result.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$top/scripts/setup.sh" >&2
BUILD="${SLUICE_BUILD_DIR:-$top/build}"
example="$top/examples/saxpy.mlir"
echo "== sluice-ls" >&2
"$BUILD/bin/sluice-ls" >&2
echo "== sluice-opt --usm-verify-placement --canonicalize --usm-fuse-elementwise $example" >&2
"$BUILD/bin/sluice-opt" --usm-verify-placement --canonicalize \
  --usm-fuse-elementwise "$example"
