//===- KernelObjectCache.cpp - Compiled CUDA kernel modules by content ----===//

#include "KernelObjectCache.h"

#include "mlir/AsmParser/AsmParser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <dlfcn.h>
#include <fcntl.h>
#include <mutex>
#include <sys/stat.h>
#include <vector>

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kMagic = "sluice-kernel-object 1\n";
/// What the process keeps in memory at most (the oldest entries go first).
constexpr size_t kMemoryLimit = size_t(64) << 20;

bool isOff(const char *v) {
  std::string s = llvm::StringRef(v).trim().lower();
  return s.empty() || s == "0" || s == "off" || s == "none" || s == "false";
}

/// The disk cache's directory, or empty.
std::string cacheDirectory() {
  if (const char *d = std::getenv("SLUICE_CACHE_DIR"))
    return isOff(d) ? std::string() : std::string(d);
  llvm::SmallString<256> dir;
  if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
    dir = x;
  else if (const char *h = std::getenv("HOME"); h && *h)
    llvm::sys::path::append(dir, h, ".cache");
  else
    return {};
  llvm::sys::path::append(dir, "sluice");
  return std::string(dir);
}

/// $SLUICE_KERNEL_CACHE_LIMIT: the bytes the disk cache keeps at most (a
/// number with an optional K, M, G or T suffix; 0: no limit). Unset or
/// unreadable: 256 MiB.
uint64_t diskLimit() {
  constexpr uint64_t kDefault = uint64_t(256) << 20;
  const char *v = std::getenv("SLUICE_KERNEL_CACHE_LIMIT");
  if (!v)
    return kDefault;
  llvm::StringRef text = llvm::StringRef(v).trim();
  uint64_t shift = 0;
  if (!text.empty()) {
    switch (llvm::toUpper(text.back())) {
    case 'K':
      shift = 10;
      break;
    case 'M':
      shift = 20;
      break;
    case 'G':
      shift = 30;
      break;
    case 'T':
      shift = 40;
      break;
    default:
      break;
    }
  }
  if (shift)
    text = text.drop_back();
  uint64_t n = 0;
  if (text.getAsInteger(10, n) || (n && n > (UINT64_MAX >> shift)))
    return kDefault;
  return n << shift;
}

/// Removes the least recently used entries of the disk cache directory
/// `dir` (a hit sets an entry's modification time) until what is left fits
/// the limit; `keep` (the entry just written) stays.
void trimDisk(llvm::StringRef dir, llvm::StringRef keep) {
  uint64_t limit = diskLimit();
  if (!limit)
    return;
  struct Entry {
    std::string path;
    uint64_t size;
    llvm::sys::TimePoint<> used;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (llvm::sys::path::extension(it->path()) != ".obj")
      continue;
    llvm::sys::fs::file_status status;
    if (llvm::sys::fs::status(it->path(), status))
      continue;
    entries.push_back(
        {it->path(), status.getSize(), status.getLastModificationTime()});
    total += status.getSize();
  }
  if (total <= limit)
    return;
  std::sort(entries.begin(), entries.end(),
            [](const Entry &a, const Entry &b) { return a.used < b.used; });
  for (const Entry &e : entries) {
    if (total <= limit)
      break;
    if (e.path == keep)
      continue;
    // Another process may have removed it first: its bytes are gone too.
    llvm::sys::fs::remove(e.path);
    total -= e.size;
  }
}

/// Marks an entry as used now (its modification time: the disk cache's
/// least recently used order, whatever the file system does with access
/// times).
void touch(const std::string &path) {
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
}

struct MemoryCache {
  std::mutex mutex;
  llvm::StringMap<std::string> texts;
  std::deque<std::string> order;
  size_t bytes = 0;
};

MemoryCache &memory() {
  static auto *cache = new MemoryCache();
  return *cache;
}

