//===- UsmTest.cpp - USM allocations, queries, copies, fills --------------===//
#include "TestUtil.h"

#include <cstring>
#include <numeric>

using namespace sluice::test;

namespace {

const SluiceUsmKind kinds[] = {SLUICE_USM_DEVICE, SLUICE_USM_SHARED,
                               SLUICE_USM_HOST};

/// The queues of every visible device.
std::vector<SluiceQueue> allQueues() {
  uint32_t count = 0;
  EXPECT_OK(sluiceDeviceGetCount(&count));
  std::vector<SluiceQueue> queues;
  for (uint32_t i = 0; i < count; ++i) {
    SluiceDevice d;
    SluiceQueue q;
    EXPECT_OK(sluiceDeviceGet(i, &d));
    EXPECT_OK(sluiceQueueGetCanonical(d, &q));
    queues.push_back(q);
  }
  return queues;
}

} // namespace

TEST(Usm, AllocateAndQueryEveryKind) {
  SluiceQueue q = hostQueue();
  for (SluiceUsmKind kind : kinds) {
    void *p = nullptr;
    ASSERT_OK(sluiceMalloc(q, kind, 1000, 256, &p));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 256, 0u);
    SluiceUsmKind got;
    SluiceDevice dev;
    SluiceQueue queue;
    void *base;
    size_t size;
    // Interior pointers are recognised too.
    ASSERT_OK(sluicePointerGetInfo(static_cast<char *>(p) + 999, &got, &dev,
                                   &queue, &base, &size));
    EXPECT_EQ(got, kind);
    EXPECT_EQ(dev, hostDevice());
    EXPECT_EQ(queue, q);
    EXPECT_EQ(base, p);
    EXPECT_EQ(size, 1000u);
    ASSERT_OK(sluicePointerGetInfo(static_cast<char *>(p) + 1000, &got, nullptr,
                                   nullptr, nullptr, nullptr));
    // One past the end is not inside (unless another allocation is there).
    if (got != SLUICE_USM_UNKNOWN) {
      void *otherBase = nullptr;
      sluicePointerGetInfo(static_cast<char *>(p) + 1000, nullptr, nullptr,
                           nullptr, &otherBase, nullptr);
      EXPECT_NE(otherBase, p);
    }
    ASSERT_OK(sluiceFree(q, p));
    ASSERT_OK(sluicePointerGetInfo(p, &got, &dev, &queue, nullptr, nullptr));
    EXPECT_EQ(got, SLUICE_USM_UNKNOWN);
    EXPECT_EQ(dev, nullptr);
    EXPECT_EQ(queue, nullptr);
  }
  int onStack = 0;
  SluiceUsmKind got;
  ASSERT_OK(
      sluicePointerGetInfo(&onStack, &got, nullptr, nullptr, nullptr, nullptr));
  EXPECT_EQ(got, SLUICE_USM_UNKNOWN);
}

// Round trip through every pair of (device, kind): host data -> a -> b ->
// host, with copies issued on every queue.
TEST(Usm, CopiesAcrossKindsAndDevices) {
  std::vector<SluiceQueue> queues = allQueues();
  constexpr size_t n = 4096;
  std::vector<uint32_t> input(n), output(n);
  std::iota(input.begin(), input.end(), 1u);
  struct Buffer {
    SluiceQueue queue;
    SluiceUsmKind kind;
    void *ptr;
  };
  std::vector<Buffer> buffers;
  for (SluiceQueue q : queues)
    for (SluiceUsmKind kind : kinds) {
      void *p = nullptr;
      ASSERT_OK(sluiceMalloc(q, kind, n * 4, 0, &p));
      buffers.push_back({q, kind, p});
    }
  for (const Buffer &a : buffers)
    for (const Buffer &b : buffers) {
      if (a.ptr == b.ptr)
        continue;
      for (SluiceQueue q : {a.queue, b.queue}) {
        std::fill(output.begin(), output.end(), 0u);
        ASSERT_OK(
            sluiceMemcpy(q, a.ptr, input.data(), n * 4, 0, nullptr, nullptr));
        ASSERT_OK(sluiceMemcpy(q, b.ptr, a.ptr, n * 4, 0, nullptr, nullptr));
        SluiceEvent done;
        ASSERT_OK(
            sluiceMemcpy(q, output.data(), b.ptr, n * 4, 0, nullptr, &done));
        ASSERT_OK(sluiceEventWait(done));
        ASSERT_OK(sluiceEventRelease(done));
        ASSERT_EQ(output, input) << "kinds " << a.kind << " -> " << b.kind;
      }
    }
  for (const Buffer &b : buffers)
    ASSERT_OK(sluiceFree(b.queue, b.ptr));
  for (SluiceQueue q : queues)
    ASSERT_OK(sluiceQueueWait(q));
}

