//===- Tasks.h - Asynchronous execution of array operations -----*- C++ -*-===//
//
// Every operation on arrays (a compiled program call, a copy, a fill) is a
// Task. Python submits tasks and returns at once; a worker thread per
// device runs them in submission order. A compiled entry point returns only
// when its work has finished, so a finished task's results are complete.
//
// Ordering: tasks of one device run in order. A task also waits for the
// last earlier task that touched any of its buffers (Buffer::last), which
// orders work across devices: dependencies always point to tasks submitted
// earlier, so the oldest unfinished task can always run.
//
// Errors: a failed task records its message; tasks that depend on it fail
// too ("an earlier operation failed: ..."); the failure surfaces at the
// next synchronisation (reading the array, Queue.wait()).
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_PYTHON_TASKS_H
#define SLUICE_PYTHON_TASKS_H

#include "SmallVector.h"
#include "sluice-c/Runtime.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace sluice::py {

struct QueueState;

class Task {
public:
  virtual ~Task();
  /// Does the work on a worker thread (or inline in synchronous mode).
  /// Returns SLUICE_SUCCESS or a status with `message` set.
  virtual SluiceStatus run(std::string &message) = 0;

  /// Whether the task has finished: run, and for a launched task (below)
  /// its device work complete too (asked of the device, never waited for).
  bool finished() const;
  bool failed() const { return finished() && state.load() == 2; }
  /// Run and launched, its device work not yet known to be complete.
  bool launchedPending() const { return state.load() == 3; }
  /// Blocks until the task has finished (call without the GIL).
  void wait();
  /// The failure's status and message (valid once failed()).
  SluiceStatus status = SLUICE_SUCCESS;
  std::string message;

  /// Tasks this one must follow; cleared once it ran. A failed dependency
  /// fails this task when `inherit` is set (it wrote memory this task
  /// uses); otherwise it only orders.
  struct Dependency {
    std::shared_ptr<Task> task;
    bool inherit;
  };
  /// (Inline: an eager operation has one or two, and a heap list was an
  /// allocation per operation.)
  SmallVector<Dependency, 2> deps;
  /// The queue whose wait() reports this task's failure.
  QueueState *queue = nullptr;
  /// Cheap enough to run on the submitting thread, with the GIL held, when
  /// its device has nothing queued or running and its dependencies have
  /// finished: host work on small arrays, where handing the task to the
  /// worker (and waking it) would cost more than the work.
  bool small = false;

  /// Launched tasks. A program call on a device queue (not the host) may
  /// return once its work is submitted: run() then leaves the events that
  /// complete with that work in `launched`, and the task has finished only
  /// when they have (a host read, wait() or finished() asks). `launchedOn`
  /// is the one queue all of it went to, or null when it used several.
  SmallVector<SluiceEvent, 1> launched;
  SluiceQueue launchedOn = nullptr;
  /// Set before submission for a task whose work goes to this in-order
  /// queue and nowhere else: it follows its dependencies launched on the
  /// same queue without waiting for them (the queue orders them).
  SluiceQueue ordersOn = nullptr;
  /// A launch (ordersOn) cheap enough to make on the submitting thread,
  /// without the GIL, when its device's worker is idle and its
  /// dependencies are finished or follow (CUDA: a launch costs a few
  /// microseconds, waking the worker and being woken more). OpenCL and
  /// Level Zero launches cost more and overlap with Python on the worker.
  bool launchInline = false;
  /// Whether this task may run before `dep` has finished: `dep` was
  /// launched on the queue this task's work goes to (ordersOn).
  bool follows(const Task &dep) const;

  /// Runs the task after its dependencies and records the outcome.
  void execute();

protected:
  /// Drops what the task holds once it has run: its buffers point back at
  /// it (Buffer::last), so keeping them would keep both alive for good.
  virtual void dropReferences() {}

private:
  /// Ends a launched task once its events completed (or failed).
  void settle() const;
  /// 0 pending, 1 done, 2 failed, 3 launched (run, its device work maybe
  /// still running).
  mutable std::atomic<int> state{0};
  /// Threads blocked in wait() on this task (guarded by the completion
  /// lock): a task nobody waits for wakes nobody when it ends (a loop
  /// that waits for its last call was woken by every earlier one).
  int waiters = 0;
};

/// Whether program calls on queues of `backend` may be launched and left
/// running (Task::launched): every backend but the host's, unless
/// $SLUICE_ASYNC_CALLS=0.
bool launchesAsynchronously(SluiceBackend backend);

