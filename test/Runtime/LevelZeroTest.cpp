//===- LevelZeroTest.cpp - The level_zero backend through the test driver -===//
//
// These tests run the level_zero backend end to end on Sluice's Level Zero
// test driver (test/LevelZeroDriver: PoCL underneath). CTest runs them with
// the driver enabled, once more with the loader's validation layer, once on
// a card of two tiles, and once with no driver at all. Run by hand:
//   build/bin/sluice-ze-test-env [--validation]
//     build/bin/sluice-level-zero-tests   (on one line)
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include "SluiceZeTestDriver.h"

#include <level_zero/ze_api.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <numeric>
#include <thread>

using namespace sluice::test;

namespace {

SluiceDevice levelZeroDevice(std::string &why, unsigned index = 0) {
  SluiceDevice d = nullptr;
  std::string selector = "level_zero:gpu:" + std::to_string(index);
  if (sluiceDeviceSelect(selector.c_str(), &d) != SLUICE_SUCCESS) {
    why = std::string("no Level Zero device (run with sluice-ze-test-env): ") +
          sluiceGetLastErrorMessage();
    return nullptr;
  }
  return d;
}

#define SKIP_WITHOUT_LEVEL_ZERO(device)                                        \
  std::string whyNoLevelZero;                                                  \
  SluiceDevice device = levelZeroDevice(whyNoLevelZero);                       \
  if (!device)                                                                 \
  GTEST_SKIP() << whyNoLevelZero

/// What the test driver counts; all zero if it is not loaded.
SluiceZeTestDriverStats driverStats() {
  SluiceZeTestDriverStats stats{};
  if (void *lib = dlopen(SLUICE_ZE_TEST_DRIVER, RTLD_NOW | RTLD_NOLOAD)) {
    auto fn = reinterpret_cast<SluiceZeTestDriverGetStatsFn>(
        dlsym(lib, "sluiceZeTestDriverGetStats"));
    if (fn)
      fn(&stats);
    dlclose(lib);
  }
  return stats;
}

SluiceQueue canonical(SluiceDevice device) {
  SluiceQueue q = nullptr;
  EXPECT_OK(sluiceQueueGetCanonical(device, &q));
  return q;
}

SluiceModule axpyModule(SluiceDevice device) {
  std::vector<char> spv = readBinary(SLUICE_TEST_SPIRV_AXPY);
  EXPECT_FALSE(spv.empty()) << SLUICE_TEST_SPIRV_AXPY;
  SluiceModule m = nullptr;
  EXPECT_OK(sluiceModuleCreate(device, SLUICE_MODULE_SPIRV, spv.data(),
                               spv.size(), &m));
  return m;
}

/// y = a * x + y over n elements, 64 work-items per group.
SluiceStatus axpy(SluiceQueue q, SluiceKernel k, float a, float *x, float *y,
                  uint64_t n, uint32_t ndeps, const SluiceEvent *deps,
                  SluiceEvent *event) {
  uint64_t local[3] = {64, 1, 1}, grid[3] = {(n + 63) / 64, 1, 1};
  SluiceKernelArg args[] = {arg(a), arg(x), arg(y), arg(n)};
  return sluiceLaunch(q, k, grid, local, 4, args, ndeps, deps, event);
}

SluiceEvent launchGate(SluiceQueue q, SluiceKernel k, int *gate, int *out) {
  uint64_t one[3] = {1, 1, 1};
  SluiceKernelArg args[] = {arg(gate), arg(out)};
  SluiceEvent e = nullptr;
  EXPECT_OK(sluiceLaunch(q, k, one, one, 2, args, 0, nullptr, &e));
  return e;
}

SluiceEventStatus statusOf(SluiceEvent e) {
  SluiceEventStatus s = SLUICE_EVENT_ERROR;
  EXPECT_OK(sluiceEventGetStatus(e, &s));
  return s;
}

} // namespace

