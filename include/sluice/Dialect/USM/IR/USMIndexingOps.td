//===- USMIndexingOps.td - usm dialect indexing operations -*- tablegen -*-===//
//
// Included from USMOps.td (one op definition file per family).
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_DIALECT_USM_IR_USMINDEXINGOPS_TD
#define SLUICE_DIALECT_USM_IR_USMINDEXINGOPS_TD

def USM_GatherOp : USM_Op<"gather", [Pure]> {
  let summary = "reads the elements of an array at flat positions";
  let description = [{
    `result[j] = source.flat[indices[j]]`: the result has the shape of
    `indices` and the element type of `source`, whose elements are numbered
    in row-major order. Slices with any step, integer-array indices, flips,
    rolls, tiles and diagonals are gathers whose indices are computed
    elementwise. Indices outside `[0, size)` are clamped into it (the front
    ends check ranges before, with NumPy's errors), so a gather never reads
    out of bounds (an empty source must come with empty indices). All
    three arrays are on one queue.

    ```mlir
    %r = usm.gather %a[%i] : !usm.array<4x5xf32, "gpu:0", device>,
                             !usm.array<3xi64, "gpu:0", device>
                          -> !usm.array<3xf32, "gpu:0", device>
    ```
  }];
  let arguments = (ins USM_Array:$source, USM_Array:$indices);
  let results = (outs USM_Array:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` attr-dict `:` qualified(type($source)) `,`
    qualified(type($indices)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def USM_StridedViewOp : USM_Op<"strided_view", [Pure, AttrSizedOperandSegments]> {
  let summary = "reads a strided window of a flat array";
  let description = [{
    `result[i_0, ..., i_k] = base[offset + i_0 * strides[0] + ... +
    i_k * strides[k]]`: the elements of a view (a basic slice, a transpose,
    a negative step) of memory the program receives whole, as a 1-D array,
    with the view's offset, sizes and strides as `index` operands (one size
    and one stride per result dimension; static result sizes must equal
    their operands). Elementwise consumers read through the view without a
    copy (the lowering passes the strides on to the kernel); any other use
    reads a contiguous copy. The caller guarantees every element the view
    reaches lies inside `base`. Both arrays are on one queue.

    ```mlir
    %v = usm.strided_view %base[%off] sizes(%m, %n) strides(%s, %c1)
        : !usm.array<?xf32, "gpu:0", device>
       -> !usm.array<?x?xf32, "gpu:0", device>
    ```
  }];
  let arguments = (ins USM_Array:$base, Index:$offset, Variadic<Index>:$sizes,
                       Variadic<Index>:$strides);
  let results = (outs USM_Array:$result);
  let assemblyFormat = [{
    $base `[` $offset `]` `sizes` `(` $sizes `)` `strides` `(` $strides `)`
    attr-dict `:` qualified(type($base)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def USM_StridedInsertOp : USM_Op<"strided_insert",
    [Pure, AttrSizedOperandSegments, AllTypesMatch<["dest", "result"]>]> {
  let summary = "an array with a strided window replaced (value semantics)";
  let description = [{
    The functional form of `dest[key] = value` for a basic key: `result` is
    `dest` except at the positions of the strided window, where
    `result.flat[offset + i_0 * strides[0] + ... + i_k * strides[k]] =
    value[i_0, ..., i_k]` (positions number `dest`'s elements in row-major
    order, as `usm.strided_view` numbers its base's). `value` has one
    dimension per size and stride (static sizes of `value` must equal
    constant size operands); the front end broadcasts and converts it
    first. Strides may be negative or zero only where the size is 1; the
    window lies inside `dest` (checked when every operand is a constant).
    `dest`, `value` and `result` are on one queue.

    The lowering copies `dest` into the result and writes `value` into the
    window, unless the update is in place: `dest` is not a view, it is
    defined in the update's block, neither `dest` nor any view of it is
    used after the update (block order, nested regions included), `value`
    is not a view of `dest`, and `dest`'s memory may be reused: the result
    of an operation that allocates, of another `usm.strided_insert`, or a
    function argument that a later `usm.store` overwrites with this update's
    result (through further updates of it). Then only the window is
    written, and that store is no copy.

    ```mlir
    %r = usm.strided_insert %v into %u[%c65] sizes(%c62, %c62)
        strides(%c64, %c1)
        : !usm.array<62x62xf32, "cpu:0", device>,
          !usm.array<64x64xf32, "cpu:0", device>
    ```
  }];
  let arguments = (ins USM_Array:$value, USM_Array:$dest, Index:$offset,
                       Variadic<Index>:$sizes, Variadic<Index>:$strides);
  let results = (outs USM_Array:$result);
  let assemblyFormat = [{
    $value `into` $dest `[` $offset `]` `sizes` `(` $sizes `)` `strides` `(`
    $strides `)` attr-dict `:` qualified(type($value)) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def USM_ScatterOp : USM_Op<"scatter",
    [Pure, AllTypesMatch<["dest", "result"]>]> {
  let summary = "an array with elements at flat positions replaced (value semantics)";
  let description = [{
    The functional form of `dest[indices] = value` with integer index
    arrays: `result` is `dest` except that `result.flat[positions[j]] =
    value[j]` for every position `j` of `positions` (the elements of `dest`
    numbered in row-major order, as `usm.gather` numbers its source's).
    `value` and `positions` have one shape; the front end broadcasts and
    converts the value first. Positions outside `[0, size)` are clamped
    into it (the front ends check ranges, with NumPy's errors), so a
    scatter never writes out of bounds. Where positions repeat, one of
    their values is written, which one unspecified (NumPy leaves the
    order of advanced assignment unspecified too). `value`, `dest`,
    `positions` and `result` are on one queue.

    The lowering copies `dest` into the result and writes each value at
    its position, one work-item per position, unless the update is in
    place, under the conditions of `usm.strided_insert` (`dest` dead after
    the update and its memory reusable, `value` and `positions` not views
    of it): then only the positions are written.

    ```mlir
    %r = usm.scatter %v into %x[%p]
        : !usm.array<3xf32, "cpu:0", device>,
          !usm.array<3xi64, "cpu:0", device>,
          !usm.array<4x5xf32, "cpu:0", device>
    ```
  }];
  let arguments = (ins USM_Array:$value, USM_Array:$dest,
                       USM_Array:$positions);
  let results = (outs USM_Array:$result);
  let assemblyFormat = [{
    $value `into` $dest `[` $positions `]` attr-dict `:`
    qualified(type($value)) `,` qualified(type($positions)) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
}

#endif // SLUICE_DIALECT_USM_IR_USMINDEXINGOPS_TD
