//===- OpenClError.cpp - OpenCL error codes as Sluice statuses ------------===//
#include "OpenClError.h"

#include "sluice/Runtime/ErrorState.h"

namespace sluice::rt::opencl {

const char *clErrorName(cl_int error) {
  switch (error) {
#define CASE(x)                                                                \
  case x:                                                                      \
    return #x;
    CASE(CL_SUCCESS)
    CASE(CL_DEVICE_NOT_FOUND)
    CASE(CL_DEVICE_NOT_AVAILABLE)
    CASE(CL_COMPILER_NOT_AVAILABLE)
    CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    CASE(CL_OUT_OF_RESOURCES)
    CASE(CL_OUT_OF_HOST_MEMORY)
    CASE(CL_PROFILING_INFO_NOT_AVAILABLE)
    CASE(CL_BUILD_PROGRAM_FAILURE)
    CASE(CL_INVALID_VALUE)
    CASE(CL_INVALID_DEVICE)
    CASE(CL_INVALID_CONTEXT)
    CASE(CL_INVALID_COMMAND_QUEUE)
    CASE(CL_INVALID_BINARY)
    CASE(CL_INVALID_BUILD_OPTIONS)
    CASE(CL_INVALID_PROGRAM)
    CASE(CL_INVALID_PROGRAM_EXECUTABLE)
    CASE(CL_INVALID_KERNEL_NAME)
    CASE(CL_INVALID_KERNEL)
    CASE(CL_INVALID_ARG_INDEX)
    CASE(CL_INVALID_ARG_VALUE)
    CASE(CL_INVALID_ARG_SIZE)
    CASE(CL_INVALID_KERNEL_ARGS)
    CASE(CL_INVALID_WORK_DIMENSION)
    CASE(CL_INVALID_WORK_GROUP_SIZE)
    CASE(CL_INVALID_WORK_ITEM_SIZE)
    CASE(CL_INVALID_GLOBAL_OFFSET)
    CASE(CL_INVALID_EVENT_WAIT_LIST)
    CASE(CL_INVALID_EVENT)
    CASE(CL_INVALID_OPERATION)
    CASE(CL_INVALID_BUFFER_SIZE)
    CASE(CL_INVALID_GLOBAL_WORK_SIZE)
    CASE(CL_INVALID_PROPERTY)
    CASE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
#undef CASE
  case -1001:
    return "CL_PLATFORM_NOT_FOUND_KHR";
  default:
    return "CL_UNKNOWN_ERROR";
  }
}

SluiceStatus clFail(cl_int error, const std::string &what) {
  SluiceStatus status = SLUICE_ERROR_BACKEND;
  if (error == CL_OUT_OF_HOST_MEMORY)
    status = SLUICE_ERROR_OUT_OF_HOST_MEMORY;
  else if (error == CL_MEM_OBJECT_ALLOCATION_FAILURE ||
           error == CL_OUT_OF_RESOURCES)
    status = SLUICE_ERROR_OUT_OF_DEVICE_MEMORY;
  return fail(status, "OpenCL: " + what + " failed with " + clErrorName(error) +
                          " (" + std::to_string(error) + ")");
}

} // namespace sluice::rt::opencl
