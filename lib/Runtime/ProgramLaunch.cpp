//===- ProgramLaunch.cpp - Modules and launches of compiled programs ------===//
#include "ProgramState.h"
#include "UsmAccess.h"

#include "sluice-c/Program.h"
#include "sluice/Runtime/ProgramContext.h"

#include <cstring>
#include <mutex>
#include <unordered_map>

using namespace sluice::rt;
using namespace sluice::rt::program;

namespace {

/// Modules by (device, format, binary address, size), kernels by (module,
/// name address) and host-function kernels by (device, function), all kept
/// for the life of the process.
class LaunchCache {
public:
  static LaunchCache &get() {
    static LaunchCache *cache = new LaunchCache(); // never destroyed
    return *cache;
  }

  SluiceStatus module(Device &device, SluiceModuleFormat format,
                      const void *bytes, size_t size, SluiceModule &out);
  SluiceStatus kernel(SluiceModule module, const char *name, SluiceKernel &out);
  SluiceStatus hostKernel(Device &device, SluiceHostKernelFn fn,
                          SluiceKernel &out);

private:
  struct ModuleKey {
    Device *device;
    SluiceModuleFormat format;
    const void *bytes;
    size_t size;
    bool operator==(const ModuleKey &o) const {
      return device == o.device && format == o.format && bytes == o.bytes &&
             size == o.size;
    }
  };
  struct ModuleKeyHash {
    size_t operator()(const ModuleKey &k) const {
      return AddressPairHash()({k.device, k.bytes}) ^ (k.size * 31 + k.format);
    }
  };
  struct KernelEntry {
    std::string name;
    SluiceKernel kernel;
  };

  std::mutex mutex;
  std::unordered_map<ModuleKey, SluiceModule, ModuleKeyHash> modules;
  std::unordered_map<std::pair<const void *, const void *>, KernelEntry,
                     AddressPairHash>
      kernels;
  std::unordered_map<std::pair<const void *, const void *>, SluiceKernel,
                     AddressPairHash>
      hostKernels;
};

SluiceStatus LaunchCache::module(Device &device, SluiceModuleFormat format,
                                 const void *bytes, size_t size,
                                 SluiceModule &out) {
  ModuleKey key{&device, format, bytes, size};
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = modules.find(key);
    if (it != modules.end()) {
      out = it->second;
      return SLUICE_SUCCESS;
    }
  }
  // Built outside the lock: builds take long, and the runtime's own module
  // cache already builds each binary once.
  SluiceModule built = nullptr;
  if (SluiceStatus status =
          sluiceModuleCreate(wrap(&device), format, bytes, size, &built))
    return status;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = modules.emplace(key, built);
  if (!inserted) // another thread was first: the same module, one reference
    sluiceModuleRelease(built);
  out = it->second;
  return SLUICE_SUCCESS;
}

SluiceStatus LaunchCache::kernel(SluiceModule module, const char *name,
                                 SluiceKernel &out) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = kernels.find({module, name});
  if (it != kernels.end() && it->second.name == name) {
    out = it->second.kernel;
    return SLUICE_SUCCESS;
  }
  SluiceKernel found = nullptr;
  if (SluiceStatus status = sluiceKernelGet(module, name, &found))
    return status;
  kernels[{module, name}] = KernelEntry{name, found};
  out = found;
  return SLUICE_SUCCESS;
}

SluiceStatus LaunchCache::hostKernel(Device &device, SluiceHostKernelFn fn,
                                     SluiceKernel &out) {
  std::lock_guard<std::mutex> lock(mutex);
  std::pair<const void *, const void *> key{&device,
                                            reinterpret_cast<const void *>(fn)};
  auto it = hostKernels.find(key);
  if (it != hostKernels.end()) {
    out = it->second;
    return SLUICE_SUCCESS;
  }
  static const char *const name = "host_function";
  SluiceModule module = nullptr;
  if (SluiceStatus status = sluiceModuleCreateHostFunctions(
          wrap(&device), 1, &name, &fn, &module))
    return status;
  // The module lives as long as the process, like every cached module.
  SluiceKernel kernel = nullptr;
  if (SluiceStatus status = sluiceKernelGet(module, name, &kernel)) {
    sluiceModuleRelease(module);
    return status;
  }
  hostKernels.emplace(key, kernel);
  out = kernel;
  return SLUICE_SUCCESS;
}

