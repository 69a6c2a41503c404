//===- ProgramTest.cpp - Program support for compiled host code -----------===//
#include "TestUtil.h"

#include "sluice-c/Program.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

using namespace sluice::test;

namespace {

//===----------------------------------------------------------------------===//
// Host functions with the SluiceHostKernelFn ABI
//===----------------------------------------------------------------------===//

std::atomic<int> wrongLocalSize{0};

/// y[i] = 2 * x[i] for the block of `block` elements of this group (groups
/// numbered x-fastest over a 3-D grid). args: float *x, float *y,
/// uint64_t n, uint64_t block.
void doubleBlocks(void **args, const SluiceHostGroup *g) {
  const float *x = *static_cast<float **>(args[0]);
  float *y = *static_cast<float **>(args[1]);
  uint64_t n = *static_cast<uint64_t *>(args[2]);
  uint64_t block = *static_cast<uint64_t *>(args[3]);
  if (g->local_size[0] != 1 || g->local_size[1] != 1 || g->local_size[2] != 1)
    wrongLocalSize = 1;
  uint64_t group =
      g->group_id[0] +
      g->num_groups[0] * (g->group_id[1] + g->num_groups[1] * g->group_id[2]);
  uint64_t end = std::min(n, (group + 1) * block);
  for (uint64_t i = group * block; i < end; ++i)
    y[i] = 2.0f * x[i];
}

/// Sleeps, then sets p[0..n) to `value`. args: float *p, uint64_t n,
/// float value, uint32_t sleepMs.
void sleepThenFill(void **args, const SluiceHostGroup *) {
  float *p = *static_cast<float **>(args[0]);
  uint64_t n = *static_cast<uint64_t *>(args[1]);
  float value = *static_cast<float *>(args[2]);
  uint32_t ms = *static_cast<uint32_t *>(args[3]);
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  for (uint64_t i = 0; i < n; ++i)
    p[i] = value;
}

/// Counts its calls. args: std::atomic<int> *counter.
void countCalls(void **args, const SluiceHostGroup *) {
  (*static_cast<std::atomic<int> **>(args[0]))->fetch_add(1);
}

void *fnAddress(SluiceHostKernelFn fn) { return reinterpret_cast<void *>(fn); }

/// Launches sleepThenFill as one group on `queue`.
void launchSleepThenFill(void *queue, float *p, uint64_t n, float value,
                         uint32_t ms) {
  void *values[] = {&p, &n, &value, &ms};
  uint64_t sizes[] = {sizeof p, sizeof n, sizeof value, sizeof ms};
  sluiceProgramLaunchHost(queue, fnAddress(sleepThenFill), 1, 1, 1, 4, values,
                          sizes);
}

std::string lastMessage() { return sluiceGetLastErrorMessage(); }

bool mentions(const std::string &text) {
  return lastMessage().find(text) != std::string::npos;
}

SluiceQueue canonicalHostQueue() { return hostQueue(); }

/// Every test starts a fresh invocation with no override.
class Program : public ::testing::Test {
protected:
  void SetUp() override {
    sluiceProgramSetDeviceOverride(nullptr);
    sluiceProgramBegin();
  }
  void TearDown() override {
    sluiceProgramEnd();
    sluiceProgramSetDeviceOverride(nullptr);
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Queues
//===----------------------------------------------------------------------===//

TEST_F(Program, CanonicalQueueIsTheRuntimesAndCached) {
  void *q = sluiceProgramQueue("host:cpu:0", "");
  ASSERT_NE(q, nullptr) << lastMessage();
  EXPECT_EQ(q, canonicalHostQueue());
  EXPECT_EQ(sluiceProgramQueue("host:cpu:0", ""), q);
  EXPECT_EQ(sluiceProgramQueue("host:cpu:0", nullptr), q);
  // Other spellings of the device reach the same queue.
  EXPECT_EQ(sluiceProgramQueue("host", ""), q);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS);
}

TEST_F(Program, NamedQueuesAreDistinctAndCached) {
  void *canonical = sluiceProgramQueue("host:cpu:0", "");
  void *worker = sluiceProgramQueue("host:cpu:0", "worker");
  void *other = sluiceProgramQueue("host:cpu:0", "other");
  ASSERT_NE(worker, nullptr) << lastMessage();
  ASSERT_NE(other, nullptr) << lastMessage();
  EXPECT_NE(worker, canonical);
  EXPECT_NE(worker, other);
  EXPECT_EQ(sluiceProgramQueue("host:cpu:0", "worker"), worker);
  int isCanonical = 1;
  ASSERT_OK(
      sluiceQueueIsCanonical(static_cast<SluiceQueue>(worker), &isCanonical));
  EXPECT_EQ(isCanonical, 0);
  SluiceDevice device = nullptr;
  ASSERT_OK(sluiceQueueGetDevice(static_cast<SluiceQueue>(worker), &device));
  EXPECT_EQ(device, hostDevice());

  // Strings are matched by content, not only by address: a buffer reused
  // for another name gets that name's queue.
  char device_[32], name[32];
  std::strcpy(device_, "host:cpu:0");
  std::strcpy(name, "worker");
  EXPECT_EQ(sluiceProgramQueue(device_, name), worker);
  std::strcpy(name, "other");
  EXPECT_EQ(sluiceProgramQueue(device_, name), other);
  std::strcpy(name, "");
  EXPECT_EQ(sluiceProgramQueue(device_, name), canonical);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS);
}

TEST_F(Program, UnknownDevicesRecordAnErrorNamingThem) {
  EXPECT_EQ(sluiceProgramQueue("nosuch:cpu:0", ""), nullptr);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_INVALID_SELECTOR);
  EXPECT_TRUE(mentions("'nosuch:cpu:0'")) << lastMessage();

