//===- OpenClUsm.cpp - USM on OpenCL: Intel USM extension or SVM ----------===//
#include "OpenClUsm.h"

#include "OpenClError.h"

#include "sluice/Runtime/ErrorState.h"

namespace sluice::rt::opencl {

bool IntelUsm::load(cl_platform_id platform) {
  auto get = [&](const char *name) {
    return clGetExtensionFunctionAddressForPlatform(platform, name);
  };
  hostMemAlloc =
      reinterpret_cast<clHostMemAllocINTEL_fn>(get("clHostMemAllocINTEL"));
  deviceMemAlloc =
      reinterpret_cast<clDeviceMemAllocINTEL_fn>(get("clDeviceMemAllocINTEL"));
  sharedMemAlloc =
      reinterpret_cast<clSharedMemAllocINTEL_fn>(get("clSharedMemAllocINTEL"));
  memBlockingFree = reinterpret_cast<clMemBlockingFreeINTEL_fn>(
      get("clMemBlockingFreeINTEL"));
  setKernelArgMemPointer = reinterpret_cast<clSetKernelArgMemPointerINTEL_fn>(
      get("clSetKernelArgMemPointerINTEL"));
  enqueueMemcpy =
      reinterpret_cast<clEnqueueMemcpyINTEL_fn>(get("clEnqueueMemcpyINTEL"));
  enqueueMemFill =
      reinterpret_cast<clEnqueueMemFillINTEL_fn>(get("clEnqueueMemFillINTEL"));
  bool all = hostMemAlloc && deviceMemAlloc && sharedMemAlloc &&
             memBlockingFree && setKernelArgMemPointer && enqueueMemcpy &&
             enqueueMemFill;
  if (!all)
    *this = IntelUsm();
  return all;
}

uint32_t UsmSupport::capabilities() const {
  if (intel)
    return SLUICE_USM_CAP_DEVICE | SLUICE_USM_CAP_SHARED | SLUICE_USM_CAP_HOST;
  uint32_t caps = 0;
  if (svm &
      (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER))
    caps |= SLUICE_USM_CAP_DEVICE;
  // Shared and host memory must be usable by host code without mapping,
  // which coarse-grained SVM does not allow.
  if (svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)
    caps |= SLUICE_USM_CAP_SHARED | SLUICE_USM_CAP_HOST;
  return caps;
}

bool UsmSupport::hostAccessible(SluiceUsmKind kind) const {
  return kind == SLUICE_USM_SHARED || kind == SLUICE_USM_HOST;
}

std::string UsmSupport::describe() const {
  if (intel)
    return "cl_intel_unified_shared_memory";
  if (svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)
    return "SVM (device: coarse-grained, shared/host: fine-grained buffers)";
  if (svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)
    return "SVM (coarse-grained only: device allocations only)";
  return "none";
}

SluiceStatus usmAllocate(const IntelUsm &fns, const UsmSupport &support,
                         cl_context context, cl_device_id device,
                         SluiceUsmKind kind, size_t bytes, size_t alignment,
                         void *&out) {
  cl_int err = CL_SUCCESS;
  if (support.intel) {
    cl_uint align = static_cast<cl_uint>(alignment);
    switch (kind) {
    case SLUICE_USM_DEVICE:
      out = fns.deviceMemAlloc(context, device, nullptr, bytes, align, &err);
      break;
    case SLUICE_USM_SHARED:
      out = fns.sharedMemAlloc(context, device, nullptr, bytes, align, &err);
      break;
    default:
      out = fns.hostMemAlloc(context, nullptr, bytes, align, &err);
      break;
    }
    if (!out)
      return clFail(err,
                    "USM allocation of " + std::to_string(bytes) + " bytes");
    return SLUICE_SUCCESS;
  }
  cl_svm_mem_flags flags = CL_MEM_READ_WRITE;
  if (kind != SLUICE_USM_DEVICE)
    flags |= CL_MEM_SVM_FINE_GRAIN_BUFFER;
  out = clSVMAlloc(context, flags, bytes, static_cast<cl_uint>(alignment));
  if (!out)
    return fail(SLUICE_ERROR_OUT_OF_DEVICE_MEMORY, "OpenCL: clSVMAlloc of " +
                                                       std::to_string(bytes) +
                                                       " bytes failed");
  return SLUICE_SUCCESS;
}

void usmFree(const IntelUsm &fns, const UsmSupport &support, cl_context context,
             void *ptr) {
  if (support.intel)
    fns.memBlockingFree(context, ptr);
  else
    clSVMFree(context, ptr);
}

} // namespace sluice::rt::opencl
