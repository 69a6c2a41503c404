//===- KernelBodies.cpp - Bodies of the kernels formed from linalg --------===//
//
// A kernel body evaluates the generic's payload at points of its iteration
// space. Points are named by a flat row-major index where one is at hand
// (then identity-mapped buffers are read at that index, with no division),
// and by per-loop indices otherwise (computed only when a buffer needs
// them).
//
// Host kernels run once per workgroup and loop over a contiguous range with
// unit stride, which LLVM vectorises; GPU kernels stride their work-items
// over the space and reduce across the workgroup with gpu.all_reduce.
//
//===----------------------------------------------------------------------===//

#include "KernelBodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

#include <limits>

using namespace mlir;
using namespace sluice;
using namespace sluice::kernels;

FailureOr<Combiner> sluice::kernels::matchCombiner(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1)
    return op.emitOpError("reduction with ")
           << op.getNumDpsInits()
           << " outputs cannot be compiled (one output is supported)";
  Block &body = op.getRegion().front();
  BlockArgument acc = body.getArgument(op.getNumDpsInputs());
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Operation *c = yield.getNumOperands() == 1
                     ? yield.getOperand(0).getDefiningOp()
                     : nullptr;
  auto fail = [&]() {
    return op.emitOpError("reduction body is not `acc = combine(acc, value)` "
                          "with an associative combiner");
  };
  if (!c || c->getNumOperands() != 2 || c->getNumResults() != 1 ||
      c->getBlock() != &body || !acc.hasOneUse())
    return fail();
  Combiner result;
  result.op = c;
  if (c->getOperand(0) == acc)
    result.value = c->getOperand(1);
  else if (c->getOperand(1) == acc)
    result.value = c->getOperand(0);
  else
    return fail();
  Type t = acc.getType();
  Builder b(op.getContext());
  auto fp = [&](double v) -> TypedAttr { return b.getFloatAttr(t, v); };
  auto in = [&](APInt v) -> TypedAttr { return b.getIntegerAttr(t, v); };
  unsigned w = t.isIntOrFloat() ? t.getIntOrFloatBitWidth() : 0;
  double inf = std::numeric_limits<double>::infinity();
  using R = gpu::AllReduceOperation;
  if (isa<arith::AddFOp>(c))
    result.identity = fp(0.0), result.gpuOp = R::ADD;
  else if (isa<arith::MulFOp>(c))
    result.identity = fp(1.0), result.gpuOp = R::MUL;
  else if (isa<arith::MaximumFOp>(c))
    result.identity = fp(-inf), result.gpuOp = R::MAXIMUMF;
  else if (isa<arith::MinimumFOp>(c))
    result.identity = fp(inf), result.gpuOp = R::MINIMUMF;
  else if (isa<arith::MaxNumFOp>(c))
    result.identity = fp(-inf), result.gpuOp = R::MAXNUMF;
  else if (isa<arith::MinNumFOp>(c))
    result.identity = fp(inf), result.gpuOp = R::MINNUMF;
  else if (isa<arith::AddIOp>(c))
    result.identity = in(APInt(w, 0)), result.gpuOp = R::ADD;
  else if (isa<arith::MulIOp>(c))
    result.identity = in(APInt(w, 1)), result.gpuOp = R::MUL;
  else if (isa<arith::MaxSIOp>(c))
    result.identity = in(APInt::getSignedMinValue(w)), result.gpuOp = R::MAXSI;
  else if (isa<arith::MinSIOp>(c))
    result.identity = in(APInt::getSignedMaxValue(w)), result.gpuOp = R::MINSI;
  else if (isa<arith::MaxUIOp>(c))
    result.identity = in(APInt(w, 0)), result.gpuOp = R::MAXUI;
  else if (isa<arith::MinUIOp>(c))
    result.identity = in(APInt::getMaxValue(w)), result.gpuOp = R::MINUI;
  else if (isa<arith::AndIOp>(c))
    result.identity = in(APInt::getAllOnes(w)), result.gpuOp = R::AND;
  else if (isa<arith::OrIOp>(c))
    result.identity = in(APInt(w, 0)), result.gpuOp = R::OR;
  else if (isa<arith::XOrIOp>(c))
    result.identity = in(APInt(w, 0)), result.gpuOp = R::XOR;
  else
    return fail();
  return result;
}