TEST(Usm, ZeroByteCopyIsANoOpTask) {
  SluiceQueue q = hostQueue();
  SluiceEvent e;
  ASSERT_OK(sluiceMemcpy(q, nullptr, nullptr, 0, 0, nullptr, &e));
  ASSERT_OK(sluiceEventWait(e));
  sluiceEventRelease(e);
}

TEST(Usm, HostCopiesAtEveryRelativeOffset) {
  // A destination a little ahead of its source modulo 4 KiB is copied
  // from the end down (HostQueue's backwardCopy); every other placement
  // forward. Both, at sizes below and above the parallel split and with
  // tails shorter than a block, must move exactly the bytes asked for.
  SluiceQueue q = hostQueue();
  const size_t page = 4096;
  for (size_t bytes :
       {size_t(3), size_t(100), size_t(4099), (size_t(1) << 20) + 36}) {
    std::vector<unsigned char> input(bytes + 2 * page);
    for (size_t i = 0; i < input.size(); ++i)
      input[i] = static_cast<unsigned char>(i * 131 + 7);
    void *a = nullptr, *b = nullptr;
    ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, bytes + 2 * page, 0, &a));
    ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, bytes + 2 * page, 0, &b));
    ASSERT_OK(
        sluiceMemcpy(q, a, input.data(), input.size(), 0, nullptr, nullptr));
    auto *src = static_cast<char *>(a);
    auto *dstBase = static_cast<char *>(b);
    // Destination offsets relative to the source's page offset.
    size_t srcOff = page - reinterpret_cast<uintptr_t>(src) % page;
    for (long rel : {0L, 4L, 36L, 200L, 255L, 256L, -4L, 1000L}) {
      size_t dstOff = (reinterpret_cast<uintptr_t>(src + srcOff) + rel -
                       reinterpret_cast<uintptr_t>(dstBase)) %
                      page;
      std::vector<unsigned char> out(bytes + 2 * page, 0xEE);
      ASSERT_OK(sluiceMemcpy(q, dstBase, out.data(), out.size(), 0, nullptr,
                             nullptr));
      ASSERT_OK(sluiceMemcpy(q, dstBase + dstOff, src + srcOff, bytes, 0,
                             nullptr, nullptr));
      SluiceEvent e;
      ASSERT_OK(
          sluiceMemcpy(q, out.data(), dstBase, out.size(), 0, nullptr, &e));
      ASSERT_OK(sluiceEventWait(e));
      sluiceEventRelease(e);
      ASSERT_EQ(std::memcmp(out.data() + dstOff, input.data() + srcOff, bytes),
                0)
          << bytes << " bytes, relative offset " << rel;
      for (size_t i = 0; i < out.size(); ++i) {
        if (i < dstOff || i >= dstOff + bytes) {
          ASSERT_EQ(out[i], 0xEE) << "byte " << i << " outside the copy";
        }
      }
    }
    ASSERT_OK(sluiceFree(q, a));
    ASSERT_OK(sluiceFree(q, b));
  }
}

