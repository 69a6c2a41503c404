//===- Invocation.cpp - Parsing and compiling through the C API -----------===//

#include "CAPISupport.h"

#include "sluice/Execution/ArtifactWriter.h"
#include "sluice/Support/SourceNesting.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace sluice;

namespace {

using Scope = capi::DiagnosticScope;

const char *stageName(SluiceCompileStage stage) {
  return programStageName(static_cast<ProgramStage>(stage));
}

/// Replaces the invocation's module with a freshly parsed one.
void resetModule(SluiceCompilerInvocation_ *inv, OwningOpRef<ModuleOp> m) {
  inv->module = std::move(m);
  inv->stage = SLUICE_STAGE_INPUT;
  inv->broken = false;
  inv->haveSignatures = false;
  inv->signatures.clear();
  inv->haveBinaries = false;
  inv->binaryNames.clear();
  inv->binaryData.clear();
  inv->binaryFormats.clear();
}

/// Takes a parsed module (or, when parsing failed, reports `what`).
SluiceStatus adoptModule(SluiceCompilerInvocation_ *inv,
                         OwningOpRef<ModuleOp> module, const Scope &scope,
                         const std::string &what) {
  bool parsed = static_cast<bool>(module);
  resetModule(inv, std::move(module));
  if (!parsed)
    return capi::fail(SLUICE_ERROR_INVALID_VALUE, scope.withFirstError(what));
  return capi::succeed();
}

/// Whether `text` nests too deep for MLIR's recursive parser; if so the
/// error is reported at the bracket (before parsing, which would overflow
/// the stack).
bool nestsTooDeep(SluiceCompilerInvocation_ *inv, Scope &scope,
                  llvm::StringRef text, llvm::StringRef name) {
  std::optional<size_t> at =
      findTooDeepNesting(std::string_view(text.data(), text.size()));
  if (!at)
    return false;
  llvm::StringRef before = text.take_front(*at);
  unsigned line = 1 + before.count('\n');
  size_t lineStart = before.rfind('\n');
  unsigned column =
      1 + (lineStart == llvm::StringRef::npos ? *at : *at - lineStart - 1);
  scope.emitError(
      FileLineColLoc::get(&inv->session->context, name, line, column),
      "brackets and regions nest deeper than " +
          std::to_string(kMaxSourceNesting) +
          " levels here; the parser does not take programs nested this deep");
  return true;
}

SluiceStatus compileFailed(SluiceCompilerInvocation_ *, const Scope &scope,
                           const std::string &what) {
  return capi::fail(SLUICE_ERROR_COMPILE_FAILED, scope.withFirstError(what));
}

/// The filter string the session's --device names (resolved now), or "".
FailureOr<std::string> boundDevice(SluiceCompilerInvocation_ *inv,
                                   Scope &scope) {
  const std::string &device = inv->session->options.device;
  if (device.empty())
    return std::string();
  std::string filter = device == "default" ? std::string() : device;
  SluiceDevice dev = nullptr;
  SluiceDeviceInfo info;
  if (sluiceDeviceSelect(filter.c_str(), &dev) == SLUICE_SUCCESS &&
      sluiceDeviceGetInfo(dev, &info) == SLUICE_SUCCESS)
    return std::string(info.filter_string);
  std::string why = sluiceGetLastErrorMessage();
  // A device that is not here can still be compiled for when the selector
  // names exactly one ("cuda:gpu:0" on a machine without a GPU).
  char buffer[256];
  if (!filter.empty() &&
      sluiceSelectorNormalize(filter.c_str(), buffer, sizeof(buffer),
                              nullptr) == SLUICE_SUCCESS) {
    llvm::StringRef normal(buffer);
    if (!normal.contains('*') && !normal.contains(','))
      return normal.str();
  }
  scope.emitError(inv->module->getLoc(),
                  "--device=" + device + ": " + why +
                      " (to compile for a device that is not here, name its "
                      "backend, type and index, e.g. cuda:gpu:0)");
  return failure();
}

/// Keeps what the module's gpu.binary ops hold.
void snapshotBinaries(SluiceCompilerInvocation_ *inv) {
  inv->haveBinaries = true;
  for (auto bin : inv->module->getOps<gpu::BinaryOp>()) {
    for (Attribute a : bin.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(a);
      StringRef ns = object.getTarget().getDialect().getNamespace();
      int32_t format = -1;
      if (ns == "spirv")
        format = SLUICE_MODULE_SPIRV;
      else if (ns == "nvvm")
        format = object.getFormat() == gpu::CompilationTarget::Assembly
                     ? SLUICE_MODULE_PTX
                     : SLUICE_MODULE_CUBIN;
      else
        continue;
      inv->binaryNames.push_back(bin.getName().str());
      inv->binaryData.push_back(object.getObject().getValue().str());
      inv->binaryFormats.push_back(format);
    }
  }
}

/// Runs the pipeline up to `stage`, one stage at a time.
/// Runs the program pipeline with a pass manager that the session keeps for
/// these options and stages. Building one initialises its passes (each
/// canonicalizer gathers and freezes the patterns of every loaded dialect),
/// which cost more than running the passes on a small program such as a
/// Python kernel's. Compiles of one session are serialised by its lock.
LogicalResult runPipeline(SluiceCompilerSession_ *session, ModuleOp module,
                          const ProgramPipelineOptions &o) {
  std::string key = std::to_string(o.fuse) + "," + o.cudaChip + "," +
                    std::to_string(o.cudaOptLevel) + "," +
                    std::to_string(o.kernels.workgroupSize) + "," +
                    std::to_string(o.spirvNativeF16) + "," +
                    std::to_string(static_cast<int>(o.startAfter)) + "," +
                    std::to_string(static_cast<int>(o.stopAfter));
  std::unique_ptr<PassManager> &pm = session->pipelines[key];
  if (!pm) {
    auto fresh = std::make_unique<PassManager>(module.getContext());
    if (failed(buildCompileProgramPipeline(*fresh, o))) {
      session->pipelines.erase(key);
      return failure();
    }
    pm = std::move(fresh);
  }
  return pm->run(module);
}

SluiceStatus runTo(SluiceCompilerInvocation_ *inv, SluiceCompileStage target,
                   Scope &scope) {
  if (!inv->module)
    return capi::fail(SLUICE_ERROR_INVALID_VALUE,
                      "the invocation has no module: parse or build one first");
  if (inv->broken)
    return capi::fail(SLUICE_ERROR_INVALID_VALUE,
                      "an earlier pipeline run of this invocation failed; "
                      "parse the program again");
  if (target < inv->stage)
    return capi::fail(SLUICE_ERROR_INVALID_VALUE,
                      std::string("the invocation is at stage '") +
                          stageName(inv->stage) + "', past '" +
                          stageName(target) + "'");
  ModuleOp module = *inv->module;
  const CompileOptions &opts = inv->session->options;
  if (inv->stage == SLUICE_STAGE_INPUT && target > SLUICE_STAGE_INPUT) {
    FailureOr<std::string> device = boundDevice(inv, scope);
    if (failed(device)) {
      inv->broken = true;
      return compileFailed(inv, scope, "cannot bind the program's queues");
    }
    if (!device->empty())
      exec::rebindQueues(module, *device);
  }
  for (int s = inv->stage + 1; s <= target; ++s) {
    if (s == SLUICE_STAGE_KERNELS && !inv->haveSignatures) {
      FailureOr<std::vector<exec::EntrySignature>> sigs =
          exec::publicSignatures(module);
      if (failed(sigs)) {
        inv->broken = true;
        return compileFailed(inv, scope, "unsupported entry signature");
      }
      inv->signatures = std::move(*sigs);
      inv->haveSignatures = true;
    }
    ProgramPipelineOptions options = opts.pipelineOptions();
    options.startAfter = static_cast<ProgramStage>(s - 1);
    options.stopAfter = static_cast<ProgramStage>(s);
    if (failed(runPipeline(inv->session, module, options))) {
      inv->broken = true;
      inv->stage = static_cast<SluiceCompileStage>(s);
      return compileFailed(inv, scope,
                           std::string("compilation failed at stage '") +
                               stageName(static_cast<SluiceCompileStage>(s)) +
                               "'");
    }
    inv->stage = static_cast<SluiceCompileStage>(s);
    if (s == SLUICE_STAGE_BINARIES)
      snapshotBinaries(inv);
  }
  return capi::succeed();
}

} // namespace

