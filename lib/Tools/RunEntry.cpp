//===- RunEntry.cpp - sluice-run's arguments, call and results ------------===//

#include "sluice/Tools/RunEntry.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace sluice;
using namespace sluice::tools;

static int fail(const std::string &message) {
  llvm::errs() << "sluice-run: " << message << "\n";
  return 1;
}

bool sluice::tools::parseEntryInputs(llvm::ArrayRef<std::string> specs,
                                     const exec::EntrySignature &signature,
                                     std::vector<io::HostArray> &args,
                                     std::string &error) {
  for (const std::string &spec : specs) {
    io::Result<io::HostArray> a = io::parseInputSpec(spec);
    if (!a) {
      error =
          "--input=" + (spec.size() > 80 ? spec.substr(0, 77) + "..." : spec) +
          ": " + a.error();
      return false;
    }
    args.push_back(a.take());
  }
  if (args.size() != signature.args.size()) {
    error = "@" + signature.name + " takes " +
            std::to_string(signature.args.size()) + " arguments (" +
            signature.toString() + "); " + std::to_string(args.size()) +
            " --input given";
    return false;
  }
  return true;
}

/// Prints the `i`th result or writes it where --output says.
static int writeResult(const io::HostArray &out, size_t i,
                       const RunOptions &options) {
  std::string where = i < options.outputs.size() ? options.outputs[i] : "-";
  if (where == "-") {
    io::PrintOptions print;
    print.maxElements = options.maxElements;
    llvm::outs() << io::formatArray(out, print) << "\n";
  } else if (!where.empty() && where[0] == '@') {
    if (io::Status s = io::writeNpyFile(where.substr(1), out); !s)
      return fail("--output=" + where + ": " + s.error());
  } else {
    return fail("--output=" + where + ": expected @file.npy or -");
  }
  return 0;
}

int sluice::tools::runEntry(const exec::EntrySignature &signature,
                            const exec::EntryFunction &fn,
                            const std::vector<io::HostArray> &args,
                            const RunOptions &options) {
  exec::InvokeOptions invokeOptions;
  invokeOptions.benchmarkRuns = options.benchmark;
  io::Result<exec::InvokeResult> result =
      exec::invoke(signature, fn, args, invokeOptions);
  if (!result) {
    fail(result.error());
    if (!options.hint.empty())
      llvm::errs() << "sluice-run: note: " << options.hint << "\n";
    return 1;
  }
  for (size_t i = 0; i < result->outputs.size(); ++i)
    if (int rc = writeResult(result->outputs[i], i, options))
      return rc;
  if (options.benchmark > 0)
    llvm::outs() << "sluice-run: benchmark: median "
                 << llvm::format("%.9f", result->medianSeconds) << " s over "
                 << options.benchmark << " runs\n";
  return 0;
}
