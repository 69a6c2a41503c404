//===- CudaDeviceCopy.cpp - Large device-to-device copies as a kernel -----===//
#include "CudaDeviceCopy.h"

#include <cstdlib>
#include <cstring>
#include <string>

namespace sluice::rt::cuda {

namespace {

constexpr unsigned kThreads = 256;
constexpr size_t kDefaultMinimum = size_t(4) << 20;

/// How the kernel moves its data: vectors per thread and the cache
/// qualifiers of its loads and stores. Measured on an H100 (bench/RESULTS.md,
/// "The runtime's copy kernel"): 4 or 8 vectors, `.nc`, `.cs` or `.lu`
/// loads, plain or `.cs` stores all land within 3% of each other at 2^27
/// floats; streaming (`.cs`) loads and stores were ahead at 2^22 and 2^27.
struct Shape {
  unsigned vectors;
  const char *load;
  const char *store;
};
constexpr Shape kShape = {4, ".cs", ".cs"};

/// The kernel's PTX. Block b copies the 16-byte vectors [V T b, V T b + V T)
/// (T threads, V vectors each); thread t copies vectors t, t + T, ..., so
/// that each access of a warp is one contiguous 512-byte run. A thread
/// whose vectors are all in range loads them all before storing the first;
/// the last block's threads copy what is in range one vector at a time.
std::string kernelPtx(const Shape &s) {
  std::string v = std::to_string(s.vectors);
  std::string p = R"(.version 7.0
.target sm_60
.address_size 64

.visible .entry sluice_device_copy16(
    .param .u64 dst_param,
    .param .u64 src_param,
    .param .u64 n_param)
{
  .reg .pred %p<3>;
  .reg .b32 %r<)" + std::to_string(4 * s.vectors + 4) +
                  R"(>;
  .reg .b64 %rd<13>;

  ld.param.u64 %rd1, [dst_param];
  ld.param.u64 %rd2, [src_param];
  ld.param.u64 %rd3, [n_param];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mul.wide.u32 %rd4, %r1, %r2;
  mul.lo.u64 %rd4, %rd4, )" + v + R"(;
  cvt.u64.u32 %rd5, %r3;
  add.u64 %rd4, %rd4, %rd5;
  cvt.u64.u32 %rd5, %r2;
  mad.lo.u64 %rd6, %rd5, )" + std::to_string(s.vectors - 1) +
                  R"(, %rd4;
  shl.b64 %rd7, %rd4, 4;
  shl.b64 %rd8, %rd5, 4;
  add.u64 %rd9, %rd2, %rd7;
  add.u64 %rd10, %rd1, %rd7;
  setp.ge.u64 %p1, %rd6, %rd3;
  @%p1 bra $L_tail;
  mov.u64 %rd11, %rd9;
  mov.u64 %rd12, %rd10;
)";
  auto regs = [](unsigned k) {
    std::string r = "{";
    for (unsigned i = 0; i < 4; ++i)
      r += (i ? ", %r" : "%r") + std::to_string(4 + 4 * k + i);
    return r + "}";
  };
  for (unsigned k = 0; k < s.vectors; ++k) {
    if (k)
      p += "  add.u64 %rd11, %rd11, %rd8;\n";
    p += std::string("  ld.global") + s.load + ".v4.u32 " + regs(k) +
         ", [%rd11];\n";
  }
  for (unsigned k = 0; k < s.vectors; ++k) {
    if (k)
      p += "  add.u64 %rd12, %rd12, %rd8;\n";
    p += std::string("  st.global") + s.store + ".v4.u32 [%rd12], " +
         regs(k) + ";\n";
  }
  p += std::string(R"(  ret;
$L_tail:
  setp.ge.u64 %p2, %rd4, %rd3;
  @%p2 ret;
  ld.global)") + s.load +
       R"(.v4.u32 {%r4, %r5, %r6, %r7}, [%rd9];
  st.global)" + s.store +
       R"(.v4.u32 [%rd10], {%r4, %r5, %r6, %r7};
  add.u64 %rd4, %rd4, %rd5;
  add.u64 %rd9, %rd9, %rd8;
  add.u64 %rd10, %rd10, %rd8;
  bra $L_tail;
}
)";
  return p;
}

/// Device memory (not managed) of `ctx`.
bool ownDeviceMemory(CUcontext ctx, CUdeviceptr p) {
  const DriverApi &f = cu();
  CUcontext owner = nullptr;
  unsigned type = 0;
  int managed = 1;
  return f.cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, p) ==
             CUDA_SUCCESS &&
         owner == ctx &&
         f.cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p) ==
             CUDA_SUCCESS &&
         type == CU_MEMORYTYPE_DEVICE &&
         f.cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                 p) == CUDA_SUCCESS &&
         !managed;
}

} // namespace

size_t DeviceCopy::minimumBytes() {
  static const size_t minimum = [] {
    const char *env = std::getenv("SLUICE_CUDA_COPY_KERNEL");
    if (!env || !*env)
      return kDefaultMinimum;
    if (std::strcmp(env, "off") == 0)
      return size_t(0);
    char *end = nullptr;
    unsigned long long v = std::strtoull(env, &end, 10);
    return *end ? kDefaultMinimum : size_t(v);
  }();
  return minimum;
}

bool DeviceCopy::loaded() {
  std::lock_guard<std::mutex> lock(mutex);
  if (!tried) {
    tried = true;
    std::string ptx = kernelPtx(kShape);
    if (cu().cuModuleLoadDataEx(&module, ptx.c_str(), 0, nullptr, nullptr) !=
            CUDA_SUCCESS ||
        cu().cuModuleGetFunction(&function, module, "sluice_device_copy16") !=
            CUDA_SUCCESS)
      function = nullptr;
  }
  return function != nullptr;
}

bool DeviceCopy::applies(CUcontext ctx, CUdeviceptr dst, CUdeviceptr src,
                         size_t bytes) {
  size_t minimum = minimumBytes();
  if (minimum == 0 || bytes < minimum || bytes < 16 || (dst | src) % 16 != 0 ||
      bytes / 16 / (kShape.vectors * kThreads) >= 0x7fffffffu)
    return false;
  if (dst < src + bytes && src < dst + bytes)
    return false; // overlapping: the driver's rules
  return ownDeviceMemory(ctx, dst) && ownDeviceMemory(ctx, src) && loaded();
}

CUresult DeviceCopy::enqueue(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                             CUstream stream) {
  uint64_t vectors = bytes / 16;
  uint64_t perBlock = uint64_t(kShape.vectors) * kThreads;
  uint64_t blocks = (vectors + perBlock - 1) / perBlock;
  void *params[] = {&dst, &src, &vectors};
  return cu().cuLaunchKernel(function, unsigned(blocks), 1, 1, kThreads, 1, 1,
                             0, stream, params, nullptr);
}

} // namespace sluice::rt::cuda
