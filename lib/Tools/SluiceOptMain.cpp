//===- SluiceOptMain.cpp - Sluice's opt-style driver ----------------------===//
//
// Registration plus MlirOptMain: the usm dialect, its passes, Sluice's
// pipelines and every upstream dialect and pass. In the wheel
// (SLUICE_OPT_ALL_PASSES=OFF) the upstream passes are MLIR's general
// transforms (canonicalize, cse, inline, ...) only, so the library carries
// no pass that no pipeline of Sluice runs. The input is checked for nesting
// too deep for MLIR's recursive parser before it is parsed.
//
//===----------------------------------------------------------------------===//

#include "sluice/Conversion/Passes.h"
#include "sluice/Dialect/USM/IR/USMDialect.h"
#include "sluice/Dialect/USM/Transforms/Passes.h"
#include "sluice/Pipelines/Pipelines.h"
#include "sluice/Tools/ToolMains.h"
#include "sluice/Tools/ToolSupport.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

int sluiceOptMain(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // Kernel binaries (gpu-module-to-binary) translate through LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
#if SLUICE_OPT_ALL_PASSES
  mlir::registerAllPasses();
#else
  mlir::registerTransformsPasses();
#endif
  sluice::usm::registerAllUSMPasses();
  sluice::registerSluiceConversionPasses();
  sluice::registerSluicePipelines();
  registry.insert<sluice::usm::USMDialect>();

  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "Sluice optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(inputFilename, &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  if (sluice::tools::reportTooDeepNesting(*file))
    return EXIT_FAILURE;
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(file), registry, config)))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}