  sluiceProgramBegin();
  EXPECT_EQ(sluiceProgramQueue("host:gpu:0", "worker"), nullptr);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_DEVICE_NOT_FOUND);
  EXPECT_TRUE(mentions("'host:gpu:0'")) << lastMessage();

  sluiceProgramBegin();
  EXPECT_EQ(sluiceProgramQueue(nullptr, ""), nullptr);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_INVALID_VALUE);
}

// Only CUDA queues have a launch counter (test/Runtime/CudaTest.cpp): asked
// of a host queue, or of none, the invocation fails with a message.
TEST_F(Program, LaunchCountersAreCudaOnly) {
  void *q = sluiceProgramQueue("host:cpu:0", "");
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(sluiceProgramLaunchCounter(q), nullptr);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_UNSUPPORTED);
  EXPECT_TRUE(mentions("no launch counter")) << lastMessage();

  sluiceProgramBegin();
  EXPECT_EQ(sluiceProgramLaunchCounter(nullptr), nullptr);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_INVALID_VALUE);
}

TEST_F(Program, DeviceOverrideRebindsEveryQueue) {
  void *hostWorker = sluiceProgramQueue("host:cpu:0", "worker");
  ASSERT_OK(sluiceProgramSetDeviceOverrideChecked("host:cpu:0"));
  // Any device the program names, even one this machine lacks.
  for (const char *device : {"opencl:cpu:0", "level_zero:gpu:0", "host"})
    EXPECT_EQ(sluiceProgramQueue(device, ""), canonicalHostQueue()) << device;
  // Names stay distinct: a named queue is the override device's queue of
  // that name.
  void *worker = sluiceProgramQueue("opencl:cpu:0", "worker");
  EXPECT_EQ(worker, hostWorker);
  void *side = sluiceProgramQueue("cuda:gpu:0", "side");
  EXPECT_NE(side, nullptr);
  EXPECT_NE(side, worker);
  EXPECT_NE(side, static_cast<void *>(canonicalHostQueue()));
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();

  // The unchecked form and a SLUICE_DEVICE_SELECTOR-style string.
  sluiceProgramBegin();
  sluiceProgramSetDeviceOverride("host");
  EXPECT_EQ(sluiceProgramQueue("level_zero:gpu:0", ""), canonicalHostQueue());
  ASSERT_OK(sluiceProgramSetDeviceOverrideChecked("*:cpu;!opencl:*"));
  EXPECT_EQ(sluiceProgramQueue("opencl:cpu:0", ""), canonicalHostQueue());

  // Clearing it restores the named devices.
  sluiceProgramSetDeviceOverride("");
  EXPECT_EQ(sluiceProgramQueue("level_zero:gpu:7", ""), nullptr);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_DEVICE_NOT_FOUND);
  ASSERT_OK(sluiceProgramSetDeviceOverrideChecked(nullptr));
}

TEST_F(Program, BadOverrideSelectors) {
  ASSERT_OK(sluiceProgramSetDeviceOverrideChecked("host"));
  EXPECT_EQ(sluiceProgramSetDeviceOverrideChecked("gpu:opencl"),
            SLUICE_ERROR_INVALID_SELECTOR);
  EXPECT_TRUE(mentions("gpu:opencl")) << lastMessage();
  EXPECT_EQ(sluiceProgramSetDeviceOverrideChecked("level_zero:gpu:9"),
            SLUICE_ERROR_DEVICE_NOT_FOUND);
  // A failed check leaves the previous override in place.
  EXPECT_EQ(sluiceProgramQueue("cuda:gpu:0", ""), canonicalHostQueue());
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS);

  // The unchecked form reports at the first queue lookup.
  sluiceProgramBegin();
  sluiceProgramSetDeviceOverride("bogus:thing");
  EXPECT_EQ(sluiceProgramQueue("host:cpu:0", ""), nullptr);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_INVALID_SELECTOR);
  EXPECT_TRUE(mentions("'bogus:thing'")) << lastMessage();
  EXPECT_TRUE(mentions("'host:cpu:0'")) << lastMessage();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

