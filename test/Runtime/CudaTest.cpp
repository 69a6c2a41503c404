//===- CudaTest.cpp - The cuda backend ------------------------------------===//
//
// Without a CUDA driver (CI) the backend must report no devices, say why, and
// leave everything else working; those tests run everywhere. The rest need a
// CUDA device and skip, saying so, where there is none. Kernels are written
// by hand in PTX (Inputs/cuda_kernels.ptx, embedded at build time), and
// assembled to a CUBIN for sm_90 where ptxas is found.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include "sluice-c/Program.h"
#include "sluice/Runtime/Queue.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <thread>

#include "cuda_kernels_ptx.inc"
#ifdef SLUICE_TEST_HAVE_CUBIN
#include "cuda_kernels_cubin.inc"
#endif

using namespace sluice::test;

namespace {

/// The first CUDA device, or null with the reason.
SluiceDevice cudaDevice(std::string &why) {
  SluiceDevice d = nullptr;
  if (sluiceDeviceSelect("cuda", &d) != SLUICE_SUCCESS) {
    int built = 0;
    uint32_t n = 0;
    const char *note = "";
    sluiceBackendGetStatus(SLUICE_BACKEND_CUDA, &built, &n, &note);
    why = std::string("no CUDA device (") + note + ")";
    return nullptr;
  }
  return d;
}

#define SKIP_WITHOUT_CUDA(device)                                              \
  std::string whyNoCuda;                                                       \
  SluiceDevice device = cudaDevice(whyNoCuda);                                 \
  if (!device)                                                                 \
  GTEST_SKIP() << whyNoCuda

SluiceQueue canonical(SluiceDevice d) {
  SluiceQueue q = nullptr;
  EXPECT_OK(sluiceQueueGetCanonical(d, &q));
  return q;
}

SluiceModule ptxModule(SluiceDevice d) {
  SluiceModule m = nullptr;
  EXPECT_OK(sluiceModuleCreate(d, SLUICE_MODULE_PTX, kCudaKernelsPtx,
                               kCudaKernelsPtx_size, &m));
  return m;
}

std::string property(SluiceDevice d, const std::string &key) {
  uint32_t count = 0;
  sluiceDeviceGetPropertyCount(d, &count);
  for (uint32_t i = 0; i < count; ++i) {
    const char *k, *v;
    if (sluiceDeviceGetProperty(d, i, &k, &v) == SLUICE_SUCCESS && key == k)
      return v;
  }
  return "";
}

template <typename T> T *alloc(SluiceQueue q, SluiceUsmKind kind, size_t n) {
  void *p = nullptr;
  EXPECT_OK(sluiceMalloc(q, kind, n * sizeof(T), 0, &p));
  return static_cast<T *>(p);
}

void copyWait(SluiceQueue q, void *dst, const void *src, size_t bytes,
              SluiceEvent dep = nullptr) {
  SluiceEvent e;
  ASSERT_OK(sluiceMemcpy(q, dst, src, bytes, dep ? 1 : 0, &dep, &e));
  ASSERT_OK(sluiceEventWait(e));
  sluiceEventRelease(e);
}

/// Runs y = 2.5 * x + y on `n` elements of the given USM kinds (the CUBIN
/// test; PTX runs in BackendConformanceTest.cpp).
[[maybe_unused]] void runAxpy(SluiceDevice d, SluiceModule m,
                              SluiceUsmKind kind) {
  SluiceQueue q = canonical(d);
  SluiceKernel k;
  ASSERT_OK(sluiceKernelGet(m, "axpy", &k));
  const uint64_t n = 100003;
  float *x = alloc<float>(q, kind, n), *y = alloc<float>(q, kind, n);
  std::vector<float> hx(n), hy(n), ref(n), got(n);
  for (uint64_t i = 0; i < n; ++i) {
    hx[i] = float(i % 31) - 7.0f;
    hy[i] = float(i % 17) * 0.25f;
    ref[i] = 2.5f * hx[i] + hy[i];
  }
  SluiceEvent cx, cy;
  ASSERT_OK(sluiceMemcpy(q, x, hx.data(), n * 4, 0, nullptr, &cx));
  ASSERT_OK(sluiceMemcpy(q, y, hy.data(), n * 4, 0, nullptr, &cy));
  float a = 2.5f;
  uint64_t local[3] = {128, 1, 1}, grid[3] = {(n + 127) / 128, 1, 1};
  SluiceKernelArg args[] = {arg(a), arg(x), arg(y), arg(n)};
  SluiceEvent deps[] = {cx, cy}, launched;
  ASSERT_OK(sluiceLaunch(q, k, grid, local, 4, args, 2, deps, &launched));
  copyWait(q, got.data(), y, n * 4, launched);
  EXPECT_EQ(got, ref);
  uint64_t submit = 0, start = 0, end = 0;
  ASSERT_OK(sluiceEventGetProfilingInfo(launched, &submit, &start, &end));
  EXPECT_LE(submit, start);
  EXPECT_LE(start, end);
  for (SluiceEvent e : {cx, cy, launched})
    sluiceEventRelease(e);
  ASSERT_OK(sluiceFree(q, x));
  ASSERT_OK(sluiceFree(q, y));
}

} // namespace

TEST(CudaBackend, ReportsItsStatus) {
  int built = 0;
  uint32_t n = 0;
  const char *note = nullptr;
  ASSERT_OK(sluiceBackendGetStatus(SLUICE_BACKEND_CUDA, &built, &n, &note));
  EXPECT_TRUE(built);
  ASSERT_NE(note, nullptr);
  if (n > 0)
    GTEST_SKIP() << n << " CUDA device(s) visible: the no-device path is "
                 << "covered by CudaBackend.NoDriver";
  // No devices: a reason, selection fails cleanly, the rest still works.
  EXPECT_STRNE(note, "");
  SluiceDevice d = nullptr;
  EXPECT_EQ(sluiceDeviceSelect("cuda", &d), SLUICE_ERROR_DEVICE_NOT_FOUND);
  EXPECT_NE(std::string(sluiceGetLastErrorMessage()).find("cuda"),
            std::string::npos);
  EXPECT_EQ(sluiceDeviceSelect("cuda:gpu:0", &d),
            SLUICE_ERROR_DEVICE_NOT_FOUND);
  ASSERT_OK(sluiceDeviceSelect("", &d));
  SluiceDeviceInfo info;
  ASSERT_OK(sluiceDeviceGetInfo(d, &info));
  EXPECT_NE(info.backend, SLUICE_BACKEND_CUDA);
  // A compiled program asking for the missing device fails with a status.
  sluiceProgramBegin();
  EXPECT_EQ(sluiceProgramQueue("cuda:gpu:0", ""), nullptr);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_DEVICE_NOT_FOUND);
}

