//===- OpenClModule.h - OpenCL programs built from SPIR-V -------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_OPENCL_OPENCLMODULE_H
#define SLUICE_LIB_RUNTIME_OPENCL_OPENCLMODULE_H

#include "sluice/Runtime/Module.h"

#include <CL/cl.h>
#include <mutex>

namespace sluice::rt::opencl {

class OpenClDevice;

class OpenClKernel final : public Kernel {
public:
  OpenClKernel(Module &module, std::string name, cl_kernel kernel)
      : Kernel(module, std::move(name)), kernel(kernel) {}
  ~OpenClKernel() override { clReleaseKernel(kernel); }
  cl_kernel handle() const { return kernel; }
  /// Serialises clSetKernelArg + enqueue across threads.
  std::mutex &mutex() { return argsMutex; }

private:
  cl_kernel kernel;
  std::mutex argsMutex;
};

/// A cl_program built for every device of the context. SPIR-V goes in
/// through clCreateProgramWithIL where the devices take SPIR-V, otherwise
/// it is translated to SPIR 1.2 bitcode by llvm-spirv and loaded with
/// clCreateProgramWithBinary ("-x spir -spir-std=1.2").
class OpenClModule final : public Module {
public:
  static SluiceStatus build(OpenClDevice &device, SluiceModuleFormat format,
                            const void *bytes, size_t size, Ref<Module> &out,
                            std::string &log);
  ~OpenClModule() override;

protected:
  SluiceStatus createKernel(const std::string &name,
                            std::unique_ptr<Kernel> &out) override;

private:
  OpenClModule(Context &context, cl_program program, std::string log)
      : Module(context, std::move(log)), program(program) {}
  cl_program program;
};

} // namespace sluice::rt::opencl

#endif // SLUICE_LIB_RUNTIME_OPENCL_OPENCLMODULE_H