TEST(LevelZero, DeviceProperties) {
  SKIP_WITHOUT_LEVEL_ZERO(device);
  SluiceDeviceInfo info;
  ASSERT_OK(sluiceDeviceGetInfo(device, &info));
  EXPECT_EQ(info.backend, SLUICE_BACKEND_LEVEL_ZERO);
  EXPECT_EQ(info.type, SLUICE_DEVICE_TYPE_GPU);
  EXPECT_STREQ(info.filter_string, "level_zero:gpu:0");
  EXPECT_NE(std::string(info.name).find("Sluice Level Zero test driver"),
            std::string::npos);
  EXPECT_EQ(info.module_formats, 1u << SLUICE_MODULE_SPIRV);
  EXPECT_EQ(info.usm_capabilities, SLUICE_USM_CAP_DEVICE |
                                       SLUICE_USM_CAP_SHARED |
                                       SLUICE_USM_CAP_HOST);
  EXPECT_GE(info.max_work_group_size, 64u);
  uint32_t count = 0;
  ASSERT_OK(sluiceDeviceGetPropertyCount(device, &count));
  std::map<std::string, std::string> props;
  for (uint32_t i = 0; i < count; ++i) {
    const char *key, *value;
    ASSERT_OK(sluiceDeviceGetProperty(device, i, &key, &value));
    props[key] = value;
  }
  EXPECT_EQ(props["max fill pattern"], "16 bytes");
  EXPECT_EQ(props["compute queue group"], "ordinal 0, 1 queue(s)");
  // With no GPU but this one, it is the default device.
  SluiceDevice def;
  ASSERT_OK(sluiceDeviceSelect(nullptr, &def));
  EXPECT_EQ(def, device);
}

TEST(LevelZero, ModulesAreCachedAndBuildFailuresCarryTheLog) {
  SKIP_WITHOUT_LEVEL_ZERO(device);
  SluiceModule a = axpyModule(device), b = axpyModule(device);
  EXPECT_EQ(a, b);
  SluiceKernel k1, k2;
  ASSERT_OK(sluiceKernelGet(a, "axpy", &k1));
  ASSERT_OK(sluiceKernelGet(b, "axpy", &k2));
  EXPECT_EQ(k1, k2);
  SluiceKernel missing;
  EXPECT_EQ(sluiceKernelGet(a, "saxpy", &missing),
            SLUICE_ERROR_KERNEL_NOT_FOUND);
  EXPECT_NE(std::string(sluiceGetLastErrorMessage()).find("saxpy"),
            std::string::npos);
  sluiceModuleRelease(a);
  sluiceModuleRelease(b);

  // A valid header and a garbage body: the driver's build fails.
  std::vector<uint32_t> words = {0x07230203u, 0x00010000u, 0,          100, 0,
                                 0xdeadbeefu, 0x12345678u, 0x9abcdef0u};
  SluiceModule bad = nullptr;
  EXPECT_EQ(sluiceModuleCreate(device, SLUICE_MODULE_SPIRV, words.data(),
                               words.size() * 4, &bad),
            SLUICE_ERROR_BUILD_FAILED);
  EXPECT_EQ(bad, nullptr);
  std::string message = sluiceGetLastErrorMessage();
  std::string log = sluiceGetLastBuildLog();
  EXPECT_NE(log.find("ZE_RESULT_ERROR_MODULE_BUILD_FAILURE"), std::string::npos)
      << log;
  EXPECT_NE(log.find("llvm-spirv"), std::string::npos) << log;
  EXPECT_NE(message.find(log), std::string::npos) << message;
  // Not SPIR-V at all.
  EXPECT_EQ(
      sluiceModuleCreate(device, SLUICE_MODULE_SPIRV, "nonsense!!!!", 12, &bad),
      SLUICE_ERROR_BUILD_FAILED);
  EXPECT_EQ(sluiceModuleCreate(device, SLUICE_MODULE_PTX, "x", 1, &bad),
            SLUICE_ERROR_UNSUPPORTED);
  EXPECT_EQ(driverStats().errors, 0u);
}

