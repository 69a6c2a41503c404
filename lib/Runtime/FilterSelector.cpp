//===- FilterSelector.cpp - dpctl filter selector strings -----------------===//
#include "sluice/Runtime/FilterSelector.h"

#include "StringUtil.h"

namespace sluice::rt {

std::optional<SluiceBackend> parseBackendName(std::string_view name) {
  std::string n = toLower(name);
  if (n == "level_zero" || n == "ext_oneapi_level_zero")
    return SLUICE_BACKEND_LEVEL_ZERO;
  if (n == "opencl")
    return SLUICE_BACKEND_OPENCL;
  if (n == "cuda" || n == "ext_oneapi_cuda")
    return SLUICE_BACKEND_CUDA;
  if (n == "host" || n == "native_cpu")
    return SLUICE_BACKEND_HOST;
  return std::nullopt;
}

std::optional<SluiceDeviceType> parseDeviceTypeName(std::string_view name) {
  std::string n = toLower(name);
  if (n == "gpu")
    return SLUICE_DEVICE_TYPE_GPU;
  if (n == "cpu")
    return SLUICE_DEVICE_TYPE_CPU;
  if (n == "accelerator" || n == "acc" || n == "fpga")
    return SLUICE_DEVICE_TYPE_ACCELERATOR;
  return std::nullopt;
}

const char *backendName(SluiceBackend backend) {
  switch (backend) {
  case SLUICE_BACKEND_LEVEL_ZERO:
    return "level_zero";
  case SLUICE_BACKEND_OPENCL:
    return "opencl";
  case SLUICE_BACKEND_CUDA:
    return "cuda";
  case SLUICE_BACKEND_HOST:
    return "host";
  default:
    return "unknown";
  }
}

const char *deviceTypeName(SluiceDeviceType type) {
  switch (type) {
  case SLUICE_DEVICE_TYPE_GPU:
    return "gpu";
  case SLUICE_DEVICE_TYPE_CPU:
    return "cpu";
  case SLUICE_DEVICE_TYPE_ACCELERATOR:
    return "accelerator";
  default:
    return "unknown";
  }
}

std::string FilterTerm::str() const {
  std::string s = backend ? backendName(*backend) : "*";
  s += ':';
  s += type ? deviceTypeName(*type) : "*";
  s += ':';
  s += index ? std::to_string(*index) : "*";
  if (subIndex)
    s += "." + std::to_string(*subIndex);
  return s;
}

bool FilterTerm::matchesKind(const DeviceKey &device) const {
  return (!backend || *backend == device.backend) &&
         (!type || *type == device.type);
}

std::string FilterSelector::str() const {
  std::string s;
  for (const FilterTerm &term : terms) {
    if (!s.empty())
      s += ',';
    s += term.str();
  }
  return s;
}

namespace {

/// Parses one term; the parts must come in the order backend, type, index.
bool parseTerm(std::string_view text, FilterTerm &term, std::string &error) {
  std::vector<std::string_view> parts = split(text, ':');
  if (parts.size() > 3) {
    error = "too many ':'-separated parts in '" + std::string(text) +
            "' (expected backend:device_type:index)";
    return false;
  }
  int stage = 0; // 0: backend may come, 1: type may come, 2: index may come
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string_view part = trim(parts[i]);
    std::string quoted =
        "'" + std::string(part) + "' in '" + std::string(text) + "'";
    if (part.empty()) {
      error = "empty part in selector term '" + std::string(text) + "'";
      return false;
    }
    if (part == "*") {
      // A wildcard holds the place of the next part in order.
      if (stage > 2) {
        error = "unexpected wildcard " + quoted;
        return false;
      }
      // In a full three-part term the position decides; otherwise a leading
      // '*' is the backend.
      stage = parts.size() == 3 ? static_cast<int>(i) + 1 : stage + 1;
      continue;
    }
    if (auto backend = parseBackendName(part)) {
      if (stage > 0) {
        error = "backend " + quoted + " must be the first part";
        return false;
      }
      term.backend = backend;
      stage = 1;
      continue;
    }
    if (auto type = parseDeviceTypeName(part)) {
      if (stage > 1) {
        error = "device type " + quoted + " must come before the index";
        return false;
      }
      term.type = type;
      stage = 2;
      continue;
    }
    size_t dot = part.find('.');
    std::optional<unsigned> sub;
    if (dot != std::string_view::npos) {
      sub = parseIndex(part.substr(dot + 1));
      if (!sub) {
        error = "bad sub-device index " + quoted;
        return false;
      }
      part = part.substr(0, dot);
    }
    if (auto index = parseIndex(part)) {
      if (stage > 2) {
        error = "unexpected index " + quoted;
        return false;
      }
      if (i + 1 != parts.size()) {
        error = "index " + quoted + " must be the last part";
        return false;
      }
      term.index = index;
      term.subIndex = sub;
      stage = 3;
      continue;
    }
    if (sub) {
      error = "bad index " + quoted;
      return false;
    }
    if (!part.empty() && part.front() == '-') {
      error = "negative index " + quoted;
      return false;
    }
    error = "unknown backend or device type " + quoted +
            " (backends: level_zero, opencl, cuda, host; types: gpu, cpu, "
            "accelerator)";
    return false;
  }
  return true;
}

} // namespace

std::optional<FilterSelector> parseFilterSelector(std::string_view text,
                                                  std::string *error) {
  std::string message;
  FilterSelector selector;
  std::vector<std::string_view> terms = split(text, ',');
  for (size_t i = 0; i < terms.size(); ++i) {
    std::string_view termText = trim(terms[i]);
    if (termText.empty()) {
      message = "empty selector term " + std::to_string(i + 1) + " in '" +
                std::string(text) + "'";
      break;
    }
    FilterTerm term;
    if (!parseTerm(termText, term, message))
      break;
    selector.terms.push_back(term);
  }
  if (!message.empty()) {
    if (error)
      *error = "invalid device selector: " + message;
    return std::nullopt;
  }
  return selector;
}

int selectDevice(const FilterSelector &selector,
                 const std::vector<DeviceKey> &devices) {
  for (const FilterTerm &term : selector.terms) {
    unsigned seen = 0;
    for (size_t i = 0; i < devices.size(); ++i) {
      if (!term.matchesKind(devices[i]))
        continue;
      if (!term.index || *term.index == seen)
        return static_cast<int>(i);
      ++seen;
    }
  }
  return -1;
}

} // namespace sluice::rt
