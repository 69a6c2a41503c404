//===- LazyTape.h - Fast-path operations recorded lazily in C++ -*- C++ -*-===//
//
// Lazy execution records eager operations into a pending graph (Lazy.h,
// sluice/_lazy.py). An operation seen before (FastPath.h) is recorded here
// instead, without Python: the tape appends (operation, operands) and
// returns a lazy result array. When a value is needed the tape becomes one
// program whose results are the tape's results still referenced, looked up
// by the tape's structure (operations, how operands connect, which results
// are live); a structure seen for the first time is compiled by Python
// (sluice._lazy.compile_tape) and cached here. A loop body such as a Jacobi
// step then costs one C++ append per operation and one program call.
//
// The tape and Python's graphs are never both pending: Python records an
// operation only after submitting the tape, and the tape declines while
// Python has a pending graph (the operation goes to Python's recorder).
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_PYTHON_LAZYTAPE_H
#define SLUICE_PYTHON_LAZYTAPE_H

#include "Array.h"

#include <nanobind/nanobind.h>

#include <memory>

namespace sluice::py {

/// What sluice/_lazy.py records an operation with, parsed once.
struct TapeTemplate;

/// The template of a fast-path entry, or null when it cannot be taped.
std::shared_ptr<TapeTemplate> makeTapeTemplate(nanobind::handle pyTemplate);

/// How tapeRecord went.
enum class TapeOutcome {
  Recorded,  ///< `result` is the lazy result
  Eager,     ///< too small to record: run the program now
  UsePython, ///< Python's recorder takes it (a Python graph is pending)
};
TapeOutcome tapeRecord(const std::shared_ptr<TapeTemplate> &t,
                       PyObject *const *xs, size_t n, nanobind::object &result);

/// Whether the tape holds operations not yet submitted.
bool tapePending();
/// Submits the tape as one program (nothing if it is empty). `wanted`:
/// the lazy id of the one result needed (0: all); when other results are
/// referenced too, only what that result needs runs, and the rest stays
/// recorded (reading it as an argument).
void tapeFlush(const char *reason, uint64_t wanted = 0);

/// Binds lazy_tape_flush, lazy_tape_pending, lazy_tape_stats,
/// lazy_tape_min_elements, lazy_tape_set_compiler.
void bindLazyTape(nanobind::module_ &m);

} // namespace sluice::py

#endif // SLUICE_PYTHON_LAZYTAPE_H
