//===- BackendConformanceTest.cpp - One suite run against every backend ---===//
//
// What every backend must do the same way, written once and run on each
// backend present (TEST_P, instantiated for host, opencl, level_zero and
// cuda): USM of every kind with its pointer information and copies, fills
// of every pattern size, the axpy kernel on every USM kind (each backend
// loads it in its own format: a native object, SPIR-V or PTX), submission
// order, created and canonical queues, and threads sharing the canonical
// queue. A backend with no device here skips, saying why. The level_zero
// instance runs in sluice-level-zero-tests, on the test driver; what is
// particular to one backend stays in its own test file.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include <cstring>
#include <numeric>
#include <thread>

#ifdef SLUICE_TEST_HAVE_CUDA_PTX
#include "cuda_kernels_ptx.inc"
#endif

using namespace sluice::test;

namespace {

const SluiceUsmKind kKinds[] = {SLUICE_USM_DEVICE, SLUICE_USM_SHARED,
                                SLUICE_USM_HOST};

/// The first device of `backend`, or null with the reason in `why`.
SluiceDevice backendDevice(const std::string &backend, std::string &why) {
  if (backend == "opencl")
    return openclDevice(why);
  std::string selector = backend == "level_zero" ? "level_zero:gpu:0" : backend;
  SluiceDevice d = nullptr;
  if (sluiceDeviceSelect(selector.c_str(), &d) == SLUICE_SUCCESS)
    return d;
  why = "no " + backend + " device: " + sluiceGetLastErrorMessage();
  if (backend == "level_zero")
    why += " (run with sluice-ze-test-env)";
  return nullptr;
}

class Conformance : public ::testing::TestWithParam<std::string> {
protected:
  void SetUp() override {
    std::string why;
    device = backendDevice(GetParam(), why);
    if (!device)
      GTEST_SKIP() << why;
    ASSERT_OK(sluiceQueueGetCanonical(device, &queue));
    ASSERT_OK(sluiceDeviceGetInfo(device, &info));
  }

  bool supports(SluiceUsmKind kind) const {
    return info.usm_capabilities & (1u << (kind - 1));
  }

  /// Fills of `bytes` with every pattern size at two offsets, each checked.
  void fillsEveryPatternSize(size_t bytes);

  /// The test kernels in this backend's format (null with `why` set when
  /// this build has none for it).
  SluiceModule kernels(std::string &why) {
    std::vector<char> bytes;
    SluiceModuleFormat format = SLUICE_MODULE_NATIVE_OBJECT;
    const std::string &backend = GetParam();
    if (backend == "host") {
      bytes = readBinary(SLUICE_TEST_HOST_KERNELS);
    } else if (backend == "cuda") {
#ifdef SLUICE_TEST_HAVE_CUDA_PTX
      format = SLUICE_MODULE_PTX;
      bytes.assign(kCudaKernelsPtx, kCudaKernelsPtx + kCudaKernelsPtx_size);
#endif
    } else {
#ifdef SLUICE_TEST_SPIRV_AXPY
      format = SLUICE_MODULE_SPIRV;
      bytes = readBinary(SLUICE_TEST_SPIRV_AXPY);
#endif
    }
    if (bytes.empty()) {
      why = "this build has no test kernels for " + backend;
      return nullptr;
    }
    SluiceModule m = nullptr;
    EXPECT_OK(
        sluiceModuleCreate(device, format, bytes.data(), bytes.size(), &m));
    return m;
  }

  /// y = a * x + y over n elements, `local` work-items per group.
  SluiceStatus axpy(SluiceKernel k, float a, float *x, float *y, uint64_t n,
                    uint32_t ndeps, const SluiceEvent *deps, SluiceEvent *event,
                    uint64_t local = 64) {
    uint64_t group[3] = {local, 1, 1},
             grid[3] = {(n + local - 1) / local, 1, 1};
    SluiceKernelArg args[] = {arg(a), arg(x), arg(y), arg(n)};
    return sluiceLaunch(queue, k, grid, group, 4, args, ndeps, deps, event);
  }

  void copyWait(void *dst, const void *src, size_t bytes,
                SluiceEvent dep = nullptr) {
    SluiceEvent e = nullptr;
    ASSERT_OK(sluiceMemcpy(queue, dst, src, bytes, dep ? 1 : 0, &dep, &e));
    ASSERT_OK(sluiceEventWait(e));
    sluiceEventRelease(e);
  }

