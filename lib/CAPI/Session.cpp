//===- Session.cpp - Sessions, options and diagnostics of the C API -------===//

#include "CAPISupport.h"

#include "sluice/Execution/ArtifactWriter.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace sluice;

namespace {
thread_local std::string lastError;
} // namespace

SluiceStatus sluice::capi::fail(SluiceStatus status,
                                const std::string &message) {
  lastError = message;
  return status;
}

SluiceStatus sluice::capi::succeed() {
  lastError.clear();
  return SLUICE_SUCCESS;
}

std::string sluice::capi::locationString(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return (file.getFilename().str() + ":" + std::to_string(file.getLine()) +
            ":" + std::to_string(file.getColumn()));
  return "";
}

Type sluice::capi::elementType(MLIRContext *ctx, SluiceDType dtype) {
  Builder b(ctx);
  auto unsignedInt = [&](unsigned w) {
    return IntegerType::get(ctx, w, IntegerType::Unsigned);
  };
  switch (dtype) {
  case SLUICE_DTYPE_BOOL:
    return b.getI1Type();
  case SLUICE_DTYPE_INT8:
    return b.getI8Type();
  case SLUICE_DTYPE_INT16:
    return b.getI16Type();
  case SLUICE_DTYPE_INT32:
    return b.getI32Type();
  case SLUICE_DTYPE_INT64:
    return b.getI64Type();
  case SLUICE_DTYPE_UINT8:
    return unsignedInt(8);
  case SLUICE_DTYPE_UINT16:
    return unsignedInt(16);
  case SLUICE_DTYPE_UINT32:
    return unsignedInt(32);
  case SLUICE_DTYPE_UINT64:
    return unsignedInt(64);
  case SLUICE_DTYPE_FLOAT16:
    return b.getF16Type();
  case SLUICE_DTYPE_FLOAT32:
    return b.getF32Type();
  case SLUICE_DTYPE_FLOAT64:
    return b.getF64Type();
  case SLUICE_DTYPE_COMPLEX64:
    return ComplexType::get(b.getF32Type());
  case SLUICE_DTYPE_COMPLEX128:
    return ComplexType::get(b.getF64Type());
  }
  return {};
}

capi::DiagnosticScope::DiagnosticScope(SluiceCompilerSession_ *s,
                                       SluiceCompilerInvocation_ *inv)
    : lock(s->mutex), session(s), invocation(inv) {
  if (invocation)
    invocation->errors.clear();
  handler = session->context.getDiagEngine().registerHandler(
      [this](Diagnostic &diag) {
        auto report = [&](Diagnostic &d) {
          SluiceDiagnosticSeverity severity;
          const char *word;
          switch (d.getSeverity()) {
          case DiagnosticSeverity::Error:
            severity = SLUICE_DIAGNOSTIC_ERROR;
            word = "error";
            break;
          case DiagnosticSeverity::Warning:
            severity = SLUICE_DIAGNOSTIC_WARNING;
            word = "warning";
            break;
          case DiagnosticSeverity::Note:
            severity = SLUICE_DIAGNOSTIC_NOTE;
            word = "note";
            break;
          default:
            severity = SLUICE_DIAGNOSTIC_REMARK;
            word = "remark";
            break;
          }
          std::string where = locationString(d.getLocation());
          std::string message = d.str();
          if (session->callback)
            session->callback(severity, where.c_str(), message.c_str(),
                              session->userData);
          std::string line =
              (where.empty() ? "" : where + ": ") + word + ": " + message;
          if (severity == SLUICE_DIAGNOSTIC_ERROR && first.empty())
            first = line;
          if (invocation && (severity == SLUICE_DIAGNOSTIC_ERROR ||
                             (severity == SLUICE_DIAGNOSTIC_NOTE &&
                              !invocation->errors.empty())))
            invocation->errors += line + "\n";
        };
        report(diag);
        for (Diagnostic &note : diag.getNotes())
          report(note);
        return success();
      });
}

capi::DiagnosticScope::~DiagnosticScope() {
  session->context.getDiagEngine().eraseHandler(handler);
}

