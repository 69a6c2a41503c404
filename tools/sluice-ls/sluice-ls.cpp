//===- sluice-ls.cpp - List the devices Sluice can use --------------------===//
//
// Like sycl-ls: one block per visible device with its normalised filter
// string and key properties (`--verbose` for everything), then a line for
// every backend that has no devices. `--platforms` lists the platforms
// instead, as dpctl's lsplatform(verbosity) and sluice.lsplatform print
// them (`--verbosity=0|1|2`). Honours SLUICE_DEVICE_SELECTOR.
//
//===----------------------------------------------------------------------===//
#include "sluice-c/Runtime.h"
#include "sluice/Runtime/UsmKind.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

void usage(FILE *out) {
  std::fprintf(out,
               "usage: sluice-ls [--verbose]\n"
               "       sluice-ls --platforms [--verbosity=0|1|2]\n"
               "Lists the devices visible to Sluice (SLUICE_DEVICE_SELECTOR "
               "filters them), or their platforms as sluice.lsplatform "
               "prints them.\n");
}

std::string memory(uint64_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f GiB (%" PRIu64 " bytes)",
                double(bytes) / (1024.0 * 1024.0 * 1024.0), bytes);
  return buf;
}

std::string usmKinds(uint32_t caps) {
  std::string s;
  // Capability bit i is kind i + 1 (sluice-c/Runtime.h).
  for (int i = 0; i < 3; ++i)
    if (caps & (1u << i))
      s += (s.empty() ? "" : ", ") +
           std::string(sluice::rt::usmKindName(SluiceUsmKind(i + 1)));
  return s.empty() ? "none" : s;
}

std::string moduleFormats(uint32_t formats) {
  std::string s;
  const char *names[] = {"spirv", "native_object", "ptx", "cubin"};
  for (int i = 0; i < 4; ++i)
    if (formats & (1u << i))
      s += (s.empty() ? "" : ", ") + std::string(names[i]);
  return s.empty() ? "none" : s;
}

const char *typeName(SluiceDeviceType type) {
  switch (type) {
  case SLUICE_DEVICE_TYPE_GPU:
    return "gpu";
  case SLUICE_DEVICE_TYPE_CPU:
    return "cpu";
  default:
    return "accelerator";
  }
}

void field(const char *key, const std::string &value) {
  std::printf("    %-20s %s\n", key, value.c_str());
}

void printDevice(SluiceDevice device, bool verbose) {
  SluiceDeviceInfo info;
  sluiceDeviceGetInfo(device, &info);
  std::printf("[%s] %s\n", info.filter_string, info.name);
  field("backend", sluiceBackendName(info.backend));
  field("type", typeName(info.type));
  field("vendor", info.vendor);
  field("driver", info.driver_version);
  field("compute units", std::to_string(info.compute_units));
  field("global memory", memory(info.global_memory_bytes));
  field("max workgroup size", std::to_string(info.max_work_group_size));
  field("fp16", info.has_fp16 ? "yes" : "no");
  field("fp64", info.has_fp64 ? "yes" : "no");
  field("USM", usmKinds(info.usm_capabilities));
  if (!verbose)
    return;
  field("module formats", moduleFormats(info.module_formats));
  uint32_t count = 0;
  sluiceDeviceGetPropertyCount(device, &count);
  for (uint32_t i = 0; i < count; ++i) {
    const char *key = nullptr, *value = nullptr;
    if (sluiceDeviceGetProperty(device, i, &key, &value) == SLUICE_SUCCESS)
      field(key, value);
  }
}

/// A platform: the devices of one backend's driver (each OpenCL platform
/// on its own), named as sluice.SyclPlatform names them.
struct PlatformEntry {
  SluiceBackend backend;
  std::string name, version, vendor;
  std::vector<SluiceDevice> devices;
};

std::string property(SluiceDevice device, const char *wanted) {
  uint32_t count = 0;
  sluiceDeviceGetPropertyCount(device, &count);
  for (uint32_t i = 0; i < count; ++i) {
    const char *key = nullptr, *value = nullptr;
    if (sluiceDeviceGetProperty(device, i, &key, &value) == SLUICE_SUCCESS &&
        key && value && !std::strcmp(key, wanted))
      return value;
  }
  return "";
}

