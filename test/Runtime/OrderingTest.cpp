//===- OrderingTest.cpp - In-order queues, dependencies, events -----------===//
#include "TestUtil.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace sluice::test;

namespace {

/// A launch on the host queue that blocks until *gate != 0.
SluiceEvent launchGate(SluiceQueue q, SluiceKernel k, int *gate, int *out,
                       uint32_t ndeps = 0, const SluiceEvent *deps = nullptr) {
  uint64_t one[3] = {1, 1, 1};
  SluiceKernelArg args[] = {arg(gate), arg(out)};
  SluiceEvent e = nullptr;
  EXPECT_OK(sluiceLaunch(q, k, one, one, 2, args, ndeps, deps, &e));
  return e;
}

} // namespace

TEST(Ordering, InOrderQueueRunsTasksInSubmissionOrder) {
  SluiceQueue q;
  ASSERT_OK(sluiceQueueCreate(hostDevice(), &q));
  uint32_t *p;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_SHARED, 4 * 1000, 0,
                         reinterpret_cast<void **>(&p)));
  // Each copy depends on the previous one having run: the last value wins.
  for (uint32_t v = 0; v < 1000; ++v) {
    uint32_t pattern = v;
    ASSERT_OK(sluiceFill(q, p, &pattern, 4, 4 * 1000, 0, nullptr, nullptr));
  }
  ASSERT_OK(sluiceQueueWait(q));
  for (int i = 0; i < 1000; ++i)
    ASSERT_EQ(p[i], 999u);
  ASSERT_OK(sluiceFree(q, p));
  ASSERT_OK(sluiceQueueRelease(q));
}

TEST(Ordering, SubmissionIsAsynchronousAndDependenciesCrossQueues) {
  SluiceModule m = hostKernels();
  SluiceKernel gateKernel;
  ASSERT_OK(sluiceKernelGet(m, "wait_gate", &gateKernel));
  SluiceQueue q1, q2;
  ASSERT_OK(sluiceQueueCreate(hostDevice(), &q1));
  ASSERT_OK(sluiceQueueCreate(hostDevice(), &q2));
  int *shared;
  ASSERT_OK(sluiceMalloc(q1, SLUICE_USM_SHARED, 4 * sizeof(int), 0,
                         reinterpret_cast<void **>(&shared)));
  storeAtomic(&(shared[0]), 0); // gate
  shared[1] = 0;
  int *gate = &shared[0], *out = &shared[1];
  SluiceEvent running = launchGate(q1, gateKernel, gate, out);
  // The launch returned while the kernel spins.
  SluiceEventStatus status;
  ASSERT_OK(sluiceEventGetStatus(running, &status));
  EXPECT_NE(status, SLUICE_EVENT_COMPLETE);
  // q2's copy waits for q1's launch through the dependency.
  int result = -1;
  SluiceEvent copied;
  ASSERT_OK(sluiceMemcpy(q2, &result, out, sizeof(int), 1, &running, &copied));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_OK(sluiceEventGetStatus(copied, &status));
  EXPECT_NE(status, SLUICE_EVENT_COMPLETE);
  EXPECT_EQ(result, -1);
  storeAtomic(&(*gate), 1);
  ASSERT_OK(sluiceEventWait(copied));
  EXPECT_EQ(result, 42);
  ASSERT_OK(sluiceEventGetStatus(running, &status));
  EXPECT_EQ(status, SLUICE_EVENT_COMPLETE);

  uint64_t submit, start, end;
  ASSERT_OK(sluiceEventGetProfilingInfo(running, &submit, &start, &end));
  EXPECT_LE(submit, start);
  EXPECT_LE(start, end);
  EXPECT_GT(end, 0u);

  for (SluiceEvent e : {running, copied})
    ASSERT_OK(sluiceEventRelease(e));
  ASSERT_OK(sluiceFree(q1, shared));
  ASSERT_OK(sluiceQueueRelease(q1));
  ASSERT_OK(sluiceQueueRelease(q2));
  ASSERT_OK(sluiceModuleRelease(m));
}

TEST(Ordering, OpenClWaitsForHostEvents) {
  SKIP_WITHOUT_OPENCL(ocl);
  SluiceModule m = hostKernels();
  SluiceKernel gateKernel;
  ASSERT_OK(sluiceKernelGet(m, "wait_gate", &gateKernel));
  SluiceQueue hq, oq;
  ASSERT_OK(sluiceQueueCreate(hostDevice(), &hq));
  ASSERT_OK(sluiceQueueGetCanonical(ocl, &oq));
  int *shared;
  ASSERT_OK(sluiceMalloc(hq, SLUICE_USM_SHARED, 2 * sizeof(int), 0,
                         reinterpret_cast<void **>(&shared)));
  storeAtomic(&(shared[0]), 0);
  shared[1] = 0;
  SluiceEvent running = launchGate(hq, gateKernel, &shared[0], &shared[1]);
  // An OpenCL copy of the host result, waiting on the host event.
  int *dev;
  ASSERT_OK(sluiceMalloc(oq, SLUICE_USM_SHARED, sizeof(int), 0,
                         reinterpret_cast<void **>(&dev)));
  *dev = -1;
  SluiceEvent copied;
  ASSERT_OK(
      sluiceMemcpy(oq, dev, &shared[1], sizeof(int), 1, &running, &copied));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  SluiceEventStatus status;
  ASSERT_OK(sluiceEventGetStatus(copied, &status));
  EXPECT_NE(status, SLUICE_EVENT_COMPLETE);
  storeAtomic(&(shared[0]), 1);
  ASSERT_OK(sluiceEventWait(copied));
  EXPECT_EQ(*dev, 42);
  uint64_t submit, start, end;
  ASSERT_OK(sluiceEventGetProfilingInfo(copied, &submit, &start, &end));
  EXPECT_LE(start, end);
  for (SluiceEvent e : {running, copied})
    sluiceEventRelease(e);
  ASSERT_OK(sluiceFree(oq, dev));
  ASSERT_OK(sluiceFree(hq, shared));
  ASSERT_OK(sluiceQueueRelease(hq));
  ASSERT_OK(sluiceModuleRelease(m));
}

TEST(Ordering, WaitOnManyEvents) {
  SluiceQueue q = hostQueue();
  std::vector<SluiceEvent> events;
  std::vector<char> a(1 << 16, 1), b(1 << 16, 0);
  for (int i = 0; i < 8; ++i) {
    SluiceEvent e;
    ASSERT_OK(sluiceMemcpy(q, b.data() + i * 8192, a.data() + i * 8192, 8192, 0,
                           nullptr, &e));
    events.push_back(e);
  }
  ASSERT_OK(
      sluiceEventsWait(static_cast<uint32_t>(events.size()), events.data()));
  for (SluiceEvent e : events)
    sluiceEventRelease(e);
  EXPECT_EQ(a, b);
}