TEST_F(Program, AllocatesEveryKindIncludingZeroBytes) {
  void *q = sluiceProgramQueue("host:cpu:0", "");
  for (SluiceUsmKind kind :
       {SLUICE_USM_DEVICE, SLUICE_USM_SHARED, SLUICE_USM_HOST}) {
    void *p = sluiceProgramAlloc(q, kind, 1000);
    ASSERT_NE(p, nullptr) << lastMessage();
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    SluiceUsmKind got = SLUICE_USM_UNKNOWN;
    size_t size = 0;
    ASSERT_OK(sluicePointerGetInfo(p, &got, nullptr, nullptr, nullptr, &size));
    EXPECT_EQ(got, kind);
    EXPECT_EQ(size, 1000u);
    std::memset(p, 1, 1000);

    void *z1 = sluiceProgramAlloc(q, kind, 0);
    void *z2 = sluiceProgramAlloc(q, kind, 0);
    ASSERT_NE(z1, nullptr) << lastMessage();
    ASSERT_NE(z2, nullptr) << lastMessage();
    EXPECT_NE(z1, z2);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(z1) % 64, 0u);
    ASSERT_OK(sluicePointerGetInfo(z1, &got, nullptr, nullptr, nullptr, &size));
    EXPECT_EQ(got, kind);
    EXPECT_EQ(size, 64u);
    for (void *ptr : {p, z1, z2}) {
      sluiceProgramFree(q, ptr);
      ASSERT_OK(
          sluicePointerGetInfo(ptr, &got, nullptr, nullptr, nullptr, nullptr));
      EXPECT_EQ(got, SLUICE_USM_UNKNOWN);
    }
  }
  sluiceProgramFree(q, nullptr);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();

  sluiceProgramBegin();
  EXPECT_EQ(sluiceProgramAlloc(q, SLUICE_USM_UNKNOWN, 16), nullptr);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_INVALID_VALUE);
  EXPECT_TRUE(mentions("USM kind")) << lastMessage();

  sluiceProgramBegin();
  EXPECT_EQ(sluiceProgramAlloc(nullptr, SLUICE_USM_DEVICE, 16), nullptr);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_INVALID_VALUE);
}

TEST_F(Program, CopiesBetweenHostQueuesAndPlainMemory) {
  void *q0 = sluiceProgramQueue("host:cpu:0", "");
  void *q1 = sluiceProgramQueue("host:cpu:0", "copy-worker");
  const uint64_t n = 50000, bytes = n * 4;
  std::vector<float> in(n), out(n, -1.0f);
  for (uint64_t i = 0; i < n; ++i)
    in[i] = float(i % 101) - 50.0f;
  void *a = sluiceProgramAlloc(q0, SLUICE_USM_DEVICE, bytes);
  void *b = sluiceProgramAlloc(q1, SLUICE_USM_SHARED, bytes);
  sluiceProgramCopy(q0, a, nullptr, in.data(), bytes);
  sluiceProgramCopy(q1, b, q0, a, bytes);
  sluiceProgramCopy(nullptr, out.data(), q1, b, bytes);
  sluiceProgramCopy(q0, a, q1, b, 0); // nothing
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  EXPECT_EQ(out, in);
  sluiceProgramFree(q0, a);
  sluiceProgramFree(q1, b);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
}

TEST_F(Program, CopiesAreOrderedWithBothQueues) {
  void *q0 = sluiceProgramQueue("host:cpu:0", "");
  void *q1 = sluiceProgramQueue("host:cpu:0", "order-worker");
  const uint64_t n = 1024, bytes = n * 4;
  float *buffers[4];
  for (float *&p : buffers) {
    p = static_cast<float *>(sluiceProgramAlloc(q0, SLUICE_USM_HOST, bytes));
    ASSERT_NE(p, nullptr) << lastMessage();
    std::fill(p, p + n, 0.0f);
  }
  float *a = buffers[0], *b = buffers[1], *c = buffers[2], *d = buffers[3];
  // The copy waits for the source queue's earlier work (q1 is idle).
  launchSleepThenFill(q0, a, n, 7.0f, 60);
  sluiceProgramCopy(q1, b, q0, a, bytes);
  // Later work on the source queue waits for the copy: q1 is busy, so the
  // refill of `a` would otherwise run before the copy reads it.
  launchSleepThenFill(q1, c, n, 1.0f, 90);
  sluiceProgramCopy(q1, d, q0, a, bytes);
  launchSleepThenFill(q0, a, n, 9.0f, 0);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  EXPECT_EQ(std::count(b, b + n, 7.0f), int64_t(n));
  EXPECT_EQ(std::count(d, d + n, 7.0f), int64_t(n));
  EXPECT_EQ(std::count(a, a + n, 9.0f), int64_t(n));
  for (float *p : buffers)
    sluiceProgramFree(nullptr, p);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
}

