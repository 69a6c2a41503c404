//===- DriverState.h - Objects and state of the Level Zero test driver ----===//
//
// The test driver implements the Level Zero entry points Sluice's
// level_zero backend uses on top of Sluice's own OpenCL backend (a private
// copy linked into the driver), so that the backend runs real kernels on
// PoCL. It is strict where real drivers are lenient: it checks every handle
// it is given, reports API misuse (objects destroyed while in use, events
// reset while commands wait for them, memory freed under running
// commands, ...) on stderr, and at unload reports every object still alive
// as a leak; with SLUICE_ZE_TEST_DRIVER_STRICT (default 1) any such report
// makes the process exit with status 86.
//
// Immediate command lists are not in order here: commands go round-robin to
// SLUICE_ZE_TEST_DRIVER_LANES (default 2) OpenCL queues, so only events
// order them, as the Level Zero specification allows.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_TEST_LEVELZERODRIVER_DRIVERSTATE_H
#define SLUICE_TEST_LEVELZERODRIVER_DRIVERSTATE_H

#include "sluice/Runtime/Backend.h"
#include "sluice/Runtime/Device.h"
#include "sluice/Runtime/Event.h"
#include "sluice/Runtime/Module.h"
#include "sluice/Runtime/Queue.h"
#include "sluice/Runtime/SignalEvent.h"

#include <level_zero/ze_ddi.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace sluice::zetest {

using rt::Event;
using rt::EventList;
using rt::Ref;

enum class Kind {
  Driver,
  Device,
  Context,
  CommandList,
  EventPool,
  Event,
  Module,
  Kernel,
  BuildLog
};
const char *kindName(Kind kind);

struct Object {
  explicit Object(Kind kind) : kind(kind) {}
  virtual ~Object() = default;
  Kind kind;
};

struct Device final : Object {
  Device() : Object(Kind::Device) {}
  Device *parent = nullptr;
  std::vector<Device *> subDevices;
  /// A tile of a card: a sub-device (COMPOSITE) or a device (FLAT).
  bool isTile = false;
  bool isSubDevice = false;
  uint32_t subDeviceId = 0;
  uint32_t id = 0;
};

struct Context final : Object {
  Context() : Object(Kind::Context) {}
};

/// One signaling of an event, from creation or reset to the next reset.
struct Incarnation {
  Ref<rt::SignalEvent> done =
      rt::makeRef<rt::SignalEvent>(SLUICE_BACKEND_LEVEL_ZERO);
  /// The command that signals it (null: not appended yet, or the host).
  Ref<Event> source;
  /// Commands that wait for it.
  EventList consumers;
};

struct EventPool final : Object {
  EventPool() : Object(Kind::EventPool) {}
  Context *context = nullptr;
  ze_event_pool_flags_t flags = 0;
  std::vector<Object *> slots; // live events by index
};

struct EventObject final : Object {
  EventObject() : Object(Kind::Event) {}
  EventPool *pool = nullptr;
  uint32_t index = 0;
  std::shared_ptr<Incarnation> current = std::make_shared<Incarnation>();
};

struct CommandList final : Object {
  CommandList() : Object(Kind::CommandList) {}
  Context *context = nullptr;
  Device *device = nullptr;
  std::vector<Ref<rt::Queue>> lanes;
  std::vector<Ref<Event>> tails;
  size_t next = 0;
};

struct Module final : Object {
  Module() : Object(Kind::Module) {}
  Context *context = nullptr;
  Device *device = nullptr;
  Ref<rt::Module> module;
};

struct Kernel final : Object {
  Kernel() : Object(Kind::Kernel) {}
  Module *module = nullptr;
  rt::Kernel *kernel = nullptr;
  uint32_t numArgs = 0;
  std::vector<std::optional<std::vector<unsigned char>>> args;
  uint32_t group[3] = {0, 0, 0};
};

struct BuildLog final : Object {
  BuildLog() : Object(Kind::BuildLog) {}
  std::string text;
};

