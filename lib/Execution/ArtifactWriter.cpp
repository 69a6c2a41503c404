//===- ArtifactWriter.cpp - Writing ahead-of-time compiled programs -------===//

#include "sluice/Execution/ArtifactWriter.h"

#include "sluice/Execution/Artifact.h"
#include "sluice/Execution/Compiler.h"
#include "sluice/Execution/HostMath.h"
#include "sluice/Execution/InProcessLinker.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>

using namespace mlir;
using namespace sluice;
using namespace sluice::exec;

#ifndef SLUICE_RUNTIME_LIBRARY_DIR
#error "SLUICE_RUNTIME_LIBRARY_DIR must name the directory of the runtime"
#endif
#ifndef SLUICE_VERSION_STRING
#error "SLUICE_VERSION_STRING must be defined"
#endif

std::string sluice::exec::defaultRuntimeDir() {
  // An installed compiler (tool or library) finds the runtime next to it or
  // in ../lib; a build tree, where it was built.
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&sluice::exec::defaultRuntimeDir),
             &info) &&
      info.dli_fname) {
    llvm::SmallString<256> dir(info.dli_fname);
    llvm::sys::path::remove_filename(dir);
    for (const char *relative : {"", "../lib"}) {
      llvm::SmallString<256> candidate(dir);
      llvm::sys::path::append(candidate, relative);
      llvm::SmallString<256> lib(candidate);
      llvm::sys::path::append(lib, "libsluice-runtime.so");
      if (llvm::sys::fs::exists(lib)) {
        llvm::sys::path::remove_dots(candidate, /*remove_dot_dot=*/true);
        return candidate.str().str();
      }
    }
  }
  return SLUICE_RUNTIME_LIBRARY_DIR;
}

std::string sluice::exec::compilerVersion() { return SLUICE_VERSION_STRING; }

FailureOr<std::vector<EntrySignature>>
sluice::exec::publicSignatures(ModuleOp module) {
  std::vector<EntrySignature> signatures;
  for (auto f : module.getOps<func::FuncOp>()) {
    if (!f.isPublic() || f.isExternal())
      continue;
    FailureOr<EntrySignature> sig = signatureOf(f);
    if (failed(sig))
      return failure();
    std::string text = sig->toString();
    if (text.find('\n') != std::string::npos || text.find('\0') != text.npos)
      return f.emitError("the signature of @")
             << f.getName() << " cannot be recorded in an artifact";
    signatures.push_back(std::move(*sig));
  }
  return signatures;
}

static void setStringGlobal(ModuleOp module, StringRef name, StringRef value) {
  if (Operation *old = module.lookupSymbol(name))
    old->erase();
  MLIRContext *ctx = module.getContext();
  std::string text = value.str();
  text.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), text.size());
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/true,
                         LLVM::Linkage::External, name, b.getStringAttr(text),
                         /*alignment=*/1);
}

llvm::Error
sluice::exec::addArtifactGlobals(ModuleOp module,
                                 llvm::ArrayRef<EntrySignature> signatures) {
  std::string lines;
  for (const EntrySignature &sig : signatures) {
    std::string text = sig.toString();
    if (text.find('\n') != std::string::npos)
      return llvm::createStringError("signature of @" + sig.name +
                                     " holds a newline");
    lines += text + "\n";
  }
  setStringGlobal(module, kSignaturesSymbol, lines);
  setStringGlobal(module, kCompilerVersionSymbol, compilerVersion());
  return llvm::Error::success();
}

namespace {

/// A file path from createTemporaryFile / createUniqueFile, removed when the
/// object goes away unless released.
/// With track(true) it is also removed when the process dies of a signal or
/// a fatal error (an abort inside LLVM), so no run leaves one behind.
struct TempPath {
  llvm::SmallString<128> path;
  bool keep = false;
  bool onSignal = false;
  /// Call once `path` is set.
  void track(bool removeOnSignal) {
    onSignal = removeOnSignal;
    if (onSignal)
      llvm::sys::RemoveFileOnSignal(path);
  }
  void release() {
    keep = true;
    if (onSignal)
      llvm::sys::DontRemoveFileOnSignal(path);
  }
  ~TempPath() {
    if (!path.empty() && !keep) {
      llvm::sys::fs::remove(path);
      if (onSignal)
        llvm::sys::DontRemoveFileOnSignal(path);
    }
  }
};

llvm::Error fileError(const llvm::Twine &what, std::error_code ec) {
  return llvm::createStringError(ec, what + ": " + ec.message());
}

std::string readFile(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return "";
  return (*buffer)->getBuffer().rtrim().str();
}

/// Links `object` into the shared object `output` with the C compiler
/// `linker` (a path), its messages going to `logPath`.
llvm::Error linkWithCompiler(StringRef linker, StringRef object,
                             StringRef output, StringRef runtimeDir,
                             StringRef logPath) {
  std::vector<std::string> args = {
      linker.str(),        "-shared",    "-o",
      output.str(),        object.str(), "-L" + runtimeDir.str(),
      "-lsluice-runtime",  "-lm",        "-Wl,-rpath," + runtimeDir.str(),
      "-Wl,--no-undefined"};
  for (std::string &arg : hostVectorMathLinkArgs())
    args.push_back(std::move(arg));
  std::vector<StringRef> argRefs(args.begin(), args.end());
  std::optional<StringRef> redirects[] = {std::nullopt, logPath, logPath};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(linker, argRefs, std::nullopt, redirects,
                                     /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                     &execError);
  if (rc == 0)
    return llvm::Error::success();
  std::string command;
  for (const std::string &a : args)
    command += (command.empty() ? "" : " ") + a;
  std::string messages = readFile(logPath);
  return llvm::createStringError(
      "linking the artifact failed (" +
      (rc < 0 ? execError : "exit status " + std::to_string(rc)) +
      "): " + command + (messages.empty() ? "" : "\n" + messages));
}

} // namespace

