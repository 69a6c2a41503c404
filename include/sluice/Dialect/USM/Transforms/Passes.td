//===- Passes.td - usm dialect passes ----------------------*- tablegen -*-===//

#ifndef SLUICE_DIALECT_USM_TRANSFORMS_PASSES_TD
#define SLUICE_DIALECT_USM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Placement (compute-follows-data across whole programs)
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Fusion
//===----------------------------------------------------------------------===//

def USMFuseElementwisePass : Pass<"usm-fuse-elementwise"> {
  let summary = "groups array operations into one kernel each (usm.fused)";
  let description = [{
    Partitions each block's array operations into fusible groups and moves
    each group of two or more operations into a `usm.fused` op, so the code
    generator emits one kernel per group that reads each input once and
    writes each result once. The operations inside are the original ones, so
    results never change.

    What fuses, on one queue only:
    - producer-consumer chains of elementwise ops (`add`, `exp`, `where`,
      `astype`, ... with NumPy broadcasting), `broadcast_to`, `usm.full` and
      splat `usm.constant` (static and dynamic shapes);
    - elementwise producers into reductions (`sum`, `prod`, `max`, `min`):
      the reduction reads the fused expression, never a temporary;
    - reduction results into following elementwise ops whose shape is the
      reduced shape (the reduction's epilogue);
    - siblings: groups that read the same array and iterate over the same
      shape run as one kernel with several results.

    What never fuses: `usm.to_device` (the only placement change; it stays a
    copy between kernels), ops on different queues, ops with side effects
    (`usm.to_host`, `usm.from_host`, calls), shape ops that reindex
    (`reshape`, `transpose`), ops in different blocks, and anything that
    would need a kernel to wait for itself (a cycle through an op outside
    the group), an op with side effects between a group's ops that uses one
    of its values, a reduction result broadcast back over the reduced input
    (that needs two passes), or results of different shapes.

    Multi-use policy: a *cheap* producer (`usm.full`, splat constant,
    `broadcast_to`, and elementwise ops that read at most one array, no
    wider than their result, and compute no transcendental) is recomputed in
    every group that uses it instead of being written and read back. Any
    other producer with users outside its consumer's group becomes an extra
    result of that group (multi-output), so it is still computed once and
    written once. With dynamic shapes a group returns several results only
    when no op in it broadcasts a dynamic dimension, so the results provably
    share the iteration space.

    ```mlir
    // Before
    %0 = usm.mul %a, %s : (!A, f32) -> !A
    %1 = usm.add %0, %b : (!A, !A) -> !A
    %2 = usm.sum %1 : !A -> !S
    // After: one kernel, reads %a and %b once, writes %2 once
    %2 = usm.fused "opencl:cpu:0" ins(%x = %a : !A, %y = %b : !A, %t = %s : f32) -> (!S) {
      %0 = usm.mul %x, %t : (!A, f32) -> !A
      %1 = usm.add %0, %y : (!A, !A) -> !A
      %3 = usm.sum %1 : !A -> !S
      usm.yield %3 : !S
    }
    ```

    With `report`, each group gets a remark listing its ops, inputs,
    outputs and compulsory bytes (each input read once, each output written
    once, next to the bytes the ops would move unfused), and each producer-
    consumer edge left between kernels gets a remark saying why.
  }];
  let dependentDialects = ["::sluice::usm::USMDialect"];
  let options = [
    Option<"fuseProducers", "producer-consumer", "bool", "true",
           "fuse elementwise producers into elementwise consumers">,
    Option<"fuseReductions", "reductions", "bool", "true",
           "fuse elementwise producers into reductions">,
    Option<"fuseEpilogues", "epilogues", "bool", "true",
           "fuse reduction results into following elementwise ops">,
    Option<"fuseSiblings", "siblings", "bool", "true",
           "fuse independent groups that read the same array">,
    Option<"multiOutput", "multi-output", "bool", "true",
           "let a group return values also used outside it">,
    Option<"recompute", "recompute", "bool", "true",
           "recompute cheap producers in each group that uses them">,
    Option<"report", "report", "bool", "false",
           "emit a remark per fused group and per boundary left">,
  ];
}

def USMViewGraphPass : Pass<"usm-view-graph", "::mlir::ModuleOp"> {
  let summary = "writes each function's array graph as Graphviz DOT";
  let description = [{
    Prints a `digraph` per function of the module, in order: a node per
    array operation and per array argument, an edge per array value
    (labelled with its shape and element type). Nodes are filled with one colour per queue (a legend
    names them), the ops of each `usm.fused` are drawn as a cluster, and
    `usm.to_device` edges are drawn thick and red: the only places where data
    moves between queues. The IR is not changed. Render the output with
    `dot -Tpng`.

    ```mlir
    // sluice-opt --usm-fuse-elementwise --usm-view-graph=output=g.dot f.mlir
    func.func @f(%a: !usm.array<8xf32, "opencl:cpu:0", device>) -> !usm.array<8xf32, "host:cpu:0", device> {
      %0 = usm.exp %a : (!usm.array<8xf32, "opencl:cpu:0", device>) -> !usm.array<8xf32, "opencl:cpu:0", device>
      %1 = usm.to_device %0 : !usm.array<8xf32, "opencl:cpu:0", device> -> !usm.array<8xf32, "host:cpu:0", device>
      return %1 : !usm.array<8xf32, "host:cpu:0", device>
    }
    ```
  }];
  let options = [
    Option<"output", "output", "std::string", "\"-\"",
           "file to write the graphs to (\"-\" is standard output)">,
  ];
}

#endif // SLUICE_DIALECT_USM_TRANSFORMS_PASSES_TD
