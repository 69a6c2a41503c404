//===- HostFunctionModuleTest.cpp - Functions of this process as kernels --===//
#include "TestUtil.h"

#include <atomic>

using namespace sluice::test;

namespace {

/// Counts its calls. args: std::atomic<int> *counter.
void countCalls(void **args, const SluiceHostGroup *) {
  (*static_cast<std::atomic<int> **>(args[0]))->fetch_add(1);
}

/// Adds the group's work-item count to *items. args: std::atomic<uint64_t> *.
void countItems(void **args, const SluiceHostGroup *g) {
  (*static_cast<std::atomic<uint64_t> **>(args[0]))
      ->fetch_add(g->local_size[0] * g->local_size[1] * g->local_size[2]);
}

bool mentions(const std::string &text) {
  return std::string(sluiceGetLastErrorMessage()).find(text) !=
         std::string::npos;
}

} // namespace

TEST(HostFunctionModule, KernelsAreTheGivenFunctions) {
  const char *names[] = {"count_items", "count_calls"};
  SluiceHostKernelFn fns[] = {countItems, countCalls};
  SluiceModule m = nullptr;
  ASSERT_OK(sluiceModuleCreateHostFunctions(hostDevice(), 2, names, fns, &m));
  SluiceKernel k = nullptr, again = nullptr;
  ASSERT_OK(sluiceKernelGet(m, "count_calls", &k));
  ASSERT_OK(sluiceKernelGet(m, "count_calls", &again));
  EXPECT_EQ(k, again);
  std::atomic<int> calls{0};
  std::atomic<int> *counter = &calls;
  SluiceKernelArg args[] = {arg(counter)};
  uint64_t grid[3] = {3, 2, 2}, local[3] = {8, 1, 1};
  SluiceEvent e = nullptr;
  ASSERT_OK(sluiceLaunch(hostQueue(), k, grid, local, 1, args, 0, nullptr, &e));
  ASSERT_OK(sluiceEventWait(e));
  sluiceEventRelease(e);
  EXPECT_EQ(calls.load(), 12); // once per group

  // The other function, with the group's shape.
  std::atomic<uint64_t> items{0};
  std::atomic<uint64_t> *itemCounter = &items;
  SluiceKernelArg itemArgs[] = {arg(itemCounter)};
  ASSERT_OK(sluiceKernelGet(m, "count_items", &k));
  ASSERT_OK(sluiceLaunch(hostQueue(), k, grid, local, 1, itemArgs, 0, nullptr,
                         nullptr));
  ASSERT_OK(sluiceQueueWait(hostQueue()));
  EXPECT_EQ(items.load(), 12u * 8u);
  EXPECT_EQ(sluiceKernelGet(m, "count", &k), SLUICE_ERROR_KERNEL_NOT_FOUND);
  EXPECT_TRUE(mentions("'count'")) << sluiceGetLastErrorMessage();
  ASSERT_OK(sluiceModuleRelease(m));
}

TEST(HostFunctionModule, RejectsBadArguments) {
  SluiceDevice host = hostDevice();
  const char *names[] = {"f", "f"};
  const char *empty[] = {""};
  const char *nullName[] = {nullptr};
  SluiceHostKernelFn fns[] = {countCalls, countCalls};
  SluiceHostKernelFn nullFn[] = {nullptr};
  SluiceModule m = reinterpret_cast<SluiceModule>(0x1);
  EXPECT_EQ(sluiceModuleCreateHostFunctions(host, 0, names, fns, &m),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(m, nullptr);
  EXPECT_EQ(sluiceModuleCreateHostFunctions(nullptr, 1, names, fns, &m),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(sluiceModuleCreateHostFunctions(host, 1, nullptr, fns, &m),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(sluiceModuleCreateHostFunctions(host, 1, names, nullptr, &m),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(sluiceModuleCreateHostFunctions(host, 1, names, fns, nullptr),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(sluiceModuleCreateHostFunctions(host, 2, names, fns, &m),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_TRUE(mentions("twice")) << sluiceGetLastErrorMessage();
  EXPECT_EQ(sluiceModuleCreateHostFunctions(host, 1, empty, fns, &m),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(sluiceModuleCreateHostFunctions(host, 1, nullName, fns, &m),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(sluiceModuleCreateHostFunctions(host, 1, names, nullFn, &m),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(m, nullptr);
}

TEST(HostFunctionModule, OtherBackendsAreUnsupported) {
  SKIP_WITHOUT_OPENCL(device);
  const char *names[] = {"f"};
  SluiceHostKernelFn fns[] = {countCalls};
  SluiceModule m = nullptr;
  EXPECT_EQ(sluiceModuleCreateHostFunctions(device, 1, names, fns, &m),
            SLUICE_ERROR_UNSUPPORTED);
  EXPECT_EQ(m, nullptr);
}