TEST_F(Program, CopiesBetweenHostAndOpenCl) {
  SKIP_WITHOUT_OPENCL(device);
  SluiceDeviceInfo info;
  ASSERT_OK(sluiceDeviceGetInfo(device, &info));
  void *qc = sluiceProgramQueue(info.filter_string, "");
  void *qn = sluiceProgramQueue(info.filter_string, "side");
  void *qh = sluiceProgramQueue("host:cpu:0", "");
  ASSERT_TRUE(qc && qn && qh) << lastMessage();
  EXPECT_NE(qc, qn);
  const uint64_t n = 30000, bytes = n * 4;
  float *h =
      static_cast<float *>(sluiceProgramAlloc(qh, SLUICE_USM_DEVICE, bytes));
  ASSERT_NE(h, nullptr) << lastMessage();
  for (uint64_t i = 0; i < n; ++i)
    h[i] = float(i % 37) * 0.5f;
  std::vector<float> expected(h, h + n), plain(n, -1.0f);
  void *d = sluiceProgramAlloc(qc, SLUICE_USM_DEVICE, bytes);
  void *d2 = sluiceProgramAlloc(qn, SLUICE_USM_DEVICE, bytes);
  float *h2 =
      static_cast<float *>(sluiceProgramAlloc(qh, SLUICE_USM_DEVICE, bytes));
  float *h3 =
      static_cast<float *>(sluiceProgramAlloc(qh, SLUICE_USM_SHARED, bytes));
  ASSERT_TRUE(d && d2 && h2 && h3) << lastMessage();
  // Host-backend memory to OpenCL device memory (OpenCL queue).
  sluiceProgramCopy(qc, d, qh, h, bytes);
  // Between two OpenCL queues.
  sluiceProgramCopy(qn, d2, qc, d, bytes);
  // OpenCL device memory to host-backend memory on the host queue, which
  // cannot reach it: staged through host memory.
  sluiceProgramCopy(qh, h2, qc, d, bytes);
  sluiceProgramCopy(qh, h3, qn, d2, bytes);
  // To plain host memory.
  sluiceProgramCopy(nullptr, plain.data(), qn, d2, bytes);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  EXPECT_EQ(std::vector<float>(h2, h2 + n), expected);
  EXPECT_EQ(std::vector<float>(h3, h3 + n), expected);
  EXPECT_EQ(plain, expected);
  sluiceProgramFree(qh, h);
  sluiceProgramFree(qc, d);
  sluiceProgramFree(qn, d2);
  sluiceProgramFree(qh, h2);
  sluiceProgramFree(qh, h3);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST_F(Program, AFailedAllocationMakesLaterCallsNoOps) {
  void *q = sluiceProgramQueue("host:cpu:0", "");
  void *x = sluiceProgramAlloc(q, SLUICE_USM_DEVICE, 16);
  ASSERT_NE(x, nullptr) << lastMessage();
  EXPECT_EQ(sluiceProgramAlloc(q, SLUICE_USM_HOST, uint64_t(1) << 62), nullptr);
  std::string message = lastMessage();
  EXPECT_NE(message.find("bytes"), std::string::npos) << message;

  std::atomic<int> calls{0};
  std::atomic<int> *counter = &calls;
  void *values[] = {&counter};
  uint64_t sizes[] = {sizeof counter};
  sluiceProgramLaunchHost(q, fnAddress(countCalls), 4, 1, 1, 1, values, sizes);
  float v = 1;
  sluiceProgramCopy(q, x, nullptr, &v, sizeof v);
  // Later failures neither run nor replace the first message.
  EXPECT_EQ(sluiceProgramQueue("nosuch:cpu:0", ""), nullptr);
  EXPECT_EQ(sluiceProgramQueue("host:cpu:0", ""), nullptr);
  EXPECT_EQ(sluiceProgramAlloc(q, SLUICE_USM_HOST, 16), nullptr);
  EXPECT_EQ(sluiceProgramModule(q, SLUICE_MODULE_NATIVE_OBJECT, &v, 4),
            nullptr);
  EXPECT_EQ(lastMessage(), message);
  // Frees still release memory.
  sluiceProgramFree(q, x);
  SluiceUsmKind kind = SLUICE_USM_DEVICE;
  ASSERT_OK(sluicePointerGetInfo(x, &kind, nullptr, nullptr, nullptr, nullptr));
  EXPECT_EQ(kind, SLUICE_USM_UNKNOWN);
  int local = 0;
  sluiceProgramFree(q, &local); // fails, but the first message stays

  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_OUT_OF_HOST_MEMORY);
  EXPECT_EQ(lastMessage(), message);
  EXPECT_EQ(calls.load(), 0);

  // The next invocation starts clean.
  sluiceProgramBegin();
  sluiceProgramLaunchHost(sluiceProgramQueue("host:cpu:0", ""),
                          fnAddress(countCalls), 4, 1, 1, 1, values, sizes);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  EXPECT_EQ(calls.load(), 4);
}

TEST_F(Program, FailRecordsAFormattedMessageAndStopsLaterWork) {
  void *q = sluiceProgramQueue("host:cpu:0", "");
  ASSERT_NE(q, nullptr) << lastMessage();
  const int64_t dims[] = {10, 3, -7};
  sluiceProgramFail(SLUICE_ERROR_INVALID_VALUE,
                    "usm.add at a{{b}.mlir:3:8: shapes ({0},) ({1},) {2} {3} "
                    "{x} {12345678901} {",
                    3, dims);
  std::string message =
      "usm.add at a{b}.mlir:3:8: shapes (10,) (3,) -7 {3} {x} "
      "{12345678901} {";
  EXPECT_EQ(lastMessage(), message);

  // Nothing runs after the check, and later failures keep the first one.
  std::atomic<int> calls{0};
  std::atomic<int> *counter = &calls;
  void *values[] = {&counter};
  uint64_t sizes[] = {sizeof counter};
  sluiceProgramLaunchHost(q, fnAddress(countCalls), 4, 1, 1, 1, values, sizes);
  EXPECT_EQ(sluiceProgramAlloc(q, SLUICE_USM_DEVICE, 16), nullptr);
  sluiceProgramFail(SLUICE_ERROR_UNSUPPORTED, "second", 0, nullptr);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(lastMessage(), message);
  EXPECT_EQ(calls.load(), 0);

  // Out-of-range statuses, NULL and empty formats still fail clearly.
  sluiceProgramBegin();
  sluiceProgramFail(0, nullptr, 0, nullptr);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(lastMessage(), "the program failed a run-time check");
  sluiceProgramBegin();
  sluiceProgramFail(SLUICE_ERROR_UNSUPPORTED, "{0}", 1, nullptr);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_UNSUPPORTED);
  EXPECT_EQ(lastMessage(), "{0}");
}