// Registered by CMake a second time with SLUICE_CUDA_DRIVER naming a library
// that does not exist, so that the no-driver path runs on GPU machines too.
TEST(CudaBackend, NoDriver) {
  const char *driver = std::getenv("SLUICE_CUDA_DRIVER");
  if (!driver || std::strstr(driver, "does-not-exist") == nullptr)
    GTEST_SKIP() << "runs with SLUICE_CUDA_DRIVER=<a missing library>";
  int built = 0;
  uint32_t n = 7;
  const char *note = nullptr;
  ASSERT_OK(sluiceBackendGetStatus(SLUICE_BACKEND_CUDA, &built, &n, &note));
  EXPECT_TRUE(built);
  EXPECT_EQ(n, 0u);
  EXPECT_NE(std::string(note).find(driver), std::string::npos) << note;
  SluiceDevice d = nullptr;
  EXPECT_EQ(sluiceDeviceSelect("cuda", &d), SLUICE_ERROR_DEVICE_NOT_FOUND);
  uint32_t count = 0;
  ASSERT_OK(sluiceDeviceGetCount(&count));
  EXPECT_GE(count, 1u); // the host is still there
}

TEST(CudaDevice, Properties) {
  SKIP_WITHOUT_CUDA(d);
  SluiceDeviceInfo info;
  ASSERT_OK(sluiceDeviceGetInfo(d, &info));
  EXPECT_EQ(info.backend, SLUICE_BACKEND_CUDA);
  EXPECT_EQ(info.type, SLUICE_DEVICE_TYPE_GPU);
  EXPECT_STREQ(info.filter_string, "cuda:gpu:0");
  EXPECT_STRNE(info.name, "");
  EXPECT_GT(info.compute_units, 0u);
  EXPECT_GT(info.global_memory_bytes, 0u);
  EXPECT_GE(info.max_work_group_size, 256u);
  EXPECT_TRUE(info.usm_capabilities & SLUICE_USM_CAP_DEVICE);
  EXPECT_EQ(info.module_formats,
            (1u << SLUICE_MODULE_PTX) | (1u << SLUICE_MODULE_CUBIN));
  EXPECT_NE(property(d, "compute capability"), "");
  SluiceDevice viaGpu = nullptr;
  ASSERT_OK(sluiceDeviceSelect("gpu", &viaGpu));
  SluiceDeviceInfo gpuInfo;
  ASSERT_OK(sluiceDeviceGetInfo(viaGpu, &gpuInfo));
  // The default device is the first GPU; CUDA is the only GPU backend here
  // unless Level Zero or OpenCL list one first.
  if (gpuInfo.backend == SLUICE_BACKEND_CUDA) {
    EXPECT_EQ(viaGpu, d);
  }
}

// Queue identity, USM of every kind, fills and the axpy kernel on every USM
// kind: BackendConformanceTest.cpp. Here: what is particular to CUDA.
TEST(CudaQueue, EveryQueueIsAStreamOfItsOwn) {
  SKIP_WITHOUT_CUDA(d);
  SluiceQueue a = canonical(d), other = nullptr;
  ASSERT_OK(sluiceQueueCreate(d, &other));
  void *sa = nullptr, *so = nullptr;
  ASSERT_OK(sluiceQueueGetNativeHandle(a, &sa));
  ASSERT_OK(sluiceQueueGetNativeHandle(other, &so));
  EXPECT_NE(sa, nullptr);
  EXPECT_NE(sa, so);
  ASSERT_OK(sluiceQueueWait(other));
  ASSERT_OK(sluiceQueueRelease(other));
}

// The fast default: a queue without the profiling property records no
// event for a task nothing asked about (a driver call saved per task), so
// such a task has no timestamps; with the property every task has them
// (test/Runtime/QueueTest.cpp); an event handed out through the C API while
// it is the queue's newest task has them either way.
TEST(CudaQueue, TasksAreMarkedOnlyOnProfilingQueues) {
  SKIP_WITHOUT_CUDA(d);
  if (const char *env = std::getenv("SLUICE_CUDA_TIMESTAMPS"); env && *env)
    GTEST_SKIP() << "SLUICE_CUDA_TIMESTAMPS=" << env
                 << " overrides the queues' property";
  for (int profiling : {0, 1}) {
    SluiceQueue q = nullptr;
    ASSERT_OK(sluiceQueueCreate(d, &q));
    ASSERT_OK(sluiceQueueSetProfiling(q, profiling));
    void *p = nullptr;
    ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, 1 << 20, 0, &p));
    auto *queue = reinterpret_cast<sluice::rt::Queue *>(q);
    const uint32_t pattern = 7;
    sluice::rt::Ref<sluice::rt::Event> first, second;
    ASSERT_OK(queue->fill(p, &pattern, 4, 1 << 20, {}, first));
    ASSERT_OK(queue->fill(p, &pattern, 4, 1 << 19, {}, second));
    ASSERT_OK(sluiceQueueWait(q));
    uint64_t submit = 0, start = 0, end = 0;
    EXPECT_EQ(first->profiling(submit, start, end) == SLUICE_SUCCESS,
              profiling == 1)
        << "profiling " << profiling << ": " << sluiceGetLastErrorMessage();
    SluiceEvent handed = nullptr;
    ASSERT_OK(sluiceMemset(q, p, 1, 64, 0, nullptr, &handed));
    ASSERT_OK(sluiceQueueWait(q));
    ASSERT_OK(sluiceEventGetProfilingInfo(handed, &submit, &start, &end));
    EXPECT_LE(start, end);
    sluiceEventRelease(handed);
    first = nullptr;
    second = nullptr;
    ASSERT_OK(sluiceFree(q, p));
    ASSERT_OK(sluiceQueueWait(q));
    ASSERT_OK(sluiceQueueRelease(q));
  }
}

