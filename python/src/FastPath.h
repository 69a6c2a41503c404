//===- FastPath.h - Eager operations seen before, without Python ----------===//
//
// An eager operation is resolved in Python once per operand signature
// (dtypes, shapes, queue, USM kinds, the Python types of scalars): NumPy's
// type resolution, broadcasting and placement, then a compiled one-op
// program. The fast path remembers the outcome (the program and the result
// shapes) under a key made of the operation and those signatures, so the
// next call with operands of the same signatures goes straight from the
// operator (`a * b`, computed in C++ on ArrayCore) to the program. A miss
// calls the operation's Python function, which resolves, compiles and
// registers.
//
// Never used while a trace is active on the calling thread (@sluice.jit
// records operations instead of running them).
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_PYTHON_FASTPATH_H
#define SLUICE_PYTHON_FASTPATH_H

#include "Array.h"

#include <nanobind/nanobind.h>

namespace sluice::py {

/// Binds fast_register, fast_call, set_fast_fallback, trace_depth and the
/// arithmetic operators of ArrayCore.
void bindFastPath(nanobind::module_ &m, nanobind::class_<ArrayCore> &c);

} // namespace sluice::py

#endif // SLUICE_PYTHON_FASTPATH_H
