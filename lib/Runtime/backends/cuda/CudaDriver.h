//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// The cuda backend has no build-time dependency on CUDA: the types, constants
// and entry points of the driver API it uses are declared here (with the
// values of cuda.h) and looked up in libcuda.so.1 with dlopen/dlsym when the
// runtime starts. A machine without the driver builds and runs the runtime;
// the backend then reports no devices and says why.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_LIB_RUNTIME_CUDA_CUDADRIVER_H
#define SLUICE_LIB_RUNTIME_CUDA_CUDADRIVER_H

#include "sluice-c/Runtime.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace sluice::rt::cuda {

// Opaque handles and basic types, as cuda.h declares them.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUhostFn = void (*)(void *userData);
using CUgraph = struct CUgraph_st *;
using CUgraphExec = struct CUgraphExec_st *;
using CUgraphNode = struct CUgraphNode_st *;

/// A kernel node of a graph (CUDA_KERNEL_NODE_PARAMS_v2 of cuda.h).
struct CUDA_KERNEL_NODE_PARAMS {
  CUfunction func;
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  void **kernelParams;
  void **extra;
  void *kern;
  CUcontext ctx;
};

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_INVALID_IMAGE = 200;
constexpr CUresult CUDA_ERROR_INVALID_PTX = 218;
constexpr CUresult CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222;
constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
constexpr CUresult CUDA_ERROR_NOT_READY = 600;

// CUdevice_attribute values used by the backend.
enum DeviceAttribute : int {
  kMaxThreadsPerBlock = 1,
  kMaxBlockDimX = 2,
  kMaxBlockDimY = 3,
  kMaxBlockDimZ = 4,
  kMaxGridDimX = 5,
  kMaxGridDimY = 6,
  kMaxGridDimZ = 7,
  kMaxSharedMemoryPerBlock = 8,
  kWarpSize = 10,
  kClockRate = 13,
  kMultiprocessorCount = 16,
  kIntegrated = 18,
  kCanMapHostMemory = 19,
  kEccEnabled = 32,
  kPciBusId = 33,
  kPciDeviceId = 34,
  kMemoryClockRate = 36,
  kGlobalMemoryBusWidth = 37,
  kL2CacheSize = 38,
  kMaxThreadsPerMultiprocessor = 39,
  kUnifiedAddressing = 41,
  kPciDomainId = 50,
  kComputeCapabilityMajor = 75,
  kComputeCapabilityMinor = 76,
  kManagedMemory = 83,
  kConcurrentManagedAccess = 89,
  kMaxSharedMemoryPerBlockOptin = 97,
};

// CUjit_option values.
enum JitOption : int {
  kJitInfoLogBuffer = 3,
  kJitInfoLogBufferSizeBytes = 4,
  kJitErrorLogBuffer = 5,
  kJitErrorLogBufferSizeBytes = 6,
  kJitLogVerbose = 12,
};

// CUfunction_attribute values.
constexpr int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
constexpr int CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr int CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3;
constexpr int CU_FUNC_ATTRIBUTE_NUM_REGS = 4;

// CUpointer_attribute and CUmemorytype values.
constexpr int CU_POINTER_ATTRIBUTE_CONTEXT = 1;
constexpr int CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2;
constexpr int CU_POINTER_ATTRIBUTE_IS_MANAGED = 8;
constexpr int CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9;
constexpr int CU_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11;
constexpr int CU_POINTER_ATTRIBUTE_RANGE_SIZE = 12;
constexpr unsigned CU_MEMORYTYPE_HOST = 1;
constexpr unsigned CU_MEMORYTYPE_DEVICE = 2;

constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
constexpr unsigned CU_EVENT_DEFAULT = 0x0;
constexpr unsigned CU_EVENT_DISABLE_TIMING = 0x2;
constexpr unsigned CU_MEMHOSTALLOC_PORTABLE = 0x1;
constexpr unsigned CU_MEMHOSTALLOC_DEVICEMAP = 0x2;
constexpr unsigned CU_MEM_ATTACH_GLOBAL = 0x1;

