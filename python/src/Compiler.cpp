//===- Compiler.cpp - The compiler C API for Python -----------------------===//
//
// One compiler session for the process; compiles are serialised on it and
// run without the GIL. Failures come back as data (diagnostics with their
// locations) and sluice/_compiler.py chooses the exception.
//
//===----------------------------------------------------------------------===//
#include "Compiler.h"
#include "Errors.h"

#include "sluice-c/Compiler.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <mutex>

namespace nb = nanobind;

namespace sluice::py {

namespace {

struct Diagnostic {
  int severity;
  std::string location, message;
};

struct Session {
  SluiceCompilerSession session = nullptr;
  std::mutex mutex;
  std::vector<Diagnostic> diagnostics;
};

void onDiagnostic(SluiceDiagnosticSeverity severity, const char *location,
                  const char *message, void *userData) {
  auto *s = static_cast<Session *>(userData);
  s->diagnostics.push_back({static_cast<int>(severity),
                            location ? location : "", message ? message : ""});
}

/// Session 0 compiles what a caller waits for; session 1 writes cache
/// artifacts in the background, so the two never wait for each other.
Session &session(int index) {
  static std::mutex mutex;
  static Session *sessions[2] = {nullptr, nullptr};
  if (index < 0 || index > 1)
    throw Error(ErrorKind::Value,
                "no compiler session " + std::to_string(index));
  std::lock_guard<std::mutex> lock(mutex);
  if (!sessions[index]) {
    auto *s = new Session; // lives as long as the process
    if (sluiceCompilerSessionCreate(&s->session) != SLUICE_SUCCESS) {
      delete s;
      throw Error(ErrorKind::Compile,
                  std::string("cannot create a compiler session: ") +
                      sluiceCompilerGetLastErrorMessage());
    }
    sluiceCompilerSessionSetDiagnosticCallback(s->session, onDiagnostic, s);
    sessions[index] = s;
  }
  return *sessions[index];
}

nb::list diagnosticsList(const std::vector<Diagnostic> &diags) {
  nb::list out;
  for (const Diagnostic &d : diags)
    out.append(nb::make_tuple(d.severity, d.location, d.message));
  return out;
}

/// Entry points are handed out as addresses that arrays' tasks may call at
/// any time, so executables are kept for the life of the process (the
/// header promises their code stays mapped, but destroying a JIT executable
/// unmaps it in this version).
void keepAlive(SluiceExecutable exe) {
  static std::mutex mutex;
  static auto *kept = new std::vector<SluiceExecutable>;
  std::lock_guard<std::mutex> lock(mutex);
  kept->push_back(exe);
}

/// Owns an invocation for one compile.
struct InvocationGuard {
  SluiceCompilerInvocation inv = nullptr;
  ~InvocationGuard() { sluiceCompilerInvocationDestroy(inv); }
};

} // namespace

nb::dict compileProgram(const std::string &text, const std::string &bufferName,
                        const std::vector<std::string> &flags,
                        const std::string &entryName,
                        const std::vector<int> &captureStages, bool jit,
                        const std::string &artifactPath, int sessionIndex) {
  Session &s = session(sessionIndex);
  nb::dict out;
  std::vector<Diagnostic> diags;
  std::string errors, signatures, failure;
  std::vector<std::pair<int, std::string>> irs;
  uintptr_t entry = 0;
  bool ok = false;
  {
    nb::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(s.mutex);
    s.diagnostics.clear();
    std::vector<const char *> argv;
    for (const std::string &f : flags)
      argv.push_back(f.c_str());
    InvocationGuard g;
    auto fail = [&](const char *what) {
      failure = what;
      const char *last = sluiceCompilerGetLastErrorMessage();
      if (last && *last)
        failure += std::string(": ") + last;
      if (g.inv)
        errors = sluiceCompilerInvocationGetErrors(g.inv);
    };
    do {
      if (sluiceCompilerSessionSetFlags(s.session,
                                        static_cast<int>(argv.size()),
                                        argv.data()) != SLUICE_SUCCESS) {
        fail("bad compiler flags");
        break;
      }
      if (sluiceCompilerInvocationCreate(s.session, &g.inv) != SLUICE_SUCCESS) {
        fail("cannot create a compiler invocation");
        break;
      }
      if (sluiceCompilerInvocationParseSource(g.inv, text.data(), text.size(),
                                              bufferName.c_str()) !=
          SLUICE_SUCCESS) {
        fail("the program does not parse");
        break;
      }
      // Signatures are read at the fused stage, before anything later.
      std::vector<int> stages = captureStages;
      std::sort(stages.begin(), stages.end());
      bool failed = false;
      bool haveSignatures = false;
      auto runTo = [&](int stage) {
        if (sluiceCompilerInvocationGetStage(g.inv) >= stage)
          return true;
        if (sluiceCompilerInvocationRunPipeline(
                g.inv, static_cast<SluiceCompileStage>(stage)) !=
            SLUICE_SUCCESS) {
          fail("compilation failed");
          return false;
        }
        return true;
      };
      auto readSignatures = [&] {
        if (!runTo(SLUICE_STAGE_FUSED))
          return false;
        const char *sig = nullptr;
        size_t len = 0;
        if (sluiceCompilerInvocationGetSignatures(g.inv, &sig, &len) ==
            SLUICE_SUCCESS)
          signatures.assign(sig, len);
        haveSignatures = true;
        return true;
      };
      for (int stage : stages) {
        if (stage > SLUICE_STAGE_FUSED && !haveSignatures &&
            !readSignatures()) {
          failed = true;
          break;
        }
        if (!runTo(stage)) {
          failed = true;
          break;
        }
        const char *ir = nullptr;
        size_t len = 0;
        if (sluiceCompilerInvocationGetIR(g.inv, 1, &ir, &len) ==
            SLUICE_SUCCESS)
          irs.emplace_back(stage, std::string(ir, len));
      }
      if (failed || (!haveSignatures && !readSignatures()))
        break;
      if (jit) {
        SluiceExecutable exe = nullptr;
        if (sluiceCompilerInvocationCreateExecutable(g.inv, &exe) !=
            SLUICE_SUCCESS) {
          fail("compilation failed");
          break;
        }
        SluiceEntryPoint fn = nullptr;
        SluiceStatus st = sluiceExecutableLookup(
            exe, entryName.empty() ? nullptr : entryName.c_str(), &fn);
        if (st != SLUICE_SUCCESS) {
          sluiceExecutableDestroy(exe);
          fail("no entry point");
          break;
        }
        keepAlive(exe);
        entry = reinterpret_cast<uintptr_t>(fn);
      }
      if (!artifactPath.empty() && sluiceCompilerInvocationWriteArtifact(
                                       g.inv, artifactPath.c_str(), nullptr,
                                       nullptr) != SLUICE_SUCCESS) {
        fail("cannot write the artifact");
        break;
      }
      ok = true;
    } while (false);
    diags = std::move(s.diagnostics);
    s.diagnostics.clear();
  }
  out["ok"] = ok;
  out["failure"] = failure;
  out["errors"] = errors;
  out["diagnostics"] = diagnosticsList(diags);
  out["signatures"] = signatures;
  out["entry"] = entry;
  nb::dict irDict;
  for (auto &[stage, ir] : irs)
    irDict[nb::int_(stage)] = ir;
  out["ir"] = irDict;
  return out;
}

std::string compilerVersion() { return sluiceCompilerGetVersionString(); }

nanobind::dict compileStages() {
  nanobind::dict stages;
  for (int s = SLUICE_STAGE_INPUT; s <= SLUICE_STAGE_LLVM; ++s)
    stages[sluiceCompileStageName(static_cast<SluiceCompileStage>(s))] = s;
  return stages;
}

} // namespace sluice::py
