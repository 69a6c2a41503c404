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

} // namespace

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
