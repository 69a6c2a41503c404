//===- HostBlas.h - Matrix products on the host through BLAS ----*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_HOST_HOSTBLAS_H
#define SLUICE_LIB_RUNTIME_HOST_HOSTBLAS_H

#include "sluice/Runtime/Queue.h"

#include <string>

namespace sluice::rt::host {

/// Computes `desc` on the calling thread: the GEMM of the BLAS library
/// loaded at first use (see HostBlas.cpp), or plain loops where none is
/// found. Returns "" on success, else what went wrong.
std::string runMatmul(const MatmulDesc &desc);

/// The library serving host products ("" for the built-in loops): the path
/// dlopen took and its symbol scheme, for `sluice-ls --verbose` and tests.
std::string blasLibraryName();

} // namespace sluice::rt::host

#endif // SLUICE_LIB_RUNTIME_HOST_HOSTBLAS_H
