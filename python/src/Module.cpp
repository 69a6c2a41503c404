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

QueueState *queueFromId(uintptr_t id) {
  if (!id)
    throw Error(ErrorKind::Value, "no queue");
  return reinterpret_cast<QueueState *>(id);
}

SluiceDevice deviceFromId(uintptr_t id) {
  if (!id)
    throw Error(ErrorKind::Value, "no device");
  return reinterpret_cast<SluiceDevice>(id);
}

SluiceUsmKind kindFrom(int kind) {
  if (kind < SLUICE_USM_DEVICE || kind > SLUICE_USM_HOST)
    throw Error(ErrorKind::Value, "bad USM kind " + std::to_string(kind));
  return static_cast<SluiceUsmKind>(kind);
}

int checkedDType(int dtype) {
  if (dtype < 0 || dtype >= NumDTypes)
    throw Error(ErrorKind::Value, "bad dtype code " + std::to_string(dtype));
  return dtype;
}

std::vector<int64_t> checkedShape(const std::vector<int64_t> &shape,
                                  size_t itemsize) {
  for (int64_t d : shape)
    if (d < 0)
      throw Error(ErrorKind::Value, "negative dimensions are not allowed");
  checkArrayBytes(shape, itemsize);
  return shape;
}

nb::tuple toTuple(const std::vector<int64_t> &v) {
  nb::list l;
  for (int64_t x : v)
    l.append(x);
  return nb::tuple(l);
}

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

nb::dict deviceInfo(uintptr_t id) {
  SluiceDeviceInfo info;
  check(sluiceDeviceGetInfo(deviceFromId(id), &info), "cannot query device");
  nb::dict d;
  d["backend"] = static_cast<int>(info.backend);
  d["backend_name"] = sluiceBackendName(info.backend);
  d["type"] = static_cast<int>(info.type);
  d["filter_string"] = info.filter_string;
  d["name"] = info.name;
  d["vendor"] = info.vendor;
  d["driver_version"] = info.driver_version;
  d["compute_units"] = info.compute_units;
  d["global_memory_bytes"] = info.global_memory_bytes;
  d["max_work_group_size"] = info.max_work_group_size;
  d["has_fp16"] = static_cast<bool>(info.has_fp16);
  d["has_fp64"] = static_cast<bool>(info.has_fp64);
  d["usm_capabilities"] = info.usm_capabilities;
  return d;
}

ValueSpec specFrom(nb::handle t) {
  // (is_array, dtype, shape, queue id, kind)
  ValueSpec v;
  v.isArray = nb::cast<bool>(t[0]);
  v.dtype = static_cast<uint8_t>(checkedDType(nb::cast<int>(t[1])));
  v.shape = nb::cast<std::vector<int64_t>>(t[2]);
  uintptr_t q = nb::cast<uintptr_t>(t[3]);
  v.queue = q ? reinterpret_cast<QueueState *>(q) : nullptr;
  v.kind = v.isArray ? kindFrom(nb::cast<int>(t[4])) : SLUICE_USM_DEVICE;
  if (v.isArray && !v.queue)
    throw Error(ErrorKind::Value, "array types need a queue");
  return v;
}

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

/// Devices: counts, handles, selection, properties, sub-devices.
void bindDevices(nb::module_ &m) {
  m.def("device_count", [] {
    uint32_t n = 0;
    check(sluiceDeviceGetCount(&n), "cannot count devices");
    return n;
  });
  m.def("device_handle", [](uint32_t i) {
    SluiceDevice d = nullptr;
    check(sluiceDeviceGet(i, &d), "no such device");
    return reinterpret_cast<uintptr_t>(d);
  });
  m.def("select_device", [](const std::string &filter) {
    SluiceDevice d = nullptr;
    check(sluiceDeviceSelect(filter.c_str(), &d),
          filter.empty()
              ? "no default device"
              : ("no device for selector \"" + filter + "\"").c_str());
    return reinterpret_cast<uintptr_t>(d);
  });
  m.def("device_info", &deviceInfo);
  m.def("device_sub_devices", [](uintptr_t id) {
    SluiceDevice d = deviceFromId(id);
    uint32_t n = 0;
    check(sluiceDeviceGetSubDevices(d, &n, nullptr), "cannot query device");
    std::vector<SluiceDevice> subs(n);
    if (n)
      check(sluiceDeviceGetSubDevices(d, &n, subs.data()),
            "cannot query device");
    std::vector<uintptr_t> out;
    for (uint32_t i = 0; i < n; ++i)
      out.push_back(reinterpret_cast<uintptr_t>(subs[i]));
    return out;
  });
  m.def("device_parent", [](uintptr_t id) {
    SluiceDevice parent = nullptr;
    check(sluiceDeviceGetParent(deviceFromId(id), &parent),
          "cannot query device");
    return reinterpret_cast<uintptr_t>(parent);
  });
  m.def("device_properties", [](uintptr_t id) {
    SluiceDevice d = deviceFromId(id);
    uint32_t n = 0;
    check(sluiceDeviceGetPropertyCount(d, &n), "cannot query device");
    std::vector<std::pair<std::string, std::string>> out;
    for (uint32_t i = 0; i < n; ++i) {
      const char *k = nullptr, *v = nullptr;
      check(sluiceDeviceGetProperty(d, i, &k, &v), "cannot query device");
      out.emplace_back(k ? k : "", v ? v : "");
    }
    return out;
  });
}