TEST(LevelZero, LaunchesCheckArgumentsAndDeviceLimits) {
  SKIP_WITHOUT_LEVEL_ZERO(device);
  SluiceModule m = axpyModule(device);
  SluiceKernel k;
  ASSERT_OK(sluiceKernelGet(m, "axpy", &k));
  SluiceQueue q = canonical(device);
  float *y;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, 256, 0,
                         reinterpret_cast<void **>(&y)));
  float a = 1;
  uint64_t n = 64, one[3] = {1, 1, 1};
  SluiceKernelArg three[] = {arg(a), arg(y), arg(y)};
  EXPECT_EQ(sluiceLaunch(q, k, one, one, 3, three, 0, nullptr, nullptr),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(sluiceGetLastErrorMessage())
                .find("the kernel takes 4 arguments, 3 were given"),
            std::string::npos)
      << sluiceGetLastErrorMessage();
  SluiceKernelArg four[] = {arg(a), arg(y), arg(y), arg(n)};
  uint64_t huge[3] = {uint64_t(1) << 33, 1, 1};
  EXPECT_EQ(sluiceLaunch(q, k, huge, one, 4, four, 0, nullptr, nullptr),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(sluiceGetLastErrorMessage())
                .find("exceed the device maximum"),
            std::string::npos)
      << sluiceGetLastErrorMessage();
  // Nothing was submitted: the queue is idle and the memory free at once.
  ASSERT_OK(sluiceQueueWait(q));
  ASSERT_OK(sluiceFree(q, y));
  sluiceModuleRelease(m);
  EXPECT_EQ(driverStats().errors, 0u);
}

TEST(LevelZero, EventsComeFromRecycledPools) {
  SKIP_WITHOUT_LEVEL_ZERO(device);
  SluiceQueue q = canonical(device);
  uint32_t *p;
  ASSERT_OK(
      sluiceMalloc(q, SLUICE_USM_DEVICE, 64, 0, reinterpret_cast<void **>(&p)));
  SluiceZeTestDriverStats before = driverStats();
  for (uint32_t i = 0; i < 3000; ++i) {
    ASSERT_OK(sluiceFill(q, p, &i, 4, 64, 0, nullptr, nullptr));
    if (i % 100 == 99) {
      ASSERT_OK(sluiceQueueWait(q));
    }
  }
  ASSERT_OK(sluiceQueueWait(q));
  SluiceZeTestDriverStats after = driverStats();
  EXPECT_EQ(after.commands_appended - before.commands_appended, 3000u);
  // At most ~100 commands are in flight: one or two pools serve them all.
  EXPECT_LE(after.event_pools_created, 2u);
  EXPECT_EQ(after.events, after.event_pools * 128);
  uint32_t last = 0;
  ASSERT_OK(sluiceMemcpy(q, &last, p, 4, 0, nullptr, nullptr));
  ASSERT_OK(sluiceQueueWait(q));
  EXPECT_EQ(last, 2999u);
  ASSERT_OK(sluiceFree(q, p));
  EXPECT_EQ(after.errors, 0u);
}

TEST(LevelZero, WaitsForEventsOfOtherBackends) {
  SKIP_WITHOUT_LEVEL_ZERO(device);
  SluiceModule hm = hostKernels();
  SluiceKernel gateKernel;
  ASSERT_OK(sluiceKernelGet(hm, "wait_gate", &gateKernel));
  SluiceQueue hq = hostQueue(), q = canonical(device);
  int *shared;
  ASSERT_OK(sluiceMalloc(hq, SLUICE_USM_SHARED, 2 * sizeof(int), 0,
                         reinterpret_cast<void **>(&shared)));
  storeAtomic(&shared[0], 0);
  shared[1] = 0;
  SluiceEvent running = launchGate(hq, gateKernel, &shared[0], &shared[1]);
  int *dev;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_HOST, sizeof(int), 0,
                         reinterpret_cast<void **>(&dev)));
  *dev = -1;
  SluiceEvent copied;
  ASSERT_OK(
      sluiceMemcpy(q, dev, &shared[1], sizeof(int), 1, &running, &copied));
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_NE(statusOf(copied), SLUICE_EVENT_COMPLETE);
  EXPECT_EQ(*dev, -1);
  storeAtomic(&shared[0], 1);
  ASSERT_OK(sluiceEventWait(copied));
  EXPECT_EQ(*dev, 42);
  for (SluiceEvent e : {running, copied})
    sluiceEventRelease(e);
  ASSERT_OK(sluiceFree(q, dev));
  ASSERT_OK(sluiceFree(hq, shared));
  ASSERT_OK(sluiceModuleRelease(hm));
  EXPECT_EQ(driverStats().errors, 0u);
}

