//===- ToolSupport.cpp - What sluice-compile and sluice-run share ---------===//

#include "sluice/Tools/ToolSupport.h"

#include "sluice/Execution/Compiler.h"

#include "sluice-c/Program.h"
#include "sluice-c/Runtime.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace sluice;
using namespace sluice::tools;

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

FailureOr<exec::EntrySignature>
sluice::tools::entrySignature(ModuleOp module, llvm::StringRef name) {
  FailureOr<func::FuncOp> entry = exec::findEntry(module, name);
  if (failed(entry))
    return failure();
  return exec::signatureOf(*entry);
}

std::optional<exec::EntryFunction> sluice::tools::jitEntry(
    ModuleOp module, const CompileOptions &options, llvm::StringRef name,
    std::unique_ptr<exec::JitProgram> &jit, std::string &error) {
  error.clear();
  if (failed(exec::compileProgram(module, options.pipelineOptions())))
    return std::nullopt;
  auto created = exec::JitProgram::create(module, options.optLevel);
  if (!created) {
    error = "JIT compilation failed: " + toString(created.takeError());
    return std::nullopt;
  }
  jit = std::move(*created);
  auto fn = jit->entry(name);
  if (!fn) {
    error = toString(fn.takeError());
    return std::nullopt;
  }
  return std::move(*fn);
}

std::string
sluice::tools::artifactBackendHint(const exec::EntrySignature &signature,
                                   const std::string &selector) {
  if (selector.empty())
    return "";
  std::vector<std::string> devices;
  bool sameBackend = false;
  SluiceDevice dev = nullptr;
  SluiceDeviceInfo info;
  std::string backend;
  if (sluiceDeviceSelect(selector.c_str(), &dev) == SLUICE_SUCCESS &&
      sluiceDeviceGetInfo(dev, &info) == SLUICE_SUCCESS)
    backend = StringRef(info.filter_string).split(':').first.str();
  for (const auto *values : {&signature.args, &signature.results})
    for (const exec::ValueInfo &v : *values) {
      if (!v.isArray || llvm::is_contained(devices, v.device))
        continue;
      devices.push_back(v.device);
      sameBackend |= StringRef(v.device).split(':').first == backend;
    }
  if (sameBackend)
    return "";
  std::string hint = "an artifact only has kernels for the backends it was "
                     "compiled for";
  if (!devices.empty())
    hint += " (@" + signature.name + "'s arrays are on " +
            llvm::join(devices, ", ") + ")";
  return hint + "; to run on " + selector +
         ", compile for it: sluice-compile --device=" + selector;
}

bool sluice::tools::overrideArtifactDevice(const std::string &device,
                                           std::string &selector,
                                           std::string &error) {
  selector = device;
  if (device == "default") {
    SluiceDevice dev = nullptr;
    SluiceDeviceInfo info;
    if (sluiceDeviceSelect("", &dev) != SLUICE_SUCCESS ||
        sluiceDeviceGetInfo(dev, &info) != SLUICE_SUCCESS) {
      error = "--device=default: " + std::string(sluiceGetLastErrorMessage());
      return false;
    }
    selector = info.filter_string;
  }
  if (!selector.empty() && sluiceProgramSetDeviceOverrideChecked(
                               selector.c_str()) != SLUICE_SUCCESS) {
    error = "--device=" + device + ": " + sluiceGetLastErrorMessage();
    return false;
  }
  return true;
}
