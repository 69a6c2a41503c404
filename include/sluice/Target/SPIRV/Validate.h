//===- Validate.h - In-process SPIR-V validation ----------------*- C++ -*-===//

#ifndef SLUICE_TARGET_SPIRV_VALIDATE_H
#define SLUICE_TARGET_SPIRV_VALIDATE_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>

namespace sluice {

/// Whether this build validates SPIR-V (it was built with SPIRV-Tools).
bool canValidateSPIRV();

/// Validates a SPIR-V binary for the OpenCL 2.0 environment, or, with
/// `extensions`, for SPIRV-Tools' universal environment: its OpenCL
/// environment rejects the Float16 and Int64Atomics capabilities, which
/// OpenCL grants by extensions (cl_khr_fp16, cl_khr_int64_base_atomics)
/// that the validator does not model (the runtime checks that the device
/// has them). On failure `log` holds the validator's messages.
bool validateSPIRV(llvm::ArrayRef<uint32_t> words, std::string &log,
                   bool extensions = false);

} // namespace sluice

#endif // SLUICE_TARGET_SPIRV_VALIDATE_H
