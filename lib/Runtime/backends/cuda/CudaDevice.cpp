//===- CudaDevice.cpp - A CUDA device and its primary context -------------===//
#include "CudaDevice.h"

#include "CudaModule.h"
#include "CudaQueue.h"

#include "sluice/Runtime/ErrorState.h"
#include "sluice/Runtime/SignalEvent.h"
#include "sluice/Runtime/UsmKind.h"

#include <cstdio>

namespace sluice::rt::cuda {

CudaContext::~CudaContext() {
  // Devices live as long as the process; this runs only if that changes.
  if (!ctx)
    return;
  currentClock.reset();
  for (CUevent e : freeEvents)
    cu().cuEventDestroy(e);
  if (clockStream)
    cu().cuStreamDestroy(clockStream);
  cu().cuDevicePrimaryCtxRelease(dev);
}

SluiceStatus CudaContext::ensure() {
  std::call_once(once, [&] {
    retainResult = cu().cuDevicePrimaryCtxRetain(&ctx, dev);
    if (retainResult != CUDA_SUCCESS)
      ctx = nullptr;
  });
  if (!ctx)
    return cuFail(retainResult,
                  "retaining the primary context of CUDA device " +
                      std::to_string(dev));
  return SLUICE_SUCCESS;
}

SluiceStatus CudaContext::acquireEvent(CUevent &out) {
  {
    std::lock_guard<std::mutex> lock(eventMutex);
    if (!freeEvents.empty()) {
      out = freeEvents.back();
      freeEvents.pop_back();
      return SLUICE_SUCCESS;
    }
  }
  if (CUresult r = cu().cuEventCreate(&out, CU_EVENT_DEFAULT))
    return cuFail(r, "cuEventCreate");
  return SLUICE_SUCCESS;
}

void CudaContext::releaseEvent(CUevent event) {
  if (!event)
    return;
  std::lock_guard<std::mutex> lock(eventMutex);
  freeEvents.push_back(event);
}

std::shared_ptr<ClockBase> CudaContext::clock() {
  uint64_t now = SignalEvent::nowNs();
  std::lock_guard<std::mutex> lock(clockMutex);
  if (currentClock && now - currentClock->recordedAt() < 1000000000ull)
    return currentClock;
  const DriverApi &f = cu();
  if (!clockStream && f.cuStreamCreate(&clockStream, CU_STREAM_NON_BLOCKING))
    return currentClock; // keep the old base (or none: no timestamps)
  CUevent e = nullptr;
  if (acquireEvent(e) != SLUICE_SUCCESS)
    return currentClock;
  uint64_t at = SignalEvent::nowNs();
  if (f.cuEventRecord(e, clockStream) != CUDA_SUCCESS) {
    releaseEvent(e);
    return currentClock;
  }
  currentClock = std::make_shared<ClockBase>(*this, e, at);
  return currentClock;
}

ClockBase::~ClockBase() { ctx.releaseEvent(event); }

bool ClockBase::timeOf(CUevent e, uint64_t &ns) const {
  float ms = 0;
  if (cu().cuEventElapsedTime(&ms, event, e) != CUDA_SUCCESS)
    return false;
  int64_t delta = static_cast<int64_t>(static_cast<double>(ms) * 1e6);
  ns = delta < 0 && uint64_t(-delta) > hostNs ? 0 : hostNs + delta;
  return true;
}

SluiceStatus CudaDevice::createQueue(Ref<Queue> &out) {
  if (SluiceStatus s = ctx.ensure())
    return s;
  return CudaQueue::create(*this, out);
}

SluiceStatus CudaDevice::allocate(SluiceUsmKind kind, size_t bytes,
                                  size_t alignment, void *&out) {
  if (SluiceStatus s = ctx.ensure())
    return s;
  ScopedContext current(ctx.handle());
  return ctx.pool().allocate(kind, bytes, alignment, out);
}

void CudaDevice::deallocate(SluiceUsmKind, void *ptr) {
  ScopedContext current(ctx.handle());
  ctx.pool().deallocate(ptr);
}

SluiceStatus CudaDevice::describeForeign(void *ptr, size_t bytes,
                                         SluiceUsmKind &kind, void *&base,
                                         size_t &size) {
  if (SluiceStatus s = ctx.ensure())
    return s;
  ScopedContext current(ctx.handle());
  const DriverApi &f = cu();
  auto dptr = static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(ptr));
  unsigned memoryType = 0;
  CUresult r = f.cuPointerGetAttribute(&memoryType,
                                       CU_POINTER_ATTRIBUTE_MEMORY_TYPE, dptr);
  if (r != CUDA_SUCCESS)
    return fail(SLUICE_ERROR_INVALID_POINTER,
                "the pointer is not memory the CUDA driver knows (" +
                    errorText(r) +
                    "): only CUDA allocations can be "
                    "imported on " +
                    filterString());
  int managed = 0;
  f.cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, dptr);
  SluiceUsmKind actual = managed                            ? SLUICE_USM_SHARED
                         : memoryType == CU_MEMORYTYPE_HOST ? SLUICE_USM_HOST
                                                            : SLUICE_USM_DEVICE;
  if (actual != SLUICE_USM_HOST) {
    int ordinal = -1;
    f.cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                            dptr);
    if (!managed && ordinal != static_cast<int>(ctx.device()))
      return fail(SLUICE_ERROR_INVALID_VALUE, "the memory is on CUDA device " +
                                                  std::to_string(ordinal) +
                                                  ", not on " + filterString());
  }
  CUcontext owner = nullptr;
  if (f.cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, dptr) ==
          CUDA_SUCCESS &&
      owner && owner != ctx.handle())
    return fail(SLUICE_ERROR_INVALID_VALUE,
                "the memory belongs to a CUDA context other than the "
                "device's primary context, which Sluice uses on " +
                    filterString());
  if (kind != SLUICE_USM_UNKNOWN && kind != actual) {
    return fail(SLUICE_ERROR_INVALID_VALUE,
                std::string("the memory is CUDA ") + usmKindName(actual) +
                    " memory, not " + usmKindName(kind));
  }
  kind = actual;
  CUdeviceptr first = 0;
  size_t whole = 0;
  if (actual != SLUICE_USM_HOST &&
      f.cuPointerGetAttribute(&first, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
                              dptr) == CUDA_SUCCESS &&
      f.cuPointerGetAttribute(&whole, CU_POINTER_ATTRIBUTE_RANGE_SIZE, dptr) ==
          CUDA_SUCCESS &&
      first && whole) {
    base = reinterpret_cast<void *>(static_cast<uintptr_t>(first));
    size = whole;
  } else {
    base = ptr;
    size = bytes;
  }
  auto *end = static_cast<char *>(ptr) + bytes;
  if (end > static_cast<char *>(base) + size)
    return fail(SLUICE_ERROR_INVALID_VALUE,
                std::to_string(bytes) +
                    " bytes from the pointer run past "
                    "the end of its CUDA allocation (" +
                    std::to_string(size) + " bytes)");
  return SLUICE_SUCCESS;
}

