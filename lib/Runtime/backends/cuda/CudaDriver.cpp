//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//
#include "CudaDriver.h"

#include "sluice/Runtime/ErrorState.h"

#include <cstdlib>
#include <dlfcn.h>

namespace sluice::rt::cuda {

namespace {

/// Looks up the first of `names` that the library exports.
template <typename Fn>
bool bind(void *lib, Fn &slot, std::initializer_list<const char *> names) {
  for (const char *name : names)
    if (void *sym = dlsym(lib, name)) {
      slot = reinterpret_cast<Fn>(sym);
      return true;
    }
  slot = nullptr;
  return false;
}

} // namespace

Driver &Driver::get() {
  // Never destroyed: streams and events may be released at exit.
  static Driver *driver = new Driver();
  return *driver;
}

Driver::Driver() {
  const char *env = std::getenv("SLUICE_CUDA_DRIVER");
  path = env && *env ? env : "libcuda.so.1";
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *e = dlerror();
    why = "no NVIDIA driver: " + path + " cannot be loaded (" +
          (e ? e : "unknown error") + ")";
    return;
  }
  // The names the driver exports for each entry point of API version 12+
  // (cuda.h maps e.g. cuMemAlloc to cuMemAlloc_v2).
  std::string missing;
  auto need = [&](auto &slot, std::initializer_list<const char *> names) {
    if (!bind(lib, slot, names))
      missing += (missing.empty() ? "" : ", ") + std::string(*names.begin());
  };
  DriverApi &f = fns;
  need(f.cuInit, {"cuInit"});
  need(f.cuDriverGetVersion, {"cuDriverGetVersion"});
  need(f.cuGetErrorName, {"cuGetErrorName"});
  need(f.cuGetErrorString, {"cuGetErrorString"});
  need(f.cuDeviceGetCount, {"cuDeviceGetCount"});
  need(f.cuDeviceGet, {"cuDeviceGet"});
  need(f.cuDeviceGetName, {"cuDeviceGetName"});
  need(f.cuDeviceGetAttribute, {"cuDeviceGetAttribute"});
  need(f.cuDeviceTotalMem, {"cuDeviceTotalMem_v2"});
  need(f.cuDevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"});
  need(f.cuDevicePrimaryCtxRelease, {"cuDevicePrimaryCtxRelease_v2"});
  need(f.cuCtxGetCurrent, {"cuCtxGetCurrent"});
  need(f.cuCtxPushCurrent, {"cuCtxPushCurrent_v2"});
  need(f.cuCtxPopCurrent, {"cuCtxPopCurrent_v2"});
  need(f.cuStreamCreate, {"cuStreamCreate"});
  need(f.cuStreamDestroy, {"cuStreamDestroy_v2"});
  need(f.cuStreamSynchronize, {"cuStreamSynchronize"});
  need(f.cuStreamQuery, {"cuStreamQuery"});
  need(f.cuStreamWaitEvent, {"cuStreamWaitEvent"});
  need(f.cuEventCreate, {"cuEventCreate"});
  need(f.cuEventDestroy, {"cuEventDestroy_v2"});
  need(f.cuEventRecord, {"cuEventRecord"});
  need(f.cuEventQuery, {"cuEventQuery"});
  need(f.cuEventSynchronize, {"cuEventSynchronize"});
  need(f.cuEventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"});
  need(f.cuMemAlloc, {"cuMemAlloc_v2"});
  need(f.cuMemFree, {"cuMemFree_v2"});
  need(f.cuMemAllocManaged, {"cuMemAllocManaged"});
  need(f.cuMemHostAlloc, {"cuMemHostAlloc"});
  need(f.cuMemFreeHost, {"cuMemFreeHost"});
  need(f.cuMemGetInfo, {"cuMemGetInfo_v2"});
  need(f.cuMemcpyAsync, {"cuMemcpyAsync"});
  need(f.cuMemsetD8Async, {"cuMemsetD8Async"});
  need(f.cuMemsetD16Async, {"cuMemsetD16Async"});
  need(f.cuMemsetD32Async, {"cuMemsetD32Async"});
  need(f.cuPointerGetAttribute, {"cuPointerGetAttribute"});
  need(f.cuModuleLoadDataEx, {"cuModuleLoadDataEx"});
  need(f.cuModuleUnload, {"cuModuleUnload"});
  need(f.cuModuleGetFunction, {"cuModuleGetFunction"});
  need(f.cuFuncGetAttribute, {"cuFuncGetAttribute"});
  need(f.cuLaunchKernel, {"cuLaunchKernel"});
  bind(lib, f.cuFuncGetParamInfo, {"cuFuncGetParamInfo"});
  bind(lib, f.cuGraphCreate, {"cuGraphCreate"});
  bind(lib, f.cuGraphDestroy, {"cuGraphDestroy"});
  bind(lib, f.cuGraphAddKernelNode, {"cuGraphAddKernelNode_v2"});
  bind(lib, f.cuGraphInstantiateWithFlags, {"cuGraphInstantiateWithFlags"});
  bind(lib, f.cuGraphExecDestroy, {"cuGraphExecDestroy"});
  bind(lib, f.cuGraphExecKernelNodeSetParams,
       {"cuGraphExecKernelNodeSetParams_v2"});
  bind(lib, f.cuGraphLaunch, {"cuGraphLaunch"});
  if (!missing.empty()) {
    why = "the CUDA driver " + path + " is too old: it lacks " + missing;
    return;
  }
  if (CUresult r = f.cuInit(0)) {
    why = "cuInit failed: " + errorText(r);
    return;
  }
  f.cuDriverGetVersion(&driverVersion);
  ok = true;
}

std::string errorText(CUresult result) {
  const DriverApi &f = cu();
  const char *name = nullptr, *text = nullptr;
  if (f.cuGetErrorName)
    f.cuGetErrorName(result, &name);
  if (f.cuGetErrorString)
    f.cuGetErrorString(result, &text);
  std::string s = name ? name : "CUDA error " + std::to_string(result);
  if (text && *text)
    s += std::string(" (") + text + ")";
  return s;
}

SluiceStatus cuFail(CUresult result, const std::string &what) {
  SluiceStatus status = result == CUDA_ERROR_OUT_OF_MEMORY
                            ? SLUICE_ERROR_OUT_OF_DEVICE_MEMORY
                            : SLUICE_ERROR_BACKEND;
  return fail(status, "CUDA: " + what + " failed: " + errorText(result));
}

ScopedContext::ScopedContext(CUcontext ctx) {
  const DriverApi &f = cu();
  CUcontext current = nullptr;
  if (f.cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == ctx)
    return;
  // A thread with no context (the runtime's own threads, most callers')
  // keeps ours: one driver call next time instead of three. Another
  // context stays the thread's once the guard ends.
  if (!current && f.cuCtxPushCurrent(ctx) == CUDA_SUCCESS)
    return;
  pushed = f.cuCtxPushCurrent(ctx) == CUDA_SUCCESS;
}

ScopedContext::~ScopedContext() {
  if (pushed) {
    CUcontext popped;
    cu().cuCtxPopCurrent(&popped);
  }
}

} // namespace sluice::rt::cuda
