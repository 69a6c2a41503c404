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
// done by lib/Execution (ArtifactWriter.h); this is option handling.
//
//===----------------------------------------------------------------------===//

#include "sluice/Execution/Artifact.h"
#include "sluice/Execution/ArtifactWriter.h"
#include "sluice/Execution/Compiler.h"
#include "sluice/Pipelines/CompileOptions.h"
#include "sluice/Tools/ToolMains.h"
#include "sluice/Tools/ToolSupport.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace sluice;
namespace cl = llvm::cl;

namespace {

enum class Emit { Mlir, Llvm, Obj, So };

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
  cl::opt<Emit> emit{
      "emit", cl::desc("what to write"), cl::init(Emit::So),
      cl::values(clEnumValN(Emit::So, "so",
                            "a shared object that sluice-run runs (default)"),
                 clEnumValN(Emit::Obj, "obj", "a relocatable object file"),
                 clEnumValN(Emit::Llvm, "llvm", "optimised LLVM IR"),
                 clEnumValN(Emit::Mlir, "mlir",
                            "MLIR after the stage of --stop-after")),
      cl::cat(category)};
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
      cl::init(ProgramStage::LLVM),
      cl::values(
          clEnumValN(ProgramStage::Placed,
                     programStageName(ProgramStage::Placed),
                     "placement verified, canonicalised"),
          clEnumValN(ProgramStage::Fused, programStageName(ProgramStage::Fused),
                     "elementwise groups fused"),
          clEnumValN(ProgramStage::Kernels,
                     programStageName(ProgramStage::Kernels),
                     "kernels formed (gpu.launch_func, gpu.module)"),
          clEnumValN(ProgramStage::Binaries,
                     programStageName(ProgramStage::Binaries),
                     "device kernels compiled to binaries"),
          clEnumValN(ProgramStage::LLVM, programStageName(ProgramStage::LLVM),
                     "everything in the LLVM dialect (default)")),
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

/// The default output: the input's file name with `extension`, in the
/// current directory.
std::string defaultOutput(StringRef inputFile, StringRef extension) {
  if (inputFile == "-")
    return ("a" + extension).str();
  llvm::SmallString<128> name(llvm::sys::path::filename(inputFile));
  llvm::sys::path::replace_extension(name, extension);
  return name.str().str();
}

/// Writes `module` (compiled up to the stage `--emit` asks for) as text,
/// LLVM IR or an object file.
int writeText(const Options &opts, ModuleOp module, const std::string &output,
              bool toLLVM, ArrayRef<exec::EntrySignature> signatures) {
  unsigned optLevel = opts.compile.options().optLevel;
  if (toLLVM)
    if (llvm::Error e = exec::addArtifactGlobals(module, signatures))
      return fail(toString(std::move(e)));
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(output, &error);
  if (!out)
    return fail(error);
  switch (opts.emit) {
  case Emit::Mlir:
    module->print(out->os());
    break;
  case Emit::Llvm:
    if (llvm::Error e = exec::emitLLVMIR(module, out->os(), optLevel))
      return fail(toString(std::move(e)));
    break;
  case Emit::Obj:
    if (llvm::Error e = exec::emitObject(module, out->os(), optLevel))
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
  std::string output = opts.outputFile;
  if (output.empty())
    output = opts.emit == Emit::So    ? defaultOutput(opts.inputFile, ".so")
             : opts.emit == Emit::Obj ? defaultOutput(opts.inputFile, ".o")
                                      : "-";
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

  // Signatures come from the usm-level functions, before lowering.
  bool toLLVM = opts.emit != Emit::Mlir || opts.stopAfter == ProgramStage::LLVM;
  std::vector<exec::EntrySignature> signatures;
  if (toLLVM) {
    FailureOr<std::vector<exec::EntrySignature>> sigs =
        exec::publicSignatures(module);
    if (failed(sigs))
      return 1;
    signatures = std::move(*sigs);
  }

  ProgramPipelineOptions pipeline = chosen.pipelineOptions();
  pipeline.stopAfter =
      opts.emit == Emit::Mlir ? opts.stopAfter : ProgramStage::LLVM;
  if (failed(exec::compileProgram(module, pipeline)))
    return 1;

  if (opts.emit != Emit::So)
    return writeText(opts, module, output, toLLVM, signatures);
  exec::ArtifactOptions artifact;
  artifact.optLevel = chosen.optLevel;
  artifact.runtimeDir = opts.runtimeDir;
  artifact.linker = opts.linker;
  artifact.removeTemporariesOnSignal = true;
  if (llvm::Error e = exec::writeArtifact(module, signatures, output, artifact))
    return fail(toString(std::move(e)));
  return 0;
}
