//===- Passes.td - usm dialect passes ----------------------*- tablegen -*-===//

#ifndef SLUICE_DIALECT_USM_TRANSFORMS_PASSES_TD
#define SLUICE_DIALECT_USM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Placement (compute-follows-data across whole programs)
//===----------------------------------------------------------------------===//

def USMVerifyPlacementPass : Pass<"usm-verify-placement", "::mlir::ModuleOp"> {
  let summary = "checks compute-follows-data across control flow and calls";
  let description = [{
    Each usm op's verifier sees one op at a time. This pass follows every
    array value of the module through block arguments, region yields
    (`scf.if`, `scf.for`, `scf.while`, ...), `cf` branches, `func.call`,
    `func.return` and function signatures, and reports every place where
    arrays that must share a queue cannot: an unplaced array (`?`) can follow
    only one queue, a loop-carried value must enter and leave the loop on one
    queue, the branches of an `scf.if` must yield one placement, a callee's
    placed parameter fixes the queue of its argument. Functions whose
    unplaced parameters receive different placements at different calls are
    checked once per placement, as `usm-infer-placement` would specialise
    them. The IR is not changed.

    Each error is reported at the op that combines the arrays, with a note
    at the op or block argument where each conflicting array got its queue,
    and tells how to fix it: migrate one of the arrays with `usm.to_device`.

    ```mlir
    func.func @f(%m: memref<4xf32>, %c: i1,
                 %a: !usm.array<4xf32, "opencl:cpu:0", device>,
                 %b: !usm.array<4xf32, "level_zero:gpu:0", device>) {
      %h = usm.from_host %m : memref<4xf32> -> !usm.array<4xf32, ?>
      %x = usm.add %h, %a : (!usm.array<4xf32, ?>, !usm.array<4xf32, "opencl:cpu:0", device>)
                           -> !usm.array<4xf32, "opencl:cpu:0", device>
      // error: 'usm.mul' op execution placement can not be unambiguously
      //   inferred from input arguments: operand #0 follows queue
      //   "opencl:cpu:0" but operand #1 is on queue "level_zero:gpu:0";
      //   migrate one of them with usm.to_device
      // note: queue "opencl:cpu:0" comes from argument #2 of @f
      // note: queue "level_zero:gpu:0" comes from argument #3 of @f
      %y = usm.mul %h, %b : (!usm.array<4xf32, ?>, !usm.array<4xf32, "level_zero:gpu:0", device>)
                           -> !usm.array<4xf32, "level_zero:gpu:0", device>
      return
    }
    ```

    The fix: `%hb = usm.to_device %h ...` on the second queue, or give the
    host data two `usm.from_host` copies, one per queue.
  }];
}

