//===- ModuleCache.cpp - Built modules keyed by context and bytes ---------===//
#include "sluice/Runtime/ModuleCache.h"

#include <cstring>

namespace sluice::rt {

uint64_t ModuleCache::hash(const void *bytes, size_t size) {
  // FNV-1a, 64 bit.
  uint64_t h = 0xcbf29ce484222325ull;
  const unsigned char *p = static_cast<const unsigned char *>(bytes);
  for (size_t i = 0; i < size; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

SluiceStatus ModuleCache::getOrBuild(Device &device, SluiceModuleFormat format,
                                     const void *bytes, size_t size,
                                     Ref<Module> &out, std::string &log) {
  uint64_t key = hash(bytes, size);
  Context *context = &device.context();
  // Builds are serialised: simple, and a module is built once even when
  // many threads ask for it at the same time.
  std::lock_guard<std::mutex> lock(mutex);
  auto range = entries.equal_range(key);
  for (auto it = range.first; it != range.second; ++it) {
    Entry &e = it->second;
    if (e.context == context && e.format == format && e.bytes.size() == size &&
        std::memcmp(e.bytes.data(), bytes, size) == 0) {
      out = e.module;
      return SLUICE_SUCCESS;
    }
  }
  Ref<Module> module;
  if (SluiceStatus status =
          device.buildModule(format, bytes, size, module, log))
    return status;
  const unsigned char *p = static_cast<const unsigned char *>(bytes);
  entries.emplace(key, Entry{context, format,
                             std::vector<unsigned char>(p, p + size), module});
  out = module;
  return SLUICE_SUCCESS;
}

} // namespace sluice::rt
