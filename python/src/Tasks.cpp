//===- Tasks.cpp - Asynchronous execution of array operations -------------===//
#include "Tasks.h"
#include "Array.h"
#include "Errors.h"

#include "sluice-c/Program.h"
#include "sluice/Runtime/ByteSize.h"

#include <nanobind/nanobind.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <new>

namespace nb = nanobind;

namespace sluice::py {

namespace {
// One condition variable for every task completion: waiters are few (the
// Python thread and workers waiting across devices). Never destroyed:
// workers may still wait on it while the process exits.
std::mutex &doneMutex = *new std::mutex;
std::condition_variable &doneCv = *new std::condition_variable;

bool initialSynchronous() {
  const char *env = std::getenv("SLUICE_SYNC");
  return env && *env && std::strcmp(env, "0") != 0;
}
std::atomic<bool> synchronous{initialSynchronous()};
} // namespace

Task::~Task() {
  for (SluiceEvent e : launched)
    sluiceEventRelease(e);
}

bool Task::finished() const {
  int s = state.load(std::memory_order_acquire);
  if (s != 3)
    return s != 0;
  for (SluiceEvent e : launched) {
    SluiceEventStatus st = SLUICE_EVENT_QUEUED;
    if (sluiceEventGetStatus(e, &st) != SLUICE_SUCCESS)
      break; // settle() reports it
    if (st != SLUICE_EVENT_COMPLETE && st != SLUICE_EVENT_ERROR)
      return false;
  }
  settle();
  return true;
}

void Task::settle() const {
  // The events are complete (or this blocks until they are).
  SluiceStatus result =
      launched.empty()
          ? SLUICE_SUCCESS
          : sluiceEventsWait(static_cast<uint32_t>(launched.size()),
                             launched.data());
  const char *msg =
      result == SLUICE_SUCCESS ? nullptr : sluiceGetLastErrorMessage();
  {
    // The outcome is written before the state says so, under the lock
    // that makes a second settler (another thread) see it is done.
    std::lock_guard<std::mutex> lock(doneMutex);
    if (state.load(std::memory_order_acquire) != 3)
      return;
    if (result != SLUICE_SUCCESS) {
      auto *self = const_cast<Task *>(this);
      self->status = result;
      self->message = msg && *msg ? msg : "a device task failed";
      if (queue)
        queue->recordFailure(result, self->message);
    }
    state.store(result == SLUICE_SUCCESS ? 1 : 2, std::memory_order_release);
  }
  doneCv.notify_all();
}

void Task::wait() {
  if (finished())
    return;
  {
    std::unique_lock<std::mutex> lock(doneMutex);
    ++waiters;
    doneCv.wait(lock,
                [&] { return state.load(std::memory_order_acquire) != 0; });
    --waiters;
  }
  if (state.load(std::memory_order_acquire) == 3)
    settle();
}

bool Task::follows(const Task &dep) const {
  // A dependency launched on the queue this task's work goes to is ordered
  // by the queue: no need to wait for its device work.
  return ordersOn && dep.state.load(std::memory_order_acquire) == 3 &&
         dep.launchedOn == ordersOn;
}

bool launchesAsynchronously(SluiceBackend backend) {
  static const bool enabled = [] {
    const char *env = std::getenv("SLUICE_ASYNC_CALLS");
    return !(env && std::strcmp(env, "0") == 0);
  }();
  return enabled && backend != SLUICE_BACKEND_HOST;
}

bool launchesInline(SluiceBackend backend) {
  // -1 unset (CUDA only), 0 never, 1 every backend that launches
  // asynchronously (tests use it to run CUDA's path on other devices).
  static const int setting = [] {
    const char *env = std::getenv("SLUICE_INLINE_LAUNCHES");
    if (!env || !*env)
      return -1;
    return std::strcmp(env, "0") == 0 ? 0 : 1;
  }();
  if (setting >= 0)
    return setting == 1 && launchesAsynchronously(backend);
  return backend == SLUICE_BACKEND_CUDA;
}

void Task::execute() {
  SluiceStatus result = SLUICE_SUCCESS;
  for (const Dependency &dep : deps) {
    if (follows(*dep.task))
      continue;
    dep.task->wait();
    if (dep.inherit && dep.task->failed() && result == SLUICE_SUCCESS) {
      result = dep.task->status;
      // One prefix however long the chain of failed dependencies is.
      static const std::string prefix = "an earlier operation failed: ";
      message = dep.task->message.compare(0, prefix.size(), prefix) == 0
                    ? dep.task->message
                    : prefix + dep.task->message;
    }
  }
  deps.clear();
  if (result == SLUICE_SUCCESS) {
    try {
      result = run(message);
    } catch (const std::bad_alloc &) {
      result = SLUICE_ERROR_OUT_OF_HOST_MEMORY;
      message = "out of host memory";
    } catch (const std::exception &e) {
      result = SLUICE_ERROR_BACKEND;
      message = e.what();
    }
  }
  dropReferences();
  status = result;
  if (result != SLUICE_SUCCESS && queue)
    queue->recordFailure(result, message);
  bool isLaunched = result == SLUICE_SUCCESS && !launched.empty();
  bool wake;
  {
    std::lock_guard<std::mutex> lock(doneMutex);
    state.store(isLaunched                 ? 3
                : result == SLUICE_SUCCESS ? 1
                                           : 2,
                std::memory_order_release);
    wake = waiters > 0;
  }
  if (wake)
    doneCv.notify_all();
}

SluiceStatus GateTask::run(std::string &) {
  std::unique_lock<std::mutex> lock(mutex);
  cv.wait(lock, [&] { return open; });
  return SLUICE_SUCCESS;
}

void GateTask::release() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    open = true;
  }
  cv.notify_all();
}

