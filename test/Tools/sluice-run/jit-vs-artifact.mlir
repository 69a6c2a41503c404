// The JIT (sluice-run prog.mlir) and an artifact (sluice-compile, then
// sluice-run prog.so) run the same code: their results are bit for bit the
// same, for a program with several results of several shapes and types,
// transcendental math, broadcasts and reductions, on arrays of sizes that
// are not multiples of a vector width.
// RUN: rm -rf %t && mkdir %t && cd %t
// RUN: %python -c "print('4099xf32=[' + ' '.join(str((i * 37 %% 101) / 17.0 - 3) for i in range(4099)) + ']')" > big.txt
// RUN: sluice-compile %s -o prog.so
// RUN: sluice-run %s --input='3x5xf32=[0.1 0.5 -1 2 3.5 -0.25 1 1.5 0.3 -2 4 0.01 -0.7 2.2 1.1]' \
// RUN:   --input='5xf32=[0.3 -1.2 2 0.9 -3]' --input=f32=0.75 --input="$(cat big.txt)" \
// RUN:   --output=@jit0.npy --output=@jit1.npy --output=@jit2.npy \
// RUN:   --output=@jit3.npy --output=@jit4.npy --output=@jit5.npy \
// RUN:   --output=@jit6.npy
// RUN: sluice-run prog.so --input='3x5xf32=[0.1 0.5 -1 2 3.5 -0.25 1 1.5 0.3 -2 4 0.01 -0.7 2.2 1.1]' \
// RUN:   --input='5xf32=[0.3 -1.2 2 0.9 -3]' --input=f32=0.75 --input="$(cat big.txt)" \
// RUN:   --output=@aot0.npy --output=@aot1.npy --output=@aot2.npy \
// RUN:   --output=@aot3.npy --output=@aot4.npy --output=@aot5.npy \
// RUN:   --output=@aot6.npy
// RUN: cmp jit0.npy aot0.npy
// RUN: cmp jit1.npy aot1.npy
// RUN: cmp jit2.npy aot2.npy
// RUN: cmp jit3.npy aot3.npy
// RUN: cmp jit4.npy aot4.npy
// RUN: cmp jit5.npy aot5.npy
// RUN: cmp jit6.npy aot6.npy

// Printed, the same text, with the numbers expected.
// RUN: sluice-run %s --input='3x5xf32=[0.1 0.5 -1 2 3.5 -0.25 1 1.5 0.3 -2 4 0.01 -0.7 2.2 1.1]' \
// RUN:   --input='5xf32=[0.3 -1.2 2 0.9 -3]' --input=f32=0.75 --input="$(cat big.txt)" \
// RUN:   --print-max-elements=16 > jit.txt
// RUN: sluice-run prog.so --input='3x5xf32=[0.1 0.5 -1 2 3.5 -0.25 1 1.5 0.3 -2 4 0.01 -0.7 2.2 1.1]' \
// RUN:   --input='5xf32=[0.3 -1.2 2 0.9 -3]' --input=f32=0.75 --input="$(cat big.txt)" \
// RUN:   --print-max-elements=16 > aot.txt
// RUN: diff jit.txt aot.txt
// RUN: FileCheck %s < aot.txt
// CHECK:      3x5xf32={{\[\[}}0.2516{{[0-9]*}} -1.9116{{[0-9]*}} 1.0845{{[0-9]*}} 4.2880{{[0-9]*}} -7.2982{{[0-9]*}}]{{\[}}0.4176{{.*}}]{{\[}}13.134{{[0-9]*}} {{.*}} -1.2489{{[0-9]*}}]]
// CHECK-NEXT: f32=16.144{{[0-9]*}}
// CHECK-NEXT: 5xf32=[13.134{{[0-9]*}} -0.9489{{[0-9]*}} 2.9501{{[0-9]*}} 5.4195{{[0-9]*}} 1.4809{{[0-9]*}}]
// CHECK-NEXT: 3x1xf32={{\[\[}}-3.5857{{[0-9]*}}]{{\[}}2.3975{{[0-9]*}}]{{\[}}17.333{{[0-9]*}}]]
// CHECK-NEXT: 3x5xi32={{\[\[}}1 1 0 2 5][0 1 2 1 0][7 1 0 3 1]]
// CHECK-NEXT: 4099xf32=[-0.12254{{[0-9]*}} -0.35225{{[0-9]*}} 2.5920{{[0-9]*}} {{.*}} ... {{.*}} -0.36787{{[0-9]*}}]
// CHECK-NEXT: f32=2432.{{[0-9]*}}

!M = !usm.array<3x5xf32, "host:cpu:0", device>
!R = !usm.array<5xf32, "host:cpu:0", device>
!S = !usm.array<f32, "host:cpu:0", shared>
!D = !usm.array<f32, "host:cpu:0", device>
!C = !usm.array<3x1xf32, "host:cpu:0", device>
!I = !usm.array<3x5xi32, "host:cpu:0", device>
!L = !usm.array<4099xf32, "host:cpu:0", device>
func.func @main(%a: !M, %b: !R, %s: f32, %big: !L) -> (!M, !S, !R, !C, !I, !L, !D) {
  %e = usm.exp %a : (!M) -> !M
  %sn = usm.sin %b : (!R) -> !R
  %p = usm.mul %e, %sn : (!M, !R) -> !M
  %q = usm.mul %a, %s : (!M, f32) -> !M
  %y = usm.sub %p, %q : (!M, !M) -> !M
  %t = usm.sum %y : !M -> !D
  %ts = usm.to_device %t : !D -> !S
  %cols = usm.max %y axes [0] : !M -> !R
  %rows = usm.sum %y axes [1] keepdims : !M -> !C
  %sq = usm.sqrt %e : (!M) -> !M
  %k = usm.astype %sq : !M to !I
  %w = usm.sin %big : (!L) -> !L
  %ew = usm.exp %w : (!L) -> !L
  %u = usm.mul %w, %ew : (!L, !L) -> !L
  %z = usm.sum %u : !L -> !D
  return %y, %ts, %cols, %rows, %k, %u, %z : !M, !S, !R, !C, !I, !L, !D
}
