#!/usr/bin/env bash
# Fails when Python sources are not formatted with `ruff format` or when
# `ruff check` reports a problem (the configuration is pyproject.toml's
# [tool.ruff]). Run by CTest as the `ruff` test; RUFF names the program.
#   scripts/check-python.sh          check
#   scripts/check-python.sh --fix    format and apply ruff's safe fixes
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"
ruff="${RUFF:-ruff}"
if [ "${1:-}" = "--fix" ]; then
  "$ruff" format .
  "$ruff" check --fix .
  exit
fi
bad=0
if ! "$ruff" format --no-cache --check --diff . >/tmp/sluice-ruff-format.$$ 2>&1; then
  head -80 /tmp/sluice-ruff-format.$$
  echo "not formatted (run: bash scripts/check-python.sh --fix)"
  bad=1
fi
rm -f /tmp/sluice-ruff-format.$$
"$ruff" check --no-cache --output-format concise . || bad=1
exit $bad
