//===- Array.cpp - USM buffers, copies and fills
//---------------------------===//
#include "Array.h"
#include "Errors.h"
#include "Lazy.h"
#include "Program.h"

#include <nanobind/nanobind.h>

#include <algorithm>
#include <cstring>

namespace nb = nanobind;

namespace sluice::py {

size_t itemSize(int dtype) {
  static const size_t sizes[NumDTypes] = {
#define SLUICE_DTYPE_SIZE(c, cpp, numpy, bytes) bytes,
      SLUICE_DTYPE_LIST(SLUICE_DTYPE_SIZE)
#undef SLUICE_DTYPE_SIZE
  };
  return dtype >= 0 && dtype < NumDTypes ? sizes[dtype] : 0;
}

Buffer::~Buffer() {
  if (base && queue)
    sluiceFree(queue->queue, base); // deferred until its work has finished
  // Every task that used the buffer has finished (each waits for its
  // work): the owner may take the memory back.
  if (imported)
    sluiceUsmRelease(imported, nullptr);
  if (release)
    runWithGil(std::move(release));
}

bool Buffer::hostAccessible() const {
  if (owner)
    return owner->hostAccessible();
  if (!queue || queue->backend == SLUICE_BACKEND_HOST)
    return true;
  return kind == SLUICE_USM_HOST || kind == SLUICE_USM_SHARED;
}

int64_t ArrayCore::size() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

bool ArrayCore::cContiguous() const {
  int64_t expect = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] == 0)
      return true;
    if (shape[i] != 1 && strides[i] != expect)
      return false;
    expect *= shape[i];
  }
  return true;
}

std::pair<int64_t, int64_t> ArrayCore::byteSpan() const {
  int64_t lo = 0, hi = 0;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0)
      return {0, 0};
    int64_t extent = (shape[i] - 1) * strides[i];
    (extent < 0 ? lo : hi) += extent;
  }
  int64_t item = static_cast<int64_t>(itemsize());
  return {lo * item, (hi + 1) * item};
}

std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s *= std::max<int64_t>(shape[i], 1);
  }
  return strides;
}

std::shared_ptr<Buffer> allocateBuffer(QueueState *queue, SluiceUsmKind kind,
                                       size_t bytes) {
  void *ptr = nullptr;
  SluiceStatus status =
      sluiceMalloc(queue->queue, kind, std::max<size_t>(bytes, 1), 0, &ptr);
  if (status != SLUICE_SUCCESS)
    throw runtimeError(status, "cannot allocate " + std::to_string(bytes) +
                                   " bytes on " + queue->deviceString);
  auto buffer = std::make_shared<Buffer>();
  buffer->queue = queue;
  buffer->kind = kind;
  buffer->bytes = bytes;
  buffer->base = ptr;
  buffer->data = static_cast<char *>(ptr);
  return buffer;
}

namespace {

std::string lastError(const char *what) {
  const char *msg = sluiceGetLastErrorMessage();
  return std::string(what) + (msg && *msg ? ": " + std::string(msg) : "");
}

/// A synchronous runtime copy of `bytes` (either side may be plain host
/// memory; `queue` is a queue that can do the copy).
SluiceStatus copyBytes(SluiceQueue queue, void *dst, const void *src,
                       size_t bytes, std::string &message) {
  if (!bytes)
    return SLUICE_SUCCESS;
  SluiceEvent event = nullptr;
  SluiceStatus s = sluiceMemcpy(queue, dst, src, bytes, 0, nullptr, &event);
  if (s == SLUICE_SUCCESS)
    s = sluiceEventWait(event);
  if (event)
    sluiceEventRelease(event);
  if (s != SLUICE_SUCCESS)
    message = lastError("copy failed");
  return s;
}

/// Dimensions of a strided host copy after dropping size-1 axes and
/// merging axes that are contiguous in both operands. Strides in bytes.
struct CopyGeometry {
  std::vector<int64_t> shape, dst, src;
};

CopyGeometry simplify(const std::vector<int64_t> &shape,
                      const std::vector<int64_t> &dstStrides,
                      const std::vector<int64_t> &srcStrides, int64_t item) {
  CopyGeometry g;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1)
      continue;
    int64_t d = dstStrides[i] * item, s = srcStrides[i] * item;
    if (!g.shape.empty() && g.dst.back() == d * shape[i] &&
        g.src.back() == s * shape[i]) {
      g.shape.back() *= shape[i];
      g.dst.back() = d;
      g.src.back() = s;
      continue;
    }
    g.shape.push_back(shape[i]);
    g.dst.push_back(d);
    g.src.push_back(s);
  }
  return g;
}

