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

def USM_LibraryMatmulOp : USM_Op<"library_matmul", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "a batched matrix product by the queue's library, on buffers";
  let description = [{
    The form `usm.matmul` takes after `convert-usm-to-linalg` where a field
    library computes the product: the batched matrix product of `lhs`
    (`(..., M, K)`) and `rhs` (`(..., K, N)`) written into `out` (`(...,
    M, N)`, row-major and contiguous), on the queue of `out`'s memory space.
    Each operand's batch axes are either `out`'s or all of size 1 (the
    matrix is then used for every batch element); operands have row-major
    strides. `convert-host-to-runtime` lowers it to `sluiceProgramMatmul`,
    which runs the GEMM of the BLAS library found at run time on host
    queues and cuBLAS (loaded at run time) on CUDA queues, ordered with
    the queue's other work.

    ```mlir
    usm.library_matmul %a, %b, %c : memref<64x32xf32, #usm.placement<"host:cpu:0", device>>,
        memref<32x16xf32, #usm.placement<"host:cpu:0", device>>,
        memref<64x16xf32, #usm.placement<"host:cpu:0", device>>
    ```
  }];
  let arguments = (ins AnyStridedMemRef:$lhs, AnyStridedMemRef:$rhs,
                       AnyStridedMemRef:$out);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $out attr-dict `:` type($lhs) `,` type($rhs) `,`
    type($out)
  }];
  let hasVerifier = 1;
}

#endif // SLUICE_DIALECT_USM_IR_USMLINALGOPS_TD