TEST(Usm, LargeHostCopiesAndFillsInParallelChunks) {
  // Sizes around and well above the size from which host copies and fills
  // are split across the thread pool (1 MiB), none a multiple of a chunk.
  SluiceQueue q = hostQueue();
  for (size_t bytes : {size_t(1) << 20, (size_t(1) << 20) + 4,
                       (size_t(9) << 20) + 1028, size_t(40000004)}) {
    size_t n = bytes / 4;
    std::vector<uint32_t> input(n), output(n, 0);
    std::iota(input.begin(), input.end(), 7u);
    void *a = nullptr, *b = nullptr;
    ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, bytes, 0, &a));
    ASSERT_OK(sluiceMalloc(q, SLUICE_USM_SHARED, bytes, 0, &b));
    ASSERT_OK(sluiceMemcpy(q, a, input.data(), bytes, 0, nullptr, nullptr));
    ASSERT_OK(sluiceMemcpy(q, b, a, bytes, 0, nullptr, nullptr));
    SluiceEvent e;
    ASSERT_OK(sluiceMemcpy(q, output.data(), b, bytes, 0, nullptr, &e));
    ASSERT_OK(sluiceEventWait(e));
    sluiceEventRelease(e);
    ASSERT_TRUE(output == input) << bytes << " bytes";

    // Overlapping ranges move like memmove: up by 12 bytes, then back.
    char *c = static_cast<char *>(b);
    ASSERT_OK(sluiceMemcpy(q, c + 12, c, bytes - 12, 0, nullptr, nullptr));
    ASSERT_OK(sluiceMemcpy(q, c, c + 12, bytes - 12, 0, nullptr, &e));
    ASSERT_OK(sluiceEventWait(e));
    sluiceEventRelease(e);
    ASSERT_EQ(std::memcmp(c, input.data(), bytes - 12), 0) << bytes;

    const uint32_t pattern[4] = {1, 2, 3, 4};
    size_t filled = bytes / 16 * 16;
    ASSERT_OK(sluiceMemset(q, a, 0x5A, bytes, 0, nullptr, nullptr));
    ASSERT_OK(
        sluiceFill(q, a, pattern, sizeof pattern, filled, 0, nullptr, nullptr));
    ASSERT_OK(sluiceMemcpy(q, output.data(), a, bytes, 0, nullptr, &e));
    ASSERT_OK(sluiceEventWait(e));
    sluiceEventRelease(e);
    for (size_t i = 0; i < filled / 4; ++i)
      ASSERT_EQ(output[i], pattern[i % 4]) << i;
    for (size_t i = filled / 4; i < n; ++i)
      ASSERT_EQ(output[i], 0x5A5A5A5Au) << i;
    ASSERT_OK(sluiceFree(q, a));
    ASSERT_OK(sluiceFree(q, b));
  }
}