TEST(CudaUsm, DeviceToDeviceAndOversizedCopies) {
  SKIP_WITHOUT_CUDA(d);
  SluiceQueue q = canonical(d);
  const size_t n = (1 << 20) + 3;
  std::vector<int32_t> src(n), back(n);
  for (size_t i = 0; i < n; ++i)
    src[i] = int32_t(i * 2654435761u);
  // Device to device between two allocations, and an oversized copy.
  int32_t *a = alloc<int32_t>(q, SLUICE_USM_DEVICE, n);
  int32_t *b = alloc<int32_t>(q, SLUICE_USM_DEVICE, n);
  copyWait(q, a, src.data(), n * 4);
  copyWait(q, b, a, n * 4);
  copyWait(q, back.data(), b, n * 4);
  EXPECT_EQ(back, src);
  SluiceEvent e = nullptr;
  EXPECT_EQ(sluiceMemcpy(q, b, a + 1, n * 4, 0, nullptr, &e),
            SLUICE_ERROR_INVALID_VALUE);
  ASSERT_OK(sluiceFree(q, a));
  ASSERT_OK(sluiceFree(q, b));
}

TEST(CudaUsm, LargeDeviceCopiesAtEveryAlignmentAndTail) {
  // Copies of 1 MiB and more between device allocations run the runtime's
  // copy kernels (CudaDeviceCopy.h): 16-byte elements when both ends are
  // 16-byte aligned, 4-byte ones when both are 4-byte aligned, a shorter
  // tail as a driver copy; the rest, and host or shared ends, stay
  // cuMemcpyAsync. Every case must copy exactly its bytes and nothing
  // around them.
  SKIP_WITHOUT_CUDA(d);
  SluiceQueue q = canonical(d);
  const size_t cap = (size_t(9) << 20) + 4096;
  std::vector<unsigned char> src(cap), got(cap), want(cap);
  for (size_t i = 0; i < cap; ++i)
    src[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
  unsigned char *a = alloc<unsigned char>(q, SLUICE_USM_DEVICE, cap);
  unsigned char *b = alloc<unsigned char>(q, SLUICE_USM_DEVICE, cap);
  unsigned char *s = alloc<unsigned char>(q, SLUICE_USM_SHARED, cap);
  copyWait(q, a, src.data(), cap);
  const size_t big = size_t(4) << 20;
  struct Case {
    size_t from, to, bytes;
  } cases[] = {
      {0, 0, big},                    // whole blocks
      {0, 0, (size_t(1) << 20) - 16}, // just under the threshold
      {0, 0, (size_t(1) << 20)},      // the threshold
      {16, 48, big + 16 * 1000},      // a last block of 1000 vectors
      {0, 0, big + 16 * 1024 + 3},    // a 3-byte tail after the kernel
      {32, 16, (size_t(9) << 20)},    // 9 MiB
      {4, 4, big + 100},              // 4-byte elements
      {16, 8, big + 64},              // the destination 8-byte aligned
      {4, 0, big - 4},                // a[1:] = b[:-1] of float32
      {8, 12, big + 4 * 333 + 2},     // 4-byte elements, a 2-byte tail
      {2, 6, big},                    // 2-byte aligned: the driver's copy
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(std::to_string(c.bytes) + " bytes from offset " +
                 std::to_string(c.from) + " to offset " + std::to_string(c.to));
    ASSERT_LE(c.to + c.bytes, cap);
    ASSERT_OK(sluiceMemset(q, b, 0x5A, cap, 0, nullptr, nullptr));
    copyWait(q, b + c.to, a + c.from, c.bytes);
    copyWait(q, got.data(), b, cap);
    std::fill(want.begin(), want.end(), 0x5A);
    std::memcpy(want.data() + c.to, src.data() + c.from, c.bytes);
    EXPECT_EQ(got, want);
  }
  // Shared and host ends are the driver's copies, with the same result.
  copyWait(q, s, a, big + 32);
  EXPECT_EQ(0, std::memcmp(s, src.data(), big + 32));
  std::vector<unsigned char> host(cap, 0);
  copyWait(q, host.data(), a + 16, big);
  EXPECT_EQ(0, std::memcmp(host.data(), src.data() + 16, big));
  for (void *p :
       {static_cast<void *>(a), static_cast<void *>(b), static_cast<void *>(s)})
    ASSERT_OK(sluiceFree(q, p));
}

TEST(CudaUsm, FillsAtUnalignedOffsets) {
  SKIP_WITHOUT_CUDA(d);
  SluiceQueue q = canonical(d);
  const size_t bytes = 4096 + 256;
  unsigned char *p = alloc<unsigned char>(q, SLUICE_USM_DEVICE, bytes);
  std::vector<unsigned char> got(bytes), want(bytes);
  for (size_t patternSize : {1, 2, 4, 8, 16, 64, 128}) {
    for (size_t offset : {size_t(1), size_t(3)}) {
      SCOPED_TRACE("pattern " + std::to_string(patternSize) + " at offset " +
                   std::to_string(offset));
      unsigned char pattern[128];
      for (size_t i = 0; i < patternSize; ++i)
        pattern[i] = static_cast<unsigned char>(17 * i + patternSize + 1);
      size_t count = (bytes - offset) / patternSize * patternSize;
      std::fill(want.begin(), want.end(), 0xAB);
      ASSERT_OK(sluiceMemset(q, p, 0xAB, bytes, 0, nullptr, nullptr));
      for (size_t i = 0; i < count; ++i)
        want[offset + i] = pattern[i % patternSize];
      SluiceEvent e;
      ASSERT_OK(sluiceFill(q, p + offset, pattern, patternSize, count, 0,
                           nullptr, &e));
      copyWait(q, got.data(), p, bytes, e);
      sluiceEventRelease(e);
      EXPECT_EQ(got, want);
    }
  }
  ASSERT_OK(sluiceFree(q, p));
}

TEST(CudaModule, PtxModuleHasABuildLog) {
  SKIP_WITHOUT_CUDA(d);
  SluiceModule m = ptxModule(d);
  ASSERT_NE(m, nullptr);
  const char *log = nullptr;
  ASSERT_OK(sluiceModuleGetBuildLog(m, &log));
  ASSERT_NE(log, nullptr);
  sluiceModuleRelease(m);
}

TEST(CudaModule, CubinKernel) {
  SKIP_WITHOUT_CUDA(d);
#ifndef SLUICE_TEST_HAVE_CUBIN
  GTEST_SKIP() << "no ptxas at build time: no CUBIN to load";
#else
  if (property(d, "compute capability") != "9.0")
    GTEST_SKIP() << "the test CUBIN is for sm_90, the device is sm_"
                 << property(d, "compute capability");
  SluiceModule m = nullptr;
  ASSERT_OK(sluiceModuleCreate(d, SLUICE_MODULE_CUBIN, kCudaKernelsCubin,
                               kCudaKernelsCubin_size, &m));
  runAxpy(d, m, SLUICE_USM_DEVICE);
  sluiceModuleRelease(m);
#endif
}

TEST(CudaModule, BuildErrorsCarryTheJitLog) {
  SKIP_WITHOUT_CUDA(d);
  const char bad[] = ".version 7.0\n.target sm_70\n.address_size 64\n"
                     ".visible .entry broken()\n{\n  frobnicate.u32 %r1;\n"
                     "  ret;\n}\n";
  SluiceModule m = nullptr;
  EXPECT_EQ(sluiceModuleCreate(d, SLUICE_MODULE_PTX, bad, sizeof bad, &m),
            SLUICE_ERROR_BUILD_FAILED);
  std::string log = sluiceGetLastBuildLog();
  EXPECT_NE(log.find("cuModuleLoadDataEx"), std::string::npos) << log;
  EXPECT_NE(log.find("frobnicate"), std::string::npos) << log;
  EXPECT_NE(std::string(sluiceGetLastErrorMessage()).find("PTX module failed"),
            std::string::npos);
  const char garbage[] = "not a cubin at all";
  EXPECT_EQ(
      sluiceModuleCreate(d, SLUICE_MODULE_CUBIN, garbage, sizeof garbage, &m),
      SLUICE_ERROR_BUILD_FAILED);
  EXPECT_NE(std::string(sluiceGetLastBuildLog()).find("not a CUBIN"),
            std::string::npos);
  EXPECT_EQ(
      sluiceModuleCreate(d, SLUICE_MODULE_SPIRV, garbage, sizeof garbage, &m),
      SLUICE_ERROR_UNSUPPORTED);
}

TEST(CudaModule, LaunchErrors) {
  SKIP_WITHOUT_CUDA(d);
  SluiceModule m = ptxModule(d);
  SluiceKernel k = nullptr;
  EXPECT_EQ(sluiceKernelGet(m, "nope", &k), SLUICE_ERROR_KERNEL_NOT_FOUND);
  ASSERT_OK(sluiceKernelGet(m, "axpy", &k));
  SluiceQueue q = canonical(d);
  float *x = alloc<float>(q, SLUICE_USM_DEVICE, 64);
  float a = 1;
  uint64_t n = 64;
  SluiceKernelArg args[] = {arg(a), arg(x), arg(x), arg(n)};
  uint64_t grid[3] = {1, 1, 1}, local[3] = {2048, 1, 1};
  EXPECT_EQ(sluiceLaunch(q, k, grid, local, 4, args, 0, nullptr, nullptr),
            SLUICE_ERROR_INVALID_VALUE);
  local[0] = 64;
  uint64_t hugeGrid[3] = {1, 1u << 20, 1};
  EXPECT_EQ(sluiceLaunch(q, k, hugeGrid, local, 4, args, 0, nullptr, nullptr),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(sluiceGetLastErrorMessage()).find("exceeds"),
            std::string::npos);
  // Where the driver describes parameters (CUDA 12.4+), counts and sizes
  // are checked.
  SluiceStatus s =
      sluiceLaunch(q, k, grid, local, 3, args, 0, nullptr, nullptr);
  if (s != SLUICE_SUCCESS) {
    EXPECT_EQ(s, SLUICE_ERROR_INVALID_VALUE);
    EXPECT_NE(std::string(sluiceGetLastErrorMessage()).find("takes 4"),
              std::string::npos);
  }
  ASSERT_OK(sluiceQueueWait(q));
  ASSERT_OK(sluiceFree(q, x));
  sluiceModuleRelease(m);
}

TEST(CudaQueue, DependenciesAcrossQueuesAndBackends) {
  SKIP_WITHOUT_CUDA(d);
  SluiceModule m = ptxModule(d);
  SluiceKernel slow;
  ASSERT_OK(sluiceKernelGet(m, "slow_copy", &slow));
  SluiceQueue q1 = canonical(d), q2 = nullptr;
  ASSERT_OK(sluiceQueueCreate(d, &q2));
  const uint64_t n = 1 << 16;
  float *x = alloc<float>(q1, SLUICE_USM_DEVICE, n);
  float *y = alloc<float>(q1, SLUICE_USM_DEVICE, n);
  std::vector<float> hx(n), got(n);
  for (uint64_t i = 0; i < n; ++i)
    hx[i] = float(i) * 0.5f;
  copyWait(q1, x, hx.data(), n * 4);
  ASSERT_OK(sluiceMemset(q1, y, 0, n * 4, 0, nullptr, nullptr));
  ASSERT_OK(sluiceQueueWait(q1));
  // q2 reads y only after q1's slow kernel wrote it.
  uint32_t ms = 30;
  SluiceKernelArg args[] = {arg(x), arg(y), arg(n), arg(ms)};
  uint64_t grid[3] = {n / 256, 1, 1}, local[3] = {256, 1, 1};
  SluiceEvent wrote, read;
  ASSERT_OK(sluiceLaunch(q1, slow, grid, local, 4, args, 0, nullptr, &wrote));
  ASSERT_OK(sluiceMemcpy(q2, got.data(), y, n * 4, 1, &wrote, &read));
  ASSERT_OK(sluiceEventWait(read));
  EXPECT_EQ(got, hx);
  SluiceEventStatus st;
  ASSERT_OK(sluiceEventGetStatus(wrote, &st));
  EXPECT_EQ(st, SLUICE_EVENT_COMPLETE);

  // A host task before a CUDA copy: the host queue fills shared memory that
  // the CUDA queue then copies to the device.
  SluiceDeviceInfo info;
  ASSERT_OK(sluiceDeviceGetInfo(d, &info));
  if (info.usm_capabilities & SLUICE_USM_CAP_SHARED) {
    float *shared = alloc<float>(q1, SLUICE_USM_SHARED, n);
    std::vector<float> ones(n, 1.0f);
    SluiceEvent hostWrote, devRead;
    ASSERT_OK(sluiceMemcpy(hostQueue(), shared, ones.data(), n * 4, 0, nullptr,
                           &hostWrote));
    ASSERT_OK(sluiceMemcpy(q2, y, shared, n * 4, 1, &hostWrote, &devRead));
    copyWait(q2, got.data(), y, n * 4, devRead);
    EXPECT_EQ(got, ones);
    sluiceEventRelease(hostWrote);
    sluiceEventRelease(devRead);
    ASSERT_OK(sluiceFree(q1, shared));
  }
  for (SluiceEvent e : {wrote, read})
    sluiceEventRelease(e);
  ASSERT_OK(sluiceFree(q1, x));
  ASSERT_OK(sluiceFree(q1, y));
  ASSERT_OK(sluiceQueueRelease(q2));
  sluiceModuleRelease(m);
}

TEST(CudaUsm, FreeWaitsForTheKernelsThatUseTheMemory) {
  SKIP_WITHOUT_CUDA(d);
  SluiceModule m = ptxModule(d);
  SluiceKernel slow;
  ASSERT_OK(sluiceKernelGet(m, "slow_copy", &slow));
  SluiceQueue q = canonical(d), other = nullptr;
  ASSERT_OK(sluiceQueueCreate(d, &other));
  const uint64_t n = 1 << 18;
  float *x = alloc<float>(q, SLUICE_USM_DEVICE, n);
  float *y = alloc<float>(q, SLUICE_USM_DEVICE, n);
  std::vector<float> hx(n, 3.0f), got(n);
  copyWait(q, x, hx.data(), n * 4);
  uint32_t ms = 50;
  SluiceKernelArg args[] = {arg(x), arg(y), arg(n), arg(ms)};
  uint64_t grid[3] = {n / 256, 1, 1}, local[3] = {256, 1, 1};
  ASSERT_OK(sluiceLaunch(q, slow, grid, local, 4, args, 0, nullptr, nullptr));
  // Freed while the kernel sleeps: a new allocation of the same size must
  // not get the memory (the pool would hand it out again) before the kernel
  // read it; overwrite the new block on another queue at once.
  ASSERT_OK(sluiceFree(q, x));
  float *z = alloc<float>(other, SLUICE_USM_DEVICE, n);
  ASSERT_OK(sluiceMemset(other, z, 0xFF, n * 4, 0, nullptr, nullptr));
  ASSERT_OK(sluiceQueueWait(other));
  copyWait(q, got.data(), y, n * 4);
  EXPECT_EQ(got, hx);
  ASSERT_OK(sluiceFree(other, z));
  ASSERT_OK(sluiceFree(q, y));
  ASSERT_OK(sluiceQueueRelease(other));
  sluiceModuleRelease(m);
}

// A kernel launched again replays a CUDA graph (unless
// SLUICE_CUDA_GRAPHS=off): the results stay those of direct launches when
// the argument values (pointers, scalars, sizes) or the grid change from
// one launch to the next, in order with copies and with direct launches.
TEST(CudaQueue, RepeatedLaunchesReplayGraphs) {
  SKIP_WITHOUT_CUDA(d);
  const char *env = std::getenv("SLUICE_CUDA_GRAPHS");
  bool graphs = !env || (std::strcmp(env, "off") && std::strcmp(env, "0") &&
                         std::strcmp(env, "false") && std::strcmp(env, "no"));
  SluiceModule m = ptxModule(d);
  SluiceKernel k;
  ASSERT_OK(sluiceKernelGet(m, "axpy", &k));
  SluiceQueue q = nullptr;
  ASSERT_OK(sluiceQueueCreate(d, &q));
  auto *queue = reinterpret_cast<sluice::rt::Queue *>(q);
  const uint64_t big = 100003;
  float *x[2], *y[2];
  std::vector<float> hx[2], hy[2];
  for (int b = 0; b < 2; ++b) {
    x[b] = alloc<float>(q, SLUICE_USM_DEVICE, big);
    y[b] = alloc<float>(q, SLUICE_USM_DEVICE, big);
    hx[b].resize(big);
    hy[b].resize(big);
    for (uint64_t i = 0; i < big; ++i) {
      hx[b][i] = float((i + b) % 13) - 6.0f;
      hy[b][i] = float(i % 7) * 0.25f;
    }
    copyWait(q, x[b], hx[b].data(), big * 4);
    copyWait(q, y[b], hy[b].data(), big * 4);
  }
  // Back to back, no waits: each launch reads what the one before wrote.
  auto axpy = [&](int b, float a, uint64_t n) {
    uint64_t local[3] = {128, 1, 1}, grid[3] = {(n + 127) / 128, 1, 1};
    SluiceKernelArg args[] = {arg(a), arg(x[b]), arg(y[b]), arg(n)};
    ASSERT_OK(sluiceLaunch(q, k, grid, local, 4, args, 0, nullptr, nullptr));
    for (uint64_t i = 0; i < n; ++i)
      hy[b][i] = a * hx[b][i] + hy[b][i];
  };
  for (int i = 0; i < 12; ++i) {
    axpy(i % 2, 0.5f * float(i % 3) - 0.5f, i % 4 < 2 ? big : 1000 + i % 4);
    if (i == 5) { // a copy between replays, in order with them
      ASSERT_OK(sluiceMemcpy(q, y[0], y[1], 4000, 0, nullptr, nullptr));
      std::copy(hy[1].begin(), hy[1].begin() + 1000, hy[0].begin());
    }
  }
  uint64_t replayed = queue->replayedLaunches();
  // A new grid at every other launch.
  for (uint64_t n = 1; n <= 70; ++n)
    for (int twice = 0; twice < 2; ++twice)
      axpy(1, 0.25f, n * 128);
  axpy(0, -1.0f, big);
  ASSERT_OK(sluiceQueueWait(q));
  std::vector<float> got(big);
  for (int b = 0; b < 2; ++b) {
    copyWait(q, got.data(), y[b], big * 4);
    EXPECT_EQ(got, hy[b]) << "buffer " << b;
  }
  if (graphs) {
    EXPECT_GT(replayed, 0u);
    EXPECT_GE(queue->replayedLaunches(), replayed + 70);
  } else {
    EXPECT_EQ(queue->replayedLaunches(), 0u);
  }
  for (int b = 0; b < 2; ++b) {
    ASSERT_OK(sluiceFree(q, x[b]));
    ASSERT_OK(sluiceFree(q, y[b]));
  }
  ASSERT_OK(sluiceQueueWait(q));
  ASSERT_OK(sluiceQueueRelease(q));
  sluiceModuleRelease(m);
}

// A kernel of a module that was released never replays for a kernel of a
// later module (whose CUfunction may come at the same address): modules of
// two different kernels named axpy (y = a * x + y, then y = a * x) built,
// launched twice each (the second launch a replay) and released in turn.
TEST(CudaQueue, ReplaysNeverOutliveTheirModule) {
  SKIP_WITHOUT_CUDA(d);
  std::string fma(reinterpret_cast<const char *>(kCudaKernelsPtx),
                  kCudaKernelsPtx_size);
  std::string mul = fma;
  const std::string from = "fma.rn.f32 %f4, %f1, %f2, %f3;";
  size_t at = mul.find(from);
  ASSERT_NE(at, std::string::npos);
  mul.replace(at, from.size(), "mul.rn.f32 %f4, %f1, %f2;");
  SluiceQueue q = nullptr;
  ASSERT_OK(sluiceQueueCreate(d, &q));
  const uint64_t n = 4096;
  float *x = alloc<float>(q, SLUICE_USM_DEVICE, n);
  float *y = alloc<float>(q, SLUICE_USM_DEVICE, n);
  std::vector<float> hx(n, 2.0f), hy(n), got(n);
  copyWait(q, x, hx.data(), n * 4);
  for (int round = 0; round < 6; ++round) {
    const std::string &text = round % 2 ? mul : fma;
    SluiceModule m = nullptr;
    ASSERT_OK(
        sluiceModuleCreate(d, SLUICE_MODULE_PTX, text.data(), text.size(), &m));
    SluiceKernel k;
    ASSERT_OK(sluiceKernelGet(m, "axpy", &k));
    std::fill(hy.begin(), hy.end(), 1.0f);
    copyWait(q, y, hy.data(), n * 4);
    float a = 3.0f;
    uint64_t local[3] = {128, 1, 1}, grid[3] = {n / 128, 1, 1};
    SluiceKernelArg args[] = {arg(a), arg(x), arg(y), arg(n)};
    for (int twice = 0; twice < 2; ++twice)
      ASSERT_OK(sluiceLaunch(q, k, grid, local, 4, args, 0, nullptr, nullptr));
    copyWait(q, got.data(), y, n * 4);
    // fma twice: 3 * 2 + 1 = 7, then 13; mul: 6 either time.
    EXPECT_EQ(got, std::vector<float>(n, round % 2 ? 6.0f : 13.0f))
        << "round " << round;
    ASSERT_OK(sluiceQueueWait(q));
    ASSERT_OK(sluiceModuleRelease(m));
  }
  ASSERT_OK(sluiceFree(q, x));
  ASSERT_OK(sluiceFree(q, y));
  ASSERT_OK(sluiceQueueWait(q));
  ASSERT_OK(sluiceQueueRelease(q));
}

// More kernels than a queue keeps graphs for (LaunchReplay::kMaxGraphs,
// 64), launched in turn twice each, twice over: evicted graphs are
// destroyed and made again, and every launch adds what it should.
TEST(CudaQueue, ReplaysPastTheBoundOnGraphs) {
  SKIP_WITHOUT_CUDA(d);
  std::string ptx(reinterpret_cast<const char *>(kCudaKernelsPtx),
                  kCudaKernelsPtx_size);
  const int kernels = 70;
  std::vector<SluiceModule> modules(kernels);
  std::vector<SluiceKernel> ks(kernels);
  for (int i = 0; i < kernels; ++i) {
    // A comment of its own: another module, not the cached one.
    std::string text = "// kernel " + std::to_string(i) + "\n" + ptx;
    ASSERT_OK(sluiceModuleCreate(d, SLUICE_MODULE_PTX, text.c_str(),
                                 text.size() + 1, &modules[i]));
    ASSERT_OK(sluiceKernelGet(modules[i], "axpy", &ks[i]));
  }
  SluiceQueue q = nullptr;
  ASSERT_OK(sluiceQueueCreate(d, &q));
  const uint64_t n = 1000;
  float *x = alloc<float>(q, SLUICE_USM_DEVICE, n);
  float *y = alloc<float>(q, SLUICE_USM_DEVICE, n);
  std::vector<float> hx(n, 1.0f), hy(n, 0.0f), got(n);
  copyWait(q, x, hx.data(), n * 4);
  copyWait(q, y, hy.data(), n * 4);
  uint64_t local[3] = {128, 1, 1}, grid[3] = {(n + 127) / 128, 1, 1};
  float a = 1.0f;
  SluiceKernelArg args[] = {arg(a), arg(x), arg(y), arg(n)};
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < kernels; ++i)
      for (int twice = 0; twice < 2; ++twice)
        ASSERT_OK(
            sluiceLaunch(q, ks[i], grid, local, 4, args, 0, nullptr, nullptr));
  copyWait(q, got.data(), y, n * 4);
  EXPECT_EQ(got, std::vector<float>(n, float(2 * 2 * kernels)));
  const char *env = std::getenv("SLUICE_CUDA_GRAPHS");
  if (!env || (std::strcmp(env, "off") && std::strcmp(env, "0") &&
               std::strcmp(env, "false") && std::strcmp(env, "no"))) {
    EXPECT_GE(reinterpret_cast<sluice::rt::Queue *>(q)->replayedLaunches(),
              uint64_t(2 * kernels));
  }
  ASSERT_OK(sluiceFree(q, x));
  ASSERT_OK(sluiceFree(q, y));
  ASSERT_OK(sluiceQueueWait(q));
  ASSERT_OK(sluiceQueueRelease(q));
  for (SluiceModule m : modules)
    sluiceModuleRelease(m);
}

