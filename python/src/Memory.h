//===- Memory.h - Events, USM pointers, memory views ------------*- C++ -*-===//
//
// The native half of sluice's dpctl layer (sluice.SyclEvent, sluice.memory,
// __sycl_usm_array_interface__): markers that turn the work a queue has
// received so far into an event with the runtime's profiling timestamps,
// byte views of arrays, and arrays over USM pointers other libraries
// describe.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_PYTHON_MEMORY_H
#define SLUICE_PYTHON_MEMORY_H

#include <nanobind/nanobind.h>

namespace sluice::py {

/// Adds the functions and classes of Memory.cpp to the extension module.
void bindMemory(nanobind::module_ &m);

} // namespace sluice::py

#endif // SLUICE_PYTHON_MEMORY_H
