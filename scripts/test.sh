#!/usr/bin/env bash
# README command 2: set up, build, and run the whole test suite through CTest.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$top/scripts/setup.sh"
BUILD="${SLUICE_BUILD_DIR:-$top/build}"
cd "$BUILD"
ctest --output-on-failure -j "${SLUICE_JOBS:-2}" "$@"
