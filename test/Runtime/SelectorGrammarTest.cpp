//===- SelectorGrammarTest.cpp - dpctl filter selector strings ------------===//
#include "sluice/Runtime/FilterSelector.h"

#include "TestUtil.h"

#include <cstring>

using namespace sluice::rt;

namespace {

struct ValidCase {
  const char *text;
  const char *normalised;
};

const ValidCase validCases[] = {
    {"gpu", "*:gpu:*"},
    {"cpu", "*:cpu:*"},
    {"accelerator", "*:accelerator:*"},
    {"host", "host:*:*"},
    {"native_cpu", "host:*:*"},
    {"opencl", "opencl:*:*"},
    {"level_zero", "level_zero:*:*"},
    {"cuda", "cuda:*:*"},
    {"1", "*:*:1"},
    {"opencl:cpu:0", "opencl:cpu:0"},
    {"opencl:cpu", "opencl:cpu:*"},
    {"opencl:0", "opencl:*:0"},
    {"gpu:1", "*:gpu:1"},
    {"gpu,cpu", "*:gpu:*,*:cpu:*"},
    {"level_zero:gpu:0, opencl:gpu:0 ,host",
     "level_zero:gpu:0,opencl:gpu:0,host:*:*"},
    {"OpenCL:CPU", "opencl:cpu:*"},
    {"*:gpu:*", "*:gpu:*"},
    {"*", "*:*:*"},
    {"opencl:*", "opencl:*:*"},
    {"host:cpu:0", "host:cpu:0"},
    {"level_zero:gpu:0.1", "level_zero:gpu:0.1"},
    {"gpu:2.0", "*:gpu:2.0"},
};

struct InvalidCase {
  const char *text;
  const char *mentions; // part of the message
};

const InvalidCase invalidCases[] = {
    {"", "empty selector term 1"},
    {"gpu,,cpu", "empty selector term 2"},
    {"gpu,", "empty selector term 2"},
    {"foo", "unknown backend or device type 'foo'"},
    {"opencl:gpo:0", "'gpo'"},
    {"gpu:opencl", "backend 'opencl' in 'gpu:opencl' must be the first part"},
    {"0:gpu", "index '0' in '0:gpu' must be the last part"},
    {"opencl:gpu:0:1", "too many"},
    {"opencl::0", "empty part"},
    {"gpu:-1", "negative index '-1'"},
    {"opencl:gpu:x", "'x'"},
    {"gpu:cpu", "device type 'cpu' in 'gpu:cpu' must come before the index"},
    {"99999999999", "'99999999999'"},
    {"gpu:0.x", "bad sub-device index '0.x'"},
    {"gpu:0.", "bad sub-device index '0.'"},
    {"gpu:x.1", "bad index 'x.1'"},
};

} // namespace

TEST(SelectorGrammar, ValidStringsNormalise) {
  for (const ValidCase &c : validCases) {
    std::string error;
    std::optional<FilterSelector> s = parseFilterSelector(c.text, &error);
    ASSERT_TRUE(s.has_value()) << c.text << ": " << error;
    EXPECT_EQ(s->str(), c.normalised) << c.text;
    // The normal form parses back to itself.
    std::optional<FilterSelector> again = parseFilterSelector(s->str());
    ASSERT_TRUE(again.has_value()) << s->str();
    EXPECT_EQ(again->str(), c.normalised);
  }
}

TEST(SelectorGrammar, MalformedStringsNameTheBadPart) {
  for (const InvalidCase &c : invalidCases) {
    std::string error;
    EXPECT_FALSE(parseFilterSelector(c.text, &error).has_value()) << c.text;
    EXPECT_NE(error.find(c.mentions), std::string::npos)
        << "selector '" << c.text << "' gave: " << error;
  }
}

TEST(SelectorGrammar, CApiNormalize) {
  char buffer[64];
  size_t needed = 0;
  ASSERT_OK(sluiceSelectorNormalize("gpu,opencl:cpu:0", buffer, sizeof buffer,
                                    &needed));
  EXPECT_STREQ(buffer, "*:gpu:*,opencl:cpu:0");
  EXPECT_EQ(needed, std::strlen(buffer) + 1);
  EXPECT_EQ(
      sluiceSelectorNormalize("gpu:opencl", buffer, sizeof buffer, nullptr),
      SLUICE_ERROR_INVALID_SELECTOR);
  EXPECT_NE(std::string(sluiceGetLastErrorMessage()).find("opencl"),
            std::string::npos);
  // Size query without a buffer.
  ASSERT_OK(sluiceSelectorNormalize("cpu", nullptr, 0, &needed));
  EXPECT_EQ(needed, sizeof("*:cpu:*"));
}

TEST(SelectorGrammar, SelectsAmongDevices) {
  // level_zero gpu, opencl gpu, opencl cpu, host cpu
  std::vector<DeviceKey> devices = {
      {SLUICE_BACKEND_LEVEL_ZERO, SLUICE_DEVICE_TYPE_GPU},
      {SLUICE_BACKEND_OPENCL, SLUICE_DEVICE_TYPE_GPU},
      {SLUICE_BACKEND_OPENCL, SLUICE_DEVICE_TYPE_CPU},
      {SLUICE_BACKEND_HOST, SLUICE_DEVICE_TYPE_CPU},
  };
  auto pick = [&](const char *text) {
    return selectDevice(*parseFilterSelector(text), devices);
  };
  EXPECT_EQ(pick("gpu"), 0);
  EXPECT_EQ(pick("gpu:1"), 1);
  EXPECT_EQ(pick("opencl:gpu"), 1);
  EXPECT_EQ(pick("opencl:cpu:0"), 2);
  EXPECT_EQ(pick("opencl:1"), 2);
  EXPECT_EQ(pick("cpu"), 2);
  EXPECT_EQ(pick("cpu:1"), 3);
  EXPECT_EQ(pick("host"), 3);
  EXPECT_EQ(pick("3"), 3);
  EXPECT_EQ(pick("4"), -1);
  EXPECT_EQ(pick("cuda"), -1);
  EXPECT_EQ(pick("cuda,accelerator,host"), 3);
  EXPECT_EQ(pick("gpu:5,cpu"), 2);
}