TEST(LevelZero, OtherBackendsWaitForLevelZeroEvents) {
  SKIP_WITHOUT_LEVEL_ZERO(device);
  SluiceModule hm = hostKernels();
  SluiceKernel gateKernel;
  ASSERT_OK(sluiceKernelGet(hm, "wait_gate", &gateKernel));
  SluiceQueue hq = hostQueue(), q = canonical(device);
  int *shared;
  ASSERT_OK(sluiceMalloc(hq, SLUICE_USM_SHARED, 2 * sizeof(int), 0,
                         reinterpret_cast<void **>(&shared)));
  storeAtomic(&shared[0], 0);
  shared[1] = 0;
  SluiceQueue hq2;
  ASSERT_OK(sluiceQueueCreate(hostDevice(), &hq2));
  SluiceEvent running = launchGate(hq2, gateKernel, &shared[0], &shared[1]);
  // host gate -> Level Zero copy -> host copy and OpenCL copy.
  int *dev;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_HOST, sizeof(int), 0,
                         reinterpret_cast<void **>(&dev)));
  *dev = -1;
  SluiceEvent zeCopy;
  ASSERT_OK(
      sluiceMemcpy(q, dev, &shared[1], sizeof(int), 1, &running, &zeCopy));
  int onHost = -1;
  SluiceEvent hostCopy;
  ASSERT_OK(sluiceMemcpy(hq, &onHost, dev, sizeof(int), 1, &zeCopy, &hostCopy));
  std::string whyNoOpenCl;
  SluiceDevice ocl = openclDevice(whyNoOpenCl);
  int onOpenCl = -1;
  SluiceEvent oclCopy = nullptr;
  if (ocl) {
    ASSERT_OK(sluiceMemcpy(canonical(ocl), &onOpenCl, dev, sizeof(int), 1,
                           &zeCopy, &oclCopy));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_NE(statusOf(hostCopy), SLUICE_EVENT_COMPLETE);
  if (oclCopy) {
    EXPECT_NE(statusOf(oclCopy), SLUICE_EVENT_COMPLETE);
  }
  storeAtomic(&shared[0], 1);
  ASSERT_OK(sluiceEventWait(hostCopy));
  EXPECT_EQ(onHost, 42);
  if (oclCopy) {
    ASSERT_OK(sluiceEventWait(oclCopy));
    EXPECT_EQ(onOpenCl, 42);
    sluiceEventRelease(oclCopy);
  }
  for (SluiceEvent e : {running, zeCopy, hostCopy})
    sluiceEventRelease(e);
  ASSERT_OK(sluiceFree(q, dev));
  ASSERT_OK(sluiceFree(hq, shared));
  ASSERT_OK(sluiceQueueRelease(hq2));
  ASSERT_OK(sluiceModuleRelease(hm));
  EXPECT_EQ(driverStats().errors, 0u);
}

TEST(LevelZero, FreeWaitsForTheKernelsUsingTheMemory) {
  SKIP_WITHOUT_LEVEL_ZERO(device);
  SluiceModule hm = hostKernels(), m = axpyModule(device);
  SluiceKernel gateKernel, k;
  ASSERT_OK(sluiceKernelGet(hm, "wait_gate", &gateKernel));
  ASSERT_OK(sluiceKernelGet(m, "axpy", &k));
  SluiceQueue hq;
  ASSERT_OK(sluiceQueueCreate(hostDevice(), &hq));
  SluiceQueue q = canonical(device);
  int *shared;
  ASSERT_OK(sluiceMalloc(hostQueue(), SLUICE_USM_SHARED, 2 * sizeof(int), 0,
                         reinterpret_cast<void **>(&shared)));
  storeAtomic(&shared[0], 0);
  SluiceEvent gate = launchGate(hq, gateKernel, &shared[0], &shared[1]);
  const uint64_t n = 1024;
  float *x, *y;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, n * 4, 0,
                         reinterpret_cast<void **>(&x)));
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, n * 4, 0,
                         reinterpret_cast<void **>(&y)));
  SluiceEvent launched;
  ASSERT_OK(axpy(q, k, 2.0f, x, y, n, 1, &gate, &launched));
  uint64_t allocations = driverStats().allocations;
  // Freed while the launch waits: the driver would report a zeMemFree
  // under a pending command.
  ASSERT_OK(sluiceFree(nullptr, x));
  ASSERT_OK(sluiceFree(nullptr, y));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(driverStats().allocations, allocations);
  storeAtomic(&shared[0], 1);
  ASSERT_OK(sluiceEventWait(launched));
  ASSERT_OK(sluiceQueueWait(q));
  // The deferred frees ran once the launch finished: the blocks are back in
  // the device's pool, which gives them to the driver when trimmed.
  SluiceMemoryPoolInfo info{};
  for (int i = 0; i < 200; ++i) {
    ASSERT_OK(sluiceDeviceGetMemoryPoolInfo(device, &info));
    if (info.bytes_held >= 2 * n * 4)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_GE(info.bytes_held, 2 * n * 4);
  ASSERT_OK(sluiceDeviceTrimMemoryPool(device));
  EXPECT_EQ(driverStats().allocations, allocations - 2);
  for (SluiceEvent e : {gate, launched})
    sluiceEventRelease(e);
  ASSERT_OK(sluiceFree(nullptr, shared));
  ASSERT_OK(sluiceQueueRelease(hq));
  sluiceModuleRelease(hm);
  sluiceModuleRelease(m);
  EXPECT_EQ(driverStats().errors, 0u);
}