Dispatcher::Dispatcher(SluiceDevice device)
    : device(device), worker([this] { loop(); }) {}

Dispatcher::~Dispatcher() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  cv.notify_all();
  space.notify_all();
  worker.join();
}

namespace {
constexpr size_t kMaxPending = 64;
} // namespace

void Dispatcher::submit(std::shared_ptr<Task> task) {
  // The task is queued before this thread waits for space: other threads
  // may already depend on it (useBuffer published it), and a task the
  // worker waits for must be in the queue, or the worker and this thread
  // wait for each other. The bound is therefore kMaxPending plus one task
  // per submitting thread.
  bool full;
  {
    std::lock_guard<std::mutex> lock(mutex);
    last = task;
    pending.push_back(std::move(task));
    full = pending.size() > kMaxPending;
  }
  cv.notify_one();
  if (!full)
    return;
  // Never wait for the mutex while holding the GIL (nor the reverse).
  nb::gil_scoped_release release;
  std::unique_lock<std::mutex> wait(mutex);
  space.wait(wait,
             [&] { return stopping || pending.size() < kMaxPending / 2; });
}

bool Dispatcher::runInline(const std::shared_ptr<Task> &task) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (running || !pending.empty())
      return false;
    for (const Task::Dependency &dep : task->deps)
      if (!task->follows(*dep.task) && !dep.task->finished())
        return false;
    running = true;
    last = task;
  }
  if (task->ordersOn) {
    // A launch on a device queue: the driver may block (a full launch
    // queue, memory coming back), so without the GIL.
    nb::gil_scoped_release release;
    task->execute();
  } else {
    task->execute();
  }
  if (task->launchedPending())
    noteLaunched(task);
  bool more;
  {
    std::lock_guard<std::mutex> lock(mutex);
    running = false;
    more = !pending.empty();
  }
  if (more)
    cv.notify_one();
  return true;
}

void Dispatcher::drain() {
  std::shared_ptr<Task> tail;
  {
    std::lock_guard<std::mutex> lock(mutex);
    tail = last;
  }
  if (tail)
    tail->wait();
  std::vector<std::shared_ptr<Task>> launchedTails;
  {
    std::lock_guard<std::mutex> lock(mutex);
    launchedTails = lastLaunched;
  }
  for (const std::shared_ptr<Task> &t : launchedTails)
    t->wait();
}

void Dispatcher::noteLaunched(const std::shared_ptr<Task> &task) {
  std::lock_guard<std::mutex> lock(mutex);
  for (std::shared_ptr<Task> &t : lastLaunched)
    if (t->launchedOn == task->launchedOn) {
      t = task;
      return;
    }
  lastLaunched.push_back(task);
}

void Dispatcher::loop() {
  for (;;) {
    std::shared_ptr<Task> task;
    {
      std::unique_lock<std::mutex> lock(mutex);
      cv.wait(lock, [&] { return stopping || (!pending.empty() && !running); });
      if (pending.empty() || running)
        return;
      task = std::move(pending.front());
      pending.pop_front();
      running = true;
      if (pending.size() + 1 == kMaxPending / 2)
        space.notify_all();
    }
    task->execute();
    if (task->launchedPending())
      noteLaunched(task);
    task.reset();
    {
      std::lock_guard<std::mutex> lock(mutex);
      running = false;
    }
  }
}

void QueueState::recordFailure(SluiceStatus status,
                               const std::string &message) {
  std::lock_guard<std::mutex> lock(mutex);
  if (failure == SLUICE_SUCCESS) {
    failure = status;
    failureMessage = message;
  }
}

SluiceStatus QueueState::takeFailure(std::string &message) {
  std::lock_guard<std::mutex> lock(mutex);
  SluiceStatus s = failure;
  message = std::move(failureMessage);
  failure = SLUICE_SUCCESS;
  failureMessage.clear();
  return s;
}

