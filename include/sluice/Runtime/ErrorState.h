//===- ErrorState.h - Thread-local last-error message -----------*- C++ -*-===//
#ifndef SLUICE_RUNTIME_ERRORSTATE_H
#define SLUICE_RUNTIME_ERRORSTATE_H

#include "sluice-c/Runtime.h"

#include <string>

namespace sluice::rt {

/// Records `message` as this thread's last error and returns `status`, so
/// failures read `return fail(SLUICE_ERROR_..., "what went wrong");`.
SluiceStatus fail(SluiceStatus status, std::string message);
const std::string &lastErrorMessage();

/// The build log of the last failed module build on this thread.
void setLastBuildLog(std::string log);
const std::string &lastBuildLog();

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_ERRORSTATE_H
