//===- CudaDeviceCopy.h - Large device-to-device copies as a kernel -*- C++ -*-===//
//
// A copy between two device allocations of one context runs as a kernel of
// the runtime's own (PTX text in CudaDeviceCopy.cpp, loaded once per
// context): each thread moves four 16-byte vectors, all four loaded before
// the first is stored, loads and stores marked streaming (`.cs`). On an
// H100 this moves 16 MiB 10-20% faster than cuMemcpyAsync's
// device-to-device copy, and 2^27 floats as fast or up to 3% faster
// (bench/RESULTS.md). Everything else (host memory,
// managed memory, other contexts, unaligned or overlapping ranges, copies
// under the size threshold) stays a cuMemcpyAsync.
//
// $SLUICE_CUDA_COPY_KERNEL: "off" or "0" never uses the kernel; a number
// is the smallest copy in bytes that does (default 4 MiB).
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_LIB_RUNTIME_CUDA_CUDADEVICECOPY_H
#define SLUICE_LIB_RUNTIME_CUDA_CUDADEVICECOPY_H

#include "CudaDriver.h"

#include <mutex>

namespace sluice::rt::cuda {

/// The kernel's module lives as long as its context (devices live as long
/// as the process).
class DeviceCopy {
public:
  /// Whether a copy of `bytes` from `src` to `dst` runs as the kernel: both
  /// device memory of `ctx` (not managed), 16-byte aligned, not
  /// overlapping, at least the threshold, and the kernel's module loaded
  /// (on first use; a module that fails to load leaves every copy to
  /// cuMemcpyAsync). `ctx` must be current.
  bool applies(CUcontext ctx, CUdeviceptr dst, CUdeviceptr src, size_t bytes);
  /// Enqueues the copy of `bytes` (a multiple of 16: the caller copies a
  /// tail with cuMemcpyAsync) on `stream`, after applies() said yes.
  CUresult enqueue(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                   CUstream stream);

  /// The threshold from $SLUICE_CUDA_COPY_KERNEL (0: never).
  static size_t minimumBytes();

private:
  bool loaded();

  std::mutex mutex;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  bool tried = false;
};

} // namespace sluice::rt::cuda

#endif // SLUICE_LIB_RUNTIME_CUDA_CUDADEVICECOPY_H