  SluiceDevice device = nullptr;
  SluiceQueue queue = nullptr;
  SluiceDeviceInfo info{};
};

} // namespace

TEST_P(Conformance, UsmKindsPointerInfoAndCopies) {
  for (SluiceUsmKind kind : kKinds) {
    if (!supports(kind))
      continue;
    SCOPED_TRACE(kind);
    const size_t n = 4096;
    uint8_t *p = nullptr;
    // The alignment every backend gives (OpenCL's SVM allocations offer no
    // more than its largest data type's).
    ASSERT_OK(sluiceMalloc(queue, kind, n, 128, reinterpret_cast<void **>(&p)));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 128, 0u);
    // Interior pointers are recognised too.
    SluiceUsmKind got;
    SluiceDevice owner;
    SluiceQueue owningQueue;
    void *base;
    size_t size;
    ASSERT_OK(sluicePointerGetInfo(p + 100, &got, &owner, &owningQueue, &base,
                                   &size));
    EXPECT_EQ(got, kind);
    EXPECT_EQ(owner, device);
    EXPECT_EQ(owningQueue, queue);
    EXPECT_EQ(base, p);
    EXPECT_EQ(size, n);
    std::vector<uint8_t> in(n), out(n, 0);
    std::iota(in.begin(), in.end(), uint8_t(7));
    ASSERT_OK(sluiceMemcpy(queue, p, in.data(), n, 0, nullptr, nullptr));
    ASSERT_OK(sluiceMemset(queue, p + 10, 0xab, 20, 0, nullptr, nullptr));
    copyWait(out.data(), p, n);
    for (size_t i = 0; i < n; ++i)
      ASSERT_EQ(out[i], i >= 10 && i < 30 ? 0xab : in[i]) << i;
    if (kind != SLUICE_USM_DEVICE) {
      // Shared and host memory are host memory too.
      EXPECT_EQ(p[5], in[5]);
      p[7] = 77;
      copyWait(out.data(), p, n);
      EXPECT_EQ(out[7], 77);
    }
    ASSERT_OK(sluiceFree(queue, p));
    ASSERT_OK(
        sluicePointerGetInfo(p, &got, &owner, &owningQueue, nullptr, nullptr));
    EXPECT_EQ(got, SLUICE_USM_UNKNOWN);
    EXPECT_EQ(owner, nullptr);
    EXPECT_EQ(owningQueue, nullptr);
  }
}

TEST_P(Conformance, FillsEveryPatternSize) {
  // Small, and past the size the host fills in parallel chunks (each made
  // of copies of a 4 KB block).
  for (size_t bytes : {size_t(1024 + 256), size_t(3 << 20) + 384})
    fillsEveryPatternSize(bytes);
}

void Conformance::fillsEveryPatternSize(size_t bytes) {
  SCOPED_TRACE(std::to_string(bytes) + " bytes");
  std::vector<uint8_t> got(bytes), want(bytes);
  for (SluiceUsmKind kind : kKinds) {
    if (!supports(kind))
      continue;
    uint8_t *p = nullptr;
    ASSERT_OK(
        sluiceMalloc(queue, kind, bytes, 128, reinterpret_cast<void **>(&p)));
    for (size_t ps = 1; ps <= 128; ps *= 2)
      for (size_t offset : {size_t(0), ps}) {
        SCOPED_TRACE("kind " + std::to_string(kind) + ", pattern " +
                     std::to_string(ps) + " at offset " +
                     std::to_string(offset));
        std::vector<uint8_t> pattern(ps);
        for (size_t i = 0; i < ps; ++i)
          pattern[i] = uint8_t(ps * 3 + i);
        size_t count = (bytes - offset) / ps * ps;
        ASSERT_OK(sluiceMemset(queue, p, 0xcd, bytes, 0, nullptr, nullptr));
        ASSERT_OK(sluiceFill(queue, p + offset, pattern.data(), ps, count, 0,
                             nullptr, nullptr));
        pattern.assign(ps, 0); // the fill owns a copy
        std::fill(want.begin(), want.end(), 0xcd);
        for (size_t i = 0; i < count; ++i)
          want[offset + i] = uint8_t(ps * 3 + i % ps);
        copyWait(got.data(), p, bytes);
        ASSERT_EQ(got, want);
      }
    ASSERT_OK(sluiceFree(queue, p));
  }
}

