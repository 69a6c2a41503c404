//===- ToolSupport.cpp - What sluice-compile and sluice-run share ---------===//

#include "sluice/Tools/ToolSupport.h"

#include "sluice/Execution/Compiler.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

using namespace mlir;
using namespace sluice;
using namespace sluice::tools;
namespace cl = llvm::cl;

PipelineFlags::PipelineFlags(cl::OptionCategory &category,
                             const char *deviceHelp)
    : device("device", cl::desc(deviceHelp), cl::value_desc("selector"),
             cl::cat(category)),
      noFusion("no-fusion", cl::desc("compile without elementwise fusion"),
               cl::cat(category)),
      spirvNativeF16(
          "spirv-native-f16",
          cl::desc("OpenCL/Level Zero kernels compute f16 as half (devices "
                   "with cl_khr_fp16) instead of in f32"),
          cl::cat(category)) {}

ProgramPipelineOptions PipelineFlags::pipelineOptions() const {
  ProgramPipelineOptions options;
  options.fuse = !noFusion;
  options.spirvNativeF16 = spirvNativeF16;
  return options;
}

static DialectRegistry compilerDialects() {
  DialectRegistry registry;
  exec::registerCompilerDialects(registry);
  return registry;
}

LoadedProgram::LoadedProgram()
    : context(compilerDialects()), diagnostics(sourceMgr, &context) {
  context.loadAllAvailableDialects();
}

LoadedProgram::~LoadedProgram() = default;

std::unique_ptr<LoadedProgram>
sluice::tools::loadProgram(llvm::StringRef file, llvm::StringRef device,
                           bool allowAbsent, std::string &error) {
  error.clear();
  auto program = std::make_unique<LoadedProgram>();
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(file, &error);
  if (!buffer)
    return nullptr;
  // Nesting too deep for MLIR's recursive parser is an error, not a crash.
  if (reportTooDeepNesting(*buffer))
    return nullptr;
  program->sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  program->module =
      parseSourceFile<ModuleOp>(program->sourceMgr, &program->context);
  if (!program->module)
    return nullptr;
  if (!device.empty()) {
    llvm::Expected<std::string> bound =
        exec::resolveDevice(device, allowAbsent);
    if (!bound) {
      error = ("--device=" + device + ": " + toString(bound.takeError())).str();
      return nullptr;
    }
    exec::rebindQueues(*program->module, *bound);
  }
  return program;
}