namespace {

/// Builds kernel bodies for one KernelSpec inside one gpu.func.
class BodyBuilder {
public:
  BodyBuilder(gpu::GPUFuncOp func, KernelSpec &spec)
      : func(func), spec(spec), op(spec.op), loc(spec.op.getLoc()),
        b(OpBuilder::atBlockEnd(&func.getBody().front())) {
    for (auto [i, argIndex] : llvm::enumerate(spec.loopSizeArg))
      loopSizes.push_back(argIndex < 0 ? c(spec.staticLoopSizes[i])
                                       : arg(argIndex));
    for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
      (it == utils::IteratorType::parallel ? parLoops : redLoops).push_back(i);
  }

  /// A point of the iteration space: a flat row-major index over all loops
  /// when known, and the per-loop indices once computed.
  struct Point {
    Value flat;
    Value outputIndex, reducedIndex; // reductions: o and r
    SmallVector<Value> idx;
  };

  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value arg(int64_t i) { return func.getArgument(i); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value min(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value rem(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }
  Value ceilDiv(Value x, Value y) {
    return arith::CeilDivUIOp::create(b, loc, x, y);
  }
  Value product(ArrayRef<unsigned> loops) {
    Value p = c(1);
    for (unsigned l : loops)
      p = mul(p, loopSizes[l]);
    return p;
  }
  bool isHost() const { return spec.target == KernelTarget::Host; }

  /// Indices of `loops` from a flat row-major index over them.
  void delinearize(Value flat, ArrayRef<unsigned> loops,
                   SmallVectorImpl<Value> &idx) {
    for (unsigned l : llvm::reverse(loops)) {
      idx[l] = rem(flat, loopSizes[l]);
      flat = div(flat, loopSizes[l]);
    }
  }

  ArrayRef<Value> indices(Point &p) {
    if (!p.idx.empty())
      return p.idx;
    p.idx.assign(loopSizes.size(), Value());
    if (p.outputIndex) {
      delinearize(p.outputIndex, parLoops, p.idx);
      delinearize(p.reducedIndex, redLoops, p.idx);
    } else {
      SmallVector<unsigned> all =
          llvm::to_vector(llvm::seq<unsigned>(0, loopSizes.size()));
      delinearize(p.flat, all, p.idx);
    }
    return p.idx;
  }

  /// Offset into the flat buffer of operand `operand` at point `p`.
  FailureOr<Value> offset(OpOperand &operand, Point &p) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    auto strided = spec.strided.find(operand.getOperandNumber());
    if (strided != spec.strided.end())
      return stridedOffset(strided->second, map, p);
    if (map.isIdentity() && p.flat)
      return p.flat;
    ArrayRef<Value> idx = indices(p);
    Value off = c(0);
    for (AffineExpr e : map.getResults()) {
      Value index, size;
      if (auto d = dyn_cast<AffineDimExpr>(e)) {
        index = idx[d.getPosition()];
        size = loopSizes[d.getPosition()];
      } else if (auto k = dyn_cast<AffineConstantExpr>(e);
                 k && k.getValue() == 0) {
        index = c(0);
        size = c(1);
      } else {
        return op.emitOpError("indexing map ")
               << AffineMapAttr::get(map)
               << " is not a projection or broadcast of its loops";
      }
      off = add(mul(off, size), index);
    }
    return off;
  }

  /// Offset of a strided view's element: offset + sum(index * stride).
  FailureOr<Value> stridedOffset(const StridedAccess &access, AffineMap map,
                                 Point &p) {
    auto part = [&](int64_t argIndex, int64_t value) {
      return argIndex < 0 ? c(value) : arg(argIndex);
    };
    ArrayRef<Value> idx = indices(p);
    Value off = part(access.offsetArg, access.staticOffset);
    for (auto [k, e] : llvm::enumerate(map.getResults())) {
      if (auto k0 = dyn_cast<AffineConstantExpr>(e); k0 && k0.getValue() == 0)
        continue;
      auto d = dyn_cast<AffineDimExpr>(e);
      if (!d)
        return op.emitOpError("indexing map ")
               << AffineMapAttr::get(map)
               << " is not a projection or broadcast of its loops";
      off = add(off, mul(idx[d.getPosition()],
                         part(access.strideArgs[k], access.staticStrides[k])));
    }
    return off;
  }

  Value load(OpOperand &operand, Value offset) {
    Value buffer = arg(spec.bufferArg.lookup(operand.getOperandNumber()));
    return memref::LoadOp::create(b, loc, buffer, offset);
  }

  /// Evaluates the payload at `p`; `acc` replaces the (single) output's
  /// block argument for reductions. Returns the yielded values.
  FailureOr<SmallVector<Value>> payload(Point &p, Value acc,
                                        IRMapping &mapping) {
    Block &body = op.getRegion().front();
    // Scalars from above arrive as kernel arguments; constants from above
    // (canonicalize hoists them out of the generic) are rematerialised.
    for (auto [value, index] : spec.capturedArg)
      mapping.map(value, arg(index));
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(op.getRegion(), above);
    for (Value v : above) {
      if (mapping.contains(v))
        continue;
      Operation *def = v.getDefiningOp();
      if (!def || !def->hasTrait<OpTrait::ConstantLike>())
        return op.emitOpError("payload uses a value defined outside the op "
                              "that is not a constant: ")
               << v;
      b.clone(*def, mapping);
    }
    for (OpOperand &operand : op->getOpOperands()) {
      BlockArgument blockArg = body.getArgument(operand.getOperandNumber());
      if (blockArg.use_empty())
        continue;
      if (auto it = spec.scalarArg.find(operand.getOperandNumber());
          it != spec.scalarArg.end()) {
        mapping.map(blockArg, arg(it->second));
        continue;
      }
      if (acc && op.isDpsInit(&operand)) {
        mapping.map(blockArg, acc);
        continue;
      }
      FailureOr<Value> off = offset(operand, p);
      if (failed(off))
        return failure();
      mapping.map(blockArg, load(operand, *off));
    }
    for (Operation &inner : body.without_terminator()) {
      // linalg.index reads the loop index: the point's index in the kernel.
      if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
        mapping.map(index.getResult(), indices(p)[index.getDim()]);
        continue;
      }
      b.clone(inner, mapping);
    }
    SmallVector<Value> results;
    for (Value v : body.getTerminator()->getOperands())
      results.push_back(mapping.lookupOrDefault(v));
    return results;
  }