struct Allocation {
  /// What the OpenCL layer allocated (before aligning, see zeMemAlloc*).
  void *raw = nullptr;
  Context *context = nullptr;
  ze_memory_type_t type = ZE_MEMORY_TYPE_UNKNOWN;
  size_t size = 0;
  Device *device = nullptr;
  uint64_t id = 0;
  /// Commands that use the memory (pruned as they finish).
  EventList users;
};

/// What the driver reports about its (one) device.
struct DeviceInfo {
  std::string name;
  uint64_t globalMemory = 0, maxAlloc = 0, localMemory = 0;
  uint32_t computeUnits = 1, maxGroupSize[3] = {1, 1, 1}, maxTotalGroupSize = 1;
  bool fp16 = false, fp64 = false;
};

struct State {
  /// Guards everything below and every object's fields.
  std::mutex mutex;
  bool initialized = false;
  ze_result_t initResult = ZE_RESULT_ERROR_UNINITIALIZED;
  rt::Device *cl = nullptr;
  /// The OpenCL backend and all its devices, kept for the process.
  rt::Backend *openCl = nullptr;
  std::vector<rt::Device *> openClDevices;
  DeviceInfo info;
  Object driver{Kind::Driver};
  std::vector<std::unique_ptr<Device>> devices;
  /// What zeDeviceGet returns.
  std::vector<Device *> topLevel;
  size_t lanes = 2;
  std::unordered_map<const void *, Object *> live;
  std::map<uintptr_t, Allocation> allocations;
  uint64_t nextAllocationId = 1;
  std::atomic<uint64_t> errors{0};
  uint64_t eventPoolsCreated = 0, eventsCreated = 0, modulesCreated = 0,
           commandsAppended = 0;
};

State &state();

/// Initialises the driver once (zeInit): finds an OpenCL device that loads
/// SPIR-V and builds the device tree.
ze_result_t initialize();

/// Reports API misuse on stderr and returns `result`.
ze_result_t misuse(const char *function, const std::string &message,
                   ze_result_t result = ZE_RESULT_ERROR_INVALID_ARGUMENT);

/// The live object `handle` if it is one of `kind` (state mutex held);
/// otherwise reports misuse and returns null.
template <typename T>
T *lookup(const void *handle, Kind kind, const char *function) {
  State &s = state();
  auto it = s.live.find(handle);
  if (it == s.live.end() || it->second->kind != kind) {
    misuse(function, std::string("not a live ") + kindName(kind) + " handle");
    return nullptr;
  }
  return static_cast<T *>(it->second);
}
/// Registers a new object (state mutex held).
template <typename T> T *track(std::unique_ptr<T> object) {
  T *raw = object.release();
  state().live[raw] = raw;
  return raw;
}
/// Unregisters and deletes an object (state mutex held).
void destroy(Object *object);

/// The allocation containing `ptr` (state mutex held), or null.
Allocation *findAllocation(const void *ptr);
/// Whether any of `events` has not finished.
bool anyPending(const EventList &events);
/// Drops the finished events of `events`.
void prune(EventList &events);
/// Maps a Sluice status of the OpenCL layer to a Level Zero result.
ze_result_t toResult(SluiceStatus status);

// The entry points, grouped as the DDI tables want them.
void fillGlobalTable(ze_global_dditable_t &table);
void fillDriverTable(ze_driver_dditable_t &table);
void fillDeviceTable(ze_device_dditable_t &table);
void fillContextTable(ze_context_dditable_t &table);
void fillMemTable(ze_mem_dditable_t &table);
void fillCommandListTable(ze_command_list_dditable_t &table);
void fillEventPoolTable(ze_event_pool_dditable_t &table);
void fillEventTable(ze_event_dditable_t &table);
void fillModuleTable(ze_module_dditable_t &table);
void fillModuleBuildLogTable(ze_module_build_log_dditable_t &table);
void fillKernelTable(ze_kernel_dditable_t &table);

} // namespace sluice::zetest

#endif // SLUICE_TEST_LEVELZERODRIVER_DRIVERSTATE_H