TEST_F(Program, CallsOutsideBeginAndEndFormAnImplicitInvocation) {
  sluiceProgramEnd(); // leave the fixture's invocation
  EXPECT_EQ(sluiceProgramAlloc(nullptr, SLUICE_USM_DEVICE, 8), nullptr);
  EXPECT_EQ(sluiceProgramQueue("host:cpu:0", ""), nullptr); // sticky
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_INVALID_VALUE);
  // End started a new implicit invocation.
  EXPECT_NE(sluiceProgramQueue("host:cpu:0", ""), nullptr);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS);
  // A Begin discards an unfinished implicit invocation's failure.
  EXPECT_EQ(sluiceProgramQueue("nosuch:cpu:0", ""), nullptr);
  sluiceProgramBegin();
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS);
}

TEST_F(Program, InvocationsAreThreadLocal) {
  // Start the runtime on this thread: PoCL's LLVM installs a heap-allocated
  // signal stack on the thread that loads it, which ASan cannot unmap when
  // a short-lived thread exits.
  ASSERT_NE(hostQueue(), nullptr);
  std::atomic<int> calls{0};
  int32_t failing = -1, working = -1;
  std::thread a([&] {
    sluiceProgramBegin();
    sluiceProgramAlloc(nullptr, SLUICE_USM_DEVICE, 8);
    failing = sluiceProgramEnd();
  });
  std::thread b([&] {
    sluiceProgramBegin();
    std::atomic<int> *counter = &calls;
    void *values[] = {&counter};
    uint64_t sizes[] = {sizeof counter};
    for (int i = 0; i < 100; ++i)
      sluiceProgramLaunchHost(sluiceProgramQueue("host:cpu:0", "thread-b"),
                              fnAddress(countCalls), 2, 1, 1, 1, values, sizes);
    working = sluiceProgramEnd();
  });
  a.join();
  b.join();
  EXPECT_EQ(failing, SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(working, SLUICE_SUCCESS);
  EXPECT_EQ(calls.load(), 200);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS); // this thread: untouched
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

TEST_F(Program, HostFunctionsComputeOverGroups) {
  wrongLocalSize = 0;
  void *q = sluiceProgramQueue("host:cpu:0", "");
  const uint64_t n = 100003, block = 1000;
  const uint64_t groups = (n + block - 1) / block; // 101 = 101 x 1 x 1
  std::vector<float> in(n), out(n);
  for (uint64_t i = 0; i < n; ++i)
    in[i] = float(i % 1009) * 0.25f;
  float *x =
      static_cast<float *>(sluiceProgramAlloc(q, SLUICE_USM_DEVICE, n * 4));
  float *y =
      static_cast<float *>(sluiceProgramAlloc(q, SLUICE_USM_SHARED, n * 4));
  sluiceProgramCopy(q, x, nullptr, in.data(), n * 4);
  void *values[] = {&x, &y, const_cast<uint64_t *>(&n),
                    const_cast<uint64_t *>(&block)};
  uint64_t sizes[] = {8, 8, 8, 8};
  sluiceProgramLaunchHost(q, fnAddress(doubleBlocks), groups, 1, 1, 4, values,
                          sizes);
  sluiceProgramCopy(nullptr, out.data(), q, y, n * 4);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  for (uint64_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], 2.0f * in[i]) << "element " << i;

  // A 3-D grid of groups covers the same elements (7 * 3 * 5 = 105 >= 101);
  // zero groups launch nothing.
  sluiceProgramBegin();
  std::fill(y, y + n, 0.0f);
  sluiceProgramLaunchHost(q, fnAddress(doubleBlocks), 7, 3, 5, 4, values,
                          sizes);
  sluiceProgramLaunchHost(q, fnAddress(doubleBlocks), 0, 1, 1, 4, values,
                          sizes);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  for (uint64_t i = 0; i < n; ++i)
    ASSERT_EQ(y[i], 2.0f * in[i]) << "element " << i;
  EXPECT_EQ(wrongLocalSize.load(), 0);
  sluiceProgramFree(q, x);
  sluiceProgramFree(q, y);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
}

TEST_F(Program, HostLaunchesFollowEarlierWorkOfABusyQueue) {
  // A launch from a waiting entry runs at once on the calling thread only
  // when its queue is idle: here a task of the queue is still running
  // (launched asynchronously), so the next launch must follow it.
  void *q = sluiceProgramQueue("host:cpu:0", "inline-order");
  const uint64_t n = 4096, block = n;
  float *x =
      static_cast<float *>(sluiceProgramAlloc(q, SLUICE_USM_HOST, n * 4));
  float *y =
      static_cast<float *>(sluiceProgramAlloc(q, SLUICE_USM_HOST, n * 4));
  ASSERT_TRUE(x && y) << lastMessage();
  std::fill(x, x + n, 0.0f);
  std::fill(y, y + n, -1.0f);
  sluiceProgramSetThreadAsynchronous(1);
  launchSleepThenFill(q, x, n, 3.0f, 100);
  sluiceProgramSetThreadAsynchronous(-1);
  void *values[] = {&x, &y, const_cast<uint64_t *>(&n),
                    const_cast<uint64_t *>(&block)};
  uint64_t sizes[] = {8, 8, 8, 8};
  sluiceProgramLaunchHost(q, fnAddress(doubleBlocks), 1, 1, 1, 4, values,
                          sizes);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  EXPECT_EQ(std::count(y, y + n, 6.0f), int64_t(n));

  // Idle: the launch has run by the time it returns, and the queue's
  // later tasks (a copy) see its result.
  sluiceProgramBegin();
  std::fill(x, x + n, 5.0f);
  std::vector<float> plain(n, 0.0f);
  sluiceProgramLaunchHost(q, fnAddress(doubleBlocks), 1, 1, 1, 4, values,
                          sizes);
  sluiceProgramCopy(nullptr, plain.data(), q, y, n * 4);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  EXPECT_EQ(std::count(plain.begin(), plain.end(), 10.0f), int64_t(n));
  sluiceProgramFree(q, x);
  sluiceProgramFree(q, y);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
}

