//===- HostQueue.cpp - In-order queue of host tasks -----------------------===//
#include "HostQueue.h"

#include "HostBlas.h"
#include "HostModule.h"
#include "ThreadPool.h"

#include "sluice/Runtime/ErrorState.h"
#include "sluice/Runtime/ProgramContext.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>

#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sluice::rt::host {

namespace {

/// Copies and fills below this size run on the queue's thread alone: more
/// threads do not pay for waking them.
constexpr size_t kParallelBytes = size_t(1) << 20;

/// Runs fn(lo, hi) over [0, bytes) in chunks of at least kParallelBytes / 4
/// (multiples of `align` bytes), on the host thread pool when `bytes` is
/// large enough to gain from more memory streams.
void forChunks(size_t bytes, size_t align,
               const std::function<void(size_t, size_t)> &fn) {
  ThreadPool &pool = ThreadPool::shared();
  if (bytes < kParallelBytes || pool.size() < 2) {
    fn(0, bytes);
    return;
  }
  // A few chunks per worker, so that a slow worker does not hold the rest.
  size_t chunk =
      std::max(bytes / (4 * size_t(pool.size())), kParallelBytes / 4);
  size_t unit = std::max<size_t>(align, 4096);
  chunk = (chunk + unit - 1) / unit * unit;
  uint64_t count = (bytes + chunk - 1) / chunk;
  pool.parallelFor(count, [&](uint64_t i) {
    size_t lo = size_t(i) * chunk;
    fn(lo, std::min(bytes, lo + chunk));
  });
}

/// Copies larger than this (in all) bypass the caches on their stores:
/// the destination would not fit them anyway, and a cached store first
/// reads the line it writes (a third of a copy's memory traffic).
constexpr size_t kStreamingBytes = size_t(16) << 20;

/// memcpy with non-temporal 16-byte stores (the destination aligned by a
/// short head copied normally), for large copies.
void streamingCopy(char *d, const char *s, size_t n) {
#if defined(__x86_64__) && defined(__SSE2__)
  size_t head = (16 - reinterpret_cast<uintptr_t>(d) % 16) % 16;
  if (n < head + 64) {
    std::memcpy(d, s, n);
    return;
  }
  std::memcpy(d, s, head);
  d += head;
  s += head;
  n -= head;
  size_t body = n / 64 * 64;
  for (size_t i = 0; i < body; i += 64) {
    __m128i v0 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i));
    __m128i v1 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i + 16));
    __m128i v2 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i + 32));
    __m128i v3 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i + 48));
    _mm_stream_si128(reinterpret_cast<__m128i *>(d + i), v0);
    _mm_stream_si128(reinterpret_cast<__m128i *>(d + i + 16), v1);
    _mm_stream_si128(reinterpret_cast<__m128i *>(d + i + 32), v2);
    _mm_stream_si128(reinterpret_cast<__m128i *>(d + i + 48), v3);
  }
  // Streaming stores are weakly ordered: fence them before the task ends.
  _mm_sfence();
  std::memcpy(d + body, s + body, n - body);
#else
  std::memcpy(d, s, n);
#endif
}

/// Whether a forward copy would read what it just wrote, as far as the
/// core's memory disambiguation knows: loads and stores are matched on
/// their addresses' low 12 bits first, so a destination a little ahead of
/// its source modulo 4 KiB (as in `a[1:-1] = b[:-2]` between arrays whose
/// allocations start at the same page offset) makes every load wait for a
/// store it does not depend on ("4K aliasing"; twice the time of a copy).
bool aliasesForward(const char *d, const char *s) {
  size_t delta =
      (reinterpret_cast<uintptr_t>(d) - reinterpret_cast<uintptr_t>(s)) & 4095;
  return delta != 0 && delta < 256;
}

/// memcpy from the end down (the two ranges do not overlap): each load
/// then lies below the recent stores, away from them by the 4 KiB test.
void backwardCopy(char *d, const char *s, size_t n) {
  size_t i = n;
  while (i >= 64) {
    i -= 64;
    char block[64];
    std::memcpy(block, s + i, 64);
    std::memcpy(d + i, block, 64);
  }
  std::memcpy(d, s, i);
}

