//===- KernelArgs.cpp - Copied kernel argument values ---------------------===//
#include "sluice/Runtime/KernelArgs.h"

#include <cstring>

namespace sluice::rt {

void KernelArgs::add(const void *value, size_t size, bool isUsmPointer) {
  size_t offset = storage.chunks.size() * sizeof(Chunk);
  storage.chunks.resize(storage.chunks.size() +
                        (size + sizeof(Chunk) - 1) / sizeof(Chunk));
  std::memcpy(storage.data() + offset, value, size);
  offsets.push_back(offset);
  sizes.push_back(size);
  usm.push_back(isUsmPointer);
}

void KernelArgs::reserve(size_t n) {
  storage.chunks.reserve(n);
  offsets.reserve(n);
  sizes.reserve(n);
  usm.reserve(n);
}

std::vector<void *> KernelArgs::pointers() {
  std::vector<void *> result;
  result.reserve(sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i)
    result.push_back(value(i));
  return result;
}

} // namespace sluice::rt
