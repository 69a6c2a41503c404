//===- KernelObjectCache.h - Compiled CUDA kernel modules by content ------===//
//
// PTX generation (LLVM's NVPTX back end, libdevice linked) is most of a
// CUDA program's compile time, and the same kernels recur: a program traced
// again, the artifact the Python layer writes in the background after a JIT
// compile of the same program, other programs and processes with the same
// kernels. The compiled object of a kernel module is kept by the SHA-256 of
// everything that determines it (the module's text, chip, features,
// optimisation level, toolkit and LLVM version), in memory for the process
// and on disk under `$SLUICE_CACHE_DIR/ptx` (the Python layer's cache
// directory: default `$XDG_CACHE_HOME/sluice`, else `~/.cache/sluice`;
// `SLUICE_CACHE_DIR=off` keeps it in memory only). `SLUICE_KERNEL_CACHE=off`
// turns both off. A damaged or unreadable entry is a miss, never an error.
// The disk cache holds at most `SLUICE_KERNEL_CACHE_LIMIT` bytes (default
// 256 MiB; 0: no limit): a store past it removes the least recently used
// entries (a hit renews an entry's modification time).
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_LIB_TARGET_NVVM_KERNELOBJECTCACHE_H
#define SLUICE_LIB_TARGET_NVVM_KERNELOBJECTCACHE_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace sluice::nvvm {

/// Whether the cache is on (SLUICE_KERNEL_CACHE is not off).
bool kernelCacheEnabled();

/// The key of a kernel module: a hex SHA-256 of the parts.
std::string kernelCacheKey(llvm::ArrayRef<llvm::StringRef> parts);

/// The object (a `#gpu.object` attribute) stored under `key`, from memory
/// or disk, or null.
mlir::Attribute lookupKernelObject(mlir::MLIRContext *ctx, llvm::StringRef key);

/// Stores `object` under `key` in memory and, where there is a cache
/// directory, on disk (best effort).
void storeKernelObject(llvm::StringRef key, mlir::Attribute object);

} // namespace sluice::nvvm

#endif // SLUICE_LIB_TARGET_NVVM_KERNELOBJECTCACHE_H