namespace {
// Touched with the GIL held only: the maps need no lock of their own.
std::map<std::pair<std::string, std::string>, QueueState *> queues;
std::map<SluiceQueue, QueueState *> queuesByHandle;
std::map<SluiceDevice, Dispatcher *> dispatchers;
} // namespace

QueueState *findQueue(SluiceQueue queue) {
  auto it = queuesByHandle.find(queue);
  return it == queuesByHandle.end() ? nullptr : it->second;
}

QueueState *getQueue(const std::string &device, const std::string &name) {
  auto key = std::make_pair(device, name);
  if (auto it = queues.find(key); it != queues.end())
    return it->second;
  sluiceProgramBegin();
  void *q = sluiceProgramQueue(device.c_str(), name.c_str());
  int32_t status = sluiceProgramEnd();
  if (!q || status != 0)
    throw runtimeError(status ? static_cast<SluiceStatus>(status)
                              : SLUICE_ERROR_DEVICE_NOT_FOUND,
                       "no queue for device \"" + device + "\"");
  if (QueueState *known = findQueue(static_cast<SluiceQueue>(q))) {
    queues.emplace(key, known); // another spelling of a known queue
    return known;
  }
  auto *state = new QueueState; // lives as long as the process
  state->queue = static_cast<SluiceQueue>(q);
  check(sluiceQueueGetDevice(state->queue, &state->device),
        "cannot query a queue's device");
  SluiceDeviceInfo info;
  check(sluiceDeviceGetInfo(state->device, &info), "cannot query a device");
  state->deviceString = info.filter_string;
  state->backend = info.backend;
  state->name = name;
  Dispatcher *&dispatcher = dispatchers[state->device];
  if (!dispatcher)
    dispatcher = new Dispatcher(state->device); // lives as long as the process
  state->dispatcher = dispatcher;
  queues.emplace(key, state);
  queuesByHandle.emplace(state->queue, state);
  return state;
}

void useBuffer(Task &task, const std::shared_ptr<Task> &self, Buffer &buffer,
               bool write) {
  // A task this one follows on its queue (Task::follows) is kept without
  // asking the device whether it has finished: execute() does not wait
  // for it anyway, and on CUDA each question is a driver call (several
  // per eager operation, which all read and write the same buffers).
  // The last writer's failure is this task's: its memory is not valid.
  const std::shared_ptr<Task> &writer = buffer.writer;
  if (writer && writer != self &&
      (task.follows(*writer) || !writer->finished() || writer->failed()))
    task.deps.push_back({writer, true});
  // The last access, unless it is the writer (just handled).
  const std::shared_ptr<Task> &last = buffer.last;
  if (last && last != self && last != writer &&
      (task.follows(*last) || !last->finished()))
    task.deps.push_back({last, false});
  buffer.last = self;
  if (write)
    buffer.writer = self;
}

size_t inlineBytes() {
  static const size_t bytes = [] {
    uint64_t v = 0;
    return rt::parseByteSize(std::getenv("SLUICE_INLINE_BYTES"), v)
               ? static_cast<size_t>(v)
               : size_t(256) << 10;
  }();
  return bytes;
}

bool synchronousMode() { return synchronous.load(); }
void setSynchronousMode(bool on) { synchronous.store(on); }

void waitWithoutGil(Task &task) {
  if (task.finished())
    return;
  nb::gil_scoped_release release;
  task.wait();
}

void submitTask(Dispatcher *dispatcher, std::shared_ptr<Task> task) {
  drainDeferred();
  if (synchronousMode()) {
    nb::gil_scoped_release release;
    task->execute();
    return;
  }
  // Small host work, and cheap launches on an idle device queue, run on
  // this thread: handing them to the worker and waking it would cost more.
  if ((task->small || task->launchInline) && dispatcher->runInline(task))
    return;
  dispatcher->submit(std::move(task));
}

namespace {
std::mutex deferredMutex;
std::vector<std::function<void()>> deferred;
/// Whether `deferred` may hold something: every call into the extension
/// asks, and it seldom does.
std::atomic<bool> haveDeferred{false};
} // namespace

void runWithGil(std::function<void()> fn) {
  if (PyGILState_Check()) {
    fn();
    return;
  }
  std::lock_guard<std::mutex> lock(deferredMutex);
  deferred.push_back(std::move(fn));
  haveDeferred.store(true, std::memory_order_release);
}

void drainDeferred() {
  if (!haveDeferred.load(std::memory_order_acquire))
    return;
  std::vector<std::function<void()>> todo;
  {
    std::lock_guard<std::mutex> lock(deferredMutex);
    haveDeferred.store(false, std::memory_order_relaxed);
    if (deferred.empty())
      return;
    todo.swap(deferred);
  }
  for (auto &fn : todo)
    fn();
}

} // namespace sluice::py
