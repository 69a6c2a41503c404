//===- CudaBlas.h - cuBLAS, loaded at run time ------------------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_CUDA_CUDABLAS_H
#define SLUICE_LIB_RUNTIME_CUDA_CUDABLAS_H

#include "CudaDriver.h"

#include "sluice/Runtime/Queue.h"

#include <string>

namespace sluice::rt::cuda {

/// A cuBLAS handle bound to one stream (the context current when made).
struct BlasHandle;

/// Makes a handle for `stream` (the stream's context current), loading
/// cuBLAS on first use ($SLUICE_CUBLAS, else libcublas.so.13, .12, .11).
SluiceStatus createBlasHandle(CUstream stream, BlasHandle *&out);

/// Enqueues `desc` on the handle's stream (the context current): one
/// cublasGemmStridedBatchedEx. Float32 products use full fp32 arithmetic
/// unless desc.precision asks for TF32 or bf16 tensor cores. Returns 0, or
/// the cuBLAS status with `why` set.
int enqueueMatmul(BlasHandle &handle, const MatmulDesc &desc, std::string &why);

} // namespace sluice::rt::cuda

#endif // SLUICE_LIB_RUNTIME_CUDA_CUDABLAS_H
