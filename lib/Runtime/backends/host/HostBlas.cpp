//===- HostBlas.cpp - Matrix products on the host through BLAS ------------===//
//
// The host backend's matrix products call the GEMM of a BLAS library found
// at run time with dlopen, so that nothing links against one (the runtime
// stays a small library; the static wheel needs no BLAS on the build
// machine). Searched in order:
//   1. $SLUICE_BLAS, a path or soname (an explicit choice; "none" selects
//      the built-in loops);
//   2. $SLUICE_BLAS_PREFERRED, which the Python package sets to the
//      OpenBLAS that NumPy's wheel carries: a process then has one BLAS and
//      one set of BLAS threads (two OpenBLAS copies, each spinning its own
//      threads, slow each other down several times over on a small machine);
//   3. Debian's OpenBLAS (libopenblas.so.0, package libopenblas0-pthread)
//      and BLIS (libblis.so.4).
// Both the plain CBLAS names (cblas_sgemm, 32-bit integers) and the
// prefixed 64-bit-integer names of NumPy's OpenBLAS (scipy_cblas_sgemm64_)
// are accepted. Without any, products run as plain loops (correct, slow).
//
//===----------------------------------------------------------------------===//

#include "HostBlas.h"

#include "ThreadPool.h"

#include <complex>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <vector>