/// Copies elements between host-accessible views.
void hostStridedCopy(char *dst, const char *src,
                     const std::vector<int64_t> &shape,
                     const std::vector<int64_t> &dstStrides,
                     const std::vector<int64_t> &srcStrides, size_t item) {
  for (int64_t d : shape)
    if (d == 0)
      return;
  CopyGeometry g = simplify(shape, dstStrides, srcStrides, item);
  if (g.shape.empty()) {
    std::memcpy(dst, src, item);
    return;
  }
  int64_t n = g.shape.back(), ds = g.dst.back(), ss = g.src.back();
  size_t outer = g.shape.size() - 1;
  std::vector<int64_t> index(outer, 0);
  auto innerRun = [&](char *d, const char *s) {
    if (ds == static_cast<int64_t>(item) && ss == static_cast<int64_t>(item)) {
      std::memmove(d, s, n * item);
      return;
    }
    for (int64_t i = 0; i < n; ++i)
      std::memcpy(d + i * ds, s + i * ss, item);
  };
  for (;;) {
    char *d = dst;
    const char *s = src;
    for (size_t k = 0; k < outer; ++k) {
      d += index[k] * g.dst[k];
      s += index[k] * g.src[k];
    }
    innerRun(d, s);
    size_t k = outer;
    while (k > 0) {
      --k;
      if (++index[k] < g.shape[k])
        break;
      index[k] = 0;
      if (k == 0)
        return;
    }
    if (outer == 0)
      return;
  }
}

/// Host copies of a view's byte span when its memory is not
/// host-accessible.
struct Staged {
  std::vector<char> bytes;
  char *first = nullptr; // where the view's first element is
};

SluiceStatus stage(const ArrayCore &view, Staged &out, std::string &message) {
  auto [lo, hi] = view.byteSpan();
  out.bytes.resize(static_cast<size_t>(hi - lo));
  out.first = out.bytes.data() - lo;
  return copyBytes(view.buffer->queue->queue, out.bytes.data(),
                   view.dataPointer() + lo, out.bytes.size(), message);
}

/// Fills up to this size on host queues are done directly (larger ones go
/// to the runtime, which spreads them over threads): one thread's fill
/// streams at memory speed, as NumPy's does, and handing a fill of a few
/// MB to the runtime's queue thread and pool cost more than it gave.
constexpr int64_t kDirectBytes = int64_t(16) << 20;
/// Copies likewise, up to where the runtime's copy streams its stores past
/// the caches: one thread's memmove is what NumPy does, and handing a copy
/// of a few MB to the runtime's queue thread and its pool (and waiting for
/// them) cost more than the second thread gave on a 2-core host (a 4 MB
/// slice assignment: 200 us, against 130 for NumPy's).
constexpr int64_t kDirectCopyBytes = int64_t(16) << 20;

bool onHostQueue(const ArrayCore &a) {
  return a.buffer->queue && a.buffer->queue->backend == SLUICE_BACKEND_HOST;
}

class CopyTask : public Task {
public:
  CopyTask(const ArrayCore &dst, const ArrayCore &src, bool direct)
      : dst(dst), src(src), direct(direct) {}

