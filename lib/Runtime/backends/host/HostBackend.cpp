//===- HostBackend.cpp - The host backend: one CPU device -----------------===//
#include "HostDevice.h"

#include "sluice/Runtime/Backend.h"

namespace sluice::rt {

namespace {
class HostBackend final : public Backend {
public:
  SluiceBackend kind() const override { return SLUICE_BACKEND_HOST; }
  void enumerate(std::vector<std::unique_ptr<Device>> &devices,
                 std::string &) override {
    devices.push_back(std::make_unique<host::HostDevice>());
  }
};
} // namespace

std::unique_ptr<Backend> createHostBackend() {
  return std::make_unique<HostBackend>();
}

} // namespace sluice::rt
