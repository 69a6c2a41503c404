//===- OpenClModule.cpp - OpenCL programs built from SPIR-V ---------------===//
#include "OpenClModule.h"

#include "OpenClDevice.h"
#include "OpenClError.h"
#include "OpenClInfo.h"
#include "SpirvTranslator.h"

#include "sluice/Runtime/ErrorState.h"
#include "sluice/Runtime/SpirvCapabilities.h"

#include <cstring>

namespace sluice::rt::opencl {

namespace {

std::string readBuildLog(cl_program program,
                         const std::vector<cl_device_id> &devs) {
  std::string all;
  for (cl_device_id dev : devs) {
    size_t size = 0;
    if (clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr,
                              &size) != CL_SUCCESS ||
        size <= 1)
      continue;
    std::string log(size, '\0');
    clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, size, log.data(),
                          nullptr);
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
      log.pop_back();
    if (!all.empty())
      all += '\n';
    all += log;
  }
  return all;
}

bool isSpirv(const void *bytes, size_t size) {
  if (size < 20 || size % 4)
    return false;
  uint32_t magic;
  std::memcpy(&magic, bytes, 4);
  return magic == 0x07230203u || magic == 0x03022307u;
}

/// Refuses a module that needs what the device lacks: f16 or f64
/// arithmetic (cl_khr_fp16, cl_khr_fp64), 64-bit integers on an embedded
/// profile device (cles_khr_int64), 64-bit atomics.
SluiceStatus checkCapabilities(OpenClDevice &device, const void *bytes,
                               size_t size) {
  std::vector<uint32_t> caps = spirvCapabilities(bytes, size);
  if (caps.empty())
    return SLUICE_SUCCESS;
  std::string extensions =
      " " + deviceString(device.handle(), CL_DEVICE_EXTENSIONS) + " ";
  auto has = [&](const char *ext) {
    return extensions.find(" " + std::string(ext) + " ") != std::string::npos;
  };
  bool embedded =
      deviceString(device.handle(), CL_DEVICE_PROFILE) == "EMBEDDED_PROFILE";
  for (uint32_t cap : caps) {
    const char *what = nullptr, *ext = nullptr;
    switch (static_cast<SpirvCapability>(cap)) {
    case SpirvCapability::Float16:
      what = "16-bit floating point (capability Float16)", ext = "cl_khr_fp16";
      break;
    case SpirvCapability::Float64:
      what = "64-bit floating point (capability Float64)", ext = "cl_khr_fp64";
      break;
    case SpirvCapability::Int64:
      if (embedded)
        what = "64-bit integers (capability Int64)", ext = "cles_khr_int64";
      break;
    case SpirvCapability::Int64Atomics:
      what = "64-bit atomics (capability Int64Atomics)",
      ext = "cl_khr_int64_base_atomics";
      break;
    }
    if (what && !has(ext))
      return fail(SLUICE_ERROR_UNSUPPORTED,
                  "the SPIR-V module uses " + std::string(what) +
                      ", which OpenCL device '" + device.properties().name +
                      "' does not support (it lacks " + ext + ")");
  }
  return SLUICE_SUCCESS;
}

} // namespace

SluiceStatus OpenClModule::build(OpenClDevice &device,
                                 SluiceModuleFormat format, const void *bytes,
                                 size_t size, Ref<Module> &out,
                                 std::string &log) {
  if (format != SLUICE_MODULE_SPIRV)
    return fail(SLUICE_ERROR_UNSUPPORTED,
                "the OpenCL backend loads SPIR-V modules only");
  if (!isSpirv(bytes, size)) {
    log = "not a SPIR-V module (bad magic number or size)";
    return SLUICE_ERROR_BUILD_FAILED;
  }
  if (SluiceStatus status = checkCapabilities(device, bytes, size))
    return status;
  OpenClContext &ctx = device.clContext();
  const std::vector<cl_device_id> &devs = ctx.devices();
  cl_int err = CL_SUCCESS;
  cl_program program = nullptr;
  const char *options = "";
  if (device.takesSpirvIl()) {
    program = clCreateProgramWithIL(ctx.handle(), bytes, size, &err);
  } else {
    std::vector<char> bitcode;
    if (SluiceStatus status = translateSpirvToSpir(bytes, size, bitcode, log))
      return status;
    std::vector<size_t> lengths(devs.size(), bitcode.size());
    // One copy of the binary per device (assigned: GCC 12 misreads the
    // inlined destructor of a vector built with a fill value).
    std::vector<const unsigned char *> binaries(devs.size());
    for (const unsigned char *&binary : binaries)
      binary = reinterpret_cast<const unsigned char *>(bitcode.data());
    std::vector<cl_int> binaryStatus(devs.size(), CL_SUCCESS);
    program = clCreateProgramWithBinary(
        ctx.handle(), static_cast<cl_uint>(devs.size()), devs.data(),
        lengths.data(), binaries.data(), binaryStatus.data(), &err);
    options = "-x spir -spir-std=1.2";
  }
  if (!program) {
    log = std::string("the driver rejected the program: ") + clErrorName(err);
    return SLUICE_ERROR_BUILD_FAILED;
  }
  err = clBuildProgram(program, static_cast<cl_uint>(devs.size()), devs.data(),
                       options, nullptr, nullptr);
  std::string buildOutput = readBuildLog(program, devs);
  if (err != CL_SUCCESS) {
    log = std::string("clBuildProgram failed with ") + clErrorName(err) +
          (buildOutput.empty() ? "" : ":\n" + buildOutput);
    clReleaseProgram(program);
    return SLUICE_ERROR_BUILD_FAILED;
  }
  out = Ref<Module>::adopt(new OpenClModule(ctx, program, buildOutput));
  return SLUICE_SUCCESS;
}

OpenClModule::~OpenClModule() { clReleaseProgram(program); }

SluiceStatus OpenClModule::createKernel(const std::string &name,
                                        std::unique_ptr<Kernel> &out) {
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name.c_str(), &err);
  if (!kernel) {
    if (err == CL_INVALID_KERNEL_NAME)
      return fail(SLUICE_ERROR_KERNEL_NOT_FOUND,
                  "no kernel named '" + name + "' in the SPIR-V module");
    return clFail(err, "clCreateKernel('" + name + "')");
  }
  out = std::make_unique<OpenClKernel>(*this, name, kernel);
  return SLUICE_SUCCESS;
}

} // namespace sluice::rt::opencl
