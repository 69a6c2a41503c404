//===- Artifact.cpp - Loading ahead-of-time compiled programs -------------===//

#include "sluice/Execution/Artifact.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <memory>
#include <sys/stat.h>

using namespace sluice;
using namespace sluice::exec;

//===----------------------------------------------------------------------===//
// The seal: a trailer with the size and a checksum of the contents
//===----------------------------------------------------------------------===//

namespace {

constexpr char kTrailerHead[8] = {'S', 'L', 'U', 'I', 'C', 'E', 1, 0};
constexpr char kTrailerTail[8] = {'S', 'E', 'A', 'L', 'E', 'D', 0, 0};

uint64_t loadLE64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}

void storeLE64(char *p, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    p[i] = char(uint8_t(v >> (8 * i)));
}

uint64_t rotl(uint64_t v, int r) { return (v << r) | (v >> (64 - r)); }

uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

} // namespace

uint64_t sluice::exec::artifactChecksum(const uint8_t *data, size_t size) {
  // Four independent multiply-rotate lanes over 8-byte little-endian words
  // (fast enough to check a file much faster than it is read), then the
  // tail bytes and the size, finished with a 64-bit mixer. Every bit of the
  // input reaches every bit of the result.
  const uint64_t prime1 = 0x9e3779b185ebca87ULL, prime2 = 0xc2b2ae3d27d4eb4fULL;
  uint64_t lane[4] = {prime1, prime2, ~prime1, ~prime2};
  size_t i = 0;
  for (; i + 32 <= size; i += 32)
    for (int l = 0; l < 4; ++l)
      lane[l] =
          rotl(lane[l] + loadLE64(data + i + 8 * l) * prime2, 31) * prime1;
  uint64_t h = uint64_t(size) * prime1;
  for (int l = 0; l < 4; ++l)
    h = rotl(h ^ mix(lane[l]), 27) * prime1 + prime2;
  for (; i < size; ++i)
    h = rotl(h ^ (uint64_t(data[i]) * prime2), 23) * prime1;
  return mix(h);
}

std::string sluice::exec::artifactTrailer(uint64_t contentSize,
                                          uint64_t checksum) {
  std::string t(kArtifactTrailerSize, '\0');
  std::memcpy(t.data(), kTrailerHead, 8);
  storeLE64(t.data() + 8, contentSize);
  storeLE64(t.data() + 16, checksum);
  std::memcpy(t.data() + 24, kTrailerTail, 8);
  return t;
}

io::Status sluice::exec::verifyArtifactFile(const std::string &path) {
  const std::string what = "'" + path + "'";
  std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(path.c_str(), "rb"),
                                              &std::fclose);
  if (!file)
    return io::Error{"cannot open " + what + ": " + std::strerror(errno)};
  struct stat st;
  if (fstat(fileno(file.get()), &st) != 0)
    return io::Error{"cannot read " + what + ": " + std::strerror(errno)};
  if (!S_ISREG(st.st_mode))
    return io::Error{what + " is not a regular file"};
  uint64_t size = uint64_t(st.st_size);
  // Read at most what the file's size says: a file that grows while it is
  // read is not the one that was measured.
  std::vector<uint8_t> bytes;
  try {
    bytes.resize(size_t(size));
  } catch (const std::bad_alloc &) {
    return io::Error{"cannot read " + what + " (" + std::to_string(size) +
                     " bytes): out of memory"};
  }
  size_t n = std::fread(bytes.data(), 1, bytes.size(), file.get());
  if (n != bytes.size())
    return io::Error{"cannot read " + what + ": " +
                     (std::ferror(file.get()) ? std::strerror(errno)
                                              : "the file shrank while read")};
  const uint8_t *trailer = size >= kArtifactTrailerSize
                               ? bytes.data() + size - kArtifactTrailerSize
                               : nullptr;
  if (!trailer || std::memcmp(trailer, kTrailerHead, 8) != 0 ||
      std::memcmp(trailer + 24, kTrailerTail, 8) != 0)
    return io::Error{what + " is not a Sluice artifact, or a truncated one: "
                            "it does not end with the seal that "
                            "sluice-compile writes"};
  const std::string damaged = what + " is a damaged Sluice artifact "
                                     "(truncated or overwritten): ";
  uint64_t contentSize = loadLE64(trailer + 8);
  if (contentSize != size - kArtifactTrailerSize)
    return io::Error{damaged + "its seal records " +
                     std::to_string(contentSize) +
                     " bytes of contents, the "
                     "file has " +
                     std::to_string(size - kArtifactTrailerSize)};
  uint64_t expected = loadLE64(trailer + 16);
  uint64_t actual = artifactChecksum(bytes.data(), size_t(contentSize));
  if (expected != actual) {
    char text[80];
    std::snprintf(text, sizeof(text), "checksum %016llx, expected %016llx",
                  static_cast<unsigned long long>(actual),
                  static_cast<unsigned long long>(expected));
    return io::Error{damaged + text};
  }
  return io::Status::success();
}

io::Status sluice::exec::sealArtifactFile(const std::string &path) {
  const std::string what = "'" + path + "'";
  std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(path.c_str(), "r+b"),
                                              &std::fclose);
  if (!file)
    return io::Error{"cannot open " + what + ": " + std::strerror(errno)};
  std::vector<uint8_t> bytes;
  uint8_t chunk[1 << 16];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof(chunk), file.get())) > 0)
    bytes.insert(bytes.end(), chunk, chunk + n);
  if (std::ferror(file.get()))
    return io::Error{"cannot read " + what + ": " + std::strerror(errno)};
  std::string trailer = artifactTrailer(
      bytes.size(), artifactChecksum(bytes.data(), bytes.size()));
  if (std::fseek(file.get(), 0, SEEK_END) != 0 ||
      std::fwrite(trailer.data(), 1, trailer.size(), file.get()) !=
          trailer.size() ||
      std::fflush(file.get()) != 0)
    return io::Error{"cannot write " + what + ": " + std::strerror(errno)};
  return io::Status::success();
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

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
  // Before dlopen: the loader maps the file and runs its initialisers, and
  // a truncated file faults (SIGBUS) inside it.
  if (io::Status sealed = verifyArtifactFile(path); !sealed)
    return io::Error{sealed.error()};

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
