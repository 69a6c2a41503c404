//===- SpirvTranslator.h - SPIR-V to SPIR 1.2 via llvm-spirv ----*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_OPENCL_SPIRVTRANSLATOR_H
#define SLUICE_LIB_RUNTIME_OPENCL_SPIRVTRANSLATOR_H

#include "sluice-c/Runtime.h"

#include <string>
#include <vector>

namespace sluice::rt::opencl {

/// The translator to run: $SLUICE_LLVM_SPIRV, else the llvm-spirv found at
/// build time, else "" (no translation possible).
std::string spirvTranslatorPath();

/// Runs `llvm-spirv -r` on a SPIR-V module, producing SPIR 1.2 bitcode for
/// OpenCL drivers that take no SPIR-V IL. On failure returns
/// SLUICE_ERROR_BUILD_FAILED (or UNSUPPORTED without a translator) with the
/// translator's output in `log`.
SluiceStatus translateSpirvToSpir(const void *bytes, size_t size,
                                  std::vector<char> &bitcode, std::string &log);

} // namespace sluice::rt::opencl

#endif // SLUICE_LIB_RUNTIME_OPENCL_SPIRVTRANSLATOR_H
