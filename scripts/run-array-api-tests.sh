#!/usr/bin/env bash
# Runs the Array API conformance suite (data-apis/array-api-tests, with its
# array-api submodule, checked out OUTSIDE this repository) against `sluice`
# on one device and prints pass/fail/skip per test file (docs/conformance.md).
#
#   bash scripts/run-array-api-tests.sh /work/ext/array-api-tests host [pytest args...]
#
# Complex dtypes are tested (ARRAY_API_TESTS_SKIP_DTYPES may name dtypes to
# leave out). SLUICE_CONFORMANCE_CI=1 is the bounded CTest run: the files of
# the elementwise, data-type, creation, statistical and array-object tests,
# the known deviations (test/python/array-api-xfails.txt) as xfails, and the
# exit status of pytest; a missing suite prints SLUICE-ARRAY-API-MISSING
# (CTest: skipped).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -d "${1:-}/array_api_tests" ]; then
  echo "SLUICE-ARRAY-API-MISSING: no array-api-tests checkout at '${1:-}'" \
       "(docs/conformance.md)"
  exit 0
fi
suite=$(cd "$1" && pwd); device=${2:-host}; shift 2 || true
py=${SLUICE_PYTHON:-$here/.venv/bin/python}
out=${SLUICE_CONFORMANCE_OUT:-$here/build/array-api-tests-$device}
mkdir -p "$out"
case $device in
  host) sel='host:*' ;;
  opencl) sel='opencl:*' ;;
  *) sel=$device ;;
esac
ci=${SLUICE_CONFORMANCE_CI:-0}
what=(array_api_tests)
if [ "$ci" = 1 ]; then
  what=()
  for f in operators_and_elementwise_functions special_cases \
           statistical_functions data_type_functions creation_functions \
           array_object; do
    what+=("array_api_tests/test_$f.py")
  done
  set -- --xfails-file="$here/test/python/array-api-xfails.txt" "$@"
fi
cd "$suite"
rc=0
ARRAY_API_TESTS_MODULE=sluice \
ARRAY_API_TESTS_SKIP_DTYPES=${ARRAY_API_TESTS_SKIP_DTYPES-} \
SLUICE_DEVICE_SELECTOR=$sel PYTHONPATH=${PYTHONPATH:-$here/build/python} \
  "$py" -m pytest -q -p no:cacheprovider --disable-deadline \
    --max-examples="${MAX_EXAMPLES:-20}" --json-report \
    --json-report-file="$out/report.json" "$@" "${what[@]}" || rc=$?
"$py" - "$out/report.json" <<'PY'
import collections, json, sys
r = json.load(open(sys.argv[1]))
per = collections.defaultdict(collections.Counter)
for t in r["tests"]:
    f = t["nodeid"].split("::")[0].rsplit("/", 1)[-1]
    per[f][t["outcome"]] += 1
tot = collections.Counter()
print("| file | passed | failed | skipped | xfailed |")
print("|---|---:|---:|---:|---:|")
def row(name, c):
    print(f"| {name} | {c['passed'] + c['xpassed']} | {c['failed'] + c['error']}"
          f" | {c['skipped']} | {c['xfailed']} |")
for f in sorted(per):
    tot.update(per[f]); row(f, per[f])
row("total", tot)
PY
[ "$ci" = 1 ] && exit $rc
exit 0