TEST_P(Conformance, AxpyOnEveryUsmKind) {
  std::string why;
  SluiceModule m = kernels(why);
  if (!m)
    GTEST_SKIP() << why;
  // The same bytes give the same (cached) module.
  std::string ignored;
  SluiceModule again = kernels(ignored);
  EXPECT_EQ(again, m);
  SluiceKernel k;
  ASSERT_OK(sluiceKernelGet(m, "axpy", &k));
  // Not a multiple of the group size: the kernel's bounds check matters.
  const uint64_t n = 10007;
  std::vector<float> hx(n), hy(n), ref(n), got(n);
  for (uint64_t i = 0; i < n; ++i) {
    hx[i] = float(i % 31) - 7.0f;
    hy[i] = float(i % 17) * 0.25f;
    ref[i] = 2.5f * hx[i] + hy[i];
  }
  for (SluiceUsmKind xKind : kKinds)
    for (SluiceUsmKind yKind : kKinds) {
      if (!supports(xKind) || !supports(yKind))
        continue;
      SCOPED_TRACE(std::to_string(xKind) + ", " + std::to_string(yKind));
      float *x, *y;
      ASSERT_OK(
          sluiceMalloc(queue, xKind, n * 4, 0, reinterpret_cast<void **>(&x)));
      ASSERT_OK(
          sluiceMalloc(queue, yKind, n * 4, 0, reinterpret_cast<void **>(&y)));
      SluiceEvent cx, cy, launched;
      ASSERT_OK(sluiceMemcpy(queue, x, hx.data(), n * 4, 0, nullptr, &cx));
      ASSERT_OK(sluiceMemcpy(queue, y, hy.data(), n * 4, 0, nullptr, &cy));
      SluiceEvent deps[] = {cx, cy};
      ASSERT_OK(axpy(k, 2.5f, x, y, n, 2, deps, &launched));
      std::fill(got.begin(), got.end(), 0.0f);
      copyWait(got.data(), y, n * 4, launched);
      EXPECT_EQ(got, ref);
      uint64_t submit = 0, start = 0, end = 0;
      ASSERT_OK(sluiceEventGetProfilingInfo(launched, &submit, &start, &end));
      EXPECT_LE(submit, start);
      EXPECT_LE(start, end);
      for (SluiceEvent e : {cx, cy, launched})
        sluiceEventRelease(e);
      ASSERT_OK(sluiceFree(queue, x));
      ASSERT_OK(sluiceFree(queue, y));
    }
  ASSERT_OK(sluiceModuleRelease(again));
  ASSERT_OK(sluiceModuleRelease(m));
}

TEST_P(Conformance, CommandsRunInSubmissionOrder) {
  // Each round is a long kernel followed by a short copy of the elements it
  // writes last, which would overtake the kernel if the queue let it.
  std::string why;
  SluiceModule m = kernels(why);
  if (!m)
    GTEST_SKIP() << why;
  SluiceKernel k;
  ASSERT_OK(sluiceKernelGet(m, "axpy", &k));
  const uint64_t n = 1 << 20, tail = 256;
  const int rounds = 16;
  float *x, *y;
  ASSERT_OK(sluiceMalloc(queue, SLUICE_USM_DEVICE, n * 4, 0,
                         reinterpret_cast<void **>(&x)));
  ASSERT_OK(sluiceMalloc(queue, SLUICE_USM_DEVICE, n * 4, 0,
                         reinterpret_cast<void **>(&y)));
  float one = 1.0f, zero = 0.0f;
  ASSERT_OK(sluiceFill(queue, x, &one, 4, n * 4, 0, nullptr, nullptr));
  ASSERT_OK(sluiceFill(queue, y, &zero, 4, n * 4, 0, nullptr, nullptr));
  std::vector<std::vector<float>> snapshots(rounds, std::vector<float>(tail));
  for (int r = 0; r < rounds; ++r) {
    ASSERT_OK(axpy(k, 1.0f, x, y, n, 0, nullptr, nullptr, 256));
    ASSERT_OK(sluiceMemcpy(queue, snapshots[r].data(), y + n - tail, tail * 4,
                           0, nullptr, nullptr));
  }
  ASSERT_OK(sluiceQueueWait(queue));
  for (int r = 0; r < rounds; ++r)
    for (uint64_t i = 0; i < tail; ++i)
      ASSERT_EQ(snapshots[r][i], float(r + 1)) << "round " << r << " at " << i;
  ASSERT_OK(sluiceFree(queue, x));
  ASSERT_OK(sluiceFree(queue, y));
  ASSERT_OK(sluiceModuleRelease(m));
}

