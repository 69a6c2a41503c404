//===- OpenClError.h - OpenCL error codes as Sluice statuses ----*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_OPENCL_OPENCLERROR_H
#define SLUICE_LIB_RUNTIME_OPENCL_OPENCLERROR_H

#include "sluice-c/Runtime.h"

#include <CL/cl.h>
#include <string>

namespace sluice::rt::opencl {

/// "CL_INVALID_VALUE" and friends.
const char *clErrorName(cl_int error);
/// Fails with the status that fits `error`; the message names the call.
SluiceStatus clFail(cl_int error, const std::string &what);

} // namespace sluice::rt::opencl

#endif // SLUICE_LIB_RUNTIME_OPENCL_OPENCLERROR_H
