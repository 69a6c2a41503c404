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
// over the space. CUDA's own shapes (vector accesses, reductions through
// warp shuffles) are in CudaKernelBodies.cpp.
//
//===----------------------------------------------------------------------===//

#include "BodyBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

#include <limits>

using namespace mlir;
using namespace sluice;
using namespace sluice::kernels;

FailureOr<Combiner> sluice::kernels::matchCombiner(linalg::GenericOp op,
                                                   bool report) {
  if (op.getNumDpsInits() != 1) {
    if (!report)
      return failure();
    return op.emitOpError("reduction with ")
           << op.getNumDpsInits()
           << " outputs cannot be compiled (one output is supported)";
  }
  Block &body = op.getRegion().front();
  BlockArgument acc = body.getArgument(op.getNumDpsInputs());
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Operation *c = yield.getNumOperands() == 1
                     ? yield.getOperand(0).getDefiningOp()
                     : nullptr;
  auto fail = [&]() -> FailureOr<Combiner> {
    if (!report)
      return failure();
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

/// Marks a float combiner reassociable so that LLVM vectorises the loop
/// that feeds it (the partials already reassociate the reduction).
void allowReassociation(Operation *op) {
  if (auto fm = dyn_cast<arith::ArithFastMathInterface>(op))
    op->setAttr(fm.getFastMathAttrName(),
                arith::FastMathFlagsAttr::get(op->getContext(),
                                              arith::FastMathFlags::reassoc));
}

/// Rewrites a float maximum/minimum combiner as compare-and-select with a
/// NaN test (the value arith's expansion gives): LLVM leaves that loop
/// scalar. For host reductions whose reduced loop is not the innermost
/// one (column max): vectorised, its strided loads became gathers, slower
/// than the scalar loop (bench/RESULTS.md).
void expandStridedMinMax(Operation *op) {
  bool isMax = isa<arith::MaximumFOp>(op);
  if (!isMax && !isa<arith::MinimumFOp>(op))
    return;
  using P = arith::CmpFPredicate;
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  Value pick = arith::CmpFOp::create(b, loc, isMax ? P::UGT : P::ULT, lhs, rhs);
  Value sel = arith::SelectOp::create(b, loc, pick, lhs, rhs);
  Value rhsNan = arith::CmpFOp::create(b, loc, P::UNO, rhs, rhs);
  Value r = arith::SelectOp::create(b, loc, rhsNan, rhs, sel);
  op->getResult(0).replaceAllUsesWith(r);
  op->erase();
}

} // namespace

namespace {

/// Whether evaluating the payload needs per-loop indices (a broadcast or
/// permuted operand, a strided view, linalg.index), not just the flat one.
bool needsLoopIndices(KernelSpec &spec) {
  linalg::GenericOp op = spec.op;
  Block &body = op.getRegion().front();
  for (OpOperand &operand : op->getOpOperands()) {
    if (spec.scalarArg.count(operand.getOperandNumber()))
      continue;
    if (op.isDpsInput(&operand) &&
        body.getArgument(operand.getOperandNumber()).use_empty())
      continue;
    if (spec.strided.count(operand.getOperandNumber()) ||
        !op.getMatchingIndexingMap(&operand).isIdentity())
      return true;
  }
  return !body.getOps<linalg::IndexOp>().empty();
}

/// A host workgroup's share [lo, hi) of the flat space as rows of the
/// innermost loop: the outer indices are computed once a row (not a
/// division per loop per element), and the inner loop runs over the last
/// index with unit step, which LLVM vectorises (broadcast operands become
/// loop-invariant loads).
LogicalResult buildHostRows(BodyBuilder &bb) {
  OpBuilder &b = bb.b;
  Location loc = bb.loc;
  unsigned n = bb.loopSizes.size();
  Value total = bb.product(llvm::to_vector(llvm::seq<unsigned>(0, n)));
  auto [lo, hi] = bb.hostRange(total, /*align=*/64);
  Value inner = bb.loopSizes[n - 1];
  // Empty spaces (an extent of 0) make no rows.
  Value safeInner = arith::MaxUIOp::create(b, loc, inner, bb.c(1));
  Value rowLo = bb.div(lo, safeInner);
  Value rowHi = bb.ceilDiv(hi, safeInner);
  auto rows = scf::ForOp::create(b, loc, rowLo, rowHi, bb.c(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(rows.getBody()->getTerminator());
  Value row = rows.getInductionVar();
  Value base = bb.mul(row, inner);
  Value colLo = bb.sub(arith::MaxUIOp::create(b, loc, lo, base), base);
  Value colHi = bb.sub(bb.min(hi, bb.add(base, inner)), base);
  SmallVector<Value> outer(n, Value());
  Value rest = row; // the outermost index needs no remainder
  for (unsigned l = n - 2; l > 0; --l) {
    outer[l] = bb.rem(rest, bb.loopSizes[l]);
    rest = bb.div(rest, bb.loopSizes[l]);
  }
  outer[0] = rest;
  auto cols = scf::ForOp::create(b, loc, colLo, colHi, bb.c(1));
  b.setInsertionPoint(cols.getBody()->getTerminator());
  BodyBuilder::Point p;
  Value col = cols.getInductionVar();
  p.flat = bb.add(base, col);
  p.idx = outer;
  p.idx[n - 1] = col;
  IRMapping mapping;
  FailureOr<SmallVector<Value>> values = bb.payload(p, Value(), mapping);
  if (failed(values))
    return failure();
  return bb.storeOutputs(p, *values);
}

} // namespace

bool sluice::kernels::hostStreamingStoresApply(KernelSpec &spec) {
  linalg::GenericOp op = spec.op;
  if (spec.target != KernelTarget::Host || op.getNumReductionLoops() != 0 ||
      (op.getNumLoops() >= 2 && needsLoopIndices(spec)))
    return false;
  llvm::SmallDenseSet<unsigned> outputArgs;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    unsigned n = init.getOperandNumber();
    auto type = dyn_cast<MemRefType>(init.get().getType());
    if (!type || !type.getElementType().isIntOrFloat() ||
        spec.strided.count(n) || !op.getMatchingIndexingMap(&init).isIdentity())
      return false;
    if (!outputArgs.insert(spec.bufferArg.lookup(n)).second)
      return false;
  }
  return !outputArgs.empty();
}

LogicalResult sluice::kernels::buildElementwiseKernel(gpu::GPUFuncOp func,
                                                      KernelSpec &spec) {
  BodyBuilder bb(func, spec);
  SmallVector<memref::AssumeAlignmentOp> assumed;
  if (spec.nontemporalStores) {
    // The launch checked the outputs' alignment: with it (and the 64-element
    // alignment of a workgroup's range) LLVM knows its vector stores
    // aligned, which non-temporal vector stores need.
    for (OpOperand &init : spec.op.getDpsInitsMutable())
      assumed.push_back(memref::AssumeAlignmentOp::create(
          bb.b, bb.loc, bb.arg(spec.bufferArg.lookup(init.getOperandNumber())),
          kHostStreamingAlign));
    func->setAttr(kNontemporalStoresAttrName, bb.b.getUnitAttr());
  }
  if (bb.isHost() && bb.loopSizes.size() >= 2 && needsLoopIndices(spec)) {
    if (failed(buildHostRows(bb)))
      return failure();
  } else {
    Value total = bb.product(
        llvm::to_vector(llvm::seq<unsigned>(0, bb.loopSizes.size())));
    scf::ForOp loop = bb.distributedLoop(total, /*hostAlign=*/64);
    if (failed(bb.storeElementsOf(loop)))
      return failure();
  }
  for (memref::AssumeAlignmentOp a : assumed)
    a.getMemref().replaceAllUsesExcept(a.getResult(), a);
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

  // One work item: reduce slice s of output o serially. Host workgroups and
  // SPIR-V work-items take items in order of (o, s) (OpenCL CPU drivers
  // such as PoCL lack work-group collectives); CUDA work-items, which come
  // here when the reduced loops are not innermost, take them in order of
  // (s, o), so that neighbouring work-items read neighbouring outputs'
  // elements. CUDA's other reductions are in CudaKernelBodies.cpp.
  scf::ForOp itemLoop;
  if (bb.isHost()) {
    auto [lo, hi] = bb.hostRange(items, 1);
    itemLoop = scf::ForOp::create(b, loc, lo, hi, bb.c(1));
  } else {
    itemLoop = bb.distributedLoop(items, 1);
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(itemLoop.getBody()->getTerminator());
  Value item = itemLoop.getInductionVar();
  bool outputsFastest = spec.target == KernelTarget::Cuda;
  // One phase means one slice per output: the item is the output.
  Value o = spec.singlePhase ? item
            : outputsFastest ? bb.rem(item, numOutputs)
                             : bb.div(item, slices);
  Value s = spec.singlePhase ? bb.c(0)
            : outputsFastest ? bb.div(item, numOutputs)
                             : bb.rem(item, slices);
  // The parallel loops' indices, once per item (not per reduced element:
  // divisions do not leave the reduced loop, whose divisor LLVM cannot
  // prove non-zero).
  SmallVector<Value> parIdx;
  if (needsLoopIndices(spec)) {
    parIdx.assign(bb.loopSizes.size(), Value());
    bb.delinearize(o, bb.parLoops, parIdx);
  }
  Value rlo = bb.min(bb.mul(s, chunk), reduced);
  Value rhi = bb.min(bb.add(rlo, chunk), reduced);
  FailureOr<Value> outOff = bb.outputOffset(o);
  if (failed(outOff))
    return failure();
  Value outBuf = bb.arg(spec.bufferArg.lookup(
      spec.op.getDpsInitsMutable()[0].getOperandNumber()));
  Value identity = arith::ConstantOp::create(b, loc, comb.identity);
  Value init = identity;
  bool direct = spec.singlePhase;
  if (direct && !spec.initIsIdentity)
    init = memref::LoadOp::create(b, loc, outBuf, *outOff);
  auto rLoop = scf::ForOp::create(b, loc, rlo, rhi, bb.c(1), ValueRange{init});
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(rLoop.getBody());
    Value r = rLoop.getInductionVar();
    BodyBuilder::Point p;
    p.outputIndex = o;
    p.reducedIndex = r;
    if (!parIdx.empty()) {
      p.idx = parIdx;
      bb.delinearize(r, bb.redLoops, p.idx);
    }
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
    if (bb.isHost() && !parFirst)
      if (Operation *c = (*values)[0].getDefiningOp())
        expandStridedMinMax(c);
  }
  Value acc = rLoop.getResult(0);
  if (spec.target != KernelTarget::Host) {
    // SPIR-V's lowering of scf.for keeps the loop's results in variables
    // that only the loop body stores: a loop that runs no iteration (an
    // empty slice, an empty reduced extent) would yield whatever the
    // variable held. Such a loop yields its initial value here.
    Value ran =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, rlo, rhi);
    acc = arith::SelectOp::create(b, loc, ran, acc, init);
  }
  if (direct)
    memref::StoreOp::create(b, loc, acc, outBuf, *outOff);
  else
    memref::StoreOp::create(b, loc, acc, bb.arg(spec.partialArg),
                            ValueRange{bb.add(bb.mul(o, slices), s)});
  b.setInsertionPointAfter(itemLoop);
  bb.finish();
  return success();
}

/// Rows a host column reduction folds into its tile per load and store of
/// the tile.
constexpr int64_t kHostColumnUnroll = 4;

bool sluice::kernels::hostColumnReductionApplies(KernelSpec &spec) {
  linalg::GenericOp op = spec.op;
  if (spec.target != KernelTarget::Host || op.getNumReductionLoops() == 0 ||
      op.getNumDpsInits() != 1)
    return false;
  SmallVector<unsigned> par, red;
  for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
    (it == utils::IteratorType::parallel ? par : red).push_back(i);
  // Parallel loops around the reduced ones, some after them, none between.
  if (par.empty() || par.back() < red.back() ||
      llvm::any_of(
          par, [&](unsigned l) { return l > red.front() && l < red.back(); }))
    return false;
  OpOperand &init = op.getDpsInitsMutable()[0];
  auto type = dyn_cast<MemRefType>(init.get().getType());
  if (!type || !type.getElementType().isIntOrFloat() ||
      spec.strided.count(init.getOperandNumber()))
    return false;
  AffineMap map = op.getMatchingIndexingMap(&init);
  if (map.getNumResults() != par.size())
    return false;
  for (auto [i, e] : llvm::enumerate(map.getResults()))
    if (!isa<AffineDimExpr>(e) ||
        cast<AffineDimExpr>(e).getPosition() != par[i])
      return false;
  return true;
}

LogicalResult
sluice::kernels::buildHostColumnReductionKernel(gpu::GPUFuncOp func,
                                                KernelSpec &spec) {
  BodyBuilder bb(func, spec);
  OpBuilder &b = bb.b;
  Location loc = bb.loc;
  // Parallel loops before the reduced ones (outer) and after (inner: the
  // tiles run over them).
  SmallVector<unsigned> outerLoops, innerLoops;
  for (unsigned l : bb.parLoops)
    (l < bb.redLoops.front() ? outerLoops : innerLoops).push_back(l);
  Value numOuter = bb.product(outerLoops);
  Value numInner = bb.product(innerLoops);
  Value numOutputs = bb.mul(numOuter, numInner);
  Value reduced = bb.product(bb.redLoops);
  Value slices = bb.arg(spec.slicesArg);
  Value width = bb.arg(spec.tileArg);
  Value tiles =
      bb.ceilDiv(numInner, arith::MaxUIOp::create(b, loc, width, bb.c(1)));
  Value perOuter = bb.mul(tiles, slices);
  Value items = bb.mul(numOuter, perOuter);
  Value chunk = bb.ceilDiv(reduced, slices);
  Combiner &comb = spec.combiner;
  auto [lo, hi] = bb.hostRange(items, 1);
  auto itemLoop = scf::ForOp::create(b, loc, lo, hi, bb.c(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(itemLoop.getBody()->getTerminator());
  // Item = ((outer index, slice), tile).
  Value item = itemLoop.getInductionVar();
  Value po = bb.div(item, perOuter);
  Value rest = bb.rem(item, perOuter);
  Value s = bb.div(rest, tiles);
  Value t = bb.rem(rest, tiles);
  Value olo = bb.min(bb.mul(t, width), numInner);
  Value ohi = bb.min(bb.add(olo, width), numInner);
  Value rlo = bb.min(bb.mul(s, chunk), reduced);
  Value rhi = bb.min(bb.add(rlo, chunk), reduced);
  // Where the tile's values accumulate: the output itself (one phase; the
  // parallel loops in order index it, so output (po, o) is at
  // po * inner + o), or the slice's row of the partials.
  Value dest = spec.singlePhase
                   ? bb.arg(spec.bufferArg.lookup(
                         spec.op.getDpsInitsMutable()[0].getOperandNumber()))
                   : bb.arg(spec.partialArg);
  Value outBase = bb.mul(po, numInner);
  Value destBase =
      spec.singlePhase ? outBase : bb.add(bb.mul(s, numOutputs), outBase);
  // Element (po, r, o) of an identity-mapped buffer.
  Value rowOrigin = bb.mul(po, reduced);
  if (!spec.singlePhase || spec.initIsIdentity) {
    Value identity = arith::ConstantOp::create(b, loc, comb.identity);
    auto fill = scf::ForOp::create(b, loc, olo, ohi, bb.c(1));
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPoint(fill.getBody()->getTerminator());
    memref::StoreOp::create(b, loc, identity, dest,
                            bb.add(destBase, fill.getInductionVar()));
  }
  // Rows of the slice folded into the tile elementwise, kHostColumnUnroll
  // rows at a time (one load and store of the tile per group of rows),
  // then the rest one by one: the reduced order of every output is the
  // unfused one (row after row).
  auto foldRows = [&](Value from, Value to, int64_t rows) -> LogicalResult {
    auto rLoop = scf::ForOp::create(b, loc, from, to, bb.c(rows));
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPoint(rLoop.getBody()->getTerminator());
    Value r0 = rLoop.getInductionVar();
    auto oLoop = scf::ForOp::create(b, loc, olo, ohi, bb.c(1));
    b.setInsertionPoint(oLoop.getBody()->getTerminator());
    Value o = oLoop.getInductionVar();
    Value off = bb.add(destBase, o);
    Value acc = memref::LoadOp::create(b, loc, dest, off);
    for (int64_t k = 0; k < rows; ++k) {
      Value r = k == 0 ? r0 : bb.add(r0, bb.c(k));
      BodyBuilder::Point p;
      p.outputIndex = bb.add(outBase, o);
      p.reducedIndex = r;
      p.flat = bb.add(bb.mul(bb.add(rowOrigin, r), numInner), o);
      IRMapping mapping;
      FailureOr<SmallVector<Value>> values = bb.payload(p, acc, mapping);
      if (failed(values))
        return failure();
      acc = (*values)[0];
    }
    memref::StoreOp::create(b, loc, acc, dest, off);
    return success();
  };
  Value grouped =
      bb.add(rlo, bb.mul(bb.div(bb.sub(rhi, rlo), bb.c(kHostColumnUnroll)),
                         bb.c(kHostColumnUnroll)));
  if (failed(foldRows(rlo, grouped, kHostColumnUnroll)) ||
      failed(foldRows(grouped, rhi, 1)))
    return failure();
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
  Value init = spec.initIsIdentity
                   ? Value(arith::ConstantOp::create(b, loc, comb.identity))
                   : Value(memref::LoadOp::create(b, loc, outBuf, *outOff));
  // Output-major partials: (o, s) at o * slices + s; slice-major (host
  // column reductions): at s * outputs + o.
  bool bySlice = spec.partialsBySlice;
  Value base = bySlice ? o : bb.mul(o, slices);
  Value step = bySlice ? numOutputs : bb.c(1);
  auto sLoop =
      scf::ForOp::create(b, loc, bb.c(0), slices, bb.c(1), ValueRange{init});
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(sLoop.getBody());
    Value partial = memref::LoadOp::create(
        b, loc, bb.arg(spec.partialArg),
        ValueRange{bb.add(base, bb.mul(sLoop.getInductionVar(), step))});
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