  SluiceStatus run(std::string &message) override {
    size_t item = dst.itemsize();
    int64_t n = dst.size();
    if (n == 0)
      return SLUICE_SUCCESS;
    bool srcContiguous =
        src.cContiguous() && src.shape == dst.shape && n == src.size();
    if (dst.cContiguous() && srcContiguous) {
      if (dst.dataPointer() == src.dataPointer())
        return SLUICE_SUCCESS;
      if (ordersOn) {
        // Launched: the copy is ordered on its queue and ends with its
        // event (submitCopy chose this for CUDA queues).
        SluiceEvent event = nullptr;
        if (SluiceStatus s =
                sluiceMemcpy(ordersOn, dst.dataPointer(), src.dataPointer(),
                             n * item, 0, nullptr, &event)) {
          message = lastError("copy failed");
          return s;
        }
        launched.push_back(event);
        launchedOn = ordersOn;
        return SLUICE_SUCCESS;
      }
      // Host memory of host queues: the queues have finished the work of
      // earlier tasks (each task waits for its own), so copy directly.
      if (direct && onHostQueue(dst) && onHostQueue(src) &&
          n * static_cast<int64_t>(item) <= kDirectCopyBytes) {
        std::memmove(dst.dataPointer(), src.dataPointer(), n * item);
        return SLUICE_SUCCESS;
      }
      return copyBytes(dst.buffer->queue->queue, dst.dataPointer(),
                       src.dataPointer(), n * item, message);
    }
    Staged srcStage, dstStage;
    const char *from = src.dataPointer();
    if (!src.buffer->hostAccessible()) {
      if (SluiceStatus s = stage(src, srcStage, message))
        return s;
      from = srcStage.first;
    }
    bool dstHost = dst.buffer->hostAccessible();
    char *to = dst.dataPointer();
    if (!dstHost) {
      if (SluiceStatus s = stage(dst, dstStage, message))
        return s;
      to = dstStage.first;
    }
    hostStridedCopy(to, from, dst.shape, dst.strides, src.strides, item);
    if (!dstHost) {
      auto [lo, hi] = dst.byteSpan();
      return copyBytes(dst.buffer->queue->queue, dst.dataPointer() + lo,
                       dstStage.bytes.data(), static_cast<size_t>(hi - lo),
                       message);
    }
    return SLUICE_SUCCESS;
  }

protected:
  void dropReferences() override {
    dst.buffer.reset();
    src.buffer.reset();
  }

private:
  ArrayCore dst, src;
  /// Small host copies may skip the runtime (no event marks them).
  bool direct;
};

/// `count` copies of the `item`-byte pattern at `d`: the pattern, then
/// copies of what is written so far, doubling (a few memcpy calls at memory
/// speed, not one call per element).
void fillBytes(char *d, const void *pattern, size_t item, size_t count) {
  size_t total = item * count;
  if (total == 0)
    return;
  // Doubling up to a block that stays in the L1 cache, then copies of
  // that block: the source of every copy is cached, so a large fill
  // writes memory once (doubling all the way read it back as well).
  constexpr size_t kBlock = 4096;
  std::memcpy(d, pattern, item);
  size_t block = std::min(total, std::max(kBlock - kBlock % item, item));
  for (size_t done = item; done < block;) {
    size_t step = std::min(done, block - done);
    std::memcpy(d + done, d, step);
    done += step;
  }
  for (size_t done = block; done < total;) {
    size_t step = std::min(block, total - done);
    std::memcpy(d + done, d, step);
    done += step;
  }
}

class FillTask : public Task {
public:
  FillTask(ArrayCore dst, const void *value) : dst(std::move(dst)) {
    std::memcpy(pattern, value, this->dst.itemsize());
  }

