//===- FilterSelector.h - dpctl filter selector strings ---------*- C++ -*-===//
//
// Parsing and matching of dpctl filter selector strings
// (`backend:device_type:index`, every part optional, `,` fallbacks). This
// code has no backend dependencies: the compiler links it on its own through
// the `sluice-selector` static library.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_RUNTIME_FILTERSELECTOR_H
#define SLUICE_RUNTIME_FILTERSELECTOR_H

#include "sluice-c/Runtime.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sluice::rt {

/// What a selector needs to know about a device.
struct DeviceKey {
  SluiceBackend backend;
  SluiceDeviceType type;
};

/// One `backend:type:index` term; absent parts match anything.
struct FilterTerm {
  std::optional<SluiceBackend> backend;
  std::optional<SluiceDeviceType> type;
  /// Index among the devices matching `backend` and `type`.
  std::optional<unsigned> index;
  /// "index.sub": the sub-device `sub` of the device the rest selects
  /// (only with an index).
  std::optional<unsigned> subIndex;

  /// "backend:type:index" with `*` for absent parts.
  std::string str() const;
  bool matchesKind(const DeviceKey &device) const;
};

/// A list of fallback terms: the first term that selects a device wins.
struct FilterSelector {
  std::vector<FilterTerm> terms;
  std::string str() const;
};

/// Parses `text`. On a malformed string returns std::nullopt and, if `error`
/// is given, a message that names the offending part.
std::optional<FilterSelector> parseFilterSelector(std::string_view text,
                                                  std::string *error = nullptr);

/// Returns the position in `devices` of the device `selector` chooses, or -1.
int selectDevice(const FilterSelector &selector,
                 const std::vector<DeviceKey> &devices);

/// Parses a backend name ("level_zero", "opencl", "cuda", "host",
/// "native_cpu"); case-insensitive.
std::optional<SluiceBackend> parseBackendName(std::string_view name);
/// Parses a device type name ("gpu", "cpu", "accelerator"/"acc"/"fpga").
std::optional<SluiceDeviceType> parseDeviceTypeName(std::string_view name);
const char *backendName(SluiceBackend backend);
const char *deviceTypeName(SluiceDeviceType type);

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_FILTERSELECTOR_H
