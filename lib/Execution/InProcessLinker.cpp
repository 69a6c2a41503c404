//===- InProcessLinker.cpp - Linking artifacts with LLD in process --------===//

#include "sluice/Execution/InProcessLinker.h"

#ifdef SLUICE_HAVE_LLD
#include "lld/Common/Driver.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>
#include <link.h>

#include <mutex>
#include <vector>

LLD_HAS_DRIVER(elf)

#include "llvm/Plugins/PassPlugin.h"

/// LLD's LTO backend registers Debian's static extensions, Polly among them,
/// which is not linked in: it registers nothing (Sluice never links bitcode).
llvm::PassPluginLibraryInfo getPollyPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Polly (not in Sluice)", "0",
          [](llvm::PassBuilder &) {}};
}
#endif

using namespace sluice::exec;

bool sluice::exec::hasInProcessLinker() {
#ifdef SLUICE_HAVE_LLD
  return true;
#else
  return false;
#endif
}

std::string sluice::exec::defaultLinker() {
  return hasInProcessLinker() ? kBuiltinLinker : "cc";
}

#ifdef SLUICE_HAVE_LLD
namespace {

/// The file of a shared library this process has loaded (or can load), by
/// its soname: the copy the artifact will meet when it is loaded here.
std::string loadedLibraryPath(const char *soname) {
  void *handle = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
  if (!handle)
    handle = dlopen(soname, RTLD_LAZY);
  if (!handle)
    return "";
  struct link_map *map = nullptr;
  std::string path;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name)
    path = map->l_name;
  dlclose(handle);
  return path;
}

} // namespace
#endif

llvm::Error
sluice::exec::linkSharedObjectInProcess(llvm::StringRef object,
                                        llvm::StringRef output,
                                        llvm::StringRef runtimeDir) {
#ifndef SLUICE_HAVE_LLD
  (void)object;
  (void)output;
  (void)runtimeDir;
  return llvm::createStringError(
      "this build of Sluice has no built-in linker: name a C compiler");
#else
  std::vector<std::string> args = {"ld.lld",
                                   "-shared",
                                   "--eh-frame-hdr",
                                   "--hash-style=gnu",
                                   "-z",
                                   "relro",
                                   "-z",
                                   "noexecstack",
                                   "-o",
                                   output.str(),
                                   object.str(),
                                   "-L" + runtimeDir.str(),
                                   "-lsluice-runtime",
                                   "-rpath",
                                   runtimeDir.str(),
                                   "--no-undefined"};
  // The system libraries by their files: a machine without a toolchain has
  // no libc.so/libm.so link scripts, only the libraries themselves.
  for (const char *soname : {"libm.so.6", "libc.so.6"}) {
    std::string path = loadedLibraryPath(soname);
    if (path.empty())
      return llvm::createStringError(std::string("cannot find ") + soname +
                                     " to link the artifact against");
    args.push_back(path);
  }
  // Helpers the code generator may call (half-precision conversions,
  // 128-bit division) and the vector math library, only where used.
  args.push_back("--push-state");
  args.push_back("--as-needed");
  for (const char *soname : {"libgcc_s.so.1", "libmvec.so.1"})
    if (std::string path = loadedLibraryPath(soname); !path.empty())
      args.push_back(path);
  args.push_back("--pop-state");

  std::vector<const char *> argv;
  for (const std::string &a : args)
    argv.push_back(a.c_str());
  // LLD keeps global state: one link at a time in a process.
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  static bool broken = false;
  if (broken)
    return llvm::createStringError(
        "the built-in linker failed earlier in this process and cannot run "
        "again");
  std::string messages;
  llvm::raw_string_ostream os(messages);
  lld::Result result =
      lld::lldMain(argv, os, os, {{lld::Gnu, &lld::elf::link}});
  os.flush();
  if (!result.canRunAgain)
    broken = true;
  if (result.retCode != 0) {
    std::string command;
    for (const std::string &a : args)
      command += (command.empty() ? "" : " ") + a;
    return llvm::createStringError("linking the artifact failed: " + command +
                                   (messages.empty() ? "" : "\n" + messages));
  }
  return llvm::Error::success();
#endif
}
