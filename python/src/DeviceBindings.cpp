//===- DeviceBindings.cpp - Devices and memory pools
//------------------------===//
#include "Array.h"
#include "Artifact.h"
#include "Bindings.h"
#include "Compiler.h"
#include "DLPack.h"
#include "Errors.h"
#include "FastPath.h"
#include "Lazy.h"
#include "Memory.h"
#include "Program.h"
#include "Sizes.h"
#include "sluice/Runtime/UsmKind.h"

#include "sluice-c/Runtime.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;
using namespace sluice::py;

namespace {

nb::dict deviceInfo(uintptr_t id) {
  SluiceDeviceInfo info;
  check(sluiceDeviceGetInfo(deviceFromId(id), &info), "cannot query device");
  nb::dict d;
  d["backend"] = static_cast<int>(info.backend);
  d["backend_name"] = sluiceBackendName(info.backend);
  d["type"] = static_cast<int>(info.type);
  d["filter_string"] = info.filter_string;
  d["name"] = info.name;
  d["vendor"] = info.vendor;
  d["driver_version"] = info.driver_version;
  d["compute_units"] = info.compute_units;
  d["global_memory_bytes"] = info.global_memory_bytes;
  d["max_work_group_size"] = info.max_work_group_size;
  d["has_fp16"] = static_cast<bool>(info.has_fp16);
  d["has_fp64"] = static_cast<bool>(info.has_fp64);
  d["usm_capabilities"] = info.usm_capabilities;
  return d;
}

} // namespace

/// Devices: counts, handles, selection, properties, sub-devices.
void sluice::py::bindDevices(nb::module_ &m) {
  m.def(
      "usm_kinds",
      [] {
        nb::dict kinds; // name -> SluiceUsmKind, in the order of coercion
        for (SluiceUsmKind k :
             {SLUICE_USM_DEVICE, SLUICE_USM_SHARED, SLUICE_USM_HOST})
          kinds[rt::usmKindName(k)] = static_cast<int>(k);
        return kinds;
      },
      "The USM kinds by name (the runtime's table), device < shared < "
      "host.");
  m.def("device_count", [] {
    uint32_t n = 0;
    check(sluiceDeviceGetCount(&n), "cannot count devices");
    return n;
  });
  m.def("device_handle", [](uint32_t i) {
    SluiceDevice d = nullptr;
    check(sluiceDeviceGet(i, &d), "no such device");
    return reinterpret_cast<uintptr_t>(d);
  });
  m.def("select_device", [](const std::string &filter) {
    SluiceDevice d = nullptr;
    check(sluiceDeviceSelect(filter.c_str(), &d),
          filter.empty()
              ? "no default device"
              : ("no device for selector \"" + filter + "\"").c_str());
    return reinterpret_cast<uintptr_t>(d);
  });
  m.def("device_info", &deviceInfo);
  m.def("device_sub_devices", [](uintptr_t id) {
    SluiceDevice d = deviceFromId(id);
    uint32_t n = 0;
    check(sluiceDeviceGetSubDevices(d, &n, nullptr), "cannot query device");
    std::vector<SluiceDevice> subs(n);
    if (n)
      check(sluiceDeviceGetSubDevices(d, &n, subs.data()),
            "cannot query device");
    std::vector<uintptr_t> out;
    for (uint32_t i = 0; i < n; ++i)
      out.push_back(reinterpret_cast<uintptr_t>(subs[i]));
    return out;
  });
  m.def("device_parent", [](uintptr_t id) {
    SluiceDevice parent = nullptr;
    check(sluiceDeviceGetParent(deviceFromId(id), &parent),
          "cannot query device");
    return reinterpret_cast<uintptr_t>(parent);
  });
  m.def("device_properties", [](uintptr_t id) {
    SluiceDevice d = deviceFromId(id);
    uint32_t n = 0;
    check(sluiceDeviceGetPropertyCount(d, &n), "cannot query device");
    std::vector<std::pair<std::string, std::string>> out;
    for (uint32_t i = 0; i < n; ++i) {
      const char *k = nullptr, *v = nullptr;
      check(sluiceDeviceGetProperty(d, i, &k, &v), "cannot query device");
      out.emplace_back(k ? k : "", v ? v : "");
    }
    return out;
  });
}

/// The devices' caching memory pools.
void sluice::py::bindMemoryPools(nb::module_ &m) {
  m.def("pool_info", [](uintptr_t id) {
    drainDeferred(); // buffers released off the GIL free their memory now
    SluiceMemoryPoolInfo i;
    check(sluiceDeviceGetMemoryPoolInfo(deviceFromId(id), &i),
          "cannot query the memory pool");
    return std::make_tuple(i.bytes_in_use, i.bytes_held, i.high_water, i.limit,
                           i.hold_limit, i.backend_allocations, i.reused);
  });
  m.def("pool_set_limit", [](uintptr_t id, uint64_t bytes) {
    check(sluiceDeviceSetMemoryPoolLimit(deviceFromId(id), bytes),
          "cannot set the memory pool's limit");
  });
  m.def("pool_set_hold_limit", [](uintptr_t id, uint64_t bytes) {
    check(sluiceDeviceSetMemoryPoolHoldLimit(deviceFromId(id), bytes),
          "cannot set the memory pool's hold limit");
  });
  m.def("pool_trim", [](uintptr_t id) {
    drainDeferred();
    check(sluiceDeviceTrimMemoryPool(deviceFromId(id)),
          "cannot trim the memory pool");
  });
  m.def("backend_status", [](int b) {
    int builtIn = 0;
    uint32_t n = 0;
    const char *note = nullptr;
    check(sluiceBackendGetStatus(static_cast<SluiceBackend>(b), &builtIn, &n,
                                 &note),
          "bad backend");
    return std::make_tuple(builtIn != 0, n, std::string(note ? note : ""));
  });
  m.def("normalize_selector", [](const std::string &s) {
    size_t needed = 0;
    check(sluiceSelectorNormalize(s.c_str(), nullptr, 0, &needed),
          ("bad device selector \"" + s + "\"").c_str());
    std::string out(needed, '\0');
    check(sluiceSelectorNormalize(s.c_str(), out.data(), out.size(), &needed),
          "bad device selector");
    out.resize(needed ? needed - 1 : 0);
    return out;
  });
}
