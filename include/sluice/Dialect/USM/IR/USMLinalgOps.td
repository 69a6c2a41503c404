//===- USMLinalgOps.td - usm dialect contractions ----------*- tablegen -*-===//
//
// Included by USMOps.td: the ops of linear algebra.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_DIALECT_USM_IR_USMLINALGOPS_TD
#define SLUICE_DIALECT_USM_IR_USMLINALGOPS_TD

def USM_MatmulOp : USM_Op<"matmul", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "the batched matrix product";
  let description = [{
    The matrix product of the last two axes, `(..., M, K) x (..., K, N) ->
    (..., M, N)`, like `dpnp.matmul` on operands of rank 2 or more: the axes
    before the last two broadcast with NumPy's rules. Both operands are on
    one queue (compute follows data; the result is there, with the coerced
    USM kind) and have one numeric element type, which the result keeps
    (convert with `usm.astype` first; `i1` is not accepted).

    `usm-expand-contractions` rewrites the op into a broadcast product and a
    sum over `K`, which `usm-fuse-elementwise` makes one reduction kernel
    together with the elementwise ops around it (`relu(a @ b + bias)`).

    ```mlir
    %c = usm.matmul %a, %b : (!usm.array<8x4x16xf32, "gpu:0", device>,
                              !usm.array<16x32xf32, "gpu:0", device>)
                          -> !usm.array<8x4x32xf32, "gpu:0", device>
    ```
  }];
  let arguments = (ins USM_Array:$lhs, USM_Array:$rhs);
  let results = (outs USM_Array:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` `(` qualified(type($lhs)) `,`
    qualified(type($rhs)) `)` `->` qualified(type($result))
  }];
}

#endif // SLUICE_DIALECT_USM_IR_USMLINALGOPS_TD