llvm::Error
sluice::exec::writeArtifact(ModuleOp module,
                            llvm::ArrayRef<EntrySignature> signatures,
                            StringRef path, const ArtifactOptions &options) {
  namespace fs = llvm::sys::fs;
  if (path.empty() || path == "-")
    return llvm::createStringError("an artifact must be written to a file");

  std::string runtimeDir =
      options.runtimeDir.empty() ? defaultRuntimeDir() : options.runtimeDir;
  llvm::SmallString<128> runtimeLib(runtimeDir);
  llvm::sys::path::append(runtimeLib, "libsluice-runtime.so");
  if (!fs::exists(runtimeLib))
    return llvm::createStringError("no libsluice-runtime.so in '" + runtimeDir +
                                   "' (the runtime directory to link with)");
  llvm::SmallString<128> absRuntimeDir(runtimeDir);
  if (std::error_code ec = fs::make_absolute(absRuntimeDir))
    return fileError("'" + runtimeDir + "'", ec);

  std::string linker =
      options.linker.empty() ? defaultLinker() : options.linker;
  bool inProcess = linker == kBuiltinLinker;
  if (inProcess && !hasInProcessLinker())
    return llvm::createStringError(
        "this build of Sluice has no built-in linker: name a C compiler");
  if (!inProcess && linker.find('/') == std::string::npos) {
    auto found = llvm::sys::findProgramByName(linker);
    if (!found)
      return llvm::createStringError(
          "cannot find the C compiler '" + linker +
          "' that links artifacts: " + found.getError().message());
    linker = *found;
  }

  // The output is written next to its final place, then renamed: nothing
  // partial is ever at `path`. Creating it first also checks that `path` is
  // writable before any work is done.
  TempPath output;
  {
    int fd;
    if (std::error_code ec =
            fs::createUniqueFile(path + ".tmp-%%%%%%", fd, output.path))
      return fileError("cannot write '" + path + "'", ec);
    output.track(options.removeTemporariesOnSignal);
    fs::closeFile(fd);
  }

  if (llvm::Error e = addArtifactGlobals(module, signatures))
    return e;

  TempPath object, log;
  {
    int fd;
    if (std::error_code ec =
            fs::createTemporaryFile("sluice-artifact", "o", fd, object.path))
      return fileError("cannot create a temporary object file", ec);
    object.track(options.removeTemporariesOnSignal);
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    if (llvm::Error e = emitObject(module, os, options.optLevel))
      return e;
    os.close();
    if (os.has_error())
      return fileError("cannot write '" + object.path + "'", os.error());
  }
  if (std::error_code ec =
          fs::createTemporaryFile("sluice-link", "log", log.path))
    return fileError("cannot create a temporary file", ec);
  log.track(options.removeTemporariesOnSignal);

  if (inProcess) {
    if (llvm::Error e = linkSharedObjectInProcess(object.path, output.path,
                                                  absRuntimeDir.str()))
      return e;
  } else if (llvm::Error e = linkWithCompiler(linker, object.path, output.path,
                                              absRuntimeDir.str(), log.path))
    return e;

  if (io::Status sealed = sealArtifactFile(output.path.str().str()); !sealed)
    return llvm::createStringError(sealed.error());

  // The linker creates the file anew: give it the usual mode of a shared
  // object.
  unsigned mode = 0777 & ~fs::getUmask();
  if (std::error_code ec =
          fs::setPermissions(output.path, static_cast<fs::perms>(mode)))
    return fileError("cannot set the mode of '" + output.path + "'", ec);
  if (std::error_code ec = fs::rename(output.path, path))
    return fileError("cannot write '" + path + "'", ec);
  output.release();
  return llvm::Error::success();
}
