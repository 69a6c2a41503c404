// RUN: rm -rf %t && mkdir -p %t
// A first compile stores the kernels' object on disk; the next one reads it
// back and gives the same module.
// RUN: env SLUICE_CACHE_DIR=%t sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels -o %t/first.mlir
// RUN: ls %t/ptx | FileCheck %s --check-prefix=FILES
// RUN: env SLUICE_CACHE_DIR=%t sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels -o %t/second.mlir
// RUN: cmp %t/first.mlir %t/second.mlir
// What is on disk is what a later compile uses (an entry edited to hold
// other PTX is taken as it is).
// RUN: %python -c "import glob, sys; p = glob.glob(sys.argv[1] + '/ptx/*.obj')[0]; s = open(p).read(); open(p, 'w').write(s.replace('.entry', '// FROM THE CACHE' + chr(92) + '0A.entry', 1))" %t
// RUN: env SLUICE_CACHE_DIR=%t sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels | FileCheck %s --check-prefix=EDITED
// SLUICE_KERNEL_CACHE=off neither reads nor writes it.
// RUN: env SLUICE_CACHE_DIR=%t SLUICE_KERNEL_CACHE=off sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels | FileCheck %s --check-prefix=OFF
// A damaged entry is a miss: the kernels are compiled again (and stored).
// RUN: %python -c "import glob, sys; [open(p, 'w').write('sluice-kernel-object 1\n#gpu.object<garbage') for p in glob.glob(sys.argv[1] + '/ptx/*.obj')]" %t
// RUN: env SLUICE_CACHE_DIR=%t sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels -o %t/third.mlir
// RUN: cmp %t/first.mlir %t/third.mlir
// RUN: %python -c "import glob, sys; [open(p, 'w').write('not a cache entry') for p in glob.glob(sys.argv[1] + '/ptx/*.obj')]" %t
// RUN: env SLUICE_CACHE_DIR=%t sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels -o %t/fourth.mlir
// RUN: cmp %t/first.mlir %t/fourth.mlir
// Another chip is another entry.
// RUN: env SLUICE_CACHE_DIR=%t sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels=chip=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: ls %t/ptx | FileCheck %s --check-prefix=TWO

// FILES: {{^[0-9a-f]{64}\.obj$}}
// EDITED: FROM THE CACHE
// OFF-NOT: FROM THE CACHE
// OFF: gpu.binary @sluice_cuda_kernels
// SM80: chip = "sm_80"
// SM80-NOT: FROM THE CACHE
// TWO-COUNT-2: {{^[0-9a-f]{64}\.obj$}}
!G = !usm.array<?xf32, "cuda:gpu:0", device>
func.func @f(%a: !G, %b: !G) -> !G {
  %0 = usm.mul %a, %b : (!G, !G) -> !G
  return %0 : !G
}
