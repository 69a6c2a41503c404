//===- Compiler.h - Compiling usm programs to runnable code -----*- C++ -*-===//
//
// The MLIR side of execution: the signature of an entry function, rebinding
// a program's queues to a device, running the program pipeline, and turning
// the LLVM dialect into a JIT-compiled program or an object file.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_EXECUTION_COMPILER_H
#define SLUICE_EXECUTION_COMPILER_H

#include "sluice/Execution/EntrySignature.h"
#include "sluice/Execution/Invoker.h"
#include "sluice/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace sluice::exec {

/// Registers what the program pipeline and LLVM translation need.
void registerCompilerDialects(mlir::DialectRegistry &registry);

/// The entry function to run: `name` if given, else `main`, else the only
/// public function. Reports an error at the module otherwise.
mlir::FailureOr<mlir::func::FuncOp> findEntry(mlir::ModuleOp module,
                                              llvm::StringRef name);

/// The signature of a usm-level function (array arguments with placements).
mlir::FailureOr<EntrySignature> signatureOf(mlir::func::FuncOp func);

/// Puts every queue of the module on `device` (a normalised filter string),
/// keeping queue names.
void rebindQueues(mlir::ModuleOp module, llvm::StringRef device);

/// The normalised filter string of a tool's `--device=` value: "default"
/// is the runtime's default device (the first GPU, else the host), any
/// other selector the device it selects. With `allowAbsent` (compiling for
/// another machine), a device named in full ("cuda:gpu:0") need not be
/// present. Fails with the runtime's reason.
llvm::Expected<std::string> resolveDevice(llvm::StringRef device,
                                          bool allowAbsent);

/// Runs the program pipeline on a usm module.
mlir::LogicalResult compileProgram(mlir::ModuleOp module,
                                   const ProgramPipelineOptions &options);

/// Whether the host code of `module` (in the LLVM dialect) only launches
/// device kernels and calls the runtime (convert-host-to-runtime marked it
/// kLaunchCodeOnlyAttrName): it is then compiled without optimisation,
/// whatever the level asked for.
bool isLaunchCodeOnly(mlir::ModuleOp module);

/// A target machine for the host CPU (its features, for vectorisation).
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
hostTargetMachine(bool positionIndependent = false);

/// A JIT-compiled program (from a module in the LLVM dialect).
class JitProgram {
public:
  static llvm::Expected<std::unique_ptr<JitProgram>>
  create(mlir::ModuleOp module, unsigned optLevel = 3);
  ~JitProgram();

  /// The entry point of public function `name`.
  llvm::Expected<EntryFunction> entry(llvm::StringRef name);
  /// The address of that entry point (`int32_t (void **)`).
  llvm::Expected<void *> entryAddress(llvm::StringRef name);

private:
  JitProgram() = default;
  std::unique_ptr<mlir::ExecutionEngine> engine;
};

/// Writes LLVM IR or a native object for the host (after optimisation).
llvm::Error emitLLVMIR(mlir::ModuleOp module, llvm::raw_ostream &os,
                       unsigned optLevel = 3);
llvm::Error emitObject(mlir::ModuleOp module, llvm::raw_pwrite_stream &os,
                       unsigned optLevel = 3);

} // namespace sluice::exec

#endif // SLUICE_EXECUTION_COMPILER_H
