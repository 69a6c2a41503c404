//===- FusedLowering.cpp - One linalg.generic per elementwise group -------===//
//
// A fused group whose ops are all elementwise and whose results share one
// shape S lowers to a single linalg.generic over S: every group input is
// read at its broadcast position, the ops' scalar functions run in order in
// the body, and every result is written once. Elementwise functions commute
// with broadcasting, so evaluating intermediates at the points of S gives
// the unfused program's values without materialising them. A gather in the
// group reads its source (an input) whole, at the position its indices give
// at each point of S; such an input is not iterated.
//
// With dynamic sizes that is so only when no input is broadcast at run time
// along a dynamic dimension (a `?` that is 1 while S's is not): then the
// results may not even share one shape. Each op's shape is computed and
// checked on the host first; an scf.if then takes the one generic, or (for
// a group of one result without gathers) a second generic that reads the
// inputs broadcast at run time through stride-0 views, or runs the ops one
// by one, each with its own run-time broadcasting.
//
//===----------------------------------------------------------------------===//

#include "Broadcasting.h"
#include "StoreLowering.h"
#include "sluice/Conversion/USMToLinalg/USMToLinalg.h"
#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace sluice::usm;

namespace {

/// Whether `shape` broadcasts to `target` (NumPy rules, dynamic dimensions
/// assumed equal to what they meet).
bool broadcastsTo(ArrayRef<int64_t> shape, ArrayRef<int64_t> target) {
  if (shape.size() > target.size())
    return false;
  size_t offset = target.size() - shape.size();
  for (auto [i, d] : llvm::enumerate(shape)) {
    int64_t t = target[i + offset];
    if (d != 1 && d != t && !ShapedType::isDynamic(d) &&
        !ShapedType::isDynamic(t))
      return false;
  }
  return true;
}

/// Whether a group's block argument is read only as a gather's source
/// (whole, from memory, not at the points of the group's space).
bool readWholeOnly(BlockArgument arg) {
  return !arg.use_empty() && llvm::all_of(arg.getUses(), [](OpOperand &use) {
    return isa<GatherOp>(use.getOwner()) && use.getOperandNumber() == 0;
  });
}

} // namespace

bool sluice::usm::isElementwiseGroup(FusedOp op) {
  Block &body = op.getBody().front();
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getNumOperands() == 0)
    return false;
  auto first = dyn_cast<ArrayType>(yield.getOperand(0).getType());
  if (!first)
    return false;
  for (Value v : yield.getOperands()) {
    auto t = dyn_cast<ArrayType>(v.getType());
    if (!t || t.getShape() != first.getShape())
      return false;
  }
  for (Operation &inner : body.without_terminator()) {
    if (isa<arith::ConstantOp>(inner))
      continue;
    if (auto gather = dyn_cast<GatherOp>(inner)) {
      // Its source is read whole, and must be an input of the group.
      if (!isa<BlockArgument>(gather.getSource()))
        return false;
    } else if (!inner.hasTrait<sluice::usm::OpTrait::Elementwise>() ||
               inner.getNumResults() != 1) {
      return false;
    }
    auto t = dyn_cast<ArrayType>(inner.getResult(0).getType());
    if (!t || !broadcastsTo(t.getShape(), first.getShape()))
      return false;
  }
  for (auto [arg, in] : llvm::zip(body.getArguments(), op.getInputs()))
    if (auto t = dyn_cast<ArrayType>(in.getType());
        t && !readWholeOnly(arg) &&
        !broadcastsTo(t.getShape(), first.getShape()))
      return false;
  return true;
}

namespace {

/// The flat sources of a group's gathers, by block argument.
using GatherSources = llvm::DenseMap<Value, GatherSource>;

bool isUnsignedIndex(GatherOp gather) {
  return cast<ArrayType>(gather.getIndices().getType())
      .getElementType()
      .isUnsignedInteger();
}

struct FusedElementwiseLowering : OpConversionPattern<FusedOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(FusedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isElementwiseGroup(op))
      return rewriter.notifyMatchFailure(op, "not an elementwise group");
    // Views (usm.strided_view) are read in place, except by a gather,
    // which reads its source whole (a view then as a contiguous copy).
    Location loc = op.getLoc();
    Block &body = op.getBody().front();
    SmallVector<Value> inputs;
    GatherSources whole;
    for (auto [arg, v] : llvm::zip(body.getArguments(), adaptor.getInputs())) {
      inputs.push_back(lookThroughView(v));
      if (llvm::any_of(arg.getUses(), [](OpOperand &use) {
            return isa<GatherOp>(use.getOwner()) && use.getOperandNumber() == 0;
          }))
        whole[arg] = gatherSourceOf(rewriter, loc, v);
    }
    auto yield = cast<YieldOp>(body.getTerminator());
    auto resultType = cast<ArrayType>(op.getResult(0).getType());

