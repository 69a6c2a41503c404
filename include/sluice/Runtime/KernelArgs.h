//===- KernelArgs.h - Copied kernel argument values -------------*- C++ -*-===//
#ifndef SLUICE_RUNTIME_KERNELARGS_H
#define SLUICE_RUNTIME_KERNELARGS_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sluice::rt {

/// The values of a launch's arguments, copied at submission so the caller
/// may reuse its storage at once. Each value is 16-byte aligned. Up to
/// kInlineArgs arguments of up to 16 bytes each live inside the object (a
/// launch does no heap allocation for them); more spill to the heap.
class KernelArgs {
public:
  static constexpr size_t kInlineArgs = 32;

  KernelArgs() = default;
  KernelArgs(const KernelArgs &other) { *this = other; }
  KernelArgs &operator=(const KernelArgs &other);
  KernelArgs(KernelArgs &&other) noexcept { *this = other; }
  KernelArgs &operator=(KernelArgs &&other) noexcept {
    return *this = static_cast<const KernelArgs &>(other);
  }

  void add(const void *value, size_t size, bool isUsmPointer);
  /// Room for `n` arguments of up to 16 bytes (heap storage only when `n`
  /// is over kInlineArgs).
  void reserve(size_t n);

  size_t size() const { return count; }
  const void *value(size_t i) const { return bytes() + entry(i).offset; }
  void *value(size_t i) { return bytes() + entry(i).offset; }
  size_t valueSize(size_t i) const { return entry(i).size; }
  /// Whether argument i is a pointer into a USM allocation of the queue's
  /// context (OpenCL passes those with clSetKernelArgSVMPointer & co).
  bool isUsmPointer(size_t i) const { return entry(i).usm; }
  /// args[i] = address of value i, as the host kernel ABI wants.
  std::vector<void *> pointers();
  /// The same into `out` (room for size() entries).
  void pointers(void **out);

private:
  struct alignas(16) Chunk {
    unsigned char bytes[16];
  };
  struct Entry {
    uint32_t offset;
    uint32_t size;
    bool usm;
  };
  unsigned char *bytes() {
    return reinterpret_cast<unsigned char *>(
        heapChunks.empty() ? inlineChunks : heapChunks.data());
  }
  const unsigned char *bytes() const {
    return reinterpret_cast<const unsigned char *>(
        heapChunks.empty() ? inlineChunks : heapChunks.data());
  }
  const Entry &entry(size_t i) const {
    return heapEntries.empty() ? inlineEntries[i] : heapEntries[i];
  }

  size_t count = 0;
  size_t chunks = 0;
  Chunk inlineChunks[kInlineArgs];
  Entry inlineEntries[kInlineArgs];
  std::vector<Chunk> heapChunks;
  std::vector<Entry> heapEntries;
};

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_KERNELARGS_H
