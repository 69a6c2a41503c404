//===- ProgramBindings.cpp - Programs, the compiler and artifacts
//-----------===//
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

namespace nb = nanobind;
using namespace sluice::py;

namespace {

ValueSpec specFrom(nb::handle t) {
  // (is_array, dtype, shape, queue id, kind)
  ValueSpec v;
  v.isArray = nb::cast<bool>(t[0]);
  v.dtype = static_cast<uint8_t>(checkedDType(nb::cast<int>(t[1])));
  v.shape = nb::cast<std::vector<int64_t>>(t[2]);
  uintptr_t q = nb::cast<uintptr_t>(t[3]);
  v.queue = q ? reinterpret_cast<QueueState *>(q) : nullptr;
  v.kind = v.isArray ? kindFrom(nb::cast<int>(t[4])) : SLUICE_USM_DEVICE;
  v.view = v.isArray && nb::len(t) > 5 && nb::cast<bool>(t[5]);
  if (v.isArray && !v.queue)
    throw Error(ErrorKind::Value, "array types need a queue");
  return v;
}

} // namespace

/// Compiled entry points, the compiler and artifacts.
void sluice::py::bindPrograms(nb::module_ &m) {
  nb::class_<Program>(m, "Program",
                      "One entry point of a compiled program with its "
                      "argument and result types.")
      .def(
          "__init__",
          [](Program *self, uintptr_t entry, nb::list args, nb::list results,
             const std::string &name) {
            std::vector<ValueSpec> a, r;
            for (nb::handle t : args)
              a.push_back(specFrom(t));
            for (nb::handle t : results)
              r.push_back(specFrom(t));
            new (self) Program(entry, std::move(a), std::move(r), name);
          },
          nb::arg("entry"), nb::arg("args"), nb::arg("results"),
          nb::arg("name"))
      .def("__call__", &Program::call, nb::arg("args"),
           nb::arg("shapes") = nb::none(), nb::arg("targets") = nb::none(),
           nb::arg("locations") = std::vector<uint32_t>())
      .def_prop_ro("name", &Program::name)
      .def_prop_ro("num_args", &Program::numArgs)
      .def_prop_ro("num_results", &Program::numResults)
      .def_rw("writes_arguments", &Program::writesArgs)
      .def_rw("written_arguments", &Program::writtenArgs);

  // --- compiler ----------------------------------------------------------
  m.def("compile_program", &compileProgram, nb::arg("text"),
        nb::arg("buffer_name"), nb::arg("flags"), nb::arg("entry"),
        nb::arg("capture_stages"), nb::arg("jit"), nb::arg("artifact"),
        nb::arg("session") = 0);
  // --- artifacts -----------------------------------------------------------
  m.def("open_artifact", &openArtifact, nb::arg("path"));
  m.def("load_artifact", &loadArtifact, nb::arg("path"), nb::arg("entry"));
  m.def("compiler_version", &compilerVersion);
  m.def("compile_stages", &compileStages,
        "The compiler's stages, name -> SluiceCompileStage value.");
}
