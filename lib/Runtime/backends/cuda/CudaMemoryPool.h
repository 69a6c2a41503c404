//===- CudaMemoryPool.h - Reuse of CUDA allocations -------------*- C++ -*-===//
//
// Array programs allocate every result afresh. cuMemAlloc and, worse,
// cuMemHostAlloc (which pins pages) cost tens of microseconds to
// milliseconds, and cuMemFree synchronises the device, so the pool keeps
// freed blocks of each USM kind by rounded size and hands them out again,
// up to a byte budget per device ($SLUICE_CUDA_POOL_BYTES, default a quarter
// of the device's memory; 0 disables reuse). When the driver runs out of
// memory the cached blocks are released and the allocation is retried.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_LIB_RUNTIME_CUDA_CUDAMEMORYPOOL_H
#define SLUICE_LIB_RUNTIME_CUDA_CUDAMEMORYPOOL_H

#include "CudaDriver.h"

#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace sluice::rt::cuda {

class CudaMemoryPool {
public:
  /// `budget` bytes of freed blocks are kept for reuse.
  explicit CudaMemoryPool(size_t budget) : budget(budget) {}

  /// Allocates `bytes` of `kind` aligned to `alignment` (0 or a power of
  /// two) in `ctx`, which the caller has made current.
  SluiceStatus allocate(SluiceUsmKind kind, size_t bytes, size_t alignment,
                        void *&out);
  /// Returns a block to the pool (or to the driver past the budget);
  /// `ctx` must be current.
  void deallocate(void *ptr);
  /// Gives every cached block back to the driver; `ctx` must be current.
  void trim();

  size_t cachedBytes();

private:
  struct Block {
    void *raw = nullptr; // what the driver returned
    size_t size = 0;     // rounded size (the pool's key)
    SluiceUsmKind kind = SLUICE_USM_DEVICE;
    bool pooled = true; // over-aligned blocks go straight back
  };
  static size_t roundSize(size_t bytes);
  static CUresult driverAlloc(SluiceUsmKind kind, size_t bytes, void *&out);
  static void driverFree(SluiceUsmKind kind, void *raw);
  void trimLocked(std::vector<Block> &release);

  std::mutex mutex;
  size_t budget;
  size_t cached = 0;
  /// Free blocks by (kind, rounded size).
  std::map<std::pair<int, size_t>, std::vector<void *>> freeBlocks;
  /// Live and cached blocks by the pointer handed out.
  std::unordered_map<void *, Block> blocks;
};

} // namespace sluice::rt::cuda

#endif // SLUICE_LIB_RUNTIME_CUDA_CUDAMEMORYPOOL_H