TEST_F(Program, EndWaitsForCompletion) {
  void *q0 = sluiceProgramQueue("host:cpu:0", "");
  void *q1 = sluiceProgramQueue("host:cpu:0", "end-worker");
  const uint64_t n = 4096;
  float *a =
      static_cast<float *>(sluiceProgramAlloc(q0, SLUICE_USM_HOST, n * 4));
  float *b =
      static_cast<float *>(sluiceProgramAlloc(q1, SLUICE_USM_HOST, n * 4));
  ASSERT_TRUE(a && b) << lastMessage();
  std::vector<float> plain(n, 0.0f);
  launchSleepThenFill(q0, a, n, 3.0f, 100);
  launchSleepThenFill(q1, b, n, 4.0f, 150);
  sluiceProgramCopy(nullptr, plain.data(), q0, a, n * 4);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  // Nothing left to wait for: every value is there at once.
  EXPECT_EQ(std::count(a, a + n, 3.0f), int64_t(n));
  EXPECT_EQ(std::count(b, b + n, 4.0f), int64_t(n));
  EXPECT_EQ(std::count(plain.begin(), plain.end(), 3.0f), int64_t(n));
  sluiceProgramFree(q0, a);
  sluiceProgramFree(q1, b);
}

TEST_F(Program, AsynchronousEndReturnsBeforeTheWorkIsDone) {
  void *q = sluiceProgramQueue("host:cpu:0", "");
  const uint64_t n = 1024;
  float *a =
      static_cast<float *>(sluiceProgramAlloc(q, SLUICE_USM_HOST, n * 4));
  ASSERT_NE(a, nullptr) << lastMessage();
  std::fill(a, a + n, 0.0f);
  sluiceProgramSetAsynchronous(1);
  launchSleepThenFill(q, a, n, 5.0f, 300);
  // Freed at once: released only after the task (deferred).
  float *tmp =
      static_cast<float *>(sluiceProgramAlloc(q, SLUICE_USM_DEVICE, n * 4));
  launchSleepThenFill(q, tmp, n, 1.0f, 0);
  sluiceProgramFree(q, tmp);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  sluiceProgramSetAsynchronous(0);
  // The 300 ms task is still running; the queue's wait sees it finished.
  EXPECT_EQ(std::count(a, a + n, 5.0f), 0);
  ASSERT_OK(sluiceQueueWait(static_cast<SluiceQueue>(q)));
  EXPECT_EQ(std::count(a, a + n, 5.0f), int64_t(n));
  // Back to synchronous: End waits again.
  launchSleepThenFill(q, a, n, 6.0f, 50);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  EXPECT_EQ(std::count(a, a + n, 6.0f), int64_t(n));
  sluiceProgramFree(q, a);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS);
}

TEST_F(Program, ThreadAsynchronousEndHandsOverTheQueuesEvents) {
  void *q = sluiceProgramQueue("host:cpu:0", "");
  const uint64_t n = 1024;
  float *a =
      static_cast<float *>(sluiceProgramAlloc(q, SLUICE_USM_HOST, n * 4));
  ASSERT_NE(a, nullptr) << lastMessage();
  std::fill(a, a + n, 0.0f);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  EXPECT_EQ(sluiceProgramTakeEvents(nullptr, nullptr, 0), 0u);
  // Only this thread is asynchronous: another thread's End still waits.
  sluiceProgramSetThreadAsynchronous(1);
  sluiceProgramBegin();
  launchSleepThenFill(q, a, n, 7.0f, 200);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  std::thread([&] {
    float *b =
        static_cast<float *>(sluiceProgramAlloc(q, SLUICE_USM_HOST, n * 4));
    launchSleepThenFill(q, b, n, 8.0f, 0);
    EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
    EXPECT_EQ(std::count(b, b + n, 8.0f), int64_t(n)); // waited for
    EXPECT_EQ(sluiceProgramTakeEvents(nullptr, nullptr, 0), 0u);
    sluiceProgramFree(q, b);
    EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS);
  }).join();
  sluiceProgramSetThreadAsynchronous(-1);
  SluiceEvent events[2] = {};
  SluiceQueue queues[2] = {};
  ASSERT_EQ(sluiceProgramTakeEvents(events, queues, 2), 1u);
  EXPECT_EQ(queues[0], static_cast<SluiceQueue>(q));
  ASSERT_NE(events[0], nullptr);
  ASSERT_OK(sluiceEventWait(events[0]));
  EXPECT_EQ(std::count(a, a + n, 7.0f), int64_t(n));
  ASSERT_OK(sluiceEventRelease(events[0]));
  // Handed over once.
  EXPECT_EQ(sluiceProgramTakeEvents(events, queues, 2), 0u);
  // Back to the process-wide setting (waiting): no events are kept.
  launchSleepThenFill(q, a, n, 9.0f, 0);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  EXPECT_EQ(std::count(a, a + n, 9.0f), int64_t(n));
  EXPECT_EQ(sluiceProgramTakeEvents(events, queues, 2), 0u);
  sluiceProgramFree(q, a);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS);
}