/// Launches on `queue` after the work it must follow and records the launch
/// as the queue's newest task. A grid with a zero dimension launches
/// nothing.
SluiceStatus launch(Invocation &inv, Queue *queue, SluiceKernel kernel,
                    const uint64_t grid[3], const uint64_t local[3],
                    uint32_t numArgs, void **argValues,
                    const uint64_t *argSizes) {
  if (numArgs && (!argValues || !argSizes))
    return fail(SLUICE_ERROR_INVALID_VALUE,
                "sluiceProgramLaunch: argument values or sizes are NULL for " +
                    std::to_string(numArgs) + " arguments");
  if (!grid[0] || !grid[1] || !grid[2])
    return SLUICE_SUCCESS;
  constexpr uint32_t inlineArgs = 16;
  SluiceKernelArg inlineStorage[inlineArgs];
  std::vector<SluiceKernelArg> heapStorage;
  SluiceKernelArg *args = inlineStorage;
  if (numArgs > inlineArgs) {
    heapStorage.resize(numArgs);
    args = heapStorage.data();
  }
  for (uint32_t i = 0; i < numArgs; ++i)
    args[i] = SluiceKernelArg{argValues[i], static_cast<size_t>(argSizes[i])};
  QueueSlot &slot = inv.slot(inv.slotIndex(queue));
  SluiceEvent dep = slot.after ? wrap(slot.after.get()) : nullptr;
  SluiceEvent event = nullptr;
  keepEventsInternal = true;
  SluiceStatus status = sluiceLaunch(wrap(queue), kernel, grid, local, numArgs,
                                     args, dep ? 1 : 0, &dep, &event);
  keepEventsInternal = false;
  if (status)
    return status;
  slot.after = nullptr;
  slot.last = Ref<Event>::adopt(unwrap(event));
  return SLUICE_SUCCESS;
}

/// A host launch run at once on the entry's thread (Queue::launchHostNow)
/// where nothing is gained by a task: the entry waits for its launches at
/// its end anyway (not in an asynchronous invocation), the queue is idle,
/// the task of another queue it must follow has finished, and every USM
/// argument is reachable and needs no reuse fence. The work has finished
/// when this returns, so nothing records its uses. False (nothing ran): the
/// task path decides, and reports what is wrong.
bool launchHostNow(Invocation &inv, Queue *queue, SluiceHostKernelFn fn,
                   const uint64_t grid[3], uint32_t numArgs, void **argValues,
                   const uint64_t *argSizes) {
  if (!insideWaitingEntry() || queue->profilingEnabled() ||
      (numArgs && (!argValues || !argSizes)) || !grid[0] || !grid[1] ||
      !grid[2])
    return false;
  QueueSlot &slot = inv.slot(inv.slotIndex(queue));
  if (slot.after && !slot.after->isFinished())
    return false;
  UsmRegistry &usm = Platform::get().usm();
  // (An array's allocated and aligned pointers come in pairs: the last
  // allocation checked answers the second.)
  std::shared_ptr<Allocation> last;
  for (uint32_t i = 0; i < numArgs; ++i) {
    if (!argValues[i] || !argSizes[i])
      return false;
    if (argSizes[i] != sizeof(void *))
      continue;
    const char *p;
    std::memcpy(&p, argValues[i], sizeof p);
    if (last && p >= static_cast<const char *>(last->base) &&
        p < static_cast<const char *>(last->base) + last->size)
      continue;
    std::shared_ptr<Allocation> a = usm.find(p);
    if (!a)
      continue;
    if (!kernelReaches(*queue, a.get()))
      return false;
    std::lock_guard<std::mutex> lock(a->usesMutex);
    if (a->reuseFence && a->queue.get() != queue &&
        !a->reuseFence->isFinished())
      return false;
    last = std::move(a);
  }
  if (!queue->launchHostNow(fn, grid, argValues))
    return false;
  slot.after = nullptr;
  return true;
}

} // namespace