def USMInferPlacementPass : Pass<"usm-infer-placement", "::mlir::ModuleOp"> {
  let summary = "gives every unplaced array the placement of the arrays it meets";
  let description = [{
    An unplaced array (`!usm.array<... , ?>`: host data, constants and
    creation ops written without a queue) follows the arrays on queues that
    it meets, as a NumPy array or a Python scalar follows the USM operand in
    dpctl. The pass groups values that must share a queue (the operands and
    results of one op, and the values joined by block arguments, region
    yields, branches, calls and returns), gives each group the queue of its
    placed members, and repeats through calls until nothing changes.

    - USM kind: an unplaced array takes the kind of the results it
      contributes to (device < shared < host, the smallest wins at each op,
      as in dpctl), through control flow and calls; so no placed result
      changes kind.
    - `usm.to_device` of an unplaced array places it on the target when
      nothing else does (the migration then folds away).
    - Functions called with different placements are specialised: a private
      clone per placement signature (`@f.opencl_cpu_0`), called instead of
      the original; recursion reuses the clone. A private function left
      without calls is removed.
    - Where nothing determines a placement, the `default-queue` option gives
      one (with `default-kind`); without it the pass reports dpctl's error,
      "Please specify `device` or `sycl_queue` keyword argument", at the
      array.
    - Conflicts are reported as `usm-verify-placement` reports them.

    ```mlir
    func.func @f(%m: memref<4xf32>, %a: !usm.array<4xf32, "opencl:cpu:0", shared>)
        -> !usm.array<4xf32, "opencl:cpu:0", shared> {
      %h = usm.from_host %m : memref<4xf32> -> !usm.array<4xf32, ?>
      %r = usm.add %h, %a : (!usm.array<4xf32, ?>, !usm.array<4xf32, "opencl:cpu:0", shared>)
                           -> !usm.array<4xf32, "opencl:cpu:0", shared>
      return %r : !usm.array<4xf32, "opencl:cpu:0", shared>
    }
    // becomes
    //   %h = usm.from_host %m : memref<4xf32> -> !usm.array<4xf32, "opencl:cpu:0", shared>
    ```
  }];
  let options = [
    Option<"defaultQueue", "default-queue", "std::string", /*default=*/"\"\"",
           "filter string of the queue for arrays that meet no placed array "
           "(e.g. \"opencl:cpu:0\"); empty: report them as errors">,
    Option<"defaultKind", "default-kind", "::sluice::usm::USMKind",
           /*default=*/"::sluice::usm::USMKind::device",
           "USM kind for arrays placed on the default queue",
           [{::sluice::usm::usmKindOptionValues()}]>
  ];
}

