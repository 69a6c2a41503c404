//===- ZeError.cpp - Level Zero results as Sluice statuses ----------------===//
#include "ZeError.h"

#include "sluice/Runtime/ErrorState.h"

#include <cstdio>

namespace sluice::rt::level_zero {

const char *zeResultName(ze_result_t result) {
  switch (result) {
#define CASE(x)                                                                \
  case x:                                                                      \
    return #x;
    CASE(ZE_RESULT_SUCCESS)
    CASE(ZE_RESULT_NOT_READY)
    CASE(ZE_RESULT_ERROR_DEVICE_LOST)
    CASE(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)
    CASE(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
    CASE(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE)
    CASE(ZE_RESULT_ERROR_MODULE_LINK_FAILURE)
    CASE(ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET)
    CASE(ZE_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE)
    CASE(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS)
    CASE(ZE_RESULT_ERROR_NOT_AVAILABLE)
    CASE(ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE)
    CASE(ZE_RESULT_ERROR_UNINITIALIZED)
    CASE(ZE_RESULT_ERROR_UNSUPPORTED_VERSION)
    CASE(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
    CASE(ZE_RESULT_ERROR_INVALID_ARGUMENT)
    CASE(ZE_RESULT_ERROR_INVALID_NULL_HANDLE)
    CASE(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE)
    CASE(ZE_RESULT_ERROR_INVALID_NULL_POINTER)
    CASE(ZE_RESULT_ERROR_INVALID_SIZE)
    CASE(ZE_RESULT_ERROR_UNSUPPORTED_SIZE)
    CASE(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT)
    CASE(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT)
    CASE(ZE_RESULT_ERROR_INVALID_ENUMERATION)
    CASE(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION)
    CASE(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY)
    CASE(ZE_RESULT_ERROR_INVALID_KERNEL_NAME)
    CASE(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION)
    CASE(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX)
    CASE(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE)
    CASE(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED)
    CASE(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE)
    CASE(ZE_RESULT_ERROR_OVERLAPPING_REGIONS)
    CASE(ZE_RESULT_ERROR_UNKNOWN)
#undef CASE
  default:
    return "an unknown ze_result_t";
  }
}

SluiceStatus zeFail(ze_result_t result, const std::string &what) {
  SluiceStatus status = SLUICE_ERROR_BACKEND;
  switch (result) {
  case ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY:
    status = SLUICE_ERROR_OUT_OF_HOST_MEMORY;
    break;
  case ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY:
    status = SLUICE_ERROR_OUT_OF_DEVICE_MEMORY;
    break;
  case ZE_RESULT_ERROR_UNSUPPORTED_FEATURE:
  case ZE_RESULT_ERROR_UNSUPPORTED_SIZE:
  case ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT:
  case ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION:
    status = SLUICE_ERROR_UNSUPPORTED;
    break;
  default:
    break;
  }
  char code[16];
  std::snprintf(code, sizeof code, "0x%x", static_cast<unsigned>(result));
  return fail(status, "Level Zero: " + what + " failed with " +
                          zeResultName(result) + " (" + code + ")");
}

SluiceStatus shutDownFailure() {
  return fail(SLUICE_ERROR_BACKEND,
              "Level Zero: the backend has shut down (the process is exiting)");
}

} // namespace sluice::rt::level_zero
