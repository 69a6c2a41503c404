//===- Lazy.cpp - Recorded eager operations, submitted when needed --------===//
#include "Lazy.h"
#include "Errors.h"
#include "LazyTape.h"
#include "Program.h"
#include "Sizes.h"

#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <frameobject.h>

#include <algorithm>
#include <mutex>
#include <unordered_map>

namespace nb = nanobind;

namespace sluice::py {

namespace {

/// The Python function that submits every pending graph (never destroyed:
/// Python may be finalized before static destructors run).
nb::object *hook = new nb::object();
/// Some graph is recorded and not submitted (set by Python).
bool pending = false;
/// The hook runs on this thread: its own submissions must not call it
/// again (another thread's uses still flush, waiting for the hook's lock).
thread_local bool flushing = false;
uint64_t nextId = 1;

/// A recorded result: the buffer it will fill. Live while an array (or a
/// view) other than the token holds the buffer.
struct LazyToken {
  std::shared_ptr<Buffer> buffer;
  uint64_t id = 0;
};

/// The producer of a lazy buffer whose graph could not run: readers get
/// its message as they would a failed operation's.
class FailedTask : public Task {
public:
  FailedTask(SluiceStatus status, std::string text)
      : failure(status), text(std::move(text)) {}
  SluiceStatus run(std::string &message) override {
    message = text;
    return failure;
  }

private:
  SluiceStatus failure;
  std::string text;
};

Buffer &memoryOwner(Buffer &buffer) {
  Buffer *b = &buffer;
  while (b->owner)
    b = b->owner.get();
  return *b;
}

void checkSubmitted(const Buffer &buffer) {
  if (buffer.lazyId)
    throw Error(ErrorKind::Runtime,
                "internal error: a lazily recorded operation was not "
                "submitted before its result was used");
}

} // namespace

void lazyFlushAll(const char *reason, uint64_t wanted) {
  if (flushing || (!pending && !tapePending()))
    return;
  flushing = true;
  try {
    // The tape first (Python's graphs are empty while it records; it may
    // become one of them).
    tapeFlush(reason, wanted);
    if (pending && hook->is_valid())
      (*hook)(reason, wanted);
  } catch (...) {
    flushing = false;
    throw;
  }
  flushing = false;
}

void lazyBeforeUse(Buffer &buffer, bool write) {
  if ((pending || tapePending()) && !flushing) {
    if (buffer.lazyId)
      lazyFlushAll("a pending result was used", buffer.lazyId);
    // (Operations still pending may read it now that it was produced.)
    if (write && memoryOwner(buffer).lazyReaders)
      lazyFlushAll("an array pending operations read was written");
  }
  checkSubmitted(buffer);
}

std::shared_ptr<Buffer> lazyTarget(nb::handle token) {
  LazyToken *t = nullptr;
  if (!nb::try_cast<LazyToken *>(token, t) || !t)
    throw Error(ErrorKind::Type, "a lazy target must be a LazyToken");
  if (!t->buffer->lazyId)
    throw Error(ErrorKind::Value, "this lazy result was submitted already");
  t->buffer->lazyId = 0;
  return t->buffer;
}

bool lazyTargetFits(nb::handle token, QueueState *queue, SluiceUsmKind kind) {
  LazyToken *t = nullptr;
  return nb::try_cast<LazyToken *>(token, t) && t && t->buffer->lazyId &&
         t->buffer->queue == queue && t->buffer->kind == kind;
}

nb::object newLazyArray(QueueState *queue, SluiceUsmKind kind, int dtype,
                        const std::vector<int64_t> &shape,
                        std::shared_ptr<Buffer> &buffer) {
  if (!queue || kind < SLUICE_USM_DEVICE || kind > SLUICE_USM_HOST ||
      dtype < 0 || dtype >= NumDTypes)
    throw Error(ErrorKind::Value, "lazy_array: bad queue, kind or dtype");
  ArrayCore core;
  core.dtype = static_cast<uint8_t>(dtype);
  core.shape = shape;
  checkArrayBytes(core.shape, core.itemsize());
  core.strides = contiguousStrides(core.shape);
  buffer = std::make_shared<Buffer>();
  buffer->queue = queue;
  buffer->kind = kind;
  buffer->bytes = static_cast<size_t>(core.size()) * core.itemsize();
  buffer->lazyId = nextId++;
  core.buffer = buffer;
  return wrapArray(std::move(core));
}

std::pair<nb::object, nb::object>
newLazyResult(QueueState *queue, SluiceUsmKind kind, int dtype,
              const std::vector<int64_t> &shape) {
  std::shared_ptr<Buffer> buffer;
  nb::object array = newLazyArray(queue, kind, dtype, shape, buffer);
  uint64_t id = buffer->lazyId;
  return {array, lazyBufferToken(buffer, id)};
}

nb::object lazyBufferToken(const std::shared_ptr<Buffer> &buffer, uint64_t id) {
  return nb::cast(LazyToken{buffer, id});
}

uint64_t lazyNextId() { return nextId; }

bool lazyGraphsPending() { return pending; }

bool lazyTokenLive(nb::handle token) {
  return nb::inst_ptr<LazyToken>(token)->buffer.use_count() > 1;
}

uint64_t lazyTokenId(nb::handle token) {
  return nb::inst_ptr<LazyToken>(token)->id;
}

namespace {
nb::object tokenArray(LazyToken &t, int dtype,
                      const std::vector<int64_t> &shape) {
  if (t.buffer->lazyId || dtype < 0 || dtype >= NumDTypes)
    throw Error(ErrorKind::Value, "LazyToken.array: the result "
                                  "is not produced, or a bad "
                                  "dtype");
  ArrayCore core;
  core.buffer = t.buffer;
  core.dtype = static_cast<uint8_t>(dtype);
  core.shape = shape;
  core.strides = contiguousStrides(shape);
  if (static_cast<size_t>(core.size()) * core.itemsize() != t.buffer->bytes)
    throw Error(ErrorKind::Value, "LazyToken.array: wrong size");
  return wrapArray(std::move(core));
}
} // namespace

nb::object lazyTokenArray(nb::handle token, int dtype,
                          const std::vector<int64_t> &shape) {
  return tokenArray(*nb::inst_ptr<LazyToken>(token), dtype, shape);
}

nb::object lazyBufferArray(const std::shared_ptr<Buffer> &buffer, int dtype,
                           const std::vector<int64_t> &shape) {
  LazyToken t{buffer, 0};
  return tokenArray(t, dtype, shape);
}

namespace {
void failBuffer(Buffer &b, const std::string &message, SluiceStatus status) {
  if (!b.lazyId)
    return;
  auto task = std::make_shared<FailedTask>(status, message);
  // Fails at once; the queue's next wait reports it, as an eager
  // operation's failure (the first one a queue saw).
  task->queue = b.queue;
  task->execute();
  b.lazyId = 0;
  b.last = task;
  b.writer = task;
}
} // namespace

void lazyTokenFail(nb::handle token, const std::string &message,
                   SluiceStatus status) {
  failBuffer(*nb::inst_ptr<LazyToken>(token)->buffer, message, status);
}

void lazyBufferFail(Buffer &buffer, const std::string &message,
                    SluiceStatus status) {
  failBuffer(buffer, message, status);
}

namespace {
/// Source points of recorded operations: (code object, instruction) ->
/// id, and the ids' texts. The code objects are kept (a code object is
/// part of a function; the table is bounded): their addresses stay
/// theirs.
struct SourcePointHash {
  size_t operator()(const std::pair<PyObject *, int> &k) const {
    return std::hash<const void *>()(k.first) ^
           (static_cast<size_t>(k.second) * 0x9E3779B97F4A7C15ull);
  }
};
std::unordered_map<std::pair<PyObject *, int>, uint32_t, SourcePointHash>
    &sourcePoints = *new std::unordered_map<std::pair<PyObject *, int>,
                                            uint32_t, SourcePointHash>;
std::vector<std::string> &sourceTexts = *new std::vector<std::string>{""};
std::mutex &sourceMutex = *new std::mutex;
constexpr size_t kMaxSourcePoints = 1 << 16;
/// The package's directory (frames there are not the user's).
nb::object &packageDir = *new nb::object;

bool insidePackage(PyCodeObject *code) {
  return packageDir.is_valid() &&
         PyUnicode_Tailmatch(code->co_filename, packageDir.ptr(), 0,
                             PY_SSIZE_T_MAX, -1) == 1;
}
} // namespace

uint32_t lazyCallerLocation() {
  PyFrameObject *f = PyEval_GetFrame(); // (borrowed)
  PyFrameObject *held = nullptr;        // a frame of PyFrame_GetBack
  uint32_t id = 0;
  while (f) {
    PyCodeObject *code = PyFrame_GetCode(f);
    if (!insidePackage(code)) {
#if PY_VERSION_HEX >= 0x030B0000
      int at = PyFrame_GetLasti(f);
#else
      int at = PyFrame_GetLineNumber(f);
#endif
      auto key = std::make_pair(reinterpret_cast<PyObject *>(code), at);
      auto it = sourcePoints.find(key);
      if (it != sourcePoints.end()) {
        id = it->second;
      } else if (sourcePoints.size() < kMaxSourcePoints) {
#if PY_VERSION_HEX >= 0x030B0000
        int line = PyCode_Addr2Line(code, at);
#else
        int line = at;
#endif
        const char *file = PyUnicode_AsUTF8(code->co_filename);
        std::string text =
            std::string(file ? file : "?") + ":" + std::to_string(line);
        {
          std::lock_guard<std::mutex> lock(sourceMutex);
          id = static_cast<uint32_t>(sourceTexts.size());
          sourceTexts.push_back(std::move(text));
        }
        Py_INCREF(code); // (kept: see sourcePoints)
        sourcePoints.emplace(key, id);
      }
      Py_DECREF(code);
      break;
    }
    Py_DECREF(code);
    PyFrameObject *back = PyFrame_GetBack(f);
    Py_XDECREF(held);
    held = f = back;
  }
  Py_XDECREF(held);
  if (PyErr_Occurred())
    PyErr_Clear();
  return id;
}

std::string lazyLocationText(const std::vector<uint32_t> &ids) {
  std::vector<uint32_t> distinct;
  for (uint32_t id : ids)
    if (id && std::find(distinct.begin(), distinct.end(), id) == distinct.end())
      distinct.push_back(id);
  if (distinct.empty())
    return "";
  constexpr size_t kShown = 4;
  std::string text = " (recorded lazily at ";
  std::lock_guard<std::mutex> lock(sourceMutex);
  for (size_t i = 0; i < distinct.size() && i < kShown; ++i) {
    if (i)
      text += ", ";
    text += distinct[i] < sourceTexts.size() ? sourceTexts[distinct[i]] : "?";
  }
  if (distinct.size() > kShown)
    text += " and " + std::to_string(distinct.size() - kShown) + " more";
  return text + ")";
}

void lazyMarkRead(Buffer &buffer, int delta) {
  Buffer &owner = memoryOwner(buffer);
  if (delta < 0 && owner.lazyReaders < static_cast<uint32_t>(-delta))
    owner.lazyReaders = 0;
  else
    owner.lazyReaders += delta;
}

void bindLazy(nb::module_ &m, nb::class_<ArrayCore> &c) {
  m.def(
      "lazy_set_hook", [](nb::object fn) { *hook = std::move(fn); },
      "The function that submits every pending graph.");
  m.def(
      "lazy_set_package_dir", [](nb::str dir) { packageDir = std::move(dir); },
      "Frames of files under this directory are not the user's source "
      "line.");
  m.def("lazy_location", &lazyCallerLocation,
        "The id of the user's source line recording an operation now.");
  m.def(
      "lazy_location_text",
      [](const std::vector<uint32_t> &ids) { return lazyLocationText(ids); },
      "' (recorded lazily at FILE:LINE, ...)' for these ids, or ''.");
  m.def(
      "lazy_pending", [](bool on) { pending = on; },
      "Whether some recorded graph waits to be submitted.");
  m.def(
      "lazy_flush",
      [](const std::string &reason) { lazyFlushAll(reason.c_str()); },
      "Submits every pending graph (through the hook).");
  m.def(
      "lazy_mark_read",
      [](ArrayCore &a, int delta) { lazyMarkRead(*a.buffer, delta); },
      "Counts a recorded operation that reads the array's memory (+1) or "
      "one that was submitted (-1).");
  nb::class_<LazyToken>(m, "LazyToken",
                        "The buffer a recorded operation's result will "
                        "fill.")
      .def_prop_ro("live",
                   [](LazyToken &t) { return t.buffer.use_count() > 1; })
      .def_prop_ro("id", [](LazyToken &t) { return t.id; })
      .def_prop_ro("pending",
                   [](LazyToken &t) { return t.buffer->lazyId != 0; })
      .def(
          "array",
          [](LazyToken &t, int dtype, const std::vector<int64_t> &shape) {
            return tokenArray(t, dtype, shape);
          },
          "An array over the buffer once its operation was submitted.")
      .def(
          "fail",
          [](LazyToken &t, const std::string &message, bool outOfMemory) {
            failBuffer(*t.buffer, message,
                       outOfMemory ? SLUICE_ERROR_OUT_OF_DEVICE_MEMORY
                                   : SLUICE_ERROR_BACKEND);
          },
          nb::arg("message"), nb::arg("out_of_memory") = false,
          "Gives the buffer a failed producer with this message (reported "
          "by its queue's next wait too).");
  m.def(
      "lazy_array",
      [](uintptr_t queue, int kind, int dtype,
         const std::vector<int64_t> &shape) {
        auto [array, token] =
            newLazyResult(reinterpret_cast<QueueState *>(queue),
                          static_cast<SluiceUsmKind>(kind), dtype, shape);
        return nb::make_tuple(array, token);
      },
      "A new array whose memory a recorded operation will produce, and its "
      "token.");
  c.def_prop_ro(
      "_lazy_id",
      [](ArrayCore &a) -> int64_t {
        uint64_t id = a.buffer->lazyId;
        if (!id)
          return 0;
        bool whole =
            a.offset == 0 && a.cContiguous() &&
            static_cast<size_t>(a.size()) * a.itemsize() == a.buffer->bytes;
        return whole ? static_cast<int64_t>(id) : -static_cast<int64_t>(id);
      },
      "0 for an array whose producer was submitted; the id of its lazy "
      "buffer if it is that whole buffer, minus the id for a view of part "
      "of one.");
}

} // namespace sluice::py
