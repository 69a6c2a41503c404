//===- InProcessLinker.h - Linking artifacts in process --------*- C++ -*-===//
//
// The self-contained build (SLUICE_STATIC_LLVM, the Python wheel) links
// LLD's ELF driver into the compiler, so writing an artifact needs no C
// compiler or linker on the machine: the shared object is linked in process
// against the runtime and the C and math libraries this process has loaded.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_EXECUTION_INPROCESSLINKER_H
#define SLUICE_EXECUTION_INPROCESSLINKER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace sluice::exec {

/// The name of the in-process linker for ArtifactOptions::linker.
inline constexpr const char *kBuiltinLinker = "builtin";

/// True when this build carries LLD.
bool hasInProcessLinker();

/// What an empty ArtifactOptions::linker means: kBuiltinLinker where this
/// build carries LLD, else "cc".
std::string defaultLinker();

/// Links `object` into the shared object `output` against
/// `runtimeDir`/libsluice-runtime.so (also the run path), libc, libm,
/// libgcc_s and, where present, libmvec. A failure returns LLD's messages.
llvm::Error linkSharedObjectInProcess(llvm::StringRef object,
                                      llvm::StringRef output,
                                      llvm::StringRef runtimeDir);

} // namespace sluice::exec

#endif // SLUICE_EXECUTION_INPROCESSLINKER_H
