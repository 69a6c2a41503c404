//===- ArtifactWriter.h - Writing ahead-of-time compiled programs -*- C++ -*-=//
//
// Turns a program compiled to the LLVM dialect into an artifact (see
// Artifact.h): a shared object linked against libsluice-runtime.so that
// carries the signatures of its entry points.
//
//   auto sigs = exec::publicSignatures(module);   // on the usm-level module
//   exec::compileProgram(module, options);        // down to the LLVM dialect
//   exec::writeArtifact(module, *sigs, "prog.so", {});
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_EXECUTION_ARTIFACTWRITER_H
#define SLUICE_EXECUTION_ARTIFACTWRITER_H

#include "sluice/Execution/EntrySignature.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace sluice::exec {

struct ArtifactOptions {
  /// LLVM optimisation level of the host code (0-3).
  unsigned optLevel = 3;
  /// The directory of libsluice-runtime.so, linked against and put in the
  /// artifact's run path. Empty: defaultRuntimeDir().
  std::string runtimeDir;
  /// The C compiler that links the shared object: a path, or a name looked
  /// up on PATH; "builtin": LLD in process (InProcessLinker.h); empty: the
  /// build's default (defaultLinker()).
  std::string linker;
  /// Also remove the temporary files when the process dies of a signal or
  /// an LLVM fatal error (llvm::sys::RemoveFileOnSignal, which installs
  /// LLVM's signal handlers: for tools, not for processes that embed the
  /// compiler and own their signals).
  bool removeTemporariesOnSignal = false;
};

/// Where this build's libsluice-runtime.so is.
std::string defaultRuntimeDir();
/// What artifacts record in `sluice_compiler_version`.
std::string compilerVersion();

/// The signatures of the module's public functions, which become entry
/// points (on usm-level IR, before the program pipeline). Reports an error
/// at a function whose signature a caller could not lay out.
mlir::FailureOr<std::vector<EntrySignature>>
publicSignatures(mlir::ModuleOp module);

/// Adds (or replaces) the `sluice_signatures` and `sluice_compiler_version`
/// globals of a module in the LLVM dialect.
llvm::Error addArtifactGlobals(mlir::ModuleOp module,
                               llvm::ArrayRef<EntrySignature> signatures);

/// Writes the artifact for a module in the LLVM dialect to `path`: adds the
/// globals, emits an object file and links it with the C compiler. Nothing is
/// left at `path` on failure (an existing file is replaced only on success),
/// nor any temporary file. A failed link returns the linker's output.
llvm::Error writeArtifact(mlir::ModuleOp module,
                          llvm::ArrayRef<EntrySignature> signatures,
                          llvm::StringRef path,
                          const ArtifactOptions &options = {});

} // namespace sluice::exec

#endif // SLUICE_EXECUTION_ARTIFACTWRITER_H