// Queue identity and cross-queue work: BackendConformanceTest.cpp.
TEST(LevelZero, ReleasingAQueueDestroysItsCommandList) {
  SKIP_WITHOUT_LEVEL_ZERO(device);
  SluiceQueue a, b;
  ASSERT_OK(sluiceQueueCreate(device, &a));
  ASSERT_OK(sluiceQueueCreate(device, &b));
  uint64_t before = driverStats().command_lists;
  int32_t *p;
  ASSERT_OK(
      sluiceMalloc(a, SLUICE_USM_SHARED, 8, 0, reinterpret_cast<void **>(&p)));
  int32_t v1 = 5, v2 = 9;
  SluiceEvent first;
  ASSERT_OK(sluiceFill(a, p, &v1, 4, 4, 0, nullptr, &first));
  ASSERT_OK(sluiceFill(b, p + 1, &v2, 4, 4, 1, &first, nullptr));
  ASSERT_OK(sluiceQueueWait(a));
  ASSERT_OK(sluiceQueueWait(b));
  sluiceEventRelease(first);
  ASSERT_OK(sluiceFree(b, p));
  ASSERT_OK(sluiceQueueRelease(a));
  ASSERT_OK(sluiceQueueRelease(b));
  EXPECT_EQ(driverStats().command_lists, before - 2);
  EXPECT_EQ(driverStats().errors, 0u);
}

TEST(LevelZero, TilesOfOneCardShareAContext) {
  // Registered with SLUICE_ZE_TEST_DRIVER_SUBDEVICES=2: the driver exposes
  // two tiles (ZE_FLAT_DEVICE_HIERARCHY=FLAT, its default) in one context.
  std::string why;
  SluiceDevice d0 = levelZeroDevice(why, 0), d1 = levelZeroDevice(why, 1);
  if (!d0 || !d1)
    GTEST_SKIP() << "needs two Level Zero devices: " << why;
  SluiceQueue q0 = canonical(d0), q1 = canonical(d1);
  EXPECT_NE(q0, q1);
  // A module of one device is the module of the context: it also runs on
  // the other tile, built there on first launch.
  SluiceModule m0 = axpyModule(d0), m1 = axpyModule(d1);
  EXPECT_EQ(m0, m1);
  SluiceKernel k;
  ASSERT_OK(sluiceKernelGet(m0, "axpy", &k));
  const uint64_t n = 300;
  float *x, *y;
  ASSERT_OK(sluiceMalloc(q0, SLUICE_USM_DEVICE, n * 4, 0,
                         reinterpret_cast<void **>(&x)));
  ASSERT_OK(sluiceMalloc(q0, SLUICE_USM_SHARED, n * 4, 0,
                         reinterpret_cast<void **>(&y)));
  float one = 1, zero = 0;
  SluiceEvent filled[2];
  ASSERT_OK(sluiceFill(q0, x, &one, 4, n * 4, 0, nullptr, &filled[0]));
  ASSERT_OK(sluiceFill(q0, y, &zero, 4, n * 4, 0, nullptr, &filled[1]));
  SluiceEvent on0, on1;
  ASSERT_OK(axpy(q0, k, 1.0f, x, y, n, 2, filled, &on0));
  ASSERT_OK(axpy(q1, k, 2.0f, x, y, n, 1, &on0, &on1));
  ASSERT_OK(sluiceEventWait(on1));
  for (uint64_t i = 0; i < n; ++i)
    ASSERT_EQ(y[i], 3.0f) << i;
  EXPECT_GE(driverStats().modules_created, 2u);
  for (SluiceEvent e : {filled[0], filled[1], on0, on1})
    sluiceEventRelease(e);
  ASSERT_OK(sluiceFree(q1, x));
  ASSERT_OK(sluiceFree(q1, y));
  sluiceModuleRelease(m0);
  sluiceModuleRelease(m1);
  EXPECT_EQ(driverStats().errors, 0u);
}

