//===- CudaBlas.cpp - cuBLAS, loaded at run time --------------------------===//
//
// Like the driver (CudaDriver.cpp), cuBLAS is found with dlopen when the
// first product runs, so builds need no CUDA toolkit library and machines
// without one still run every other product (the compiler then keeps the
// generated kernels). The declarations below are the few values of
// cublas_api.h and library_types.h that are used.
//
// Row-major products map onto column-major cuBLAS by swapping the operands:
// C = A B (row-major) is C^T = B^T A^T (column-major), so the call passes B
// first with n and m exchanged; the leading dimensions stay.
//
//===----------------------------------------------------------------------===//

#include "CudaBlas.h"

#include "sluice/Runtime/ErrorState.h"

#include <algorithm>
#include <climits>
#include <complex>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace sluice::rt::cuda {

namespace {

using cublasHandle_t = struct cublasContext *;
using cublasStatus_t = int;
constexpr int kOpN = 0, kOpT = 1;                         // cublasOperation_t
constexpr int kR32F = 0, kR64F = 1, kC32F = 4, kC64F = 5; // cudaDataType
constexpr int kCompute32F = 68, kCompute32FFastBF16 = 75,
              kCompute32FFastTF32 = 77, kCompute64F = 70; // cublasComputeType_t
constexpr int kGemmDefault = -1;                          // cublasGemmAlgo_t

struct Cublas {
  std::string why; // empty once loaded
  cublasStatus_t (*create)(cublasHandle_t *) = nullptr;
  cublasStatus_t (*setStream)(cublasHandle_t, CUstream) = nullptr;
  // Optional (cuBLAS 11+): a workspace of the caller's.
  cublasStatus_t (*setWorkspace)(cublasHandle_t, void *, size_t) = nullptr;
  cublasStatus_t (*gemm)(cublasHandle_t, int, int, int, int, int, const void *,
                         const void *, int, int, long long, const void *, int,
                         int, long long, const void *, void *, int, int,
                         long long, int, int, int) = nullptr;
};

const Cublas &cublas() {
  static Cublas *lib = [] {
    auto *c = new Cublas(); // never destroyed: handles outlive exit
    std::vector<std::string> names;
    if (const char *env = std::getenv("SLUICE_CUBLAS"); env && *env)
      names.push_back(env);
    else
      names = {"libcublas.so.13", "libcublas.so.12", "libcublas.so.11",
               "libcublas.so"};
    void *h = nullptr;
    for (const std::string &name : names)
      if ((h = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)))
        break;
    if (!h) {
      c->why = "cuBLAS cannot be loaded (tried " + names.front() +
               (names.size() > 1 ? " and others" : "") +
               "; set SLUICE_CUBLAS to its path)";
      return c;
    }
    c->create =
        reinterpret_cast<decltype(c->create)>(::dlsym(h, "cublasCreate_v2"));
    c->setStream = reinterpret_cast<decltype(c->setStream)>(
        ::dlsym(h, "cublasSetStream_v2"));
    c->gemm = reinterpret_cast<decltype(c->gemm)>(
        ::dlsym(h, "cublasGemmStridedBatchedEx"));
    c->setWorkspace = reinterpret_cast<decltype(c->setWorkspace)>(
        ::dlsym(h, "cublasSetWorkspace_v2"));
    if (!c->create || !c->setStream || !c->gemm)
      c->why = "cuBLAS lacks cublasCreate_v2, cublasSetStream_v2 or "
               "cublasGemmStridedBatchedEx";
    return c;
  }();
  return *lib;
}

/// The workspace each handle gets ($SLUICE_CUBLAS_WORKSPACE, in MiB; 0
/// leaves cuBLAS's own): 32 MiB, what cuBLAS advises for Hopper, where a
/// smaller one rules out some of its kernels (split-K among them).
size_t workspaceBytes() {
  static const size_t bytes = [] {
    const char *env = std::getenv("SLUICE_CUBLAS_WORKSPACE");
    long mib = env && *env ? std::strtol(env, nullptr, 10) : 32;
    return size_t(std::clamp<long>(mib, 0, 4096)) << 20;
  }();
  return bytes;
}

} // namespace

