#!/usr/bin/env bash
# Runs the eager Python benchmark (bench/eager.py) in the project venv with
# its peers (NumPy, numexpr, Numba; bench/requirements.txt), and with dpnp
# itself when --with-dpnp is given: a separate venv under .cache/dpnp-peer
# with dpnp, dpctl and Intel's OpenCL CPU runtime from the package index
# (see ../shared/bench-anchors/dpnp-peer.md), run as a subprocess.
#
#   bash bench/run-eager.sh                 # sluice vs numpy/numexpr/numba
#   bash bench/run-eager.sh --with-dpnp     # + dpnp (installs it once)
#   bash bench/run-eager.sh --quick         # other options go to eager.py
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$top/.venv"
BUILD="${SLUICE_BUILD_DIR:-$top/build}"
REQS="$top/bench/requirements.txt"
stamp="$VENV/.sluice-bench-reqs"
if ! cmp -s "$REQS" "$stamp" 2>/dev/null; then
  echo "run-eager: installing bench/requirements.txt (numexpr, numba)"
  "$VENV/bin/python" -m pip install -q -r "$REQS" && cp "$REQS" "$stamp" ||
    echo "run-eager: could not install the peers; their columns are -" >&2
fi
args=()
dpnp=0
for a in "$@"; do
  if [ "$a" = "--with-dpnp" ]; then dpnp=1; else args+=("$a"); fi
done
if [ "$dpnp" = 1 ]; then
  PEER="$top/.cache/dpnp-peer"
  if [ ! -x "$PEER/venv/bin/python" ] ||
     ! "$PEER/venv/bin/python" -c "import dpnp" 2>/dev/null; then
    echo "run-eager: installing dpnp, dpctl and intel-opencl-rt into $PEER"
    /usr/bin/python3 -m venv "$PEER/venv"
    "$PEER/venv/bin/pip" install -q dpnp dpctl intel-opencl-rt numpy
  fi
  mkdir -p "$PEER/icd"
  echo "$PEER/venv/lib/libintelocl.so" > "$PEER/icd/intel-cpu.icd"
  cat > "$PEER/python" <<EOS
#!/usr/bin/env bash
export OCL_ICD_VENDORS="$PEER/icd" LD_LIBRARY_PATH="$PEER/venv/lib"
export ONEAPI_DEVICE_SELECTOR=opencl:cpu
exec "$PEER/venv/bin/python" "\$@"
EOS
  chmod +x "$PEER/python"
  args+=(--dpnp-python "$PEER/python")
fi
PYTHONPATH="$BUILD/python" exec "$VENV/bin/python" "$top/bench/eager.py" "${args[@]}"
