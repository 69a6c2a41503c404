//===- HostMemoryPool.h - Reuse of large host allocations -------*- C++ -*-===//
//
// Array programs allocate a fresh buffer for every result. For large buffers
// the C library maps fresh pages each time and unmaps them on free, so every
// call pays a page fault per 4 KiB it touches: several times the cost of the
// work itself for bandwidth-bound kernels. The pool keeps freed large blocks
// (by rounded size) for reuse, up to a byte budget (SLUICE_HOST_POOL_BYTES,
// default 1 GiB; 0 disables it).
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_LIB_RUNTIME_HOST_HOSTMEMORYPOOL_H
#define SLUICE_LIB_RUNTIME_HOST_HOSTMEMORYPOOL_H

#include <cstddef>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace sluice::rt::host {

class HostMemoryPool {
public:
  HostMemoryPool();
  ~HostMemoryPool();

  /// A block of at least `bytes` bytes aligned to `alignment` (<= 4096), or
  /// null when memory is exhausted.
  void *allocate(size_t bytes, size_t alignment);
  void deallocate(void *ptr);

private:
  /// Blocks at least this large are pooled (smaller ones are cheap).
  static constexpr size_t kMinPooled = 256 * 1024;
  static size_t roundSize(size_t bytes);

  std::mutex mutex;
  size_t budget;
  size_t cachedBytes = 0;
  std::map<size_t, std::vector<void *>> freeBlocks;
  std::unordered_map<void *, size_t> pooledSizes;
};

} // namespace sluice::rt::host

#endif // SLUICE_LIB_RUNTIME_HOST_HOSTMEMORYPOOL_H
