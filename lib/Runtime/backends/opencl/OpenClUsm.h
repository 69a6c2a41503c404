//===- OpenClUsm.h - USM on OpenCL: Intel USM extension or SVM --*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_OPENCL_OPENCLUSM_H
#define SLUICE_LIB_RUNTIME_OPENCL_OPENCLUSM_H

#include "sluice-c/Runtime.h"

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <string>

namespace sluice::rt::opencl {

/// Entry points of cl_intel_unified_shared_memory, looked up per platform.
struct IntelUsm {
  clHostMemAllocINTEL_fn hostMemAlloc = nullptr;
  clDeviceMemAllocINTEL_fn deviceMemAlloc = nullptr;
  clSharedMemAllocINTEL_fn sharedMemAlloc = nullptr;
  clMemBlockingFreeINTEL_fn memBlockingFree = nullptr;
  clSetKernelArgMemPointerINTEL_fn setKernelArgMemPointer = nullptr;
  clEnqueueMemcpyINTEL_fn enqueueMemcpy = nullptr;
  clEnqueueMemFillINTEL_fn enqueueMemFill = nullptr;

  bool load(cl_platform_id platform);
  bool loaded() const { return hostMemAlloc != nullptr; }
};

/// How one device provides USM.
struct UsmSupport {
  bool intel = false; // cl_intel_unified_shared_memory
  cl_device_svm_capabilities svm = 0;

  /// SLUICE_USM_CAP_* bits.
  uint32_t capabilities() const;
  bool hostAccessible(SluiceUsmKind kind) const;
  std::string describe() const;
};

SluiceStatus usmAllocate(const IntelUsm &fns, const UsmSupport &support,
                         cl_context context, cl_device_id device,
                         SluiceUsmKind kind, size_t bytes, size_t alignment,
                         void *&out);
void usmFree(const IntelUsm &fns, const UsmSupport &support, cl_context context,
             void *ptr);

} // namespace sluice::rt::opencl

#endif // SLUICE_LIB_RUNTIME_OPENCL_OPENCLUSM_H
