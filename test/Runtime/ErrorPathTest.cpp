//===- ErrorPathTest.cpp - Every failure is a status with a message -------===//
#include "TestUtil.h"

#include <cstring>

using namespace sluice::test;

namespace {
bool messageMentions(const char *text) {
  return std::strstr(sluiceGetLastErrorMessage(), text) != nullptr;
}
} // namespace

TEST(ErrorPath, BadSelectors) {
  SluiceDevice d;
  EXPECT_EQ(sluiceDeviceSelect("gpu:opencl", &d),
            SLUICE_ERROR_INVALID_SELECTOR);
  EXPECT_TRUE(messageMentions("'opencl'")) << sluiceGetLastErrorMessage();
  EXPECT_EQ(sluiceDeviceSelect("quantum", &d), SLUICE_ERROR_INVALID_SELECTOR);
  EXPECT_TRUE(messageMentions("quantum"));
  EXPECT_EQ(sluiceDeviceSelect("cpu,,gpu", &d), SLUICE_ERROR_INVALID_SELECTOR);
  EXPECT_STREQ(sluiceStatusString(SLUICE_ERROR_INVALID_SELECTOR),
               "SLUICE_ERROR_INVALID_SELECTOR");
}

TEST(ErrorPath, NullArguments) {
  EXPECT_EQ(sluiceDeviceGetCount(nullptr), SLUICE_ERROR_INVALID_VALUE);
  EXPECT_TRUE(messageMentions("count"));
  EXPECT_EQ(sluiceQueueGetCanonical(nullptr, nullptr),
            SLUICE_ERROR_INVALID_VALUE);
  void *p;
  EXPECT_EQ(sluiceMalloc(nullptr, SLUICE_USM_DEVICE, 8, 0, &p),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(sluiceEventWait(nullptr), SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(sluiceModuleCreate(hostDevice(), SLUICE_MODULE_NATIVE_OBJECT,
                               nullptr, 10, nullptr),
            SLUICE_ERROR_INVALID_VALUE);
  SluiceEvent deps[1] = {nullptr};
  EXPECT_EQ(sluiceMemcpy(hostQueue(), &p, &p, sizeof p, 1, deps, nullptr),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_TRUE(messageMentions("dependency event 0"));
  EXPECT_EQ(sluiceMemcpy(hostQueue(), &p, &p, sizeof p, 2, nullptr, nullptr),
            SLUICE_ERROR_INVALID_VALUE);
}

TEST(ErrorPath, BadAllocations) {
  SluiceQueue q = hostQueue();
  void *p = reinterpret_cast<void *>(0x1);
  EXPECT_EQ(sluiceMalloc(q, SLUICE_USM_DEVICE, 0, 0, &p),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(sluiceMalloc(q, SLUICE_USM_DEVICE, 16, 3, &p),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_TRUE(messageMentions("power of two"));
  EXPECT_EQ(sluiceMalloc(q, static_cast<SluiceUsmKind>(9), 16, 0, &p),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(sluiceMalloc(q, SLUICE_USM_HOST, size_t(1) << 62, 0, &p),
            SLUICE_ERROR_OUT_OF_HOST_MEMORY);
  int local = 0;
  EXPECT_EQ(sluiceFree(q, &local), SLUICE_ERROR_INVALID_POINTER);
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, 64, 0, &p));
  EXPECT_EQ(sluiceFree(q, static_cast<char *>(p) + 8),
            SLUICE_ERROR_INVALID_POINTER);
  ASSERT_OK(sluiceFree(q, p));
  EXPECT_EQ(sluiceFree(q, p), SLUICE_ERROR_INVALID_POINTER); // double free
  ASSERT_OK(sluiceFree(q, nullptr));
}

TEST(ErrorPath, OutOfBoundsCopiesAndBadFills) {
  SluiceQueue q = hostQueue();
  void *p;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, 64, 0, &p));
  char host[128];
  EXPECT_EQ(sluiceMemcpy(q, host, p, 128, 0, nullptr, nullptr),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_TRUE(messageMentions("runs past the end"));
  EXPECT_EQ(
      sluiceMemset(q, static_cast<char *>(p) + 32, 0, 64, 0, nullptr, nullptr),
      SLUICE_ERROR_INVALID_VALUE);
  uint32_t pattern = 1;
  EXPECT_EQ(sluiceFill(q, p, &pattern, 3, 63, 0, nullptr, nullptr),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(sluiceFill(q, p, &pattern, 4, 62, 0, nullptr, nullptr),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_TRUE(messageMentions("multiple"));
  ASSERT_OK(sluiceFree(q, p));
}

TEST(ErrorPath, BadNativeModules) {
  const char garbage[] = "this is not an ELF file at all, not even close....";
  SluiceModule m = nullptr;
  EXPECT_EQ(sluiceModuleCreate(hostDevice(), SLUICE_MODULE_NATIVE_OBJECT,
                               garbage, sizeof garbage, &m),
            SLUICE_ERROR_BUILD_FAILED);
  EXPECT_EQ(m, nullptr);
  EXPECT_TRUE(messageMentions("not an ELF"));
  EXPECT_NE(std::strstr(sluiceGetLastBuildLog(), "not an ELF"), nullptr);
  // A truncated ELF: the right magic, but dlopen refuses it.
  std::vector<char> bytes = readBinary(SLUICE_TEST_HOST_KERNELS);
  bytes.resize(256);
  EXPECT_EQ(sluiceModuleCreate(hostDevice(), SLUICE_MODULE_NATIVE_OBJECT,
                               bytes.data(), bytes.size(), &m),
            SLUICE_ERROR_BUILD_FAILED);
  EXPECT_TRUE(messageMentions("dlopen")) << sluiceGetLastErrorMessage();
  // SPIR-V is not a host format.
  EXPECT_EQ(sluiceModuleCreate(hostDevice(), SLUICE_MODULE_SPIRV, garbage,
                               sizeof garbage, &m),
            SLUICE_ERROR_UNSUPPORTED);
  EXPECT_EQ(sluiceModuleCreate(hostDevice(), SLUICE_MODULE_NATIVE_OBJECT,
                               garbage, 0, &m),
            SLUICE_ERROR_INVALID_VALUE);
}

TEST(ErrorPath, BadKernelNamesAndLaunches) {
  SluiceModule m = hostKernels();
  SluiceKernel k;
  EXPECT_EQ(sluiceKernelGet(m, "no_such_kernel", &k),
            SLUICE_ERROR_KERNEL_NOT_FOUND);
  EXPECT_TRUE(messageMentions("no_such_kernel"));
  // Symbols of the module's dependencies (libc) are not its kernels.
  EXPECT_EQ(sluiceKernelGet(m, "memcpy", &k), SLUICE_ERROR_KERNEL_NOT_FOUND);
  ASSERT_OK(sluiceKernelGet(m, "axpy", &k));
  SluiceQueue q = hostQueue();
  uint64_t one[3] = {1, 1, 1}, zero[3] = {0, 1, 1}, huge[3] = {1 << 20, 1, 1};
  float a = 1;
  SluiceKernelArg nullValue[] = {{nullptr, 4}};
  EXPECT_EQ(sluiceLaunch(q, k, one, one, 1, nullValue, 0, nullptr, nullptr),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_TRUE(messageMentions("argument 0 has a NULL value pointer"));
  SluiceKernelArg zeroSize[] = {{&a, 0}};
  EXPECT_EQ(sluiceLaunch(q, k, one, one, 1, zeroSize, 0, nullptr, nullptr),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(sluiceLaunch(q, k, one, one, 3, nullptr, 0, nullptr, nullptr),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(sluiceLaunch(q, k, zero, one, 0, nullptr, 0, nullptr, nullptr),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(sluiceLaunch(q, k, one, huge, 0, nullptr, 0, nullptr, nullptr),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_TRUE(messageMentions("exceeds the device maximum"));
  EXPECT_EQ(sluiceLaunch(q, nullptr, one, one, 0, nullptr, 0, nullptr, nullptr),
            SLUICE_ERROR_INVALID_VALUE);
  ASSERT_OK(sluiceModuleRelease(m));
}

TEST(ErrorPath, ProfilingBeforeCompletionIsNotReady) {
  SluiceModule m = hostKernels();
  SluiceKernel k;
  ASSERT_OK(sluiceKernelGet(m, "wait_gate", &k));
  SluiceQueue q;
  ASSERT_OK(sluiceQueueCreate(hostDevice(), &q));
  int *flags;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_SHARED, 2 * sizeof(int), 0,
                         reinterpret_cast<void **>(&flags)));
  storeAtomic(&flags[0], 0);
  uint64_t one[3] = {1, 1, 1};
  int *gate = &flags[0], *out = &flags[1];
  SluiceKernelArg args[] = {arg(gate), arg(out)};
  SluiceEvent e;
  ASSERT_OK(sluiceLaunch(q, k, one, one, 2, args, 0, nullptr, &e));
  uint64_t t;
  EXPECT_EQ(sluiceEventGetProfilingInfo(e, &t, &t, &t), SLUICE_ERROR_NOT_READY);
  storeAtomic(&flags[0], 1);
  ASSERT_OK(sluiceEventWait(e));
  ASSERT_OK(sluiceEventGetProfilingInfo(e, &t, nullptr, nullptr));
  sluiceEventRelease(e);
  ASSERT_OK(sluiceFree(q, flags));
  ASSERT_OK(sluiceQueueRelease(q));
  ASSERT_OK(sluiceModuleRelease(m));
}