/// Runs a host kernel's groups, over the shared pool when there are several.
void runGroups(SluiceHostKernelFn fn, const SluiceHostGroup &shape,
               void **args) {
  uint64_t gx = shape.num_groups[0], gy = shape.num_groups[1];
  uint64_t total = gx * gy * shape.num_groups[2];
  if (total == 1) {
    SluiceHostGroup group = shape;
    fn(args, &group);
    return;
  }
  ThreadPool::shared().parallelFor(total, [&](uint64_t i) {
    SluiceHostGroup group = shape;
    group.group_id[0] = i % gx;
    group.group_id[1] = (i / gx) % gy;
    group.group_id[2] = i / (gx * gy);
    fn(args, &group);
  });
}

} // namespace

HostQueue::~HostQueue() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stop = true;
  }
  cv.notify_all();
  if (worker.joinable())
    worker.join();
}

Ref<Event> HostQueue::submit(const EventList &deps, Work work, bool small) {
  Task task{makeRef<SignalEvent>(SLUICE_BACKEND_HOST), deps, std::move(work)};
  Ref<Event> event = task.event;
  std::unique_lock<std::mutex> lock(mutex);
  if (small && tasks.empty() && !busy) {
    bool ready = true;
    for (const Ref<Event> &dep : deps)
      ready = ready && dep->isFinished();
    if (ready) {
      // In order: nothing is queued or running, and the queue's thread
      // waits while `busy` is set.
      busy = true;
      lock.unlock();
      std::string error = runTask(task);
      lock.lock();
      if (!error.empty() && failure.empty())
        failure = error;
      busy = false;
      if (tasks.empty())
        idle.notify_all();
      else
        cv.notify_all();
      return event;
    }
  }
  if (!worker.joinable())
    worker = std::thread([this] { run(); });
  tasks.push_back(std::move(task));
  cv.notify_all();
  return event;
}

std::string HostQueue::runTask(Task &task) {
  std::string error;
  for (Ref<Event> &dep : task.deps)
    if (dep->wait() != SLUICE_SUCCESS && error.empty())
      error = "a dependency failed: " + lastErrorMessage();
  if (error.empty()) {
    task.event->markRunning();
    error = task.work();
  }
  Ref<SignalEvent> event = task.event;
  task = Task();
  event->finish(error);
  return error;
}

void HostQueue::run() {
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    cv.wait(lock, [&] { return stop || (!tasks.empty() && !busy); });
    if (tasks.empty() || busy)
      return; // stop requested and nothing left
    Task task = std::move(tasks.front());
    tasks.pop_front();
    busy = true;
    lock.unlock();

    std::string error = runTask(task);

    lock.lock();
    if (!error.empty() && failure.empty())
      failure = error;
    busy = false;
    if (tasks.empty())
      idle.notify_all();
  }
}

bool HostQueue::launchHostNow(SluiceHostKernelFn fn, const uint64_t grid[3],
                              void **args) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!tasks.empty() || busy)
      return false;
    // The queue's thread (and other submitters) wait while `busy` is set.
    busy = true;
  }
  struct Done {
    HostQueue &q;
    ~Done() {
      std::lock_guard<std::mutex> lock(q.mutex);
      q.busy = false;
      if (q.tasks.empty())
        q.idle.notify_all();
      else
        q.cv.notify_all();
    }
  } done{*this};
  SluiceHostGroup shape{};
  for (int d = 0; d < 3; ++d) {
    shape.num_groups[d] = grid[d];
    shape.local_size[d] = 1;
  }
  // The queue's newest work, finished: markers and barriers submitted
  // next (dpctl's submit_barrier, SyclEvent profiling) follow it and read
  // its timestamps, as they would a task's. Made complete once the work
  // ran: nobody can wait for it before.
  uint64_t start = SignalEvent::nowNs();
  runGroups(fn, shape, args);
  Ref<SignalEvent> event =
      makeRef<SignalEvent>(SLUICE_BACKEND_HOST, start, SignalEvent::nowNs());
  event->submittedOn = this;
  noteSubmitted(event);
  return true;
}

SluiceStatus HostQueue::wait() {
  std::unique_lock<std::mutex> lock(mutex);
  idle.wait(lock, [&] { return tasks.empty() && !busy; });
  if (!failure.empty()) {
    std::string message = std::move(failure);
    failure.clear();
    return fail(SLUICE_ERROR_TASK_FAILED, "a task on queue " +
                                              device().filterString() +
                                              " failed: " + message);
  }
  return SLUICE_SUCCESS;
}

