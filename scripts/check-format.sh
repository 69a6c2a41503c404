#!/usr/bin/env bash
# Fails when a C or C++ source is not formatted with the project's
# .clang-format (LLVM style). Run by CTest as the `clang-format` test.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"
cf="${CLANG_FORMAT:-clang-format}"
bad=0
while IFS= read -r -d '' f; do
  if ! "$cf" --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "not formatted: $f (run: $cf -i $f)"
    bad=1
  fi
done < <(find include lib tools test examples python -type f \
           \( -name '*.cpp' -o -name '*.h' -o -name '*.c' \) -print0)
exit $bad
