//===- HostQueue.cpp - In-order queue of host tasks -----------------------===//
#include "HostQueue.h"

#include "HostModule.h"
#include "ThreadPool.h"

#include "sluice/Runtime/ErrorState.h"

#include <cstring>

namespace sluice::rt::host {

HostQueue::~HostQueue() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stop = true;
  }
  cv.notify_all();
  if (worker.joinable())
    worker.join();
}

Ref<Event> HostQueue::submit(const EventList &deps, Work work) {
  Task task{makeRef<SignalEvent>(SLUICE_BACKEND_HOST), deps, std::move(work)};
  Ref<Event> event = task.event;
  std::lock_guard<std::mutex> lock(mutex);
  if (!worker.joinable())
    worker = std::thread([this] { run(); });
  tasks.push_back(std::move(task));
  cv.notify_all();
  return event;
}

void HostQueue::run() {
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    cv.wait(lock, [&] { return stop || !tasks.empty(); });
    if (tasks.empty())
      return; // stop requested and nothing left
    Task task = std::move(tasks.front());
    tasks.pop_front();
    busy = true;
    lock.unlock();

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

    lock.lock();
    if (!error.empty() && failure.empty())
      failure = error;
    busy = false;
    if (tasks.empty())
      idle.notify_all();
  }
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
  out = submit(deps, [=] {
    std::memmove(dst, src, bytes);
    return std::string();
  });
  return SLUICE_SUCCESS;
}

SluiceStatus HostQueue::submitFill(void *dst, const void *pattern,
                                   size_t patternSize, size_t bytes,
                                   const EventList &deps, Ref<Event> &out) {
  std::string copy(static_cast<const char *>(pattern), patternSize);
  out = submit(deps, [=] {
    char *d = static_cast<char *>(dst);
    if (patternSize == 1) {
      std::memset(d, copy[0], bytes);
    } else {
      for (size_t off = 0; off < bytes; off += patternSize)
        std::memcpy(d + off, copy.data(), patternSize);
    }
    return std::string();
  });
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
  out = submit(deps, [module, fn, shape, shared] {
    std::vector<void *> pointers = shared->pointers();
    uint64_t gx = shape.num_groups[0], gy = shape.num_groups[1];
    uint64_t total = gx * gy * shape.num_groups[2];
    ThreadPool::shared().parallelFor(total, [&](uint64_t i) {
      SluiceHostGroup group = shape;
      group.group_id[0] = i % gx;
      group.group_id[1] = (i / gx) % gy;
      group.group_id[2] = i / (gx * gy);
      fn(pointers.data(), &group);
    });
    return std::string();
  });
  return SLUICE_SUCCESS;
}

SluiceStatus HostQueue::submitBarrier(const EventList &deps, Ref<Event> &out) {
  out = submit(deps, [] { return std::string(); });
  return SLUICE_SUCCESS;
}

} // namespace sluice::rt::host