TEST(CudaProgram, CompiledProgramCalls) {
  SKIP_WITHOUT_CUDA(d);
  sluiceProgramBegin();
  void *q = sluiceProgramQueue("cuda:gpu:0", "");
  ASSERT_EQ(q, static_cast<void *>(canonical(d)));
  const uint64_t n = 5000;
  void *x = sluiceProgramAlloc(q, SLUICE_USM_DEVICE, n * 4);
  void *y = sluiceProgramAlloc(q, SLUICE_USM_DEVICE, n * 4);
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(x) % 64, 0u);
  std::vector<float> hx(n, 2.0f), hy(n, 1.0f), got(n);
  sluiceProgramCopy(q, x, nullptr, hx.data(), n * 4);
  sluiceProgramCopy(q, y, nullptr, hy.data(), n * 4);
  void *module = sluiceProgramModule(q, SLUICE_MODULE_PTX, kCudaKernelsPtx,
                                     kCudaKernelsPtx_size);
  float a = 3.0f;
  uint64_t nn = n;
  void *values[] = {&a, &x, &y, &nn};
  uint64_t sizes[] = {4, 8, 8, 8};
  sluiceProgramLaunch(q, module, "axpy", (n + 255) / 256, 1, 1, 256, 1, 1, 4,
                      values, sizes);
  sluiceProgramCopy(nullptr, got.data(), q, y, n * 4);
  sluiceProgramFree(q, x);
  sluiceProgramFree(q, y);
  ASSERT_EQ(sluiceProgramEnd(), 0) << sluiceGetLastErrorMessage();
  EXPECT_EQ(got, std::vector<float>(n, 7.0f));
}

