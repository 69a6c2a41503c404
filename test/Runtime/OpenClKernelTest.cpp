//===- OpenClKernelTest.cpp - SPIR-V kernels on an OpenCL device ----------===//
#include "TestUtil.h"

// Without OpenCL (or spirv-as) the tests skip before they load the kernel.
#ifndef SLUICE_TEST_SPIRV_AXPY
#define SLUICE_TEST_SPIRV_AXPY ""
#endif

using namespace sluice::test;

namespace {

SluiceModule axpyModule(SluiceDevice device) {
  std::vector<char> spv = readBinary(SLUICE_TEST_SPIRV_AXPY);
  EXPECT_FALSE(spv.empty()) << SLUICE_TEST_SPIRV_AXPY;
  SluiceModule m = nullptr;
  EXPECT_OK(sluiceModuleCreate(device, SLUICE_MODULE_SPIRV, spv.data(),
                               spv.size(), &m));
  return m;
}

void runAxpy(SluiceDevice device, SluiceUsmKind xKind, SluiceUsmKind yKind) {
  SluiceModule m = axpyModule(device);
  ASSERT_NE(m, nullptr);
  SluiceKernel k;
  ASSERT_OK(sluiceKernelGet(m, "axpy", &k));
  SluiceQueue q;
  ASSERT_OK(sluiceQueueGetCanonical(device, &q));
  const uint64_t n = 10000;
  float *x, *y;
  ASSERT_OK(sluiceMalloc(q, xKind, n * 4, 0, reinterpret_cast<void **>(&x)));
  ASSERT_OK(sluiceMalloc(q, yKind, n * 4, 0, reinterpret_cast<void **>(&y)));
  std::vector<float> hx(n), hy(n), ref(n);
  for (uint64_t i = 0; i < n; ++i) {
    hx[i] = float(i % 31) - 7.0f;
    hy[i] = float(i % 17) * 0.25f;
    ref[i] = 2.5f * hx[i] + hy[i];
  }
  SluiceEvent cx, cy;
  ASSERT_OK(sluiceMemcpy(q, x, hx.data(), n * 4, 0, nullptr, &cx));
  ASSERT_OK(sluiceMemcpy(q, y, hy.data(), n * 4, 0, nullptr, &cy));
  float a = 2.5f;
  // A grid that overshoots n: the kernel's bounds check matters.
  uint64_t local[3] = {64, 1, 1}, grid[3] = {(n + 63) / 64, 1, 1};
  SluiceKernelArg args[] = {arg(a), arg(x), arg(y), arg(n)};
  SluiceEvent deps[] = {cx, cy}, launched;
  ASSERT_OK(sluiceLaunch(q, k, grid, local, 4, args, 2, deps, &launched));
  std::vector<float> got(n);
  SluiceEvent back;
  ASSERT_OK(sluiceMemcpy(q, got.data(), y, n * 4, 1, &launched, &back));
  ASSERT_OK(sluiceEventWait(back));
  EXPECT_EQ(got, ref);
  uint64_t submit, start, end;
  ASSERT_OK(sluiceEventGetProfilingInfo(launched, &submit, &start, &end));
  EXPECT_LE(start, end);
  for (SluiceEvent e : {cx, cy, launched, back})
    sluiceEventRelease(e);
  ASSERT_OK(sluiceFree(q, x));
  ASSERT_OK(sluiceFree(q, y));
  ASSERT_OK(sluiceModuleRelease(m));
}

} // namespace

TEST(OpenClKernel, SpirvAxpyOnDeviceMemory) {
  SKIP_WITHOUT_OPENCL(device);
  runAxpy(device, SLUICE_USM_DEVICE, SLUICE_USM_DEVICE);
}

TEST(OpenClKernel, SpirvAxpyOnSharedAndHostMemory) {
  SKIP_WITHOUT_OPENCL(device);
  runAxpy(device, SLUICE_USM_HOST, SLUICE_USM_SHARED);
}

TEST(OpenClKernel, ModuleCacheReturnsTheSameModule) {
  SKIP_WITHOUT_OPENCL(device);
  SluiceModule a = axpyModule(device), b = axpyModule(device);
  EXPECT_EQ(a, b);
  sluiceModuleRelease(a);
  sluiceModuleRelease(b);
}

TEST(OpenClKernel, HostMemoryOfTheHostBackendIsNotAKernelArgument) {
  SKIP_WITHOUT_OPENCL(device);
  SluiceModule m = axpyModule(device);
  SluiceKernel k;
  ASSERT_OK(sluiceKernelGet(m, "axpy", &k));
  SluiceQueue q;
  ASSERT_OK(sluiceQueueGetCanonical(device, &q));
  void *hostDev = nullptr;
  ASSERT_OK(sluiceMalloc(hostQueue(), SLUICE_USM_DEVICE, 64, 0, &hostDev));
  float a = 1;
  uint64_t n = 16, one[3] = {1, 1, 1};
  SluiceKernelArg args[] = {arg(a), arg(hostDev), arg(hostDev), arg(n)};
  EXPECT_EQ(sluiceLaunch(q, k, one, one, 4, args, 0, nullptr, nullptr),
            SLUICE_ERROR_INVALID_POINTER);
  EXPECT_NE(std::string(sluiceGetLastErrorMessage()).find("host:cpu:0"),
            std::string::npos)
      << sluiceGetLastErrorMessage();
  ASSERT_OK(sluiceFree(nullptr, hostDev));
  sluiceModuleRelease(m);
}

TEST(OpenClKernel, BadSpirvReportsTheTranslatorLog) {
  SKIP_WITHOUT_OPENCL(device);
  // Valid header, garbage body.
  std::vector<uint32_t> words = {0x07230203u, 0x00010000u, 0,          100, 0,
                                 0xdeadbeefu, 0x12345678u, 0x9abcdef0u};
  SluiceModule m = nullptr;
  EXPECT_EQ(sluiceModuleCreate(device, SLUICE_MODULE_SPIRV, words.data(),
                               words.size() * 4, &m),
            SLUICE_ERROR_BUILD_FAILED);
  EXPECT_EQ(m, nullptr);
  std::string message = sluiceGetLastErrorMessage();
  std::string log = sluiceGetLastBuildLog();
  EXPECT_FALSE(log.empty());
  EXPECT_NE(message.find(log), std::string::npos) << message;
  EXPECT_NE(message.find("failed to build"), std::string::npos) << message;
}

TEST(OpenClKernel, UnknownKernelName) {
  SKIP_WITHOUT_OPENCL(device);
  SluiceModule m = axpyModule(device);
  SluiceKernel k;
  EXPECT_EQ(sluiceKernelGet(m, "saxpy", &k), SLUICE_ERROR_KERNEL_NOT_FOUND);
  EXPECT_NE(std::string(sluiceGetLastErrorMessage()).find("saxpy"),
            std::string::npos);
  sluiceModuleRelease(m);
}