    // The run-time shape of every value of the group, checked op by op as
    // the unfused program would be.
    llvm::DenseMap<Value, Shape> shapes;
    for (auto [arg, input] : llvm::zip(body.getArguments(), inputs))
      shapes[arg] = runtimeShape(rewriter, loc, input);
    for (Operation &inner : body.without_terminator()) {
      if (isa<arith::ConstantOp>(inner))
        continue;
      if (auto gather = dyn_cast<GatherOp>(inner)) {
        shapes[gather.getResult()] = shapes.lookup(gather.getIndices());
        continue;
      }
      SmallVector<Shape> operandShapes;
      for (Value v : inner.getOperands())
        operandShapes.push_back(shapes.lookup(v));
      shapes[inner.getResult(0)] = broadcastAtRunTime(
          rewriter, inner.getLoc(), &inner, operandShapes,
          cast<ArrayType>(inner.getResult(0).getType()).getShape());
    }

    // The results' buffers: a store's destination when the group may write
    // there (StoreLowering.h), else new ones.
    SmallVector<Value> outs;
    if (Value dest = storeDestination(rewriter, op, op.getResult(0),
                                      shapes[yield.getOperand(0)]))
      outs.push_back(dest);
    for (auto [type, v] :
         llvm::drop_begin(llvm::zip(op.getResultTypes(), yield.getOperands()),
                          outs.size())) {
      auto memref = cast<MemRefType>(getTypeConverter()->convertType(type));
      outs.push_back(memref::AllocOp::create(rewriter, loc, memref,
                                             dynamicSizes(shapes[v]),
                                             rewriter.getI64IntegerAttr(64)));
    }

