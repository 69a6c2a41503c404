//===- Compiler.h - The compiler C API for Python ---------------*- C++ -*-===//
#ifndef SLUICE_PYTHON_COMPILER_H
#define SLUICE_PYTHON_COMPILER_H

#include <nanobind/nanobind.h>

#include <string>
#include <vector>

namespace sluice::py {

/// Parses `text`, sets `flags` (a complete set: the session keeps flags
/// between compiles), runs the pipeline through `captureStages` (keeping the
/// IR of each, with locations), JIT-compiles when `jit` and writes an
/// artifact when `artifactPath` is not empty. Returns a dict: ok, failure
/// (one line), errors (the invocation's error lines), diagnostics (severity,
/// location, message), signatures, entry (an address, 0 without jit), ir
/// ({stage: text}).
nanobind::dict compileProgram(const std::string &text,
                              const std::string &bufferName,
                              const std::vector<std::string> &flags,
                              const std::string &entryName,
                              const std::vector<int> &captureStages, bool jit,
                              const std::string &artifactPath, int session = 0);

/// sluiceCompilerGetVersionString().
std::string compilerVersion();

/// The compiler's stages by name (sluiceCompileStageName); empty without
/// the compiler.
nanobind::dict compileStages();

} // namespace sluice::py

#endif // SLUICE_PYTHON_COMPILER_H