extern "C" {

SluiceStatus
sluiceCompilerInvocationCreate(SluiceCompilerSession session,
                               SluiceCompilerInvocation *invocation) {
  SLUICE_CAPI_CHECK(session && invocation, "session or invocation is NULL");
  std::lock_guard<std::recursive_mutex> lock(session->mutex);
  SLUICE_CAPI_CHECK(!session->destroyed, "the session was destroyed");
  capi::retainSession(session);
  *invocation = new SluiceCompilerInvocation_(session);
  return capi::succeed();
}

void sluiceCompilerInvocationDestroy(SluiceCompilerInvocation invocation) {
  if (!invocation)
    return;
  SluiceCompilerSession_ *session = invocation->session;
  {
    std::lock_guard<std::recursive_mutex> lock(session->mutex);
    if (invocation->liveBuilders > 0) {
      // Builders still point here: the last one deletes the invocation.
      invocation->destroyed = true;
      return;
    }
    delete invocation;
  }
  capi::releaseSession(session);
}

SluiceStatus
sluiceCompilerInvocationParseSource(SluiceCompilerInvocation invocation,
                                    const char *buffer, size_t length,
                                    const char *bufferName) {
  SLUICE_CAPI_CHECK(invocation, "invocation is NULL");
  SLUICE_CAPI_CHECK(buffer || length == 0, "buffer is NULL");
  Scope scope(invocation->session, invocation);
  SLUICE_CAPI_CHECK_NOT_BUILDING(invocation);
  llvm::StringRef text(buffer ? buffer : "", length);
  llvm::StringRef name = bufferName ? bufferName : "<buffer>";
  if (nestsTooDeep(invocation, scope, text, name))
    return adoptModule(invocation, nullptr, scope, "cannot parse the program");
  ParserConfig config(&invocation->session->context);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, config, name);
  return adoptModule(invocation, std::move(module), scope,
                     "cannot parse the program");
}