TEST(LevelZero, CompositeCardHasTileSubDevices) {
  // Registered with SLUICE_ZE_TEST_DRIVER_SUBDEVICES=2 and
  // ZE_FLAT_DEVICE_HIERARCHY=COMPOSITE: one device, its two tiles its
  // sub-devices, reached through it and by "level_zero:gpu:0.N".
  std::string why;
  SluiceDevice card = levelZeroDevice(why, 0);
  if (!card)
    GTEST_SKIP() << why;
  uint32_t count = 0;
  ASSERT_OK(sluiceDeviceGetSubDevices(card, &count, nullptr));
  if (count == 0)
    GTEST_SKIP() << "the device has no sub-devices (not a composite card)";
  ASSERT_EQ(count, 2u);
  SluiceDevice none = nullptr;
  EXPECT_EQ(levelZeroDevice(why, 1), none); // tiles are not visible devices
  SluiceDevice tiles[3] = {};
  uint32_t asked = 3;
  ASSERT_OK(sluiceDeviceGetSubDevices(card, &asked, tiles));
  EXPECT_EQ(asked, 2u);
  asked = 1;
  SluiceDevice first = nullptr;
  ASSERT_OK(sluiceDeviceGetSubDevices(card, &asked, &first));
  EXPECT_EQ(asked, 1u);
  EXPECT_EQ(first, tiles[0]);
  SluiceDevice parent = tiles[0];
  ASSERT_OK(sluiceDeviceGetParent(card, &parent));
  EXPECT_EQ(parent, none);
  for (uint32_t i = 0; i < 2; ++i) {
    ASSERT_OK(sluiceDeviceGetParent(tiles[i], &parent));
    EXPECT_EQ(parent, card);
    SluiceDeviceInfo info;
    ASSERT_OK(sluiceDeviceGetInfo(tiles[i], &info));
    std::string filter = "level_zero:gpu:0." + std::to_string(i);
    EXPECT_EQ(std::string(info.filter_string), filter);
    SluiceDevice selected = nullptr;
    ASSERT_OK(sluiceDeviceSelect(filter.c_str(), &selected));
    EXPECT_EQ(selected, tiles[i]);
    uint32_t nested = 5;
    ASSERT_OK(sluiceDeviceGetSubDevices(tiles[i], &nested, nullptr));
    EXPECT_EQ(nested, 0u);
  }
  SluiceDevice d = nullptr;
  EXPECT_EQ(sluiceDeviceSelect("level_zero:gpu:0.2", &d),
            SLUICE_ERROR_DEVICE_NOT_FOUND);
  EXPECT_EQ(sluiceDeviceSelect("level_zero:gpu:0.x", &d),
            SLUICE_ERROR_INVALID_SELECTOR);
  EXPECT_EQ(sluiceDeviceSelect("level_zero:gpu:x.1", &d),
            SLUICE_ERROR_INVALID_SELECTOR);
  // A fallback term after a missing sub-device.
  ASSERT_OK(sluiceDeviceSelect("level_zero:gpu:0.7,level_zero:gpu:0.1", &d));
  EXPECT_EQ(d, tiles[1]);
  // A tile runs kernels on its own queue.
  SluiceQueue q = canonical(tiles[1]);
  SluiceModule m = axpyModule(tiles[1]);
  SluiceKernel k;
  ASSERT_OK(sluiceKernelGet(m, "axpy", &k));
  const uint64_t n = 100;
  float *x, *y;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_SHARED, n * 4, 0,
                         reinterpret_cast<void **>(&x)));
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_SHARED, n * 4, 0,
                         reinterpret_cast<void **>(&y)));
  for (uint64_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }
  SluiceEvent done;
  ASSERT_OK(axpy(q, k, 2.0f, x, y, n, 0, nullptr, &done));
  ASSERT_OK(sluiceEventWait(done));
  for (uint64_t i = 0; i < n; ++i)
    ASSERT_EQ(y[i], 2.0f * i + 1.0f) << i;
  sluiceEventRelease(done);
  ASSERT_OK(sluiceFree(q, x));
  ASSERT_OK(sluiceFree(q, y));
  sluiceModuleRelease(m);
  EXPECT_EQ(driverStats().errors, 0u);
}

