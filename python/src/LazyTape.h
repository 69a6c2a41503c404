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
// Small operations (below the recording threshold, SLUICE_LAZY_MIN_ELEMENTS)
// run eagerly, where a compile per graph structure would cost more than
// fusion saves, unless they repeat: an eagerly run small operation that
// reads the result of another one (a chain: something fusion would join)
// counts for both operations' templates, and a template seen chaining
// SLUICE_LAZY_SMALL_REPEATS times (2) is recorded from then on, whatever
// its size. A loop of small steps is recorded after its first
// iteration(s). A tape of small operations whose structure is not compiled
// yet runs operation by operation with their one-op programs (the eager
// results, bitwise) and is compiled only when the same structure is
// submitted a second time: one-off small graphs never wait for a compile.
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
/// `eager` and `eagerShapes`: the operation's one-op program and the
/// shapes it is called with (unset: none), which a small graph seen for the
/// first time runs operation by operation instead of compiling it.
TapeOutcome
tapeRecord(const std::shared_ptr<TapeTemplate> &t, PyObject *const *xs,
           size_t n, nanobind::object &result,
           const nanobind::object &eager = nanobind::object(),
           const nanobind::object &eagerShapes = nanobind::object());
/// After tapeRecord said Eager and the program ran: tags the results as
/// made by a small eager operation (an operation reading one chains with
/// it).
void tapeEagerRan(const TapeTemplate &t, nanobind::handle result);

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
