//===- SpirvCapabilities.h - What SPIR-V asks of a device -------*- C++ -*-===//
//
// Internal to the runtime: the OpCapability declarations of a SPIR-V binary,
// so that a backend can refuse a module its device cannot run with a clear
// message instead of a driver's build failure.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_RUNTIME_SPIRVCAPABILITIES_H
#define SLUICE_RUNTIME_SPIRVCAPABILITIES_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sluice::rt {

/// SPIR-V capability numbers the runtime checks.
enum class SpirvCapability : uint32_t {
  Float16 = 9,
  Float64 = 10,
  Int64 = 11,
  Int64Atomics = 12,
};

/// The capabilities `bytes` declares (either byte order); empty for what is
/// not a SPIR-V binary.
std::vector<uint32_t> spirvCapabilities(const void *bytes, size_t size);

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_SPIRVCAPABILITIES_H
