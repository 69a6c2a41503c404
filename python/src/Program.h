//===- Program.h - Calling compiled entry points on arrays ------*- C++ -*-===//
//
// A Program is one entry point of a compiled executable with the types of
// its arguments and results. Calling it submits a task that lays out the
// entry's packed arguments (sluice-c/Compiler.h: 3 + 2R slots per array of
// rank R, one per scalar, then storage for the results), calls it on the
// device's worker and turns the results into buffers. The result arrays
// are returned at once; their memory is known when the task has run. A
// call whose results include a scalar, or an array whose dynamic sizes the
// caller does not give, waits for its task: those are known only then.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_PYTHON_PROGRAM_H
#define SLUICE_PYTHON_PROGRAM_H

#include "Array.h"
#include "SmallVector.h"

#include <nanobind/nanobind.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace sluice::py {

using EntryPoint = int32_t (*)(void **);
class CallTask;

struct ValueSpec {
  bool isArray = true;
  uint8_t dtype = F32;
  /// Arrays: sizes, -1 for a dynamic one.
  std::vector<int64_t> shape;
  QueueState *queue = nullptr;
  SluiceUsmKind kind = SLUICE_USM_DEVICE;
  /// Array arguments taken as a view (usm.strided_view of a 1-D base): the
  /// base, then the offset, sizes and strides as index arguments; any
  /// strided array is passed without a copy.
  bool view = false;
};

class Program {
public:
  Program(uintptr_t entry, std::vector<ValueSpec> args,
          std::vector<ValueSpec> results, std::string name);

  /// Checks `args` against the argument types, submits the call and
  /// returns the results (arrays; Python numbers for scalar results).
  /// `shapes` gives each result's shape when some of its sizes are dynamic
  /// (None, or None for a result: the call reports it, and is waited for).
  /// `targets`: None, or per result None or a LazyToken whose buffer the
  /// result fills (lazy execution, Lazy.h).
  /// `locations`: the source points (lazyCallerLocation) of the lazily
  /// recorded operations the call runs, named by its failure's message.
  nanobind::list call(nanobind::handle args, nanobind::handle shapes,
                      nanobind::handle targets = nanobind::handle(),
                      std::vector<uint32_t> locations = {});

  const std::string &name() const { return programName; }
  size_t numArgs() const { return args.size(); }
  size_t numResults() const { return results.size(); }

  /// The program writes its array arguments (kernels written in Python):
  /// its calls become their last writer, so a failure reaches whoever
  /// reads them next.
  bool writesArgs = false;
  /// The argument indices the program writes (`usm.store` destinations):
  /// like writesArgs, for these arguments only.
  std::vector<size_t> writtenArgs;
  /// Whether a call writes argument i (writesArgs or writtenArgs).
  bool writes(size_t i) const {
    return writesArgs || std::find(writtenArgs.begin(), writtenArgs.end(), i) !=
                             writtenArgs.end();
  }

private:
  /// Whether a call's task (a CallTask) may run inline (Task::small).
  bool smallHostWork(const Task &task) const;
  /// The phases of call(). checkCall: the argument count, recorded
  /// operations on the arguments submitted, the lazy targets checked;
  /// returns the arguments.
  PyObject *const *checkCall(nanobind::handle args,
                             nanobind::handle targets) const;
  /// Packs the arguments into the task's slots (non-contiguous arrays are
  /// copied into `compacted` first).
  /// A strided array as a view argument's slots (no copy).
  void packView(CallTask &task, const ArrayCore &a, size_t at) const;
  void packArguments(CallTask &task, PyObject *const *items,
                     std::vector<ArrayCore> &compacted) const;
  /// The result shapes (static ones from the types, dynamic ones from
  /// `shapes`, else from the call); whether the call must be waited for.
  bool resultShapes(CallTask &task, nanobind::handle shapes) const;
  using ResultBuffers = SmallVector<std::shared_ptr<Buffer>, 2>;
  /// The result buffers (new ones, or the lazy targets'), written by `self`.
  void resultBuffers(CallTask &task, const std::shared_ptr<Task> &self,
                     nanobind::handle targets, ResultBuffers &out) const;
  /// The result arrays and scalars.
  nanobind::list resultArrays(const CallTask &task,
                              const ResultBuffers &buffers) const;

  EntryPoint entry;
  std::vector<ValueSpec> args, results;
  /// The result types, shared with tasks that outlive the program.
  std::shared_ptr<const std::vector<ValueSpec>> sharedResults;
  std::string programName;
  /// The same, shared with tasks that outlive the program.
  std::shared_ptr<const std::string> sharedName;
  /// Slots of the packed argument list, and where each array starts.
  size_t numSlots = 0;
  std::vector<size_t> argSlot;
  /// Byte offsets of the results in the results struct, and its size.
  std::shared_ptr<const std::vector<size_t>> resultOffsets;
  size_t resultBytes = 0;
  /// Some result is a scalar: every call waits for its task.
  bool waits = false;
  /// The queue whose worker runs calls (the first array argument's, else
  /// the first array result's) and the one whose wait() reports their
  /// failures (the first array result's, else the first array argument's).
  QueueState *runOn = nullptr, *reportTo = nullptr;
  /// Every array argument and result is on `runOn`'s queue.
  bool oneQueue = false;
};

/// The Python type instantiated for new arrays (sluice.Array).
void setArrayType(nanobind::handle type);
nanobind::handle arrayTypeHandle();
/// A new sluice.Array owning `core`.
nanobind::object wrapArray(ArrayCore &&core);

/// Stores a Python scalar as `dtype` in an 8-byte slot (bounds are the
/// caller's concern; values wrap like C casts).
void storeScalar(nanobind::handle value, int dtype, uint64_t &slot);

} // namespace sluice::py

#endif // SLUICE_PYTHON_PROGRAM_H
