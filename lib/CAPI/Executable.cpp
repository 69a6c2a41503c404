//===- Executable.cpp - Compiled programs through the C API ---------------===//
//
// An executable is a JIT-compiled program or a loaded artifact; either way a
// list of entry signatures and the addresses of their entry points. Loading
// an artifact needs no session.
//
//===----------------------------------------------------------------------===//

#include "CAPISupport.h"

#include "llvm/Support/FileSystem.h"

#include <mutex>

using namespace sluice;

extern "C" {

SluiceStatus sluiceExecutableLoad(const char *path,
                                  SluiceExecutable *executable) {
  SLUICE_CAPI_CHECK(path && executable, "path or executable is NULL");
  if (!llvm::sys::fs::exists(path))
    return capi::fail(SLUICE_ERROR_NOT_FOUND,
                      std::string("no artifact at '") + path + "'");
  io::Result<std::unique_ptr<exec::Artifact>> artifact =
      exec::Artifact::load(path);
  if (!artifact)
    return capi::fail(SLUICE_ERROR_INVALID_VALUE, artifact.error());
  auto *exe = new SluiceExecutable_();
  exe->artifact = artifact.take();
  exe->signatures = exe->artifact->signatures();
  for (const exec::EntrySignature &sig : exe->signatures)
    exe->signatureText.push_back(sig.toString());
  *executable = exe;
  return capi::succeed();
}

void sluiceExecutableDestroy(SluiceExecutable executable) {
  if (!executable)
    return;
  // The runtime caches kernels and modules by the addresses of the
  // program's code and data: JIT code stays mapped for the life of the
  // process, as the header promises (artifacts are opened RTLD_NODELETE).
  static std::mutex keptMutex;
  static auto *kept = new std::vector<std::unique_ptr<exec::JitProgram>>();
  if (executable->jit) {
    std::lock_guard<std::mutex> lock(keptMutex);
    kept->push_back(std::move(executable->jit));
  }
  delete executable;
}

size_t sluiceExecutableGetEntryCount(SluiceExecutable executable) {
  return executable ? executable->signatures.size() : 0;
}

SluiceStatus sluiceExecutableGetEntryInfo(SluiceExecutable executable,
                                          size_t index, const char **name,
                                          const char **signature) {
  SLUICE_CAPI_CHECK(executable, "executable is NULL");
  SLUICE_CAPI_CHECK(index < executable->signatures.size(),
                    "index " + std::to_string(index) + " is out of range (" +
                        std::to_string(executable->signatures.size()) +
                        " entries)");
  if (name)
    *name = executable->signatures[index].name.c_str();
  if (signature)
    *signature = executable->signatureText[index].c_str();
  return capi::succeed();
}

SluiceStatus sluiceExecutableLookup(SluiceExecutable executable,
                                    const char *name, SluiceEntryPoint *entry) {
  SLUICE_CAPI_CHECK(executable && entry, "executable or entry is NULL");
  const std::vector<exec::EntrySignature> &sigs = executable->signatures;
  std::string names;
  for (const exec::EntrySignature &sig : sigs)
    names += (names.empty() ? "@" : ", @") + sig.name;
  const exec::EntrySignature *found = nullptr;
  std::string wanted = name ? name : "";
  for (const exec::EntrySignature &sig : sigs)
    if (sig.name == (wanted.empty() ? "main" : wanted))
      found = &sig;
  if (!found && wanted.empty() && sigs.size() == 1)
    found = &sigs.front();
  if (!found)
    return capi::fail(
        SLUICE_ERROR_NOT_FOUND,
        (wanted.empty() ? std::string("no entry @main and not exactly one "
                                      "entry")
                        : "no entry @" + wanted) +
            " (the executable has " + (names.empty() ? "none" : names) + ")");
  void *address = nullptr;
  if (executable->jit) {
    auto a = executable->jit->entryAddress(found->name);
    if (!a)
      return capi::fail(SLUICE_ERROR_NOT_FOUND, toString(a.takeError()));
    address = *a;
  } else {
    io::Result<void *> a = executable->artifact->entryAddress(found->name);
    if (!a)
      return capi::fail(SLUICE_ERROR_NOT_FOUND, a.error());
    address = *a;
  }
  *entry = reinterpret_cast<SluiceEntryPoint>(address);
  return capi::succeed();
}

} // extern "C"
