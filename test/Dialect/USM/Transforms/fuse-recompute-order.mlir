// RUN: sluice-opt %s --usm-fuse-elementwise | FileCheck %s
// Cheap producers recomputed in a group are cloned consumer first; a clone
// that uses another clone must still come after it (this DAG, the
// Black-Scholes step recorded by lazy execution, once left a clone before
// the clone it used and crashed the verifier).

!A = !usm.array<?xf32, "host:cpu:0", device>

// CHECK-LABEL: func.func @main
// CHECK: usm.fused
// CHECK: usm.fused
// CHECK: return
func.func @main(%a0: !A, %a1: !A, %a2: !A, %a3: f32, %a4: f32, %a5: f32, %a6: f32, %a7: f32, %a8: f32, %a9: f32, %a10: f32, %a11: f32, %a12: f32) -> (!A) {
  %v1 = usm.div %a0, %a1 : (!A, !A) -> !A
  %v2 = usm.log %v1 : (!A) -> !A
  %v3 = usm.mul %a2, %a3 : (!A, f32) -> !A
  %v4 = usm.mul %a2, %a4 : (!A, f32) -> !A
  %v5 = usm.mul %a5, %v4 : (f32, !A) -> !A
  %v6 = usm.sqrt %v4 : (!A) -> !A
  %v7 = usm.div %a6, %v6 : (f32, !A) -> !A
  %v8 = usm.sub %v2, %v3 : (!A, !A) -> !A
  %v9 = usm.add %v8, %v5 : (!A, !A) -> !A
  %v10 = usm.mul %v9, %v7 : (!A, !A) -> !A
  %v11 = usm.sub %v2, %v3 : (!A, !A) -> !A
  %v12 = usm.sub %v11, %v5 : (!A, !A) -> !A
  %v13 = usm.mul %v12, %v7 : (!A, !A) -> !A
  %v14 = usm.mul %v10, %a7 : (!A, f32) -> !A
  %v15 = usm.tanh %v14 : (!A) -> !A
  %v16 = usm.mul %a8, %v15 : (f32, !A) -> !A
  %v17 = usm.add %a9, %v16 : (f32, !A) -> !A
  %v18 = usm.mul %v13, %a10 : (!A, f32) -> !A
  %v19 = usm.tanh %v18 : (!A) -> !A
  %v20 = usm.mul %a11, %v19 : (f32, !A) -> !A
  %v21 = usm.add %a12, %v20 : (f32, !A) -> !A
  %v22 = usm.exp %v3 : (!A) -> !A
  %v23 = usm.mul %v22, %a1 : (!A, !A) -> !A
  %v24 = usm.mul %a0, %v17 : (!A, !A) -> !A
  %v25 = usm.mul %v23, %v21 : (!A, !A) -> !A
  %v26 = usm.sub %v24, %v25 : (!A, !A) -> !A
  return %v26 : !A
}
