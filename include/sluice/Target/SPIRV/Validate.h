//===- Validate.h - In-process SPIR-V validation ----------------*- C++ -*-===//

#ifndef SLUICE_TARGET_SPIRV_VALIDATE_H
#define SLUICE_TARGET_SPIRV_VALIDATE_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>

namespace sluice {

/// Whether this build validates SPIR-V (it was built with SPIRV-Tools).
bool canValidateSPIRV();

/// Validates a SPIR-V binary for the OpenCL environment; on failure `log`
/// holds the validator's messages.
bool validateSPIRV(llvm::ArrayRef<uint32_t> words, std::string &log);

} // namespace sluice

#endif // SLUICE_TARGET_SPIRV_VALIDATE_H
