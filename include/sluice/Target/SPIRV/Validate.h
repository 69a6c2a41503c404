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
/// `float16`, for SPIRV-Tools' universal environment (its OpenCL environment
/// rejects the Float16 capability, which OpenCL grants by an extension,
/// cl_khr_fp16, that the validator does not model). On failure `log` holds
/// the validator's messages.
bool validateSPIRV(llvm::ArrayRef<uint32_t> words, std::string &log,
                   bool float16 = false);

} // namespace sluice

#endif // SLUICE_TARGET_SPIRV_VALIDATE_H