/// Whether launches (Task::launchInline) on queues of `backend` are made
/// on the submitting thread: CUDA's, unless $SLUICE_INLINE_LAUNCHES says
/// otherwise (0: none; 1: every backend that launches asynchronously).
bool launchesInline(SluiceBackend backend);

/// A task that waits until release() (for tests of asynchrony).
class GateTask : public Task {
public:
  SluiceStatus run(std::string &message) override;
  void release();

private:
  std::mutex mutex;
  std::condition_variable cv;
  bool open = false;
};

/// One worker thread running the tasks of one device in order. About
/// kMaxPending tasks wait: a submitter that queues a task past that waits
/// (GIL released) until half have run, so Python cannot run arbitrarily far
/// ahead of the device and the memory of pending results stays bounded.
/// The task is queued before its submitter waits: another thread's task may
/// depend on it already.
class Dispatcher {
public:
  explicit Dispatcher(SluiceDevice device);
  ~Dispatcher();
  void submit(std::shared_ptr<Task> task);
  /// Runs a small task at once on this thread if it may (see Task::small);
  /// false if it was not run.
  bool runInline(const std::shared_ptr<Task> &task);
  /// Blocks until every task submitted so far has finished (no GIL).
  void drain();
  /// Records `task` as the newest launched task of its queue, which drain()
  /// waits for as well.
  void noteLaunched(const std::shared_ptr<Task> &task);

private:
  void loop();
  SluiceDevice device;
  std::mutex mutex;
  std::condition_variable cv, space;
  std::deque<std::shared_ptr<Task>> pending;
  std::shared_ptr<Task> last;
  /// The newest launched task of each queue (few queues: a vector).
  std::vector<std::shared_ptr<Task>> lastLaunched;
  /// A task is running (on the worker or inline): the other waits.
  bool running = false;
  bool stopping = false;
  std::thread worker;
};

/// A queue as the extension knows it: the runtime queue, the names compiled
/// programs use for it, and the first failure since the last wait().
struct QueueState {
  SluiceQueue queue = nullptr;
  SluiceDevice device = nullptr;
  /// Normalised filter string of the device ("host:cpu:0").
  std::string deviceString;
  /// "" for the canonical queue, else the program queue name.
  std::string name;
  SluiceBackend backend = SLUICE_BACKEND_HOST;
  Dispatcher *dispatcher = nullptr;

  void recordFailure(SluiceStatus status, const std::string &message);
  /// Takes the first recorded failure (status SLUICE_SUCCESS if none).
  SluiceStatus takeFailure(std::string &message);

private:
  std::mutex mutex;
  SluiceStatus failure = SLUICE_SUCCESS;
  std::string failureMessage;
};

/// The queue a program names: `deviceString` normalised, `name` "" for the
/// canonical queue. Created once per pair and kept for the process.
QueueState *getQueue(const std::string &device, const std::string &name);
/// The QueueState of a runtime queue made by getQueue, or null.
QueueState *findQueue(SluiceQueue queue);

/// Whether tasks run on the calling thread (SLUICE_SYNC=1 or
/// set_synchronous(True)).
bool synchronousMode();
void setSynchronousMode(bool on);

struct Buffer;
/// Records that `task` (whose shared pointer is `self`) reads or writes
/// `buffer`: it follows the buffer's last access, inherits the failure of
/// its last writer, and becomes its last access (and writer).
void useBuffer(Task &task, const std::shared_ptr<Task> &self, Buffer &buffer,
               bool write);

/// Submits a task to `dispatcher` (or runs it at once, without the GIL, in
/// synchronous mode). The caller holds the GIL.
void submitTask(Dispatcher *dispatcher, std::shared_ptr<Task> task);

/// Bytes of host work (arguments and results) up to which a task is
/// small (Task::small): $SLUICE_INLINE_BYTES, default 256 KiB; 0 never
/// runs tasks inline.
size_t inlineBytes();

/// Waits for `task` with the GIL released.
void waitWithoutGil(Task &task);

/// Calls `fn` at a moment the GIL is held: now if this thread holds it,
/// else at the next call into the extension from Python.
void runWithGil(std::function<void()> fn);
/// Runs what runWithGil deferred (the caller holds the GIL).
void drainDeferred();

} // namespace sluice::py

#endif // SLUICE_PYTHON_TASKS_H
