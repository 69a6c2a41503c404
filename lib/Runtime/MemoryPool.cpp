//===- MemoryPool.cpp - The caching allocator of a device -----------------===//
#include "sluice/Runtime/MemoryPool.h"
#include "sluice/Runtime/ByteSize.h"
#include "sluice/Runtime/Device.h"
#include "sluice/Runtime/ErrorState.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <string>

namespace sluice::rt {

namespace {

uint64_t envBytes(const char *name, uint64_t fallback) {
  uint64_t v;
  return parseByteSize(std::getenv(name), v) ? v : fallback;
}

std::string bytesText(uint64_t bytes) {
  return std::to_string(bytes) + " bytes";
}

} // namespace

MemoryPool::~MemoryPool() {
  std::vector<std::pair<void *, Block>> blocks;
  {
    std::lock_guard<std::mutex> lock(mutex);
    takeHeldLocked(blocks);
  }
  giveBack(blocks);
}

size_t MemoryPool::sizeClass(size_t bytes) {
  // 64-byte steps up to 1 KiB, then eight classes per power of two (at
  // most 12.5% slack).
  if (bytes <= 1024)
    return std::max<size_t>((bytes + 63) / 64 * 64, 64);
  if (bytes > (size_t(1) << 62))
    return bytes; // no class: the backend refuses it
  size_t p = size_t(1) << (64 - __builtin_clzll(bytes - 1));
  size_t step = p / 8;
  return (bytes + step - 1) / step * step;
}

void MemoryPool::configureLocked() {
  if (configured)
    return;
  configured = true;
  const DeviceProperties &props = device.properties();
  uint64_t memory =
      props.globalMemoryBytes ? props.globalMemoryBytes : uint64_t(4) << 30;
  uint64_t hold = memory / 4;
  // The names of the backend pools this one replaced still work.
  if (props.backend == SLUICE_BACKEND_HOST)
    hold = envBytes("SLUICE_HOST_POOL_BYTES", hold);
  else if (props.backend == SLUICE_BACKEND_CUDA)
    hold = envBytes("SLUICE_CUDA_POOL_BYTES", hold);
  holdLimit = envBytes("SLUICE_POOL_HOLD_BYTES", hold);
  limit = envBytes("SLUICE_POOL_LIMIT", 0);
}

void MemoryPool::takeHeldLocked(std::vector<std::pair<void *, Block>> &out) {
  for (auto &[key, ptrs] : freeBlocks) {
    Block b{static_cast<SluiceUsmKind>(std::get<0>(key)), std::get<1>(key),
            std::get<2>(key)};
    for (void *p : ptrs)
      out.push_back({p, b});
  }
  freeBlocks.clear();
  held = 0;
}

void MemoryPool::giveBack(std::vector<std::pair<void *, Block>> &blocks) {
  for (auto &[ptr, b] : blocks)
    device.deallocate(b.kind, ptr);
  blocks.clear();
}

SluiceStatus MemoryPool::allocate(SluiceUsmKind kind, size_t bytes,
                                  size_t alignment, void *&out) {
  out = nullptr;
  size_t size = sizeClass(bytes);
  size_t align = std::max<size_t>(alignment, 64);
  Key key{kind, size, align};
  SluiceStatus lockedFailure = SLUICE_SUCCESS;
  SluiceStatus oom = device.backend() == SLUICE_BACKEND_HOST
                         ? SLUICE_ERROR_OUT_OF_HOST_MEMORY
                         : SLUICE_ERROR_OUT_OF_DEVICE_MEMORY;
  std::vector<std::pair<void *, Block>> toFree;
  {
    std::lock_guard<std::mutex> lock(mutex);
    configureLocked();
    auto it = freeBlocks.find(key);
    if (it != freeBlocks.end() && !it->second.empty()) {
      out = it->second.back();
      it->second.pop_back();
      held -= size;
      inUse += size;
      highWater = std::max(highWater, inUse);
      ++reused;
      live.insert(out, Block{kind, size, align});
      return SLUICE_SUCCESS;
    }
    if (limit && inUse + held + size > limit)
      takeHeldLocked(toFree);
    if (limit && (size > limit || inUse + size > limit)) {
      uint64_t used = inUse, cap = limit;
      lockedFailure = fail(
          oom, "the memory pool of " + device.filterString() +
                   " is limited to " + bytesText(cap) + ": " + bytesText(used) +
                   " are in use and " + bytesText(bytes) +
                   " more were requested (raise the limit with "
                   "SLUICE_POOL_LIMIT or set_memory_pool_limit)");
    }
  }
  if (lockedFailure) {
    giveBack(toFree);
    // giveBack may have recorded nothing, but keep the message ours.
    return fail(lockedFailure, lastErrorMessage());
  }
  giveBack(toFree);
  void *p = nullptr;
  SluiceStatus status = device.allocate(kind, size, align, p);
  if (status == SLUICE_ERROR_OUT_OF_DEVICE_MEMORY ||
      status == SLUICE_ERROR_OUT_OF_HOST_MEMORY) {
    // Give the held blocks back to the backend and try once more.
    {
      std::lock_guard<std::mutex> lock(mutex);
      takeHeldLocked(toFree);
    }
    if (!toFree.empty()) {
      giveBack(toFree);
      status = device.allocate(kind, size, align, p);
    }
  }
  bool pooled = true;
  if ((status == SLUICE_ERROR_OUT_OF_DEVICE_MEMORY ||
       status == SLUICE_ERROR_OUT_OF_HOST_MEMORY) &&
      size != bytes) {
    // The size class does not fit; the exact size may (and otherwise the
    // backend's message names the size asked for).
    status = device.allocate(kind, bytes, align, p);
    size = bytes;
    pooled = false;
  }
  if (status != SLUICE_SUCCESS)
    return status;
  std::lock_guard<std::mutex> lock(mutex);
  inUse += size;
  highWater = std::max(highWater, inUse);
  ++backendAllocations;
  live.insert(p, Block{kind, size, align, pooled});
  out = p;
  return SLUICE_SUCCESS;
}

void MemoryPool::release(void *ptr) {
  if (!ptr)
    return;
  Block b;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!live.erase(ptr, b))
      return; // not the pool's: nothing to do
    inUse -= b.size;
    bool fits = b.pooled && held + b.size <= holdLimit &&
                (!limit || inUse + held + b.size <= limit);
    if (fits) {
      freeBlocks[Key{b.kind, b.size, b.alignment}].push_back(ptr);
      held += b.size;
      return;
    }
  }
  device.deallocate(b.kind, ptr);
}

