//===- MemoryPool.h - The caching allocator of a device ---------*- C++ -*-===//
//
// Every result of an array program is a fresh USM allocation, and backends
// allocate slowly: the C library maps and unmaps pages for large blocks
// (a page fault per 4 KiB touched), OpenCL and Level Zero drivers take
// microseconds to milliseconds, CUDA's free synchronises the device. Each
// device therefore has one pool between sluiceMalloc/sluiceFree and its
// backend: freed blocks are kept by (USM kind, size class, alignment) and
// handed out again, so a loop in its steady state allocates nothing from
// the backend or the operating system.
//
// Memory reaches the pool only once every task that used it has finished
// (sluiceFree defers the release until then), so reuse is ordered after
// the old contents' last use on every queue.
//
// Bounds, per device:
// - the limit (SLUICE_POOL_LIMIT, sluiceDeviceSetMemoryPoolLimit; 0 = none)
//   caps the bytes taken from the backend (in use + held). An allocation
//   that would pass it first gives the held blocks back, then fails with
//   an out-of-memory status whose message has the sizes;
// - the hold limit (SLUICE_POOL_HOLD_BYTES; default a quarter of the
//   device's memory) caps the bytes of free blocks kept for reuse.
// A backend that runs out of memory gets the held blocks back and one
// more try.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_RUNTIME_MEMORYPOOL_H
#define SLUICE_RUNTIME_MEMORYPOOL_H

#include "sluice-c/Runtime.h"
#include "sluice/Runtime/PointerMap.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

namespace sluice::rt {

class Device;

class MemoryPool {
public:
  explicit MemoryPool(Device &device) : device(device) {}
  ~MemoryPool();
  MemoryPool(const MemoryPool &) = delete;
  MemoryPool &operator=(const MemoryPool &) = delete;

  /// A block of at least `bytes` of `kind` aligned to `alignment` (0 or a
  /// power of two): a held block of its class, else a new one.
  SluiceStatus allocate(SluiceUsmKind kind, size_t bytes, size_t alignment,
                        void *&out);
  /// Takes back a block of allocate() that nothing uses any more.
  void release(void *ptr);
  /// Gives every held block back to the backend.
  void trim();
  /// The usable size and alignment of a block of allocate() (false if
  /// `ptr` is none).
  bool blockOf(void *ptr, size_t &size, size_t &alignment);

  SluiceMemoryPoolInfo info();
  void setLimit(uint64_t bytes);
  void setHoldLimit(uint64_t bytes);

  /// The size class of a request (what a block of it really takes).
  static size_t sizeClass(size_t bytes);

private:
  struct Block {
    SluiceUsmKind kind;
    size_t size;
    size_t alignment;
    /// False for a block of the exact size asked for, taken when one of
    /// its size class did not fit: it goes straight back when released.
    bool pooled = true;
  };
  using Key = std::tuple<int, size_t, size_t>; // kind, size, alignment

  void configureLocked();
  /// Moves every held block into `out` (released by the caller, unlocked).
  void takeHeldLocked(std::vector<std::pair<void *, Block>> &out);
  void giveBack(std::vector<std::pair<void *, Block>> &blocks);

  Device &device;
  std::mutex mutex;
  bool configured = false;
  uint64_t limit = 0;
  uint64_t holdLimit = 0;
  uint64_t inUse = 0;
  uint64_t held = 0;
  uint64_t highWater = 0;
  uint64_t backendAllocations = 0;
  uint64_t reused = 0;
  std::map<Key, std::vector<void *>> freeBlocks;
  /// The blocks handed out (no allocation per block: PointerMap.h).
  PointerMap<Block> live;
};

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_MEMORYPOOL_H
