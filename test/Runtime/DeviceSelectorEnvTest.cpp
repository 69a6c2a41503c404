//===- DeviceSelectorEnvTest.cpp - SLUICE_DEVICE_SELECTOR grammar ---------===//
#include "sluice/Runtime/DeviceSelectorEnv.h"

#include "TestUtil.h"

using namespace sluice::rt;

namespace {

// Devices: opencl gpu (opencl #0), opencl cpu (opencl #1), host cpu (host #0).
const DeviceKey oclGpu{SLUICE_BACKEND_OPENCL, SLUICE_DEVICE_TYPE_GPU};
const DeviceKey oclCpu{SLUICE_BACKEND_OPENCL, SLUICE_DEVICE_TYPE_CPU};
const DeviceKey hostCpu{SLUICE_BACKEND_HOST, SLUICE_DEVICE_TYPE_CPU};

std::string visible(const char *text) {
  std::string error;
  std::optional<DeviceSelectorEnv> env = parseDeviceSelectorEnv(text, &error);
  if (!env)
    return "error: " + error;
  std::string s;
  if (env->accepts(oclGpu, 0))
    s += "G";
  if (env->accepts(oclCpu, 1))
    s += "C";
  if (env->accepts(hostCpu, 0))
    s += "H";
  return s;
}

} // namespace

TEST(DeviceSelectorEnv, FiltersDevices) {
  EXPECT_EQ(visible("opencl:*"), "GC");
  EXPECT_EQ(visible("opencl:gpu"), "G");
  EXPECT_EQ(visible("opencl:1"), "C");
  EXPECT_EQ(visible("opencl:0,1"), "GC");
  EXPECT_EQ(visible("*:cpu"), "CH");
  EXPECT_EQ(visible("host:*"), "H");
  EXPECT_EQ(visible("native_cpu:cpu"), "H");
  EXPECT_EQ(visible("opencl:gpu;host:*"), "GH");
  EXPECT_EQ(visible("!opencl:*"), "H");
  EXPECT_EQ(visible("!opencl:gpu"), "CH");
  EXPECT_EQ(visible("*:*;!host:*"), "GC");
  EXPECT_EQ(visible("opencl:*;!opencl:cpu"), "G");
  EXPECT_EQ(visible("level_zero:*"), "");
  EXPECT_EQ(visible("opencl:*;"), "GC");
  EXPECT_EQ(visible(" opencl : gpu ; host:* "), "GH");
}

TEST(DeviceSelectorEnv, MalformedStringsNameTheBadPart) {
  const std::pair<const char *, const char *> cases[] = {
      {"opencl", "needs the form backend:devices"},
      {"foo:*", "unknown backend 'foo'"},
      {"opencl:gpo", "unknown device 'gpo'"},
      {"opencl:", "empty device"},
      {"opencl:gpu,,cpu", "empty device"},
      {";opencl:*", "empty term 1"},
      {"opencl:*;;host:*", "empty term 2"},
      {"level_zero:0.1", "sub-devices"},
      {"!", "needs the form"},
  };
  for (auto &[text, mentions] : cases) {
    std::string got = visible(text);
    EXPECT_EQ(got.rfind("error: ", 0), 0u) << text << " gave " << got;
    EXPECT_NE(got.find(mentions), std::string::npos) << text << " gave " << got;
    EXPECT_NE(got.find("SLUICE_DEVICE_SELECTOR"), std::string::npos) << got;
  }
}
