//===- SluiceRunMain.cpp - Compile and run a usm program -----------------===//
//
//   sluice-run prog.mlir|prog.so [--entry=f] [--input=2x3xf32=[...] |
//              @x.npy]... [--output=@y.npy | -]... [--device=SELECTOR]
//              [--benchmark=N] [compile flags: --no-fusion, -O0..3, ...]
//
// JIT-compiles the program with Sluice's pipeline (or loads an artifact that
// sluice-compile wrote), runs the entry function on the queues its
// placements name (or, with --device, on one device) and prints the results
// as `2x3xf32=[[...]]` or writes them as .npy files.
//
//===----------------------------------------------------------------------===//

#include "sluice/Execution/Artifact.h"
#include "sluice/Execution/Compiler.h"
#include "sluice/Pipelines/CompileOptions.h"
#include "sluice/Tools/RunEntry.h"
#include "sluice/Tools/ToolMains.h"
#include "sluice/Tools/ToolSupport.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace sluice;
namespace cl = llvm::cl;

namespace {

/// sluice-run's command line. Registered when the tool runs (a
/// function-local static), so other tools in the same image never see it.
struct Options {
  cl::OptionCategory category{"sluice-run options"};
  cl::opt<std::string> inputFile{cl::Positional,
                                 cl::desc("<program.mlir | artifact.so>"),
                                 cl::Required, cl::cat(category)};
  cl::opt<std::string> entryName{
      "entry",
      cl::desc("function to run (default: @main or the only public one)"),
      cl::cat(category)};
  cl::list<std::string> inputs{
      "input",
      cl::desc("an argument: 2x3xf32=[[1,2,3],[4,5,6]], f32=2.5 or "
               "@file.npy (one per argument)"),
      cl::cat(category)};
  cl::list<std::string> outputs{
      "output",
      cl::desc("where a result goes: @file.npy or - (print); results "
               "without one are printed"),
      cl::cat(category)};
  CompileFlagOptions compile{
      category, "run every queue of the program on this device (a filter "
                "selector such as host, opencl:cpu:0, gpu, or default)"};
  cl::opt<int> benchmark{
      "benchmark",
      cl::desc("run N more times and print the median time of one call"),
      cl::init(0), cl::cat(category)};
  cl::opt<int> maxElements{
      "print-max-elements",
      cl::desc("elide the middle of printed results beyond this many "
               "elements"),
      cl::init(0), cl::cat(category)};
};

Options &options() {
  static Options *opts = new Options();
  return *opts;
}

} // namespace

static int fail(const std::string &message) {
  llvm::errs() << "sluice-run: " << message << "\n";
  return 1;
}

/// Runs an artifact of sluice-compile: no compilation, the device override
/// is the runtime's.
static int runArtifact(const Options &opts, tools::RunOptions run) {
  const std::string &device = opts.compile.options().device;
  if (!opts.compile.givenOtherThanDevice().empty())
    return fail(opts.compile.givenOtherThanDevice().front() +
                " does not apply to a compiled artifact");
  auto artifact = exec::Artifact::load(opts.inputFile);
  if (!artifact)
    return fail(artifact.error());
  auto signature = (*artifact)->findEntry(opts.entryName);
  if (!signature)
    return fail(signature.error());
  std::vector<io::HostArray> args;
  std::string selector, error;
  if (!tools::parseEntryInputs(opts.inputs, **signature, args, error))
    return fail(error);
  if (!tools::overrideArtifactDevice(device, selector, error))
    return fail(error);
  auto fn = (*artifact)->entry((*signature)->name);
  if (!fn)
    return fail(fn.error());
  run.hint = tools::artifactBackendHint(**signature, selector);
  return tools::runEntry(**signature, *fn, args, run);
}

int sluiceRunMain(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  Options &opts = options();
  cl::HideUnrelatedOptions(opts.category);
  cl::ParseCommandLineOptions(argc, argv, "Sluice program runner\n");
  if (!opts.compile.error().empty())
    return fail(opts.compile.error());
  const CompileOptions &chosen = opts.compile.options();
  tools::RunOptions run{opts.benchmark, opts.outputs, opts.maxElements, ""};
  if (exec::isElfFile(opts.inputFile))
    return runArtifact(opts, run);

  std::string error;
  std::unique_ptr<tools::LoadedProgram> program = tools::loadProgram(
      opts.inputFile, chosen.device, /*allowAbsent=*/false, error);
  if (!program)
    return error.empty() ? 1 : fail(error);
  ModuleOp module = *program->module;

  FailureOr<exec::EntrySignature> signature =
      tools::entrySignature(module, opts.entryName);
  if (failed(signature))
    return 1;
  std::vector<io::HostArray> args;
  if (!tools::parseEntryInputs(opts.inputs, *signature, args, error))
    return fail(error);

  std::unique_ptr<exec::JitProgram> jit;
  std::optional<exec::EntryFunction> fn =
      tools::jitEntry(module, chosen, signature->name, jit, error);
  if (!fn)
    return error.empty() ? 1 : fail(error);
  return tools::runEntry(*signature, *fn, args, run);
}
