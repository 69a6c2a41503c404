//===- HostModule.cpp - Native shared objects as modules ------------------===//
#include "HostModule.h"

#include "sluice/Runtime/ErrorState.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

namespace sluice::rt::host {

namespace {

/// Writes all of `bytes` to fd.
bool writeAll(int fd, const void *bytes, size_t size) {
  const char *p = static_cast<const char *>(bytes);
  while (size) {
    ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

/// An anonymous file holding the object: a memfd, else an unlinked
/// temporary file. Returns -1 and sets `log` on failure.
int makeImageFile(std::string &log) {
  int fd = ::memfd_create("sluice-module", MFD_CLOEXEC);
  if (fd >= 0)
    return fd;
  const char *dir = std::getenv("TMPDIR");
  std::string path =
      std::string(dir && *dir ? dir : "/tmp") + "/sluice-module-XXXXXX";
  fd = ::mkostemp(path.data(), O_CLOEXEC);
  if (fd < 0) {
    log = "cannot create a file for the module: " +
          std::string(std::strerror(errno));
    return -1;
  }
  ::unlink(path.c_str());
  return fd;
}

} // namespace

SluiceStatus HostModule::load(Context &context, const void *bytes, size_t size,
                              Ref<Module> &out, std::string &log) {
  const unsigned char *p = static_cast<const unsigned char *>(bytes);
  if (size < sizeof(ElfW(Ehdr)) || std::memcmp(p, ELFMAG, SELFMAG) != 0) {
    log = "not an ELF shared object (bad magic number)";
    return SLUICE_ERROR_BUILD_FAILED;
  }
  if (reinterpret_cast<const ElfW(Ehdr) *>(p)->e_type != ET_DYN) {
    log = "ELF file is not a shared object (ET_DYN); link it with -shared";
    return SLUICE_ERROR_BUILD_FAILED;
  }
  int fd = makeImageFile(log);
  if (fd < 0)
    return SLUICE_ERROR_BUILD_FAILED;
  if (!writeAll(fd, bytes, size)) {
    log = "cannot write the module image: " + std::string(std::strerror(errno));
    ::close(fd);
    return SLUICE_ERROR_BUILD_FAILED;
  }
  std::string path = "/proc/self/fd/" + std::to_string(fd);
  // The descriptor stays open while the module is loaded: the dynamic
  // loader recognises loaded objects by path, so a reused descriptor number
  // would hand back an older module.
  void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *error = ::dlerror();
    log = std::string("dlopen failed: ") + (error ? error : "unknown error");
    ::close(fd);
    return SLUICE_ERROR_BUILD_FAILED;
  }
  out = Ref<Module>::adopt(new HostModule(context, handle, fd));
  return SLUICE_SUCCESS;
}

HostModule::~HostModule() {
  ::dlclose(handle);
  ::close(fd);
}

SluiceStatus HostModule::createKernel(const std::string &name,
                                      std::unique_ptr<Kernel> &out) {
  void *symbol = ::dlsym(handle, name.c_str());
  // dlsym also searches the object's dependencies (libc, ...): accept only
  // symbols defined by the module itself.
  struct link_map *map = nullptr;
  Dl_info info;
  bool own = symbol && ::dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map &&
             ::dladdr(symbol, &info) &&
             info.dli_fbase == reinterpret_cast<void *>(map->l_addr);
  if (!own)
    return fail(SLUICE_ERROR_KERNEL_NOT_FOUND,
                "no kernel named '" + name + "' in the native module");
  out = std::make_unique<HostKernel>(
      *this, name, reinterpret_cast<SluiceHostKernelFn>(symbol));
  return SLUICE_SUCCESS;
}

} // namespace sluice::rt::host