SluiceStatus
sluiceCompilerInvocationParseFile(SluiceCompilerInvocation invocation,
                                  const char *path) {
  SLUICE_CAPI_CHECK(invocation && path, "invocation or path is NULL");
  Scope scope(invocation->session, invocation);
  SLUICE_CAPI_CHECK_NOT_BUILDING(invocation);
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!file) {
    std::string message =
        std::string("cannot read '") + path + "': " + file.getError().message();
    scope.emitError(
        FileLineColLoc::get(&invocation->session->context, path, 0, 0),
        message);
    return capi::fail(SLUICE_ERROR_NOT_FOUND, message);
  }
  if (nestsTooDeep(invocation, scope, (*file)->getBuffer(), path))
    return adoptModule(invocation, nullptr, scope,
                       std::string("cannot parse '") + path + "'");
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  ParserConfig config(&invocation->session->context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  return adoptModule(invocation, std::move(module), scope,
                     std::string("cannot parse '") + path + "'");
}

SluiceStatus
sluiceCompilerInvocationRunPipeline(SluiceCompilerInvocation invocation,
                                    SluiceCompileStage stage) {
  SLUICE_CAPI_CHECK(invocation, "invocation is NULL");
  SLUICE_CAPI_CHECK(stage >= SLUICE_STAGE_INPUT && stage <= SLUICE_STAGE_LLVM,
                    "unknown stage " + std::to_string(stage));
  Scope scope(invocation->session, invocation);
  SLUICE_CAPI_CHECK_NOT_BUILDING(invocation);
  return runTo(invocation, stage, scope);
}

const char *sluiceCompileStageName(SluiceCompileStage stage) {
  if (stage < SLUICE_STAGE_INPUT || stage > SLUICE_STAGE_LLVM)
    return nullptr;
  return stageName(stage);
}