// Memory another library allocated becomes USM memory of a queue: copies
// treat it as such, imports nest, and Sluice never frees it.
TEST(Usm, ImportsForeignHostMemory) {
  SluiceQueue q = hostQueue();
  std::vector<float> foreign(1024);
  std::iota(foreign.begin(), foreign.end(), 0.0f);
  char *p = reinterpret_cast<char *>(foreign.data());
  ASSERT_OK(sluiceUsmImport(q, SLUICE_USM_UNKNOWN, p, 4096));
  SluiceUsmKind kind;
  SluiceQueue owner;
  void *base;
  size_t size;
  ASSERT_OK(
      sluicePointerGetInfo(p + 100, &kind, nullptr, &owner, &base, &size));
  EXPECT_EQ(kind, SLUICE_USM_HOST);
  EXPECT_EQ(owner, q);
  EXPECT_EQ(base, p);
  EXPECT_EQ(size, 4096u);

  // A part of it again: one more import of the same registration.
  ASSERT_OK(sluiceUsmImport(q, SLUICE_USM_HOST, p + 64, 128));
  // Another kind over the same memory, or a range reaching past it, is
  // refused with the reason.
  EXPECT_EQ(sluiceUsmImport(q, SLUICE_USM_SHARED, p, 16),
            SLUICE_ERROR_INVALID_POINTER);
  EXPECT_NE(std::string(sluiceGetLastErrorMessage()).find("overlaps"),
            std::string::npos);
  EXPECT_EQ(sluiceUsmImport(q, SLUICE_USM_HOST, p + 4000, 200),
            SLUICE_ERROR_INVALID_POINTER);
  // sluiceFree refuses imported memory.
  EXPECT_EQ(sluiceFree(q, p), SLUICE_ERROR_INVALID_POINTER);
  EXPECT_NE(std::string(sluiceGetLastErrorMessage()).find("sluiceUsmRelease"),
            std::string::npos);

  // A copy out of the imported memory into a Sluice allocation and back.
  float *a = nullptr;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, 4096, 0, (void **)&a));
  SluiceEvent copied = nullptr;
  ASSERT_OK(sluiceMemcpy(q, a, p, 4096, 0, nullptr, &copied));
  ASSERT_OK(sluiceEventWait(copied));
  sluiceEventRelease(copied);
  for (int i = 0; i < 1024; ++i)
    ASSERT_EQ(a[i], static_cast<float>(i));
  ASSERT_OK(sluiceFree(q, a));

  // Two imports, two releases; the last one's event completes once the
  // queue's work is done; a third release is an error.
  ASSERT_OK(sluiceUsmRelease(p + 64, nullptr));
  ASSERT_OK(sluicePointerGetInfo(p, &kind, nullptr, nullptr, nullptr, nullptr));
  EXPECT_EQ(kind, SLUICE_USM_HOST);
  SluiceEvent done = nullptr;
  ASSERT_OK(sluiceUsmRelease(p, &done));
  ASSERT_NE(done, nullptr);
  ASSERT_OK(sluiceEventWait(done));
  sluiceEventRelease(done);
  ASSERT_OK(sluicePointerGetInfo(p, &kind, nullptr, nullptr, nullptr, nullptr));
  EXPECT_EQ(kind, SLUICE_USM_UNKNOWN);
  EXPECT_EQ(sluiceUsmRelease(p, nullptr), SLUICE_ERROR_INVALID_POINTER);
}

TEST(Usm, ImportRefusesSluiceMemoryAndBadArguments) {
  SluiceQueue q = hostQueue();
  void *a = nullptr;
  ASSERT_OK(sluiceMalloc(q, SLUICE_USM_DEVICE, 256, 0, &a));
  EXPECT_EQ(sluiceUsmImport(q, SLUICE_USM_HOST, a, 16),
            SLUICE_ERROR_INVALID_POINTER);
  EXPECT_NE(std::string(sluiceGetLastErrorMessage()).find("Sluice allocation"),
            std::string::npos);
  EXPECT_EQ(sluiceUsmRelease(a, nullptr), SLUICE_ERROR_INVALID_POINTER);
  ASSERT_OK(sluiceFree(q, a));
  char buf[64];
  EXPECT_EQ(sluiceUsmImport(q, SLUICE_USM_HOST, buf, 0),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(sluiceUsmImport(q, static_cast<SluiceUsmKind>(9), buf, 8),
            SLUICE_ERROR_INVALID_VALUE);
  EXPECT_EQ(sluiceUsmImport(q, SLUICE_USM_HOST, nullptr, 8),
            SLUICE_ERROR_INVALID_VALUE);
  // Devices that cannot check foreign memory refuse it.
  std::string why;
  if (SluiceDevice cl = openclDevice(why)) {
    SluiceQueue clq = nullptr;
    ASSERT_OK(sluiceQueueGetCanonical(cl, &clq));
    EXPECT_EQ(sluiceUsmImport(clq, SLUICE_USM_HOST, buf, 8),
              SLUICE_ERROR_UNSUPPORTED);
  }
}
