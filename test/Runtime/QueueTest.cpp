//===- QueueTest.cpp - Canonical queues and queue identity ----------------===//
#include "TestUtil.h"

#include "sluice/Runtime/Queue.h"

#include <set>
#include <thread>

using namespace sluice::test;

TEST(Queue, CanonicalQueueIsOnePerDevice) {
  uint32_t count = 0;
  ASSERT_OK(sluiceDeviceGetCount(&count));
  std::set<SluiceQueue> seen;
  for (uint32_t i = 0; i < count; ++i) {
    SluiceDevice d;
    ASSERT_OK(sluiceDeviceGet(i, &d));
    SluiceQueue a, b;
    ASSERT_OK(sluiceQueueGetCanonical(d, &a));
    ASSERT_OK(sluiceQueueGetCanonical(d, &b));
    EXPECT_EQ(a, b);
    int canonical = 0;
    ASSERT_OK(sluiceQueueIsCanonical(a, &canonical));
    EXPECT_TRUE(canonical);
    SluiceDevice back;
    ASSERT_OK(sluiceQueueGetDevice(a, &back));
    EXPECT_EQ(back, d);
    EXPECT_TRUE(seen.insert(a).second);
  }
}

TEST(Queue, CanonicalQueueUnderManyThreads) {
  uint32_t count = 0;
  ASSERT_OK(sluiceDeviceGetCount(&count));
  std::vector<SluiceDevice> devices(count);
  for (uint32_t i = 0; i < count; ++i)
    ASSERT_OK(sluiceDeviceGet(i, &devices[i]));
  constexpr int threads = 16, rounds = 200;
  std::vector<std::vector<SluiceQueue>> got(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int r = 0; r < rounds; ++r) {
        SluiceQueue q = nullptr;
        SluiceDevice d = devices[(t + r) % devices.size()];
        if (sluiceQueueGetCanonical(d, &q) == SLUICE_SUCCESS)
          got[t].push_back(q);
        else
          got[t].push_back(nullptr);
      }
    });
  for (auto &th : pool)
    th.join();
  for (uint32_t i = 0; i < count; ++i) {
    SluiceQueue expected;
    ASSERT_OK(sluiceQueueGetCanonical(devices[i], &expected));
    for (int t = 0; t < threads; ++t)
      for (int r = 0; r < rounds; ++r)
        if ((t + r) % devices.size() == i) {
          ASSERT_EQ(got[t][r], expected);
        }
  }
}

TEST(Queue, CreatedQueuesAreDistinct) {
  SluiceDevice host = hostDevice();
  SluiceQueue canonical = hostQueue(), a, b;
  ASSERT_OK(sluiceQueueCreate(host, &a));
  ASSERT_OK(sluiceQueueCreate(host, &b));
  EXPECT_NE(a, b);
  EXPECT_NE(a, canonical);
  int isCanonical = 1;
  ASSERT_OK(sluiceQueueIsCanonical(a, &isCanonical));
  EXPECT_FALSE(isCanonical);
  ASSERT_OK(sluiceQueueWait(a));
  ASSERT_OK(sluiceQueueRetain(a));
  ASSERT_OK(sluiceQueueRelease(a));
  ASSERT_OK(sluiceQueueRelease(a));
  ASSERT_OK(sluiceQueueRelease(b));
  // Releasing a canonical queue is harmless.
  ASSERT_OK(sluiceQueueRelease(canonical));
  SluiceQueue again;
  ASSERT_OK(sluiceQueueGetCanonical(host, &again));
  EXPECT_EQ(again, canonical);
  ASSERT_OK(sluiceQueueWait(again));
}

TEST(Queue, CreatedQueueOnEveryDevice) {
  uint32_t count = 0;
  ASSERT_OK(sluiceDeviceGetCount(&count));
  for (uint32_t i = 0; i < count; ++i) {
    SluiceDevice d;
    ASSERT_OK(sluiceDeviceGet(i, &d));
    SluiceQueue q;
    ASSERT_OK(sluiceQueueCreate(d, &q));
    void *p = nullptr;
    ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, 256, 0, &p));
    ASSERT_OK(sluiceMemset(q, p, 7, 256, 0, nullptr, nullptr));
    ASSERT_OK(sluiceFree(q, p));
    ASSERT_OK(sluiceQueueWait(q));
    ASSERT_OK(sluiceQueueRelease(q));
  }
}

// dpctl's "enable_profiling": off by default, on once set, and then every
// task's event has timestamps, also one that was never handed out through
// the C API while it was the queue's newest task (on CUDA such a task has
// none on a queue without the property: no event is recorded for it).
TEST(Queue, ProfilingPropertyOnEveryDevice) {
  uint32_t count = 0;
  ASSERT_OK(sluiceDeviceGetCount(&count));
  for (uint32_t i = 0; i < count; ++i) {
    SluiceDevice d;
    ASSERT_OK(sluiceDeviceGet(i, &d));
    SluiceQueue q;
    ASSERT_OK(sluiceQueueCreate(d, &q));
    int on = 1;
    ASSERT_OK(sluiceQueueGetProfiling(q, &on));
    EXPECT_EQ(on, 0);
    ASSERT_OK(sluiceQueueSetProfiling(q, 1));
    ASSERT_OK(sluiceQueueGetProfiling(q, &on));
    EXPECT_EQ(on, 1);
    void *p = nullptr;
    ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, 1 << 20, 0, &p));
    auto *queue = reinterpret_cast<sluice::rt::Queue *>(q);
    const uint32_t pattern = 0x3f800000u;
    sluice::rt::Ref<sluice::rt::Event> first, second;
    ASSERT_OK(queue->fill(p, &pattern, 4, 1 << 20, {}, first));
    ASSERT_OK(queue->fill(p, &pattern, 4, 1 << 19, {}, second));
    ASSERT_OK(sluiceQueueWait(q));
    uint64_t submit = 0, start = 0, end = 0;
    EXPECT_EQ(first->profiling(submit, start, end), SLUICE_SUCCESS)
        << sluiceGetLastErrorMessage();
    EXPECT_LE(submit, start);
    EXPECT_LE(start, end);
    first = nullptr;
    second = nullptr;
    ASSERT_OK(sluiceFree(q, p));
    ASSERT_OK(sluiceQueueSetProfiling(q, 0));
    ASSERT_OK(sluiceQueueGetProfiling(q, &on));
    EXPECT_EQ(on, 0);
    ASSERT_OK(sluiceQueueWait(q));
    ASSERT_OK(sluiceQueueRelease(q));
  }
  EXPECT_EQ(sluiceQueueSetProfiling(nullptr, 1), SLUICE_ERROR_INVALID_VALUE);
  SluiceQueue host = hostQueue();
  EXPECT_EQ(sluiceQueueGetProfiling(host, nullptr), SLUICE_ERROR_INVALID_VALUE);
}