SluiceStatus HostQueue::submitCopy(void *dst, const void *src, size_t bytes,
                                   const EventList &deps, Ref<Event> &out) {
  bool small = bytes < kParallelBytes || program::insideWaitingEntry();
  out = submit(
      deps,
      [=] {
        auto *d = static_cast<char *>(dst);
        auto *from = static_cast<const char *>(src);
        // Overlapping ranges keep memmove's order; others copy in parallel.
        if (d < from + bytes && from < d + bytes) {
          std::memmove(d, from, bytes);
          return std::string();
        }
        bool streaming = bytes >= kStreamingBytes;
        bool backward = aliasesForward(d, from);
        forChunks(bytes, 64, [&](size_t lo, size_t hi) {
          if (backward)
            backwardCopy(d + lo, from + lo, hi - lo);
          else if (streaming)
            streamingCopy(d + lo, from + lo, hi - lo);
          else
            std::memcpy(d + lo, from + lo, hi - lo);
        });
        return std::string();
      },
      small);
  return SLUICE_SUCCESS;
}

SluiceStatus HostQueue::submitFill(void *dst, const void *pattern,
                                   size_t patternSize, size_t bytes,
                                   const EventList &deps, Ref<Event> &out) {
  std::string copy(static_cast<const char *>(pattern), patternSize);
  bool small = bytes < kParallelBytes || program::insideWaitingEntry();
  out = submit(
      deps,
      [=] {
        char *d = static_cast<char *>(dst);
        // Chunks start at multiples of the pattern size (a power of two).
        forChunks(bytes, patternSize, [&](size_t lo, size_t hi) {
          if (patternSize == 1) {
            std::memset(d + lo, copy[0], hi - lo);
            return;
          }
          // The pattern once, doubled up to a block that stays in the L1
          // cache, then copies of that block: memcpy calls at memory
          // speed (one call per element was 30x slower than NumPy's fill
          // at 4 MB), each reading a cached source.
          if (hi <= lo)
            return;
          char *at = d + lo;
          size_t total = hi - lo;
          size_t block =
              std::min<size_t>(total, std::max<size_t>(4096, patternSize));
          std::memcpy(at, copy.data(), patternSize);
          for (size_t done = patternSize; done < block;) {
            size_t step = std::min(done, block - done);
            std::memcpy(at + done, at, step);
            done += step;
          }
          for (size_t done = block; done < total;) {
            size_t step = std::min(block, total - done);
            std::memcpy(at + done, at, step);
            done += step;
          }
        });
        return std::string();
      },
      small);
  return SLUICE_SUCCESS;
}

SluiceStatus HostQueue::submitLaunch(Kernel &kernel, const uint64_t grid[3],
                                     const uint64_t local[3], KernelArgs args,
                                     const EventList &deps, Ref<Event> &out) {
  auto &hostKernel = static_cast<HostKernel &>(kernel);
  // The module must stay loaded until the launch has run.
  Ref<Module> module = Ref<Module>::share(&kernel.module());
  SluiceHostKernelFn fn = hostKernel.function();
  SluiceHostGroup shape{};
  for (int d = 0; d < 3; ++d) {
    shape.num_groups[d] = grid[d];
    shape.local_size[d] = local[d];
  }
  auto shared = std::make_shared<KernelArgs>(std::move(args));
  // A program's entry waits for its launches at its end anyway, so inside
  // one a launch may run on the entry's thread. Elsewhere launches stay
  // asynchronous, as the C API promises (a kernel may wait for the host).
  bool small = program::insideWaitingEntry();
  out = submit(
      deps,
      [module, fn, shape, shared] {
        std::vector<void *> pointers = shared->pointers();
        runGroups(fn, shape, pointers.data());
        return std::string();
      },
      small);
  return SLUICE_SUCCESS;
}

SluiceStatus HostQueue::submitMatmul(const MatmulDesc &desc,
                                     const EventList &deps, Ref<Event> &out) {
  bool small = program::insideWaitingEntry();
  out = submit(
      deps, [desc] { return runMatmul(desc); }, small);
  return SLUICE_SUCCESS;
}

SluiceStatus HostQueue::submitBarrier(const EventList &deps, Ref<Event> &out) {
  out = submit(
      deps, [] { return std::string(); }, /*small=*/true);
  return SLUICE_SUCCESS;
}

} // namespace sluice::rt::host
