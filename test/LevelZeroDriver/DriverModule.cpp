//===- DriverModule.cpp - Modules from SPIR-V, build logs, kernels --------===//
#include "DriverState.h"

#include "OpenClModule.h"

#include "sluice/Runtime/ErrorState.h"

#include <cstring>

namespace sluice::zetest {

namespace {

BuildLog *newBuildLog(std::string text) {
  auto log = std::make_unique<BuildLog>();
  log->text = std::move(text);
  return track(std::move(log));
}

ze_result_t ZE_APICALL moduleCreate(ze_context_handle_t contextHandle,
                                    ze_device_handle_t deviceHandle,
                                    const ze_module_desc_t *desc,
                                    ze_module_handle_t *out,
                                    ze_module_build_log_handle_t *logOut) {
  State &s = state();
  const char *fn = "zeModuleCreate";
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!lookup<Context>(contextHandle, Kind::Context, fn) ||
        !lookup<Device>(deviceHandle, Kind::Device, fn))
      return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out || !desc->pInputModule)
      return misuse(fn, "null argument", ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    if (desc->inputSize == 0)
      return misuse(fn, "inputSize is 0", ZE_RESULT_ERROR_INVALID_SIZE);
    if (desc->pConstants && desc->pConstants->numConstants)
      return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  }
  if (logOut)
    *logOut = nullptr;
  if (desc->format != ZE_MODULE_FORMAT_IL_SPIRV)
    return ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
  // Builds run llvm-spirv and PoCL's compiler: not under the lock.
  Ref<rt::Module> built;
  std::string log;
  SluiceStatus status = s.cl->buildModule(
      SLUICE_MODULE_SPIRV, desc->pInputModule, desc->inputSize, built, log);
  if (status != SLUICE_SUCCESS && status != SLUICE_ERROR_BUILD_FAILED &&
      log.empty())
    log = rt::lastErrorMessage();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto *context = lookup<Context>(contextHandle, Kind::Context, fn);
  auto *device = lookup<Device>(deviceHandle, Kind::Device, fn);
  if (!context || !device)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (logOut)
    *logOut = reinterpret_cast<ze_module_build_log_handle_t>(
        newBuildLog(status == SLUICE_SUCCESS ? built->buildLog() : log));
  if (status == SLUICE_ERROR_BUILD_FAILED)
    return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  if (status != SLUICE_SUCCESS)
    return toResult(status);
  auto module = std::make_unique<Module>();
  module->context = context;
  module->device = device;
  module->module = built;
  *out = reinterpret_cast<ze_module_handle_t>(track(std::move(module)));
  s.modulesCreated++;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL moduleDestroy(ze_module_handle_t handle) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto *module = lookup<Module>(handle, Kind::Module, "zeModuleDestroy");
  if (!module)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  size_t kernels = 0;
  for (auto &entry : s.live)
    if (entry.second->kind == Kind::Kernel &&
        static_cast<Kernel *>(entry.second)->module == module)
      ++kernels;
  if (kernels)
    return misuse("zeModuleDestroy",
                  std::to_string(kernels) + " kernel(s) of the module exist",
                  ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
  destroy(module);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL buildLogGetString(ze_module_build_log_handle_t handle,
                                         size_t *size, char *text) {
  std::lock_guard<std::mutex> lock(state().mutex);
  auto *log =
      lookup<BuildLog>(handle, Kind::BuildLog, "zeModuleBuildLogGetString");
  if (!log)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!size)
    return misuse("zeModuleBuildLogGetString", "pSize is null",
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  if (!text) {
    *size = log->text.size() + 1;
    return ZE_RESULT_SUCCESS;
  }
  if (*size == 0)
    return ZE_RESULT_SUCCESS;
  size_t n = std::min(*size - 1, log->text.size());
  std::memcpy(text, log->text.data(), n);
  text[n] = '\0';
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL buildLogDestroy(ze_module_build_log_handle_t handle) {
  std::lock_guard<std::mutex> lock(state().mutex);
  auto *log =
      lookup<BuildLog>(handle, Kind::BuildLog, "zeModuleBuildLogDestroy");
  if (!log)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  destroy(log);
  return ZE_RESULT_SUCCESS;
}

cl_kernel clKernel(Kernel &kernel) {
  return static_cast<rt::opencl::OpenClKernel *>(kernel.kernel)->handle();
}

ze_result_t ZE_APICALL kernelCreate(ze_module_handle_t handle,
                                    const ze_kernel_desc_t *desc,
                                    ze_kernel_handle_t *out) {
  std::lock_guard<std::mutex> lock(state().mutex);
  auto *module = lookup<Module>(handle, Kind::Module, "zeKernelCreate");
  if (!module)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !desc->pKernelName || !out)
    return misuse("zeKernelCreate", "null argument",
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  rt::Kernel *found = nullptr;
  if (SluiceStatus status = module->module->getKernel(desc->pKernelName, found))
    return status == SLUICE_ERROR_KERNEL_NOT_FOUND
               ? ZE_RESULT_ERROR_INVALID_KERNEL_NAME
               : toResult(status);
  auto kernel = std::make_unique<Kernel>();
  kernel->module = module;
  kernel->kernel = found;
  cl_uint numArgs = 0;
  clGetKernelInfo(clKernel(*kernel), CL_KERNEL_NUM_ARGS, sizeof numArgs,
                  &numArgs, nullptr);
  kernel->numArgs = numArgs;
  kernel->args.resize(numArgs);
  *out = reinterpret_cast<ze_kernel_handle_t>(track(std::move(kernel)));
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernelDestroy(ze_kernel_handle_t handle) {
  std::lock_guard<std::mutex> lock(state().mutex);
  auto *kernel = lookup<Kernel>(handle, Kind::Kernel, "zeKernelDestroy");
  if (!kernel)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  destroy(kernel);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernelSetGroupSize(ze_kernel_handle_t handle, uint32_t x,
                                          uint32_t y, uint32_t z) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  const char *fn = "zeKernelSetGroupSize";
  auto *kernel = lookup<Kernel>(handle, Kind::Kernel, fn);
  if (!kernel)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const uint32_t size[3] = {x, y, z};
  for (int d = 0; d < 3; ++d)
    if (size[d] == 0 || size[d] > s.info.maxGroupSize[d])
      return misuse(fn,
                    "group size " + std::to_string(size[d]) + " in dimension " +
                        std::to_string(d) + " is outside 1.." +
                        std::to_string(s.info.maxGroupSize[d]),
                    ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
  if (uint64_t(x) * y * z > s.info.maxTotalGroupSize)
    return misuse(fn, "the group exceeds maxTotalGroupSize",
                  ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
  std::memcpy(kernel->group, size, sizeof size);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernelSuggestGroupSize(ze_kernel_handle_t handle,
                                              uint32_t globalX,
                                              uint32_t globalY,
                                              uint32_t globalZ, uint32_t *x,
                                              uint32_t *y, uint32_t *z) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!lookup<Kernel>(handle, Kind::Kernel, "zeKernelSuggestGroupSize"))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  // The largest divisor of the global size in x that fits; 1 in y and z.
  uint32_t best = 1;
  uint32_t limit = std::min(s.info.maxGroupSize[0], s.info.maxTotalGroupSize);
  for (uint32_t d = 1; d <= limit && d <= globalX; ++d)
    if (globalX % d == 0)
      best = d;
  (void)globalY;
  (void)globalZ;
  *x = best;
  *y = 1;
  *z = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernelSetArgumentValue(ze_kernel_handle_t handle,
                                              uint32_t index, size_t size,
                                              const void *value) {
  std::lock_guard<std::mutex> lock(state().mutex);
  const char *fn = "zeKernelSetArgumentValue";
  auto *kernel = lookup<Kernel>(handle, Kind::Kernel, fn);
  if (!kernel)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (index >= kernel->numArgs)
    return misuse(fn,
                  "argument index " + std::to_string(index) +
                      " out of range (the kernel takes " +
                      std::to_string(kernel->numArgs) + ")",
                  ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
  if (!value) // local memory arguments: Sluice's kernels have none
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  if (size == 0)
    return misuse(fn, "size is 0",
                  ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  const unsigned char *bytes = static_cast<const unsigned char *>(value);
  kernel->args[index] = std::vector<unsigned char>(bytes, bytes + size);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernelGetProperties(ze_kernel_handle_t handle,
                                           ze_kernel_properties_t *props) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto *kernel = lookup<Kernel>(handle, Kind::Kernel, "zeKernelGetProperties");
  if (!kernel)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!props)
    return misuse("zeKernelGetProperties", "pKernelProperties is null",
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  cl_kernel k = clKernel(*kernel);
  size_t required[3] = {0, 0, 0};
  cl_device_id device = nullptr;
  cl_program program = nullptr;
  clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof program, &program, nullptr);
  if (program)
    clGetProgramInfo(program, CL_PROGRAM_DEVICES, sizeof device, &device,
                     nullptr);
  clGetKernelWorkGroupInfo(k, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                           sizeof required, required, nullptr);
  cl_ulong local = 0, priv = 0;
  clGetKernelWorkGroupInfo(k, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local,
                           &local, nullptr);
  clGetKernelWorkGroupInfo(k, device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv,
                           &priv, nullptr);
  props->numKernelArgs = kernel->numArgs;
  props->requiredGroupSizeX = static_cast<uint32_t>(required[0]);
  props->requiredGroupSizeY = static_cast<uint32_t>(required[1]);
  props->requiredGroupSizeZ = static_cast<uint32_t>(required[2]);
  props->requiredNumSubGroups = 0;
  props->requiredSubgroupSize = 0;
  props->maxSubgroupSize = 1;
  props->maxNumSubgroups = s.info.maxTotalGroupSize;
  props->localMemSize = static_cast<uint32_t>(local);
  props->privateMemSize = static_cast<uint32_t>(priv);
  props->spillMemSize = 0;
  std::memset(&props->uuid, 0, sizeof props->uuid);
  return ZE_RESULT_SUCCESS;
}

} // namespace

void fillModuleTable(ze_module_dditable_t &t) {
  t.pfnCreate = moduleCreate;
  t.pfnDestroy = moduleDestroy;
}

void fillModuleBuildLogTable(ze_module_build_log_dditable_t &t) {
  t.pfnGetString = buildLogGetString;
  t.pfnDestroy = buildLogDestroy;
}

void fillKernelTable(ze_kernel_dditable_t &t) {
  t.pfnCreate = kernelCreate;
  t.pfnDestroy = kernelDestroy;
  t.pfnSetGroupSize = kernelSetGroupSize;
  t.pfnSuggestGroupSize = kernelSuggestGroupSize;
  t.pfnSetArgumentValue = kernelSetArgumentValue;
  t.pfnGetProperties = kernelGetProperties;
}

} // namespace sluice::zetest
