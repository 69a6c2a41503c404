//===- Artifact.cpp - Loading ahead-of-time compiled programs -------------===//
#include "Artifact.h"

#include "sluice/Execution/Artifact.h"

#include <nanobind/stl/string.h>

#include <memory>
#include <mutex>
#include <vector>

namespace nb = nanobind;

namespace sluice::py {

namespace {

/// Entry points are handed out as addresses that tasks may call at any
/// time: loaded artifacts are kept for the process.
void keepAlive(std::unique_ptr<exec::Artifact> artifact) {
  static std::mutex mutex;
  static auto *kept = new std::vector<std::unique_ptr<exec::Artifact>>;
  std::lock_guard<std::mutex> lock(mutex);
  kept->push_back(std::move(artifact));
}

/// Loads `path` without the GIL; null with `failure` set on failure.
std::unique_ptr<exec::Artifact> load(const std::string &path,
                                     std::string &failure) {
  nb::gil_scoped_release release;
  io::Result<std::unique_ptr<exec::Artifact>> artifact =
      exec::Artifact::load(path);
  if (!artifact) {
    failure = artifact.error();
    return nullptr;
  }
  return artifact.take();
}

nb::list valueList(const std::vector<exec::ValueInfo> &values) {
  nb::list out;
  for (const exec::ValueInfo &v : values) {
    nb::list shape;
    for (int64_t d : v.shape)
      shape.append(d);
    out.append(nb::make_tuple(v.isArray, static_cast<int>(v.dtype), shape,
                              v.device, v.queueName, v.kind));
  }
  return out;
}

} // namespace

nb::dict openArtifact(const std::string &path) {
  nb::dict out;
  std::string failure;
  std::unique_ptr<exec::Artifact> artifact = load(path, failure);
  out["ok"] = artifact != nullptr;
  out["failure"] = failure;
  out["version"] = "";
  nb::list entries;
  if (artifact) {
    out["version"] = artifact->compilerVersion();
    for (const exec::EntrySignature &sig : artifact->signatures()) {
      io::Result<void *> address = artifact->entryAddress(sig.name);
      if (!address) {
        out["ok"] = false;
        out["failure"] = address.error();
        return out;
      }
      entries.append(nb::make_tuple(
          sig.name, sig.toString(), reinterpret_cast<uintptr_t>(*address),
          valueList(sig.args), valueList(sig.results)));
    }
    keepAlive(std::move(artifact));
  }
  out["entries"] = entries;
  return out;
}

nb::dict loadArtifact(const std::string &path, const std::string &entryName) {
  nb::dict out;
  std::string failure, signature;
  uintptr_t entry = 0;
  if (std::unique_ptr<exec::Artifact> artifact = load(path, failure)) {
    io::Result<const exec::EntrySignature *> sig =
        artifact->findEntry(entryName);
    io::Result<void *> address =
        sig ? artifact->entryAddress((*sig)->name) : io::Error{sig.error()};
    if (address) {
      entry = reinterpret_cast<uintptr_t>(*address);
      signature = (*sig)->toString();
      keepAlive(std::move(artifact));
    } else {
      failure = address.error();
    }
  }
  out["ok"] = entry != 0;
  out["failure"] = failure;
  out["entry"] = entry;
  out["signature"] = signature;
  return out;
}

} // namespace sluice::py
