//===- DeferredFreeTest.cpp - Frees wait for the tasks that use memory ----===//
#include "TestUtil.h"

#include "sluice/Runtime/Platform.h"
#include "sluice/Runtime/SignalEvent.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace sluice::test;

namespace {
size_t pendingFrees() {
  return sluice::rt::Platform::get().deferred().pending();
}
} // namespace

TEST(DeferredFree, FreeWaitsForARunningKernel) {
  sluice::rt::Platform::get().deferred().drain(); // earlier tests' frees
  SluiceModule m = hostKernels();
  SluiceKernel k;
  ASSERT_OK(sluiceKernelGet(m, "wait_gate", &k));
  SluiceQueue q;
  ASSERT_OK(sluiceQueueCreate(hostDevice(), &q));
  int *gate, *out;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_SHARED, sizeof(int), 0,
                         reinterpret_cast<void **>(&gate)));
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, 1 << 20, 0,
                         reinterpret_cast<void **>(&out)));
  storeAtomic(&(*gate), 0);
  uint64_t one[3] = {1, 1, 1};
  SluiceKernelArg args[] = {arg(gate), arg(out)};
  SluiceEvent e;
  ASSERT_OK(sluiceLaunch(q, k, one, one, 2, args, 0, nullptr, &e));
  // The free returns at once; the memory stays until the kernel ends.
  ASSERT_OK(sluiceFree(q, out));
  SluiceUsmKind kind;
  ASSERT_OK(
      sluicePointerGetInfo(out, &kind, nullptr, nullptr, nullptr, nullptr));
  EXPECT_EQ(kind, SLUICE_USM_UNKNOWN); // no longer a live allocation
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(pendingFrees(), 1u);
  SluiceEventStatus status;
  ASSERT_OK(sluiceEventGetStatus(e, &status));
  EXPECT_NE(status, SLUICE_EVENT_COMPLETE);
  storeAtomic(&(*gate), 1); // the kernel writes out[0] now
  ASSERT_OK(sluiceEventWait(e));
  sluice::rt::Platform::get().deferred().drain();
  EXPECT_EQ(pendingFrees(), 0u);
  sluiceEventRelease(e);
  ASSERT_OK(sluiceFree(q, gate));
  ASSERT_OK(sluiceQueueRelease(q));
  ASSERT_OK(sluiceModuleRelease(m));
}

TEST(DeferredFree, FreeOnAnotherQueueWaitsForUsersEverywhere) {
  sluice::rt::Platform::get().deferred().drain(); // earlier tests' frees
  SluiceModule m = hostKernels();
  SluiceKernel k;
  ASSERT_OK(sluiceKernelGet(m, "wait_gate", &k));
  SluiceQueue q1, q2;
  ASSERT_OK(sluiceQueueCreate(hostDevice(), &q1));
  ASSERT_OK(sluiceQueueCreate(hostDevice(), &q2));
  int *gate, *out;
  ASSERT_OK(sluiceMalloc(q1, SLUICE_USM_HOST, sizeof(int), 0,
                         reinterpret_cast<void **>(&gate)));
  ASSERT_OK(sluiceMalloc(q1, SLUICE_USM_SHARED, 64, 0,
                         reinterpret_cast<void **>(&out)));
  storeAtomic(&(*gate), 0);
  uint64_t one[3] = {1, 1, 1};
  SluiceKernelArg args[] = {arg(gate), arg(out)};
  // Used by a kernel on q2, freed through q1 (the allocating queue).
  SluiceEvent e;
  ASSERT_OK(sluiceLaunch(q2, k, one, one, 2, args, 0, nullptr, &e));
  ASSERT_OK(sluiceFree(q1, out));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(pendingFrees(), 1u);
  storeAtomic(&(*gate), 1);
  ASSERT_OK(sluiceEventWait(e));
  sluice::rt::Platform::get().deferred().drain();
  EXPECT_EQ(pendingFrees(), 0u);
  sluiceEventRelease(e);
  ASSERT_OK(sluiceFree(nullptr, gate));
  ASSERT_OK(sluiceQueueRelease(q1));
  ASSERT_OK(sluiceQueueRelease(q2));
  ASSERT_OK(sluiceModuleRelease(m));
}

TEST(DeferredFree, IdleMemoryIsFreedAtOnce) {
  SluiceQueue q = hostQueue();
  ASSERT_OK(sluiceQueueWait(q));
  sluice::rt::Platform::get().deferred().drain();
  void *p;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, 128, 0, &p));
  ASSERT_OK(sluiceFree(q, p));
  EXPECT_EQ(pendingFrees(), 0u);
}

TEST(DeferredFree, ManyThreadsAllocateUseAndFree) {
  SluiceQueue q = hostQueue();
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 100; ++i) {
        void *p = nullptr;
        if (sluiceMalloc(q, SLUICE_USM_SHARED, 4096, 0, &p) ||
            sluiceMemset(q, p, i, 4096, 0, nullptr, nullptr) ||
            sluiceFree(q, p))
          ++failures;
      }
    });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(failures.load(), 0);
  ASSERT_OK(sluiceQueueWait(q));
  sluice::rt::Platform::get().deferred().drain();
  EXPECT_EQ(pendingFrees(), 0u);
}

TEST(DeferredFree, FinishedFreesRunOnTheNextAllocation) {
  using namespace sluice::rt;
  DeferredFree &deferred = Platform::get().deferred();
  deferred.drain();
  // The background thread waits for the first item's task; the second
  // item's task is done, so reaping runs it at once, on this thread.
  auto blocker = makeRef<SignalEvent>(SLUICE_BACKEND_HOST);
  auto done = makeRef<SignalEvent>(SLUICE_BACKEND_HOST);
  std::atomic<int> ran{0};
  deferred.schedule({blocker}, [&] { ran += 1; });
  deferred.schedule({done}, [&] { ran += 10; });
  done->finish();
  EXPECT_EQ(ran.load(), 0);
  deferred.reapFinished();
  EXPECT_EQ(ran.load(), 10);
  blocker->finish();
  deferred.drain();
  EXPECT_EQ(ran.load(), 11);
  EXPECT_EQ(pendingFrees(), 0u);
}
