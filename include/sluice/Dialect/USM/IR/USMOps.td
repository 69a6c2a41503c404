//===- USMOps.td - usm dialect operations ------------------*- tablegen -*-===//

#ifndef SLUICE_DIALECT_USM_IR_USMOPS_TD
#define SLUICE_DIALECT_USM_IR_USMOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "sluice/Dialect/USM/IR/USMDialect.td"
include "sluice/Dialect/USM/IR/USMTypes.td"

//===----------------------------------------------------------------------===//
// Type constraints and traits
//===----------------------------------------------------------------------===//

def USM_Array : Type<CPred<"::llvm::isa<::sluice::usm::ArrayType>($_self)">,
                     "usm array", "::sluice::usm::ArrayType">;
def USM_Scalar : AnyTypeOf<[AnySignlessInteger, AnyUnsignedInteger, AnyFloat,
                            AnyComplex],
                           "integer, floating-point or complex scalar">;
def USM_ArrayOrScalar : AnyTypeOf<[USM_Array, USM_Scalar],
                                  "usm array or scalar">;
def USM_HostData : AnyTypeOf<[AnyRankedTensor, AnyStridedMemRef],
                             "ranked tensor or memref">;

// Marks ops that apply a scalar function to each element of broadcast
// operands; fusion keys on it.
def USM_Elementwise : NativeOpTrait<"Elementwise"> {
  let cppNamespace = "::sluice::usm::OpTrait";
}
// Marks reductions over axes.
def USM_Reduction : NativeOpTrait<"Reduction"> {
  let cppNamespace = "::sluice::usm::OpTrait";
}

class USM_Op<string mnemonic, list<Trait> traits = []>
    : Op<USM_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

