//===- CudaModule.cpp - CUDA modules from PTX or CUBIN --------------------===//
#include "CudaModule.h"

#include "CudaDevice.h"

#include "sluice/Runtime/ErrorState.h"

#include <cstring>

namespace sluice::rt::cuda {

namespace {

constexpr unsigned kLogBytes = 64 * 1024;

bool isElf(const void *bytes, size_t size) {
  return size >= 4 && std::memcmp(bytes,
                                  "\x7f"
                                  "ELF",
                                  4) == 0;
}

bool isFatbin(const void *bytes, size_t size) {
  uint32_t magic = 0;
  if (size < 4)
    return false;
  std::memcpy(&magic, bytes, 4);
  return magic == 0xBA55ED50u;
}

std::string trimLog(const char *buffer) {
  std::string s(buffer, strnlen(buffer, kLogBytes));
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.pop_back();
  return s;
}

} // namespace

CudaModule::CudaModule(CudaContext &ctx, CUmodule module, std::string log)
    : Module(ctx, std::move(log)), cudaCtx(ctx), module(module) {}

CudaModule::~CudaModule() {
  ScopedContext current(cudaCtx.handle());
  cu().cuModuleUnload(module);
}

SluiceStatus CudaModule::build(CudaDevice &device, SluiceModuleFormat format,
                               const void *bytes, size_t size, Ref<Module> &out,
                               std::string &log) {
  if (format != SLUICE_MODULE_PTX && format != SLUICE_MODULE_CUBIN)
    return fail(SLUICE_ERROR_UNSUPPORTED,
                "the CUDA backend loads PTX and CUBIN modules only");
  std::string ptx;
  const void *image = bytes;
  if (format == SLUICE_MODULE_PTX) {
    if (isElf(bytes, size) || isFatbin(bytes, size)) {
      log = "the binary is a CUBIN or fatbin, not PTX text (load it as "
            "SLUICE_MODULE_CUBIN)";
      return SLUICE_ERROR_BUILD_FAILED;
    }
    // The driver wants NUL-terminated text; binaries often carry one.
    ptx.assign(static_cast<const char *>(bytes), size);
    while (!ptx.empty() && ptx.back() == '\0')
      ptx.pop_back();
    if (ptx.find('\0') != std::string::npos) {
      log = "not PTX text: it holds NUL bytes";
      return SLUICE_ERROR_BUILD_FAILED;
    }
    image = ptx.c_str();
  } else if (!isElf(bytes, size) && !isFatbin(bytes, size)) {
    log = "not a CUBIN: no ELF or fatbin header";
    return SLUICE_ERROR_BUILD_FAILED;
  }

  CudaContext &ctx = device.cudaContext();
  ScopedContext current(ctx.handle());
  std::vector<char> errorLog(kLogBytes, '\0'), infoLog(kLogBytes, '\0');
  int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes,
                   kJitInfoLogBuffer, kJitInfoLogBufferSizeBytes,
                   kJitLogVerbose};
  void *values[] = {
      errorLog.data(), reinterpret_cast<void *>(uintptr_t(kLogBytes - 1)),
      infoLog.data(), reinterpret_cast<void *>(uintptr_t(kLogBytes - 1)),
      reinterpret_cast<void *>(uintptr_t(1))};
  CUmodule module = nullptr;
  CUresult r = cu().cuModuleLoadDataEx(&module, image, 5, options, values);
  std::string errors = trimLog(errorLog.data());
  std::string info = trimLog(infoLog.data());
  if (r != CUDA_SUCCESS) {
    log = "cuModuleLoadDataEx failed with " + errorText(r);
    if (!errors.empty())
      log += ":\n" + errors;
    else if (r == CUDA_ERROR_INVALID_PTX ||
             r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
      log += " (the PTX is for a newer driver or another target than " +
             device.properties().name + ")";
    return r == CUDA_ERROR_OUT_OF_MEMORY ? cuFail(r, "loading a module")
                                         : SLUICE_ERROR_BUILD_FAILED;
  }
  out = Ref<Module>::adopt(new CudaModule(ctx, module, info));
  return SLUICE_SUCCESS;
}

SluiceStatus CudaModule::createKernel(const std::string &name,
                                      std::unique_ptr<Kernel> &out) {
  ScopedContext current(cudaCtx.handle());
  CUfunction fn = nullptr;
  CUresult r = cu().cuModuleGetFunction(&fn, module, name.c_str());
  if (r == CUDA_ERROR_NOT_FOUND)
    return fail(SLUICE_ERROR_KERNEL_NOT_FOUND,
                "no kernel named '" + name + "' in the CUDA module");
  if (r != CUDA_SUCCESS)
    return cuFail(r, "cuModuleGetFunction('" + name + "')");
  auto kernel = std::make_unique<CudaKernel>(*this, name, fn);
  int maxThreads = 0;
  if (cu().cuFuncGetAttribute(&maxThreads,
                              CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                              fn) == CUDA_SUCCESS)
    kernel->maxThreadsPerBlock = maxThreads;
  if (cu().cuFuncGetParamInfo) {
    // Parameters are numbered densely; the first index that fails ends them.
    // An index past the last one is an invalid value; any other failure
    // leaves the parameters unknown (and unchecked).
    size_t offset = 0, size = 0;
    CUresult pr = CUDA_SUCCESS;
    while (kernel->paramSizes.size() < 4096 &&
           (pr = cu().cuFuncGetParamInfo(fn, kernel->paramSizes.size(), &offset,
                                         &size)) == CUDA_SUCCESS)
      kernel->paramSizes.push_back(size);
    kernel->paramsKnown = pr == CUDA_ERROR_INVALID_VALUE;
  }
  out = std::move(kernel);
  return SLUICE_SUCCESS;
}

} // namespace sluice::rt::cuda