extern "C" {

void *sluiceProgramModule(void *queue, int32_t format, const void *bytes,
                          uint64_t size) {
  Invocation &inv = Invocation::current();
  SluiceModule module = nullptr;
  bool ok = run(inv, [&] {
    if (!queue)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceProgramModule: the queue is NULL");
    if (format < SLUICE_MODULE_SPIRV || format > SLUICE_MODULE_CUBIN)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceProgramModule: unknown module format " +
                      std::to_string(format));
    if (!bytes || !size || !fitsSize(size))
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceProgramModule: the module binary is empty");
    Device &device = unwrap(static_cast<SluiceQueue>(queue))->device();
    return LaunchCache::get().module(device,
                                     static_cast<SluiceModuleFormat>(format),
                                     bytes, static_cast<size_t>(size), module);
  });
  return ok ? module : nullptr;
}

void sluiceProgramLaunch(void *queue, void *module, const char *kernel,
                         uint64_t gx, uint64_t gy, uint64_t gz, uint64_t lx,
                         uint64_t ly, uint64_t lz, uint32_t numArgs,
                         void **argValues, const uint64_t *argSizes) {
  Invocation &inv = Invocation::current();
  run(inv, [&] {
    if (!queue || !module || !kernel)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  std::string("sluiceProgramLaunch: the ") +
                      (!queue    ? "queue"
                       : !module ? "module"
                                 : "kernel name") +
                      " is NULL");
    SluiceKernel k = nullptr;
    if (SluiceStatus status = LaunchCache::get().kernel(
            static_cast<SluiceModule>(module), kernel, k))
      return status;
    const uint64_t grid[3] = {gx, gy, gz}, local[3] = {lx, ly, lz};
    return launch(inv, unwrap(static_cast<SluiceQueue>(queue)), k, grid, local,
                  numArgs, argValues, argSizes);
  });
}

void *sluiceProgramLaunchCounter(void *queue) {
  Invocation &inv = Invocation::current();
  void *counter = nullptr;
  bool ok = run(inv, [&] {
    if (!queue)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceProgramLaunchCounter: the queue is NULL");
    return unwrap(static_cast<SluiceQueue>(queue))->launchCounter(counter);
  });
  return ok ? counter : nullptr;
}

void sluiceProgramLaunchHost(void *queue, void *fn, uint64_t gx, uint64_t gy,
                             uint64_t gz, uint32_t numArgs, void **argValues,
                             const uint64_t *argSizes) {
  Invocation &inv = Invocation::current();
  run(inv, [&] {
    if (!queue || !fn)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  std::string("sluiceProgramLaunchHost: the ") +
                      (!queue ? "queue" : "function") + " is NULL");
    Queue *q = unwrap(static_cast<SluiceQueue>(queue));
    const uint64_t grid[3] = {gx, gy, gz}, local[3] = {1, 1, 1};
    if (launchHostNow(inv, q, reinterpret_cast<SluiceHostKernelFn>(fn), grid,
                      numArgs, argValues, argSizes))
      return SLUICE_SUCCESS;
    SluiceKernel k = nullptr;
    if (SluiceStatus status = LaunchCache::get().hostKernel(
            q->device(), reinterpret_cast<SluiceHostKernelFn>(fn), k))
      return status;
    return launch(inv, q, k, grid, local, numArgs, argValues, argSizes);
  });
}

} // extern "C"