TEST(LevelZeroWithoutDriver, NoDevicesQuietlyAndClearSelectorErrors) {
  // Registered with a driver list that loads nothing, like a machine
  // without a Level Zero driver.
  testing::internal::CaptureStderr();
  uint32_t count = 0;
  ASSERT_OK(sluiceDeviceGetCount(&count));
  std::string printed = testing::internal::GetCapturedStderr();
  int builtIn = 0;
  uint32_t devices = 0;
  const char *note = nullptr;
  ASSERT_OK(sluiceBackendGetStatus(SLUICE_BACKEND_LEVEL_ZERO, &builtIn,
                                   &devices, &note));
  if (devices)
    GTEST_SKIP() << "a Level Zero driver is loaded";
  EXPECT_EQ(printed, "");
  EXPECT_EQ(builtIn, 1);
  EXPECT_STREQ(note, "no Level Zero driver found");
  SluiceDevice d;
  EXPECT_EQ(sluiceDeviceSelect("level_zero:gpu:0", &d),
            SLUICE_ERROR_DEVICE_NOT_FOUND);
  EXPECT_NE(std::string(sluiceGetLastErrorMessage())
                .find("level_zero: no Level Zero driver found"),
            std::string::npos)
      << sluiceGetLastErrorMessage();
  // A fallback after it still works.
  ASSERT_OK(sluiceDeviceSelect("level_zero,host", &d));
}

// The test driver's own checks: misuse is reported and fails the process
// (status 86 at exit). Each case runs in a child process.
namespace {

struct ZeObjects {
  ze_driver_handle_t driver = nullptr;
  ze_device_handle_t device = nullptr;
  ze_context_handle_t context = nullptr;
  ze_command_list_handle_t list = nullptr;
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t events[2] = {nullptr, nullptr};
  void *memory = nullptr;
};

void openLevelZero(ZeObjects &o) {
  if (zeInit(0))
    std::exit(3);
  uint32_t n = 1;
  if (zeDriverGet(&n, &o.driver) || zeDeviceGet(o.driver, &n, &o.device))
    std::exit(4);
  ze_context_desc_t cd{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                             nullptr,
                             0,
                             0,
                             0,
                             ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                             ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
  ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                          ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 2};
  ze_device_mem_alloc_desc_t md{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                nullptr, 0, 0};
  if (zeContextCreate(o.driver, &cd, &o.context) ||
      zeCommandListCreateImmediate(o.context, o.device, &qd, &o.list) ||
      zeEventPoolCreate(o.context, &pd, 0, nullptr, &o.pool) ||
      zeMemAllocDevice(o.context, &md, 64, 0, o.device, &o.memory))
    std::exit(5);
  for (uint32_t i = 0; i < 2; ++i) {
    ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, i,
                       ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    if (zeEventCreate(o.pool, &ed, &o.events[i]))
      std::exit(6);
  }
}

void closeLevelZero(ZeObjects &o) {
  zeEventDestroy(o.events[0]);
  zeEventDestroy(o.events[1]);
  zeEventPoolDestroy(o.pool);
  zeMemFree(o.context, o.memory);
  zeCommandListDestroy(o.list);
  zeContextDestroy(o.context);
}

/// Appends a fill of o.memory that waits for events[0], which nobody has
/// signaled yet: a command that stays pending.
void appendPendingFill(ZeObjects &o) {
  uint32_t pattern = 7;
  if (zeCommandListAppendMemoryFill(o.list, o.memory, &pattern, 4, 64,
                                    o.events[1], 1, &o.events[0]))
    std::exit(7);
}

void finishPendingFill(ZeObjects &o) {
  zeEventHostSignal(o.events[0]);
  zeEventHostSynchronize(o.events[1], UINT64_MAX);
}

bool haveDriver() {
  std::string why;
  return levelZeroDevice(why) != nullptr;
}

} // namespace

