//===- Bindings.h - The areas of the sluice._sluice module ------*- C++ -*-===//
//
// The extension module binds one area per file: settings and exceptions
// (Module.cpp), devices and memory pools (DeviceBindings.cpp), queues
// (QueueBindings.cpp), arrays (ArrayBindings.cpp, with FastPath.cpp and
// Lazy.cpp), programs, the compiler and artifacts (ProgramBindings.cpp) and
// the dpctl layer (Memory.cpp). Here: their entry points and the checks of
// the ids and codes Python passes in.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_PYTHON_BINDINGS_H
#define SLUICE_PYTHON_BINDINGS_H

#include "Array.h"
#include "Errors.h"
#include "Sizes.h"
#include "Tasks.h"

#include "sluice-c/Runtime.h"

#include <nanobind/nanobind.h>

#include <string>
#include <vector>

namespace sluice::py {

void bindDevices(nanobind::module_ &m);
void bindMemoryPools(nanobind::module_ &m);
void bindQueues(nanobind::module_ &m);
void bindArrays(nanobind::module_ &m);
void bindPrograms(nanobind::module_ &m);

inline QueueState *queueFromId(uintptr_t id) {
  if (!id)
    throw Error(ErrorKind::Value, "no queue");
  return reinterpret_cast<QueueState *>(id);
}

inline SluiceDevice deviceFromId(uintptr_t id) {
  if (!id)
    throw Error(ErrorKind::Value, "no device");
  return reinterpret_cast<SluiceDevice>(id);
}

inline SluiceUsmKind kindFrom(int kind) {
  if (kind < SLUICE_USM_DEVICE || kind > SLUICE_USM_HOST)
    throw Error(ErrorKind::Value, "bad USM kind " + std::to_string(kind));
  return static_cast<SluiceUsmKind>(kind);
}

inline int checkedDType(int dtype) {
  if (dtype < 0 || dtype >= NumDTypes)
    throw Error(ErrorKind::Value, "bad dtype code " + std::to_string(dtype));
  return dtype;
}

inline std::vector<int64_t> checkedShape(const std::vector<int64_t> &shape,
                                         size_t itemsize) {
  for (int64_t d : shape)
    if (d < 0)
      throw Error(ErrorKind::Value, "negative dimensions are not allowed");
  checkArrayBytes(shape, itemsize);
  return shape;
}

inline nanobind::tuple toTuple(const std::vector<int64_t> &v) {
  nanobind::list l;
  for (int64_t x : v)
    l.append(x);
  return nanobind::tuple(l);
}

} // namespace sluice::py

#endif // SLUICE_PYTHON_BINDINGS_H