TEST_P(Conformance, CreatedQueuesAreDistinctAndIndependent) {
  SluiceQueue again = nullptr, a = nullptr, b = nullptr;
  ASSERT_OK(sluiceQueueGetCanonical(device, &again));
  EXPECT_EQ(again, queue);
  int isCanonical = 0;
  ASSERT_OK(sluiceQueueIsCanonical(queue, &isCanonical));
  EXPECT_EQ(isCanonical, 1);
  ASSERT_OK(sluiceQueueCreate(device, &a));
  ASSERT_OK(sluiceQueueCreate(device, &b));
  EXPECT_NE(a, b);
  EXPECT_NE(a, queue);
  ASSERT_OK(sluiceQueueIsCanonical(a, &isCanonical));
  EXPECT_EQ(isCanonical, 0);
  SluiceDevice owner = nullptr;
  ASSERT_OK(sluiceQueueGetDevice(a, &owner));
  EXPECT_EQ(owner, device);
  // Work on one queue that waits for the other's.
  int32_t *p = nullptr;
  ASSERT_OK(
      sluiceMalloc(a, SLUICE_USM_DEVICE, 8, 0, reinterpret_cast<void **>(&p)));
  int32_t v1 = 5, v2 = 9, got[2] = {};
  SluiceEvent first;
  ASSERT_OK(sluiceFill(a, p, &v1, 4, 4, 0, nullptr, &first));
  ASSERT_OK(sluiceFill(b, p + 1, &v2, 4, 4, 1, &first, nullptr));
  ASSERT_OK(sluiceQueueWait(a));
  ASSERT_OK(sluiceQueueWait(b));
  copyWait(got, p, sizeof got);
  EXPECT_EQ(got[0], 5);
  EXPECT_EQ(got[1], 9);
  sluiceEventRelease(first);
  ASSERT_OK(sluiceFree(b, p));
  ASSERT_OK(sluiceQueueRelease(a));
  ASSERT_OK(sluiceQueueRelease(b));
}

TEST_P(Conformance, ThreadsShareTheCanonicalQueue) {
  const int threads = 4, rounds = 100;
  std::vector<std::thread> workers;
  std::vector<int> failures(threads, 0);
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      SluiceQueue q = nullptr;
      uint32_t *p = nullptr;
      if (sluiceQueueGetCanonical(device, &q) != SLUICE_SUCCESS || q != queue ||
          sluiceMalloc(q, SLUICE_USM_DEVICE, 256, 0,
                       reinterpret_cast<void **>(&p)) != SLUICE_SUCCESS) {
        failures[t]++;
        return;
      }
      for (int r = 0; r < rounds; ++r) {
        uint32_t value = uint32_t(t * 1000 + r), got[64] = {};
        SluiceEvent done = nullptr;
        if (sluiceFill(q, p, &value, 4, 256, 0, nullptr, nullptr) ||
            sluiceMemcpy(q, got, p, 256, 0, nullptr, &done) ||
            sluiceEventWait(done)) {
          failures[t]++;
        } else {
          for (uint32_t v : got)
            failures[t] += v != value;
        }
        if (done)
          sluiceEventRelease(done);
      }
      failures[t] += sluiceFree(q, p) != SLUICE_SUCCESS;
    });
  for (std::thread &w : workers)
    w.join();
  for (int t = 0; t < threads; ++t)
    EXPECT_EQ(failures[t], 0) << "thread " << t;
  ASSERT_OK(sluiceQueueWait(queue));
}

INSTANTIATE_TEST_SUITE_P(Backends, Conformance,
                         ::testing::Values("host", "opencl", "level_zero",
                                           "cuda"),
                         [](const ::testing::TestParamInfo<std::string> &p) {
                           return p.param;
                         });
