//===- QueueBindings.cpp - Queues: ids, properties, waits, gates
//------------===//
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

/// Queues: ids, properties, waits, gates.
void sluice::py::bindQueues(nb::module_ &m) {
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