    // The group's space S is its results' shape, every input broadcast to
    // it. One generic computes every result unless a dynamic size of an
    // input is broadcast at run time: then results may even differ in
    // shape, and the ops run one by one, each broadcasting at run time.
    // A group with one result and no gather keeps one generic then too,
    // reading the broadcast inputs through stride-0 views: every value of
    // the group feeds that result, so S is its shape whatever the sizes
    // (two kernels for the group instead of one or two per op).
    // Inputs read only whole (by gathers) are not iterated.
    Shape space = shapes[yield.getOperand(0)];
    SmallVector<BroadcastOperand> operands;
    SmallVector<Value> iterated;
    for (auto [arg, input] : llvm::zip(body.getArguments(), inputs)) {
      if (readWholeOnly(arg))
        continue;
      iterated.push_back(arg);
      operands.push_back({input, arg.use_empty() ? Shape() : shapes[arg]});
    }
    Value fits = noRunTimeBroadcast(rewriter, loc, operands, space);
    bool oneResult = yield.getNumOperands() == 1 && whole.empty() &&
                     llvm::none_of(body.without_terminator(), [](Operation &o) {
                       return isa<GatherOp>(o);
                     });
    auto fused = [&](OpBuilder &b) {
      buildStaticBroadcastGeneric(
          b, loc, operands, resultType.getShape(), outs,
          [&](OpBuilder &nb, Location, ValueRange args) {
            return emitGroupBody(nb, body, iterated, args, whole);
          });
    };
    if (!fits) {
      fused(rewriter);
    } else {
      scf::IfOp::create(
          rewriter, loc, fits,
          [&](OpBuilder &b, Location l) {
            fused(b);
            scf::YieldOp::create(b, l);
          },
          [&](OpBuilder &b, Location l) {
            if (oneResult)
              buildViewedBroadcastGeneric(
                  b, loc, operands, resultType.getShape(), space, outs,
                  [&](OpBuilder &nb, Location, ValueRange args) {
                    return emitGroupBody(nb, body, iterated, args, whole);
                  });
            else
              lowerOpByOp(b, body, inputs, shapes, outs, whole);
            scf::YieldOp::create(b, l);
          });
    }
    rewriter.replaceOp(op, outs);
    return success();
  }

  /// The group's ops as scalar code on one scalar per iterated input
  /// (`iterated`, the block arguments in the order of `args`); gathers read
  /// their sources whole.
  static SmallVector<Value> emitGroupBody(OpBuilder &b, Block &body,
                                          ArrayRef<Value> iterated,
                                          ValueRange args,
                                          const GatherSources &whole) {
    IRMapping scalars;
    for (auto [blockArg, scalar] : llvm::zip(iterated, args))
      scalars.map(blockArg, scalar);
    for (Operation &inner : body.without_terminator()) {
      if (isa<arith::ConstantOp>(inner)) {
        b.clone(inner, scalars);
        continue;
      }
      if (auto gather = dyn_cast<GatherOp>(inner)) {
        scalars.map(gather.getResult(),
                    gatherElement(b, inner.getLoc(),
                                  whole.at(gather.getSource()),
                                  scalars.lookup(gather.getIndices()),
                                  isUnsignedIndex(gather)));
        continue;
      }
      SmallVector<Value> operands;
      for (Value v : inner.getOperands())
        operands.push_back(scalars.lookup(v));
      scalars.map(inner.getResult(0),
                  emitScalarOp(b, inner.getLoc(), &inner, operands));
    }
    SmallVector<Value> results;
    for (Value v : body.getTerminator()->getOperands())
      results.push_back(scalars.lookup(v));
    return results;
  }

  /// The group's ops one by one, each into its own buffer (the results'
  /// into `outs`), with the shapes already checked.
  void lowerOpByOp(OpBuilder &b, Block &body, ValueRange inputs,
                   llvm::DenseMap<Value, Shape> &shapes, ArrayRef<Value> outs,
                   const GatherSources &whole) const {
    auto yield = cast<YieldOp>(body.getTerminator());
    IRMapping values;
    for (auto [arg, input] : llvm::zip(body.getArguments(), inputs))
      values.map(arg, input);
    SmallVector<bool> written(outs.size(), false);
    for (Operation &inner : body.without_terminator()) {
      if (isa<arith::ConstantOp>(inner)) {
        b.clone(inner, values);
        continue;
      }
      Value result = inner.getResult(0);
      Value out;
      for (auto [k, v] : llvm::enumerate(yield.getOperands()))
        if (v == result && !written[k]) {
          out = outs[k];
          written[k] = true;
          break;
        }
      if (auto gather = dyn_cast<GatherOp>(inner)) {
        auto type =
            cast<MemRefType>(getTypeConverter()->convertType(gather.getType()));
        const GatherSource &src = whole.at(gather.getSource());
        values.map(result, lowerGather(b, inner.getLoc(), type, src.flat,
                                       values.lookup(gather.getIndices()),
                                       isUnsignedIndex(gather), out));
        continue;
      }
      SmallVector<Value> operands;
      SmallVector<Shape> operandShapes;
      for (Value v : inner.getOperands()) {
        operands.push_back(values.lookup(v));
        operandShapes.push_back(shapes.lookup(v));
      }
      values.map(result,
                 lowerElementwiseOp(b, &inner, operands, *getTypeConverter(),
                                    operandShapes, &shapes[result], out));
    }
    // Results that are inputs, or a value yielded twice, are copied.
    for (auto [k, v] : llvm::enumerate(yield.getOperands())) {
      if (written[k])
        continue;
      auto type = cast<ArrayType>(v.getType());
      buildBroadcastingGeneric(b, yield.getLoc(),
                               {BroadcastOperand{values.lookup(v), shapes[v]}},
                               type.getShape(), shapes[v], outs[k],
                               [](OpBuilder &, Location, ValueRange args) {
                                 return SmallVector<Value>{args[0]};
                               });
    }
  }
};

