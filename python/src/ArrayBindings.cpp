//===- ArrayBindings.cpp - sluice.Array's native core
//-----------------------===//
#include "Array.h"
#include "Artifact.h"
#include "Bindings.h"
#include "Compiler.h"
#include "DLPack.h"
#include "Errors.h"
#include "FastPath.h"
#include "Lazy.h"
#include "LazyTape.h"
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

/// A contiguous buffer of a Python object (NumPy array, bytes).
struct PyBuffer {
  Py_buffer view{};
  bool held = false;
  PyBuffer(nb::handle obj, bool writable) {
    int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj.ptr(), &view, flags) != 0)
      throw nb::python_error();
    held = true;
  }
  ~PyBuffer() {
    if (held)
      PyBuffer_Release(&view);
  }
};

nb::object coreView(ArrayCore &self, int64_t offset,
                    const std::vector<int64_t> &shape,
                    const std::vector<int64_t> &strides) {
  if (shape.size() != strides.size())
    throw Error(ErrorKind::Value, "shape and strides differ in rank");
  ArrayCore v;
  v.buffer = self.buffer;
  v.dtype = self.dtype;
  v.offset = offset;
  v.shape = checkedShape(shape, itemSize(self.dtype));
  v.strides = strides;
  // A view stays inside its buffer.
  if (v.size()) {
    auto [lo, hi] = v.byteSpan();
    int64_t start = offset * static_cast<int64_t>(v.itemsize());
    if (start + lo < -self.buffer->bytesBefore ||
        start + hi > static_cast<int64_t>(self.buffer->bytes))
      throw Error(ErrorKind::Value, "view outside of its array's memory");
  }
  return wrapArray(std::move(v));
}

} // namespace

/// sluice.Array's native core, its fast paths and lazy results, and the
/// functions that make arrays.
void sluice::py::bindArrays(nb::module_ &m) {
  auto arrayCore =
      nb::class_<ArrayCore>(
          m, "ArrayCore",
          "The native part of sluice.Array (a strided view of "
          "a USM buffer).")
          .def_prop_ro("shape", [](ArrayCore &a) { return toTuple(a.shape); })
          .def_prop_ro("ndim", [](ArrayCore &a) { return a.shape.size(); })
          .def_prop_ro("size", &ArrayCore::size)
          .def_prop_ro("itemsize", &ArrayCore::itemsize)
          .def_prop_ro("nbytes",
                       [](ArrayCore &a) { return a.size() * a.itemsize(); })
          .def_prop_ro("_dtype_code", [](ArrayCore &a) { return a.dtype; })
          .def_prop_ro("_queue_id",
                       [](ArrayCore &a) {
                         return reinterpret_cast<uintptr_t>(a.buffer->queue);
                       })
          .def_prop_ro(
              "_usm_kind",
              [](ArrayCore &a) { return static_cast<int>(a.buffer->kind); })
          .def_prop_ro("_strides",
                       [](ArrayCore &a) { return toTuple(a.strides); })
          .def_prop_ro("_offset", [](ArrayCore &a) { return a.offset; })
          .def_prop_ro("_signature",
                       [](ArrayCore &a) {
                         // What a jitted function's cache key holds of an
                         // array argument.
                         return nb::make_tuple(
                             a.dtype, toTuple(a.shape),
                             reinterpret_cast<uintptr_t>(a.buffer->queue),
                             static_cast<int>(a.buffer->kind));
                       })
          .def_prop_ro("_c_contiguous", &ArrayCore::cContiguous)
          .def_prop_ro("_readonly",
                       [](ArrayCore &a) { return a.buffer->readOnly; })
          .def_prop_ro("_host_accessible",
                       [](ArrayCore &a) { return a.buffer->hostAccessible(); })
          .def("_same_buffer",
               [](ArrayCore &a, ArrayCore &b) { return a.buffer == b.buffer; })
          .def("_view", &coreView)
          .def("_wait", [](ArrayCore &a) { waitBuffer(*a.buffer); })
          .def("_pending",
               [](ArrayCore &a) {
                 return a.buffer->lazyId != 0 ||
                        (a.buffer->last && !a.buffer->last->finished());
               })
          .def("_data_pointer",
               [](ArrayCore &a) {
                 waitBuffer(*a.buffer);
                 return reinterpret_cast<uintptr_t>(a.dataPointer());
               })
          .def("_to_host",
               [](ArrayCore &a, nb::handle out) {
                 PyBuffer b(out, /*writable=*/true);
                 if (static_cast<size_t>(b.view.len) !=
                     static_cast<size_t>(a.size()) * a.itemsize())
                   throw Error(ErrorKind::Value, "output buffer size mismatch");
                 copyToHost(a, b.view.buf);
               })
          .def("_fill",
               [](ArrayCore &a, nb::bytes value) {
                 if (value.size() != a.itemsize())
                   throw Error(ErrorKind::Value, "fill value size mismatch");
                 submitFill(a, value.c_str());
               })
          .def(
              "_copy_from",
              [](ArrayCore &a, ArrayCore &src, bool profiled) {
                if (a.dtype != src.dtype || a.shape != src.shape)
                  throw Error(ErrorKind::Value,
                              "copy between arrays of different dtypes or "
                              "shapes");
                submitCopy(a, src, profiled);
              },
              nb::arg("src"), nb::arg("profiled") = false)
          .def("_contiguous",
               [](ArrayCore &a, uintptr_t queue, int kind, bool force) {
                 return wrapArray(contiguousCopy(a, queueFromId(queue),
                                                 kindFrom(kind), force));
               })
          .def("_dlpack_device", [](ArrayCore &a) { return dlpackDevice(a); })
          .def("_dlpack", [](ArrayCore &a, bool versioned, bool copied) {
            return dlpackExport(a, versioned, copied);
          });
  m.def(
      "set_strided_copy_hook",
      [](nb::object fn) { setStridedCopyHook(std::move(fn)); },
      "Sets the function that copies between strided views of memory the "
      "host cannot reach (sluice/_strided_copy.py).");
  bindFastPath(m, arrayCore);
  bindLazy(m, arrayCore);
  bindLazyTape(m);

  m.def("empty", [](uintptr_t queue, int kind, int dtype,
                    const std::vector<int64_t> &shape) {
    ArrayCore core;
    core.dtype = static_cast<uint8_t>(checkedDType(dtype));
    core.shape = checkedShape(shape, itemSize(core.dtype));
    core.strides = contiguousStrides(core.shape);
    core.buffer = allocateBuffer(queueFromId(queue), kindFrom(kind),
                                 core.size() * core.itemsize());
    return wrapArray(std::move(core));
  });
  m.def("from_host", [](uintptr_t queue, int kind, int dtype,
                        const std::vector<int64_t> &shape, nb::handle data) {
    PyBuffer b(data, /*writable=*/false);
    int64_t n = 1;
    for (int64_t d : checkedShape(shape, itemSize(checkedDType(dtype))))
      n *= d;
    if (static_cast<size_t>(b.view.len) !=
        static_cast<size_t>(n) * itemSize(checkedDType(dtype)))
      throw Error(ErrorKind::Value, "host data size mismatch");
    return wrapArray(copyFromHost(queueFromId(queue), kindFrom(kind), dtype,
                                  shape, b.view.buf));
  });
  m.def("dlpack_import", [](nb::handle capsule, uintptr_t hostQueue) {
    return dlpackImport(capsule, queueFromId(hostQueue));
  });
}