/// The driver's entry points. Required ones are non-null once load()
/// succeeded; optional ones (newer drivers) may be null.
struct DriverApi {
  // Initialisation, devices.
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDriverGetVersion)(int *version);
  CUresult (*cuGetErrorName)(CUresult error, const char **name);
  CUresult (*cuGetErrorString)(CUresult error, const char **text);
  CUresult (*cuDeviceGetCount)(int *count);
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
  CUresult (*cuDeviceGetName)(char *name, int length, CUdevice device);
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device);
  CUresult (*cuDeviceTotalMem)(size_t *bytes, CUdevice device);
  // Contexts (the device's primary context).
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device);
  CUresult (*cuCtxGetCurrent)(CUcontext *ctx);
  CUresult (*cuCtxPushCurrent)(CUcontext ctx);
  CUresult (*cuCtxPopCurrent)(CUcontext *ctx);
  // Streams and events.
  CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags);
  CUresult (*cuStreamDestroy)(CUstream stream);
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuStreamQuery)(CUstream stream);
  CUresult (*cuStreamWaitEvent)(CUstream stream, CUevent event, unsigned flags);
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags);
  CUresult (*cuEventDestroy)(CUevent event);
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventQuery)(CUevent event);
  CUresult (*cuEventSynchronize)(CUevent event);
  CUresult (*cuEventElapsedTime)(float *ms, CUevent start, CUevent end);
  // Memory.
  CUresult (*cuMemAlloc)(CUdeviceptr *ptr, size_t bytes);
  CUresult (*cuMemFree)(CUdeviceptr ptr);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *ptr, size_t bytes, unsigned flags);
  CUresult (*cuMemHostAlloc)(void **ptr, size_t bytes, unsigned flags);
  CUresult (*cuMemFreeHost)(void *ptr);
  CUresult (*cuMemGetInfo)(size_t *free, size_t *total);
  CUresult (*cuMemcpyAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                            CUstream stream);
  CUresult (*cuMemsetD8Async)(CUdeviceptr dst, unsigned char value, size_t n,
                              CUstream stream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr dst, unsigned short value, size_t n,
                               CUstream stream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr dst, unsigned value, size_t n,
                               CUstream stream);
  CUresult (*cuPointerGetAttribute)(void *data, int attribute, CUdeviceptr ptr);
  // Modules and launches.
  CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image,
                                 unsigned numOptions, int *options,
                                 void **optionValues);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuModuleGetFunction)(CUfunction *fn, CUmodule module,
                                  const char *name);
  CUresult (*cuFuncGetAttribute)(int *value, int attribute, CUfunction fn);
  CUresult (*cuLaunchKernel)(CUfunction fn, unsigned gx, unsigned gy,
                             unsigned gz, unsigned bx, unsigned by, unsigned bz,
                             unsigned sharedBytes, CUstream stream,
                             void **params, void **extra);
  // Optional (CUDA 12.4+): the offsets and sizes of a kernel's parameters.
  CUresult (*cuFuncGetParamInfo)(CUfunction fn, size_t index, size_t *offset,
                                 size_t *size);
  // Optional (CUDA 12.0+): graphs, to replay repeated launches.
  CUresult (*cuGraphCreate)(CUgraph *graph, unsigned flags);
  CUresult (*cuGraphDestroy)(CUgraph graph);
  CUresult (*cuGraphAddKernelNode)(CUgraphNode *node, CUgraph graph,
                                   const CUgraphNode *deps, size_t numDeps,
                                   const CUDA_KERNEL_NODE_PARAMS *params);
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *exec, CUgraph graph,
                                          unsigned long long flags);
  CUresult (*cuGraphExecDestroy)(CUgraphExec exec);
  CUresult (*cuGraphExecKernelNodeSetParams)(
      CUgraphExec exec, CUgraphNode node,
      const CUDA_KERNEL_NODE_PARAMS *params);
  CUresult (*cuGraphLaunch)(CUgraphExec exec, CUstream stream);
};

/// The loaded driver: `api()` is valid when `available()`.
class Driver {
public:
  /// Loads the library named by $SLUICE_CUDA_DRIVER (default libcuda.so.1)
  /// and calls cuInit once. Thread-safe; never fails hard.
  static Driver &get();

  bool available() const { return ok; }
  /// Why the driver is unavailable (for sluiceBackendGetStatus).
  const std::string &problem() const { return why; }
  const DriverApi &api() const { return fns; }
  /// cuDriverGetVersion, e.g. 13000.
  int version() const { return driverVersion; }
  const std::string &libraryPath() const { return path; }

private:
  Driver();
  bool ok = false;
  std::string why, path;
  int driverVersion = 0;
  DriverApi fns{};
};

inline const DriverApi &cu() { return Driver::get().api(); }

/// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
std::string errorText(CUresult result);
/// Records a failure of driver call `what` and returns the Sluice status
/// that fits it (out of memory -> SLUICE_ERROR_OUT_OF_DEVICE_MEMORY, else
/// SLUICE_ERROR_BACKEND).
SluiceStatus cuFail(CUresult result, const std::string &what);

/// Makes `ctx` current on this thread: for the guard's lifetime when the
/// thread had another context current (a push and a pop), for good when it
/// had none, not at all when it is current already.
class ScopedContext {
public:
  explicit ScopedContext(CUcontext ctx);
  ~ScopedContext();
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;

private:
  bool pushed = false;
};

inline CUdeviceptr devicePtr(const void *p) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(p));
}

} // namespace sluice::rt::cuda

#endif // SLUICE_LIB_RUNTIME_CUDA_CUDADRIVER_H
