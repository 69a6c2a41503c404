//===- CudaDeviceCopy.cpp - Large device-to-device copies as a kernel -----===//
#include "CudaDeviceCopy.h"

#include "sluice/Runtime/ByteSize.h"

#include <cstdlib>
#include <cstring>
#include <string>

namespace sluice::rt::cuda {

namespace {

constexpr unsigned kThreads = 256;
constexpr size_t kDefaultMinimum = size_t(1) << 20;

/// How the kernels move their data: vectors per thread and the cache
/// qualifiers of their loads and stores. Measured on an H100 (bench/RESULTS.md,
/// "The runtime's copy kernel"): 4 or 8 vectors, `.nc`, `.cs` or `.lu`
/// loads, plain or `.cs` stores all land within 3% of each other at 2^27
/// floats; streaming (`.cs`) loads and stores were ahead at 2^22 and 2^27.
constexpr unsigned kVectors = 4;
constexpr const char *kLoad = ".cs";
constexpr const char *kStore = ".cs";

/// The PTX of the kernel that copies elements of `width` bytes (16: four
/// 32-bit words at a time; 4: one). Block b copies the elements
/// [V T b, V T b + V T) (T threads, V elements each); thread t copies
/// elements t, t + T, ..., so that each access of a warp is one contiguous
/// run. A thread whose elements are all in range loads them all before
/// storing the first; the last block's threads copy what is in range one
/// element at a time.
std::string kernelPtx(unsigned width) {
  bool vector = width == 16;
  std::string type = vector ? ".v4.u32" : ".u32";
  std::string shift = vector ? "4" : "2";
  auto regs = [&](unsigned k) {
    if (!vector)
      return "%r" + std::to_string(4 + k);
    std::string r = "{";
    for (unsigned i = 0; i < 4; ++i)
      r += (i ? ", %r" : "%r") + std::to_string(4 + 4 * k + i);
    return r + "}";
  };
  std::string w = std::to_string(width);
  std::string p = ".visible .entry sluice_device_copy" + w + R"((
    .param .u64 dst_param,
    .param .u64 src_param,
    .param .u64 n_param)
{
  .reg .pred %p<3>;
  .reg .b32 %r<)" +
                  std::to_string(4 * kVectors + 4) +
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
  mul.lo.u64 %rd4, %rd4, )" +
                  std::to_string(kVectors) +
                  R"(;
  cvt.u64.u32 %rd5, %r3;
  add.u64 %rd4, %rd4, %rd5;
  cvt.u64.u32 %rd5, %r2;
  mad.lo.u64 %rd6, %rd5, )" +
                  std::to_string(kVectors - 1) +
                  R"(, %rd4;
  shl.b64 %rd7, %rd4, )" +
                  shift + R"(;
  shl.b64 %rd8, %rd5, )" +
                  shift + R"(;
  add.u64 %rd9, %rd2, %rd7;
  add.u64 %rd10, %rd1, %rd7;
  setp.ge.u64 %p1, %rd6, %rd3;
  @%p1 bra $L_tail)" +
                  w + R"(;
  mov.u64 %rd11, %rd9;
  mov.u64 %rd12, %rd10;
)";
  for (unsigned k = 0; k < kVectors; ++k) {
    if (k)
      p += "  add.u64 %rd11, %rd11, %rd8;\n";
    p += std::string("  ld.global") + kLoad + type + " " + regs(k) +
         ", [%rd11];\n";
  }
  for (unsigned k = 0; k < kVectors; ++k) {
    if (k)
      p += "  add.u64 %rd12, %rd12, %rd8;\n";
    p += std::string("  st.global") + kStore + type + " [%rd12], " + regs(k) +
         ";\n";
  }
  p += "  ret;\n$L_tail" + w + ":\n";
  p += "  setp.ge.u64 %p2, %rd4, %rd3;\n  @%p2 ret;\n";
  p +=
      std::string("  ld.global") + kLoad + type + " " + regs(0) + ", [%rd9];\n";
  p += std::string("  st.global") + kStore + type + " [%rd10], " + regs(0) +
       ";\n";
  p += "  add.u64 %rd4, %rd4, %rd5;\n  add.u64 %rd9, %rd9, %rd8;\n"
       "  add.u64 %rd10, %rd10, %rd8;\n  bra $L_tail" +
       w + ";\n}\n";
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
    if (env && std::strcmp(env, "off") == 0)
      return size_t(0);
    uint64_t bytes = 0;
    return parseByteSize(env, bytes) ? size_t(bytes) : kDefaultMinimum;
  }();
  return minimum;
}

bool DeviceCopy::loaded() {
  std::lock_guard<std::mutex> lock(mutex);
  if (!tried) {
    tried = true;
    std::string ptx = ".version 7.0\n.target sm_60\n.address_size 64\n\n" +
                      kernelPtx(16) + "\n" + kernelPtx(4);
    if (cu().cuModuleLoadDataEx(&module, ptx.c_str(), 0, nullptr, nullptr) !=
            CUDA_SUCCESS ||
        cu().cuModuleGetFunction(&copy16, module, "sluice_device_copy16") !=
            CUDA_SUCCESS ||
        cu().cuModuleGetFunction(&copy4, module, "sluice_device_copy4") !=
            CUDA_SUCCESS)
      copy16 = copy4 = nullptr;
  }
  return copy16 != nullptr;
}

unsigned DeviceCopy::applies(CUcontext ctx, CUdeviceptr dst, CUdeviceptr src,
                             size_t bytes) {
  size_t minimum = minimumBytes();
  unsigned width = (dst | src) % 16 == 0 ? 16 : (dst | src) % 4 == 0 ? 4 : 0;
  if (minimum == 0 || bytes < minimum || bytes < 16 || !width ||
      bytes / width / (kVectors * kThreads) >= 0x7fffffffu)
    return 0;
  if (dst < src + bytes && src < dst + bytes)
    return 0; // overlapping: the driver's rules
  return ownDeviceMemory(ctx, dst) && ownDeviceMemory(ctx, src) && loaded()
             ? width
             : 0;
}

CUresult DeviceCopy::enqueue(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                             unsigned width, CUstream stream) {
  uint64_t elements = bytes / width;
  uint64_t perBlock = uint64_t(kVectors) * kThreads;
  uint64_t blocks = (elements + perBlock - 1) / perBlock;
  void *params[] = {&dst, &src, &elements};
  return cu().cuLaunchKernel(width == 16 ? copy16 : copy4, unsigned(blocks), 1,
                             1, kThreads, 1, 1, 0, stream, params, nullptr);
}

} // namespace sluice::rt::cuda
