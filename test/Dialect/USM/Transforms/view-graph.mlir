// RUN: sluice-opt %s --usm-fuse-elementwise --usm-view-graph -o /dev/null | FileCheck %s
// Without fusion there are no clusters.
// RUN: sluice-opt %s --usm-view-graph -o /dev/null | FileCheck %s --check-prefix=PLAIN
// The graph goes to a file when asked, and the IR is unchanged.
// RUN: sluice-opt %s --usm-view-graph=output=%t.dot | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=PLAIN < %t.dot

!A = !usm.array<1024xf32, "opencl:cpu:0", device>
!G = !usm.array<1024xf32, "level_zero:gpu:0", device>
!S = !usm.array<f32, "level_zero:gpu:0", device>

// CHECK-LABEL: digraph "pipeline" {
// CHECK:       arg0 [shape=ellipse, label="%arg0\n1024xf32", fillcolor="[[CPU:#[0-9a-f]+]]"];
// CHECK:       subgraph cluster_fused0 {
// CHECK-NEXT:    label="usm.fused #0\nopencl:cpu:0";
// CHECK:         [[MUL:n[0-9]+]] [label="usm.mul\n1024xf32", fillcolor="[[CPU]]"];
// CHECK:         [[EXP:n[0-9]+]] [label="usm.exp\n1024xf32", fillcolor="[[CPU]]"];
// CHECK:       }
// CHECK:       [[MIG:n[0-9]+]] [label="usm.to_device\n1024xf32", fillcolor="[[GPU:#[0-9a-f]+]]", color=red, penwidth=3, fontcolor=red];
// CHECK:       subgraph cluster_fused1 {
// CHECK-NEXT:    label="usm.fused #1\nlevel_zero:gpu:0";
// CHECK:         [[SIN:n[0-9]+]] [label="usm.sin\n1024xf32", fillcolor="[[GPU]]"];
// CHECK:         [[SUM:n[0-9]+]] [label="usm.sum\nf32", fillcolor="[[GPU]]"];
// CHECK:       }
// CHECK:       [[RET:n[0-9]+]] [label="func.return", shape=plain];
// CHECK:       arg0 -> [[MUL]] [label="1024xf32"];
// CHECK:       [[EXP]] -> [[MIG]] [label="1024xf32", color=red, fontcolor=red, penwidth=3];
// CHECK-NEXT:  [[MIG]] -> [[SIN]] [label="1024xf32", color=red, fontcolor=red, penwidth=3];
// CHECK:       [[SUM]] -> [[RET]] [label="f32"];
// CHECK:       subgraph cluster_legend {
// CHECK:         legend0 [label="opencl:cpu:0", fillcolor="[[CPU]]"];
// CHECK-NEXT:    legend1 [label="level_zero:gpu:0", fillcolor="[[GPU]]"];

// PLAIN-LABEL: digraph "pipeline" {
// PLAIN-NOT:   cluster_fused
// PLAIN:       label="usm.to_device
// PLAIN-LABEL: digraph "named_queue" {
// PLAIN:       label="opencl:cpu:0 (worker)"

// IR-LABEL: func.func @pipeline
// IR-NOT:   usm.fused
func.func @pipeline(%a: !A, %b: !A, %s: f32) -> (!A, !S) {
  %0 = usm.mul %a, %s : (!A, f32) -> !A
  %1 = usm.add %0, %b : (!A, !A) -> !A
  %2 = usm.exp %1 : (!A) -> !A
  %3 = usm.to_device %2 : !A -> !G
  %4 = usm.sin %3 : (!G) -> !G
  %5 = usm.mul %4, %4 : (!G, !G) -> !G
  %6 = usm.sum %5 : !G -> !S
  %7 = usm.cos %1 : (!A) -> !A
  return %7, %6 : !A, !S
}

// CHECK-LABEL: digraph "named_queue" {
// CHECK:       label="opencl:cpu:0 (worker)"
func.func @named_queue(%a: !usm.array<4xf32, "opencl:cpu:0"("worker"), shared>) -> !usm.array<4xf32, "opencl:cpu:0"("worker"), shared> {
  %0 = usm.exp %a : (!usm.array<4xf32, "opencl:cpu:0"("worker"), shared>) -> !usm.array<4xf32, "opencl:cpu:0"("worker"), shared>
  return %0 : !usm.array<4xf32, "opencl:cpu:0"("worker"), shared>
}