  SluiceStatus run(std::string &message) override {
    size_t item = dst.itemsize();
    int64_t n = dst.size();
    if (n == 0)
      return SLUICE_SUCCESS;
    if (dst.cContiguous() && onHostQueue(dst) &&
        n * static_cast<int64_t>(item) <= kDirectBytes) {
      fillBytes(dst.dataPointer(), pattern, item, static_cast<size_t>(n));
      return SLUICE_SUCCESS;
    }
    if (dst.cContiguous() && ordersOn) {
      // Launched: the fill is ordered on its queue and ends with its event
      // (submitFill chose this for device queues, as for copies).
      SluiceEvent event = nullptr;
      if (SluiceStatus s = sluiceFill(ordersOn, dst.dataPointer(), pattern,
                                      item, n * item, 0, nullptr, &event)) {
        message = lastError("fill failed");
        return s;
      }
      launched.push_back(event);
      launchedOn = ordersOn;
      return SLUICE_SUCCESS;
    }
    if (dst.cContiguous()) {
      SluiceEvent event = nullptr;
      SluiceStatus s = sluiceFill(dst.buffer->queue->queue, dst.dataPointer(),
                                  pattern, item, n * item, 0, nullptr, &event);
      if (s == SLUICE_SUCCESS)
        s = sluiceEventWait(event);
      if (event)
        sluiceEventRelease(event);
      if (s != SLUICE_SUCCESS)
        message = lastError("fill failed");
      return s;
    }
    // A strided fill: copy from the pattern broadcast over the view.
    ArrayCore src;
    src.shape = dst.shape;
    src.strides.assign(dst.shape.size(), 0);
    src.dtype = dst.dtype;
    bool dstHost = dst.buffer->hostAccessible();
    Staged dstStage;
    char *to = dst.dataPointer();
    if (!dstHost) {
      if (SluiceStatus s = stage(dst, dstStage, message))
        return s;
      to = dstStage.first;
    }
    hostStridedCopy(to, pattern, dst.shape, dst.strides, src.strides, item);
    if (!dstHost) {
      auto [lo, hi] = dst.byteSpan();
      return copyBytes(dst.buffer->queue->queue, dst.dataPointer() + lo,
                       dstStage.bytes.data(), static_cast<size_t>(hi - lo),
                       message);
    }
    return SLUICE_SUCCESS;
  }

protected:
  void dropReferences() override { dst.buffer.reset(); }

private:
  ArrayCore dst;
  alignas(8) char pattern[16];
};

bool isSmallHostCopy(const ArrayCore &dst, const ArrayCore &src) {
  return dst.buffer->queue->backend == SLUICE_BACKEND_HOST &&
         src.buffer->queue &&
         src.buffer->queue->backend == SLUICE_BACKEND_HOST &&
         static_cast<size_t>(dst.size()) * dst.itemsize() <= inlineBytes();
}

/// The Python function that copies between strided views with a kernel on
/// their queue (sluice/_strided_copy.py); never destroyed (Python may be
/// finalized before static destructors run).
nb::object *stridedCopyHook = new nb::object();
/// The hook's own submissions do not call it again.
thread_local bool inStridedCopyHook = false;

/// A contiguous 1-D view of `a`'s byte span as unsigned integers of `unit`
/// bytes; `first` is where a's first element is in it.
ArrayCore flatUnits(const ArrayCore &a, int64_t unit, int64_t &first) {
  auto [lo, hi] = a.byteSpan();
  ArrayCore v;
  v.buffer = a.buffer;
  v.dtype = unit == 1 ? U8 : unit == 2 ? U16 : unit == 4 ? U32 : U64;
  v.offset = (a.offset * static_cast<int64_t>(a.itemsize()) + lo) / unit;
  v.shape = {(hi - lo) / unit};
  v.strides = {1};
  first = -lo / unit;
  return v;
}

/// Copies between strided views of one queue with a kernel when the host
/// cannot reach one of them (the runtime copies contiguous bytes only, so
/// the alternative stages the views' spans through the host). False: the
/// caller copies as before.
bool kernelCopy(const ArrayCore &dst, const ArrayCore &src) {
  if (!stridedCopyHook->is_valid() || inStridedCopyHook ||
      !PyGILState_Check() || dst.size() == 0 || !dst.buffer->queue ||
      dst.buffer->queue != src.buffer->queue ||
      (dst.buffer->hostAccessible() && src.buffer->hostAccessible()))
    return false;
  if (dst.cContiguous() && src.cContiguous() && dst.shape == src.shape)
    return false; // one contiguous run (below, without building it)
  int64_t item = static_cast<int64_t>(dst.itemsize());
  int64_t unit = std::min<int64_t>(item, 8);
  CopyGeometry g = simplify(dst.shape, dst.strides, src.strides, item);
  if (item > unit) { // complex128: its two halves as an inner axis
    g.shape.push_back(item / unit);
    g.dst.push_back(unit);
    g.src.push_back(unit);
  }
  if (g.shape.empty() || g.shape.size() > 3 ||
      (g.shape.size() == 1 && g.dst[0] == unit && g.src[0] == unit))
    return false; // one element or one contiguous run: the runtime's copy
  nb::list shape, dstStrides, srcStrides;
  for (size_t i = 0; i < g.shape.size(); ++i) {
    shape.append(g.shape[i]);
    dstStrides.append(g.dst[i] / unit);
    srcStrides.append(g.src[i] / unit);
  }
  int64_t dstFirst = 0, srcFirst = 0;
  ArrayCore dstUnits = flatUnits(dst, unit, dstFirst);
  ArrayCore srcUnits = flatUnits(src, unit, srcFirst);
  inStridedCopyHook = true;
  try {
    nb::object done = (*stridedCopyHook)(
        wrapArray(std::move(dstUnits)), wrapArray(std::move(srcUnits)), shape,
        dstStrides, srcStrides, dstFirst, srcFirst);
    inStridedCopyHook = false;
    return nb::cast<bool>(done);
  } catch (...) {
    inStridedCopyHook = false;
    throw;
  }
}

} // namespace

