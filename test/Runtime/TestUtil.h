//===- TestUtil.h - Helpers for the runtime unit tests ----------*- C++ -*-===//
#ifndef SLUICE_TEST_RUNTIME_TESTUTIL_H
#define SLUICE_TEST_RUNTIME_TESTUTIL_H

#include "sluice-c/Runtime.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

/// Expects success and prints the runtime's message otherwise.
#define EXPECT_OK(expr)                                                        \
  EXPECT_EQ((expr), SLUICE_SUCCESS) << sluiceGetLastErrorMessage()
#define ASSERT_OK(expr)                                                        \
  ASSERT_EQ((expr), SLUICE_SUCCESS) << sluiceGetLastErrorMessage()

namespace sluice::test {

inline std::vector<char> readBinary(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

inline SluiceDevice hostDevice() {
  SluiceDevice d = nullptr;
  EXPECT_OK(sluiceDeviceSelect("host", &d));
  return d;
}

inline SluiceQueue hostQueue() {
  SluiceQueue q = nullptr;
  EXPECT_OK(sluiceQueueGetCanonical(hostDevice(), &q));
  return q;
}

/// The first visible OpenCL device, or null (with the reason in `why`).
inline SluiceDevice openclDevice(std::string &why) {
#ifndef SLUICE_HAVE_OPENCL
  why = "the runtime was built without OpenCL";
  return nullptr;
#else
  SluiceDevice d = nullptr;
  if (sluiceDeviceSelect("opencl", &d) != SLUICE_SUCCESS) {
    why = std::string("no OpenCL device: ") + sluiceGetLastErrorMessage();
    return nullptr;
  }
  SluiceDeviceInfo info;
  sluiceDeviceGetInfo(d, &info);
  if (!(info.module_formats & (1u << SLUICE_MODULE_SPIRV))) {
    why = std::string("OpenCL device ") + info.filter_string +
          " cannot load SPIR-V";
    return nullptr;
  }
  return d;
#endif
}

#define SKIP_WITHOUT_OPENCL(device)                                            \
  std::string whyNoOpenCl;                                                     \
  SluiceDevice device = ::sluice::test::openclDevice(whyNoOpenCl);             \
  if (!device)                                                                 \
  GTEST_SKIP() << whyNoOpenCl

/// Loads the test kernels shared object on the host device.
inline SluiceModule hostKernels() {
  std::vector<char> bytes = readBinary(SLUICE_TEST_HOST_KERNELS);
  EXPECT_FALSE(bytes.empty()) << SLUICE_TEST_HOST_KERNELS;
  SluiceModule m = nullptr;
  EXPECT_OK(sluiceModuleCreate(hostDevice(), SLUICE_MODULE_NATIVE_OBJECT,
                               bytes.data(), bytes.size(), &m));
  return m;
}

/// Publishes a flag that a kernel on another thread polls.
inline void storeAtomic(int *flag, int value) {
  __atomic_store_n(flag, value, __ATOMIC_SEQ_CST);
}

inline SluiceKernelArg arg(const void *value, size_t size) {
  return SluiceKernelArg{value, size};
}
template <typename T> SluiceKernelArg arg(const T &value) {
  return SluiceKernelArg{&value, sizeof(T)};
}

} // namespace sluice::test

#endif // SLUICE_TEST_RUNTIME_TESTUTIL_H
