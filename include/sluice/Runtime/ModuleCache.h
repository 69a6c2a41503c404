//===- ModuleCache.h - Built modules keyed by context and bytes -*- C++ -*-===//
#ifndef SLUICE_RUNTIME_MODULECACHE_H
#define SLUICE_RUNTIME_MODULECACHE_H

#include "sluice/Runtime/Module.h"

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace sluice::rt {

/// Builds each (context, format, binary) once. Entries hold a reference
/// for the life of the process; binaries are compared byte for byte on a
/// hash hit.
class ModuleCache {
public:
  SluiceStatus getOrBuild(Device &device, SluiceModuleFormat format,
                          const void *bytes, size_t size, Ref<Module> &out,
                          std::string &log);
  static uint64_t hash(const void *bytes, size_t size);

private:
  struct Entry {
    Context *context;
    SluiceModuleFormat format;
    std::vector<unsigned char> bytes;
    Ref<Module> module;
  };
  std::mutex mutex;
  std::unordered_multimap<uint64_t, Entry> entries;
};

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_MODULECACHE_H
