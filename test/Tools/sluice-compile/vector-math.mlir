// Host kernels call glibc's libmvec for f32 math: the loop vectoriser maps
// the math intrinsics to its variants for the host's vector width (AVX2: 8
// lanes; AVX-512: 16, with 8- or 4-lane epilogues) through the target
// library info of Sluice's LLVM pipeline; f16 math goes through the same
// f32 variants; f64 math stays the scalar libm (within 1 ulp).
// REQUIRES: host-avx2-libmvec
// RUN: sluice-compile %s --emit=llvm | FileCheck %s

// The artifact (linked with libmvec) and the JIT give NumPy's values, also
// for huge arguments (16 values: the vector loop runs).
// RUN: sluice-compile %s -o %t.so
// RUN: sluice-run %t.so --entry=f32 --input="16xf32=[1e5,1e8,1e12,1e30,3.4e38,-0.0,2.0,3.0,4.0,-1e20,0.5,7.0,1e-40,-0.25,6.0,100.0]" --output=@%t.art.npy
// RUN: sluice-run %s --entry=f32 --input="16xf32=[1e5,1e8,1e12,1e30,3.4e38,-0.0,2.0,3.0,4.0,-1e20,0.5,7.0,1e-40,-0.25,6.0,100.0]" --output=@%t.jit.npy
// RUN: %python -c "import numpy as np, sys; a = np.float32([1e5,1e8,1e12,1e30,3.4e38,-0.0,2.0,3.0,4.0,-1e20,0.5,7.0,1e-40,-0.25,6.0,100.0]); want = np.sin(np.exp(-a)) + np.cos(a); [np.testing.assert_allclose(np.load(f), want, rtol=1e-6, atol=1e-7) for f in sys.argv[1:]]" %t.art.npy %t.jit.npy

// CHECK-LABEL: define {{.*}}sluice_host_kernels__f32_map
// CHECK-DAG: call <{{[0-9]+}} x float> @_ZGV{{[bde]}}N{{[0-9]+}}v_expf(
// CHECK-DAG: call <{{[0-9]+}} x float> @_ZGV{{[bde]}}N{{[0-9]+}}v_sinf(
// CHECK-DAG: call <{{[0-9]+}} x float> @_ZGV{{[bde]}}N{{[0-9]+}}v_cosf(
// CHECK-LABEL: define {{.*}}sluice_host_kernels__f16_map
// CHECK: call <{{[0-9]+}} x float> @_ZGV{{[bde]}}N{{[0-9]+}}v_tanhf(
// CHECK-LABEL: define {{.*}}sluice_host_kernels__f64_map
// CHECK-NOT: _ZGV
// CHECK: call double @llvm.sin.f64(
// CHECK: declare <{{[0-9]+}} x float> @_ZGV{{[bde]}}N{{[0-9]+}}v_expf(<{{[0-9]+}} x float>)

!F = !usm.array<?xf32, "host:cpu:0", device>
func.func @f32(%a: !F) -> !F {
  %0 = usm.negative %a : (!F) -> !F
  %1 = usm.exp %0 : (!F) -> !F
  %2 = usm.sin %1 : (!F) -> !F
  %3 = usm.cos %a : (!F) -> !F
  %4 = usm.add %2, %3 : (!F, !F) -> !F
  return %4 : !F
}

!H = !usm.array<?xf16, "host:cpu:0", device>
func.func @f16(%a: !H) -> !H {
  %0 = usm.tanh %a : (!H) -> !H
  return %0 : !H
}

!D = !usm.array<?xf64, "host:cpu:0", device>
func.func @f64(%a: !D) -> !D {
  %0 = usm.sin %a : (!D) -> !D
  return %0 : !D
}
