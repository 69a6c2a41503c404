//===- KernelArgs.cpp - Copied kernel argument values ---------------------===//
#include "sluice/Runtime/KernelArgs.h"

#include <cstring>

namespace sluice::rt {

KernelArgs &KernelArgs::operator=(const KernelArgs &other) {
  if (this == &other)
    return *this;
  count = other.count;
  chunks = other.chunks;
  heapChunks = other.heapChunks;
  heapEntries = other.heapEntries;
  if (heapChunks.empty())
    std::memcpy(inlineChunks, other.inlineChunks, chunks * sizeof(Chunk));
  if (heapEntries.empty())
    std::memcpy(inlineEntries, other.inlineEntries, count * sizeof(Entry));
  return *this;
}

void KernelArgs::reserve(size_t n) {
  if (n <= kInlineArgs)
    return;
  heapChunks.reserve(n);
  heapEntries.reserve(n);
}

void KernelArgs::add(const void *value, size_t size, bool isUsmPointer) {
  size_t need = (size + sizeof(Chunk) - 1) / sizeof(Chunk);
  if (heapChunks.empty() && chunks + need > kInlineArgs) {
    heapChunks.assign(inlineChunks, inlineChunks + chunks);
    if (heapChunks.empty())
      heapChunks.reserve(need);
  }
  if (heapEntries.empty() && count + 1 > kInlineArgs)
    heapEntries.assign(inlineEntries, inlineEntries + count);
  size_t offset = chunks * sizeof(Chunk);
  if (!heapChunks.empty() || chunks + need > kInlineArgs)
    heapChunks.resize(chunks + need);
  chunks += need;
  std::memcpy(bytes() + offset, value, size);
  Entry e{static_cast<uint32_t>(offset), static_cast<uint32_t>(size),
          isUsmPointer};
  if (!heapEntries.empty() || count + 1 > kInlineArgs)
    heapEntries.push_back(e);
  else
    inlineEntries[count] = e;
  ++count;
}

std::vector<void *> KernelArgs::pointers() {
  std::vector<void *> result(count);
  pointers(result.data());
  return result;
}

void KernelArgs::pointers(void **out) {
  for (size_t i = 0; i < count; ++i)
    out[i] = value(i);
}

} // namespace sluice::rt
