//===- ShortRowLowering.cpp - Reduction groups over short rows, unrolled --===//
//
// A fused reduction group whose reduction combines a few elements per
// output (a static reduced extent of at most kMaxUnrolledRow: the 3
// coordinates of pairwise distances) and that returns one value of the
// reduction's result shape lowers to ONE elementwise linalg.generic over
// that shape (dynamic sizes included: an operand that may be broadcast at
// run time is read through a stride-0 view). Its body evaluates the prologue at
// each of the row's positions (an operand that varies along the reduced axes is
// read once per position, through an indexing map with the position as
// constants), folds the values into the accumulator, then evaluates the
// epilogue on it: `sqrt(((p[:, None] - p[None]) ** 2).sum(-1))` is one kernel
// with no reduction loop, no index arithmetic per reduced element and no second
// kernel for `sqrt`.
//
// The order of the combination is fixed: from the identity, the row's
// positions in ascending row-major order of the reduced axes, `acc =
// combine(acc, x)`, no reassociation. The GPU targets' reduction kernels
// add such rows in that order (one slice per output, reduced serially:
// every slicing grain and CUDA's workgroup-per-row threshold exceed the
// bound), so there the values are the unfused program's bit for bit; the
// host's reduction kernel lets LLVM reassociate (docs/fusion.md).
//
//===----------------------------------------------------------------------===//

#include "Broadcasting.h"
#include "sluice/Conversion/USMToLinalg/USMToLinalg.h"
#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace sluice::usm;

namespace {

/// The longest row a reduction group unrolls.
constexpr int64_t kMaxUnrolledRow = 8;

/// The group's reduction when the group qualifies: a static reduced extent
/// of 1 to kMaxUnrolledRow, and every result computed from the reduction's
/// result with its shape. With `prologue`, results computed without the
/// reduction (values of its prologue the program also uses) are allowed
/// and their positions collected there, as long as one result is the
/// reduction's.
Operation *shortRowReduction(FusedOp op,
                             SmallVectorImpl<unsigned> *prologue = nullptr) {
  if (!isReductionGroup(op))
    return nullptr;
  Block &body = op.getBody().front();
  Operation *reduction = nullptr;
  for (Operation &inner : body.without_terminator())
    if (inner.hasTrait<sluice::usm::OpTrait::Reduction>())
      reduction = &inner;
  auto inType = cast<ArrayType>(reduction->getOperand(0).getType());
  int64_t extent = 1;
  for (int64_t axis :
       normalizeAxes(inType.getRank(),
                     reduction->getAttrOfType<DenseI64ArrayAttr>("axes")))
    extent *= inType.getDimSize(axis);
  if (extent < 1 || extent > kMaxUnrolledRow)
    return nullptr; // (a dynamic size is negative)
  // The ops that read the reduction's result, directly or not.
  llvm::SmallPtrSet<Operation *, 16> after{reduction};
  for (Operation &inner : body.without_terminator())
    if (llvm::any_of(inner.getOperands(), [&](Value v) {
          return v.getDefiningOp() && after.contains(v.getDefiningOp());
        }))
      after.insert(&inner);
  auto resultShape =
      cast<ArrayType>(reduction->getResult(0).getType()).getShape();
  auto yield = cast<YieldOp>(body.getTerminator());
  bool reduced = false;
  for (auto [k, v] : llvm::enumerate(yield.getOperands())) {
    if (prologue && !after.contains(v.getDefiningOp())) {
      prologue->push_back(k);
      continue;
    }
    if (!after.contains(v.getDefiningOp()) ||
        cast<ArrayType>(v.getType()).getShape() != resultShape)
      return nullptr;
    reduced = true;
  }
  return reduced ? reduction : nullptr;
}

/// A group like `op` yielding its results at `which`, before `op`: the body
/// cloned, less the ops those results do not need.
FusedOp groupOf(OpBuilder &b, FusedOp op, ArrayRef<unsigned> which) {
  Block &body = op.getBodyBlock();
  auto yield = cast<YieldOp>(body.getTerminator());
  SmallVector<Type> types;
  for (unsigned k : which)
    types.push_back(op.getResult(k).getType());
  b.setInsertionPoint(op);
  auto group =
      FusedOp::create(b, op.getLoc(), types, op.getQueue(), op.getInputs());
  Block *copy = b.createBlock(&group.getBody());
  IRMapping map;
  for (BlockArgument arg : body.getArguments())
    map.map(arg, copy->addArgument(arg.getType(), arg.getLoc()));
  for (Operation &inner : body.without_terminator())
    b.clone(inner, map);
  SmallVector<Value> yielded;
  for (unsigned k : which)
    yielded.push_back(map.lookup(yield.getOperand(k)));
  YieldOp::create(b, yield.getLoc(), yielded);
  SmallVector<Operation *> ops;
  for (Operation &inner : copy->without_terminator())
    ops.push_back(&inner);
  for (Operation *inner : llvm::reverse(ops))
    if (inner->use_empty())
      inner->erase();
  return group;
}

/// The run-time shape of every value of the group (checked op by op as the
/// unfused program would be), from the inputs'.
llvm::DenseMap<Value, Shape> groupShapes(OpBuilder &b, Block &body,
                                         ValueRange inputs,
                                         Operation *reduction) {
  Location loc = reduction->getLoc();
  llvm::DenseMap<Value, Shape> shapes;
  for (auto [arg, input] : llvm::zip(body.getArguments(), inputs))
    shapes[arg] = runtimeShape(b, loc, input);
  for (Operation &inner : body.without_terminator()) {
    if (isa<arith::ConstantOp>(inner))
      continue;
    if (&inner == reduction) {
      const Shape &in = shapes[inner.getOperand(0)];
      SmallVector<int64_t> axes = normalizeAxes(
          in.size(), inner.getAttrOfType<DenseI64ArrayAttr>("axes"));
      Shape reduced;
      for (auto [i, d] : llvm::enumerate(in)) {
        if (!llvm::is_contained(axes, static_cast<int64_t>(i)))
          reduced.push_back(d);
        else if (inner.hasAttr("keepdims"))
          reduced.push_back(b.getIndexAttr(1));
      }
      shapes[inner.getResult(0)] = reduced;
      continue;
    }
    SmallVector<Shape> operandShapes;
    for (Value v : inner.getOperands())
      operandShapes.push_back(shapes.lookup(v));
    shapes[inner.getResult(0)] = broadcastAtRunTime(
        b, inner.getLoc(), &inner, operandShapes,
        cast<ArrayType>(inner.getResult(0).getType()).getShape());
  }
  return shapes;
}

/// The ops of `body` that compute `roots`, not looking past `stop`.
llvm::SmallPtrSet<Operation *, 16> sliceOf(ValueRange roots, Operation *stop) {
  llvm::SmallPtrSet<Operation *, 16> ops;
  SmallVector<Value> work(roots.begin(), roots.end());
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def == stop || isa<arith::ConstantOp>(def) ||
        !ops.insert(def).second)
      continue;
    llvm::append_range(work, def->getOperands());
  }
  return ops;
}

