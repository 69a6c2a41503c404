//===- ErrorState.cpp - Thread-local last-error message -------------------===//
#include "sluice/Runtime/ErrorState.h"

namespace sluice::rt {

namespace {
thread_local std::string lastError;
thread_local std::string buildLog;
} // namespace

SluiceStatus fail(SluiceStatus status, std::string message) {
  lastError = std::move(message);
  return status;
}

const std::string &lastErrorMessage() { return lastError; }

void setLastBuildLog(std::string log) { buildLog = std::move(log); }

const std::string &lastBuildLog() { return buildLog; }

} // namespace sluice::rt
