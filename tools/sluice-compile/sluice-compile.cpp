//===- sluice-compile.cpp - Compile a usm program ahead of time -----------===//
//
//   sluice-compile prog.mlir [-o prog.so] [--emit=so|obj|llvm|mlir]
//                  [--stop-after=STAGE] [--device=SELECTOR] [--no-fusion]
//                  [-O0..3] [--runtime-dir=DIR] [--linker=CC]
//   sluice-compile --seal=lib.so
//
// Compiles a program with Sluice's pipeline into an artifact: a shared
// object with the host code, host kernels and device binaries, linked
// against libsluice-runtime.so, that `sluice-run prog.so` runs. The work is
// done by lib/Execution (ArtifactWriter.h); this is option handling.
//
//===----------------------------------------------------------------------===//

#include "sluice/Execution/Artifact.h"
#include "sluice/Execution/ArtifactWriter.h"
#include "sluice/Execution/Compiler.h"
#include "sluice/Support/SourceNesting.h"

#include "sluice-c/Runtime.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace sluice;
namespace cl = llvm::cl;

namespace {

enum class Emit { Mlir, Llvm, Obj, So };

cl::OptionCategory category("sluice-compile options");

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<program.mlir>"),
                               cl::init("-"), cl::cat(category));
cl::opt<std::string>
    outputFile("o",
               cl::desc("output file (- for standard output; default: the "
                        "input's name with .so or .o, or - for text)"),
               cl::value_desc("file"), cl::cat(category));
cl::opt<Emit> emit(
    "emit", cl::desc("what to write"), cl::init(Emit::So),
    cl::values(clEnumValN(Emit::So, "so",
                          "a shared object that sluice-run runs (default)"),
               clEnumValN(Emit::Obj, "obj", "a relocatable object file"),
               clEnumValN(Emit::Llvm, "llvm", "optimised LLVM IR"),
               clEnumValN(Emit::Mlir, "mlir",
                          "MLIR after the stage of --stop-after")),
    cl::cat(category));
cl::opt<std::string>
    device("device",
           cl::desc("compile every queue of the program for this device (a "
                    "filter selector such as host, opencl:cpu:0, gpu, or "
                    "default)"),
           cl::value_desc("selector"), cl::cat(category));
cl::opt<bool> noFusion("no-fusion",
                       cl::desc("compile without elementwise fusion"),
                       cl::cat(category));
cl::opt<bool> spirvNativeF16(
    "spirv-native-f16",
    cl::desc("OpenCL/Level Zero kernels compute f16 as half (devices with "
             "cl_khr_fp16) instead of in f32"),
    cl::cat(category));
cl::opt<unsigned> optLevel("O",
                           cl::desc("LLVM optimisation level of host code "
                                    "and CUDA kernels (0-3)"),
                           cl::Prefix, cl::init(3), cl::cat(category));
cl::opt<std::string>
    runtimeDir("runtime-dir",
               cl::desc("directory of libsluice-runtime.so to link with "
                        "(default: this build's)"),
               cl::value_desc("dir"), cl::cat(category));
cl::opt<std::string>
    seal("seal",
         cl::desc("seal a shared object linked by other means as an "
                  "artifact (append the checksum trailer that loading "
                  "checks) and exit"),
         cl::value_desc("file.so"), cl::cat(category));
cl::opt<std::string>
    linker("linker",
           cl::desc("C compiler that links the shared object (default: the "
                    "built-in linker where this build has one, else cc)"),
           cl::init(""), cl::cat(category));

int fail(const llvm::Twine &message) {
  llvm::errs() << "sluice-compile: error: " << message << "\n";
  return 1;
}

