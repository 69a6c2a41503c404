//===- DeviceSelectorEnv.cpp - SLUICE_DEVICE_SELECTOR grammar -------------===//
#include "sluice/Runtime/DeviceSelectorEnv.h"

#include "StringUtil.h"

namespace sluice::rt {

namespace {

bool parseTerm(std::string_view text, DeviceSelectorEnv::Term &term,
               std::string &error) {
  std::string_view body = text;
  if (!body.empty() && body.front() == '!') {
    term.discard = true;
    body = trim(body.substr(1));
  }
  size_t colon = body.find(':');
  if (colon == std::string_view::npos) {
    error = "term '" + std::string(text) +
            "' needs the form backend:devices (e.g. opencl:gpu)";
    return false;
  }
  std::string_view backend = trim(body.substr(0, colon));
  if (backend != "*") {
    term.backend = parseBackendName(backend);
    if (!term.backend) {
      error = "unknown backend '" + std::string(backend) + "' in '" +
              std::string(text) +
              "' (backends: level_zero, opencl, cuda, host, native_cpu, *)";
      return false;
    }
  }
  for (std::string_view raw : split(body.substr(colon + 1), ',')) {
    std::string_view dev = trim(raw);
    DeviceSelectorEnv::Device device;
    if (dev.empty()) {
      error = "empty device in '" + std::string(text) + "'";
      return false;
    }
    if (dev == "*") {
      device.kind = DeviceSelectorEnv::Device::Any;
    } else if (auto type = parseDeviceTypeName(dev)) {
      device.kind = DeviceSelectorEnv::Device::Type;
      device.type = *type;
    } else if (auto index = parseIndex(dev)) {
      device.kind = DeviceSelectorEnv::Device::Index;
      device.index = *index;
    } else if (dev.find('.') != std::string_view::npos) {
      error = "sub-devices ('" + std::string(dev) + "' in '" +
              std::string(text) + "') are not supported";
      return false;
    } else {
      error = "unknown device '" + std::string(dev) + "' in '" +
              std::string(text) + "' (gpu, cpu, accelerator, an index or *)";
      return false;
    }
    term.devices.push_back(device);
  }
  return true;
}

bool termMatches(const DeviceSelectorEnv::Term &term, const DeviceKey &device,
                 unsigned indexInBackend) {
  if (term.backend && *term.backend != device.backend)
    return false;
  for (const DeviceSelectorEnv::Device &d : term.devices) {
    switch (d.kind) {
    case DeviceSelectorEnv::Device::Any:
      return true;
    case DeviceSelectorEnv::Device::Type:
      if (d.type == device.type)
        return true;
      break;
    case DeviceSelectorEnv::Device::Index:
      if (d.index == indexInBackend)
        return true;
      break;
    }
  }
  return false;
}

} // namespace

bool DeviceSelectorEnv::accepts(const DeviceKey &device,
                                unsigned indexInBackend) const {
  bool anyAccepting = false, accepted = false;
  for (const Term &term : terms) {
    if (term.discard) {
      if (termMatches(term, device, indexInBackend))
        return false;
      continue;
    }
    anyAccepting = true;
    accepted = accepted || termMatches(term, device, indexInBackend);
  }
  return accepted || !anyAccepting;
}

std::optional<DeviceSelectorEnv> parseDeviceSelectorEnv(std::string_view text,
                                                        std::string *error) {
  DeviceSelectorEnv env;
  std::string message;
  std::vector<std::string_view> terms = split(text, ';');
  for (size_t i = 0; i < terms.size(); ++i) {
    std::string_view termText = trim(terms[i]);
    if (termText.empty()) {
      // A trailing ';' is harmless; any other empty term is a mistake.
      if (i + 1 == terms.size() && i > 0)
        continue;
      message = "empty term " + std::to_string(i + 1);
      break;
    }
    DeviceSelectorEnv::Term term;
    if (!parseTerm(termText, term, message))
      break;
    env.terms.push_back(std::move(term));
  }
  if (!message.empty()) {
    if (error)
      *error = "invalid SLUICE_DEVICE_SELECTOR '" + std::string(text) +
               "': " + message;
    return std::nullopt;
  }
  return env;
}

} // namespace sluice::rt
