//===- ThreadPool.h - Workers that run host workgroups ----------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_HOST_THREADPOOL_H
#define SLUICE_LIB_RUNTIME_HOST_THREADPOOL_H

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace sluice::rt::host {

/// A fixed set of std::thread::hardware_concurrency() workers shared by all
/// host queues.
class ThreadPool {
public:
  static ThreadPool &shared();
  explicit ThreadPool(unsigned workers);
  ~ThreadPool();

  unsigned size() const { return static_cast<unsigned>(threads.size()); }
  /// Runs fn(i) for every i in [0, n) on the calling thread and the
  /// workers, and returns when all calls have returned.
  void parallelFor(uint64_t n, const std::function<void(uint64_t)> &fn);

private:
  void work();

  std::mutex mutex;
  std::condition_variable cv;
  std::deque<std::function<void()>> jobs;
  bool stop = false;
  std::vector<std::thread> threads;
};

} // namespace sluice::rt::host

#endif // SLUICE_LIB_RUNTIME_HOST_THREADPOOL_H
