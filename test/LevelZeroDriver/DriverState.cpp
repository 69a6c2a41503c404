//===- DriverState.cpp - State, checks and leak report of the test driver -===//
#include "DriverState.h"

#include "SluiceZeTestDriver.h"

#include "OpenClDevice.h"

#include "sluice/Runtime/Backend.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace sluice::rt {
std::unique_ptr<Backend> createOpenClBackend();
} // namespace sluice::rt

namespace sluice::zetest {

State &state() {
  // Never destroyed: the leak report below reads it at unload.
  static State *s = new State();
  return *s;
}

const char *kindName(Kind kind) {
  switch (kind) {
  case Kind::Driver:
    return "driver";
  case Kind::Device:
    return "device";
  case Kind::Context:
    return "context";
  case Kind::CommandList:
    return "command list";
  case Kind::EventPool:
    return "event pool";
  case Kind::Event:
    return "event";
  case Kind::Module:
    return "module";
  case Kind::Kernel:
    return "kernel";
  case Kind::BuildLog:
    return "build log";
  }
  return "object";
}

ze_result_t misuse(const char *function, const std::string &message,
                   ze_result_t result) {
  std::fprintf(stderr, "sluice-ze-test-driver: error: %s: %s\n", function,
               message.c_str());
  state().errors++;
  return result;
}

void destroy(Object *object) {
  state().live.erase(object);
  delete object;
}

Allocation *findAllocation(const void *ptr) {
  auto &allocations = state().allocations;
  auto p = reinterpret_cast<uintptr_t>(ptr);
  auto it = allocations.upper_bound(p);
  if (it == allocations.begin())
    return nullptr;
  --it;
  if (p - it->first < std::max<size_t>(it->second.size, 1))
    return &it->second;
  return nullptr;
}

bool anyPending(const EventList &events) {
  for (const Ref<Event> &event : events)
    if (!event->isFinished())
      return true;
  return false;
}

void prune(EventList &events) {
  EventList pending;
  rt::appendPending(events, pending);
  events.swap(pending);
}

ze_result_t toResult(SluiceStatus status) {
  switch (status) {
  case SLUICE_SUCCESS:
    return ZE_RESULT_SUCCESS;
  case SLUICE_ERROR_OUT_OF_HOST_MEMORY:
    return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  case SLUICE_ERROR_OUT_OF_DEVICE_MEMORY:
    return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  case SLUICE_ERROR_UNSUPPORTED:
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  case SLUICE_ERROR_INVALID_VALUE:
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  default:
    return ZE_RESULT_ERROR_UNKNOWN;
  }
}

namespace {

unsigned envNumber(const char *name, unsigned fallback, unsigned lo,
                   unsigned hi) {
  const char *text = std::getenv(name);
  if (!text || !*text)
    return fallback;
  char *end = nullptr;
  unsigned long value = std::strtoul(text, &end, 10);
  if (*end || value < lo || value > hi) {
    std::fprintf(stderr,
                 "sluice-ze-test-driver: warning: ignoring %s=%s (expected "
                 "%u..%u)\n",
                 name, text, lo, hi);
    return fallback;
  }
  return static_cast<unsigned>(value);
}

void readDeviceInfo(rt::Device &device, DeviceInfo &info) {
  const rt::DeviceProperties &p = device.properties();
  info.name = "Sluice Level Zero test driver on " + p.name;
  info.globalMemory = p.globalMemoryBytes;
  info.maxAlloc = p.globalMemoryBytes / 4;
  info.computeUnits = p.computeUnits ? p.computeUnits : 1;
  info.maxTotalGroupSize = static_cast<uint32_t>(p.maxWorkGroupSize);
  info.fp16 = p.fp16;
  info.fp64 = p.fp64;
  cl_device_id id = static_cast<rt::opencl::OpenClDevice &>(device).handle();
  size_t sizes[3] = {1, 1, 1};
  clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes,
                  nullptr);
  for (int d = 0; d < 3; ++d)
    info.maxGroupSize[d] =
        static_cast<uint32_t>(std::min<size_t>(sizes[d], UINT32_MAX));
  cl_ulong local = 0;
  clGetDeviceInfo(id, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, nullptr);
  info.localMemory = local;
}

/// Builds the devices zeDeviceGet reports: one card, or with
/// SLUICE_ZE_TEST_DRIVER_SUBDEVICES=N a card of N tiles, exposed the way
/// ZE_FLAT_DEVICE_HIERARCHY says (FLAT, the default, and COMBINED: the
/// tiles are the devices; COMPOSITE: the card, with the tiles as its
/// sub-devices). Every device runs on the one OpenCL device.
void buildDevices(State &s) {
  unsigned tiles = envNumber("SLUICE_ZE_TEST_DRIVER_SUBDEVICES", 0, 0, 16);
  const char *mode = std::getenv("ZE_FLAT_DEVICE_HIERARCHY");
  bool composite = mode && !std::strcmp(mode, "COMPOSITE");
  auto make = [&] {
    s.devices.push_back(std::make_unique<Device>());
    Device *d = s.devices.back().get();
    d->id = static_cast<uint32_t>(s.devices.size() - 1);
    s.live[d] = d;
    return d;
  };
  Device *card = make();
  if (tiles == 0) {
    s.topLevel.push_back(card);
    return;
  }
  for (unsigned i = 0; i < tiles; ++i) {
    Device *tile = make();
    tile->isTile = true;
    tile->subDeviceId = i;
    if (composite) {
      tile->parent = card;
      tile->isSubDevice = true;
      card->subDevices.push_back(tile);
    } else {
      s.topLevel.push_back(tile);
    }
  }
  if (composite)
    s.topLevel.push_back(card);
}

/// Reports what is still alive when the driver is unloaded.
struct LeakReport {
  ~LeakReport() {
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    std::map<std::string, size_t> counts;
    for (auto &entry : s.live)
      if (entry.second->kind != Kind::Driver &&
          entry.second->kind != Kind::Device)
        counts[kindName(entry.second->kind)]++;
    if (!s.allocations.empty())
      counts["allocation"] = s.allocations.size();
    if (!counts.empty()) {
      std::string list;
      for (auto &[name, count] : counts)
        list += (list.empty() ? "" : ", ") + std::to_string(count) + " " +
                name + (count == 1 ? "" : "s");
      std::fprintf(stderr,
                   "sluice-ze-test-driver: leak: still alive at unload: %s\n",
                   list.c_str());
      s.errors++;
    }
    const char *strict = std::getenv("SLUICE_ZE_TEST_DRIVER_STRICT");
    if (s.errors && !(strict && !std::strcmp(strict, "0"))) {
      std::fprintf(stderr,
                   "sluice-ze-test-driver: %llu error(s) reported; exiting "
                   "with status 86 (SLUICE_ZE_TEST_DRIVER_STRICT=0 to "
                   "continue)\n",
                   static_cast<unsigned long long>(s.errors.load()));
      std::fflush(stderr);
      _exit(86);
    }
  }
} leakReport;

} // namespace