namespace sluice::rt::host {

namespace {

// CBLAS's enumerators (cblas.h).
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;

template <typename Int> struct GemmFns {
  // Real: alpha and beta by value; complex: by pointer.
  using Real32 = void (*)(int, int, int, Int, Int, Int, float, const float *,
                          Int, const float *, Int, float, float *, Int);
  using Real64 = void (*)(int, int, int, Int, Int, Int, double, const double *,
                          Int, const double *, Int, double, double *, Int);
  using Cplx = void (*)(int, int, int, Int, Int, Int, const void *,
                        const void *, Int, const void *, Int, const void *,
                        void *, Int);
  Real32 s = nullptr;
  Real64 d = nullptr;
  Cplx c = nullptr, z = nullptr;
};

struct Blas {
  std::string name;
  bool wide = false; // 64-bit integers
  GemmFns<int> narrow;
  GemmFns<int64_t> big;
};

template <typename Int>
bool lookup(void *lib, const char *prefix, const char *suffix,
            GemmFns<Int> &out) {
  auto sym = [&](const char *name) {
    std::string full = std::string(prefix) + name + suffix;
    return ::dlsym(lib, full.c_str());
  };
  out.s = reinterpret_cast<typename GemmFns<Int>::Real32>(sym("sgemm"));
  out.d = reinterpret_cast<typename GemmFns<Int>::Real64>(sym("dgemm"));
  out.c = reinterpret_cast<typename GemmFns<Int>::Cplx>(sym("cgemm"));
  out.z = reinterpret_cast<typename GemmFns<Int>::Cplx>(sym("zgemm"));
  return out.s && out.d && out.c && out.z;
}

bool tryLoad(const std::string &path, Blas &blas) {
  void *lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return false;
  if (lookup(lib, "cblas_", "", blas.narrow)) {
    blas.name = path + " (cblas)";
    return true;
  }
  if (lookup(lib, "scipy_cblas_", "64_", blas.big)) {
    blas.wide = true;
    blas.name = path + " (scipy_cblas_*64_)";
    return true;
  }
  ::dlclose(lib);
  return false;
}

const Blas &blas() {
  static Blas *loaded = [] {
    auto *b = new Blas(); // never destroyed: the library stays loaded
    const char *env = std::getenv("SLUICE_BLAS");
    if (env && *env) {
      if (std::string(env) != "none")
        tryLoad(env, *b);
      return b;
    }
    if (const char *pref = std::getenv("SLUICE_BLAS_PREFERRED");
        pref && *pref && tryLoad(pref, *b))
      return b;
    for (const char *name : {"libopenblas.so.0", "libblis.so.4"})
      if (tryLoad(name, *b))
        return b;
    return b;
  }();
  return *loaded;
}

/// The plain loops: C = A B, i-k-j order (unit-stride inner loop on B and C).
template <typename T> void loops(const MatmulDesc &d, uint64_t i) {
  const T *a = static_cast<const T *>(d.a) + int64_t(i) * d.aBatch;
  const T *b = static_cast<const T *>(d.b) + int64_t(i) * d.bBatch;
  T *c = static_cast<T *>(d.c) + int64_t(i) * d.cBatch;
  for (uint64_t r = 0; r < d.m; ++r) {
    T *row = c + int64_t(r) * d.cRow;
    for (uint64_t j = 0; j < d.n; ++j)
      row[j] = T(0);
    for (uint64_t p = 0; p < d.k; ++p) {
      T x = a[int64_t(r) * d.aRow + int64_t(p) * d.aCol];
      const T *brow = b + int64_t(p) * d.bRow;
      for (uint64_t j = 0; j < d.n; ++j)
        row[j] += x * brow[int64_t(j) * d.bCol];
    }
  }
}

/// Transpose flag and leading dimension of a rows x cols operand with the
/// given strides, or false when neither stride is 1 (not a BLAS layout).
bool layout(uint64_t rows, uint64_t cols, int64_t rowStride, int64_t colStride,
            int &trans, int64_t &ld) {
  if (colStride == 1 || cols <= 1) {
    trans = kNoTrans;
    ld = std::max<int64_t>({rowStride, int64_t(cols), 1});
    if (cols <= 1 && colStride != 1 && rows > 1)
      ld = rowStride; // a column: rows are rowStride apart
    return ld >= std::max<int64_t>(int64_t(cols), 1);
  }
  if (rowStride == 1 || rows <= 1) {
    trans = kTrans;
    ld = std::max<int64_t>({colStride, int64_t(rows), 1});
    return true;
  }
  return false;
}

template <typename Int>
void gemm(const GemmFns<Int> &f, const MatmulDesc &d, uint64_t i, int ta,
          int64_t lda, int tb, int64_t ldb) {
  size_t es = d.type == MatmulDesc::F32    ? 4
              : d.type == MatmulDesc::C128 ? 16
                                           : 8;
  auto at = [&](const void *p, int64_t stride) {
    return static_cast<const char *>(p) + int64_t(i) * stride * int64_t(es);
  };
  const void *a = at(d.a, d.aBatch), *b = at(d.b, d.bBatch);
  void *c = const_cast<char *>(at(d.c, d.cBatch));
  Int m = Int(d.m), n = Int(d.n), k = Int(d.k);
  Int ldc = Int(std::max<int64_t>({d.cRow, int64_t(d.n), 1}));
  switch (d.type) {
  case MatmulDesc::F32:
    f.s(kRowMajor, ta, tb, m, n, k, 1.0f, static_cast<const float *>(a),
        Int(lda), static_cast<const float *>(b), Int(ldb), 0.0f,
        static_cast<float *>(c), ldc);
    break;
  case MatmulDesc::F64:
    f.d(kRowMajor, ta, tb, m, n, k, 1.0, static_cast<const double *>(a),
        Int(lda), static_cast<const double *>(b), Int(ldb), 0.0,
        static_cast<double *>(c), ldc);
    break;
  case MatmulDesc::C64: {
    std::complex<float> one(1), zero(0);
    f.c(kRowMajor, ta, tb, m, n, k, &one, a, Int(lda), b, Int(ldb), &zero, c,
        ldc);
    break;
  }
  default: {
    std::complex<double> one(1), zero(0);
    f.z(kRowMajor, ta, tb, m, n, k, &one, a, Int(lda), b, Int(ldb), &zero, c,
        ldc);
    break;
  }
  }
}

void runLoops(const MatmulDesc &d, uint64_t i) {
  switch (d.type) {
  case MatmulDesc::F32:
    return loops<float>(d, i);
  case MatmulDesc::F64:
    return loops<double>(d, i);
  case MatmulDesc::C64:
    return loops<std::complex<float>>(d, i);
  default:
    return loops<std::complex<double>>(d, i);
  }
}

} // namespace

std::string blasLibraryName() { return blas().name; }

std::string runMatmul(const MatmulDesc &d) {
  if (d.type < MatmulDesc::F32 || d.type > MatmulDesc::C128)
    return "matmul: unknown element type code " + std::to_string(d.type);
  if (!d.batch || !d.m || !d.n)
    return "";
  if (!d.k) { // an empty sum: zeros
    size_t es = d.type == MatmulDesc::F32    ? 4
                : d.type == MatmulDesc::C128 ? 16
                                             : 8;
    for (uint64_t i = 0; i < d.batch; ++i)
      for (uint64_t r = 0; r < d.m; ++r)
        std::fill_n(static_cast<char *>(d.c) +
                        (int64_t(i) * d.cBatch + int64_t(r) * d.cRow) *
                            int64_t(es),
                    d.n * es, char(0));
    return "";
  }
  const Blas &lib = blas();
  int ta = kNoTrans, tb = kNoTrans;
  int64_t lda = 0, ldb = 0;
  bool usable = !lib.name.empty() &&
                layout(d.m, d.k, d.aRow, d.aCol, ta, lda) &&
                layout(d.k, d.n, d.bRow, d.bCol, tb, ldb);
  if (usable && !lib.wide) {
    constexpr uint64_t maxInt = 0x7fffffff;
    usable = d.m <= maxInt && d.n <= maxInt && d.k <= maxInt &&
             uint64_t(lda) <= maxInt && uint64_t(ldb) <= maxInt &&
             uint64_t(std::max<int64_t>(d.cRow, 1)) <= maxInt;
  }
  auto one = [&](uint64_t i) {
    if (!usable)
      return runLoops(d, i);
    if (lib.wide)
      gemm(lib.big, d, i, ta, lda, tb, ldb);
    else
      gemm(lib.narrow, d, i, ta, lda, tb, ldb);
  };
  // Many small products: one per pool thread at a time (the library runs
  // products this small on one thread anyway); large ones one after
  // another, each on the library's own threads.
  double work = double(d.m) * double(d.n) * double(d.k);
  if (d.batch > 1 && work < double(1 << 18)) {
    ThreadPool::shared().parallelFor(d.batch, one);
    return "";
  }
  for (uint64_t i = 0; i < d.batch; ++i)
    one(i);
  return "";
}

} // namespace sluice::rt::host