SluiceCompileStage
sluiceCompilerInvocationGetStage(SluiceCompilerInvocation invocation) {
  if (!invocation)
    return SLUICE_STAGE_INPUT;
  std::lock_guard<std::recursive_mutex> lock(invocation->session->mutex);
  return invocation->stage;
}

SluiceStatus sluiceCompilerInvocationGetIR(SluiceCompilerInvocation invocation,
                                           int withLocations, const char **text,
                                           size_t *length) {
  SLUICE_CAPI_CHECK(invocation && text, "invocation or text is NULL");
  Scope scope(invocation->session, nullptr);
  SLUICE_CAPI_CHECK(invocation->module, "the invocation has no module");
  invocation->irText.clear();
  llvm::raw_string_ostream os(invocation->irText);
  OpPrintingFlags flags;
  if (withLocations)
    flags.enableDebugInfo();
  invocation->module->print(os, flags);
  *text = invocation->irText.c_str();
  if (length)
    *length = invocation->irText.size();
  return capi::succeed();
}

const char *
sluiceCompilerInvocationGetErrors(SluiceCompilerInvocation invocation) {
  if (!invocation)
    return "";
  std::lock_guard<std::recursive_mutex> lock(invocation->session->mutex);
  return invocation->errors.c_str();
}

SluiceStatus
sluiceCompilerInvocationGetSignatures(SluiceCompilerInvocation invocation,
                                      const char **text, size_t *length) {
  SLUICE_CAPI_CHECK(invocation && text, "invocation or text is NULL");
  Scope scope(invocation->session, invocation);
  SLUICE_CAPI_CHECK(invocation->module, "the invocation has no module");
  if (!invocation->haveSignatures) {
    if (invocation->stage > SLUICE_STAGE_FUSED)
      return capi::fail(SLUICE_ERROR_INVALID_VALUE,
                        "the signatures were not taken before lowering");
    FailureOr<std::vector<exec::EntrySignature>> sigs =
        exec::publicSignatures(*invocation->module);
    if (failed(sigs))
      return compileFailed(invocation, scope, "unsupported entry signature");
    // Queues are not rebound before the pipeline runs: do not keep these.
    invocation->signatureText.clear();
    for (const exec::EntrySignature &sig : *sigs)
      invocation->signatureText += sig.toString() + "\n";
  } else {
    invocation->signatureText.clear();
    for (const exec::EntrySignature &sig : invocation->signatures)
      invocation->signatureText += sig.toString() + "\n";
  }
  *text = invocation->signatureText.c_str();
  if (length)
    *length = invocation->signatureText.size();
  return capi::succeed();
}

SluiceStatus
sluiceCompilerInvocationGetBinaryCount(SluiceCompilerInvocation invocation,
                                       size_t *count) {
  SLUICE_CAPI_CHECK(invocation && count, "invocation or count is NULL");
  std::lock_guard<std::recursive_mutex> lock(invocation->session->mutex);
  SLUICE_CAPI_CHECK(invocation->haveBinaries,
                    "device binaries exist from SLUICE_STAGE_BINARIES on");
  *count = invocation->binaryData.size();
  return capi::succeed();
}

SluiceStatus
sluiceCompilerInvocationGetBinary(SluiceCompilerInvocation invocation,
                                  size_t index, SluiceBinaryInfo *binary) {
  SLUICE_CAPI_CHECK(invocation && binary, "invocation or binary is NULL");
  std::lock_guard<std::recursive_mutex> lock(invocation->session->mutex);
  SLUICE_CAPI_CHECK(invocation->haveBinaries,
                    "device binaries exist from SLUICE_STAGE_BINARIES on");
  SLUICE_CAPI_CHECK(index < invocation->binaryData.size(),
                    "index " + std::to_string(index) + " is out of range (" +
                        std::to_string(invocation->binaryData.size()) +
                        " binaries)");
  binary->name = invocation->binaryNames[index].c_str();
  binary->format = invocation->binaryFormats[index];
  binary->data = invocation->binaryData[index].data();
  binary->size = invocation->binaryData[index].size();
  return capi::succeed();
}