struct BlasHandle {
  cublasHandle_t handle = nullptr;
};

SluiceStatus createBlasHandle(CUstream stream, BlasHandle *&out) {
  const Cublas &c = cublas();
  if (!c.why.empty())
    return fail(SLUICE_ERROR_UNSUPPORTED, c.why);
  auto *h = new BlasHandle();
  if (cublasStatus_t s = c.create(&h->handle)) {
    delete h;
    return fail(SLUICE_ERROR_BACKEND,
                "cublasCreate failed with status " + std::to_string(s));
  }
  if (cublasStatus_t s = c.setStream(h->handle, stream)) {
    delete h;
    return fail(SLUICE_ERROR_BACKEND,
                "cublasSetStream failed with status " + std::to_string(s));
  }
  // The workspace lives as long as the handle (the queue's, for good).
  // Where it cannot be had, cuBLAS keeps its own.
  CUdeviceptr space = 0;
  if (size_t bytes = workspaceBytes();
      bytes && c.setWorkspace && cu().cuMemAlloc(&space, bytes) == CUDA_SUCCESS)
    if (c.setWorkspace(h->handle, reinterpret_cast<void *>(space), bytes))
      cu().cuMemFree(space);
  out = h;
  return SLUICE_SUCCESS;
}

int enqueueMatmul(BlasHandle &handle, const MatmulDesc &d, std::string &why) {
  // The column-major view of a row-major rows x cols operand: op N with
  // ld = row stride when its columns are contiguous, op T when its rows
  // are.
  auto layout = [](uint64_t rows, uint64_t cols, int64_t rowStride,
                   int64_t colStride, int &op, int64_t &ld) {
    if (colStride == 1 || cols <= 1) {
      op = kOpN;
      ld = std::max<int64_t>({rowStride, int64_t(cols), 1});
      return true;
    }
    if (rowStride == 1 || rows <= 1) {
      op = kOpT;
      ld = std::max<int64_t>({colStride, int64_t(rows), 1});
      return true;
    }
    return false;
  };
  int opA, opB;
  int64_t lda, ldb, ldc = std::max<int64_t>({d.cRow, int64_t(d.n), 1});
  if (!layout(d.m, d.k, d.aRow, d.aCol, opA, lda) ||
      !layout(d.k, d.n, d.bRow, d.bCol, opB, ldb)) {
    why = "cuBLAS: an operand has neither unit row nor unit column stride";
    return -1;
  }
  for (uint64_t v :
       {d.m, d.n, d.k, d.batch, uint64_t(lda), uint64_t(ldb), uint64_t(ldc)})
    if (v > uint64_t(INT_MAX)) {
      why = "cuBLAS: a size or leading dimension exceeds 2^31-1";
      return -1;
    }
  int type = kR32F, compute = kCompute32F;
  float one32[2] = {1, 0}, zero32[2] = {0, 0};
  double one64[2] = {1, 0}, zero64[2] = {0, 0};
  const void *alpha = one32, *beta = zero32;
  switch (d.type) {
  case MatmulDesc::F32:
    compute = d.precision == MatmulDesc::TF32   ? kCompute32FFastTF32
              : d.precision == MatmulDesc::BF16 ? kCompute32FFastBF16
                                                : kCompute32F;
    break;
  case MatmulDesc::F64:
    type = kR64F, compute = kCompute64F, alpha = one64, beta = zero64;
    break;
  case MatmulDesc::C64:
    type = kC32F;
    compute =
        d.precision == MatmulDesc::TF32 ? kCompute32FFastTF32 : kCompute32F;
    break;
  default:
    type = kC64F, compute = kCompute64F, alpha = one64, beta = zero64;
    break;
  }
  int s = cublas().gemm(handle.handle, opB, opA, int(d.n), int(d.m), int(d.k),
                        alpha, d.b, type, int(ldb), d.bBatch, d.a, type,
                        int(lda), d.aBatch, beta, d.c, type, int(ldc), d.cBatch,
                        int(d.batch), compute, kGemmDefault);
  if (s)
    why = "cublasGemmStridedBatchedEx failed with status " + std::to_string(s);
  return s;
}

} // namespace sluice::rt::cuda