  LogicalResult storeOutputs(Point &p, ArrayRef<Value> values) {
    for (auto [init, value] : llvm::zip(op.getDpsInitsMutable(), values)) {
      FailureOr<Value> off = offset(init, p);
      if (failed(off))
        return failure();
      Value buffer = arg(spec.bufferArg.lookup(init.getOperandNumber()));
      memref::StoreOp::create(b, loc, value, buffer, *off);
    }
    return success();
  }

  /// [lo, hi) of this host workgroup's share of `total`, in chunks that are
  /// multiples of `align`.
  std::pair<Value, Value> hostRange(Value total, int64_t align) {
    Value g = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
    Value ng = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
    Value chunk = ceilDiv(total, ng);
    if (align > 1)
      chunk = mul(ceilDiv(chunk, c(align)), c(align));
    Value lo = min(mul(g, chunk), total);
    Value hi = min(add(lo, chunk), total);
    return {lo, hi};
  }

  /// A loop over [0, total) split across the launch: host workgroups take
  /// contiguous chunks; GPU work-items stride by the grid.
  scf::ForOp distributedLoop(Value total, int64_t hostAlign) {
    if (isHost()) {
      auto [lo, hi] = hostRange(total, hostAlign);
      return scf::ForOp::create(b, loc, lo, hi, c(1));
    }
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
    Value bdim = gpu::BlockDimOp::create(b, loc, gpu::Dimension::x);
    Value gdim = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
    return scf::ForOp::create(b, loc, add(mul(bid, bdim), tid), total,
                              mul(gdim, bdim));
  }

  /// Offset of the output element `o` (an index over the parallel loops).
  FailureOr<Value> outputOffset(Value o) {
    OpOperand &init = op.getDpsInitsMutable()[0];
    AffineMap map = op.getMatchingIndexingMap(&init);
    // The usual case: the output is indexed by the parallel loops in order.
    bool inOrder = map.getNumResults() == parLoops.size();
    for (auto [i, e] : llvm::enumerate(map.getResults()))
      inOrder = inOrder && isa<AffineDimExpr>(e) &&
                cast<AffineDimExpr>(e).getPosition() == parLoops[i];
    if (inOrder)
      return o;
    Point p;
    p.outputIndex = o;
    p.reducedIndex = c(0);
    return offset(init, p);
  }

  void finish() { gpu::ReturnOp::create(b, loc); }

  gpu::GPUFuncOp func;
  KernelSpec &spec;
  linalg::GenericOp op;
  Location loc;
  OpBuilder b;
  SmallVector<Value> loopSizes;
  SmallVector<unsigned> parLoops, redLoops;
};

/// Marks a float combiner reassociable so that LLVM vectorises the loop
/// that feeds it (the partials already reassociate the reduction).
void allowReassociation(Operation *op) {
  if (auto fm = dyn_cast<arith::ArithFastMathInterface>(op))
    op->setAttr(fm.getFastMathAttrName(),
                arith::FastMathFlagsAttr::get(op->getContext(),
                                              arith::FastMathFlags::reassoc));
}

} // namespace

