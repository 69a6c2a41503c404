//===- HostQueue.h - In-order queue of host tasks ---------------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_HOST_HOSTQUEUE_H
#define SLUICE_LIB_RUNTIME_HOST_HOSTQUEUE_H

#include "sluice/Runtime/Queue.h"
#include "sluice/Runtime/SignalEvent.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace sluice::rt::host {

/// Tasks run one after another on the queue's own thread (started on first
/// submission); a launch spreads its workgroups over the shared pool. A
/// small copy or fill, or a launch from inside a program entry that waits
/// for its queues at its end anyway, submitted while the queue is idle and
/// its dependencies have finished, runs at once on the submitting thread
/// instead: waking the queue's thread (and waiting for it) would cost more.
class HostQueue final : public Queue {
public:
  explicit HostQueue(Device &device) : Queue(device) {}
  ~HostQueue() override;

  SluiceStatus wait() override;
  bool launchHostNow(SluiceHostKernelFn fn, const uint64_t grid[3],
                     void **args) override;

protected:
  SluiceStatus submitCopy(void *dst, const void *src, size_t bytes,
                          const EventList &deps, Ref<Event> &out) override;
  SluiceStatus submitFill(void *dst, const void *pattern, size_t patternSize,
                          size_t bytes, const EventList &deps,
                          Ref<Event> &out) override;
  SluiceStatus submitLaunch(Kernel &kernel, const uint64_t grid[3],
                            const uint64_t local[3], KernelArgs args,
                            const EventList &deps, Ref<Event> &out) override;
  SluiceStatus submitBarrier(const EventList &deps, Ref<Event> &out) override;
  SluiceStatus submitMatmul(const MatmulDesc &desc, const EventList &deps,
                            Ref<Event> &out) override;

private:
  /// A task returns "" on success or what went wrong.
  using Work = std::function<std::string()>;
  struct Task {
    Ref<SignalEvent> event;
    EventList deps;
    Work work;
  };
  /// `small`: cheap enough to run on the submitting thread when idle.
  Ref<Event> submit(const EventList &deps, Work work, bool small);
  /// Runs a task whose turn it is (its dependencies waited for); returns
  /// its error ("" on success) after finishing its event.
  static std::string runTask(Task &task);
  void run();

  std::mutex mutex;
  std::condition_variable cv, idle;
  std::deque<Task> tasks;
  bool busy = false, stop = false;
  std::string failure; // first failure since the last wait()
  std::thread worker;
};

} // namespace sluice::rt::host

#endif // SLUICE_LIB_RUNTIME_HOST_HOSTQUEUE_H
