//===- Memory.cpp - Events, USM pointers and memory views for Python ------===//
#include "Memory.h"
#include "Array.h"
#include "Errors.h"
#include "Program.h"

#include <algorithm>

#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;

namespace sluice::py {

namespace {

std::string withRuntimeMessage(const std::string &what) {
  const char *msg = sluiceGetLastErrorMessage();
  return what + (msg && *msg ? ": " + std::string(msg) : "");
}

/// A task that finishes after every task its device's worker received
/// before it (and the events it was given), and then holds the newest
/// runtime event of its queue: the end of the queue's work so far, with
/// that work's profiling timestamps.
class MarkerTask : public Task {
public:
  explicit MarkerTask(QueueState *target) : target(target) {}
  ~MarkerTask() override {
    if (event)
      sluiceEventRelease(event);
  }
  SluiceStatus run(std::string &message) override {
    SluiceEvent last = nullptr;
    SluiceStatus s = sluiceQueueGetLastEvent(target->queue, &last);
    if (s != SLUICE_SUCCESS) {
      message = withRuntimeMessage("cannot query the queue's last event");
      return s;
    }
    event = last;
    if (last && (s = sluiceEventWait(last)) != SLUICE_SUCCESS) {
      message = withRuntimeMessage("the queue's work failed");
      return s;
    }
    return SLUICE_SUCCESS;
  }
  QueueState *target;
  /// Set by run() before the task is marked finished.
  SluiceEvent event = nullptr;
};

/// The native part of sluice.SyclEvent: a marker, or nothing (an event
/// that is complete from the start).
struct EventCore {
  std::shared_ptr<MarkerTask> task;
  QueueState *queue = nullptr;

  void wait() const {
    if (!task)
      return;
    waitWithoutGil(*task);
    if (task->failed())
      throw Error(ErrorKind::Runtime, task->message, task->status);
  }

  /// "submitted", "running" or "complete" (dpctl's event_status_type).
  std::string status() const {
    if (!task || task->finished())
      return "complete";
    return "submitted";
  }

  /// (submit, start, end) in nanoseconds of the work the event marks.
  std::tuple<uint64_t, uint64_t, uint64_t> profiling() const {
    wait();
    if (!task || !task->event)
      throw Error(ErrorKind::Value,
                  "the event marks no work on a device, so it has no "
                  "profiling information");
    uint64_t submit = 0, start = 0, end = 0;
    SluiceStatus s =
        sluiceEventGetProfilingInfo(task->event, &submit, &start, &end);
    if (s != SLUICE_SUCCESS)
      throw runtimeError(s, "no profiling information");
    return {submit, start, end};
  }