LogicalResult sluice::kernels::buildElementwiseKernel(gpu::GPUFuncOp func,
                                                      KernelSpec &spec) {
  BodyBuilder bb(func, spec);
  Value total =
      bb.product(llvm::to_vector(llvm::seq<unsigned>(0, bb.loopSizes.size())));
  scf::ForOp loop = bb.distributedLoop(total, /*hostAlign=*/64);
  {
    OpBuilder::InsertionGuard guard(bb.b);
    bb.b.setInsertionPoint(loop.getBody()->getTerminator());
    BodyBuilder::Point p;
    p.flat = loop.getInductionVar();
    IRMapping mapping;
    FailureOr<SmallVector<Value>> values = bb.payload(p, Value(), mapping);
    if (failed(values) || failed(bb.storeOutputs(p, *values)))
      return failure();
  }
  bb.finish();
  return success();
}

LogicalResult sluice::kernels::buildReductionKernel(gpu::GPUFuncOp func,
                                                    KernelSpec &spec) {
  BodyBuilder bb(func, spec);
  OpBuilder &b = bb.b;
  Location loc = bb.loc;
  Value numOutputs = bb.product(bb.parLoops);
  Value reduced = bb.product(bb.redLoops);
  Value slices = bb.arg(spec.slicesArg);
  Value items = bb.mul(numOutputs, slices);
  Value chunk = bb.ceilDiv(reduced, slices);
  Combiner &comb = spec.combiner;
  // Flat index over all loops from (o, r), when the parallel loops all come
  // before the reduced ones or all after them.
  bool parFirst = bb.parLoops.empty() || bb.redLoops.empty() ||
                  bb.parLoops.back() < bb.redLoops.front();
  bool redFirst = !parFirst && bb.redLoops.back() < bb.parLoops.front();

  // One work item: reduce slice s of output o. Host workgroups and SPIR-V
  // work-items each reduce whole items serially (OpenCL CPU drivers such as
  // PoCL lack work-group collectives); CUDA workgroups share an item and
  // combine through workgroup memory.
  bool serialItems = spec.target != KernelTarget::Cuda;
  scf::ForOp itemLoop;
  Value tid;
  if (bb.isHost()) {
    auto [lo, hi] = bb.hostRange(items, 1);
    itemLoop = scf::ForOp::create(b, loc, lo, hi, bb.c(1));
  } else if (serialItems) {
    itemLoop = bb.distributedLoop(items, 1);
  } else {
    tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
    Value gdim = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
    itemLoop = scf::ForOp::create(b, loc, bid, items, gdim);
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(itemLoop.getBody()->getTerminator());
  Value item = itemLoop.getInductionVar();
  Value o = bb.div(item, slices);
  Value s = bb.rem(item, slices);
  Value rlo = bb.min(bb.mul(s, chunk), reduced);
  Value rhi = bb.min(bb.add(rlo, chunk), reduced);
  FailureOr<Value> outOff = bb.outputOffset(o);
  if (failed(outOff))
    return failure();
  Value outBuf = bb.arg(spec.bufferArg.lookup(
      spec.op.getDpsInitsMutable()[0].getOperandNumber()));
  Value identity = arith::ConstantOp::create(b, loc, comb.identity);
  Value init = identity;
  bool hostDirect = serialItems && spec.singlePhase;
  if (hostDirect)
    init = memref::LoadOp::create(b, loc, outBuf, *outOff);
  Value start = serialItems ? rlo : bb.add(rlo, tid);
  Value step = serialItems
                   ? bb.c(1)
                   : Value(gpu::BlockDimOp::create(b, loc, gpu::Dimension::x));
  auto rLoop = scf::ForOp::create(b, loc, start, rhi, step, ValueRange{init});
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(rLoop.getBody());
    Value r = rLoop.getInductionVar();
    BodyBuilder::Point p;
    p.outputIndex = o;
    p.reducedIndex = r;
    if (parFirst)
      p.flat = bb.add(bb.mul(o, reduced), r);
    else if (redFirst)
      p.flat = bb.add(bb.mul(r, numOutputs), o);
    IRMapping mapping;
    FailureOr<SmallVector<Value>> values =
        bb.payload(p, rLoop.getRegionIterArg(0), mapping);
    if (failed(values))
      return failure();
    if (bb.isHost())
      allowReassociation((*values)[0].getDefiningOp());
    scf::YieldOp::create(b, loc, (*values)[0]);
  }
  Value acc = rLoop.getResult(0);
  if (spec.target != KernelTarget::Host) {
    // SPIR-V's lowering of scf.for keeps the loop's results in variables
    // that only the loop body stores: a loop that runs no iteration (an
    // empty slice, an empty reduced extent) would yield whatever the
    // variable held. Such a loop yields its initial value here.
    Value ran =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, start, rhi);
    acc = arith::SelectOp::create(b, loc, ran, acc, init);
  }
  if (hostDirect) {
    memref::StoreOp::create(b, loc, acc, outBuf, *outOff);
  } else if (serialItems) {
    memref::StoreOp::create(b, loc, acc, bb.arg(spec.partialArg), item);
  } else {
    // GPU: a tree reduction through workgroup memory (portable: no
    // work-group collective functions needed); work-item 0 writes.
    Value scratch = func.getWorkgroupAttributions()[0];
    BlockArgument accArg =
        spec.op.getRegion().front().getArgument(spec.op.getNumDpsInputs());
    memref::StoreOp::create(b, loc, acc, scratch, tid);
    gpu::BarrierOp::create(b, loc);
    for (int64_t half = spec.workgroupSize / 2; half > 0; half /= 2) {
      Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           tid, bb.c(half));
      auto step = scf::IfOp::create(b, loc, active, /*withElse=*/false);
      {
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPoint(step.thenBlock()->getTerminator());
        IRMapping m;
        m.map(accArg, memref::LoadOp::create(b, loc, scratch, tid));
        m.map(comb.value,
              memref::LoadOp::create(b, loc, scratch,
                                     ValueRange{bb.add(tid, bb.c(half))}));
        Operation *folded = b.clone(*comb.op, m);
        memref::StoreOp::create(b, loc, folded->getResult(0), scratch, tid);
      }
      gpu::BarrierOp::create(b, loc);
    }
    Value isFirst =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, bb.c(0));
    auto ifOp = scf::IfOp::create(b, loc, isFirst, /*withElse=*/false);
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      Value total = memref::LoadOp::create(b, loc, scratch, bb.c(0));
      if (spec.singlePhase) {
        IRMapping m;
        m.map(accArg, memref::LoadOp::create(b, loc, outBuf, *outOff));
        m.map(comb.value, total);
        Operation *folded = b.clone(*comb.op, m);
        memref::StoreOp::create(b, loc, folded->getResult(0), outBuf, *outOff);
      } else {
        memref::StoreOp::create(b, loc, total, bb.arg(spec.partialArg), item);
      }
    }
    // The next item reuses the scratch memory.
    gpu::BarrierOp::create(b, loc);
  }
  b.setInsertionPointAfter(itemLoop);
  bb.finish();
  return success();
}