/// The operands of the generic: one per (group input, indexing map).
struct Reads {
  SmallVector<Value> values;
  SmallVector<AffineMap> maps;

  /// The position of input `value` read through `map`, added if new.
  size_t add(Value value, AffineMap map) {
    for (auto [k, v] : llvm::enumerate(values))
      if (v == value && maps[k] == map)
        return k;
    values.push_back(value);
    maps.push_back(map);
    return values.size() - 1;
  }
};

/// The map reading an array of static shape `shape` at the points of a
/// space whose dimension i is `dims[i]` (right-aligned, NumPy rules: a size
/// of 1 is read at 0).
AffineMap broadcastMap(ArrayRef<int64_t> shape, ArrayRef<AffineExpr> dims,
                       unsigned numLoops, MLIRContext *ctx) {
  SmallVector<AffineExpr> exprs;
  size_t offset = dims.size() - shape.size();
  for (auto [j, d] : llvm::enumerate(shape))
    exprs.push_back(d == 1 ? getAffineConstantExpr(0, ctx) : dims[j + offset]);
  return AffineMap::get(numLoops, 0, exprs, ctx);
}

struct FusedShortRowLowering : OpConversionPattern<FusedOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(FusedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Operation *reduction = shortRowReduction(op);
    Block &body = op.getBody().front();
    auto yield = cast<YieldOp>(body.getTerminator());
    // One value returned (maybe several times): the iteration space is
    // its run-time shape.
    if (!reduction || llvm::any_of(yield.getOperands(), [&](Value v) {
          return v != yield.getOperand(0);
        }))
      return rewriter.notifyMatchFailure(op, "not a short-row reduction");
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value input = reduction->getOperand(0);
    Value result = yield.getOperand(0);
    auto inType = cast<ArrayType>(input.getType());
    int64_t rank = inType.getRank();
    unsigned numLoops = cast<ArrayType>(result.getType()).getRank();
    SmallVector<int64_t> axes = normalizeAxes(
        rank, reduction->getAttrOfType<DenseI64ArrayAttr>("axes"));
    bool keepdims = reduction->hasAttr("keepdims");
    llvm::DenseMap<Value, Shape> shapes =
        groupShapes(rewriter, body, adaptor.getInputs(), reduction);
    Shape space = shapes[result];

    // The loops as dimensions of the reduction's input (a reduced one is a
    // constant, set per position; its size is static) and of the result.
    SmallVector<AffineExpr> inDims(rank), outDims;
    Shape inSpace(rank);
    for (unsigned i = 0; i < numLoops; ++i)
      outDims.push_back(getAffineDimExpr(i, ctx));
    for (int64_t i = 0, kept = 0; i < rank; ++i) {
      if (llvm::is_contained(axes, i)) {
        inSpace[i] = rewriter.getIndexAttr(inType.getDimSize(i));
        continue;
      }
      int64_t j = keepdims ? i : kept++;
      inDims[i] = outDims[j];
      inSpace[i] = space[j];
    }
    SmallVector<SmallVector<int64_t>> positions = rowPositions(inType, axes);

    llvm::SmallPtrSet<Operation *, 16> prologue =
        sliceOf(ValueRange(input), nullptr);
    llvm::SmallPtrSet<Operation *, 16> epilogue =
        sliceOf(yield.getOperands(), reduction);
    // The operand each block argument is read through, per space: a
    // stride-0 view where a dynamic size may be broadcast at run time.
    Reads reads;
    llvm::DenseMap<std::pair<Value, unsigned>, Value> views;
    auto readsOf = [&](const llvm::SmallPtrSet<Operation *, 16> &ops,
                       Value root, ArrayRef<AffineExpr> dims, bool inner) {
      const Shape &target = inner ? inSpace : space;
      llvm::DenseMap<Value, size_t> at;
      auto read = [&](Value v) {
        auto arg = dyn_cast<BlockArgument>(v);
        if (!arg || arg.getOwner() != &body || at.count(v))
          return;
        Value in = adaptor.getInputs()[arg.getArgNumber()];
        auto array = dyn_cast<ArrayType>(v.getType());
        if (!array) {
          at[v] = reads.add(in, AffineMap::get(numLoops, 0, {}, ctx));
          return;
        }
        BroadcastOperand operand{in, shapes[v]};
        if (!needsRunTimeBroadcast({operand}, target)) {
          at[v] = reads.add(
              in, broadcastMap(array.getShape(), dims, numLoops, ctx));
          return;
        }
        Value &view = views[{v, inner ? 1u : 0u}];
        if (!view)
          view = broadcastView(rewriter, loc, operand, target);
        at[v] = reads.add(
            view,
            AffineMap::get(numLoops, 0, dims.take_back(array.getRank()), ctx));
      };
      read(root);
      for (Operation &inner : body.without_terminator())
        if (ops.contains(&inner))
          llvm::for_each(inner.getOperands(), read);
      return at;
    };
    SmallVector<llvm::DenseMap<Value, size_t>> rowReads;
    for (const SmallVector<int64_t> &p : positions) {
      SmallVector<AffineExpr> dims(inDims);
      for (auto [axis, c] : llvm::zip(axes, p))
        dims[axis] = getAffineConstantExpr(c, ctx);
      rowReads.push_back(readsOf(prologue, input, dims, /*inner=*/true));
    }
    llvm::DenseMap<Value, size_t> outReads =
        readsOf(epilogue, reduction->getResult(0), outDims, /*inner=*/false);

    SmallVector<Value> outs;
    SmallVector<AffineMap> maps(reads.maps);
    for (Type type : op.getResultTypes()) {
      auto memref = cast<MemRefType>(getTypeConverter()->convertType(type));
      outs.push_back(memref::AllocOp::create(rewriter, loc, memref,
                                             dynamicSizes(space),
                                             rewriter.getI64IntegerAttr(64)));
      maps.push_back(rewriter.getMultiDimIdentityMap(numLoops));
    }
    SmallVector<utils::IteratorType> iterators(numLoops,
                                               utils::IteratorType::parallel);
    Type element = inType.getElementType();
    Type accElement =
        cast<ArrayType>(reduction->getResult(0).getType()).getElementType();
    linalg::GenericOp::create(
        rewriter, loc, TypeRange(), reads.values, outs, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          // The unfused reduction's order: from the identity, ascending.
          Value acc = reductionIdentity(b, l, reduction, accElement);
          for (const llvm::DenseMap<Value, size_t> &at : rowReads) {
            IRMapping scalars;
            emitOps(b, body, prologue, at, args, scalars);
            Value x = emitScalarCast(b, l, scalars.lookup(input), element,
                                     accElement);
            acc = reductionCombine(b, l, reduction, accElement, acc, x);
          }
          IRMapping scalars;
          scalars.map(reduction->getResult(0), acc);
          emitOps(b, body, epilogue, outReads, args, scalars);
          SmallVector<Value> results(outs.size(), scalars.lookup(result));
          linalg::YieldOp::create(b, l, results);
        });
    rewriter.replaceOp(op, outs);
    return success();
  }

  /// The row's positions: the reduced axes' indices in ascending row-major
  /// order.
  static SmallVector<SmallVector<int64_t>>
  rowPositions(ArrayType inType, ArrayRef<int64_t> axes) {
    SmallVector<SmallVector<int64_t>> positions{{}};
    for (int64_t axis : axes) {
      SmallVector<SmallVector<int64_t>> next;
      for (const SmallVector<int64_t> &p : positions)
        for (int64_t c = 0; c < inType.getDimSize(axis); ++c) {
          next.push_back(p);
          next.back().push_back(c);
        }
      positions = std::move(next);
    }
    return positions;
  }

  /// The scalar code of `ops` in body order, block arguments read from
  /// `args` at the positions `at` gives.
  static void emitOps(OpBuilder &b, Block &body,
                      const llvm::SmallPtrSet<Operation *, 16> &ops,
                      const llvm::DenseMap<Value, size_t> &at, ValueRange args,
                      IRMapping &scalars) {
    for (auto [v, k] : at)
      scalars.map(v, args[k]);
    for (Operation &inner : body.without_terminator()) {
      if (isa<arith::ConstantOp>(inner)) {
        b.clone(inner, scalars);
        continue;
      }
      if (!ops.contains(&inner))
        continue;
      SmallVector<Value> operands;
      for (Value v : inner.getOperands())
        operands.push_back(scalars.lookup(v));
      scalars.map(inner.getResult(0),
                  emitScalarOp(b, inner.getLoc(), &inner, operands));
    }
  }
};

} // namespace