// Each queue owns a zeroed launch counter (what a CUDA reduction to one
// output counts its workgroups in): distinct per queue, the same at every
// request. count_blocks (the last-block pattern: a ticket per block, the
// last writes the block count and sets the counter back to zero) launched
// back to back on two queues at once, replayed as CUDA graphs from the
// second launch on, counts every block of every launch: a counter shared by
// the queues, or one not zero at a launch's start, would leave slots
// unwritten.
TEST(CudaQueue, EachQueueHasItsOwnLaunchCounter) {
  SKIP_WITHOUT_CUDA(d);
  SluiceQueue q[2] = {nullptr, nullptr};
  ASSERT_OK(sluiceQueueCreate(d, &q[0]));
  ASSERT_OK(sluiceQueueCreate(d, &q[1]));
  sluiceProgramBegin();
  void *counter[2] = {sluiceProgramLaunchCounter(q[0]),
                      sluiceProgramLaunchCounter(q[1])};
  void *again = sluiceProgramLaunchCounter(q[0]);
  ASSERT_EQ(sluiceProgramEnd(), 0) << sluiceGetLastErrorMessage();
  ASSERT_NE(counter[0], nullptr);
  ASSERT_NE(counter[1], nullptr);
  EXPECT_NE(counter[0], counter[1]);
  EXPECT_EQ(again, counter[0]);
  SluiceModule m = ptxModule(d);
  SluiceKernel k;
  ASSERT_OK(sluiceKernelGet(m, "count_blocks", &k));
  const uint64_t launches = 64, blocks = 2000;
  uint32_t *out[2];
  std::vector<uint32_t> zeros(launches, 0);
  for (int i = 0; i < 2; ++i) {
    out[i] = alloc<uint32_t>(q[i], SLUICE_USM_DEVICE, launches);
    copyWait(q[i], out[i], zeros.data(), launches * 4);
  }
  for (uint64_t slot = 0; slot < launches; ++slot)
    for (int i = 0; i < 2; ++i) {
      uint64_t local[3] = {64, 1, 1}, grid[3] = {blocks + slot % 3, 1, 1};
      SluiceKernelArg args[] = {arg(counter[i]), arg(out[i]), arg(slot)};
      ASSERT_OK(
          sluiceLaunch(q[i], k, grid, local, 3, args, 0, nullptr, nullptr));
    }
  for (int i = 0; i < 2; ++i) {
    ASSERT_OK(sluiceQueueWait(q[i]));
    std::vector<uint32_t> got(launches), want(launches);
    copyWait(q[i], got.data(), out[i], launches * 4);
    for (uint64_t slot = 0; slot < launches; ++slot)
      want[slot] = uint32_t(blocks + slot % 3);
    EXPECT_EQ(got, want) << "queue " << i;
    ASSERT_OK(sluiceFree(q[i], out[i]));
    ASSERT_OK(sluiceQueueWait(q[i]));
    ASSERT_OK(sluiceQueueRelease(q[i]));
  }
  sluiceModuleRelease(m);
}