LogicalResult sluice::kernels::buildCombineKernel(gpu::GPUFuncOp func,
                                                  KernelSpec &spec) {
  BodyBuilder bb(func, spec);
  OpBuilder &b = bb.b;
  Location loc = bb.loc;
  Value numOutputs = bb.product(bb.parLoops);
  Value slices = bb.arg(spec.slicesArg);
  Combiner &comb = spec.combiner;
  scf::ForOp oLoop = bb.distributedLoop(numOutputs, /*hostAlign=*/1);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(oLoop.getBody()->getTerminator());
  Value o = oLoop.getInductionVar();
  FailureOr<Value> outOff = bb.outputOffset(o);
  if (failed(outOff))
    return failure();
  Value outBuf = bb.arg(spec.bufferArg.lookup(
      spec.op.getDpsInitsMutable()[0].getOperandNumber()));
  Value init = memref::LoadOp::create(b, loc, outBuf, *outOff);
  Value base = bb.mul(o, slices);
  auto sLoop =
      scf::ForOp::create(b, loc, bb.c(0), slices, bb.c(1), ValueRange{init});
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(sLoop.getBody());
    Value partial = memref::LoadOp::create(
        b, loc, bb.arg(spec.partialArg),
        ValueRange{bb.add(base, sLoop.getInductionVar())});
    IRMapping m;
    m.map(spec.op.getRegion().front().getArgument(spec.op.getNumDpsInputs()),
          sLoop.getRegionIterArg(0));
    m.map(comb.value, partial);
    Operation *folded = b.clone(*comb.op, m);
    scf::YieldOp::create(b, loc, folded->getResult(0));
  }
  memref::StoreOp::create(b, loc, sLoop.getResult(0), outBuf, *outOff);
  b.setInsertionPointAfter(oLoop);
  bb.finish();
  return success();
}
