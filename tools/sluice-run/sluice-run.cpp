//===- sluice-run.cpp - Compile and run a usm program ---------------------===//
//
//   sluice-run prog.mlir|prog.so [--entry=f] [--input=2x3xf32=[...] |
//              @x.npy]... [--output=@y.npy | -]... [--device=SELECTOR]
//              [--benchmark=N]
//
// JIT-compiles the program with Sluice's pipeline (or loads an artifact that
// sluice-compile wrote), runs the entry function on the queues its
// placements name (or, with --device, on one device) and prints the results
// as `2x3xf32=[[...]]` or writes them as .npy files.
//
//===----------------------------------------------------------------------===//

#include "sluice/Execution/Artifact.h"
#include "sluice/Execution/Compiler.h"
#include "sluice/Support/ArrayIO.h"
#include "sluice/Support/SourceNesting.h"

#include "sluice-c/Program.h"
#include "sluice-c/Runtime.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace sluice;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<program.mlir | artifact.so>"),
                                      cl::Required);
static cl::opt<std::string>
    entryName("entry", cl::desc("function to run (default: "
                                "@main or the only public one)"));
static cl::list<std::string>
    inputs("input", cl::desc("an argument: 2x3xf32=[[1,2,3],[4,5,6]], "
                             "f32=2.5 or @file.npy (one per argument)"));
static cl::list<std::string>
    outputs("output", cl::desc("where a result goes: @file.npy or - (print); "
                               "results without one are printed"));
static cl::opt<std::string>
    device("device", cl::desc("run every queue of the program on this device "
                              "(a filter selector such as host, "
                              "opencl:cpu:0, gpu, or default)"));
static cl::opt<int> benchmark(
    "benchmark",
    cl::desc("run N more times and print the median time of one call"),
    cl::init(0));
static cl::opt<bool> noFusion("no-fusion",
                              cl::desc("compile without elementwise fusion"));
static cl::opt<bool> spirvNativeF16(
    "spirv-native-f16",
    cl::desc("OpenCL/Level Zero kernels compute f16 as half (devices with "
             "cl_khr_fp16) instead of in f32"));
static cl::opt<int> maxElements(
    "print-max-elements",
    cl::desc("elide the middle of printed results beyond this many elements"),
    cl::init(0));

static int fail(const std::string &message) {
  llvm::errs() << "sluice-run: " << message << "\n";
  return 1;
}

/// Parses the --input values for `signature`.
static int parseInputs(const exec::EntrySignature &signature,
                       std::vector<io::HostArray> &args) {
  for (const std::string &spec : inputs) {
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
static int runEntry(const exec::EntrySignature &signature,
                    const exec::EntryFunction &fn,
                    const std::vector<io::HostArray> &args,
                    const std::string &hint = "") {
  exec::InvokeOptions invokeOptions;
  invokeOptions.benchmarkRuns = benchmark;
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
    std::string where = i < outputs.size() ? outputs[i] : "-";
    if (where == "-") {
      io::PrintOptions print;
      print.maxElements = maxElements;
      llvm::outs() << io::formatArray(out, print) << "\n";
    } else if (!where.empty() && where[0] == '@') {
      if (io::Status s = io::writeNpyFile(where.substr(1), out); !s)
        return fail("--output=" + where + ": " + s.error());
    } else {
      return fail("--output=" + where + ": expected @file.npy or -");
    }
  }
  if (benchmark > 0)
    llvm::outs() << "sluice-run: benchmark: median "
                 << llvm::format("%.9f", result->medianSeconds) << " s over "
                 << benchmark << " runs\n";
  return 0;
}

/// Runs an artifact of sluice-compile: no compilation, the device override
/// is the runtime's.
static int runArtifact() {
  if (noFusion || spirvNativeF16)
    return fail(std::string("--") +
                (noFusion ? "no-fusion" : "spirv-native-f16") +
                " does not apply to a compiled artifact");
  auto artifact = exec::Artifact::load(inputFile);
  if (!artifact)
    return fail(artifact.error());
  auto signature = (*artifact)->findEntry(entryName);
  if (!signature)
    return fail(signature.error());
  std::vector<io::HostArray> args;
  if (int rc = parseInputs(**signature, args))
    return rc;
  // The override is the runtime's; "default" is its default device.
  std::string selector = device;
  if (device == "default") {
    SluiceDevice dev = nullptr;
    SluiceDeviceInfo info;
    if (sluiceDeviceSelect("", &dev) != SLUICE_SUCCESS ||
        sluiceDeviceGetInfo(dev, &info) != SLUICE_SUCCESS)
      return fail("--device=default: " +
                  std::string(sluiceGetLastErrorMessage()));
    selector = info.filter_string;
  }
  if (!selector.empty() &&
      sluiceProgramSetDeviceOverrideChecked(selector.c_str()) != SLUICE_SUCCESS)
    return fail("--device=" + device + ": " + sluiceGetLastErrorMessage());
  auto fn = (*artifact)->entry((*signature)->name);
  if (!fn)
    return fail(fn.error());
  // An artifact carries kernels for the backends it was compiled for only:
  // say so when --device picked another one.
  std::string hint;
  if (!selector.empty()) {
    std::vector<std::string> devices;
    bool sameBackend = false;
    SluiceDevice dev = nullptr;
    SluiceDeviceInfo info;
    std::string backend;
    if (sluiceDeviceSelect(selector.c_str(), &dev) == SLUICE_SUCCESS &&
        sluiceDeviceGetInfo(dev, &info) == SLUICE_SUCCESS)
      backend = StringRef(info.filter_string).split(':').first.str();
    for (const auto *values : {&(*signature)->args, &(*signature)->results})
      for (const exec::ValueInfo &v : *values) {
        if (!v.isArray || llvm::is_contained(devices, v.device))
          continue;
        devices.push_back(v.device);
        sameBackend |= StringRef(v.device).split(':').first == backend;
      }
    if (!sameBackend) {
      hint = "an artifact only has kernels for the backends it was "
             "compiled for";
      if (!devices.empty())
        hint += " (@" + (*signature)->name + "'s arrays are on " +
                llvm::join(devices, ", ") + ")";
      hint += "; to run on " + selector +
              ", compile for it: sluice-compile --device=" + selector;
    }
  }
  return runEntry(**signature, *fn, args, hint);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "Sluice program runner\n");
  if (exec::isElfFile(inputFile))
    return runArtifact();

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
    llvm::Expected<std::string> bound =
        exec::resolveDevice(device, /*allowAbsent=*/false);
    if (!bound)
      return fail("--device=" + device + ": " + toString(bound.takeError()));
    exec::rebindQueues(*module, *bound);
  }

  FailureOr<func::FuncOp> entry = exec::findEntry(*module, entryName);
  if (failed(entry))
    return 1;
  FailureOr<exec::EntrySignature> signature = exec::signatureOf(*entry);
  if (failed(signature))
    return 1;

  std::vector<io::HostArray> args;
  if (int rc = parseInputs(*signature, args))
    return rc;

  ProgramPipelineOptions options;
  options.fuse = !noFusion;
  options.spirvNativeF16 = spirvNativeF16;
  if (failed(exec::compileProgram(*module, options)))
    return 1;
  auto program = exec::JitProgram::create(*module);
  if (!program)
    return fail("JIT compilation failed: " + toString(program.takeError()));
  auto fn = (*program)->entry(signature->name);
  if (!fn)
    return fail(toString(fn.takeError()));

  return runEntry(*signature, *fn, args);
}
