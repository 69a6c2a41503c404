//===- sluice-ls.cpp - List the devices Sluice can use --------------------===//
//
// Like sycl-ls: one block per visible device with its normalised filter
// string and key properties (`--verbose` for everything), then a line for
// every backend that has no devices. Honours SLUICE_DEVICE_SELECTOR.
//
//===----------------------------------------------------------------------===//
#include "sluice-c/Runtime.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

void usage(FILE *out) {
  std::fprintf(out,
               "usage: sluice-ls [--verbose]\n"
               "Lists the devices visible to Sluice (SLUICE_DEVICE_SELECTOR "
               "filters them).\n");
}

std::string memory(uint64_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f GiB (%" PRIu64 " bytes)",
                double(bytes) / (1024.0 * 1024.0 * 1024.0), bytes);
  return buf;
}

std::string usmKinds(uint32_t caps) {
  std::string s;
  const char *names[] = {"device", "shared", "host"};
  for (int i = 0; i < 3; ++i)
    if (caps & (1u << i))
      s += (s.empty() ? "" : ", ") + std::string(names[i]);
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

} // namespace

int main(int argc, char **argv) {
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--verbose") || !std::strcmp(argv[i], "-v")) {
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
