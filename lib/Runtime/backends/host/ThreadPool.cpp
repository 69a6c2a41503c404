//===- ThreadPool.cpp - Workers that run host workgroups ------------------===//
#include "ThreadPool.h"

#include <atomic>
#include <memory>

namespace sluice::rt::host {

ThreadPool &ThreadPool::shared() {
  // Never destroyed: queue threads may still submit during exit.
  static ThreadPool *pool =
      new ThreadPool(std::max(1u, std::thread::hardware_concurrency()));
  return *pool;
}

ThreadPool::ThreadPool(unsigned workers) {
  for (unsigned i = 0; i < workers; ++i)
    threads.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stop = true;
  }
  cv.notify_all();
  for (std::thread &t : threads)
    t.join();
}

void ThreadPool::work() {
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    cv.wait(lock, [&] { return stop || !jobs.empty(); });
    if (jobs.empty())
      return;
    std::function<void()> job = std::move(jobs.front());
    jobs.pop_front();
    lock.unlock();
    job();
    job = nullptr;
    lock.lock();
  }
}

namespace {
/// Shared by the helpers of one parallelFor; outlives late helpers.
struct Loop {
  std::atomic<uint64_t> next{0};
  uint64_t count = 0;
  std::mutex mutex;
  std::condition_variable cv;
  uint64_t done = 0;
  const std::function<void(uint64_t)> *fn = nullptr;

  void drain() {
    uint64_t mine = 0;
    for (uint64_t i; (i = next.fetch_add(1)) < count; ++mine)
      (*fn)(i);
    if (!mine)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    done += mine;
    if (done == count)
      cv.notify_all();
  }
};
} // namespace

void ThreadPool::parallelFor(uint64_t n,
                             const std::function<void(uint64_t)> &fn) {
  if (n == 0)
    return;
  if (n == 1) {
    fn(0);
    return;
  }
  auto loop = std::make_shared<Loop>();
  loop->count = n;
  loop->fn = &fn;
  // The calling thread works too, so wake one worker fewer than there are
  // cores: every core has one thread, and a small loop needs no wake-up.
  uint64_t helpers =
      std::min<uint64_t>(n - 1, threads.size() > 1 ? threads.size() - 1 : 0);
  if (helpers) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      for (uint64_t h = 0; h < helpers; ++h)
        jobs.push_back([loop] { loop->drain(); });
    }
    if (helpers == 1)
      cv.notify_one();
    else
      cv.notify_all();
  }
  loop->drain();
  std::unique_lock<std::mutex> lock(loop->mutex);
  loop->cv.wait(lock, [&] { return loop->done == loop->count; });
}

} // namespace sluice::rt::host
