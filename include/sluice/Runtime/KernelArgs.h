//===- KernelArgs.h - Copied kernel argument values -------------*- C++ -*-===//
#ifndef SLUICE_RUNTIME_KERNELARGS_H
#define SLUICE_RUNTIME_KERNELARGS_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sluice::rt {

/// The values of a launch's arguments, copied at submission so the caller
/// may reuse its storage at once. Each value is 16-byte aligned.
class KernelArgs {
public:
  void add(const void *value, size_t size, bool isUsmPointer);
  /// Room for `n` arguments of up to 16 bytes, allocated once.
  void reserve(size_t n);

  size_t size() const { return sizes.size(); }
  const void *value(size_t i) const { return storage.data() + offsets[i]; }
  void *value(size_t i) { return storage.data() + offsets[i]; }
  size_t valueSize(size_t i) const { return sizes[i]; }
  /// Whether argument i is a pointer into a USM allocation of the queue's
  /// context (OpenCL passes those with clSetKernelArgSVMPointer & co).
  bool isUsmPointer(size_t i) const { return usm[i]; }
  /// args[i] = address of value i, as the host kernel ABI wants.
  std::vector<void *> pointers();

private:
  struct alignas(16) Chunk {
    unsigned char bytes[16];
  };
  struct Bytes {
    std::vector<Chunk> chunks;
    unsigned char *data() {
      return reinterpret_cast<unsigned char *>(chunks.data());
    }
    const unsigned char *data() const {
      return reinterpret_cast<const unsigned char *>(chunks.data());
    }
  } storage;
  std::vector<size_t> offsets, sizes;
  std::vector<bool> usm;
};

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_KERNELARGS_H