def USM_EmptyOp : USM_Op<"empty", [Pure]> {
  let summary = "an uninitialised array on a queue";
  let description = [{
    Allocates an array of the result type whose contents are unspecified,
    like `dpnp.empty`. One `index` operand gives each dynamic dimension.

    ```mlir
    %a = usm.empty(%n) : !usm.array<?x4xf32, "opencl:cpu:0", device>
    ```
  }];
  let arguments = (ins Variadic<Index>:$sizes);
  let results = (outs USM_Array:$result);
  let assemblyFormat = "`(` $sizes `)` attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def USM_FullOp : USM_Op<"full", [Pure]> {
  let summary = "an array filled with one scalar";
  let description = [{
    Creates an array of the result type with every element equal to `value`,
    like `dpnp.full`. The scalar has the array's element type (a signless
    integer of the same width stands for an unsigned element type). One
    `index` operand gives each dynamic dimension.

    ```mlir
    %c = arith.constant 1.5 : f32
    %a = usm.full %c (%n) : f32 -> !usm.array<?xf32, "host:cpu:0", host>
    ```
  }];
  let arguments = (ins USM_Scalar:$value, Variadic<Index>:$sizes);
  let results = (outs USM_Array:$result);
  let assemblyFormat = [{
    $value (`(` $sizes^ `)`)? attr-dict `:` type($value) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def USM_ArangeOp : USM_Op<"arange", [Pure, AllTypesMatch<["start", "step"]>]> {
  let summary = "evenly spaced values in a 1-D array";
  let description = [{
    Creates the 1-D array `start + i * step` for `i` in `[0, n)`, like
    `dpnp.arange`. `n` is the static length of the result or, when that is
    dynamic, the `index` operand in parentheses.

    ```mlir
    %a = usm.arange %start, %step : f32 -> !usm.array<16xf32, "opencl:cpu:0", device>
    %b = usm.arange %s, %t (%n) : i64 -> !usm.array<?xi64, "opencl:cpu:0", device>
    ```
  }];
  let arguments = (ins USM_Scalar:$start, USM_Scalar:$step,
                       Optional<Index>:$size);
  let results = (outs USM_Array:$result);
  let assemblyFormat = [{
    $start `,` $step (`(` $size^ `)`)? attr-dict `:` type($start) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def USM_ConstantOp : USM_Op<"constant", [ConstantLike, Pure]> {
  let summary = "an array with constant contents";
  let description = [{
    Creates an array from dense elements. The elements' tensor type has the
    array's shape and element type; the array has a static shape.

    ```mlir
    %c = usm.constant dense<[1.0, 2.0]> : tensor<2xf32>
           -> !usm.array<2xf32, "opencl:cpu:0", device>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs USM_Array:$result);
  let assemblyFormat = "$value `->` qualified(type($result)) attr-dict";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Host boundary and migration
//===----------------------------------------------------------------------===//

def USM_FromHostOp : USM_Op<"from_host"> {
  let summary = "copies host data (a memref or tensor) into an array on a queue";
  let description = [{
    The entry point for data that lives outside USM: a host memref or a
    tensor value is copied into a new array with the result's placement,
    like `dpnp.asarray(numpy_array, device=...)`. Shapes and element types
    must agree.

    ```mlir
    %a = usm.from_host %m : memref<?x4xf32> -> !usm.array<?x4xf32, "opencl:cpu:0", device>
    ```
  }];
  let arguments = (ins Arg<USM_HostData, "host data", [MemRead]>:$source);
  let results = (outs USM_Array:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def USM_ToHostOp : USM_Op<"to_host"> {
  let summary = "copies an array back into host data (a memref or tensor)";
  let description = [{
    The exit point to data outside USM, like `dpnp.asnumpy`: the array's
    contents are copied into a new host memref or tensor value. The copy
    waits for the work that produces the array.

    ```mlir
    %m = usm.to_host %a : !usm.array<4xf32, "opencl:cpu:0", device> -> memref<4xf32>
    ```
  }];
  let arguments = (ins USM_Array:$source);
  let results = (outs Res<USM_HostData, "host data", [MemAlloc]>:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def USM_ToDeviceOp : USM_Op<"to_device", [Pure]> {
  let summary = "migrates an array to another queue and/or USM kind";
  let description = [{
    The one operation that changes placement, like `x.to_device(dev)` or
    `dpnp.asarray(x, usm_type=...)`. Shape and element type are unchanged.
    A migration to the same placement folds away, and chains collapse into
    one migration.

    ```mlir
    %b = usm.to_device %a : !usm.array<8xf32, "opencl:cpu:0", device>
                         -> !usm.array<8xf32, "host:cpu:0", shared>
    ```
  }];
  let arguments = (ins USM_Array:$source);
  let results = (outs USM_Array:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise operations
//===----------------------------------------------------------------------===//

// How an elementwise op constrains element types and what it returns; the
// C++ inference (USMOps.cpp) implements each rule.
class USM_ElementRule<string name> { string rule = name; }
def USM_RuleArith      : USM_ElementRule<"Arith">;      // numeric, not i1
def USM_RuleArithOrBool: USM_ElementRule<"ArithOrBool">; // any element type
def USM_RuleFloat      : USM_ElementRule<"Float">;      // floating point only
def USM_RuleCompare    : USM_ElementRule<"Compare">;    // any -> i1
def USM_RuleLogical    : USM_ElementRule<"Logical">;    // any -> i1
def USM_RuleSelect     : USM_ElementRule<"Select">;     // i1 condition, any data
def USM_RuleInteger    : USM_ElementRule<"Integer">;    // integers and i1
def USM_RuleComplexPart: USM_ElementRule<"ComplexPart">; // float/complex -> real
def USM_RuleMakeComplex: USM_ElementRule<"MakeComplex">; // f32/f64 -> complex

class USM_ElementwiseOp<string mnemonic, USM_ElementRule r,
                        list<Trait> traits = []>
    : USM_Op<mnemonic, !listconcat(traits, [Pure, USM_Elementwise,
          DeclareOpInterfaceMethods<InferTypeOpInterface>])> {
  let results = (outs USM_Array:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        ::mlir::ValueRange operands, ::mlir::DictionaryAttr,
        ::mlir::OpaqueProperties, ::mlir::RegionRange,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferred) {
      return ::sluice::usm::inferElementwiseType(loc, getOperationName(),
          operands, ::sluice::usm::ElementRule::}] # r.rule # [{, inferred);
    }
  }];
}

class USM_BinaryOp<string mnemonic, USM_ElementRule r, string what,
                   string example, list<Trait> traits = []>
    : USM_ElementwiseOp<mnemonic, r, traits> {
  let summary = what # ", elementwise with broadcasting";
  let description = "Computes " # what # " of each pair of elements of "
    # "`lhs` and `rhs` after NumPy broadcasting. Either operand may be a "
    # "scalar of the array's element type; at least one is an array. Array "
    # "operands share one queue and one element type (convert with "
    # "`usm.astype`).\n\n```mlir\n" # example # "\n```";
  let arguments = (ins USM_ArrayOrScalar:$lhs, USM_ArrayOrScalar:$rhs);
}

class USM_UnaryOp<string mnemonic, USM_ElementRule r, string what,
                  string example>
    : USM_ElementwiseOp<mnemonic, r> {
  let summary = what # ", elementwise";
  let description = "Computes " # what # " of each element.\n\n```mlir\n"
    # example # "\n```";
  let arguments = (ins USM_Array:$operand);
}

def USM_AddOp : USM_BinaryOp<"add", USM_RuleArith, "the sum",
  "%c = usm.add %a, %b : (!usm.array<4x3xf32, \"gpu:0\", device>, !usm.array<3xf32, \"gpu:0\", device>) -> !usm.array<4x3xf32, \"gpu:0\", device>",
  [Commutative]> { let hasFolder = 1; }
def USM_SubOp : USM_BinaryOp<"sub", USM_RuleArith, "the difference",
  "%c = usm.sub %a, %b : (!usm.array<8xi32, \"host\", host>, i32) -> !usm.array<8xi32, \"host:cpu:0\", host>">
  { let hasFolder = 1; }
def USM_MulOp : USM_BinaryOp<"mul", USM_RuleArith, "the product",
  "%c = usm.mul %a, %s : (!usm.array<?xf64, \"gpu:0\", shared>, f64) -> !usm.array<?xf64, \"gpu:0\", shared>",
  [Commutative]> { let hasFolder = 1; }
def USM_DivOp : USM_BinaryOp<"div", USM_RuleFloat, "the true quotient (floating point only)",
  "%c = usm.div %a, %b : (!usm.array<4xf32, \"gpu:0\", device>, !usm.array<4xf32, \"gpu:0\", device>) -> !usm.array<4xf32, \"gpu:0\", device>">
  { let hasFolder = 1; }
def USM_FloorDivideOp : USM_BinaryOp<"floor_divide", USM_RuleArith,
  "the quotient rounded towards negative infinity (NumPy `floor_divide`)",
  "%c = usm.floor_divide %a, %b : (!usm.array<4xi64, \"gpu:0\", device>, i64) -> !usm.array<4xi64, \"gpu:0\", device>">;
def USM_RemainderOp : USM_BinaryOp<"remainder", USM_RuleArith,
  "the remainder with the sign of the divisor (NumPy `remainder`)",
  "%c = usm.remainder %a, %b : (!usm.array<4xf32, \"gpu:0\", device>, f32) -> !usm.array<4xf32, \"gpu:0\", device>">;
def USM_PowOp : USM_BinaryOp<"pow", USM_RuleArith, "`lhs` raised to the power `rhs`",
  "%c = usm.pow %a, %b : (!usm.array<4xf32, \"gpu:0\", device>, f32) -> !usm.array<4xf32, \"gpu:0\", device>">;
def USM_MaximumOp : USM_BinaryOp<"maximum", USM_RuleArithOrBool,
  "the larger value (NaN propagates, as in NumPy `maximum`)",
  "%c = usm.maximum %a, %b : (!usm.array<4xf32, \"gpu:0\", device>, !usm.array<4xf32, \"gpu:0\", device>) -> !usm.array<4xf32, \"gpu:0\", device>",
  [Commutative]> { let hasFolder = 1; }
def USM_MinimumOp : USM_BinaryOp<"minimum", USM_RuleArithOrBool,
  "the smaller value (NaN propagates, as in NumPy `minimum`)",
  "%c = usm.minimum %a, %b : (!usm.array<4xf32, \"gpu:0\", device>, !usm.array<4xf32, \"gpu:0\", device>) -> !usm.array<4xf32, \"gpu:0\", device>",
  [Commutative]> { let hasFolder = 1; }

def USM_EqOp : USM_BinaryOp<"eq", USM_RuleCompare, "`lhs == rhs` (result i1)",
  "%m = usm.eq %a, %b : (!usm.array<4xf32, \"gpu:0\", device>, f32) -> !usm.array<4xi1, \"gpu:0\", device>",
  [Commutative]>;
def USM_NeOp : USM_BinaryOp<"ne", USM_RuleCompare, "`lhs != rhs` (result i1)",
  "%m = usm.ne %a, %b : (!usm.array<4xf32, \"gpu:0\", device>, f32) -> !usm.array<4xi1, \"gpu:0\", device>",
  [Commutative]>;
def USM_LtOp : USM_BinaryOp<"lt", USM_RuleCompare, "`lhs < rhs` (result i1)",
  "%m = usm.lt %a, %b : (!usm.array<4xi32, \"gpu:0\", device>, !usm.array<4xi32, \"gpu:0\", device>) -> !usm.array<4xi1, \"gpu:0\", device>">;
def USM_LeOp : USM_BinaryOp<"le", USM_RuleCompare, "`lhs <= rhs` (result i1)",
  "%m = usm.le %a, %b : (!usm.array<4xi32, \"gpu:0\", device>, !usm.array<4xi32, \"gpu:0\", device>) -> !usm.array<4xi1, \"gpu:0\", device>">;
def USM_GtOp : USM_BinaryOp<"gt", USM_RuleCompare, "`lhs > rhs` (result i1)",
  "%m = usm.gt %a, %b : (!usm.array<4xi32, \"gpu:0\", device>, !usm.array<4xi32, \"gpu:0\", device>) -> !usm.array<4xi1, \"gpu:0\", device>">;
def USM_GeOp : USM_BinaryOp<"ge", USM_RuleCompare, "`lhs >= rhs` (result i1)",
  "%m = usm.ge %a, %b : (!usm.array<4xi32, \"gpu:0\", device>, !usm.array<4xi32, \"gpu:0\", device>) -> !usm.array<4xi1, \"gpu:0\", device>">;
def USM_LogicalAndOp : USM_BinaryOp<"logical_and", USM_RuleLogical,
  "the logical and of the elements' truth values (result i1)",
  "%m = usm.logical_and %a, %b : (!usm.array<4xi1, \"gpu:0\", device>, !usm.array<4xi1, \"gpu:0\", device>) -> !usm.array<4xi1, \"gpu:0\", device>",
  [Commutative]>;
def USM_LogicalOrOp : USM_BinaryOp<"logical_or", USM_RuleLogical,
  "the logical or of the elements' truth values (result i1)",
  "%m = usm.logical_or %a, %b : (!usm.array<4xi1, \"gpu:0\", device>, !usm.array<4xi1, \"gpu:0\", device>) -> !usm.array<4xi1, \"gpu:0\", device>",
  [Commutative]>;

def USM_NegativeOp : USM_UnaryOp<"negative", USM_RuleArith, "the negation",
  "%b = usm.negative %a : (!usm.array<4xf32, \"gpu:0\", device>) -> !usm.array<4xf32, \"gpu:0\", device>">
  { let hasFolder = 1; }
def USM_AbsOp : USM_UnaryOp<"abs", USM_RuleArith, "the absolute value",
  "%b = usm.abs %a : (!usm.array<4xi32, \"gpu:0\", device>) -> !usm.array<4xi32, \"gpu:0\", device>">;
// exp, log, sqrt, sin, cos, tanh and the other functions of one table:
include "sluice/Dialect/USM/IR/USMMathOps.td"

def USM_LogicalNotOp : USM_UnaryOp<"logical_not", USM_RuleLogical,
  "the logical negation of the element's truth value (result i1)",
  "%b = usm.logical_not %a : (!usm.array<4xf32, \"gpu:0\", device>) -> !usm.array<4xi1, \"gpu:0\", device>">;

def USM_WhereOp : USM_ElementwiseOp<"where", USM_RuleSelect> {
  let summary = "elementwise selection with broadcasting";
  let description = [{
    Picks `x` where `condition` is true and `y` elsewhere, after NumPy
    broadcasting of all three operands, like `dpnp.where(c, x, y)`. The
    condition has element type `i1`; `x` and `y` share an element type. Any
    operand may be a scalar; at least one is an array.

    ```mlir
    %r = usm.where %m, %a, %z : (!usm.array<4xi1, "gpu:0", device>,
           !usm.array<4xf32, "gpu:0", device>, f32) -> !usm.array<4xf32, "gpu:0", device>
    ```
  }];
  let arguments = (ins USM_ArrayOrScalar:$condition, USM_ArrayOrScalar:$x,
                       USM_ArrayOrScalar:$y);
}

def USM_AstypeOp : USM_Op<"astype", [Pure, USM_Elementwise]> {
  let summary = "converts each element to another element type";
  let description = [{
    Converts every element to the result's element type with NumPy's
    `astype` semantics: floats to integers truncate toward zero, any value to
    `i1` is `value != 0`, integers widen with their signedness. Shape and
    placement are unchanged.

    ```mlir
    %b = usm.astype %a : !usm.array<4xi32, "gpu:0", device> to !usm.array<4xf32, "gpu:0", device>
    ```
  }];
  let arguments = (ins USM_Array:$operand);
  let results = (outs USM_Array:$result);
  let assemblyFormat = "$operand attr-dict `:` qualified(type($operand)) `to` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

include "sluice/Dialect/USM/IR/USMComplexOps.td"

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class USM_ReductionOp<string mnemonic, string what>
    : USM_Op<mnemonic, [Pure, USM_Reduction,
          DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = what # " over axes";
  let description = "Reduces `input` with " # what # " over `axes` (all axes "
    # "when absent; negative axes count from the end), like `dpnp."
    # mnemonic # "`. With `keepdims` the reduced axes stay as size 1. "
    # "Sums and products of `i1` and of integers narrower than 64 bits "
    # "accumulate in and return the 64-bit type of the same signedness, as "
    # "NumPy does; other element types are kept.\n\n```mlir\n"
    # "%s = usm." # mnemonic # " %a axes [1] keepdims : "
    # "!usm.array<4x8xf32, \"gpu:0\", device> -> "
    # "!usm.array<4x1xf32, \"gpu:0\", device>\n"
    # "%t = usm." # mnemonic # " %a : "
    # "!usm.array<4x8xf32, \"gpu:0\", device> -> "
    # "!usm.array<f32, \"gpu:0\", device>\n```";
  let arguments = (ins USM_Array:$input,
                       OptionalAttr<DenseI64ArrayAttr>:$axes,
                       UnitAttr:$keepdims);
  let results = (outs USM_Array:$result);
  let assemblyFormat = [{
    $input (`axes` $axes^)? (`keepdims` $keepdims^)? attr-dict `:`
    qualified(type($input)) `->` qualified(type($result))
  }];
  let extraClassDeclaration = [{
    /// The reduced axes, normalised to [0, rank) and sorted.
    ::llvm::SmallVector<int64_t> getReducedAxes();
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        ::mlir::ValueRange operands, ::mlir::DictionaryAttr attrs,
        ::mlir::OpaqueProperties props, ::mlir::RegionRange,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferred) {
      Adaptor adaptor(operands, attrs, props);
      return ::sluice::usm::inferReductionType(loc, getOperationName(),
          operands[0], adaptor.getAxesAttr(), adaptor.getKeepdims(),
          /*widenIntegers=*/}] # !if(!or(!eq(mnemonic, "sum"), !eq(mnemonic, "prod")), "true", "false") # [{,
          inferred);
    }
    ::llvm::SmallVector<int64_t> $cppClass::getReducedAxes() {
      return ::sluice::usm::normalizeAxes(getInput().getType().getRank(),
                                          getAxesAttr());
    }
  }];
}

def USM_SumOp : USM_ReductionOp<"sum", "the sum">;
def USM_ProdOp : USM_ReductionOp<"prod", "the product">;
def USM_MaxOp : USM_ReductionOp<"max", "the maximum">;
def USM_MinOp : USM_ReductionOp<"min", "the minimum">;

//===----------------------------------------------------------------------===//
// Shape operations
//===----------------------------------------------------------------------===//

def USM_BroadcastToOp : USM_Op<"broadcast_to", [Pure]> {
  let summary = "broadcasts an array to a larger shape";
  let description = [{
    Repeats the array along new leading axes and along axes of size 1, with
    NumPy's `broadcast_to` rules. One `index` operand gives each dynamic
    dimension of the result.

    ```mlir
    %b = usm.broadcast_to %a : !usm.array<1x4xf32, "gpu:0", device>
                            -> !usm.array<3x4xf32, "gpu:0", device>
    %c = usm.broadcast_to %a (%n) : !usm.array<4xf32, "gpu:0", device>
                                 -> !usm.array<?x4xf32, "gpu:0", device>
    ```
  }];
  let arguments = (ins USM_Array:$input, Variadic<Index>:$sizes);
  let results = (outs USM_Array:$result);
  let assemblyFormat = [{
    $input (`(` $sizes^ `)`)? attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def USM_ReshapeOp : USM_Op<"reshape", [Pure]> {
  let summary = "gives an array a new shape with the same elements";
  let description = [{
    Reinterprets the elements, in row-major order, with the result's shape,
    like `dpnp.reshape`. One `index` operand gives each dynamic dimension of
    the result. When both shapes are static their element counts must agree.

    ```mlir
    %b = usm.reshape %a : !usm.array<2x6xf32, "gpu:0", device>
                       -> !usm.array<3x4xf32, "gpu:0", device>
    ```
  }];
  let arguments = (ins USM_Array:$input, Variadic<Index>:$sizes);
  let results = (outs USM_Array:$result);
  let assemblyFormat = [{
    $input (`(` $sizes^ `)`)? attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def USM_TransposeOp : USM_Op<"transpose", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "permutes the axes of an array";
  let description = [{
    Result axis `i` is input axis `permutation[i]`, like
    `dpnp.transpose(a, axes)`.

    ```mlir
    %t = usm.transpose %a [1, 0] : !usm.array<2x3xf32, "gpu:0", device>
                                -> !usm.array<3x2xf32, "gpu:0", device>
    ```
  }];
  let arguments = (ins USM_Array:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs USM_Array:$result);
  let assemblyFormat = [{
    $input $permutation attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

include "sluice/Dialect/USM/IR/USMIndexingOps.td"

//===----------------------------------------------------------------------===//
// Writes into existing arrays
//===----------------------------------------------------------------------===//

def USM_StoreOp : USM_Op<"store", [SameOperandsElementType]> {
  let summary = "writes an array's elements into another array's memory";
  let description = [{
    Copies `value` into the memory of `dest`, an array of the same shape and
    element type on the same queue, as `dest[...] = value` does: the
    destination of an eager in-place operation (`a += b`, `out=`). Both
    shapes must be equal (dynamic sizes are checked at run time).

    When `value` is the only result of an elementwise op or of an elementwise
    fused group, has no other use, and no op between its producer and the
    store touches `dest`, the producer writes straight into `dest` and no
    copy is made; `dest` may then also be one of the producer's operands (it
    is read at the same element it is written to). The caller guarantees
    that `dest` does not overlap the memory of any other operand in any
    other way (a different view of the same memory), as NumPy does by
    copying such operands first.

    ```mlir
    %s = usm.add %a, %b : (!A, !A) -> !A
    usm.store %s, %a : !A, !A
    ```
  }];
  let arguments = (ins USM_Array:$value,
                       Arg<USM_Array, "", [MemWrite]>:$dest);
  let assemblyFormat = [{
    $value `,` $dest attr-dict `:` qualified(type($value)) `,` qualified(type($dest))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Fused groups (built by usm-fuse-elementwise)
//===----------------------------------------------------------------------===//

def USM_FusedOp : USM_Op<"fused", [IsolatedFromAbove, SingleBlock,
    RecursiveMemoryEffects]> {
  let summary = "a group of array operations that runs as one kernel";
  let description = [{
    Holds a fusible group of array operations that the code generator turns
    into one kernel on `queue`, so each input is read once and each result is
    written once. The body is the group's original usm operations, unchanged,
    on the block arguments; `usm.yield` returns the group's results. Running
    the body gives exactly the results of the unfused program: the same
    values, element types and broadcasting.

    Inputs are everything the body reads from outside: arrays, scalars and
    `index` sizes of dynamic shapes. Each input is bound to a block argument
    of its type (`%x = %a : type`). All array inputs and results, and every
    array inside the body, are on `queue` (compute follows data); their USM
    kinds may differ, as they may for the ops inside. The body holds only
    operations without side effects, no `usm.to_device` (migration is a copy,
    never part of a kernel) and no nested `usm.fused`.

    A group is either elementwise (its results share one shape, the
    iteration space) or a reduction group: elementwise producers, one or
    more reductions over the same input shape and axes, and elementwise
    operations on the reduced results (the epilogue). A group may return
    several results (multi-output).

    ```mlir
    %r:2 = usm.fused "opencl:cpu:0" ins(%x = %a : !usm.array<4x3xf32, "opencl:cpu:0", device>,
                                        %y = %b : !usm.array<3xf32, "opencl:cpu:0", device>,
                                        %s = %c : f32)
        -> (!usm.array<4x3xf32, "opencl:cpu:0", device>, !usm.array<f32, "opencl:cpu:0", device>) {
      %0 = usm.mul %x, %s : (!usm.array<4x3xf32, "opencl:cpu:0", device>, f32) -> !usm.array<4x3xf32, "opencl:cpu:0", device>
      %1 = usm.add %0, %y : (!usm.array<4x3xf32, "opencl:cpu:0", device>, !usm.array<3xf32, "opencl:cpu:0", device>) -> !usm.array<4x3xf32, "opencl:cpu:0", device>
      %2 = usm.sum %1 : !usm.array<4x3xf32, "opencl:cpu:0", device> -> !usm.array<f32, "opencl:cpu:0", device>
      usm.yield %1, %2 : !usm.array<4x3xf32, "opencl:cpu:0", device>, !usm.array<f32, "opencl:cpu:0", device>
    }
    ```
  }];
  let arguments = (ins USM_QueueAttr:$queue, Variadic<AnyType>:$inputs);
  let results = (outs Variadic<USM_Array>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// The terminator of the body.
    YieldOp getYield();
  }];
}

def USM_YieldOp : USM_Op<"yield", [Pure, Terminator,
    HasParent<"FusedOp">]> {
  let summary = "returns the results of a fused group";
  let description = [{
    Terminates the body of `usm.fused`; its operands become the op's results,
    in order and with the same types.

    ```mlir
    usm.yield %1, %2 : !usm.array<4xf32, "gpu:0", device>, !usm.array<f32, "gpu:0", device>
    ```
  }];
  let arguments = (ins Variadic<USM_Array>:$values);
  let assemblyFormat = "($values^ `:` qualified(type($values)))? attr-dict";
}

//===----------------------------------------------------------------------===//
// Run-time checks (built by convert-usm-to-linalg)
//===----------------------------------------------------------------------===//

def USM_AssertOp : USM_Op<"assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "fails the running program unless a condition holds";
  let description = [{
    Checks a precondition that only the run time can decide, such as the
    NumPy broadcasting of dynamic dimensions or the element count of a
    reshape with dynamic sizes. When `condition` is false the program fails
    with `message`, in which `{i}` stands for `values[i]` in decimal and `{{`
    for `{`. The failure is recoverable, never an abort: the runtime records
    it as the invocation's error (`sluiceProgramFail`, status
    `SLUICE_ERROR_INVALID_VALUE`), every later allocation, copy and launch of
    the invocation does nothing, and the entry point returns the status with
    the message. `convert-usm-to-linalg` emits the checks before the
    allocations and kernels they guard; `convert-host-to-runtime` lowers them.

    ```mlir
    usm.assert %ok, "usm.add at a.mlir:3:8: operands could not be broadcast together with shapes ({0},) ({1},)" (%n, %m)
    ```
  }];
  let arguments = (ins I1:$condition, StrAttr:$message,
                       Variadic<Index>:$values);
  let assemblyFormat = "$condition `,` $message (` ` `(` $values^ `)`)? attr-dict";
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

include "sluice/Dialect/USM/IR/USMLinalgOps.td"

#endif // SLUICE_DIALECT_USM_IR_USMOPS_TD
