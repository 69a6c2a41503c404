//===- CudaBackend.cpp - Discovery of CUDA devices ------------------------===//
#include "CudaDevice.h"

#include "sluice/Runtime/Backend.h"

#include <cstdlib>

namespace sluice::rt {

namespace {

using namespace cuda;

/// The device's MemoryPool keeps freed blocks; the CUDA pool only rounds
/// sizes and hands them to the driver.
size_t poolBudget(uint64_t) { return 0; }

class CudaBackend final : public Backend {
public:
  SluiceBackend kind() const override { return SLUICE_BACKEND_CUDA; }
  void enumerate(std::vector<std::unique_ptr<Device>> &devices,
                 std::string &note) override {
    Driver &driver = Driver::get();
    if (!driver.available()) {
      note = driver.problem();
      return;
    }
    const DriverApi &f = driver.api();
    int count = 0;
    if (CUresult r = f.cuDeviceGetCount(&count)) {
      note = "cuDeviceGetCount failed: " + errorText(r);
      return;
    }
    if (count == 0) {
      note = "the CUDA driver reports no devices";
      return;
    }
    for (int i = 0; i < count; ++i) {
      CUdevice device = 0;
      if (f.cuDeviceGet(&device, i) != CUDA_SUCCESS)
        continue;
      DeviceProperties props = queryProperties(device);
      if (!(props.usmCapabilities & SLUICE_USM_CAP_DEVICE)) {
        note = "CUDA device " + std::to_string(i) + " (" + props.name +
               ") lacks unified addressing, which Sluice's USM needs";
        continue;
      }
      size_t budget = poolBudget(props.globalMemoryBytes);
      devices.push_back(
          std::make_unique<CudaDevice>(std::move(props), device, budget));
    }
  }
};

} // namespace

std::unique_ptr<Backend> createCudaBackend() {
  return std::make_unique<CudaBackend>();
}

} // namespace sluice::rt