std::string diskPath(llvm::StringRef key) {
  std::string dir = cacheDirectory();
  if (dir.empty())
    return {};
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, "ptx", key + ".obj");
  return std::string(path);
}

void remember(llvm::StringRef key, std::string text) {
  MemoryCache &m = memory();
  std::lock_guard<std::mutex> lock(m.mutex);
  if (m.texts.count(key))
    return;
  m.bytes += text.size();
  m.texts[key] = std::move(text);
  m.order.push_back(key.str());
  while (m.bytes > kMemoryLimit && m.order.size() > 1) {
    auto it = m.texts.find(m.order.front());
    m.bytes -= it->second.size();
    m.texts.erase(it);
    m.order.pop_front();
  }
}

} // namespace

bool sluice::nvvm::kernelCacheEnabled() {
  const char *v = std::getenv("SLUICE_KERNEL_CACHE");
  return !v || !isOff(v);
}

/// The compiler's own build: the size and modification time of the binary
/// that holds this code (a rebuilt compiler may make other PTX of the same
/// kernels).
static const std::string &compilerStamp() {
  static const std::string stamp = [] {
    Dl_info info;
    llvm::sys::fs::file_status status;
    if (!dladdr(reinterpret_cast<void *>(&compilerStamp), &info) ||
        !info.dli_fname || llvm::sys::fs::status(info.dli_fname, status))
      return std::string("unknown");
    return std::string(info.dli_fname) + ":" +
           std::to_string(status.getSize()) + ":" +
           std::to_string(
               status.getLastModificationTime().time_since_epoch().count());
  }();
  return stamp;
}

std::string
sluice::nvvm::kernelCacheKey(llvm::ArrayRef<llvm::StringRef> parts) {
  llvm::SHA256 hash;
  hash.update(compilerStamp());
  hash.update(llvm::ArrayRef<uint8_t>{0});
  for (llvm::StringRef part : parts) {
    hash.update(part);
    hash.update(llvm::ArrayRef<uint8_t>{0});
  }
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

Attribute sluice::nvvm::lookupKernelObject(MLIRContext *ctx,
                                           llvm::StringRef key) {
  std::string text;
  {
    MemoryCache &m = memory();
    std::lock_guard<std::mutex> lock(m.mutex);
    auto it = m.texts.find(key);
    if (it != m.texts.end())
      text = it->second;
  }
  bool fromDisk = false;
  if (text.empty()) {
    std::string path = diskPath(key);
    if (path.empty())
      return {};
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer || !(*buffer)->getBuffer().starts_with(kMagic))
      return {};
    text = (*buffer)->getBuffer().drop_front(kMagic.size()).str();
    fromDisk = true;
    touch(path);
  }
  size_t read = 0;
  Attribute object = parseAttribute(text, ctx, Type(), &read,
                                    /*isKnownNullTerminated=*/false);
  if (!object || read != text.size())
    return {};
  if (fromDisk)
    remember(key, std::move(text));
  return object;
}

void sluice::nvvm::storeKernelObject(llvm::StringRef key, Attribute object) {
  std::string text;
  llvm::raw_string_ostream os(text);
  object.print(os);
  os.flush();
  std::string path = diskPath(key);
  if (!path.empty() && !llvm::sys::fs::exists(path)) {
    llvm::StringRef dir = llvm::sys::path::parent_path(path);
    llvm::SmallString<256> tmp;
    int fd = -1;
    if (!llvm::sys::fs::create_directories(dir) &&
        !llvm::sys::fs::createUniqueFile(dir + "/%%%%%%%%.tmp", fd, tmp)) {
      bool ok;
      {
        llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
        out << kMagic << text;
        out.close();
        ok = !out.has_error();
        out.clear_error();
      }
      if (!ok || llvm::sys::fs::rename(tmp, path))
        llvm::sys::fs::remove(tmp);
      else
        trimDisk(dir, path);
    }
  }
  remember(key, std::move(text));
}
