//===- Array.h - USM buffers and the core of sluice.Array -------*- C++ -*-===//
#ifndef SLUICE_PYTHON_ARRAY_H
#define SLUICE_PYTHON_ARRAY_H

#include "Tasks.h"
#include "sluice-c/DType.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace nanobind {
class object;
}

namespace sluice::py {

/// Element types, numbered as SluiceDType (one list: sluice-c/DType.h).
enum DType : uint8_t {
#define SLUICE_DTYPE_ENUMERATOR(c, cpp, numpy, bytes) cpp,
  SLUICE_DTYPE_LIST(SLUICE_DTYPE_ENUMERATOR)
#undef SLUICE_DTYPE_ENUMERATOR
};
/// How many element types there are.
inline constexpr int NumDTypes = C128 + 1;
size_t itemSize(int dtype);

/// One memory block an array lives in. Its data pointer is known once the
/// task producing it has finished (Buffer::last at creation).
struct Buffer {
  ~Buffer();
  QueueState *queue = nullptr;
  SluiceUsmKind kind = SLUICE_USM_DEVICE;
  /// Bytes from `data` on (for staging copies and bounds).
  size_t bytes = 0;
  /// Bytes before `data` that belong to it too (imported views with
  /// negative strides start at their first element).
  int64_t bytesBefore = 0;
  /// The allocation to sluiceFree (null for aliases and foreign memory).
  void *base = nullptr;
  char *data = nullptr;
  /// The last task that reads or writes the buffer (null: none pending).
  /// Only touched with the GIL held, or by the producing task before it is
  /// marked finished.
  std::shared_ptr<Task> last;
  /// The last task that writes it (its producer, or a copy or fill into
  /// it); its failure makes the contents invalid.
  std::shared_ptr<Task> writer;
  /// Memory owned by another buffer (a program returned an argument).
  std::shared_ptr<Buffer> owner;
  /// Foreign device memory made USM memory (sluiceUsmImport): ends the
  /// import before `release` runs.
  void *imported = nullptr;
  /// Releases foreign memory (DLPack import), with the GIL.
  std::function<void()> release;
  /// Foreign memory its producer marked read-only.
  bool readOnly = false;
  /// Lazy execution (Lazy.h): non-zero while the operation producing the
  /// buffer is recorded but not yet submitted (`data` is not known then).
  uint64_t lazyId = 0;
  /// Recorded operations that read the buffer and are not yet submitted
  /// (counted on the buffer that owns the memory).
  uint32_t lazyReaders = 0;
  /// Lazy execution: the tape's id of the small operation that ran
  /// eagerly to produce the buffer (0: none), so that an operation using
  /// it is seen to chain with it (LazyTape.h, small operations).
  uint32_t eagerOp = 0;
  /// Whether host code may read and write the memory directly.
  bool hostAccessible() const;
};

/// A strided view of a buffer: the C++ part of sluice.Array.
struct ArrayCore {
  std::shared_ptr<Buffer> buffer;
  /// Elements from buffer->data to the first element.
  int64_t offset = 0;
  std::vector<int64_t> shape;
  /// In elements; may be 0 or negative.
  std::vector<int64_t> strides;
  uint8_t dtype = F32;

  int64_t size() const;
  bool cContiguous() const;
  size_t itemsize() const { return itemSize(dtype); }
  /// The first element's address (the buffer's producer must have run).
  char *dataPointer() const {
    return buffer->data + offset * static_cast<int64_t>(itemsize());
  }
  /// The lowest and one-past-the-highest byte offset from dataPointer()
  /// that the view touches (both 0 when it is empty).
  std::pair<int64_t, int64_t> byteSpan() const;
};

std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &shape);

/// Allocates `bytes` of `kind` on the queue (at least one byte).
std::shared_ptr<Buffer> allocateBuffer(QueueState *queue, SluiceUsmKind kind,
                                       size_t bytes);

/// Submits a copy of `src` into `dst` (equal shapes, equal dtypes; src may
/// broadcast through zero strides). Either side may be on any queue; the
/// copy runs on dst's device.
/// `profiled`: always through the runtime's queue (a runtime event with
/// timestamps marks it), never as a direct host memmove.
void submitCopy(const ArrayCore &dst, const ArrayCore &src,
                bool profiled = false);

/// Sets the Python function that copies between strided views the host
/// cannot reach with a kernel on their queue: called as
/// fn(dst_units, src_units, shape, dst_strides, src_strides, dst_first,
/// src_first) over flat unsigned-integer views, returns whether it did.
void setStridedCopyHook(nanobind::object fn);

/// A contiguous copy of `src` on (queue, kind), or src itself when it is
/// contiguous already and on that placement.
ArrayCore contiguousCopy(const ArrayCore &src, QueueState *queue,
                         SluiceUsmKind kind, bool force);

/// Submits a fill of the view with one element value (`itemsize` bytes).
void submitFill(const ArrayCore &dst, const void *value);

/// Waits (GIL released) for the buffer's last task; throws the failure.
/// `forWrite`: the caller may write the memory next (through a pointer),
/// so recorded operations that read it are submitted first (Lazy.h).
void waitBuffer(Buffer &buffer, bool forWrite = true);

/// Copies the view into host memory laid out C-contiguously (waits).
void copyToHost(const ArrayCore &src, void *dst);
/// Copies C-contiguous host memory into a new buffer on (queue, kind).
ArrayCore copyFromHost(QueueState *queue, SluiceUsmKind kind, int dtype,
                       const std::vector<int64_t> &shape, const void *src);

} // namespace sluice::py

#endif // SLUICE_PYTHON_ARRAY_H
