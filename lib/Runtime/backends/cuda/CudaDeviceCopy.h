//===- CudaDeviceCopy.h - Large device-to-device copies as a kernel -*- C++
//-*-===//
//
// A copy between two device allocations of one context runs as a kernel of
// the runtime's own (PTX text in CudaDeviceCopy.cpp, loaded once per
// context): each thread moves four 16-byte vectors (four 32-bit words where
// an end is only 4-byte aligned, which the driver copies several times
// slower), all four loaded before the first is stored, loads and stores
// marked streaming (`.cs`). On an
// H100 this moves 16 MiB 10-20% faster than cuMemcpyAsync's
// device-to-device copy, and 2^27 floats as fast or up to 3% faster
// (bench/RESULTS.md). Everything else (host memory,
// managed memory, other contexts, ends not 4-byte aligned, overlapping
// ranges, copies under the size threshold) stays a cuMemcpyAsync.
//
// $SLUICE_CUDA_COPY_KERNEL: "off" or "0" never uses the kernel; a number
// is the smallest copy in bytes that does (a byte size, ByteSize.h;
// default 1 MiB).
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
  /// The width in bytes of the elements a kernel copies `bytes` from `src`
  /// to `dst` with (16 where both are 16-byte aligned, else 4 where both
  /// are 4-byte aligned), or 0: the driver's copy. A kernel needs both ends
  /// device memory of `ctx` (not managed), not overlapping, at least the
  /// threshold, and the kernels' module loaded (on first use; a module
  /// that fails to load leaves every copy to cuMemcpyAsync). `ctx` must be
  /// current.
  unsigned applies(CUcontext ctx, CUdeviceptr dst, CUdeviceptr src,
                   size_t bytes);
  /// Enqueues the copy of `bytes` (a multiple of `width`, what applies()
  /// returned: the caller copies a tail with cuMemcpyAsync) on `stream`.
  CUresult enqueue(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                   unsigned width, CUstream stream);

  /// The threshold from $SLUICE_CUDA_COPY_KERNEL (0: never).
  static size_t minimumBytes();

private:
  bool loaded();

  std::mutex mutex;
  CUmodule module = nullptr;
  CUfunction copy16 = nullptr, copy4 = nullptr;
  bool tried = false;
};

} // namespace sluice::rt::cuda

#endif // SLUICE_LIB_RUNTIME_CUDA_CUDADEVICECOPY_H
