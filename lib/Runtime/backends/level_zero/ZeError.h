//===- ZeError.h - Level Zero results as Sluice statuses --------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZEERROR_H
#define SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZEERROR_H

#include "sluice-c/Runtime.h"

#include <level_zero/ze_api.h>
#include <string>

namespace sluice::rt::level_zero {

/// "ZE_RESULT_ERROR_INVALID_ARGUMENT" and friends.
const char *zeResultName(ze_result_t result);
/// Fails with the status that fits `result`; the message names the call.
SluiceStatus zeFail(ze_result_t result, const std::string &what);
/// The failure of any call made after the backend shut down (process exit).
SluiceStatus shutDownFailure();

} // namespace sluice::rt::level_zero

#endif // SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZEERROR_H
