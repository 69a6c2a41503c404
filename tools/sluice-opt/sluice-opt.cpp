//===- sluice-opt.cpp - Sluice's opt-style driver -------------------------===//
//
// Registration plus MlirOptMain: the usm dialect, its passes, and the
// upstream dialects and passes Sluice's pipelines use.
//
//===----------------------------------------------------------------------===//

#include "sluice/Conversion/Passes.h"
#include "sluice/Dialect/USM/IR/USMDialect.h"
#include "sluice/Dialect/USM/Transforms/Passes.h"
#include "sluice/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // Kernel binaries (gpu-module-to-binary) translate through LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::registerAllPasses();
  sluice::usm::registerAllUSMPasses();
  sluice::registerSluiceConversionPasses();
  sluice::registerSluicePipelines();
  registry.insert<sluice::usm::USMDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Sluice optimizer driver\n", registry));
}