/// A group with one reduction: the reduction's producers inside the group
/// (its backward slice) become the body of the reduction's generic, read at
/// the points of the reduced space with their inputs broadcast there; the
/// ops whose values are needed otherwise (the epilogue, results of the
/// group) lower one by one, each producer recomputed where it is needed.
struct FusedReductionLowering : OpConversionPattern<FusedOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(FusedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isReductionGroup(op))
      return rewriter.notifyMatchFailure(op, "not a reduction group");
    Location loc = op.getLoc();
    Block &body = op.getBody().front();
    auto yield = cast<YieldOp>(body.getTerminator());
    Operation *reduction = nullptr;
    for (Operation &inner : body.without_terminator())
      if (inner.hasTrait<sluice::usm::OpTrait::Reduction>())
        reduction = &inner;

    // The run-time shape of every value, checked op by op as the unfused
    // program would be.
    llvm::DenseMap<Value, Shape> shapes;
    for (auto [arg, input] :
         llvm::zip(body.getArguments(), adaptor.getInputs()))
      shapes[arg] = runtimeShape(rewriter, loc, input);
    for (Operation &inner : body.without_terminator()) {
      if (isa<arith::ConstantOp>(inner))
        continue;
      if (&inner == reduction) {
        shapes[inner.getResult(0)] = reducedShape(
            rewriter, reduction, shapes.lookup(reduction->getOperand(0)));
        continue;
      }
      SmallVector<Shape> operandShapes;
      for (Value v : inner.getOperands())
        operandShapes.push_back(shapes.lookup(v));
      shapes[inner.getResult(0)] = broadcastAtRunTime(
          rewriter, inner.getLoc(), &inner, operandShapes,
          cast<ArrayType>(inner.getResult(0).getType()).getShape());
    }

    // Values with a buffer: the group's inputs, then what is computed.
    IRMapping buffers;
    for (auto [arg, input] :
         llvm::zip(body.getArguments(), adaptor.getInputs()))
      buffers.map(arg, input);
    // The ops after the reduction (that read its result).
    llvm::SmallPtrSet<Operation *, 16> after{reduction};
    for (Operation &inner : body.without_terminator())
      if (llvm::any_of(inner.getOperands(), [&](Value v) {
            return v.getDefiningOp() && after.contains(v.getDefiningOp());
          }))
        after.insert(&inner);

    // Results of the group computed before the reduction (of its input's
    // shape: the fusion pass proved it): one elementwise generic.
    SmallVector<Value> early;
    for (Value v : yield.getOperands())
      if (!after.contains(v.getDefiningOp()) && !llvm::is_contained(early, v))
        early.push_back(v);
    if (!early.empty()) {
      SmallVector<Value> outs;
      for (Value v : early) {
        auto type = cast<ArrayType>(v.getType());
        auto memref = cast<MemRefType>(getTypeConverter()->convertType(type));
        outs.push_back(memref::AllocOp::create(rewriter, loc, memref,
                                               dynamicSizes(shapes[v]),
                                               rewriter.getI64IntegerAttr(64)));
      }
      Operands in =
          operandsOf(body, producers(early, buffers), early, buffers, shapes);
      buildBroadcastingGeneric(
          rewriter, loc, in.operands,
          cast<ArrayType>(early.front().getType()).getShape(),
          shapes[early.front()], outs,
          [&](OpBuilder &nb, Location, ValueRange args) {
            return emitScalars(nb, body, in, args, early);
          });
      for (auto [v, out] : llvm::zip(early, outs))
        buffers.map(v, out);
    }

    // The reduction, reading its producers' chain from the buffers.
    Value input = reduction->getOperand(0);
    Operands in =
        operandsOf(body, producers({input}, buffers), {input}, buffers, shapes);
    Value reduced = lowerReduction(
        rewriter, reduction, *getTypeConverter(), in.operands, shapes[input],
        [&](OpBuilder &nb, Location, ValueRange args) {
          return emitScalars(nb, body, in, args, {input});
        });
    buffers.map(reduction->getResult(0), reduced);

    lowerBroadcastEpilogue(rewriter, loc, body, yield, after,
                           cast<ArrayType>(input.getType()), shapes, buffers);

    // The rest, op by op from the buffers.
    SmallVector<Value> late(yield.getOperands());
    llvm::SmallPtrSet<Operation *, 16> needed = producers(late, buffers);
    IRMapping values = buffers;
    for (Operation &inner : body.without_terminator()) {
      if (isa<arith::ConstantOp>(inner)) {
        rewriter.clone(inner, values);
        continue;
      }
      if (!needed.contains(&inner))
        continue;
      SmallVector<Value> opValues;
      SmallVector<Shape> operandShapes;
      for (Value v : inner.getOperands()) {
        opValues.push_back(values.lookup(v));
        operandShapes.push_back(shapes.lookup(v));
      }
      Value result = inner.getResult(0);
      values.map(result, lowerElementwiseOp(rewriter, &inner, opValues,
                                            *getTypeConverter(), operandShapes,
                                            &shapes[result]));
    }
    // A value returned twice is copied: every result is its own buffer.
    SmallVector<Value> outs;
    llvm::SmallPtrSet<Value, 4> returned;
    for (Value v : yield.getOperands()) {
      Value buffer = values.lookup(v);
      if (!returned.insert(buffer).second) {
        auto type = cast<ArrayType>(v.getType());
        auto memref = cast<MemRefType>(getTypeConverter()->convertType(type));
        Value copy = memref::AllocOp::create(rewriter, loc, memref,
                                             dynamicSizes(shapes[v]),
                                             rewriter.getI64IntegerAttr(64));
        buildBroadcastingGeneric(rewriter, loc,
                                 {BroadcastOperand{buffer, shapes[v]}},
                                 type.getShape(), shapes[v], copy,
                                 [](OpBuilder &, Location, ValueRange args) {
                                   return SmallVector<Value>{args[0]};
                                 });
        buffer = copy;
      }
      outs.push_back(buffer);
    }
    rewriter.replaceOp(op, outs);
    return success();
  }

  /// A broadcast epilogue: results after the reduction over its input's
  /// shape (`e / e.sum(axis=1, keepdims=True)`). One generic over that
  /// space evaluates them, recomputing the prologue from the group's
  /// inputs (the same scalar code, so the same values) rather than
  /// storing it, after the reduced-shape ops they read.
  void lowerBroadcastEpilogue(ConversionPatternRewriter &rewriter, Location loc,
                              Block &body, YieldOp yield,
                              const llvm::SmallPtrSet<Operation *, 16> &after,
                              ArrayType inputType,
                              llvm::DenseMap<Value, Shape> &shapes,
                              IRMapping &buffers) const {
    SmallVector<Value> broadcastLate;
    for (Value v : yield.getOperands())
      if (after.contains(v.getDefiningOp()) &&
          cast<ArrayType>(v.getType()).getShape() == inputType.getShape() &&
          !llvm::is_contained(broadcastLate, v))
        broadcastLate.push_back(v);
    if (!broadcastLate.empty()) {
      llvm::SmallPtrSet<Operation *, 16> chain =
          producers(broadcastLate, buffers);
      // The reduced-shape ops they read, op by op into buffers first.
      for (Operation &inner : body.without_terminator()) {
        if (!chain.contains(&inner) || !after.contains(&inner) ||
            cast<ArrayType>(inner.getResult(0).getType()).getShape() ==
                inputType.getShape())
          continue;
        SmallVector<Value> opValues;
        SmallVector<Shape> operandShapes;
        for (Value v : inner.getOperands()) {
          Value value = buffers.lookupOrNull(v);
          if (!value) // a constant scalar of the body
            value = rewriter.clone(*v.getDefiningOp())->getResult(0);
          opValues.push_back(value);
          operandShapes.push_back(shapes.lookup(v));
        }
        Value result = inner.getResult(0);
        buffers.map(result, lowerElementwiseOp(rewriter, &inner, opValues,
                                               *getTypeConverter(),
                                               operandShapes, &shapes[result]));
      }
      SmallVector<Value> outs;
      for (Value v : broadcastLate) {
        auto memref = cast<MemRefType>(
            getTypeConverter()->convertType(cast<ArrayType>(v.getType())));
        outs.push_back(memref::AllocOp::create(rewriter, loc, memref,
                                               dynamicSizes(shapes[v]),
                                               rewriter.getI64IntegerAttr(64)));
      }
      Operands lateIn = operandsOf(body, producers(broadcastLate, buffers),
                                   broadcastLate, buffers, shapes);
      buildBroadcastingGeneric(
          rewriter, loc, lateIn.operands, inputType.getShape(),
          shapes[broadcastLate.front()], outs,
          [&](OpBuilder &nb, Location, ValueRange args) {
            return emitScalars(nb, body, lateIn, args, broadcastLate);
          });
      for (auto [v, out] : llvm::zip(broadcastLate, outs))
        buffers.map(v, out);
    }
  }

  /// The ops that compute `values` from what has a buffer.
  static llvm::SmallPtrSet<Operation *, 16>
  producers(ArrayRef<Value> values, const IRMapping &buffers) {
    llvm::SmallPtrSet<Operation *, 16> ops;
    SmallVector<Value> work(values);
    while (!work.empty()) {
      Value v = work.pop_back_val();
      Operation *def = v.getDefiningOp();
      if (buffers.contains(v) || !def || isa<arith::ConstantOp>(def) ||
          !ops.insert(def).second)
        continue;
      llvm::append_range(work, def->getOperands());
    }
    return ops;
  }

  /// The buffers a computation of some values from `ops` reads (the
  /// values themselves when they have buffers), with their shapes.
  struct Operands {
    llvm::SmallPtrSet<Operation *, 16> ops;
    SmallVector<Value> read; // the group's values they hold
    SmallVector<BroadcastOperand> operands;
  };
  static Operands operandsOf(Block &body,
                             llvm::SmallPtrSet<Operation *, 16> ops,
                             ArrayRef<Value> values, const IRMapping &buffers,
                             llvm::DenseMap<Value, Shape> &shapes) {
    Operands in;
    in.ops = std::move(ops);
    auto add = [&](Value v) {
      if (buffers.contains(v) && !llvm::is_contained(in.read, v)) {
        in.read.push_back(v);
        in.operands.push_back({buffers.lookup(v), shapes[v]});
      }
    };
    for (Operation &inner : body.without_terminator())
      if (in.ops.contains(&inner))
        llvm::for_each(inner.getOperands(), add);
    llvm::for_each(values, add);
    return in;
  }

  /// The scalar code of `in.ops` from one scalar per read buffer; returns
  /// the scalars of `values`.
  static SmallVector<Value> emitScalars(OpBuilder &b, Block &body,
                                        const Operands &in, ValueRange args,
                                        ArrayRef<Value> values) {
    IRMapping scalars;
    for (auto [v, scalar] : llvm::zip(in.read, args))
      scalars.map(v, scalar);
    for (Operation &inner : body.without_terminator()) {
      if (isa<arith::ConstantOp>(inner)) {
        b.clone(inner, scalars);
        continue;
      }
      if (!in.ops.contains(&inner))
        continue;
      SmallVector<Value> operands;
      for (Value v : inner.getOperands())
        operands.push_back(scalars.lookup(v));
      scalars.map(inner.getResult(0),
                  emitScalarOp(b, inner.getLoc(), &inner, operands));
    }
    SmallVector<Value> results;
    for (Value v : values)
      results.push_back(scalars.lookup(v));
    return results;
  }

  /// The run-time shape of reduction `op`'s result from its input's.
  static Shape reducedShape(OpBuilder &b, Operation *op, const Shape &input) {
    auto axes = op->getAttrOfType<DenseI64ArrayAttr>("axes");
    SmallVector<int64_t> reduced = normalizeAxes(input.size(), axes);
    bool keepdims = op->hasAttr("keepdims");
    Shape shape;
    for (auto [i, d] : llvm::enumerate(input)) {
      if (!llvm::is_contained(reduced, static_cast<int64_t>(i)))
        shape.push_back(d);
      else if (keepdims)
        shape.push_back(b.getIndexAttr(1));
    }
    return shape;
  }
};

} // namespace

bool sluice::usm::isReductionGroup(FusedOp op) {
  Block &body = op.getBody().front();
  auto yield = cast<YieldOp>(body.getTerminator());
  Operation *reduction = nullptr;
  for (Operation &inner : body.without_terminator()) {
    if (isa<arith::ConstantOp>(inner))
      continue;
    if (inner.hasTrait<sluice::usm::OpTrait::Reduction>()) {
      auto in = dyn_cast<ArrayType>(inner.getOperand(0).getType());
      if (reduction || !in || isa<ComplexType>(in.getElementType()))
        return false;
      reduction = &inner;
      continue;
    }
    if (!inner.hasTrait<sluice::usm::OpTrait::Elementwise>() ||
        inner.getNumResults() != 1 ||
        !isa<ArrayType>(inner.getResult(0).getType()))
      return false;
  }
  return reduction && yield.getNumOperands() > 0 &&
         llvm::all_of(yield.getOperands(),
                      [](Value v) { return v.getDefiningOp() != nullptr; });
}

void sluice::usm::populateFusedGroupLoweringPatterns(
    USMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<FusedElementwiseLowering, FusedReductionLowering>(
      converter, patterns.getContext());
  populateShortRowLoweringPatterns(converter, patterns);
}
