//===- HostDevice.cpp - The CPU that runs the program ---------------------===//
#include "HostDevice.h"

#include "HostFunctionModule.h"
#include "HostModule.h"
#include "HostQueue.h"
#include "ThreadPool.h"

#include "sluice/Runtime/ErrorState.h"

#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/sysinfo.h>
#include <thread>
#include <unistd.h>

namespace sluice::rt::host {

namespace {

/// A field of /proc/cpuinfo ("model name", "vendor_id"), or "".
std::string cpuinfoField(const std::string &key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) != 0)
      continue;
    size_t colon = line.find(':');
    if (colon == std::string::npos)
      continue;
    size_t start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}

DeviceProperties hostProperties() {
  DeviceProperties p;
  p.backend = SLUICE_BACKEND_HOST;
  p.type = SLUICE_DEVICE_TYPE_CPU;
  p.name = cpuinfoField("model name");
  if (p.name.empty())
    p.name = "host CPU";
  p.vendor = cpuinfoField("vendor_id");
  if (p.vendor.empty())
    p.vendor = "unknown";
  p.driverVersion = "sluice-host 1";
  p.computeUnits = ThreadPool::shared().size();
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  p.globalMemoryBytes =
      pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : 0;
  // The kernel loops over its work-items itself: any group size works; this
  // bound keeps per-group loops reasonable.
  p.maxWorkGroupSize = 4096;
  p.fp16 = true; // compiled code uses software or F16C conversions
  p.fp64 = true;
  p.usmCapabilities =
      SLUICE_USM_CAP_DEVICE | SLUICE_USM_CAP_SHARED | SLUICE_USM_CAP_HOST;
  p.moduleFormats = 1u << SLUICE_MODULE_NATIVE_OBJECT;
  p.extra = {
      {"threads", std::to_string(ThreadPool::shared().size())},
      {"kernel ABI", "void kernel(void **args, const SluiceHostGroup *group)"},
  };
  return p;
}

} // namespace

HostDevice::HostDevice() : Device(hostProperties()) {}

SluiceStatus HostDevice::createQueue(Ref<Queue> &out) {
  out = makeRef<HostQueue>(*this);
  return SLUICE_SUCCESS;
}

SluiceStatus HostDevice::allocate(SluiceUsmKind, size_t bytes, size_t alignment,
                                  void *&out) {
  // At least a cache line, so vector code never straddles lines at the
  // start; large blocks on page boundaries (the device's pool reuses them).
  // More than the machine's memory and swap can never be backed: where the
  // kernel overcommits, such a block would be handed out and the process
  // killed when it is first touched. Refuse it here, with the sizes.
  struct sysinfo si;
  if (sysinfo(&si) == 0) {
    uint64_t limit = (uint64_t(si.totalram) + uint64_t(si.totalswap)) *
                     uint64_t(si.mem_unit ? si.mem_unit : 1);
    if (limit && bytes > limit)
      return fail(SLUICE_ERROR_OUT_OF_HOST_MEMORY,
                  "host allocation of " + std::to_string(bytes) +
                      " bytes exceeds the machine's memory and swap (" +
                      std::to_string(limit) + " bytes)");
  }
  size_t align = std::max<size_t>(alignment, bytes >= (256u << 10) ? 4096 : 64);
  size_t rounded = (bytes + align - 1) / align * align;
  out = rounded >= bytes ? std::aligned_alloc(align, rounded) : nullptr;
  if (!out)
    return fail(SLUICE_ERROR_OUT_OF_HOST_MEMORY, "host allocation of " +
                                                     std::to_string(bytes) +
                                                     " bytes failed");
  return SLUICE_SUCCESS;
}

void HostDevice::deallocate(SluiceUsmKind, void *ptr) { std::free(ptr); }

SluiceStatus HostDevice::buildModule(SluiceModuleFormat format,
                                     const void *bytes, size_t size,
                                     Ref<Module> &out, std::string &log) {
  if (format != SLUICE_MODULE_NATIVE_OBJECT)
    return fail(SLUICE_ERROR_UNSUPPORTED,
                "the host backend loads native objects only");
  return HostModule::load(ctx, bytes, size, out, log);
}

SluiceStatus HostDevice::createFunctionModule(
    const std::vector<std::pair<std::string, SluiceHostKernelFn>> &functions,
    Ref<Module> &out) {
  std::map<std::string, SluiceHostKernelFn> table(functions.begin(),
                                                  functions.end());
  out = makeRef<HostFunctionModule>(ctx, std::move(table));
  return SLUICE_SUCCESS;
}

} // namespace sluice::rt::host
