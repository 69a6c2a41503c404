//===- DeviceTest.cpp - Enumeration, properties, default device -----------===//
#include "TestUtil.h"

#include <cstring>
#include <set>

TEST(Device, ListsTheHostCpu) {
  uint32_t count = 0;
  ASSERT_OK(sluiceDeviceGetCount(&count));
  ASSERT_GE(count, 1u);
  bool sawHost = false;
  std::set<std::string> filters;
  for (uint32_t i = 0; i < count; ++i) {
    SluiceDevice d;
    ASSERT_OK(sluiceDeviceGet(i, &d));
    SluiceDeviceInfo info;
    ASSERT_OK(sluiceDeviceGetInfo(d, &info));
    EXPECT_TRUE(filters.insert(info.filter_string).second)
        << "duplicate filter string " << info.filter_string;
    EXPECT_GT(std::strlen(info.name), 0u);
    EXPECT_GE(info.compute_units, 1u);
    EXPECT_GE(info.max_work_group_size, 1u);
    if (info.backend == SLUICE_BACKEND_HOST) {
      sawHost = true;
      EXPECT_STREQ(info.filter_string, "host:cpu:0");
      EXPECT_EQ(info.type, SLUICE_DEVICE_TYPE_CPU);
      EXPECT_EQ(info.usm_capabilities, SLUICE_USM_CAP_DEVICE |
                                           SLUICE_USM_CAP_SHARED |
                                           SLUICE_USM_CAP_HOST);
      EXPECT_TRUE(info.module_formats & (1u << SLUICE_MODULE_NATIVE_OBJECT));
    }
    // Every filter string selects its own device.
    SluiceDevice again;
    ASSERT_OK(sluiceDeviceSelect(info.filter_string, &again));
    EXPECT_EQ(again, d) << info.filter_string;
  }
  EXPECT_TRUE(sawHost);
  SluiceDevice out;
  EXPECT_EQ(sluiceDeviceGet(count, &out), SLUICE_ERROR_DEVICE_NOT_FOUND);
}

TEST(Device, DefaultIsFirstGpuElseHost) {
  SluiceDevice def;
  ASSERT_OK(sluiceDeviceSelect(nullptr, &def));
  SluiceDevice gpu;
  if (sluiceDeviceSelect("gpu", &gpu) == SLUICE_SUCCESS) {
    EXPECT_EQ(def, gpu);
  } else {
    EXPECT_EQ(def, sluice::test::hostDevice());
  }
  SluiceDevice empty;
  ASSERT_OK(sluiceDeviceSelect("", &empty));
  EXPECT_EQ(empty, def);
}

TEST(Device, FallbacksAndAliases) {
  SluiceDevice host = sluice::test::hostDevice(), d;
  ASSERT_OK(sluiceDeviceSelect("native_cpu", &d));
  EXPECT_EQ(d, host);
  ASSERT_OK(sluiceDeviceSelect("cuda:gpu,level_zero,host", &d));
  EXPECT_EQ(d, host);
  EXPECT_EQ(sluiceDeviceSelect("cuda:gpu:7", &d),
            SLUICE_ERROR_DEVICE_NOT_FOUND);
  EXPECT_NE(std::string(sluiceGetLastErrorMessage()).find("cuda:gpu:7"),
            std::string::npos);
}

TEST(Device, BackendStatusExplainsAbsence) {
  uint32_t total = 0, sum = 0;
  ASSERT_OK(sluiceDeviceGetCount(&total));
  for (int b = 0; b < SLUICE_BACKEND_COUNT; ++b) {
    int built = -1;
    uint32_t n = 0;
    const char *note = nullptr;
    ASSERT_OK(sluiceBackendGetStatus(static_cast<SluiceBackend>(b), &built, &n,
                                     &note));
    ASSERT_NE(note, nullptr);
    if (n == 0) {
      EXPECT_GT(std::strlen(note), 0u)
          << sluiceBackendName(static_cast<SluiceBackend>(b));
    }
    sum += n;
  }
  EXPECT_EQ(sum, total);
  EXPECT_STREQ(sluiceBackendName(SLUICE_BACKEND_LEVEL_ZERO), "level_zero");
}

TEST(Device, VerbosePropertiesAreKeyValuePairs) {
  SluiceDevice host = sluice::test::hostDevice();
  uint32_t n = 0;
  ASSERT_OK(sluiceDeviceGetPropertyCount(host, &n));
  ASSERT_GT(n, 0u);
  const char *key, *value;
  ASSERT_OK(sluiceDeviceGetProperty(host, 0, &key, &value));
  EXPECT_GT(std::strlen(key), 0u);
  EXPECT_EQ(sluiceDeviceGetProperty(host, n, &key, &value),
            SLUICE_ERROR_INVALID_VALUE);
}
