//===- HostMemoryPool.cpp - Reuse of large host allocations ---------------===//

#include "HostMemoryPool.h"

#include <cstdlib>
#include <string>

using namespace sluice::rt::host;

HostMemoryPool::HostMemoryPool() {
  budget = size_t(1) << 30;
  if (const char *env = std::getenv("SLUICE_HOST_POOL_BYTES")) {
    char *end = nullptr;
    unsigned long long v = std::strtoull(env, &end, 10);
    if (end != env && *end == '\0')
      budget = static_cast<size_t>(v);
  }
}

HostMemoryPool::~HostMemoryPool() {
  for (auto &[size, blocks] : freeBlocks)
    for (void *p : blocks)
      std::free(p);
}

size_t HostMemoryPool::roundSize(size_t bytes) {
  // Eight sizes per power of two: at most 12.5% slack, good reuse.
  size_t top = size_t(1) << (63 - __builtin_clzll(bytes));
  size_t step = top / 8;
  return (bytes + step - 1) / step * step;
}

void *HostMemoryPool::allocate(size_t bytes, size_t alignment) {
  if (bytes < kMinPooled || alignment > 4096 || budget == 0) {
    size_t rounded = (bytes + alignment - 1) / alignment * alignment;
    return std::aligned_alloc(alignment, rounded ? rounded : alignment);
  }
  size_t size = roundSize(bytes);
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = freeBlocks.find(size);
    if (it != freeBlocks.end() && !it->second.empty()) {
      void *p = it->second.back();
      it->second.pop_back();
      cachedBytes -= size;
      pooledSizes[p] = size;
      return p;
    }
  }
  void *p = std::aligned_alloc(4096, size);
  if (!p) {
    // Give the cache back to the system and try once more.
    std::lock_guard<std::mutex> lock(mutex);
    for (auto &[s, blocks] : freeBlocks)
      for (void *b : blocks)
        std::free(b);
    freeBlocks.clear();
    cachedBytes = 0;
    p = std::aligned_alloc(4096, size);
    if (!p)
      return nullptr;
  }
  std::lock_guard<std::mutex> lock(mutex);
  pooledSizes[p] = size;
  return p;
}

void HostMemoryPool::deallocate(void *ptr) {
  if (!ptr)
    return;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = pooledSizes.find(ptr);
  if (it == pooledSizes.end()) {
    std::free(ptr);
    return;
  }
  size_t size = it->second;
  pooledSizes.erase(it);
  if (cachedBytes + size > budget) {
    std::free(ptr);
    return;
  }
  freeBlocks[size].push_back(ptr);
  cachedBytes += size;
}