/// The devices' caching memory pools.
void bindMemoryPools(nb::module_ &m) {
  m.def("pool_info", [](uintptr_t id) {
    drainDeferred(); // buffers released off the GIL free their memory now
    SluiceMemoryPoolInfo i;
    check(sluiceDeviceGetMemoryPoolInfo(deviceFromId(id), &i),
          "cannot query the memory pool");
    return std::make_tuple(i.bytes_in_use, i.bytes_held, i.high_water, i.limit,
                           i.hold_limit, i.backend_allocations, i.reused);
  });
  m.def("pool_set_limit", [](uintptr_t id, uint64_t bytes) {
    check(sluiceDeviceSetMemoryPoolLimit(deviceFromId(id), bytes),
          "cannot set the memory pool's limit");
  });
  m.def("pool_set_hold_limit", [](uintptr_t id, uint64_t bytes) {
    check(sluiceDeviceSetMemoryPoolHoldLimit(deviceFromId(id), bytes),
          "cannot set the memory pool's hold limit");
  });
  m.def("pool_trim", [](uintptr_t id) {
    drainDeferred();
    check(sluiceDeviceTrimMemoryPool(deviceFromId(id)),
          "cannot trim the memory pool");
  });
  m.def("backend_status", [](int b) {
    int builtIn = 0;
    uint32_t n = 0;
    const char *note = nullptr;
    check(sluiceBackendGetStatus(static_cast<SluiceBackend>(b), &builtIn, &n,
                                 &note),
          "bad backend");
    return std::make_tuple(builtIn != 0, n, std::string(note ? note : ""));
  });
  m.def("normalize_selector", [](const std::string &s) {
    size_t needed = 0;
    check(sluiceSelectorNormalize(s.c_str(), nullptr, 0, &needed),
          ("bad device selector \"" + s + "\"").c_str());
    std::string out(needed, '\0');
    check(sluiceSelectorNormalize(s.c_str(), out.data(), out.size(), &needed),
          "bad device selector");
    out.resize(needed ? needed - 1 : 0);
    return out;
  });
}

/// Queues: ids, properties, waits, gates.
void bindQueues(nb::module_ &m) {
  m.def(
      "get_queue",
      [](const std::string &device, const std::string &name) {
        return reinterpret_cast<uintptr_t>(getQueue(device, name));
      },
      "The id of the queue programs name (device, name); \"\" names the "
      "canonical queue.");
  m.def("queue_info", [](uintptr_t id) {
    QueueState *q = queueFromId(id);
    return std::make_tuple(q->deviceString, q->name,
                           reinterpret_cast<uintptr_t>(q->device),
                           static_cast<int>(q->backend));
  });
  m.def(
      "queue_set_profiling",
      [](uintptr_t id, bool on) {
        check(sluiceQueueSetProfiling(queueFromId(id)->queue, on ? 1 : 0),
              "cannot set the queue's profiling property");
      },
      "Every task of the queue carries profiling timestamps from now on "
      "(dpctl's \"enable_profiling\"); off: only where the backend has "
      "them anyway (CUDA: tasks marked only where needed).");
  m.def("queue_profiling", [](uintptr_t id) {
    int on = 0;
    check(sluiceQueueGetProfiling(queueFromId(id)->queue, &on),
          "cannot query the queue's profiling property");
    return on != 0;
  });
  m.def(
      "queue_native_handle",
      [](uintptr_t id) {
        void *handle = nullptr;
        check(sluiceQueueGetNativeHandle(queueFromId(id)->queue, &handle),
              "cannot get the queue's native handle");
        return reinterpret_cast<uintptr_t>(handle);
      },
      "The backend's handle of the queue: a CUstream (cuda), a "
      "cl_command_queue (opencl), 0 (host).");
  m.def("queue_wait", [](uintptr_t id) {
    QueueState *q = queueFromId(id);
    drainDeferred();
    lazyFlushAll("a queue was waited for");
    SluiceStatus status;
    {
      nb::gil_scoped_release release;
      q->dispatcher->drain();
      status = sluiceQueueWait(q->queue);
    }
    std::string message;
    SluiceStatus failed = q->takeFailure(message);
    if (failed != SLUICE_SUCCESS)
      throw taskError(failed, message);
    if (status != SLUICE_SUCCESS)
      throw runtimeError(status, "waiting for the queue failed");
  });

  // A task that holds a queue's worker until released: tests use it to
  // observe asynchronous execution deterministically.
  nb::class_<GateTask>(m, "_Gate").def("release", &GateTask::release);
  m.def(
      "debug_block_queue",
      [](uintptr_t id) {
        QueueState *q = queueFromId(id);
        if (synchronousMode())
          throw Error(ErrorKind::Value,
                      "queues cannot be blocked in synchronous mode");
        auto gate = std::make_shared<GateTask>();
        gate->queue = q;
        submitTask(q->dispatcher, gate);
        return gate;
      },
      "Blocks the queue's worker until the returned gate is released.");
}

/// sluice.Array's native core, its fast paths and lazy results, and the
/// functions that make arrays.
void bindArrays(nb::module_ &m) {
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

/// Compiled entry points, the compiler and artifacts.
void bindPrograms(nb::module_ &m) {
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
           nb::arg("shapes") = nb::none(), nb::arg("targets") = nb::none())
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
