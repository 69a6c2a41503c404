//===- CudaMemoryPool.cpp - Reuse of CUDA allocations ---------------------===//
#include "CudaMemoryPool.h"

#include "sluice/Runtime/ErrorState.h"
#include "sluice/Runtime/UsmKind.h"

namespace sluice::rt::cuda {

namespace {
/// What the driver guarantees: device and managed memory are aligned to
/// at least 256 bytes, pinned host memory to a page.
size_t naturalAlignment(SluiceUsmKind kind) {
  return kind == SLUICE_USM_HOST ? 4096 : 256;
}

} // namespace

size_t CudaMemoryPool::roundSize(size_t bytes) {
  // Size classes an eighth of a power of two apart (at most 12.5% waste),
  // never below 512 bytes.
  if (bytes <= 512)
    return 512;
  size_t p = 1;
  while (p < bytes)
    p <<= 1;
  size_t step = p / 8;
  return (bytes + step - 1) / step * step;
}

CUresult CudaMemoryPool::driverAlloc(SluiceUsmKind kind, size_t bytes,
                                     void *&out) {
  const DriverApi &f = cu();
  CUdeviceptr d = 0;
  CUresult r;
  switch (kind) {
  case SLUICE_USM_DEVICE:
    r = f.cuMemAlloc(&d, bytes);
    out = reinterpret_cast<void *>(static_cast<uintptr_t>(d));
    return r;
  case SLUICE_USM_SHARED:
    r = f.cuMemAllocManaged(&d, bytes, CU_MEM_ATTACH_GLOBAL);
    out = reinterpret_cast<void *>(static_cast<uintptr_t>(d));
    return r;
  default:
    // Mapped and portable: with unified addressing the host pointer is also
    // the device pointer, in every context.
    return f.cuMemHostAlloc(
        &out, bytes, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP);
  }
}

void CudaMemoryPool::driverFree(SluiceUsmKind kind, void *raw) {
  if (kind == SLUICE_USM_HOST)
    cu().cuMemFreeHost(raw);
  else
    cu().cuMemFree(devicePtr(raw));
}

SluiceStatus CudaMemoryPool::allocate(SluiceUsmKind kind, size_t bytes,
                                      size_t alignment, void *&out) {
  bool overAligned = alignment > naturalAlignment(kind);
  size_t size = overAligned ? bytes + alignment : roundSize(bytes);
  if (size < bytes)
    return fail(SLUICE_ERROR_OUT_OF_DEVICE_MEMORY, "CUDA: an allocation of " +
                                                       std::to_string(bytes) +
                                                       " bytes is too large");
  if (!overAligned) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = freeBlocks.find({kind, size});
    if (it != freeBlocks.end() && !it->second.empty()) {
      out = it->second.back();
      it->second.pop_back();
      cached -= size;
      return SLUICE_SUCCESS;
    }
  }
  void *raw = nullptr;
  CUresult r = driverAlloc(kind, size, raw);
  if (r == CUDA_ERROR_OUT_OF_MEMORY) {
    trim();
    r = driverAlloc(kind, size, raw);
  }
  if (r != CUDA_SUCCESS)
    return cuFail(r, std::string("allocating ") + std::to_string(bytes) +
                         " bytes of " + usmKindName(kind) + " memory");
  void *ptr = raw;
  if (overAligned) {
    uintptr_t p = reinterpret_cast<uintptr_t>(raw);
    ptr = reinterpret_cast<void *>((p + alignment - 1) & ~(alignment - 1));
  }
  std::lock_guard<std::mutex> lock(mutex);
  blocks[ptr] = Block{raw, size, kind, !overAligned};
  out = ptr;
  return SLUICE_SUCCESS;
}

void CudaMemoryPool::deallocate(void *ptr) {
  std::vector<Block> release;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = blocks.find(ptr);
    if (it == blocks.end())
      return;
    Block block = it->second;
    if (block.pooled && block.size <= budget) {
      freeBlocks[{block.kind, block.size}].push_back(ptr);
      cached += block.size;
      // Past the budget, the oldest classes go back first.
      while (cached > budget) {
        auto victim = freeBlocks.begin();
        while (victim != freeBlocks.end() && victim->second.empty())
          victim = freeBlocks.erase(victim);
        if (victim == freeBlocks.end())
          break;
        void *v = victim->second.back();
        victim->second.pop_back();
        auto b = blocks.find(v);
        cached -= b->second.size;
        release.push_back(b->second);
        blocks.erase(b);
      }
    } else {
      release.push_back(block);
      blocks.erase(it);
    }
  }
  for (const Block &b : release)
    driverFree(b.kind, b.raw);
}

void CudaMemoryPool::trimLocked(std::vector<Block> &release) {
  for (auto &[key, ptrs] : freeBlocks)
    for (void *p : ptrs) {
      auto b = blocks.find(p);
      release.push_back(b->second);
      blocks.erase(b);
    }
  freeBlocks.clear();
  cached = 0;
}

void CudaMemoryPool::trim() {
  std::vector<Block> release;
  {
    std::lock_guard<std::mutex> lock(mutex);
    trimLocked(release);
  }
  for (const Block &b : release)
    driverFree(b.kind, b.raw);
}

size_t CudaMemoryPool::cachedBytes() {
  std::lock_guard<std::mutex> lock(mutex);
  return cached;
}

} // namespace sluice::rt::cuda