namespace {

/// Memory from the CUDA driver itself, as another library (PyTorch, CuPy)
/// allocates it: in the device's primary context.
struct DriverMemory {
  using Ptr = unsigned long long;
  int (*retain)(void **, int) = nullptr;
  int (*push)(void *) = nullptr;
  int (*pop)(void **) = nullptr;
  int (*memAlloc)(Ptr *, size_t) = nullptr;
  int (*memAllocManaged)(Ptr *, size_t, unsigned) = nullptr;
  int (*memFree)(Ptr) = nullptr;
  void *ctx = nullptr;

  bool load() {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      return false;
    retain = reinterpret_cast<decltype(retain)>(
        dlsym(lib, "cuDevicePrimaryCtxRetain"));
    push = reinterpret_cast<decltype(push)>(dlsym(lib, "cuCtxPushCurrent_v2"));
    pop = reinterpret_cast<decltype(pop)>(dlsym(lib, "cuCtxPopCurrent_v2"));
    memAlloc =
        reinterpret_cast<decltype(memAlloc)>(dlsym(lib, "cuMemAlloc_v2"));
    memAllocManaged = reinterpret_cast<decltype(memAllocManaged)>(
        dlsym(lib, "cuMemAllocManaged"));
    memFree = reinterpret_cast<decltype(memFree)>(dlsym(lib, "cuMemFree_v2"));
    return retain && push && pop && memAlloc && memAllocManaged && memFree &&
           retain(&ctx, 0) == 0;
  }
  char *allocate(size_t bytes, bool managed) {
    Ptr p = 0;
    void *popped;
    push(ctx);
    int r = managed ? memAllocManaged(&p, bytes, 1) : memAlloc(&p, bytes);
    pop(&popped);
    return r == 0 ? reinterpret_cast<char *>(static_cast<uintptr_t>(p))
                  : nullptr;
  }
  void release(char *p) {
    void *popped;
    push(ctx);
    memFree(static_cast<Ptr>(reinterpret_cast<uintptr_t>(p)));
    pop(&popped);
  }
};

} // namespace

