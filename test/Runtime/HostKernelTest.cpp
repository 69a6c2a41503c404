//===- HostKernelTest.cpp - Workgroups of native kernels on the host ------===//
#include "TestUtil.h"

#include <cmath>

using namespace sluice::test;

TEST(HostKernel, EveryWorkItemOfA3DGridRunsOnce) {
  SluiceModule m = hostKernels();
  SluiceKernel k;
  ASSERT_OK(sluiceKernelGet(m, "count_items", &k));
  SluiceQueue q = hostQueue();
  uint64_t grid[3] = {7, 5, 3}, local[3] = {4, 3, 2};
  uint64_t total = 1;
  for (int d = 0; d < 3; ++d)
    total *= grid[d] * local[d];
  uint32_t *counts;
  uint64_t *shape;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_SHARED, total * 4, 0,
                         reinterpret_cast<void **>(&counts)));
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_SHARED, 6 * 8, 0,
                         reinterpret_cast<void **>(&shape)));
  ASSERT_OK(sluiceMemset(q, counts, 0, total * 4, 0, nullptr, nullptr));
  SluiceKernelArg args[] = {arg(counts), arg(shape)};
  for (int round = 0; round < 3; ++round)
    ASSERT_OK(sluiceLaunch(q, k, grid, local, 2, args, 0, nullptr, nullptr));
  ASSERT_OK(sluiceQueueWait(q));
  for (uint64_t i = 0; i < total; ++i)
    ASSERT_EQ(counts[i], 3u) << "work-item " << i;
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(shape[d], grid[d]);
    EXPECT_EQ(shape[3 + d], local[d]);
  }
  ASSERT_OK(sluiceFree(q, counts));
  ASSERT_OK(sluiceFree(q, shape));
  ASSERT_OK(sluiceModuleRelease(m));
}

TEST(HostKernel, ModulesAreCachedByContextAndBytes) {
  SluiceModule a = hostKernels(), b = hostKernels();
  EXPECT_EQ(a, b);
  SluiceKernel ka, kb;
  ASSERT_OK(sluiceKernelGet(a, "axpy", &ka));
  ASSERT_OK(sluiceKernelGet(b, "axpy", &kb));
  EXPECT_EQ(ka, kb);
  const char *log = nullptr;
  ASSERT_OK(sluiceModuleGetBuildLog(a, &log));
  EXPECT_NE(log, nullptr);
  ASSERT_OK(sluiceModuleRelease(a));
  ASSERT_OK(sluiceModuleRelease(b));
}
