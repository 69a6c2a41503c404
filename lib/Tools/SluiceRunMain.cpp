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
#include "sluice/Support/ArrayIO.h"
#include "sluice/Tools/ToolMains.h"
#include "sluice/Tools/ToolSupport.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
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

/// Parses the --input values for `signature`.
static int parseInputs(const Options &opts,
                       const exec::EntrySignature &signature,
                       std::vector<io::HostArray> &args) {
  for (const std::string &spec : opts.inputs) {
    io::Result<io::HostArray> a = io::parseInputSpec(spec);
    if (!a)
      return fail(
          "--input=" + (spec.size() > 80 ? spec.substr(0, 77) + "..." : spec) +
          ": " + a.error());
    args.push_back(a.take());
  }
  if (args.size() != signature.args.size())
    return fail("@" + signature.name + " takes " +
                std::to_string(signature.args.size()) + " arguments (" +
                signature.toString() + "); " + std::to_string(args.size()) +
                " --input given");
  return 0;
}

/// Runs the entry and prints or writes its results. `hint` follows a
/// failure of the call.
static int runEntry(const Options &opts, const exec::EntrySignature &signature,
                    const exec::EntryFunction &fn,
                    const std::vector<io::HostArray> &args,
                    const std::string &hint = "") {
  exec::InvokeOptions invokeOptions;
  invokeOptions.benchmarkRuns = opts.benchmark;
  io::Result<exec::InvokeResult> result =
      exec::invoke(signature, fn, args, invokeOptions);
  if (!result) {
    fail(result.error());
    if (!hint.empty())
      llvm::errs() << "sluice-run: note: " << hint << "\n";
    return 1;
  }

  for (size_t i = 0; i < result->outputs.size(); ++i) {
    const io::HostArray &out = result->outputs[i];
    std::string where = i < opts.outputs.size() ? opts.outputs[i] : "-";
    if (where == "-") {
      io::PrintOptions print;
      print.maxElements = opts.maxElements;
      llvm::outs() << io::formatArray(out, print) << "\n";
    } else if (!where.empty() && where[0] == '@') {
      if (io::Status s = io::writeNpyFile(where.substr(1), out); !s)
        return fail("--output=" + where + ": " + s.error());
    } else {
      return fail("--output=" + where + ": expected @file.npy or -");
    }
  }
  if (opts.benchmark > 0)
    llvm::outs() << "sluice-run: benchmark: median "
                 << llvm::format("%.9f", result->medianSeconds) << " s over "
                 << opts.benchmark << " runs\n";
  return 0;
}

/// Runs an artifact of sluice-compile: no compilation, the device override
/// is the runtime's.
static int runArtifact(const Options &opts) {
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
  if (int rc = parseInputs(opts, **signature, args))
    return rc;
  std::string selector, error;
  if (!tools::overrideArtifactDevice(device, selector, error))
    return fail(error);
  auto fn = (*artifact)->entry((*signature)->name);
  if (!fn)
    return fail(fn.error());
  std::string hint = tools::artifactBackendHint(**signature, selector);
  return runEntry(opts, **signature, *fn, args, hint);
}

int sluiceRunMain(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  Options &opts = options();
  cl::HideUnrelatedOptions(opts.category);
  cl::ParseCommandLineOptions(argc, argv, "Sluice program runner\n");
  if (!opts.compile.error().empty())
    return fail(opts.compile.error());
  const CompileOptions &chosen = opts.compile.options();
  if (exec::isElfFile(opts.inputFile))
    return runArtifact(opts);

  std::string error;
  std::unique_ptr<tools::LoadedProgram> program = tools::loadProgram(
      opts.inputFile, chosen.device, /*allowAbsent=*/false, error);
  if (!program)
    return error.empty() ? 1 : fail(error);
  ModuleOp module = *program->module;

  FailureOr<func::FuncOp> entry = exec::findEntry(module, opts.entryName);
  if (failed(entry))
    return 1;
  FailureOr<exec::EntrySignature> signature = exec::signatureOf(*entry);
  if (failed(signature))
    return 1;

  std::vector<io::HostArray> args;
  if (int rc = parseInputs(opts, *signature, args))
    return rc;

  if (failed(exec::compileProgram(module, chosen.pipelineOptions())))
    return 1;
  auto jit = exec::JitProgram::create(module, chosen.optLevel);
  if (!jit)
    return fail("JIT compilation failed: " + toString(jit.takeError()));
  auto fn = (*jit)->entry(signature->name);
  if (!fn)
    return fail(toString(fn.takeError()));

  return runEntry(opts, *signature, *fn, args);
}
