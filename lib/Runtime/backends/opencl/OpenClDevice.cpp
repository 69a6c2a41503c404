//===- OpenClDevice.cpp - An OpenCL device and platform context -----------===//
#include "OpenClDevice.h"

#include "OpenClInfo.h"
#include "OpenClModule.h"
#include "OpenClQueue.h"

namespace sluice::rt::opencl {

OpenClContext::OpenClContext(cl_platform_id platform, cl_context context,
                             std::vector<cl_device_id> devices)
    : plat(platform), ctx(context), devs(std::move(devices)) {
  usmFns.load(platform);
}

OpenClContext::~OpenClContext() { clReleaseContext(ctx); }

OpenClDevice::OpenClDevice(DeviceProperties props, OpenClContext &context,
                           cl_device_id device, UsmSupport usm,
                           bool takesSpirvIl)
    : Device(std::move(props)), ctx(context), dev(device), usmSupport(usm),
      il(takesSpirvIl) {}

SluiceStatus OpenClDevice::createQueue(Ref<Queue> &out) {
  return OpenClQueue::create(*this, out);
}

SluiceStatus OpenClDevice::allocate(SluiceUsmKind kind, size_t bytes,
                                    size_t alignment, void *&out) {
  return usmAllocate(ctx.intelUsm(), usmSupport, ctx.handle(), dev, kind, bytes,
                     alignment, out);
}

void OpenClDevice::deallocate(SluiceUsmKind, void *ptr) {
  usmFree(ctx.intelUsm(), usmSupport, ctx.handle(), ptr);
}

SluiceStatus OpenClDevice::buildModule(SluiceModuleFormat format,
                                       const void *bytes, size_t size,
                                       Ref<Module> &out, std::string &log) {
  return OpenClModule::build(*this, format, bytes, size, out, log);
}

namespace {
std::string collapseSpaces(const std::string &s) {
  std::string out;
  for (char c : s)
    if (c != ' ' || (!out.empty() && out.back() != ' '))
      out += c;
  while (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out;
}
} // namespace

DeviceProperties queryProperties(cl_platform_id platform, cl_device_id device,
                                 const UsmSupport &usm, bool takesSpirvIl,
                                 bool canTranslateSpirv) {
  DeviceProperties p;
  p.backend = SLUICE_BACKEND_OPENCL;
  cl_device_type type = deviceInfo<cl_device_type>(device, CL_DEVICE_TYPE);
  p.type = (type & CL_DEVICE_TYPE_GPU)   ? SLUICE_DEVICE_TYPE_GPU
           : (type & CL_DEVICE_TYPE_CPU) ? SLUICE_DEVICE_TYPE_CPU
                                         : SLUICE_DEVICE_TYPE_ACCELERATOR;
  p.name = deviceString(device, CL_DEVICE_NAME);
  p.vendor = deviceString(device, CL_DEVICE_VENDOR);
  p.driverVersion = deviceString(device, CL_DRIVER_VERSION);
  p.computeUnits = deviceInfo<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
  p.globalMemoryBytes = deviceInfo<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
  p.maxWorkGroupSize =
      deviceInfo<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  std::string extensions = deviceString(device, CL_DEVICE_EXTENSIONS);
  auto hasExtension = [&](const std::string &name) {
    return (" " + extensions + " ").find(" " + name + " ") != std::string::npos;
  };
  p.fp16 = hasExtension("cl_khr_fp16");
  p.fp64 = hasExtension("cl_khr_fp64") ||
           deviceInfo<cl_device_fp_config>(device, CL_DEVICE_DOUBLE_FP_CONFIG);
  p.usmCapabilities = usm.capabilities();
  if (takesSpirvIl || canTranslateSpirv)
    p.moduleFormats |= 1u << SLUICE_MODULE_SPIRV;

  size_t sizes[3] = {0, 0, 0};
  clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes,
                  nullptr);
  p.extra = {
      {"platform", platformString(platform, CL_PLATFORM_NAME)},
      {"platform version", platformString(platform, CL_PLATFORM_VERSION)},
      {"device version", deviceString(device, CL_DEVICE_VERSION)},
      {"OpenCL C version", deviceString(device, CL_DEVICE_OPENCL_C_VERSION)},
      {"IL version",
       takesSpirvIl ? deviceString(device, CL_DEVICE_IL_VERSION) : "(none)"},
      {"SPIR-V loading", takesSpirvIl        ? "clCreateProgramWithIL"
                         : canTranslateSpirv ? "llvm-spirv -r to SPIR 1.2"
                                             : "unsupported"},
      {"USM", usm.describe()},
      {"max work-item sizes", std::to_string(sizes[0]) + " x " +
                                  std::to_string(sizes[1]) + " x " +
                                  std::to_string(sizes[2])},
      {"local memory bytes",
       std::to_string(deviceInfo<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE))},
      {"max clock MHz", std::to_string(deviceInfo<cl_uint>(
                            device, CL_DEVICE_MAX_CLOCK_FREQUENCY))},
      {"extensions", collapseSpaces(extensions)},
  };
  return p;
}

} // namespace sluice::rt::opencl