  int backend() const { return queue ? static_cast<int>(queue->backend) : -1; }
};

QueueState *queueOf(uintptr_t id) {
  if (!id)
    throw Error(ErrorKind::Value, "no queue");
  return reinterpret_cast<QueueState *>(id);
}

EventCore submitMarker(uintptr_t queueId, const std::vector<EventCore> &deps) {
  QueueState *q = queueOf(queueId);
  auto task = std::make_shared<MarkerTask>(q);
  for (const EventCore &dep : deps)
    if (dep.task && !dep.task->finished())
      task->deps.push_back({dep.task, /*inherit=*/true});
  EventCore core;
  core.task = task;
  core.queue = q;
  submitTask(q->dispatcher, task);
  return core;
}

int64_t elementCount(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      throw Error(ErrorKind::Value, "negative dimensions are not allowed");
    n *= d;
  }
  return n;
}

/// A view of `core`'s memory as another dtype: `offset` in elements of
/// the new dtype from the buffer's data pointer.
nb::object reinterpret(ArrayCore &core, int dtype, int64_t offset,
                       const std::vector<int64_t> &shape,
                       const std::vector<int64_t> &strides) {
  if (dtype < 0 || dtype >= NumDTypes)
    throw Error(ErrorKind::Value, "bad dtype code " + std::to_string(dtype));
  if (shape.size() != strides.size())
    throw Error(ErrorKind::Value, "shape and strides differ in rank");
  ArrayCore v;
  v.buffer = core.buffer;
  v.dtype = static_cast<uint8_t>(dtype);
  v.offset = offset;
  v.shape = shape;
  v.strides = strides;
  if (elementCount(shape)) {
    auto [lo, hi] = v.byteSpan();
    int64_t start = offset * static_cast<int64_t>(v.itemsize());
    if (start + lo < -core.buffer->bytesBefore ||
        start + hi > static_cast<int64_t>(core.buffer->bytes))
      throw Error(ErrorKind::Value, "view outside of its memory");
  }
  return wrapArray(std::move(v));
}

/// Buffers whose memory was handed out through
/// __sycl_usm_array_interface__: an import of a pointer into one of them
/// views that buffer itself, so the work on both stays ordered (a buffer
/// orders the tasks that use it). Touched with the GIL held only.
std::vector<std::weak_ptr<Buffer>> &exportedBuffers() {
  static auto *list = new std::vector<std::weak_ptr<Buffer>>;
  return *list;
}

void registerExport(ArrayCore &core) {
  auto &list = exportedBuffers();
  for (auto &w : list)
    if (w.lock() == core.buffer)
      return;
  list.erase(std::remove_if(
                 list.begin(), list.end(),
                 [](const std::weak_ptr<Buffer> &w) { return w.expired(); }),
             list.end());
  list.push_back(core.buffer);
}

/// The exported buffer holding bytes [first + lo, first + hi), or null.
std::shared_ptr<Buffer> exportedBufferOf(char *first, int64_t lo, int64_t hi) {
  for (auto &w : exportedBuffers()) {
    std::shared_ptr<Buffer> b = w.lock();
    if (!b || !b->data)
      continue;
    char *begin = b->data - b->bytesBefore;
    char *end = b->data + b->bytes;
    if (first + lo >= begin && first + hi <= end && first >= begin)
      return b;
  }
  return nullptr;
}

/// An array over USM memory another object describes (its
/// __sycl_usm_array_interface__): `ptr` is the first element's address,
/// [lo, hi) the bytes the view reaches relative to it. The memory is
/// bound to the queue that allocated it when Sluice did, else imported on
/// `queueId` (the interface's queue); `owner` is kept alive as long as the
/// array's memory is.
nb::object usmImport(uintptr_t ptr, int64_t lo, int64_t hi, int dtype,
                     const std::vector<int64_t> &shape,
                     const std::vector<int64_t> &strides, nb::object owner,
                     bool readOnly, uintptr_t queueId) {
  if (dtype < 0 || dtype >= NumDTypes)
    throw Error(ErrorKind::Value, "bad dtype code " + std::to_string(dtype));
  if (shape.size() != strides.size())
    throw Error(ErrorKind::Value, "shape and strides differ in rank");
  if (!ptr && elementCount(shape))
    throw Error(ErrorKind::Value, "null USM pointer");
  QueueState *fallback = queueOf(queueId);
  char *ptrBytes = reinterpret_cast<char *>(ptr);
  if (std::shared_ptr<Buffer> known =
          ptr ? exportedBufferOf(ptrBytes, lo, hi) : nullptr) {
    int64_t item = static_cast<int64_t>(itemSize(dtype));
    int64_t delta = ptrBytes - known->data;
    if (!readOnly && delta % item == 0) {
      ArrayCore core;
      core.buffer = std::move(known);
      core.dtype = static_cast<uint8_t>(dtype);
      core.offset = delta / item;
      core.shape = shape;
      core.strides = strides;
      return wrapArray(std::move(core));
    }
    // A read-only or misaligned alias gets a buffer of its own, made after
    // the pending writes.
    waitBuffer(*known);
  }
  auto buffer = std::make_shared<Buffer>();
  buffer->data = reinterpret_cast<char *>(ptr);
  buffer->bytes = static_cast<size_t>(hi > 0 ? hi : 0);
  buffer->bytesBefore = lo < 0 ? -lo : 0;
  buffer->readOnly = readOnly;
  SluiceQueue ownerQueue = nullptr;
  SluiceUsmKind kind = SLUICE_USM_UNKNOWN;
  char *first = buffer->data + lo;
  if (ptr &&
      sluicePointerGetInfo(first, &kind, nullptr, &ownerQueue, nullptr,
                           nullptr) == SLUICE_SUCCESS &&
      ownerQueue && findQueue(ownerQueue)) {
    buffer->queue = findQueue(ownerQueue);
    buffer->kind = kind;
  } else if (fallback->backend == SLUICE_BACKEND_HOST || !ptr) {
    buffer->queue = fallback;
    buffer->kind = SLUICE_USM_HOST;
  } else {
    SluiceStatus s = sluiceUsmImport(fallback->queue, SLUICE_USM_UNKNOWN, first,
                                     static_cast<size_t>(hi - lo));
    if (s != SLUICE_SUCCESS)
      throw runtimeError(s, "the pointer of the __sycl_usm_array_interface__ "
                            "is not USM memory Sluice can use on " +
                                fallback->deviceString);
    buffer->imported = first;
    buffer->queue = fallback;
    buffer->kind = SLUICE_USM_DEVICE;
    if (sluicePointerGetInfo(first, &kind, nullptr, nullptr, nullptr,
                             nullptr) == SLUICE_SUCCESS &&
        kind != SLUICE_USM_UNKNOWN)
      buffer->kind = kind;
  }
  PyObject *held = owner.release().ptr();
  buffer->release = [held] { Py_XDECREF(held); };
  ArrayCore core;
  core.buffer = std::move(buffer);
  core.dtype = static_cast<uint8_t>(dtype);
  core.shape = shape;
  core.strides = strides;
  return wrapArray(std::move(core));
}

/// The native base of sluice.memory's classes: a byte view of USM memory
/// that gives host-accessible memory to the buffer protocol.
struct MemoryCore {
  ArrayCore bytes;
  bool set = false;
};

int memoryGetBuffer(PyObject *self, Py_buffer *view, int flags) {
  view->obj = nullptr;
  if (!nb::inst_ready(nb::handle(self))) {
    PyErr_SetString(PyExc_BufferError, "uninitialised USM memory object");
    return -1;
  }
  auto *m = nb::inst_ptr<MemoryCore>(nb::handle(self));
  if (!m->set) {
    PyErr_SetString(PyExc_BufferError, "uninitialised USM memory object");
    return -1;
  }
  if (!m->bytes.buffer->hostAccessible()) {
    PyErr_SetString(PyExc_BufferError,
                    "USM device memory is not accessible from the host: "
                    "copy it with copy_to_host()");
    return -1;
  }
  try {
    waitBuffer(*m->bytes.buffer);
  } catch (const Error &e) {
    PyErr_SetString(PyExc_BufferError, e.what());
    return -1;
  } catch (nb::python_error &e) {
    e.restore();
    return -1;
  }
  bool readOnly = m->bytes.buffer->readOnly;
  return PyBuffer_FillInfo(view, self, m->bytes.dataPointer(),
                           static_cast<Py_ssize_t>(m->bytes.size()),
                           readOnly ? 1 : 0, flags);
}

void memoryReleaseBuffer(PyObject *, Py_buffer *) {}

PyType_Slot memorySlots[] = {
    {Py_bf_getbuffer, reinterpret_cast<void *>(memoryGetBuffer)},
    {Py_bf_releasebuffer, reinterpret_cast<void *>(memoryReleaseBuffer)},
    {0, nullptr}};

} // namespace

