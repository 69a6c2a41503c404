//===- CudaDevice.h - A CUDA device and its primary context -----*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_CUDA_CUDADEVICE_H
#define SLUICE_LIB_RUNTIME_CUDA_CUDADEVICE_H

#include "CudaDeviceCopy.h"
#include "CudaDriver.h"
#include "CudaMemoryPool.h"

#include "sluice/Runtime/Device.h"

#include <memory>
#include <mutex>
#include <vector>

namespace sluice::rt::cuda {

class ClockBase;

/// The device's primary context (the one the CUDA runtime, PyTorch and CuPy
/// use too, so their pointers and ours are interchangeable). It is retained
/// on first use, not at enumeration, so listing devices creates no context.
/// It also holds what the backend shares per context: the memory pool, a
/// pool of CUevents and the clock that turns event times into nanoseconds.
class CudaContext final : public Context {
public:
  CudaContext(CUdevice device, size_t poolBudget)
      : dev(device), memory(poolBudget) {}
  ~CudaContext() override;

  /// Retains the primary context once; fails with the driver's reason.
  SluiceStatus ensure();
  CUcontext handle() const { return ctx; }
  CUdevice device() const { return dev; }
  CudaMemoryPool &pool() { return memory; }
  /// The runtime's own device-to-device copy kernel (CudaDeviceCopy.h).
  DeviceCopy &deviceCopy() { return copyKernel; }

  /// A timing-enabled CUevent, reused once released (context current).
  SluiceStatus acquireEvent(CUevent &out);
  void releaseEvent(CUevent event);

  /// The reference point for timestamps: a recent event whose completion
  /// time on the steady clock is known. Refreshed once a second (the
  /// driver's elapsed times are floats in milliseconds). Context current.
  std::shared_ptr<ClockBase> clock();

private:
  CUdevice dev;
  CUcontext ctx = nullptr;
  std::once_flag once;
  CUresult retainResult = CUDA_SUCCESS;
  CudaMemoryPool memory;
  DeviceCopy copyKernel;

  std::mutex eventMutex;
  std::vector<CUevent> freeEvents;

  std::mutex clockMutex;
  CUstream clockStream = nullptr;
  std::shared_ptr<ClockBase> currentClock;
};

/// An event recorded on an idle stream, so that it completes at once, and
/// the steady-clock time at which it was recorded.
class ClockBase {
public:
  ClockBase(CudaContext &ctx, CUevent event, uint64_t hostNs)
      : ctx(ctx), event(event), hostNs(hostNs) {}
  ~ClockBase();
  /// The steady-clock time of a completed event recorded after the base.
  bool timeOf(CUevent e, uint64_t &ns) const;
  uint64_t recordedAt() const { return hostNs; }

private:
  CudaContext &ctx;
  CUevent event;
  uint64_t hostNs;
};

class CudaDevice final : public Device {
public:
  CudaDevice(DeviceProperties props, CUdevice device, size_t poolBudget)
      : Device(std::move(props)), ctx(device, poolBudget) {}

  CudaContext &cudaContext() { return ctx; }
  CUdevice handle() const { return ctx.device(); }

  Context &context() override { return ctx; }
  SluiceStatus createQueue(Ref<Queue> &out) override;
  SluiceStatus allocate(SluiceUsmKind kind, size_t bytes, size_t alignment,
                        void *&out) override;
  void deallocate(SluiceUsmKind kind, void *ptr) override;
  /// Asks the driver what the pointer is: device memory of this device
  /// (device, or shared when managed) or pinned host memory (host), in the
  /// device's primary context; registers the whole driver allocation.
  SluiceStatus describeForeign(void *ptr, size_t bytes, SluiceUsmKind &kind,
                               void *&base, size_t &size) override;
  bool hostAccessible(SluiceUsmKind kind) const override {
    return kind == SLUICE_USM_SHARED || kind == SLUICE_USM_HOST;
  }
  SluiceStatus buildModule(SluiceModuleFormat format, const void *bytes,
                           size_t size, Ref<Module> &out,
                           std::string &log) override;

private:
  CudaContext ctx;
};

/// Reads the properties of CUDA device `ordinal`.
DeviceProperties queryProperties(CUdevice device);

} // namespace sluice::rt::cuda

#endif // SLUICE_LIB_RUNTIME_CUDA_CUDADEVICE_H
