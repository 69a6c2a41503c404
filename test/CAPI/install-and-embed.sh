#!/usr/bin/env bash
# Installs this build into a fresh prefix, builds examples/embed against the
# installed package with find_package(Sluice), and runs both consumers.
#   install-and-embed.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build="$1" src="$2" work="$3"
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
test -f "$work/prefix/lib/cmake/Sluice/SluiceConfig.cmake"
test -x "$work/prefix/bin/sluice-compile"
test -f "$work/prefix/include/sluice-c/Compiler.h"
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
cmake "${generator[@]}" -S "$src/examples/embed" -B "$work/embed-build" \
  -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log"
cmake --build "$work/embed-build" > "$work/build.log"
"$work/embed-build/embed-c"
"$work/embed-build/embed-cpp" "$work"
# The installed tools run too (they find the runtime in ../lib).
"$work/prefix/bin/sluice-ls" > /dev/null
"$work/prefix/bin/sluice-compile" "$src/examples/saxpy.mlir" -o "$work/saxpy.so"
test -f "$work/saxpy.so"
echo "install-and-embed: ok"
