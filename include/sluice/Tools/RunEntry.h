//===- RunEntry.h - sluice-run's arguments, call and results ----*- C++ -*-===//
//
// The phases of sluice-run that do not depend on how the entry was obtained
// (JIT-compiled or loaded from an artifact): parse the --input values, call
// the entry, and print or write its results.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_TOOLS_RUNENTRY_H
#define SLUICE_TOOLS_RUNENTRY_H

#include "sluice/Execution/EntrySignature.h"
#include "sluice/Execution/Invoker.h"
#include "sluice/Support/ArrayIO.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace sluice::tools {

/// Parses the --input values `specs` as the arguments of `signature`.
/// False with `error` set when one is malformed or their number is wrong.
bool parseEntryInputs(llvm::ArrayRef<std::string> specs,
                      const exec::EntrySignature &signature,
                      std::vector<io::HostArray> &args, std::string &error);

/// How sluice-run calls an entry and reports its results.
struct RunOptions {
  /// --benchmark: calls after the first, timed.
  int benchmark = 0;
  /// --output: where each result goes (@file.npy or - to print).
  llvm::ArrayRef<std::string> outputs;
  /// --print-max-elements.
  int maxElements = 0;
  /// A note printed after a failure of the call (empty: none).
  std::string hint;
};

/// Calls `fn` with `args` and prints or writes its results; prints the
/// median time with a benchmark. Errors go to standard error, prefixed with
/// "sluice-run: "; the tool's exit code.
int runEntry(const exec::EntrySignature &signature,
             const exec::EntryFunction &fn,
             const std::vector<io::HostArray> &args, const RunOptions &options);

} // namespace sluice::tools

#endif // SLUICE_TOOLS_RUNENTRY_H
