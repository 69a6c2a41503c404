#!/usr/bin/env bash
# Runs the CPU benchmark (bench/cpu.py) in the project venv ($ROOT/.venv),
# creating it and installing bench/requirements.txt (numexpr, numba) when
# missing, against the build directory's sluice-run.
#
#   bash bench/run-cpu.sh                 # N=2e7, median of 9
#   bash bench/run-cpu.sh --n 1e6 --reps 7
#   SLUICE_BUILD_DIR=build-rel bash bench/run-cpu.sh
#
# A peer that cannot be installed (no network) prints n/a with the reason;
# without sluice-run the Sluice column is n/a.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

VENV="$top/.venv"
REQS="$top/bench/requirements.txt"
stamp="$VENV/.sluice-bench-reqs"
if [ ! -x "$VENV/bin/python" ]; then
  echo "run-cpu: creating $VENV"
  /usr/bin/python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import numpy" 2>/dev/null; then
  "$VENV/bin/python" -m pip install -q -r "$top/scripts/requirements.txt" ||
    echo "run-cpu: could not install scripts/requirements.txt" >&2
fi
if ! cmp -s "$REQS" "$stamp" 2>/dev/null; then
  echo "run-cpu: installing bench/requirements.txt (numexpr, numba)"
  if "$VENV/bin/python" -m pip install -q -r "$REQS"; then
    cp "$REQS" "$stamp"
  else
    echo "run-cpu: pip failed: peers that are missing will print n/a" >&2
  fi
fi

BUILD="${SLUICE_BUILD_DIR:-$top/build}"
exec "$VENV/bin/python" "$top/bench/cpu.py" \
  --sluice-run "$BUILD/bin/sluice-run" "$@"