void sluice::usm::splitShortRowGroups(Operation *root) {
  SmallVector<FusedOp> groups;
  root->walk([&](FusedOp op) { groups.push_back(op); });
  for (FusedOp op : groups) {
    SmallVector<unsigned> prologue;
    if (!shortRowReduction(op, &prologue) || prologue.empty())
      continue;
    // The values must make an elementwise group: one shape for them all.
    auto shape = cast<ArrayType>(op.getResult(prologue[0]).getType());
    if (llvm::any_of(prologue, [&](unsigned k) {
          return cast<ArrayType>(op.getResult(k).getType()).getShape() !=
                 shape.getShape();
        }))
      continue;
    SmallVector<unsigned> reduced;
    for (unsigned k = 0; k < op.getNumResults(); ++k)
      if (!llvm::is_contained(prologue, k))
        reduced.push_back(k);
    OpBuilder b(op);
    FusedOp values = groupOf(b, op, prologue);
    FusedOp rows = groupOf(b, op, reduced);
    for (auto [k, result] : llvm::zip(prologue, values.getResults()))
      op.getResult(k).replaceAllUsesWith(result);
    for (auto [k, result] : llvm::zip(reduced, rows.getResults()))
      op.getResult(k).replaceAllUsesWith(result);
    op.erase();
  }
}

void sluice::usm::populateShortRowLoweringPatterns(
    USMTypeConverter &converter, RewritePatternSet &patterns) {
  // Tried before the general reduction group's lowering.
  patterns.add<FusedShortRowLowering>(converter, patterns.getContext(),
                                      /*benefit=*/2);
}
