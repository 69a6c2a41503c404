#!/usr/bin/env bash
# Runs the Array API conformance suite (data-apis/array-api-tests, with its
# array-api submodule, checked out OUTSIDE this repository) against `sluice`
# on one device and prints pass/fail/skip per test file (docs/conformance.md).
#
#   bash scripts/run-array-api-tests.sh /work/ext/array-api-tests host [pytest args...]
#
# Complex dtypes are skipped until sluice has them (ARRAY_API_TESTS_SKIP_DTYPES);
# with them skipped the suite's dtype_helpers.py needs `default=(None, 0)` in
# its `widest_complex_dtype = max(...)` (docs/conformance.md).
set -euo pipefail
suite=$(cd "$1" && pwd); device=${2:-host}; shift 2 || true
here=$(cd "$(dirname "$0")/.." && pwd)
py=${SLUICE_PYTHON:-$here/.venv/bin/python}
out=${SLUICE_CONFORMANCE_OUT:-$here/build/array-api-tests-$device}
mkdir -p "$out"
case $device in
  host) sel='host:*' ;;
  opencl) sel='opencl:*' ;;
  *) sel=$device ;;
esac
cd "$suite"
ARRAY_API_TESTS_MODULE=sluice \
ARRAY_API_TESTS_SKIP_DTYPES=${ARRAY_API_TESTS_SKIP_DTYPES-complex64,complex128} \
SLUICE_DEVICE_SELECTOR=$sel PYTHONPATH=${PYTHONPATH:-$here/build/python} \
  "$py" -m pytest -q -p no:cacheprovider --disable-deadline \
    --max-examples="${MAX_EXAMPLES:-20}" --json-report \
    --json-report-file="$out/report.json" "$@" array_api_tests || true
"$py" - "$out/report.json" <<'PY'
import collections, json, sys
r = json.load(open(sys.argv[1]))
per = collections.defaultdict(collections.Counter)
for t in r["tests"]:
    f = t["nodeid"].split("::")[0].rsplit("/", 1)[-1]
    per[f][t["outcome"]] += 1
tot = collections.Counter()
print("| file | passed | failed | skipped |")
print("|---|---:|---:|---:|")
for f in sorted(per):
    c = per[f]; tot.update(c)
    print(f"| {f} | {c['passed']} | {c['failed'] + c['error']} | {c['skipped']} |")
print(f"| total | {tot['passed']} | {tot['failed'] + tot['error']} | {tot['skipped']} |")
PY