SluiceStatus CudaDevice::buildModule(SluiceModuleFormat format,
                                     const void *bytes, size_t size,
                                     Ref<Module> &out, std::string &log) {
  if (SluiceStatus s = ctx.ensure())
    return s;
  return CudaModule::build(*this, format, bytes, size, out, log);
}

namespace {

int attribute(CUdevice device, int what) {
  int value = 0;
  if (cu().cuDeviceGetAttribute(&value, what, device) != CUDA_SUCCESS)
    return 0;
  return value;
}

std::string versionText(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

} // namespace

DeviceProperties queryProperties(CUdevice device) {
  DeviceProperties p;
  p.backend = SLUICE_BACKEND_CUDA;
  p.type = SLUICE_DEVICE_TYPE_GPU;
  char name[256] = {};
  if (cu().cuDeviceGetName(name, sizeof name - 1, device) != CUDA_SUCCESS)
    std::snprintf(name, sizeof name, "CUDA device %d", device);
  p.name = name;
  p.vendor = "NVIDIA Corporation";
  int driver = Driver::get().version();
  p.driverVersion = "CUDA " + versionText(driver);
  p.computeUnits = attribute(device, kMultiprocessorCount);
  size_t total = 0;
  if (cu().cuDeviceTotalMem(&total, device) == CUDA_SUCCESS)
    p.globalMemoryBytes = total;
  p.maxWorkGroupSize = attribute(device, kMaxThreadsPerBlock);
  int major = attribute(device, kComputeCapabilityMajor);
  int minor = attribute(device, kComputeCapabilityMinor);
  p.fp16 = major * 10 + minor >= 53;
  p.fp64 = true;
  bool uva = attribute(device, kUnifiedAddressing) != 0;
  // Sluice's USM needs one address space for host and device pointers.
  if (uva) {
    p.usmCapabilities = SLUICE_USM_CAP_DEVICE;
    if (attribute(device, kManagedMemory))
      p.usmCapabilities |= SLUICE_USM_CAP_SHARED;
    if (attribute(device, kCanMapHostMemory))
      p.usmCapabilities |= SLUICE_USM_CAP_HOST;
  }
  p.moduleFormats = (1u << SLUICE_MODULE_PTX) | (1u << SLUICE_MODULE_CUBIN);

  char pci[64];
  std::snprintf(pci, sizeof pci, "%04x:%02x:%02x",
                attribute(device, kPciDomainId), attribute(device, kPciBusId),
                attribute(device, kPciDeviceId));
  auto mhz = [&](int attr) {
    return std::to_string(attribute(device, attr) / 1000);
  };
  p.extra = {
      {"compute capability",
       std::to_string(major) + "." + std::to_string(minor)},
      {"PTX target", "sm_" + std::to_string(major) + std::to_string(minor)},
      {"driver library", Driver::get().libraryPath()},
      {"driver API version", std::to_string(driver)},
      {"PCI bus id", pci},
      {"max threads per multiprocessor",
       std::to_string(attribute(device, kMaxThreadsPerMultiprocessor))},
      {"warp size", std::to_string(attribute(device, kWarpSize))},
      {"max block", std::to_string(attribute(device, kMaxBlockDimX)) + " x " +
                        std::to_string(attribute(device, kMaxBlockDimY)) +
                        " x " +
                        std::to_string(attribute(device, kMaxBlockDimZ))},
      {"max grid", std::to_string(attribute(device, kMaxGridDimX)) + " x " +
                       std::to_string(attribute(device, kMaxGridDimY)) + " x " +
                       std::to_string(attribute(device, kMaxGridDimZ))},
      {"shared memory per block",
       std::to_string(attribute(device, kMaxSharedMemoryPerBlock))},
      {"shared memory per block (opt-in)",
       std::to_string(attribute(device, kMaxSharedMemoryPerBlockOptin))},
      {"L2 cache bytes", std::to_string(attribute(device, kL2CacheSize))},
      {"clock MHz", mhz(kClockRate)},
      {"memory clock MHz", mhz(kMemoryClockRate)},
      {"memory bus width bits",
       std::to_string(attribute(device, kGlobalMemoryBusWidth))},
      {"ECC", attribute(device, kEccEnabled) ? "on" : "off"},
      {"unified addressing", uva ? "yes" : "no"},
      {"concurrent managed access",
       attribute(device, kConcurrentManagedAccess) ? "yes" : "no"},
      {"USM",
       "device: cuMemAlloc, shared: cuMemAllocManaged, host: cuMemHostAlloc "
       "(mapped, portable)"},
      {"modules", "PTX (JIT-compiled by the driver), CUBIN/fatbin"},
  };
  return p;
}

} // namespace sluice::rt::cuda