// What sluice.from_dlpack does with a CUDA tensor: the memory of another
// library becomes USM memory of the canonical queue, and kernels, copies
// and fills use it in place.
TEST(CudaUsm, ImportsMemoryTheDriverAllocated) {
  SKIP_WITHOUT_CUDA(d);
  DriverMemory driver;
  ASSERT_TRUE(driver.load());
  SluiceQueue q = canonical(d);
  const uint64_t n = 100003;
  const size_t whole = 1 << 20;
  char *foreign = driver.allocate(whole, false);
  ASSERT_NE(foreign, nullptr);
  float *x = reinterpret_cast<float *>(foreign + 4096);
  ASSERT_OK(sluiceUsmImport(q, SLUICE_USM_UNKNOWN, x, n * 4));
  SluiceUsmKind kind;
  SluiceQueue owner;
  void *base;
  size_t size;
  ASSERT_OK(sluicePointerGetInfo(x + 10, &kind, nullptr, &owner, &base, &size));
  EXPECT_EQ(kind, SLUICE_USM_DEVICE);
  EXPECT_EQ(owner, q);
  EXPECT_EQ(base, foreign); // the driver's whole allocation
  EXPECT_GE(size, whole);

  // A kernel reads the imported memory, a copy fills it.
  SluiceModule m = ptxModule(d);
  SluiceKernel k;
  ASSERT_OK(sluiceKernelGet(m, "axpy", &k));
  float *y = alloc<float>(q, SLUICE_USM_DEVICE, n);
  std::vector<float> hx(n), hy(n), ref(n), got(n);
  for (uint64_t i = 0; i < n; ++i) {
    hx[i] = float(i % 29) - 3.0f;
    hy[i] = float(i % 13) * 0.5f;
    ref[i] = 2.5f * hx[i] + hy[i];
  }
  copyWait(q, x, hx.data(), n * 4);
  copyWait(q, y, hy.data(), n * 4);
  float a = 2.5f;
  uint64_t local[3] = {128, 1, 1}, grid[3] = {(n + 127) / 128, 1, 1};
  SluiceKernelArg args[] = {arg(a), arg(x), arg(y), arg(n)};
  SluiceEvent launched;
  ASSERT_OK(sluiceLaunch(q, k, grid, local, 4, args, 0, nullptr, &launched));
  copyWait(q, got.data(), y, n * 4, launched);
  EXPECT_EQ(got, ref);
  sluiceEventRelease(launched);

  // Wrong claims and memory the driver does not know are refused.
  EXPECT_EQ(sluiceUsmImport(q, SLUICE_USM_SHARED, x, 16),
            SLUICE_ERROR_INVALID_VALUE);
  std::vector<char> plain(64);
  EXPECT_EQ(sluiceUsmImport(q, SLUICE_USM_UNKNOWN, plain.data(), 64),
            SLUICE_ERROR_INVALID_POINTER);
  EXPECT_NE(std::string(sluiceGetLastErrorMessage()).find("CUDA"),
            std::string::npos);
  EXPECT_EQ(sluiceUsmImport(q, SLUICE_USM_DEVICE, x, whole),
            SLUICE_ERROR_INVALID_VALUE); // past the allocation's end

  // The release's event completes after the work that used the memory.
  SluiceEvent done = nullptr;
  ASSERT_OK(sluiceUsmRelease(x, &done));
  ASSERT_OK(sluiceEventWait(done));
  sluiceEventRelease(done);
  ASSERT_OK(sluicePointerGetInfo(x, &kind, nullptr, nullptr, nullptr, nullptr));
  EXPECT_EQ(kind, SLUICE_USM_UNKNOWN);
  driver.release(foreign);

  // Managed memory imports as shared.
  char *managed = driver.allocate(whole, true);
  ASSERT_NE(managed, nullptr);
  ASSERT_OK(sluiceUsmImport(q, SLUICE_USM_UNKNOWN, managed, whole));
  ASSERT_OK(
      sluicePointerGetInfo(managed, &kind, nullptr, nullptr, nullptr, nullptr));
  EXPECT_EQ(kind, SLUICE_USM_SHARED);
  ASSERT_OK(sluiceMemset(q, managed, 7, whole, 0, nullptr, nullptr));
  ASSERT_OK(sluiceQueueWait(q));
  EXPECT_EQ(managed[whole - 1], 7);
  ASSERT_OK(sluiceUsmRelease(managed, nullptr));
  driver.release(managed);
  ASSERT_OK(sluiceFree(q, y));
  sluiceModuleRelease(m);
}
