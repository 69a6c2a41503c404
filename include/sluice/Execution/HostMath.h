//===- HostMath.h - Vector math library of host kernels ---------*- C++ -*-===//
//
// Host kernels call math functions as LLVM intrinsics or libm names; the
// loop vectoriser turns those calls into calls of a vector math library's
// variants where the target library info maps them. The library is glibc's
// libmvec (part of every x86-64 glibc, so artifacts run wherever the runtime
// does); HostVectorMath.def lists the functions. docs/accuracy.md says why
// and gives the measured error of each function.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_EXECUTION_HOSTMATH_H
#define SLUICE_EXECUTION_HOSTMATH_H

#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace llvm {
class Module;
class TargetLibraryInfoImpl;
class TargetMachine;
} // namespace llvm

namespace sluice::exec {

/// Whether float64 functions are vectorised too. They are not: glibc's
/// scalar double functions are within 1 ulp (and are what NumPy uses),
/// libmvec's double variants up to 3.3 ulp (docs/accuracy.md).
inline constexpr bool kVectorizeDoubleMath = false;

/// Adds the vector variants of the math functions that `tm`'s CPU can run
/// and this process can resolve to `tli`. Returns false when none were
/// added (not x86-64, or no libmvec).
bool addHostVectorMath(llvm::TargetLibraryInfoImpl &tli,
                       const llvm::TargetMachine &tm);

/// Linker arguments that artifacts need for the functions above (empty when
/// none are used on this machine).
std::vector<std::string> hostVectorMathLinkArgs();

/// The LLVM optimisation pipeline at `optLevel` for `tm`, with the vector
/// math library in its target library info (replaces MLIR's
/// makeOptimizingTransformer, which has no way to add one).
std::function<llvm::Error(llvm::Module *)>
makeHostOptimizingTransformer(unsigned optLevel, llvm::TargetMachine *tm);

} // namespace sluice::exec

#endif // SLUICE_EXECUTION_HOSTMATH_H