bool MemoryPool::blockOf(void *ptr, size_t &size, size_t &alignment) {
  std::lock_guard<std::mutex> lock(mutex);
  const Block *b = live.find(ptr);
  if (!b)
    return false;
  size = b->size;
  alignment = b->alignment;
  return true;
}

void MemoryPool::trim() {
  std::vector<std::pair<void *, Block>> blocks;
  {
    std::lock_guard<std::mutex> lock(mutex);
    takeHeldLocked(blocks);
  }
  giveBack(blocks);
}

SluiceMemoryPoolInfo MemoryPool::info() {
  std::lock_guard<std::mutex> lock(mutex);
  configureLocked();
  SluiceMemoryPoolInfo i;
  i.bytes_in_use = inUse;
  i.bytes_held = held;
  i.high_water = highWater;
  i.limit = limit;
  i.hold_limit = holdLimit;
  i.backend_allocations = backendAllocations;
  i.reused = reused;
  return i;
}

void MemoryPool::setLimit(uint64_t bytes) {
  std::vector<std::pair<void *, Block>> blocks;
  {
    std::lock_guard<std::mutex> lock(mutex);
    configureLocked();
    limit = bytes;
    if (limit && inUse + held > limit)
      takeHeldLocked(blocks);
  }
  giveBack(blocks);
}

void MemoryPool::setHoldLimit(uint64_t bytes) {
  std::vector<std::pair<void *, Block>> blocks;
  {
    std::lock_guard<std::mutex> lock(mutex);
    configureLocked();
    holdLimit = bytes;
    if (held > holdLimit)
      takeHeldLocked(blocks);
  }
  giveBack(blocks);
}

} // namespace sluice::rt