TEST_F(Program, NativeModulesAreCachedAndLaunch) {
  static const std::vector<char> binary = readBinary(SLUICE_TEST_HOST_KERNELS);
  ASSERT_FALSE(binary.empty());
  void *q = sluiceProgramQueue("host:cpu:0", "");
  void *m = sluiceProgramModule(q, SLUICE_MODULE_NATIVE_OBJECT, binary.data(),
                                binary.size());
  ASSERT_NE(m, nullptr) << lastMessage();
  EXPECT_EQ(sluiceProgramModule(q, SLUICE_MODULE_NATIVE_OBJECT, binary.data(),
                                binary.size()),
            m);
  const uint64_t n = 10007;
  float *x =
      static_cast<float *>(sluiceProgramAlloc(q, SLUICE_USM_SHARED, n * 4));
  float *y =
      static_cast<float *>(sluiceProgramAlloc(q, SLUICE_USM_SHARED, n * 4));
  ASSERT_TRUE(x && y) << lastMessage();
  for (uint64_t i = 0; i < n; ++i) {
    x[i] = float(i % 7);
    y[i] = 1.0f;
  }
  float a = 3.0f;
  uint64_t count = n;
  void *values[] = {&a, &x, &y, &count};
  uint64_t sizes[] = {4, 8, 8, 8};
  for (int round = 0; round < 2; ++round) // y = 3x + (3x + 1)
    sluiceProgramLaunch(q, m, "axpy", (n + 255) / 256, 1, 1, 256, 1, 1, 4,
                        values, sizes);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  for (uint64_t i = 0; i < n; ++i)
    ASSERT_EQ(y[i], 6.0f * x[i] + 1.0f) << "element " << i;

  sluiceProgramBegin();
  sluiceProgramLaunch(q, m, "no_such_kernel", 1, 1, 1, 1, 1, 1, 4, values,
                      sizes);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_KERNEL_NOT_FOUND);
  EXPECT_TRUE(mentions("no_such_kernel")) << lastMessage();

  sluiceProgramBegin();
  sluiceProgramLaunch(q, m, "axpy", 1, 1, 1, 0, 1, 1, 4, values, sizes);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_INVALID_VALUE);
  sluiceProgramFree(q, x);
  sluiceProgramFree(q, y);
}

TEST_F(Program, BadModulesRecordTheBuildLog) {
  static const char notElf[] = "definitely not an ELF object";
  void *q = sluiceProgramQueue("host:cpu:0", "");
  EXPECT_EQ(sluiceProgramModule(q, SLUICE_MODULE_NATIVE_OBJECT, notElf,
                                sizeof notElf),
            nullptr);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_BUILD_FAILED);
  std::string log = sluiceGetLastBuildLog();
  EXPECT_FALSE(log.empty());
  EXPECT_TRUE(mentions(log)) << lastMessage();
  EXPECT_TRUE(mentions("failed to build")) << lastMessage();

  // The host cannot load SPIR-V.
  sluiceProgramBegin();
  EXPECT_EQ(sluiceProgramModule(q, SLUICE_MODULE_SPIRV, notElf, sizeof notElf),
            nullptr);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_UNSUPPORTED);
  sluiceProgramBegin();
  EXPECT_EQ(sluiceProgramModule(q, 42, notElf, sizeof notElf), nullptr);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_INVALID_VALUE);
}

TEST_F(Program, SpirvKernelsRunOnOpenCl) {
#ifndef SLUICE_TEST_SPIRV_AXPY
  GTEST_SKIP() << "no test SPIR-V kernel (OpenCL or spirv-as missing)";
#else
  SKIP_WITHOUT_OPENCL(device);
  static const std::vector<char> spirv = readBinary(SLUICE_TEST_SPIRV_AXPY);
  ASSERT_FALSE(spirv.empty());
  SluiceDeviceInfo info;
  ASSERT_OK(sluiceDeviceGetInfo(device, &info));
  void *q = sluiceProgramQueue(info.filter_string, "");
  void *m =
      sluiceProgramModule(q, SLUICE_MODULE_SPIRV, spirv.data(), spirv.size());
  ASSERT_NE(m, nullptr) << lastMessage();
  const uint64_t n = 5000;
  std::vector<float> hx(n), hy(n), got(n), ref(n);
  for (uint64_t i = 0; i < n; ++i) {
    hx[i] = float(i % 23) - 4.0f;
    hy[i] = float(i % 5);
    ref[i] = 1.5f * hx[i] + hy[i];
  }
  void *x = sluiceProgramAlloc(q, SLUICE_USM_DEVICE, n * 4);
  void *y = sluiceProgramAlloc(q, SLUICE_USM_DEVICE, n * 4);
  sluiceProgramCopy(q, x, nullptr, hx.data(), n * 4);
  sluiceProgramCopy(q, y, nullptr, hy.data(), n * 4);
  float a = 1.5f;
  uint64_t count = n;
  void *values[] = {&a, &x, &y, &count};
  uint64_t sizes[] = {4, 8, 8, 8};
  sluiceProgramLaunch(q, m, "axpy", (n + 63) / 64, 1, 1, 64, 1, 1, 4, values,
                      sizes);
  sluiceProgramCopy(nullptr, got.data(), q, y, n * 4);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  EXPECT_EQ(got, ref);
  sluiceProgramFree(q, x);
  sluiceProgramFree(q, y);

  // Host functions need a host queue.
  sluiceProgramBegin();
  sluiceProgramLaunchHost(q, fnAddress(doubleBlocks), 1, 1, 1, 4, values,
                          sizes);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_UNSUPPORTED);
  EXPECT_TRUE(mentions(info.filter_string)) << lastMessage();