void capi::DiagnosticScope::emitError(Location loc,
                                      const std::string &message) {
  mlir::emitError(loc) << message;
}

void sluice::capi::retainSession(SluiceCompilerSession_ *session) {
  std::lock_guard<std::recursive_mutex> lock(session->mutex);
  ++session->liveObjects;
}

void sluice::capi::releaseSession(SluiceCompilerSession_ *session) {
  {
    std::lock_guard<std::recursive_mutex> lock(session->mutex);
    if (--session->liveObjects > 0 || !session->destroyed)
      return;
  }
  delete session;
}

SluiceCompilerSession_::SluiceCompilerSession_()
    : context(
          [] {
            DialectRegistry registry;
            exec::registerCompilerDialects(registry);
            return registry;
          }(),
          MLIRContext::Threading::DISABLED) {
  context.loadAllAvailableDialects();
}

extern "C" {

uint32_t sluiceCompilerGetAPIVersion(void) {
  return SLUICE_COMPILER_API_VERSION;
}

const char *sluiceCompilerGetVersionString(void) {
  static const std::string version = exec::compilerVersion();
  return version.c_str();
}

const char *sluiceCompilerGetLastErrorMessage(void) {
  return lastError.c_str();
}

SluiceStatus sluiceCompilerSessionCreate(SluiceCompilerSession *session) {
  SLUICE_CAPI_CHECK(session, "session is NULL");
  *session = new SluiceCompilerSession_();
  (*session)->flagsText = compileFlagsText((*session)->options);
  return capi::succeed();
}

void sluiceCompilerSessionDestroy(SluiceCompilerSession session) {
  if (!session)
    return;
  {
    std::lock_guard<std::recursive_mutex> lock(session->mutex);
    session->destroyed = true;
    session->callback = nullptr;
    if (session->liveObjects > 0)
      return;
  }
  delete session;
}

void sluiceCompilerSessionSetDiagnosticCallback(
    SluiceCompilerSession session, SluiceDiagnosticCallback callback,
    void *userData) {
  if (!session)
    return;
  std::lock_guard<std::recursive_mutex> lock(session->mutex);
  session->callback = callback;
  session->userData = userData;
}

SluiceStatus sluiceCompilerSessionSetFlags(SluiceCompilerSession session,
                                           int argc, const char *const *argv) {
  SLUICE_CAPI_CHECK(session, "session is NULL");
  SLUICE_CAPI_CHECK(argc >= 0 && (argc == 0 || argv), "argv is NULL");
  capi::DiagnosticScope scope(session, nullptr);
  Location loc = UnknownLoc::get(&session->context);
  CompileOptions options = session->options;
  auto bad = [&](const std::string &message) {
    scope.emitError(loc, message);
    return capi::fail(SLUICE_ERROR_INVALID_VALUE, message);
  };
  for (int i = 0; i < argc; ++i) {
    if (!argv[i])
      return bad("flag " + std::to_string(i) + " is NULL");
    std::string error;
    if (!applyCompileFlag(argv[i], options, error))
      return bad(error);
    // The device must be a valid selector (it need not be present).
    llvm::StringRef flag(argv[i]);
    if (flag.starts_with("--device=") && !options.device.empty() &&
        options.device != "default") {
      char buffer[256];
      if (sluiceSelectorNormalize(options.device.c_str(), buffer,
                                  sizeof(buffer), nullptr) != SLUICE_SUCCESS)
        return bad(flag.str() + ": " + sluiceGetLastErrorMessage());
    }
  }
  session->options = options;
  session->flagsText = compileFlagsText(options);
  return capi::succeed();
}

SluiceStatus sluiceCompilerSessionGetFlags(SluiceCompilerSession session,
                                           const char **flags) {
  SLUICE_CAPI_CHECK(session && flags, "session or flags is NULL");
  std::lock_guard<std::recursive_mutex> lock(session->mutex);
  *flags = session->flagsText.c_str();
  return capi::succeed();
}

} // extern "C"