/// The default output: the input's file name with `extension`, in the
/// current directory.
std::string defaultOutput(StringRef extension) {
  if (inputFile == "-")
    return ("a" + extension).str();
  llvm::SmallString<128> name(llvm::sys::path::filename(inputFile));
  llvm::sys::path::replace_extension(name, extension);
  return name.str().str();
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // LLVM's code generator registers a -stop-after of its own, which this
  // tool never uses: this tool's takes its name.
  if (cl::Option *llvmStopAfter =
          cl::getRegisteredOptions().lookup("stop-after"))
    llvmStopAfter->removeArgument();
  static cl::opt<ProgramStage> stopAfter(
      "stop-after", cl::desc("with --emit=mlir: the last stage to run"),
      cl::init(ProgramStage::LLVM),
      cl::values(
          clEnumValN(ProgramStage::Placed, "placed",
                     "placement verified, canonicalised"),
          clEnumValN(ProgramStage::Fused, "fused", "elementwise groups fused"),
          clEnumValN(ProgramStage::Kernels, "kernels",
                     "kernels formed (gpu.launch_func, gpu.module)"),
          clEnumValN(ProgramStage::Binaries, "binaries",
                     "device kernels compiled to binaries"),
          clEnumValN(ProgramStage::LLVM, "llvm",
                     "everything in the LLVM dialect (default)")),
      cl::cat(category));
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "Sluice ahead-of-time compiler: a usm program to a shared object that "
      "sluice-run runs\n");

  if (!seal.empty()) {
    if (io::Status sealed = exec::sealArtifactFile(seal); !sealed)
      return fail(sealed.error());
    return 0;
  }
  if (optLevel > 3)
    return fail("-O" + llvm::Twine(optLevel) + ": expected -O0 to -O3");
  if (stopAfter.getNumOccurrences() && emit != Emit::Mlir)
    return fail("--stop-after needs --emit=mlir");
  std::string output = outputFile;
  if (output.empty())
    output = emit == Emit::So    ? defaultOutput(".so")
             : emit == Emit::Obj ? defaultOutput(".o")
                                 : "-";
  if (emit == Emit::So && output == "-")
    return fail("a shared object cannot be written to standard output; use "
                "-o FILE");

  DialectRegistry registry;
  exec::registerCompilerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file)
    return fail(error);
  unsigned buffer =
      sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  // Nesting too deep for MLIR's recursive parser is an error, not a crash.
  llvm::StringRef text = sourceMgr.getMemoryBuffer(buffer)->getBuffer();
  if (std::optional<size_t> at =
          findTooDeepNesting(std::string_view(text.data(), text.size()))) {
    sourceMgr.PrintMessage(
        llvm::SMLoc::getFromPointer(text.data() + *at),
        llvm::SourceMgr::DK_Error,
        "brackets and regions nest deeper than " +
            llvm::Twine(kMaxSourceNesting) +
            " levels here; the parser does not take programs nested this "
            "deep");
    return 1;
  }
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  if (!device.empty()) {
    // Cross-compiling: a device named in full need not be on this machine.
    llvm::Expected<std::string> bound =
        exec::resolveDevice(device, /*allowAbsent=*/true);
    if (!bound)
      return fail("--device=" + device + ": " + toString(bound.takeError()));
    exec::rebindQueues(*module, *bound);
  }

  // Signatures come from the usm-level functions, before lowering.
  bool toLLVM = emit != Emit::Mlir || stopAfter == ProgramStage::LLVM;
  std::vector<exec::EntrySignature> signatures;
  if (toLLVM) {
    FailureOr<std::vector<exec::EntrySignature>> sigs =
        exec::publicSignatures(*module);
    if (failed(sigs))
      return 1;
    signatures = std::move(*sigs);
  }

  ProgramPipelineOptions options;
  options.fuse = !noFusion;
  options.spirvNativeF16 = spirvNativeF16;
  options.cudaOptLevel = optLevel; // -O applies to CUDA kernels too
  options.stopAfter = emit == Emit::Mlir ? stopAfter : ProgramStage::LLVM;
  if (failed(exec::compileProgram(*module, options)))
    return 1;

  if (emit == Emit::So) {
    exec::ArtifactOptions artifact;
    artifact.optLevel = optLevel;
    artifact.runtimeDir = runtimeDir;
    artifact.linker = linker;
    artifact.removeTemporariesOnSignal = true;
    if (llvm::Error e =
            exec::writeArtifact(*module, signatures, output, artifact))
      return fail(toString(std::move(e)));
    return 0;
  }

  if (toLLVM)
    if (llvm::Error e = exec::addArtifactGlobals(*module, signatures))
      return fail(toString(std::move(e)));
  std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(output, &error);
  if (!out)
    return fail(error);
  switch (emit) {
  case Emit::Mlir:
    module->print(out->os());
    break;
  case Emit::Llvm:
    if (llvm::Error e = exec::emitLLVMIR(*module, out->os(), optLevel))
      return fail(toString(std::move(e)));
    break;
  case Emit::Obj:
    if (llvm::Error e = exec::emitObject(*module, out->os(), optLevel))
      return fail(toString(std::move(e)));
    break;
  case Emit::So:
    break;
  }
  out->os().flush();
  if (out->os().has_error())
    return fail("cannot write '" + output +
                "': " + out->os().error().message());
  out->keep();
  return 0;
}
