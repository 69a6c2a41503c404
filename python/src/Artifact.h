//===- Artifact.h - Loading ahead-of-time compiled programs -----*- C++ -*-===//
//
// Artifacts (shared objects written by sluice-compile or the compiler C API)
// are loaded with the MLIR-free loader of lib/Execution, so builds of the
// package without the compiler run them too.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_PYTHON_ARTIFACT_H
#define SLUICE_PYTHON_ARTIFACT_H

#include <nanobind/nanobind.h>

#include <string>

namespace sluice::py {

/// Loads the artifact at `path`. Returns a dict: ok, failure (the loader's
/// message), version (of the compiler that wrote it) and entries: one
/// (name, signature text, entry address, args, results) per entry point,
/// each argument and result as (is_array, dtype code, shape with -1 for a
/// dynamic size, device, queue name, USM kind). Loaded artifacts stay
/// mapped for the life of the process.
nanobind::dict openArtifact(const std::string &path);

/// Loads an artifact and looks up an entry ("" picks `main`, else the only
/// one): ok, failure, entry (an address), signature (its text).
nanobind::dict loadArtifact(const std::string &path,
                            const std::string &entryName);

} // namespace sluice::py

#endif // SLUICE_PYTHON_ARTIFACT_H