void setStridedCopyHook(nb::object fn) { *stridedCopyHook = std::move(fn); }

void submitCopy(const ArrayCore &dst, const ArrayCore &srcIn, bool profiled) {
  lazyBeforeUse(*srcIn.buffer, /*write=*/false);
  lazyBeforeUse(*dst.buffer, /*write=*/true);
  // The source, or a copy of it (kept here) when it overlaps dst.
  ArrayCore staged;
  const ArrayCore *from = &srcIn;
  if (srcIn.buffer == dst.buffer && srcIn.size() > 0) {
    // Overlapping views of one buffer (x[1:] = x[:-1]): copy the source
    // out first, as NumPy does.
    const ArrayCore &src = srcIn;
    auto [slo, shi] = src.byteSpan();
    auto [dlo, dhi] = dst.byteSpan();
    int64_t srcStart = src.offset * static_cast<int64_t>(src.itemsize()) + slo;
    int64_t srcEnd = src.offset * static_cast<int64_t>(src.itemsize()) + shi;
    int64_t dstStart = dst.offset * static_cast<int64_t>(dst.itemsize()) + dlo;
    int64_t dstEnd = dst.offset * static_cast<int64_t>(dst.itemsize()) + dhi;
    if (srcStart < dstEnd && dstStart < srcEnd &&
        !(srcStart == dstStart && src.strides == dst.strides)) {
      staged = contiguousCopy(src, src.buffer->queue, src.buffer->kind,
                              /*force=*/true);
      from = &staged;
    }
  }
  const ArrayCore &src = *from;
  if (!profiled && kernelCopy(dst, src))
    return;
  auto task = std::make_shared<CopyTask>(dst, src, !profiled);
  task->queue = dst.buffer->queue;
  task->small = isSmallHostCopy(dst, src);
  // A contiguous copy within one device queue is launched and left
  // running, as program calls are (Tasks.h, launched tasks); on CUDA on
  // the calling thread (one cuMemcpyAsync, no hand-over to the worker).
  QueueState *q = dst.buffer->queue;
  if (!profiled && !synchronousMode() && launchesAsynchronously(q->backend) &&
      src.buffer->queue == q && dst.cContiguous() && src.cContiguous() &&
      src.shape == dst.shape) {
    task->ordersOn = q->queue;
    task->launchInline = launchesInline(q->backend);
  }
  std::shared_ptr<Task> self = task;
  useBuffer(*task, self, *src.buffer, /*write=*/false);
  useBuffer(*task, self, *dst.buffer, /*write=*/true);
  submitTask(dst.buffer->queue->dispatcher, std::move(task));
}

ArrayCore contiguousCopy(const ArrayCore &src, QueueState *queue,
                         SluiceUsmKind kind, bool force) {
  if (!force && src.cContiguous() && src.buffer->queue == queue &&
      src.buffer->kind == kind)
    return src;
  ArrayCore out;
  out.dtype = src.dtype;
  out.shape = src.shape;
  out.strides = contiguousStrides(src.shape);
  out.buffer = allocateBuffer(queue, kind, src.size() * src.itemsize());
  submitCopy(out, src);
  return out;
}

