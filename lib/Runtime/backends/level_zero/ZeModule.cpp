//===- ZeModule.cpp - Level Zero modules built from SPIR-V ----------------===//
#include "ZeModule.h"

#include "ZeContext.h"
#include "ZeDevice.h"
#include "ZeError.h"

#include "sluice/Runtime/ErrorState.h"

#include <cstring>

namespace sluice::rt::level_zero {

namespace {

bool isSpirv(const void *bytes, size_t size) {
  if (size < 20 || size % 4)
    return false;
  uint32_t magic;
  std::memcpy(&magic, bytes, 4);
  return magic == 0x07230203u;
}

std::string readBuildLog(ze_module_build_log_handle_t buildLog) {
  size_t size = 0;
  if (!buildLog || zeModuleBuildLogGetString(buildLog, &size, nullptr) ||
      size <= 1)
    return "";
  std::string text(size, '\0');
  if (zeModuleBuildLogGetString(buildLog, &size, text.data()))
    return "";
  while (!text.empty() && (text.back() == '\0' || text.back() == '\n'))
    text.pop_back();
  return text;
}

} // namespace

SluiceStatus buildZeModule(ZeDevice &device, const void *bytes, size_t size,
                           ze_module_handle_t &out, std::string &log) {
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                        nullptr,
                        ZE_MODULE_FORMAT_IL_SPIRV,
                        size,
                        static_cast<const uint8_t *>(bytes),
                        "",
                        nullptr};
  ze_module_build_log_handle_t buildLog = nullptr;
  out = nullptr;
  ze_result_t r = zeModuleCreate(device.zeContext().handle(), device.handle(),
                                 &desc, &out, &buildLog);
  std::string text = readBuildLog(buildLog);
  if (buildLog)
    zeModuleBuildLogDestroy(buildLog);
  if (r == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY ||
      r == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
    return zeFail(r, "zeModuleCreate");
  if (r != ZE_RESULT_SUCCESS) {
    log = std::string("zeModuleCreate failed with ") + zeResultName(r) +
          (text.empty() ? "" : ":\n" + text);
    return SLUICE_ERROR_BUILD_FAILED;
  }
  log = text;
  return SLUICE_SUCCESS;
}

SluiceStatus ZeModule::build(ZeDevice &device, SluiceModuleFormat format,
                             const void *bytes, size_t size, Ref<Module> &out,
                             std::string &log) {
  if (format != SLUICE_MODULE_SPIRV)
    return fail(SLUICE_ERROR_UNSUPPORTED,
                "the Level Zero backend loads SPIR-V modules only");
  if (!isSpirv(bytes, size)) {
    log = "not a SPIR-V module (bad magic number or size)";
    return SLUICE_ERROR_BUILD_FAILED;
  }
  ZeContext &ctx = device.zeContext();
  ZeContext::Use use(ctx);
  if (!use)
    return shutDownFailure();
  ze_module_handle_t module = nullptr;
  if (SluiceStatus status = buildZeModule(device, bytes, size, module, log))
    return status;
  const unsigned char *p = static_cast<const unsigned char *>(bytes);
  out = Ref<Module>::adopt(new ZeModule(
      ctx, device, module, std::vector<unsigned char>(p, p + size), log));
  return SLUICE_SUCCESS;
}

ZeModule::ZeModule(ZeContext &context, ZeDevice &device,
                   ze_module_handle_t module, std::vector<unsigned char> spirv,
                   std::string log)
    : Module(context, std::move(log)), ctx(context), first(device),
      spirv(std::move(spirv)) {
  built[&device] = module;
  ctx.track(this);
}

ZeModule::~ZeModule() {
  ZeContext::Use use(ctx);
  ctx.untrack(this);
  if (use)
    destroyHandles();
  // The base class deletes the ZeKernel objects, whose handles are gone.
}

void ZeModule::destroyHandles() {
  std::lock_guard<std::mutex> lock(mutex);
  for (ZeKernel *kernel : kernels)
    kernel->destroyHandles();
  for (auto &entry : built)
    zeModuleDestroy(entry.second);
  built.clear();
}

void ZeModule::destroyForShutDown() { destroyHandles(); }

SluiceStatus ZeModule::handleFor(ZeDevice &device, ze_module_handle_t &out) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = built.find(&device);
  if (it != built.end()) {
    out = it->second;
    return SLUICE_SUCCESS;
  }
  std::string log;
  if (SluiceStatus status =
          buildZeModule(device, spirv.data(), spirv.size(), out, log)) {
    if (status != SLUICE_ERROR_BUILD_FAILED)
      return status;
    setLastBuildLog(log);
    return fail(status, "SPIR-V module failed to build for " +
                            device.filterString() + ":\n" + log);
  }
  built[&device] = out;
  return SLUICE_SUCCESS;
}

SluiceStatus ZeModule::createKernel(const std::string &name,
                                    std::unique_ptr<Kernel> &out) {
  ZeContext::Use use(ctx);
  if (!use)
    return shutDownFailure();
  auto kernel = std::make_unique<ZeKernel>(*this, name);
  // Looking the kernel up on the first device checks that it exists.
  ze_kernel_handle_t handle;
  uint32_t numArgs;
  if (SluiceStatus status = kernel->handleFor(first, handle, numArgs))
    return status;
  {
    std::lock_guard<std::mutex> lock(mutex);
    kernels.push_back(kernel.get());
  }
  out = std::move(kernel);
  return SLUICE_SUCCESS;
}

// Handles are destroyed by the module (kernels before their module).
ZeKernel::~ZeKernel() = default;

SluiceStatus ZeKernel::handleFor(ZeDevice &device, ze_kernel_handle_t &out,
                                 uint32_t &numArgs) {
  std::lock_guard<std::mutex> lock(handlesMutex);
  auto it = handles.find(&device);
  if (it != handles.end()) {
    out = it->second.handle;
    numArgs = it->second.numArgs;
    return SLUICE_SUCCESS;
  }
  ze_module_handle_t module = nullptr;
  if (SluiceStatus status =
          static_cast<ZeModule &>(this->module()).handleFor(device, module))
    return status;
  ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0,
                        name().c_str()};
  ze_kernel_handle_t kernel = nullptr;
  if (ze_result_t r = zeKernelCreate(module, &desc, &kernel)) {
    if (r == ZE_RESULT_ERROR_INVALID_KERNEL_NAME)
      return fail(SLUICE_ERROR_KERNEL_NOT_FOUND,
                  "no kernel named '" + name() + "' in the SPIR-V module");
    return zeFail(r, "zeKernelCreate('" + name() + "')");
  }
  ze_kernel_properties_t props{};
  props.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
  if (ze_result_t r = zeKernelGetProperties(kernel, &props)) {
    zeKernelDestroy(kernel);
    return zeFail(r, "zeKernelGetProperties('" + name() + "')");
  }
  handles[&device] = {kernel, props.numKernelArgs};
  out = kernel;
  numArgs = props.numKernelArgs;
  return SLUICE_SUCCESS;
}

void ZeKernel::destroyHandles() {
  std::lock_guard<std::mutex> lock(handlesMutex);
  for (auto &entry : handles)
    zeKernelDestroy(entry.second.handle);
  handles.clear();
}

} // namespace sluice::rt::level_zero
