//===- CAPISupport.h - The objects behind sluice-c/Compiler.h ---*- C++ -*-===//
//
// Definitions of the opaque handles of the compiler's C API and the helpers
// every entry point uses: the session lock, diagnostics routed to the
// session's callback and kept by the invocation, and the per-thread message
// of the last failure.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_LIB_CAPI_CAPISUPPORT_H
#define SLUICE_LIB_CAPI_CAPISUPPORT_H

#include "sluice-c/Compiler.h"

#include "sluice/Execution/Artifact.h"
#include "sluice/Execution/Compiler.h"
#include "sluice/Pipelines/CompileOptions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

struct SluiceCompilerSession_ {
  SluiceCompilerSession_();
  std::recursive_mutex mutex;
  mlir::MLIRContext context;
  /// Pass managers of the program pipeline by options and stages, built once
  /// (see runPipeline in Invocation.cpp); destroyed before the context.
  std::map<std::string, std::unique_ptr<mlir::PassManager>> pipelines;
  SluiceDiagnosticCallback callback = nullptr;
  void *userData = nullptr;
  /// Set by sluiceCompilerSessionSetFlags.
  sluice::CompileOptions options;
  std::string flagsText;
  /// Invocations and builders not destroyed yet: a destroyed session lives
  /// on until the last of them goes.
  int liveObjects = 0;
  bool destroyed = false;
};

struct SluiceCompilerInvocation_ {
  explicit SluiceCompilerInvocation_(SluiceCompilerSession_ *s) : session(s) {}
  SluiceCompilerSession_ *session;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  SluiceCompileStage stage = SLUICE_STAGE_INPUT;
  /// A pipeline failed: the module is in whatever state the pass left it.
  bool broken = false;
  bool haveSignatures = false;
  std::vector<sluice::exec::EntrySignature> signatures;
  /// Binaries seen at SLUICE_STAGE_BINARIES (they become globals later).
  std::vector<std::string> binaryNames, binaryData;
  std::vector<int32_t> binaryFormats;
  bool haveBinaries = false;
  /// Storage for strings handed out.
  std::string irText, errors, signatureText, hostOutput;
  /// Builders of this invocation not destroyed yet (a destroyed invocation
  /// lives on until the last goes), and functions they are building.
  int liveBuilders = 0;
  int openFunctions = 0;
  bool destroyed = false;
};

struct SluiceBuilder_ {
  explicit SluiceBuilder_(SluiceCompilerInvocation_ *inv)
      : invocation(inv), builder(&inv->session->context),
        location(mlir::UnknownLoc::get(&inv->session->context)) {}
  SluiceCompilerInvocation_ *invocation;
  mlir::OpBuilder builder;
  mlir::Location location;
  mlir::func::FuncOp function;
  std::string typeText;
};

struct SluiceExecutable_ {
  std::unique_ptr<sluice::exec::JitProgram> jit;
  std::unique_ptr<sluice::exec::Artifact> artifact;
  std::vector<sluice::exec::EntrySignature> signatures;
  std::vector<std::string> signatureText;
};

namespace sluice::capi {

/// Records `message` as this thread's last failure and returns `status`.
SluiceStatus fail(SluiceStatus status, const std::string &message);
/// Clears this thread's last failure and returns SLUICE_SUCCESS.
SluiceStatus succeed();

/// Counts an object of the session in or out (deleting a destroyed session
/// when its last object goes).
void retainSession(SluiceCompilerSession_ *session);
void releaseSession(SluiceCompilerSession_ *session);

/// While alive: the session is locked, its diagnostics go to its callback
/// and, for errors, to `invocation->errors` (when given), which starts
/// empty. `firstError()` is the text of the first error seen.
class DiagnosticScope {
public:
  DiagnosticScope(SluiceCompilerSession_ *session,
                  SluiceCompilerInvocation_ *invocation);
  ~DiagnosticScope();
  const std::string &firstError() const { return first; }
  /// `message`, followed by ": " and the first error when there was one.
  std::string withFirstError(const std::string &message) const {
    return first.empty() ? message : message + ": " + first;
  }
  /// Reports an error at `loc` through the handler.
  void emitError(mlir::Location loc, const std::string &message);

private:
  std::lock_guard<std::recursive_mutex> lock;
  SluiceCompilerSession_ *session;
  SluiceCompilerInvocation_ *invocation;
  mlir::DiagnosticEngine::HandlerID handler;
  std::string first;
};

/// "file:line:col" of the first file location inside `loc`, or "".
std::string locationString(mlir::Location loc);

/// The MLIR element type of a SluiceDType (null for a bad value).
mlir::Type elementType(mlir::MLIRContext *ctx, SluiceDType dtype);

} // namespace sluice::capi

#define SLUICE_CAPI_CHECK(cond, what)                                          \
  do {                                                                         \
    if (!(cond))                                                               \
      return ::sluice::capi::fail(SLUICE_ERROR_INVALID_VALUE,                  \
                                  std::string(__func__) + ": " + (what));      \
  } while (false)

/// Refuses calls that need the invocation's module whole while a builder is
/// in the middle of a function.
#define SLUICE_CAPI_CHECK_NOT_BUILDING(invocation)                             \
  SLUICE_CAPI_CHECK((invocation)->openFunctions == 0,                          \
                    "a function is being built (finish it with "               \
                    "sluiceBuilderReturn first)")

#endif // SLUICE_LIB_CAPI_CAPISUPPORT_H
