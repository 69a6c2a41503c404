//===- HostToRuntime.h - Pieces of convert-host-to-runtime ------*- C++ -*-===//

#ifndef SLUICE_LIB_CONVERSION_HOSTTORUNTIME_HOSTTORUNTIME_H
#define SLUICE_LIB_CONVERSION_HOSTTORUNTIME_HOSTTORUNTIME_H

#include "sluice/Dialect/USM/IR/USMDialect.h"
#include "sluice/Dialect/USM/IR/USMTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace sluice::host {

/// Prefix of the entry point generated for each public function.
inline constexpr llvm::StringLiteral kEntryPrefix = "_sluice_entry_";

/// The declaration of a program-support function (created on first use).
mlir::LLVM::LLVMFuncOp runtimeFunction(mlir::OpBuilder &b,
                                       mlir::ModuleOp module,
                                       llvm::StringRef name, mlir::Type result,
                                       llvm::ArrayRef<mlir::Type> params);
/// A call of it; returns its result or a null value.
mlir::Value callRuntime(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::ModuleOp module, llvm::StringRef name,
                        mlir::Type result, mlir::ValueRange args);
/// The address of a NUL-terminated constant string (one global per value).
mlir::Value globalString(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::ModuleOp module, llvm::StringRef value);
/// sluiceProgramQueue for a queue attribute.
mlir::Value queueFor(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::ModuleOp module, usm::QueueAttr queue);

/// A host kernel turned into a function with explicit workgroup arguments.
struct HostKernel {
  std::string impl;    // the kernel body: its arguments, then group id, count
  std::string wrapper; // the ABI entry `void(void **, const SluiceHostGroup *)`
  /// Its vector stores are to be non-temporal (kNontemporalStoresAttrName):
  /// the wrapper, into which the body is inlined, carries the attribute.
  bool nontemporalStores = false;
};
/// The symbol of the ABI wrapper of kernel `kernel` in gpu.module `module`.
std::string hostKernelSymbol(llvm::StringRef module, llvm::StringRef kernel);

/// Moves the kernels of @sluice_host_kernels into functions of the module
/// (f16/bf16 math computed in f32) and erases the gpu.module. Math functions
/// stay calls (LLVM intrinsics or libm names), which the loop vectoriser maps
/// to the host's vector math library (sluice/Execution/HostMath.h).
mlir::LogicalResult outlineHostKernels(mlir::ModuleOp module,
                                       llvm::SmallVectorImpl<HostKernel> &out);

/// Rewrites math functions on f16/bf16 in `f` to f32 with conversions.
void extendHalfMath(mlir::func::FuncOp f);

/// Calls libm for the math ops that convert-math-to-llvm lowers
/// inaccurately (math.expm1 as exp(x) - 1): HostLibmCalls.cpp.
void callLibmForInexactMath(mlir::func::FuncOp f);

/// A device binary embedded as a global constant.
struct BinaryInfo {
  std::string global;
  int64_t size = 0;
  int32_t format = 0; // SluiceModuleFormat
};
/// Replaces each gpu.binary by a global holding its (single) object.
mlir::LogicalResult embedBinaries(mlir::ModuleOp module,
                                  llvm::StringMap<BinaryInfo> &out);

/// After conversion to LLVM: the stack slots of launch and failure
/// arguments (allocated between stacksave and stackrestore where they are
/// used) become slots in each function's entry block, shared by every
/// launch of the function (ArgumentSlots.cpp). Host kernels are left alone.
void hoistArgumentSlots(mlir::ModuleOp module,
                        llvm::ArrayRef<HostKernel> kernels);

/// After conversion to LLVM: the ABI wrappers of host kernels and the entry
/// points of public functions.
mlir::LogicalResult
createHostKernelWrappers(mlir::ModuleOp module,
                         llvm::ArrayRef<HostKernel> kernels);
mlir::LogicalResult createEntryPoints(mlir::ModuleOp module,
                                      llvm::ArrayRef<std::string> functions);

} // namespace sluice::host

#endif // SLUICE_LIB_CONVERSION_HOSTTORUNTIME_HOSTTORUNTIME_H
