//===- Invoker.h - Calling a compiled program with host arrays --*- C++ -*-===//
//
// Runs an entry point with inputs in host memory: allocates each array
// argument on its queue with its USM kind, copies the data in, calls the
// entry, copies the results back and frees what the call produced. Uses
// only the runtime's C API.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_EXECUTION_INVOKER_H
#define SLUICE_EXECUTION_INVOKER_H

#include "sluice/Execution/EntrySignature.h"

#include <cstdint>
#include <functional>

namespace sluice::exec {

/// An entry point `int32_t entry(void **args)` (see convert-host-to-runtime).
using EntryFunction = std::function<int32_t(void **)>;

struct InvokeOptions {
  /// Calls after the first one, timed (0: just one call).
  int benchmarkRuns = 0;
};

struct InvokeResult {
  std::vector<io::HostArray> outputs;
  /// With benchmarkRuns > 0: the median time of one call, in seconds.
  double medianSeconds = 0;
};

io::Result<InvokeResult> invoke(const EntrySignature &signature,
                                const EntryFunction &entry,
                                const std::vector<io::HostArray> &inputs,
                                const InvokeOptions &options = {});

} // namespace sluice::exec

#endif // SLUICE_EXECUTION_INVOKER_H
