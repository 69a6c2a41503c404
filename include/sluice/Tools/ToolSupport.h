//===- ToolSupport.h - What sluice-compile and sluice-run share -*- C++ -*-===//
//
// The program loader both tools share: open, check the nesting depth, parse
// with the compiler's dialects, and rebind to --device; finding an entry and
// JIT-compiling it; running artifacts on another device. (Their compile flags
// are sluice/Pipelines/CompileOptions.h's.)
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_TOOLS_TOOLSUPPORT_H
#define SLUICE_TOOLS_TOOLSUPPORT_H

#include "sluice/Execution/EntrySignature.h"
#include "sluice/Execution/Invoker.h"
#include "sluice/Pipelines/CompileOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>
#include <string>

namespace sluice::exec {
class JitProgram;
} // namespace sluice::exec

namespace sluice::tools {

/// Reports an error at the first bracket of `buffer` that nests deeper than
/// MLIR's recursive parser takes (it would overflow the stack); true if so.
bool reportTooDeepNesting(const llvm::MemoryBuffer &buffer);

/// A program parsed from a file, with its context and diagnostics, which
/// print to standard error.
struct LoadedProgram {
  LoadedProgram();
  ~LoadedProgram();

  mlir::MLIRContext context;
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

/// Loads `file` (- is standard input) with the compiler's dialects and, with
/// a `device`, binds every queue to it (`allowAbsent`: a device named in full
/// need not be on this machine). Null with `error` set when the file or the
/// device is wrong; null with `error` empty when the diagnostics printed why.
std::unique_ptr<LoadedProgram> loadProgram(llvm::StringRef file,
                                           llvm::StringRef device,
                                           bool allowAbsent,
                                           std::string &error);

/// The signature of the function `name` of `module` (empty: @main or the
/// only public one); failure when the diagnostics printed why not.
mlir::FailureOr<exec::EntrySignature> entrySignature(mlir::ModuleOp module,
                                                     llvm::StringRef name);

/// Compiles `module` with `options`, JIT-compiles it into `jit` and returns
/// its entry point `name`. Empty with `error` set when the JIT fails; empty
/// with `error` empty when the diagnostics printed why.
std::optional<exec::EntryFunction>
jitEntry(mlir::ModuleOp module, const CompileOptions &options,
         llvm::StringRef name, std::unique_ptr<exec::JitProgram> &jit,
         std::string &error);

/// Runs artifacts' programs on `device` (a filter selector, or "default":
/// the runtime's default device; "" keeps their placements), through the
/// runtime's device override. `selector` is the device bound; false with
/// `error` set when `device` is wrong.
bool overrideArtifactDevice(const std::string &device, std::string &selector,
                            std::string &error);

/// A note for a failed run of an artifact's entry `signature` on the device
/// `selector`: an artifact carries kernels only for the backends it was
/// compiled for, so say so when `selector` is on another one (empty when it
/// is not, or without a selector).
std::string artifactBackendHint(const exec::EntrySignature &signature,
                                const std::string &selector);

} // namespace sluice::tools

#endif // SLUICE_TOOLS_TOOLSUPPORT_H