TEST(LevelZeroTestDriver, CleanUseExitsNormally) {
  if (!haveDriver())
    GTEST_SKIP() << "no Level Zero test driver";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ZeObjects o;
        openLevelZero(o);
        appendPendingFill(o);
        finishPendingFill(o);
        closeLevelZero(o);
        std::exit(0);
      },
      testing::ExitedWithCode(0), "");
}

TEST(LevelZeroTestDriver, ReportsFreeingMemoryOfPendingCommands) {
  if (!haveDriver())
    GTEST_SKIP() << "no Level Zero test driver";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ZeObjects o;
        openLevelZero(o);
        appendPendingFill(o);
        if (zeMemFree(o.context, o.memory) !=
            ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE)
          std::exit(8);
        finishPendingFill(o);
        closeLevelZero(o);
        std::exit(0);
      },
      testing::ExitedWithCode(86),
      "error: zeMemFree: 1 pending command\\(s\\) still use the memory");
}

TEST(LevelZeroTestDriver, ReportsResettingEventsThatCommandsWaitFor) {
  if (!haveDriver())
    GTEST_SKIP() << "no Level Zero test driver";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ZeObjects o;
        openLevelZero(o);
        appendPendingFill(o);
        if (zeEventHostReset(o.events[0]) !=
            ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE)
          std::exit(8);
        finishPendingFill(o);
        closeLevelZero(o);
        std::exit(0);
      },
      testing::ExitedWithCode(86),
      "error: zeEventHostReset: 1 pending command\\(s\\) wait for it");
}

TEST(LevelZeroTestDriver, ReportsLeaksAtExit) {
  if (!haveDriver())
    GTEST_SKIP() << "no Level Zero test driver";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ZeObjects o;
        openLevelZero(o);
        zeEventDestroy(o.events[0]);
        zeEventDestroy(o.events[1]);
        zeEventPoolDestroy(o.pool);
        std::exit(0); // the list, the memory and the context leak
      },
      testing::ExitedWithCode(86),
      "leak: still alive at unload: 1 allocation, 1 command list, 1 "
      "context");
}

/// Sets the environment of a test variant before the runtime starts:
///   driver      the test driver
///   validation  the test driver under the loader's validation layer
///   tiles       the same, the driver exposing a card of two tiles
///   composite   the test driver exposing a card of two tiles as one device
///               with two sub-devices (ZE_FLAT_DEVICE_HIERARCHY=COMPOSITE)
///   none        a driver list that loads nothing (no Level Zero driver)
///   checks      the test driver (for its own misuse checks)
/// Without --ze-env the environment is left as it is.
static bool applyVariant(const std::string &variant) {
  auto set = [](const char *name, const char *value) {
    setenv(name, value, 1);
  };
  if (variant == "none") {
    set("ZE_ENABLE_ALT_DRIVERS", "/nonexistent/libsluice_no_ze_driver.so");
    return true;
  }
  set("ZE_ENABLE_ALT_DRIVERS", SLUICE_ZE_TEST_DRIVER);
  if (variant == "driver" || variant == "checks")
    return true;
  if (variant == "composite") {
    set("SLUICE_ZE_TEST_DRIVER_SUBDEVICES", "2");
    set("ZE_FLAT_DEVICE_HIERARCHY", "COMPOSITE");
    return true;
  }
  if (variant != "validation" && variant != "tiles")
    return false;
  set("ZE_ENABLE_VALIDATION_LAYER", "1");
  set("ZE_ENABLE_PARAMETER_VALIDATION", "1");
  // Not implemented by loader 1.8 (the driver checks lifetimes and leaks
  // itself); newer loaders check handles and report leaks with these.
  set("ZE_ENABLE_HANDLE_LIFETIME", "1");
  set("ZEL_ENABLE_BASIC_LEAK_CHECKER", "1");
  if (variant == "tiles")
    set("SLUICE_ZE_TEST_DRIVER_SUBDEVICES", "2");
  return true;
}

int main(int argc, char **argv) {
  testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--ze-env=", 0) == 0 && !applyVariant(a.substr(9))) {
      std::fprintf(stderr, "unknown --ze-env variant '%s'\n", a.c_str() + 9);
      return 2;
    }
  }
  return RUN_ALL_TESTS();
}
