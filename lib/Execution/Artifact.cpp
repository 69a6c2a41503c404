//===- Artifact.cpp - Loading ahead-of-time compiled programs -------------===//

#include "sluice/Execution/Artifact.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>

using namespace sluice;
using namespace sluice::exec;

bool sluice::exec::isElfFile(const std::string &path) {
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    return false;
  char magic[4] = {};
  size_t n = std::fread(magic, 1, sizeof(magic), f);
  std::fclose(f);
  return n == sizeof(magic) && std::memcmp(magic,
                                           "\x7f"
                                           "ELF",
                                           4) == 0;
}

namespace {

std::string dlError() {
  const char *e = dlerror();
  return e ? e : "unknown error";
}

std::string names(const std::vector<EntrySignature> &sigs) {
  std::string s;
  for (const EntrySignature &sig : sigs)
    s += (s.empty() ? "@" : ", @") + sig.name;
  return s;
}

} // namespace

io::Result<std::unique_ptr<Artifact>> Artifact::load(const std::string &path) {
  const std::string what = "'" + path + "'";
  if (FILE *f = std::fopen(path.c_str(), "rb"))
    std::fclose(f);
  else
    return io::Error{"cannot open " + what + ": " + std::strerror(errno)};
  if (!isElfFile(path))
    return io::Error{what + " is not a Sluice artifact (not an ELF shared "
                            "object; compile programs with sluice-compile)"};

  // dlopen searches the library path for a name without a slash.
  std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  // Never unmapped: the runtime's caches hold addresses inside it.
  void *handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!handle)
    return io::Error{what + " is not a loadable Sluice artifact: " + dlError()};
  std::unique_ptr<Artifact> artifact(new Artifact());
  artifact->handle = handle;
  artifact->filePath = path;

  dlerror();
  auto *signatures =
      static_cast<const char *>(dlsym(handle, kSignaturesSymbol));
  if (!signatures)
    return io::Error{what + " is not a Sluice artifact: it has no `" +
                     std::string(kSignaturesSymbol) +
                     "` symbol (compile programs with sluice-compile)"};
  if (auto *v =
          static_cast<const char *>(dlsym(handle, kCompilerVersionSymbol)))
    artifact->version = v;

  std::string text = signatures;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty())
      continue;
    io::Result<EntrySignature> sig = EntrySignature::parse(line);
    if (!sig)
      return io::Error{what + ": bad entry signature '" + line + "' in `" +
                       kSignaturesSymbol + "`: " + sig.error()};
    std::string symbol = kEntryPointPrefix + sig->name;
    if (!dlsym(handle, symbol.c_str()))
      return io::Error{what + ": entry point `" + symbol + "` of signature '" +
                       line + "' is missing"};
    artifact->sigs.push_back(sig.take());
  }
  return artifact;
}

Artifact::~Artifact() {
  // RTLD_NODELETE keeps the code mapped; this only drops the reference.
  if (handle)
    dlclose(handle);
}

io::Result<const EntrySignature *>
Artifact::findEntry(const std::string &name) const {
  auto byName = [&](const std::string &n) -> const EntrySignature * {
    for (const EntrySignature &sig : sigs)
      if (sig.name == n)
        return &sig;
    return nullptr;
  };
  if (!name.empty()) {
    if (const EntrySignature *sig = byName(name))
      return sig;
    return io::Error{"'" + filePath + "' has no entry point @" + name +
                     (sigs.empty() ? std::string(" (it has none)")
                                   : " (it has " + names(sigs) + ")")};
  }
  if (const EntrySignature *sig = byName("main"))
    return sig;
  if (sigs.size() == 1)
    return &sigs.front();
  if (sigs.empty())
    return io::Error{"'" + filePath + "' has no entry points"};
  return io::Error{"'" + filePath + "' has several entry points (" +
                   names(sigs) + "): name the one to run"};
}

io::Result<void *> Artifact::entryAddress(const std::string &name) const {
  std::string symbol = kEntryPointPrefix + name;
  dlerror();
  void *address = dlsym(handle, symbol.c_str());
  if (!address)
    return io::Error{"'" + filePath + "' has no entry point `" + symbol + "`"};
  return address;
}

io::Result<EntryFunction> Artifact::entry(const std::string &name) const {
  io::Result<void *> address = entryAddress(name);
  if (!address)
    return io::Error{address.error()};
  auto fn = reinterpret_cast<int32_t (*)(void **)>(*address);
  return EntryFunction([fn](void **args) { return fn(args); });
}
