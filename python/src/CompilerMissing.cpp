//===- CompilerMissing.cpp - Builds without the compiler library ----------===//
//
// With SLUICE_ENABLE_COMPILER=OFF the package still gives devices, queues,
// arrays, DLPack and ahead-of-time compiled programs (sluice.load, which
// needs no compiler: Artifact.cpp); anything that compiles raises
// sluice.CompileError.
//
//===----------------------------------------------------------------------===//
#include "Compiler.h"
#include "Errors.h"

namespace sluice::py {

namespace {
[[noreturn]] void missing() {
  throw Error(ErrorKind::Compile,
              "this build of sluice has no compiler (configured with "
              "SLUICE_ENABLE_COMPILER=OFF): operations cannot be compiled");
}
} // namespace

nanobind::dict compileProgram(const std::string &, const std::string &,
                              const std::vector<std::string> &,
                              const std::string &, const std::vector<int> &,
                              bool, const std::string &, int) {
  missing();
}

std::string compilerVersion() { return ""; }

nanobind::dict compileStages() { return nanobind::dict(); }

} // namespace sluice::py
