// Which chips' entries the cache holds:
// DEFINE: %{chips} = import glob, sys; print(sorted(c for p in glob.glob(sys.argv[1] + '/ptx/*.obj') for c in ['sm_70', 'sm_75', 'sm_80', 'sm_86', 'sm_90'] if '.target ' + c in open(p).read()))
// RUN: rm -rf %t && mkdir -p %t
// Two entries (sm_90, then sm_80), then the sm_90 one read back: a hit
// makes it the most recently used.
// RUN: env SLUICE_CACHE_DIR=%t sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels=chip=sm_90 -o %t/first.mlir
// RUN: env SLUICE_CACHE_DIR=%t sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels=chip=sm_80 -o /dev/null
// RUN: env SLUICE_CACHE_DIR=%t sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels=chip=sm_90 -o %t/again.mlir
// RUN: cmp %t/first.mlir %t/again.mlir
// A third entry under a limit of 1.25 times what the two take: the least
// recently used one (sm_80) is removed, the one just read stays.
// RUN: %python -c "import glob, os, subprocess, sys; d = sys.argv[1]; n = sum(os.path.getsize(p) for p in glob.glob(d + '/ptx/*.obj')); sys.exit(subprocess.call(sys.argv[2:], env=dict(os.environ, SLUICE_CACHE_DIR=d, SLUICE_KERNEL_CACHE_LIMIT=str(n * 5 // 4))))" %t sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels=chip=sm_75 -o /dev/null
// RUN: %python -c "%{chips}" %t | FileCheck %s --check-prefix=LRU
// With a limit of one byte only the entry just written stays; with 0 (no
// limit) nothing is removed.
// RUN: env SLUICE_CACHE_DIR=%t SLUICE_KERNEL_CACHE_LIMIT=1 sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels=chip=sm_86 -o /dev/null
// RUN: %python -c "%{chips}" %t | FileCheck %s --check-prefix=NEWEST
// RUN: env SLUICE_CACHE_DIR=%t SLUICE_KERNEL_CACHE_LIMIT=0 sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels=chip=sm_70 -o /dev/null
// RUN: env SLUICE_CACHE_DIR=%t SLUICE_KERNEL_CACHE_LIMIT=0K sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels=chip=sm_80 -o /dev/null
// RUN: %python -c "%{chips}" %t | FileCheck %s --check-prefix=UNLIMITED
// A size with a suffix: 1 MiB holds them all.
// RUN: env SLUICE_CACHE_DIR=%t SLUICE_KERNEL_CACHE_LIMIT=1M sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels=chip=sm_75 -o /dev/null
// RUN: %python -c "%{chips}" %t | FileCheck %s --check-prefix=SUFFIX

// LRU: ['sm_75', 'sm_90']
// NEWEST: ['sm_86']
// UNLIMITED: ['sm_70', 'sm_80', 'sm_86']
// SUFFIX: ['sm_70', 'sm_75', 'sm_80', 'sm_86']
!G = !usm.array<?xf32, "cuda:gpu:0", device>
func.func @f(%a: !G, %b: !G) -> !G {
  %0 = usm.mul %a, %b : (!G, !G) -> !G
  return %0 : !G
}
