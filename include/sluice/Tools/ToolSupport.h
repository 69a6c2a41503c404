//===- ToolSupport.h - What sluice-compile and sluice-run share -*- C++ -*-===//
//
// The pipeline options both tools take (one binder of command-line options
// to ProgramPipelineOptions) and the program loader: open, check the nesting
// depth, parse with the compiler's dialects, and rebind to --device.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_TOOLS_TOOLSUPPORT_H
#define SLUICE_TOOLS_TOOLSUPPORT_H

#include "sluice/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>

namespace sluice::tools {

/// --device, --no-fusion and --spirv-native-f16, registered in `category`.
/// `deviceHelp` says what the device is for (compile for, run on).
struct PipelineFlags {
  PipelineFlags(llvm::cl::OptionCategory &category, const char *deviceHelp);

  llvm::cl::opt<std::string> device;
  llvm::cl::opt<bool> noFusion;
  llvm::cl::opt<bool> spirvNativeF16;

  /// The pipeline options these flags select.
  ProgramPipelineOptions pipelineOptions() const;
};

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

} // namespace sluice::tools

#endif // SLUICE_TOOLS_TOOLSUPPORT_H