ze_result_t initialize() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.initialized)
    return s.initResult;
  s.initialized = true;
  // The OpenCL backend and its devices live as long as the process.
  std::unique_ptr<rt::Backend> backend = rt::createOpenClBackend();
  std::vector<std::unique_ptr<rt::Device>> found;
  std::string note;
  backend->enumerate(found, note);
  const uint32_t allUsm =
      SLUICE_USM_CAP_DEVICE | SLUICE_USM_CAP_SHARED | SLUICE_USM_CAP_HOST;
  for (auto &device : found) {
    const rt::DeviceProperties &p = device->properties();
    if ((p.moduleFormats & (1u << SLUICE_MODULE_SPIRV)) &&
        (p.usmCapabilities & allUsm) == allUsm) {
      s.cl = device.get();
      break;
    }
  }
  s.openCl = backend.release();
  for (auto &device : found)
    s.openClDevices.push_back(device.release());
  if (!s.cl)
    return s.initResult = ZE_RESULT_ERROR_UNINITIALIZED;
  readDeviceInfo(*s.cl, s.info);
  s.lanes = envNumber("SLUICE_ZE_TEST_DRIVER_LANES", 2, 1, 8);
  s.live[&s.driver] = &s.driver;
  buildDevices(s);
  return s.initResult = ZE_RESULT_SUCCESS;
}

} // namespace sluice::zetest

using namespace sluice::zetest;

extern "C" void sluiceZeTestDriverGetStats(SluiceZeTestDriverStats *out) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  SluiceZeTestDriverStats stats{};
  for (auto &entry : s.live) {
    switch (entry.second->kind) {
    case Kind::Context:
      stats.contexts++;
      break;
    case Kind::CommandList:
      stats.command_lists++;
      break;
    case Kind::EventPool:
      stats.event_pools++;
      break;
    case Kind::Event:
      stats.events++;
      break;
    case Kind::Module:
      stats.modules++;
      break;
    case Kind::Kernel:
      stats.kernels++;
      break;
    case Kind::BuildLog:
      stats.build_logs++;
      break;
    default:
      break;
    }
  }
  stats.allocations = s.allocations.size();
  stats.event_pools_created = s.eventPoolsCreated;
  stats.events_created = s.eventsCreated;
  stats.modules_created = s.modulesCreated;
  stats.commands_appended = s.commandsAppended;
  stats.errors = s.errors;
  *out = stats;
}