SluiceStatus
sluiceCompilerInvocationEmitHost(SluiceCompilerInvocation invocation,
                                 SluiceHostOutput kind, const void **data,
                                 size_t *size) {
  SLUICE_CAPI_CHECK(invocation && data && size,
                    "invocation, data or size is NULL");
  SLUICE_CAPI_CHECK(kind == SLUICE_HOST_OUTPUT_LLVM_IR ||
                        kind == SLUICE_HOST_OUTPUT_OBJECT,
                    "unknown host output " + std::to_string(kind));
  Scope scope(invocation->session, invocation);
  SLUICE_CAPI_CHECK_NOT_BUILDING(invocation);
  if (SluiceStatus s = runTo(invocation, SLUICE_STAGE_LLVM, scope))
    return s;
  ModuleOp module = *invocation->module;
  if (llvm::Error e = exec::addArtifactGlobals(module, invocation->signatures))
    return capi::fail(SLUICE_ERROR_COMPILE_FAILED, toString(std::move(e)));
  invocation->hostOutput.clear();
  llvm::raw_string_ostream os(invocation->hostOutput);
  unsigned opt = invocation->session->options.optLevel;
  llvm::Error e = kind == SLUICE_HOST_OUTPUT_LLVM_IR
                      ? exec::emitLLVMIR(module, os, opt)
                      : [&] {
                          llvm::SmallString<0> object;
                          llvm::raw_svector_ostream vs(object);
                          llvm::Error err = exec::emitObject(module, vs, opt);
                          os << object;
                          return err;
                        }();
  if (e)
    return capi::fail(SLUICE_ERROR_COMPILE_FAILED, toString(std::move(e)));
  os.flush();
  *data = invocation->hostOutput.data();
  *size = invocation->hostOutput.size();
  return capi::succeed();
}

SluiceStatus
sluiceCompilerInvocationWriteArtifact(SluiceCompilerInvocation invocation,
                                      const char *path, const char *runtimeDir,
                                      const char *linker) {
  SLUICE_CAPI_CHECK(invocation && path, "invocation or path is NULL");
  Scope scope(invocation->session, invocation);
  SLUICE_CAPI_CHECK_NOT_BUILDING(invocation);
  if (SluiceStatus s = runTo(invocation, SLUICE_STAGE_LLVM, scope))
    return s;
  exec::ArtifactOptions options;
  options.optLevel = invocation->session->options.optLevel;
  options.runtimeDir =
      runtimeDir && *runtimeDir ? runtimeDir : exec::defaultRuntimeDir();
  if (linker && *linker)
    options.linker = linker;
  if (llvm::Error e = exec::writeArtifact(
          *invocation->module, invocation->signatures, path, options))
    return capi::fail(SLUICE_ERROR_COMPILE_FAILED,
                      std::string("cannot write the artifact '") + path +
                          "': " + toString(std::move(e)));
  return capi::succeed();
}

SluiceStatus
sluiceCompilerInvocationCreateExecutable(SluiceCompilerInvocation invocation,
                                         SluiceExecutable *executable) {
  SLUICE_CAPI_CHECK(invocation && executable,
                    "invocation or executable is NULL");
  Scope scope(invocation->session, invocation);
  SLUICE_CAPI_CHECK_NOT_BUILDING(invocation);
  if (SluiceStatus s = runTo(invocation, SLUICE_STAGE_LLVM, scope))
    return s;
  auto jit = exec::JitProgram::create(*invocation->module,
                                      invocation->session->options.optLevel);
  if (!jit)
    return capi::fail(SLUICE_ERROR_COMPILE_FAILED,
                      "JIT compilation failed: " + toString(jit.takeError()));
  auto *exe = new SluiceExecutable_();
  exe->jit = std::move(*jit);
  exe->signatures = invocation->signatures;
  for (const exec::EntrySignature &sig : exe->signatures)
    exe->signatureText.push_back(sig.toString());
  *executable = exe;
  return capi::succeed();
}

} // extern "C"