std::vector<PlatformEntry> platforms(uint32_t count) {
  std::vector<PlatformEntry> out;
  for (uint32_t i = 0; i < count; ++i) {
    SluiceDevice device;
    SluiceDeviceInfo info;
    if (sluiceDeviceGet(i, &device) != SLUICE_SUCCESS ||
        sluiceDeviceGetInfo(device, &info) != SLUICE_SUCCESS)
      continue;
    std::string name;
    switch (info.backend) {
    case SLUICE_BACKEND_OPENCL:
      name = property(device, "platform");
      if (name.empty())
        name = "OpenCL";
      break;
    case SLUICE_BACKEND_LEVEL_ZERO:
      name = "Level-Zero";
      break;
    case SLUICE_BACKEND_CUDA:
      name = "CUDA";
      break;
    default:
      name = "Sluice host";
      break;
    }
    PlatformEntry *entry = nullptr;
    for (PlatformEntry &p : out)
      if (p.backend == info.backend && p.name == name)
        entry = &p;
    if (!entry) {
      PlatformEntry p;
      p.backend = info.backend;
      p.name = name;
      p.version = property(device, "platform version");
      if (p.version.empty())
        p.version = property(device, "API version");
      if (p.version.empty())
        p.version = info.driver_version;
      p.vendor = info.backend == SLUICE_BACKEND_HOST ? "Sluice" : info.vendor;
      out.push_back(p);
      entry = &out.back();
    }
    entry->devices.push_back(device);
  }
  return out;
}

void printPlatforms(uint32_t count, int verbosity) {
  std::vector<PlatformEntry> list = platforms(count);
  for (size_t i = 0; i < list.size(); ++i) {
    const PlatformEntry &p = list[i];
    if (verbosity == 0) {
      std::printf("%s %s\n", p.name.c_str(), p.version.c_str());
      continue;
    }
    std::printf("Platform %zu ::\n", i);
    std::printf("    Name        %s\n", p.name.c_str());
    std::printf("    Version     %s\n", p.version.c_str());
    std::printf("    Vendor      %s\n", p.vendor.c_str());
    std::printf("    Backend     %s\n", sluiceBackendName(p.backend));
    std::printf("    Num Devices %zu\n", p.devices.size());
    if (verbosity < 2)
      continue;
    for (size_t j = 0; j < p.devices.size(); ++j) {
      SluiceDeviceInfo info;
      sluiceDeviceGetInfo(p.devices[j], &info);
      std::printf("      # %zu\n", j);
      std::printf("        Name            %s\n", info.name);
      std::printf("        Version         %s\n", info.driver_version);
      std::printf("        Filter string   %s\n", info.filter_string);
    }
  }
}

} // namespace

int main(int argc, char **argv) {
  bool verbose = false;
  bool listPlatforms = false;
  int verbosity = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--platforms")) {
      listPlatforms = true;
    } else if (!std::strncmp(argv[i], "--verbosity=", 12)) {
      const char *v = argv[i] + 12;
      if (std::strlen(v) != 1 || v[0] < '0' || v[0] > '2') {
        std::fprintf(stderr, "sluice-ls: --verbosity takes 0, 1 or 2\n");
        return 2;
      }
      verbosity = v[0] - '0';
    } else if (!std::strcmp(argv[i], "--verbose") ||
               !std::strcmp(argv[i], "-v")) {
      verbose = true;
    } else if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    } else {
      std::fprintf(stderr, "sluice-ls: unknown argument '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    }
  }
  uint32_t count = 0;
  if (sluiceDeviceGetCount(&count) != SLUICE_SUCCESS) {
    std::fprintf(stderr, "sluice-ls: error: %s\n", sluiceGetLastErrorMessage());
    return 1;
  }
  if (listPlatforms) {
    printPlatforms(count, verbosity);
    return 0;
  }
  for (uint32_t i = 0; i < count; ++i) {
    SluiceDevice device;
    if (sluiceDeviceGet(i, &device) == SLUICE_SUCCESS)
      printDevice(device, verbose);
  }
  for (int b = 0; b < SLUICE_BACKEND_COUNT; ++b) {
    auto backend = static_cast<SluiceBackend>(b);
    int builtIn = 0;
    uint32_t devices = 0;
    const char *note = "";
    sluiceBackendGetStatus(backend, &builtIn, &devices, &note);
    if (devices == 0)
      std::printf("%s: no devices found%s%s%s\n", sluiceBackendName(backend),
                  *note ? " (" : "", note, *note ? ")" : "");
  }
  SluiceDevice def;
  if (sluiceDeviceSelect(nullptr, &def) == SLUICE_SUCCESS) {
    SluiceDeviceInfo info;
    sluiceDeviceGetInfo(def, &info);
    std::printf("default device: %s\n", info.filter_string);
  } else {
    std::printf("default device: none\n");
  }
  return 0;
}
