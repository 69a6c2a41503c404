//===- EmitModule.h - What sluice-compile writes ----------------*- C++ -*-===//
//
// sluice-compile's output phase: the kinds of file it writes, their default
// names, its --stop-after values, and writing a compiled module as MLIR,
// LLVM IR, an object file or a shared object (ArtifactWriter.h's artifact).
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_TOOLS_EMITMODULE_H
#define SLUICE_TOOLS_EMITMODULE_H

#include "sluice/Execution/ArtifactWriter.h"
#include "sluice/Execution/EntrySignature.h"
#include "sluice/Pipelines/CompileOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/CommandLine.h"

#include <string>
#include <vector>

namespace sluice::tools {

/// What sluice-compile writes (--emit).
enum class Emit { Mlir, Llvm, Obj, So };

/// --emit's values.
llvm::cl::ValuesClass emitValues();

/// --stop-after's values: the stages of the program pipeline after the
/// input, named by programStageName.
llvm::cl::ValuesClass stopAfterValues();

/// The output when -o is not given: the input's file name with .so or .o in
/// the current directory (a.so or a.o for standard input); "-" (standard
/// output) for text.
std::string defaultOutputFile(llvm::StringRef inputFile, Emit emit);

/// Compiles `module` with `options` up to `stopAfter`. When that is the
/// LLVM dialect, `signatures` are its public functions' (taken from the
/// usm-level functions, before lowering). Failure when the diagnostics
/// printed why.
mlir::LogicalResult
compileToStage(mlir::ModuleOp module, const CompileOptions &options,
               ProgramStage stopAfter,
               std::vector<exec::EntrySignature> &signatures);

/// Writes `module` (compiled up to the stage the caller chose) to `output`
/// as `emit` says, at `artifact.optLevel`; Emit::So links the artifact with
/// `artifact`'s options. With `inLLVM` (the module is in the LLVM dialect)
/// the artifact's globals of `signatures` are added first, as the shared
/// object has them. False with `error` set when it cannot.
bool writeModule(mlir::ModuleOp module, Emit emit, const std::string &output,
                 llvm::ArrayRef<exec::EntrySignature> signatures, bool inLLVM,
                 const exec::ArtifactOptions &artifact, std::string &error);

} // namespace sluice::tools

#endif // SLUICE_TOOLS_EMITMODULE_H
