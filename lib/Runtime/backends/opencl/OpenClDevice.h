//===- OpenClDevice.h - An OpenCL device and platform context ---*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_OPENCL_OPENCLDEVICE_H
#define SLUICE_LIB_RUNTIME_OPENCL_OPENCLDEVICE_H

#include "OpenClUsm.h"

#include "sluice/Runtime/Device.h"

#include <vector>

namespace sluice::rt::opencl {

/// One cl_context per platform, holding all of its devices (like dpctl's
/// default context).
class OpenClContext final : public Context {
public:
  OpenClContext(cl_platform_id platform, cl_context context,
                std::vector<cl_device_id> devices);
  ~OpenClContext() override;

  cl_context handle() const { return ctx; }
  cl_platform_id platform() const { return plat; }
  const std::vector<cl_device_id> &devices() const { return devs; }
  const IntelUsm &intelUsm() const { return usmFns; }

private:
  cl_platform_id plat;
  cl_context ctx;
  std::vector<cl_device_id> devs;
  IntelUsm usmFns;
};

class OpenClDevice final : public Device {
public:
  OpenClDevice(DeviceProperties props, OpenClContext &context,
               cl_device_id device, UsmSupport usm, bool takesSpirvIl);

  cl_device_id handle() const { return dev; }
  OpenClContext &clContext() { return ctx; }
  const UsmSupport &usm() const { return usmSupport; }
  bool takesSpirvIl() const { return il; }

  Context &context() override { return ctx; }
  SluiceStatus createQueue(Ref<Queue> &out) override;
  SluiceStatus allocate(SluiceUsmKind kind, size_t bytes, size_t alignment,
                        void *&out) override;
  void deallocate(SluiceUsmKind kind, void *ptr) override;
  bool hostAccessible(SluiceUsmKind kind) const override {
    return usmSupport.hostAccessible(kind);
  }
  SluiceStatus buildModule(SluiceModuleFormat format, const void *bytes,
                           size_t size, Ref<Module> &out,
                           std::string &log) override;

private:
  OpenClContext &ctx;
  cl_device_id dev;
  UsmSupport usmSupport;
  bool il;
};

/// Reads the device's properties (name, memory, USM, ...).
DeviceProperties queryProperties(cl_platform_id platform, cl_device_id device,
                                 const UsmSupport &usm, bool takesSpirvIl,
                                 bool canTranslateSpirv);

} // namespace sluice::rt::opencl

#endif // SLUICE_LIB_RUNTIME_OPENCL_OPENCLDEVICE_H
