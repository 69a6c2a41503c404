//===- ExpandContractions.cpp - usm.matmul as a product and a sum --------===//
//
// (..., M, K) x (..., K, N): transpose the second operand to (..., N, K),
// reshape the operands to (..., M, 1, K) and (..., 1, N, K), multiply with
// broadcasting and sum over the last axis. usm-fuse-elementwise then makes
// the product, the sum and the elementwise ops around them one kernel.
// Products that BLAS or cuBLAS computes faster stay usm.matmul (a library
// call once lowered).
//
//===----------------------------------------------------------------------===//

#include "sluice/Dialect/USM/IR/USMOps.h"
#include "sluice/Dialect/USM/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace sluice::usm {
#define GEN_PASS_DEF_USMEXPANDCONTRACTIONSPASS
#include "sluice/Dialect/USM/Transforms/Passes.h.inc"
} // namespace sluice::usm

using namespace mlir;
using namespace sluice::usm;

namespace {

ArrayType withShape(ArrayType t, ArrayRef<int64_t> shape) {
  return ArrayType::get(t.getContext(), shape, t.getElementType(), t.getQueue(),
                        t.getKind());
}

/// Whether a library computes `op` (see the pass's description).
bool servedByLibrary(MatmulOp op, int64_t minSize) {
  auto lhs = cast<ArrayType>(op.getLhs().getType());
  auto rhs = cast<ArrayType>(op.getRhs().getType());
  auto result = cast<ArrayType>(op.getResult().getType());
  if (!lhs.hasStaticShape() || !rhs.hasStaticShape())
    return false;
  StringRef backend = result.getQueue().getDevice().split(':').first;
  if (backend != "host" && backend != "cuda")
    return false;
  Type element = result.getElementType();
  if (auto complex = dyn_cast<ComplexType>(element))
    element = complex.getElementType();
  if (!element.isF32() && !element.isF64())
    return false;
  ArrayRef<int64_t> c = result.getShape();
  ArrayRef<int64_t> outBatch = c.drop_back(2);
  for (ArrayRef<int64_t> s : {lhs.getShape(), rhs.getShape()}) {
    ArrayRef<int64_t> batch = s.drop_back(2);
    if (batch != outBatch &&
        !llvm::all_of(batch, [](int64_t d) { return d == 1; }))
      return false;
  }
  int64_t k = lhs.getShape().back();
  double work = double(k);
  for (int64_t d : c)
    work *= double(d);
  return work >= double(minSize);
}

LogicalResult expand(MatmulOp op) {
  auto lhsType = cast<ArrayType>(op.getLhs().getType());
  auto rhsType = cast<ArrayType>(op.getRhs().getType());
  auto resultType = cast<ArrayType>(op.getResult().getType());
  if (!lhsType.hasStaticShape() || !rhsType.hasStaticShape())
    return op.emitOpError("with dynamic sizes is not supported by "
                          "usm-expand-contractions yet");
  OpBuilder b(op);
  Location loc = op.getLoc();
  ArrayRef<int64_t> a = lhsType.getShape(), bs = rhsType.getShape();
  int64_t rank = bs.size();

  // (..., K, N) -> (..., N, K)
  SmallVector<int64_t> perm, tShape(bs);
  for (int64_t i = 0; i < rank; ++i)
    perm.push_back(i);
  std::swap(perm[rank - 1], perm[rank - 2]);
  std::swap(tShape[rank - 1], tShape[rank - 2]);
  Value t = TransposeOp::create(b, loc, withShape(rhsType, tShape), op.getRhs(),
                                b.getDenseI64ArrayAttr(perm));

  // (..., M, K) -> (..., M, 1, K); (..., N, K) -> (..., 1, N, K)
  SmallVector<int64_t> xShape(a);
  xShape.insert(xShape.end() - 1, 1);
  SmallVector<int64_t> yShape(tShape);
  yShape.insert(yShape.end() - 2, 1);
  Value x = ReshapeOp::create(b, loc, withShape(lhsType, xShape), op.getLhs(),
                              ValueRange());
  Value y =
      ReshapeOp::create(b, loc, withShape(rhsType, yShape), t, ValueRange());
  Value p = MulOp::create(b, loc, x, y);
  int64_t last = cast<ArrayType>(p.getType()).getRank() - 1;
  Value s = SumOp::create(b, loc, p, b.getDenseI64ArrayAttr({last}),
                          /*keepdims=*/false);
  if (s.getType() != resultType)
    s = AstypeOp::create(b, loc, resultType, s);
  op.getResult().replaceAllUsesWith(s);
  op.erase();
  return success();
}

struct ExpandContractionsPass
    : public sluice::usm::impl::USMExpandContractionsPassBase<
          ExpandContractionsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<MatmulOp> ops;
    getOperation()->walk([&](MatmulOp op) { ops.push_back(op); });
    bool failed = false;
    for (MatmulOp op : ops)
      if (!libraryCalls || !servedByLibrary(op, libraryMinSize))
        failed |= mlir::failed(expand(op));
    if (failed)
      signalPassFailure();
  }
};

} // namespace