def USMPlacementReportPass : Pass<"usm-placement-report", "::mlir::ModuleOp"> {
  let summary = "reports where every array lives and what moves between queues";
  let description = [{
    Prints, per function, the arrays on each queue (with their USM kinds),
    every `usm.to_device` with the bytes it moves when the shape is static,
    and flags migrations that bring data back to the queue it came from
    (A -> B -> A) with nothing computed on B in between: the data could have
    stayed where it was. The values are named as the IR printer names them.
    The IR is not changed.

    ```mlir
    func.func @f(%a: !usm.array<256xf32, "opencl:cpu:0", device>)
        -> !usm.array<256xf32, "opencl:cpu:0", device> {
      %b = usm.to_device %a : !usm.array<256xf32, "opencl:cpu:0", device>
                           -> !usm.array<256xf32, "level_zero:gpu:0", device>
      %c = usm.reshape %b : !usm.array<256xf32, "level_zero:gpu:0", device>
                         -> !usm.array<256xf32, "level_zero:gpu:0", device>
      %d = usm.to_device %c : !usm.array<256xf32, "level_zero:gpu:0", device>
                           -> !usm.array<256xf32, "opencl:cpu:0", device>
      return %d : !usm.array<256xf32, "opencl:cpu:0", device>
    }
    ```
    prints
    ```
    placement report for @f
      queue "opencl:cpu:0": %arg0 (256xf32 device), %2 (256xf32 device)
      queue "level_zero:gpu:0": %0 (256xf32 device), %1 (256xf32 device)
      to_device %0 = %arg0: "opencl:cpu:0" device -> "level_zero:gpu:0" device, 1024 bytes
      to_device %2 = %1: "level_zero:gpu:0" device -> "opencl:cpu:0" device, 1024 bytes
        round trip: the data came from "opencl:cpu:0" through %0 and nothing was computed on "level_zero:gpu:0"
      2 migration(s), 2048 bytes of static size
    ```
    With `remarks` the same findings are emitted as remarks at the ops (a
    warning for a round trip) instead of printed.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "emit the report as remarks and warnings at the ops instead of "
           "printing it">
  ];
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

def USMExpandContractionsPass : Pass<"usm-expand-contractions"> {
  let summary = "writes usm.matmul as a broadcast product and a sum";
  let description = [{
    Rewrites each `usm.matmul` of static shape into usm ops that the fusion
    pass groups into one reduction kernel with the elementwise ops around
    it: the second operand is transposed so that the contracted axis is
    innermost, both operands get a unit axis, their broadcast product is
    summed over the contracted axis, and integer sums narrower than 64 bits
    are converted back to the element type. The product is never
    materialised once fused.

    ```mlir
    %c = usm.matmul %a, %b : (!usm.array<4x8xf32, "gpu:0", device>,
                              !usm.array<8x3xf32, "gpu:0", device>)
                          -> !usm.array<4x3xf32, "gpu:0", device>
    // becomes
    %t = usm.transpose %b [1, 0] : ... -> !usm.array<3x8xf32, "gpu:0", device>
    %x = usm.reshape %a : ... -> !usm.array<4x1x8xf32, "gpu:0", device>
    %y = usm.reshape %t : ... -> !usm.array<1x3x8xf32, "gpu:0", device>
    %p = usm.mul %x, %y : ... -> !usm.array<4x3x8xf32, "gpu:0", device>
    %c = usm.sum %p axes [2] : ... -> !usm.array<4x3xf32, "gpu:0", device>
    ```

    A `usm.matmul` with dynamic sizes is an error (not supported yet).

    With `library-calls` (the default), products that a field library
    computes faster stay `usm.matmul`, which `convert-usm-to-linalg` lowers
    to `usm.library_matmul` (BLAS on the host, cuBLAS on CUDA): those on a
    `host` or `cuda` queue, of `f32`, `f64` or complex elements, with at least
    `library-min-size` multiply-adds (`M * N * K` per batch element times
    the batch), whose operands' batch axes are the result's or all of size
    1. The elementwise ops around them still fuse with each other, in
    kernels before and after the call.
  }];
  let options = [
    Option<"libraryCalls", "library-calls", "bool", /*default=*/"true",
           "keep products that BLAS or cuBLAS computes as usm.matmul">,
    Option<"libraryMinSize", "library-min-size", "int64_t",
           /*default=*/"4096",
           "the fewest multiply-adds for which a library call is kept">
  ];
}

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
      reduced shape (the reduction's epilogue), or the reduction's input
      shape again when they feed no other reduction (a broadcast epilogue:
      `e / sum(e, keepdims)`, evaluated in one more pass that recomputes
      the prologue);
    - siblings: groups that read the same array and iterate over the same
      shape run as one kernel with several results;
    - gathers of static shapes (`usm.gather`: slices with steps, flips,
      integer-array indices, the `where` of a slice assignment) into
      elementwise groups: the indices are computed in the group and the
      source is an input read whole, at the computed positions (so the
      source's own producer runs first, and a gather never joins a
      reduction's group).

    What never fuses: `usm.to_device` (the only placement change; it stays a
    copy between kernels), ops on different queues, ops with side effects
    (`usm.to_host`, `usm.from_host`, calls), shape ops that reindex
    (`reshape`, `transpose`), ops in different blocks, and anything that
    would need a kernel to wait for itself (a cycle through an op outside
    the group), an op with side effects between a group's ops that uses one
    of its values, a reduction result broadcast back over the reduced input
    by a value that feeds another reduction (it goes with that reduction),
    or results of different shapes.

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

    Size: a group holds at most `max-group-ops` ops (default 512). A
    kernel's body is one loop nest, and the compilers after fusion (LLVM's
    optimiser, the GPU code generators) take time that grows faster than
    its length; past hundreds of ops the kernels' memory traffic is shared
    over so much arithmetic that splitting costs almost nothing at run
    time. A group also reads at most `max-group-inputs` values (default
    200): each input is a kernel parameter (an array is five on the host),
    the code that packs and unpacks them grows with their number, and a
    SPIR-V function takes at most 255 parameters. Cheap
    producers are not recomputed across such a split, nor copied into a
    group of `max-group-ops` ops.

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
    Option<"maxGroupOps", "max-group-ops", "unsigned", "512",
           "most ops in one group (0: no limit)">,
    Option<"maxGroupInputs", "max-group-inputs", "unsigned", "200",
           "most inputs of one group (0: no limit)">,
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
