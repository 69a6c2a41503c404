//===- DLPack.cpp - Exchanging arrays through DLPack capsules -------------===//
#include "DLPack.h"
#include "Errors.h"
#include "Program.h"

#include <cstdlib>
#include <cstring>

namespace nb = nanobind;

namespace sluice::py {

namespace {

const char *const kCapsule = "dltensor";
const char *const kUsedCapsule = "used_dltensor";
const char *const kVersionedCapsule = "dltensor_versioned";
const char *const kUsedVersionedCapsule = "used_dltensor_versioned";

/// What an exported tensor keeps alive.
struct ExportContext {
  std::shared_ptr<Buffer> buffer;
  std::vector<int64_t> shape, strides;
  dlpack::ManagedTensor legacy;
  dlpack::ManagedTensorVersioned versioned;
};

void deleteLegacy(dlpack::ManagedTensor *self) {
  delete static_cast<ExportContext *>(self->managerContext);
}
void deleteVersioned(dlpack::ManagedTensorVersioned *self) {
  delete static_cast<ExportContext *>(self->managerContext);
}

/// Keeps the exception being raised (if any) across a capsule destructor:
/// a consumer that refuses a capsule (NumPy and device memory) drops it
/// while its BufferError is set, and that error must survive.
struct SavedError {
  PyObject *type, *value, *traceback;
  SavedError() { PyErr_Fetch(&type, &value, &traceback); }
  ~SavedError() { PyErr_Restore(type, value, traceback); }
};

void legacyCapsuleDestructor(PyObject *capsule) {
  SavedError saved;
  if (PyCapsule_IsValid(capsule, kCapsule)) { // never consumed
    auto *t = static_cast<dlpack::ManagedTensor *>(
        PyCapsule_GetPointer(capsule, kCapsule));
    if (t && t->deleter)
      t->deleter(t);
  }
  PyErr_Clear();
}
void versionedCapsuleDestructor(PyObject *capsule) {
  SavedError saved;
  if (PyCapsule_IsValid(capsule, kVersionedCapsule)) {
    auto *t = static_cast<dlpack::ManagedTensorVersioned *>(
        PyCapsule_GetPointer(capsule, kVersionedCapsule));
    if (t && t->deleter)
      t->deleter(t);
  }
  PyErr_Clear();
}

dlpack::DataType dataType(int dtype) {
  uint8_t bits = static_cast<uint8_t>(itemSize(dtype) * 8);
  switch (dtype) {
  case Bool:
    return {dlpack::Bool, 8, 1};
  case I8:
  case I16:
  case I32:
  case I64:
    return {dlpack::Int, bits, 1};
  case U8:
  case U16:
  case U32:
  case U64:
    return {dlpack::UInt, bits, 1};
  case C64:
  case C128:
    return {dlpack::Complex, bits, 1};
  default:
    return {dlpack::Float, bits, 1};
  }
}

int dtypeOf(const dlpack::DataType &t) {
  if (t.lanes != 1)
    return -1;
  switch (t.code) {
  case dlpack::Bool:
    return t.bits == 8 ? Bool : -1;
  case dlpack::Int:
    return t.bits == 8    ? I8
           : t.bits == 16 ? I16
           : t.bits == 32 ? I32
           : t.bits == 64 ? I64
                          : -1;
  case dlpack::UInt:
    return t.bits == 8    ? U8
           : t.bits == 16 ? U16
           : t.bits == 32 ? U32
           : t.bits == 64 ? U64
                          : -1;
  case dlpack::Float:
    return t.bits == 16 ? F16 : t.bits == 32 ? F32 : t.bits == 64 ? F64 : -1;
  case dlpack::Complex:
    return t.bits == 64 ? C64 : t.bits == 128 ? C128 : -1;
  default:
    return -1;
  }
}

int32_t deviceIndex(SluiceDevice device) {
  uint32_t count = 0;
  if (sluiceDeviceGetCount(&count) != SLUICE_SUCCESS)
    return 0;
  for (uint32_t i = 0; i < count; ++i) {
    SluiceDevice d = nullptr;
    if (sluiceDeviceGet(i, &d) == SLUICE_SUCCESS && d == device)
      return static_cast<int32_t>(i);
  }
  return 0;
}

/// The index N of "backend:type:N".
int32_t filterIndex(const std::string &filter) {
  size_t colon = filter.rfind(':');
  return colon == std::string::npos
             ? 0
             : static_cast<int32_t>(std::atoi(filter.c_str() + colon + 1));
}

/// Makes a foreign CUDA allocation (another library's tensor) USM memory of
/// the canonical queue of cuda:gpu:`id`, for as long as `buffer` lives.
void importCuda(Buffer &buffer, int32_t id, int64_t lo, int64_t hi) {
  std::string device = "cuda:gpu:" + std::to_string(id);
  QueueState *q = getQueue(device, "");
  buffer.queue = q;
  buffer.kind = SLUICE_USM_DEVICE;
  if (hi <= lo)
    return; // empty: no memory to reach
  char *first = buffer.data + lo;
  SluiceStatus s = sluiceUsmImport(q->queue, SLUICE_USM_UNKNOWN, first,
                                   static_cast<size_t>(hi - lo));
  if (s != SLUICE_SUCCESS)
    throw runtimeError(s, "cannot use the DLPack tensor's CUDA memory on " +
                              device);
  buffer.imported = first;
  SluiceUsmKind kind = SLUICE_USM_UNKNOWN;
  if (sluicePointerGetInfo(first, &kind, nullptr, nullptr, nullptr, nullptr) ==
          SLUICE_SUCCESS &&
      kind != SLUICE_USM_UNKNOWN)
    buffer.kind = kind;
}

} // namespace

std::pair<int32_t, int32_t> dlpackDevice(const ArrayCore &array) {
  const Buffer &b = array.buffer->owner ? *array.buffer->owner : *array.buffer;
  QueueState *q = b.queue;
  if (!q || q->backend == SLUICE_BACKEND_HOST)
    return {dlpack::CPU, 0};
  if (q->backend == SLUICE_BACKEND_CUDA) {
    int32_t id = filterIndex(q->deviceString);
    switch (b.kind) {
    case SLUICE_USM_HOST:
      return {dlpack::CUDAHost, 0};
    case SLUICE_USM_SHARED:
      return {dlpack::CUDAManaged, id};
    default:
      return {dlpack::CUDA, id};
    }
  }
  if (b.hostAccessible())
    return {dlpack::CPU, 0};
  return {dlpack::OneAPI, deviceIndex(q->device)};
}

nb::object dlpackExport(const ArrayCore &array, bool versioned, bool copied) {
  waitBuffer(*array.buffer);
  auto *ctx = new ExportContext;
  ctx->buffer = array.buffer;
  ctx->shape = array.shape;
  ctx->strides = array.strides;
  dlpack::Tensor t{};
  t.data = array.dataPointer();
  auto [type, id] = dlpackDevice(array);
  t.device = {type, id};
  t.ndim = static_cast<int32_t>(array.shape.size());
  t.dtype = dataType(array.dtype);
  t.shape = ctx->shape.data();
  t.strides = ctx->strides.data();
  t.byteOffset = 0;
  PyObject *capsule;
  if (versioned) {
    ctx->versioned.version = {1, 0};
    ctx->versioned.managerContext = ctx;
    ctx->versioned.deleter = deleteVersioned;
    ctx->versioned.flags = copied ? dlpack::FlagIsCopied : 0;
    ctx->versioned.tensor = t;
    capsule = PyCapsule_New(&ctx->versioned, kVersionedCapsule,
                            versionedCapsuleDestructor);
  } else {
    ctx->legacy.tensor = t;
    ctx->legacy.managerContext = ctx;
    ctx->legacy.deleter = deleteLegacy;
    capsule = PyCapsule_New(&ctx->legacy, kCapsule, legacyCapsuleDestructor);
  }
  if (!capsule) {
    delete ctx;
    throw nb::python_error();
  }
  return nb::steal(capsule);
}

nb::object dlpackImport(nb::handle capsuleObj, QueueState *hostQueue) {
  PyObject *capsule = capsuleObj.ptr();
  dlpack::Tensor *t = nullptr;
  std::function<void()> release;
  bool readOnly = false;
  if (PyCapsule_IsValid(capsule, kVersionedCapsule)) {
    auto *m = static_cast<dlpack::ManagedTensorVersioned *>(
        PyCapsule_GetPointer(capsule, kVersionedCapsule));
    if (m->version.major != 1)
      throw Error(ErrorKind::Buffer, "unsupported DLPack version " +
                                         std::to_string(m->version.major) +
                                         "." +
                                         std::to_string(m->version.minor));
    t = &m->tensor;
    readOnly = m->flags & dlpack::FlagReadOnly;
    release = [m] {
      if (m->deleter)
        m->deleter(m);
    };
    PyCapsule_SetName(capsule, kUsedVersionedCapsule);
  } else if (PyCapsule_IsValid(capsule, kCapsule)) {
    auto *m = static_cast<dlpack::ManagedTensor *>(
        PyCapsule_GetPointer(capsule, kCapsule));
    t = &m->tensor;
    release = [m] {
      if (m->deleter)
        m->deleter(m);
    };
    PyCapsule_SetName(capsule, kUsedCapsule);
  } else {
    throw Error(ErrorKind::Type,
                "expected an unused DLPack capsule (\"dltensor\" or "
                "\"dltensor_versioned\")");
  }
  // From here on the capsule is ours: release it on every path.
  struct Releaser {
    std::function<void()> fn;
    ~Releaser() {
      if (fn)
        fn();
    }
  } guard{release};
  int dtype = dtypeOf(t->dtype);
  if (dtype < 0)
    throw Error(ErrorKind::Buffer,
                "unsupported DLPack data type (code " +
                    std::to_string(t->dtype.code) + ", " +
                    std::to_string(t->dtype.bits) + " bits, " +
                    std::to_string(t->dtype.lanes) + " lanes)");
  if (t->ndim < 0 || t->ndim > 64)
    throw Error(ErrorKind::Buffer, "bad DLPack tensor rank");
  ArrayCore core;
  core.dtype = static_cast<uint8_t>(dtype);
  core.shape.assign(t->shape, t->shape + t->ndim);
  core.strides = t->strides
                     ? std::vector<int64_t>(t->strides, t->strides + t->ndim)
                     : contiguousStrides(core.shape);
  auto buffer = std::make_shared<Buffer>();
  buffer->data = static_cast<char *>(t->data) + t->byteOffset;
  auto [lo, hi] = core.byteSpan();
  // Views with negative strides reach below their first element.
  buffer->bytes = static_cast<size_t>(hi);
  buffer->bytesBefore = -lo;
  if (t->device.type == dlpack::CPU || t->device.type == dlpack::CUDAHost) {
    SluiceQueue owner = nullptr;
    SluiceUsmKind kind = SLUICE_USM_UNKNOWN;
    if (sluicePointerGetInfo(t->data, &kind, nullptr, &owner, nullptr,
                             nullptr) == SLUICE_SUCCESS &&
        owner && findQueue(owner)) {
      buffer->queue = findQueue(owner);
      buffer->kind = kind;
    } else {
      buffer->queue = hostQueue;
      buffer->kind = SLUICE_USM_HOST;
    }
  } else {
    SluiceQueue owner = nullptr;
    SluiceUsmKind kind = SLUICE_USM_UNKNOWN;
    if (sluicePointerGetInfo(t->data, &kind, nullptr, &owner, nullptr,
                             nullptr) == SLUICE_SUCCESS &&
        owner && findQueue(owner)) {
      buffer->queue = findQueue(owner);
      buffer->kind = kind;
    } else if (t->device.type == dlpack::CUDA ||
               t->device.type == dlpack::CUDAManaged) {
      importCuda(*buffer, t->device.id, lo, hi);
    } else {
      throw Error(ErrorKind::Buffer,
                  "cannot import DLPack memory of device type " +
                      std::to_string(t->device.type) +
                      ": only host memory, CUDA memory and Sluice "
                      "allocations are supported");
    }
  }
  buffer->readOnly = readOnly;
  buffer->release = std::move(guard.fn);
  guard.fn = nullptr;
  core.buffer = std::move(buffer);
  return wrapArray(std::move(core));
}

} // namespace sluice::py
