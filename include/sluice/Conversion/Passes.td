//===- Passes.td - Sluice conversion passes ----------------*- tablegen -*-===//

#ifndef SLUICE_CONVERSION_PASSES_TD
#define SLUICE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertUSMToLinalgPass : Pass<"convert-usm-to-linalg", "mlir::ModuleOp"> {
  let summary = "Lower usm arrays to memrefs in USM memory spaces and linalg";
  let description = [{
    Converts every `!usm.array` to a memref whose memory space is the array's
    `#usm.placement` (the queue and USM kind), with an identity layout and a
    signless element type; function signatures, calls, returns, branches and
    `scf` control flow follow.

    Arrays are immutable values, so each op that produces one allocates a
    fresh, 64-byte aligned buffer in its placement and fills it:

    - elementwise ops, `broadcast_to` and `arange`: one `linalg.generic` with
      NumPy broadcasting maps and the op's scalar function as its body
      (signedness from the usm element type; NumPy's floor division,
      remainder, NaN comparison and `astype` semantics);
    - reductions: `linalg.fill` with the identity, then a `linalg.generic`
      with reduction iterators (`keepdims` writes a collapsed view);
    - `to_device`, `from_host`, `to_host`, `constant`: an allocation and a
      `memref.copy` (constants from a private global);
    - `reshape`: a row-major view of the input; `transpose`: `linalg.transpose`.

    ```mlir
    // Before
    %c = usm.add %a, %b : (!usm.array<4x3xf32, "opencl:cpu:0", device>,
                           !usm.array<3xf32, "opencl:cpu:0", device>)
                        -> !usm.array<4x3xf32, "opencl:cpu:0", device>
    // After
    %c = memref.alloc() {alignment = 64 : i64}
       : memref<4x3xf32, #usm.placement<"opencl:cpu:0", device>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                     affine_map<(d0, d1) -> (d1)>,
                                     affine_map<(d0, d1) -> (d0, d1)>], ...}
        ins(%a, %b : ...) outs(%c : ...) {
    ^bb0(%x: f32, %y: f32, %out: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
    ```

    Dynamic dimensions are assumed not to broadcast at run time (a `?` meets
    only an equal size or a static 1).
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::math::MathDialect",
    "mlir::linalg::LinalgDialect", "mlir::memref::MemRefDialect",
    "mlir::affine::AffineDialect", "mlir::bufferization::BufferizationDialect"
  ];
}

#endif // SLUICE_CONVERSION_PASSES_TD
