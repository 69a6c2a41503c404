//===- Module.cpp - The sluice._sluice extension module -------------------===//
//
// The native half of the Python package: devices and queues of the runtime
// C API, USM buffers and the core of sluice.Array, asynchronous tasks,
// compiled programs, the compiler C API and DLPack. Everything the user sees
// is wrapped by the Python modules of the package; names here start with
// what they bind, and queues are passed as integer ids (QueueState
// addresses, which live as long as the process).
//
//===----------------------------------------------------------------------===//
#include "Array.h"
#include "Artifact.h"
#include "Bindings.h"
#include "Compiler.h"
#include "DLPack.h"
#include "Errors.h"
#include "FastPath.h"
#include "Lazy.h"
#include "Memory.h"
#include "Program.h"
#include "Sizes.h"

#include "sluice-c/Runtime.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <dlfcn.h>
#include <map>

namespace nb = nanobind;
using namespace sluice::py;

namespace sluice::py {

Error runtimeError(SluiceStatus status, const std::string &what) {
  const char *msg = sluiceGetLastErrorMessage();
  std::string text = what + (msg && *msg ? ": " + std::string(msg) : "");
  switch (status) {
  case SLUICE_ERROR_DEVICE_NOT_FOUND:
  case SLUICE_ERROR_INVALID_SELECTOR:
    return Error(ErrorKind::DeviceNotFound, text, status);
  case SLUICE_ERROR_OUT_OF_HOST_MEMORY:
  case SLUICE_ERROR_OUT_OF_DEVICE_MEMORY:
    return Error(ErrorKind::OutOfMemory, text, status);
  case SLUICE_ERROR_INVALID_VALUE:
    return Error(ErrorKind::Value, text, status);
  default:
    return Error(ErrorKind::Runtime, text, status);
  }
}

} // namespace sluice::py

namespace {

std::map<ErrorKind, nb::object> &exceptionTypes() {
  static auto *types = new std::map<ErrorKind, nb::object>;
  return *types;
}

PyObject *exceptionFor(ErrorKind kind) {
  auto &types = exceptionTypes();
  if (auto it = types.find(kind); it != types.end())
    return it->second.ptr();
  switch (kind) {
  case ErrorKind::Value:
    return PyExc_ValueError;
  case ErrorKind::Type:
    return PyExc_TypeError;
  case ErrorKind::OutOfMemory:
    return PyExc_MemoryError;
  case ErrorKind::Buffer:
    return PyExc_BufferError;
  default:
    return PyExc_RuntimeError;
  }
}

} // namespace

namespace {
/// The compiler's JIT resolves the runtime's functions (sluiceProgram*)
/// among the process's global symbols; Python loads extensions with
/// RTLD_LOCAL, so make libsluice-runtime.so global.
void exportRuntimeSymbols() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&sluiceGetLastErrorMessage), &info) &&
      info.dli_fname)
    dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
}

/// The exception types, the array type and synchronous mode.
void bindSettings(nb::module_ &m) {
  nb::register_exception_translator([](const std::exception_ptr &p, void *) {
    try {
      std::rethrow_exception(p);
    } catch (const Error &e) {
      PyErr_SetString(exceptionFor(e.kind), e.what());
    }
  });

  m.def(
      "set_exception_types",
      [](nb::dict types) {
        static const std::pair<const char *, ErrorKind> names[] = {
            {"runtime", ErrorKind::Runtime},
            {"device_not_found", ErrorKind::DeviceNotFound},
            {"compile", ErrorKind::Compile},
            {"out_of_memory", ErrorKind::OutOfMemory},
        };
        for (auto [name, kind] : names)
          if (types.contains(name))
            exceptionTypes()[kind] = nb::borrow(types[name]);
      },
      "Registers the Python classes of sluice's exceptions.");
  m.def("set_array_type", [](nb::handle t) { setArrayType(t); });
  // NumPy's names of the element types, by code (sluice-c/DType.h).
  nb::list dtypeNames;
#define SLUICE_DTYPE_NAME(c, cpp, numpy, bytes) dtypeNames.append(#numpy);
  SLUICE_DTYPE_LIST(SLUICE_DTYPE_NAME)
#undef SLUICE_DTYPE_NAME
  m.attr("dtype_names") = nb::tuple(dtypeNames);
  m.def("set_synchronous", &setSynchronousMode);
  m.def("is_synchronous", &synchronousMode);
}

} // namespace

NB_MODULE(_sluice, m) {
  m.doc() = "Native part of the sluice package (runtime, compiler, arrays)";
  nb::set_leak_warnings(false);
  exportRuntimeSymbols();

  bindSettings(m);
  bindDevices(m);
  bindMemoryPools(m);
  bindQueues(m);
  bindArrays(m);
  bindPrograms(m);
  // --- dpctl layer: events, USM pointers, byte views ----------------------
  bindMemory(m);
}
