//===- DLPack.h - Exchanging arrays through DLPack capsules -----*- C++ -*-===//
//
// The DLPack ABI (https://dmlc.github.io/dlpack/latest/c_api.html), written
// out here: the structs are a stable binary interface shared with NumPy,
// PyTorch, CuPy and others. Both the versioned (1.x) and the legacy capsule
// are produced and consumed.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_PYTHON_DLPACK_H
#define SLUICE_PYTHON_DLPACK_H

#include "Array.h"

#include <nanobind/nanobind.h>

#include <cstdint>

namespace sluice::py {

namespace dlpack {
enum DeviceType : int32_t {
  CPU = 1,
  CUDA = 2,
  CUDAHost = 3,
  OpenCL = 4,
  CUDAManaged = 13,
  OneAPI = 14,
};
enum TypeCode : uint8_t { Int = 0, UInt = 1, Float = 2, Complex = 5, Bool = 6 };
constexpr uint64_t FlagReadOnly = 1u << 0;
constexpr uint64_t FlagIsCopied = 1u << 1;

struct Device {
  int32_t type;
  int32_t id;
};
struct DataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};
struct Tensor {
  void *data;
  Device device;
  int32_t ndim;
  DataType dtype;
  int64_t *shape;
  int64_t *strides;
  uint64_t byteOffset;
};
struct ManagedTensor {
  Tensor tensor;
  void *managerContext;
  void (*deleter)(ManagedTensor *self);
};
struct Version {
  uint32_t major;
  uint32_t minor;
};
struct ManagedTensorVersioned {
  Version version;
  void *managerContext;
  void (*deleter)(ManagedTensorVersioned *self);
  uint64_t flags;
  Tensor tensor;
};
} // namespace dlpack

/// (device type, device id) of an array's memory, as __dlpack_device__
/// reports it.
std::pair<int32_t, int32_t> dlpackDevice(const ArrayCore &array);

/// A capsule of the array (waits for its data). `versioned` selects the
/// 1.x capsule; `copied` sets the is-copied flag.
nanobind::object dlpackExport(const ArrayCore &array, bool versioned,
                              bool copied);

/// Imports a capsule: host memory (CPU, CUDAHost), a Sluice allocation of
/// this process, or another library's CUDA memory (CUDA, CUDAManaged),
/// which becomes USM memory of the canonical queue of cuda:gpu:<id> while
/// the array lives (sluiceUsmImport). `hostQueue` receives host memory.
/// The capsule is marked used; the array keeps the producer alive.
nanobind::object dlpackImport(nanobind::handle capsule, QueueState *hostQueue);

} // namespace sluice::py

#endif // SLUICE_PYTHON_DLPACK_H