#endif
}

//===----------------------------------------------------------------------===//
// Library matrix products
//===----------------------------------------------------------------------===//

TEST_F(Program, MatmulOnHostQueuesMatchesLoops) {
  // C[i] = A[i] @ B with B broadcast over the batch (stride 0); A is used
  // transposed in a second product (row stride 1), double precision.
  void *q = sluiceProgramQueue("host:cpu:0", "");
  const uint64_t batch = 3, m = 37, n = 29, k = 45;
  std::vector<double> a(batch * m * k), b(k * n), c(batch * m * n, -1.0),
      ref(batch * m * n, 0.0);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = double(int(i * 7 % 13) - 6) / 8.0;
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = double(int(i * 5 % 11) - 5) / 4.0;
  for (uint64_t t = 0; t < batch; ++t)
    for (uint64_t i = 0; i < m; ++i)
      for (uint64_t p = 0; p < k; ++p)
        for (uint64_t j = 0; j < n; ++j)
          ref[(t * m + i) * n + j] += a[(t * m + i) * k + p] * b[p * n + j];
  auto *da = static_cast<double *>(
      sluiceProgramAlloc(q, SLUICE_USM_DEVICE, a.size() * 8));
  auto *db = static_cast<double *>(
      sluiceProgramAlloc(q, SLUICE_USM_DEVICE, b.size() * 8));
  auto *dc = static_cast<double *>(
      sluiceProgramAlloc(q, SLUICE_USM_SHARED, c.size() * 8));
  sluiceProgramCopy(q, da, nullptr, a.data(), a.size() * 8);
  sluiceProgramCopy(q, db, nullptr, b.data(), b.size() * 8);
  sluiceProgramMatmul(q, 1, batch, m, n, k, da, int64_t(m * k), int64_t(k), 1,
                      db, 0, int64_t(n), 1, dc, int64_t(m * n), int64_t(n));
  sluiceProgramCopy(nullptr, c.data(), q, dc, c.size() * 8);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  for (size_t i = 0; i < c.size(); ++i)
    ASSERT_NEAR(c[i], ref[i], 1e-12) << "element " << i;

  // (A[0]^T)^T @ B: the first batch element read through strides (k x m
  // storage of its transpose is not needed: row stride 1 means "stored
  // column-wise", here the product of B^T (n x k, strides 1, n) and A[0]^T
  // (k x m, strides 1, k)) = (A[0] B)^T.
  sluiceProgramBegin();
  std::vector<double> t(n * m, 0.0);
  auto *dt = static_cast<double *>(
      sluiceProgramAlloc(q, SLUICE_USM_SHARED, n * m * 8));
  sluiceProgramMatmul(q, 1, 1, n, m, k, db, 0, 1, int64_t(n), da, 0, 1,
                      int64_t(k), dt, 0, int64_t(m));
  sluiceProgramCopy(nullptr, t.data(), q, dt, t.size() * 8);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  for (uint64_t i = 0; i < m; ++i)
    for (uint64_t j = 0; j < n; ++j)
      ASSERT_NEAR(t[j * m + i], ref[i * n + j], 1e-12) << i << "," << j;

  // Empty products do nothing; bad arguments are errors, not crashes.
  sluiceProgramBegin();
  sluiceProgramMatmul(q, 0, 1, 0, n, k, nullptr, 0, 0, 1, nullptr, 0, 0, 1,
                      nullptr, 0, 0);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
  sluiceProgramBegin();
  sluiceProgramMatmul(q, 7, 1, m, n, k, da, 0, int64_t(k), 1, db, 0, int64_t(n),
                      1, dc, 0, int64_t(n));
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_INVALID_VALUE);
  EXPECT_NE(lastMessage().find("element type"), std::string::npos)
      << lastMessage();
  sluiceProgramBegin();
  sluiceProgramMatmul(nullptr, 0, 1, m, n, k, da, 0, int64_t(k), 1, db, 0,
                      int64_t(n), 1, dc, 0, int64_t(n));
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_ERROR_INVALID_VALUE);
  sluiceProgramBegin();
  for (void *p : {static_cast<void *>(da), static_cast<void *>(db),
                  static_cast<void *>(dc), static_cast<void *>(dt)})
    sluiceProgramFree(q, p);
  EXPECT_EQ(sluiceProgramEnd(), SLUICE_SUCCESS) << lastMessage();
}
