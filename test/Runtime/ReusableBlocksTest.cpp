//===- ReusableBlocksTest.cpp - Stream-ordered reuse of freed memory ------===//
#include "TestUtil.h"

#include "sluice/Runtime/ReusableBlocks.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

using namespace sluice::test;
using sluice::rt::ReusableBlocks;

namespace {

std::atomic<bool> release{false};

/// Waits until `release`, then fills n floats with a value.
/// args: float *dst, float value, uint64_t n.
void blockThenFill(void **args, const SluiceHostGroup *) {
  while (!release.load())
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  float *dst = *static_cast<float **>(args[0]);
  float v = *static_cast<float *>(args[1]);
  uint64_t n = *static_cast<uint64_t *>(args[2]);
  for (uint64_t i = 0; i < n; ++i)
    dst[i] = v;
}

/// Adds a value to n floats. args: float *dst, float value, uint64_t n.
void addValue(void **args, const SluiceHostGroup *) {
  float *dst = *static_cast<float **>(args[0]);
  float v = *static_cast<float *>(args[1]);
  uint64_t n = *static_cast<uint64_t *>(args[2]);
  for (uint64_t i = 0; i < n; ++i)
    dst[i] += v;
}

/// The host backend's device memory is host memory, so reuse is off there
/// by default; these tests force it on (every access goes through queues).
class ReusableBlocksTest : public ::testing::Test {
protected:
  void SetUp() override {
    ReusableBlocks::setModeForTesting(1);
    release = false;
    const char *names[] = {"block_then_fill", "add_value"};
    SluiceHostKernelFn fns[] = {blockThenFill, addValue};
    ASSERT_OK(
        sluiceModuleCreateHostFunctions(hostDevice(), 2, names, fns, &module));
    ASSERT_OK(sluiceKernelGet(module, "block_then_fill", &blocker));
    ASSERT_OK(sluiceKernelGet(module, "add_value", &adder));
  }
  void TearDown() override {
    release = true;
    sluiceQueueWait(hostQueue());
    ReusableBlocks::setModeForTesting(-1);
    sluiceModuleRelease(module);
  }
  void launch(SluiceQueue q, SluiceKernel k, float *dst, float value,
              SluiceEvent *event = nullptr) {
    SluiceKernelArg args[] = {arg(dst), arg(value), arg(n)};
    uint64_t grid[3] = {1, 1, 1}, local[3] = {1, 1, 1};
    ASSERT_OK(sluiceLaunch(q, k, grid, local, 3, args, 0, nullptr, event));
  }
  std::vector<float> read(SluiceQueue q, const float *src) {
    std::vector<float> out(n);
    EXPECT_OK(sluiceMemcpy(q, out.data(), src, n * 4, 0, nullptr, nullptr));
    EXPECT_OK(sluiceQueueWait(q));
    return out;
  }

  const uint64_t n = 1000;
  SluiceModule module = nullptr;
  SluiceKernel blocker = nullptr, adder = nullptr;
};

} // namespace

TEST_F(ReusableBlocksTest, TheSameQueueGetsAFreedBlockAtOnceInOrder) {
  SluiceQueue q = hostQueue();
  void *p = nullptr;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, n * 4, 64, &p));
  // The kernel that fills p waits for `release`: it is still queued when
  // p is freed and allocated again.
  launch(q, blocker, static_cast<float *>(p), 1.0f);
  ASSERT_OK(sluiceFree(q, p));
  void *again = nullptr;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, n * 4, 64, &again));
  EXPECT_EQ(again, p) << "the block was not handed out again at once";
  // The new owner's task runs after the old one (the queue is in order).
  launch(q, adder, static_cast<float *>(again), 2.0f);
  release = true;
  std::vector<float> got = read(q, static_cast<float *>(again));
  EXPECT_EQ(got, std::vector<float>(n, 3.0f));
  ASSERT_OK(sluiceFree(q, again));
}

TEST_F(ReusableBlocksTest, OtherQueuesWaitForTheOldTasks) {
  SluiceQueue q = hostQueue(), other = nullptr;
  ASSERT_OK(sluiceQueueCreate(hostDevice(), &other));
  void *p = nullptr;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, n * 4, 64, &p));
  launch(q, blocker, static_cast<float *>(p), 1.0f);
  ASSERT_OK(sluiceFree(q, p));
  // Another queue's allocation does not get the block while its old task
  // runs.
  void *elsewhere = nullptr;
  ASSERT_OK(sluiceMalloc(other, SLUICE_USM_DEVICE, n * 4, 64, &elsewhere));
  EXPECT_NE(elsewhere, p);
  // Reused by q, then written on the other queue: that write follows the
  // old task (the fence), so the old task's fill cannot land after it.
  void *again = nullptr;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, n * 4, 64, &again));
  ASSERT_EQ(again, p);
  SluiceEvent added = nullptr;
  launch(other, adder, static_cast<float *>(again), 5.0f, &added);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  SluiceEventStatus s;
  ASSERT_OK(sluiceEventGetStatus(added, &s));
  EXPECT_NE(s, SLUICE_EVENT_COMPLETE) << "ran before the old task";
  release = true;
  ASSERT_OK(sluiceEventWait(added));
  sluiceEventRelease(added);
  std::vector<float> got = read(q, static_cast<float *>(again));
  EXPECT_EQ(got, std::vector<float>(n, 6.0f));
  ASSERT_OK(sluiceFree(q, again));
  ASSERT_OK(sluiceFree(other, elsewhere));
  ASSERT_OK(sluiceQueueWait(other));
  ASSERT_OK(sluiceQueueRelease(other));
}

TEST_F(ReusableBlocksTest, KeptBlocksReachThePoolOnceFinished) {
  SluiceQueue q = hostQueue();
  SluiceDevice d = hostDevice();
  SluiceMemoryPoolInfo before;
  ASSERT_OK(sluiceDeviceGetMemoryPoolInfo(d, &before));
  void *p = nullptr;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, n * 4, 64, &p));
  launch(q, blocker, static_cast<float *>(p), 1.0f);
  ASSERT_OK(sluiceFree(q, p));
  release = true;
  ASSERT_OK(sluiceQueueWait(q));
  SluiceMemoryPoolInfo after;
  ASSERT_OK(sluiceDeviceGetMemoryPoolInfo(d, &after));
  EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
  // Different sizes and kinds do not take it; reuse stays correct for them.
  void *bigger = nullptr;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, n * 40, 64, &bigger));
  EXPECT_NE(bigger, nullptr);
  ASSERT_OK(sluiceFree(q, bigger));
  ASSERT_OK(sluiceQueueWait(q));
}

TEST_F(ReusableBlocksTest, OffByDefaultForMemoryTheHostReaches) {
  // Host-backend device memory is host memory: reuse would let host code
  // write a block a queued task still reads, so it waits for the pool.
  ReusableBlocks::setModeForTesting(-1);
  SluiceQueue q = hostQueue();
  void *p = nullptr, *again = nullptr;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, n * 4, 64, &p));
  launch(q, blocker, static_cast<float *>(p), 1.0f);
  ASSERT_OK(sluiceFree(q, p));
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, n * 4, 64, &again));
  EXPECT_NE(again, p);
  release = true;
  ASSERT_OK(sluiceFree(q, again));
  ASSERT_OK(sluiceQueueWait(q));
}
