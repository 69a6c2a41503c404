//===- EmitModule.cpp - What sluice-compile writes ------------------------===//

#include "sluice/Tools/EmitModule.h"

#include "sluice/Execution/Compiler.h"
#include "sluice/Pipelines/Pipelines.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace sluice;
using namespace sluice::tools;
namespace cl = llvm::cl;

cl::ValuesClass sluice::tools::emitValues() {
  return cl::values(
      clEnumValN(Emit::So, "so",
                 "a shared object that sluice-run runs (default)"),
      clEnumValN(Emit::Obj, "obj", "a relocatable object file"),
      clEnumValN(Emit::Llvm, "llvm", "optimised LLVM IR"),
      clEnumValN(Emit::Mlir, "mlir", "MLIR after the stage of --stop-after"));
}

cl::ValuesClass sluice::tools::stopAfterValues() {
  auto value = [](ProgramStage stage, const char *description) {
    return cl::OptionEnumValue{programStageName(stage), int(stage),
                               description};
  };
  return cl::ValuesClass(
      {value(ProgramStage::Placed, "placement verified, canonicalised"),
       value(ProgramStage::Fused, "elementwise groups fused"),
       value(ProgramStage::Kernels,
             "kernels formed (gpu.launch_func, gpu.module)"),
       value(ProgramStage::Binaries, "device kernels compiled to binaries"),
       value(ProgramStage::LLVM, "everything in the LLVM dialect (default)")});
}

std::string sluice::tools::defaultOutputFile(StringRef inputFile, Emit emit) {
  if (emit != Emit::So && emit != Emit::Obj)
    return "-";
  StringRef extension = emit == Emit::So ? ".so" : ".o";
  if (inputFile == "-")
    return ("a" + extension).str();
  llvm::SmallString<128> name(llvm::sys::path::filename(inputFile));
  llvm::sys::path::replace_extension(name, extension);
  return name.str().str();
}

LogicalResult
sluice::tools::compileToStage(ModuleOp module, const CompileOptions &options,
                              ProgramStage stopAfter,
                              std::vector<exec::EntrySignature> &signatures) {
  if (stopAfter == ProgramStage::LLVM) {
    FailureOr<std::vector<exec::EntrySignature>> sigs =
        exec::publicSignatures(module);
    if (failed(sigs))
      return failure();
    signatures = std::move(*sigs);
  }
  ProgramPipelineOptions pipeline = options.pipelineOptions();
  pipeline.stopAfter = stopAfter;
  return exec::compileProgram(module, pipeline);
}

bool sluice::tools::writeModule(ModuleOp module, Emit emit,
                                const std::string &output,
                                ArrayRef<exec::EntrySignature> signatures,
                                bool inLLVM,
                                const exec::ArtifactOptions &artifact,
                                std::string &error) {
  if (emit == Emit::So) {
    if (llvm::Error e =
            exec::writeArtifact(module, signatures, output, artifact)) {
      error = toString(std::move(e));
      return false;
    }
    return true;
  }
  unsigned optLevel = artifact.optLevel;
  if (inLLVM)
    if (llvm::Error e = exec::addArtifactGlobals(module, signatures)) {
      error = toString(std::move(e));
      return false;
    }
  std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(output, &error);
  if (!out)
    return false;
  llvm::Error written = llvm::Error::success();
  switch (emit) {
  case Emit::Mlir:
    module->print(out->os());
    break;
  case Emit::Llvm:
    written = exec::emitLLVMIR(module, out->os(), optLevel);
    break;
  case Emit::Obj:
    written = exec::emitObject(module, out->os(), optLevel);
    break;
  case Emit::So:
    break;
  }
  if (written) {
    error = toString(std::move(written));
    return false;
  }
  out->os().flush();
  if (out->os().has_error()) {
    error = "cannot write '" + output + "': " + out->os().error().message();
    return false;
  }
  out->keep();
  return true;
}
