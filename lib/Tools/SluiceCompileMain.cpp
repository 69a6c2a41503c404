//===- SluiceCompileMain.cpp - Compile a usm program ahead of time --------===//
//
//   sluice-compile prog.mlir [-o prog.so] [--emit=so|obj|llvm|mlir]
//                  [--stop-after=STAGE] [--runtime-dir=DIR] [--linker=CC]
//                  [compile flags: --device=SELECTOR, --no-fusion, -O0..3, ...]
//   sluice-compile --seal=lib.so
//
// Compiles a program with Sluice's pipeline into an artifact: a shared
// object with the host code, host kernels and device binaries, linked
// against libsluice-runtime.so, that `sluice-run prog.so` runs. The work is
// done by lib/Execution (ArtifactWriter.h) and the phases of
// sluice/Tools/EmitModule.h; this is option handling.
//
//===----------------------------------------------------------------------===//

#include "sluice/Execution/Artifact.h"
#include "sluice/Pipelines/CompileOptions.h"
#include "sluice/Tools/EmitModule.h"
#include "sluice/Tools/ToolMains.h"
#include "sluice/Tools/ToolSupport.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace sluice;
using tools::Emit;
namespace cl = llvm::cl;

namespace {

/// sluice-compile's command line. Registered when the tool runs (a
/// function-local static), so other tools in the same image never see it.
struct Options {
  cl::OptionCategory category{"sluice-compile options"};
  cl::opt<std::string> inputFile{cl::Positional, cl::desc("<program.mlir>"),
                                 cl::init("-"), cl::cat(category)};
  cl::opt<std::string> outputFile{
      "o",
      cl::desc("output file (- for standard output; default: the input's "
               "name with .so or .o, or - for text)"),
      cl::value_desc("file"), cl::cat(category)};
  cl::opt<Emit> emit{"emit", cl::desc("what to write"), cl::init(Emit::So),
                     tools::emitValues(), cl::cat(category)};
  CompileFlagOptions compile{
      category, "compile every queue of the program for this device (a "
                "filter selector such as host, opencl:cpu:0, gpu, or default)"};
  cl::opt<std::string> runtimeDir{
      "runtime-dir",
      cl::desc("directory of libsluice-runtime.so to link with (default: "
               "this build's)"),
      cl::value_desc("dir"), cl::cat(category)};
  cl::opt<std::string> seal{
      "seal",
      cl::desc("seal a shared object linked by other means as an artifact "
               "(append the checksum trailer that loading checks) and exit"),
      cl::value_desc("file.so"), cl::cat(category)};
  cl::opt<std::string> linker{
      "linker",
      cl::desc("C compiler that links the shared object (default: the "
               "built-in linker where this build has one, else cc)"),
      cl::init(""), cl::cat(category)};
  // LLVM's code generator registers a -stop-after of its own, which this
  // tool never uses: this tool's takes its name (removed before this one
  // is registered, see options()).
  cl::opt<ProgramStage> stopAfter{
      "stop-after", cl::desc("with --emit=mlir: the last stage to run"),
      cl::init(ProgramStage::LLVM), tools::stopAfterValues(),
      cl::cat(category)};
};

Options &options() {
  static Options *opts = [] {
    if (cl::Option *llvmStopAfter =
            cl::getRegisteredOptions().lookup("stop-after"))
      llvmStopAfter->removeArgument();
    return new Options();
  }();
  return *opts;
}

int fail(const llvm::Twine &message) {
  llvm::errs() << "sluice-compile: error: " << message << "\n";
  return 1;
}

} // namespace

int sluiceCompileMain(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  Options &opts = options();
  cl::HideUnrelatedOptions(opts.category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "Sluice ahead-of-time compiler: a usm program to a shared object that "
      "sluice-run runs\n");

  if (!opts.seal.empty()) {
    if (io::Status sealed = exec::sealArtifactFile(opts.seal); !sealed)
      return fail(sealed.error());
    return 0;
  }
  if (!opts.compile.error().empty())
    return fail(opts.compile.error());
  const CompileOptions &chosen = opts.compile.options();
  if (opts.stopAfter.getNumOccurrences() && opts.emit != Emit::Mlir)
    return fail("--stop-after needs --emit=mlir");
  std::string output = opts.outputFile.empty()
                           ? tools::defaultOutputFile(opts.inputFile, opts.emit)
                           : std::string(opts.outputFile);
  if (opts.emit == Emit::So && output == "-")
    return fail("a shared object cannot be written to standard output; use "
                "-o FILE");

  // Cross-compiling: a device named in full need not be on this machine.
  std::string error;
  std::unique_ptr<tools::LoadedProgram> program = tools::loadProgram(
      opts.inputFile, chosen.device, /*allowAbsent=*/true, error);
  if (!program)
    return error.empty() ? 1 : fail(error);
  ModuleOp module = *program->module;

  ProgramStage stopAfter =
      opts.emit == Emit::Mlir ? opts.stopAfter : ProgramStage::LLVM;
  std::vector<exec::EntrySignature> signatures;
  if (failed(tools::compileToStage(module, chosen, stopAfter, signatures)))
    return 1;
  exec::ArtifactOptions artifact;
  artifact.optLevel = chosen.optLevel;
  artifact.runtimeDir = opts.runtimeDir;
  artifact.linker = opts.linker;
  artifact.removeTemporariesOnSignal = true;
  bool inLLVM = stopAfter == ProgramStage::LLVM;
  if (!tools::writeModule(module, opts.emit, output, signatures, inLLVM,
                          artifact, error))
    return fail(error);
  return 0;
}
