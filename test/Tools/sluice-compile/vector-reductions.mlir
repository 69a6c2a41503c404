// Host kernels keep float max/min whole down to LLVM (llvm.maximum and
// llvm.minimum, NaN-propagating) instead of the compare-and-select
// expansion, so the loop vectoriser turns max/min reductions into vector
// loops (any width: 8 lanes with AVX2, 16 with AVX-512) with a
// vector.reduce.fmaximum at the end, as it does for sums, where the
// reduced loop is the innermost one: along the last axis (row max, the
// softmax's first kernel) and over everything. f64 vectorises the same way, integers through
// llvm.smax; f16 stays a scalar llvm.maximum.f16 loop (no vector f16 max
// on these hosts), no compare-and-select remains in any of them.
// REQUIRES: host-avx2
// RUN: sluice-compile %s --emit=llvm | FileCheck %s

// The JIT gives NumPy's row maxima, NaN included: a NaN in the body of a
// row, one in a row's scalar tail (17 columns), -inf and +inf, -0.0.
// RUN: sluice-run %s --entry=rowmax --input="3x17xf32=[[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17],[1,2,nan,4,5,6,7,8,9,10,11,12,13,14,15,16,-17],[-inf,-inf,-inf,-inf,-inf,-inf,-inf,-inf,-inf,-inf,-inf,-inf,-inf,-inf,-inf,-0.0,nan]]" | FileCheck %s --check-prefix=JIT
// JIT: 3x1xf32={{\[\[}}17][nan][nan]]

// CHECK-LABEL: define {{.*}}sluice_host_kernels__rowmax_reduce(
// CHECK-NOT:   fcmp uno
// CHECK:       call {{.*}}<{{[0-9]+}} x float> @llvm.maximum.v{{[0-9]+}}f32(
// CHECK:       call {{.*}}float @llvm.vector.reduce.fmaximum.v{{[0-9]+}}f32(
// CHECK-LABEL: define {{.*}}sluice_host_kernels__rowmin_reduce(
// CHECK-NOT:   fcmp uno
// CHECK:       call {{.*}}<{{[0-9]+}} x float> @llvm.minimum.v{{[0-9]+}}f32(
// CHECK-LABEL: define {{.*}}sluice_host_kernels__fullmax_reduce(
// CHECK-NOT:   fcmp uno
// CHECK:       call {{.*}}<{{[0-9]+}} x float> @llvm.maximum.v{{[0-9]+}}f32(
// A column max folds each row into a tile of outputs elementwise
// (hostColumnReductionApplies): contiguous vector loads and llvm.maximum
// vectors, no gathers, no compare-and-select.
// CHECK-LABEL: define {{.*}}sluice_host_kernels__colmax_reduce(
// CHECK-NOT:   masked.gather
// CHECK-NOT:   fcmp uno
// CHECK:       call {{.*}}<{{[0-9]+}} x float> @llvm.maximum.v{{[0-9]+}}f32(
// CHECK-NOT:   masked.gather
// CHECK-LABEL: define {{.*}}sluice_host_kernels__colmax_combine(
// CHECK-LABEL: define {{.*}}sluice_host_kernels__rowmin64_reduce(
// CHECK-NOT:   fcmp uno
// CHECK:       call {{.*}}<{{[0-9]+}} x double> @llvm.minimum.v{{[0-9]+}}f64(
// CHECK-LABEL: define {{.*}}sluice_host_kernels__rowmaxi_reduce(
// CHECK:       call {{.*}}<{{[0-9]+}} x i32> @llvm.smax.v{{[0-9]+}}i32(
// CHECK-LABEL: define {{.*}}sluice_host_kernels__rowmax16_reduce(
// CHECK-NOT:   fcmp uno
// CHECK:       call {{.*}}half @llvm.maximum.f16(

!X = !usm.array<?x?xf32, "host:cpu:0", device>
!XK = !usm.array<?x1xf32, "host:cpu:0", device>
!XC = !usm.array<1x?xf32, "host:cpu:0", device>
!S = !usm.array<f32, "host:cpu:0", device>
func.func @rowmax(%x: !X) -> !XK {
  %m = usm.max %x axes [1] keepdims : !X -> !XK
  return %m : !XK
}
func.func @rowmin(%x: !X) -> !XK {
  %m = usm.min %x axes [1] keepdims : !X -> !XK
  return %m : !XK
}
func.func @fullmax(%x: !X) -> !S {
  %m = usm.max %x : !X -> !S
  return %m : !S
}
func.func @colmax(%x: !X) -> !XC {
  %m = usm.max %x axes [0] keepdims : !X -> !XC
  return %m : !XC
}

!D = !usm.array<?x?xf64, "host:cpu:0", device>
!DK = !usm.array<?x1xf64, "host:cpu:0", device>
func.func @rowmin64(%x: !D) -> !DK {
  %m = usm.min %x axes [1] keepdims : !D -> !DK
  return %m : !DK
}

!I = !usm.array<?x?xi32, "host:cpu:0", device>
!IK = !usm.array<?x1xi32, "host:cpu:0", device>
func.func @rowmaxi(%x: !I) -> !IK {
  %m = usm.max %x axes [1] keepdims : !I -> !IK
  return %m : !IK
}

!H = !usm.array<?x?xf16, "host:cpu:0", device>
!HK = !usm.array<?x1xf16, "host:cpu:0", device>
func.func @rowmax16(%x: !H) -> !HK {
  %m = usm.max %x axes [1] keepdims : !H -> !HK
  return %m : !HK
}