void submitFill(const ArrayCore &dst, const void *value) {
  lazyBeforeUse(*dst.buffer, /*write=*/true);
  if (!dst.cContiguous() && dst.size() > 0 && dst.buffer->queue &&
      !dst.buffer->hostAccessible() && stridedCopyHook->is_valid() &&
      !inStridedCopyHook && PyGILState_Check()) {
    // A strided view of memory the host cannot reach (`u[:, 0] = 1.0` on
    // a GPU): one element filled on the device, then copied over the view
    // by the strided copy kernel (broadcast: zero strides), rather than
    // the view's span staged through the host and back.
    ArrayCore one;
    one.dtype = dst.dtype;
    one.shape = {1};
    one.strides = {1};
    one.buffer =
        allocateBuffer(dst.buffer->queue, dst.buffer->kind, dst.itemsize());
    submitFill(one, value);
    ArrayCore from = one;
    from.shape = dst.shape;
    from.strides.assign(dst.shape.size(), 0);
    if (kernelCopy(dst, from))
      return;
  }
  auto task = std::make_shared<FillTask>(dst, value);
  task->queue = dst.buffer->queue;
  task->small = isSmallHostCopy(dst, dst);
  // A contiguous fill of a device queue's memory is launched and left
  // running, as copies are (on CUDA from this thread: one memset).
  QueueState *q = dst.buffer->queue;
  if (!synchronousMode() && launchesAsynchronously(q->backend) &&
      dst.cContiguous()) {
    task->ordersOn = q->queue;
    task->launchInline = launchesInline(q->backend);
  }
  std::shared_ptr<Task> self = task;
  useBuffer(*task, self, *dst.buffer, /*write=*/true);
  submitTask(dst.buffer->queue->dispatcher, std::move(task));
}

void waitBuffer(Buffer &buffer, bool forWrite) {
  drainDeferred();
  lazyBeforeUse(buffer, forWrite);
  std::shared_ptr<Task> last = buffer.last;
  if (last)
    waitWithoutGil(*last);
  std::shared_ptr<Task> writer = buffer.writer;
  if (writer) {
    waitWithoutGil(*writer);
    if (writer->failed())
      throw taskError(writer->status, writer->message);
  }
  if (last && buffer.last == last)
    buffer.last.reset();
  if (writer && buffer.writer == writer)
    buffer.writer.reset();
}

void copyToHost(const ArrayCore &src, void *dst) {
  waitBuffer(*src.buffer, /*forWrite=*/false);
  int64_t n = src.size();
  if (n == 0)
    return;
  size_t item = src.itemsize();
  std::string message;
  SluiceStatus status = SLUICE_SUCCESS;
  {
    nb::gil_scoped_release release;
    if (src.buffer->hostAccessible()) {
      hostStridedCopy(static_cast<char *>(dst), src.dataPointer(), src.shape,
                      contiguousStrides(src.shape), src.strides, item);
    } else if (src.cContiguous()) {
      status = copyBytes(src.buffer->queue->queue, dst, src.dataPointer(),
                         n * item, message);
    } else {
      Staged staged;
      status = stage(src, staged, message);
      if (status == SLUICE_SUCCESS)
        hostStridedCopy(static_cast<char *>(dst), staged.first, src.shape,
                        contiguousStrides(src.shape), src.strides, item);
    }
  }
  if (status != SLUICE_SUCCESS)
    throw taskError(status, message);
}

ArrayCore copyFromHost(QueueState *queue, SluiceUsmKind kind, int dtype,
                       const std::vector<int64_t> &shape, const void *src) {
  ArrayCore out;
  out.dtype = static_cast<uint8_t>(dtype);
  out.shape = shape;
  out.strides = contiguousStrides(shape);
  size_t bytes = out.size() * out.itemsize();
  out.buffer = allocateBuffer(queue, kind, bytes);
  std::string message;
  SluiceStatus status = SLUICE_SUCCESS;
  {
    nb::gil_scoped_release release;
    if (out.buffer->hostAccessible())
      std::memcpy(out.buffer->data, src, bytes);
    else
      status = copyBytes(queue->queue, out.buffer->data, src, bytes, message);
  }
  if (status != SLUICE_SUCCESS)
    throw taskError(status, message);
  return out;
}

} // namespace sluice::py