void bindMemory(nb::module_ &m) {
  nb::class_<MemoryCore>(m, "MemoryCore", nb::type_slots(memorySlots),
                         "The native base of sluice.memory's USM memory "
                         "objects (the buffer protocol).")
      .def(nb::init<>())
      .def("_set_bytes",
           [](MemoryCore &self, ArrayCore &bytes) {
             if (bytes.dtype != U8 || bytes.shape.size() != 1 ||
                 !bytes.cContiguous())
               throw Error(ErrorKind::Value,
                           "USM memory is a contiguous uint8 vector");
             self.bytes = bytes;
             self.set = true;
           })
      .def_prop_ro("_bytes", [](MemoryCore &self) {
        if (!self.set)
          throw Error(ErrorKind::Value, "uninitialised USM memory object");
        return wrapArray(ArrayCore(self.bytes));
      });
  nb::class_<EventCore>(m, "EventCore", "The native part of sluice.SyclEvent.")
      .def(nb::init<>())
      .def("wait", &EventCore::wait)
      .def_prop_ro("status", &EventCore::status)
      .def("profiling", &EventCore::profiling)
      .def_prop_ro("backend", &EventCore::backend)
      .def_prop_ro("is_marker",
                   [](const EventCore &e) { return e.task != nullptr; })
      .def_prop_ro("_queue_id",
                   [](const EventCore &e) {
                     return reinterpret_cast<uintptr_t>(e.queue);
                   })
      .def("_same", [](const EventCore &a, const EventCore &b) {
        return a.task == b.task;
      });
  m.def("submit_marker", &submitMarker, nb::arg("queue"), nb::arg("deps"),
        "An event that completes after the work submitted so far to the "
        "queue's device and the events `deps`; its profiling information "
        "is that of the queue's last runtime task.");
  m.def("core_reinterpret", &reinterpret, nb::arg("core"), nb::arg("dtype"),
        nb::arg("offset"), nb::arg("shape"), nb::arg("strides"));
  m.def("usm_import", &usmImport, nb::arg("ptr"), nb::arg("lo"), nb::arg("hi"),
        nb::arg("dtype"), nb::arg("shape"), nb::arg("strides"),
        nb::arg("owner"), nb::arg("readonly"), nb::arg("queue"));
  m.def("usm_register_export", &registerExport, nb::arg("core"),
        "Records that the array's memory was handed out through "
        "__sycl_usm_array_interface__.");
  m.def("pointer_info", [](uintptr_t ptr) {
    SluiceUsmKind kind = SLUICE_USM_UNKNOWN;
    SluiceQueue queue = nullptr;
    void *base = nullptr;
    size_t size = 0;
    check(sluicePointerGetInfo(reinterpret_cast<void *>(ptr), &kind, nullptr,
                               &queue, &base, &size),
          "cannot query the pointer");
    QueueState *q = queue ? findQueue(queue) : nullptr;
    return std::make_tuple(static_cast<int>(kind),
                           reinterpret_cast<uintptr_t>(q),
                           reinterpret_cast<uintptr_t>(base), size);
  });
}

} // namespace sluice::py
