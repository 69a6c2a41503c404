//===- CudaKernelBodies.cpp - Kernel shapes tuned for CUDA GPUs -----------===//
//
// Bandwidth-bound kernels on NVIDIA GPUs want 16-byte loads and stores, many
// independent loads in flight, and reductions that combine through warp
// shuffles rather than shared memory.
//
// - Elementwise: where every buffer is read and written at the flat index
//   (no broadcasting), work-items step over vectors of kCudaVectorWidth
//   elements with vector loads and stores, evaluating the payload once per
//   lane. Whether the buffers' addresses allow it is checked when the kernel
//   runs (a uniform branch): the runtime aligns allocations to 64 bytes, but
//   arrays may come from elsewhere. The elements past the last whole vector,
//   and everything when an address is not aligned, go through a scalar
//   grid-stride loop.
// - Reductions whose reduced loops are innermost: a workgroup reduces a
//   slice of a row with the same vector loads, four vectors per step (four
//   loads in flight) and an accumulator per lane,
//   then combines its work-items' values with warp shuffles, one value per
//   warp through workgroup memory and a last round of shuffles.
// - The final combine: one workgroup per output folds its partials; for a
//   reduction to one output, the workgroup of the reduction that finishes
//   last (a ticket from the launch queue's counter word, a kernel argument)
//   does it in the same launch.
//
//===----------------------------------------------------------------------===//

#include "BodyBuilder.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace sluice;
using namespace sluice::kernels;

namespace {

constexpr int64_t kWarpSize = 32;
// Vectors a work-item of a reduction loads per step (loads in flight): on
// an H100, sum(2^27 f32) ran at 2.60 TB/s with 1, 2.87 with 2 and 2.90
// with 4 (58 registers: 4 workgroups of 256 per multiprocessor).
constexpr int64_t kCudaReductionUnroll = 4;

bool vectorElementType(Type t) {
  if (!t.isIntOrFloat())
    return false;
  unsigned w = t.getIntOrFloatBitWidth();
  return w == 8 || w == 16 || w == 32 || w == 64;
}

/// Alignment a vector access of this element type needs (and gets).
int64_t vectorAlignment(Type elem) {
  return std::min<int64_t>(16, kCudaVectorWidth *
                                   (elem.getIntOrFloatBitWidth() / 8));
}

/// Whether warp shuffles can move values of this type.
bool shuffleType(Type t) {
  if (!t.isIntOrFloat())
    return false;
  unsigned w = t.getIntOrFloatBitWidth();
  return w == 32 || w == 64;
}

/// The buffer operands a vector body loads: the inputs the payload reads.
SmallVector<OpOperand *> loadedInputs(linalg::GenericOp op) {
  SmallVector<OpOperand *> inputs;
  Block &body = op.getRegion().front();
  for (OpOperand *in : op.getDpsInputOperands())
    if (isa<MemRefType>(in->get().getType()) &&
        !body.getArgument(in->getOperandNumber()).use_empty())
      inputs.push_back(in);
  return inputs;
}

/// CUDA-specific pieces on top of BodyBuilder.
class CudaBuilder {
public:
  CudaBuilder(BodyBuilder &bb)
      : bb(bb), b(bb.b), loc(bb.loc), comb(bb.spec.combiner),
        accArg(bb.op.getRegion().front().getArgument(bb.op.getNumDpsInputs())) {
  }

  Value i1(bool v) { return arith::ConstantIntOp::create(b, loc, v, 1); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value bufferOf(OpOperand &operand) {
    return bb.arg(bb.spec.bufferArg.lookup(operand.getOperandNumber()));
  }
  Type elementOf(OpOperand &operand) {
    return cast<MemRefType>(operand.get().getType()).getElementType();
  }

  /// Whether every buffer of `operands` is aligned for vector access.
  Value aligned(ArrayRef<OpOperand *> operands) {
    Value ok = i1(true);
    for (OpOperand *operand : operands) {
      Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(
          b, loc, bufferOf(*operand));
      Value rem = bb.rem(ptr, bb.c(vectorAlignment(elementOf(*operand))));
      ok = arith::AndIOp::create(b, loc, ok,
                                 cmp(arith::CmpIPredicate::eq, rem, bb.c(0)));
    }
    return ok;
  }

  Value loadVector(OpOperand &operand, Value base) {
    Type elem = elementOf(operand);
    return vector::LoadOp::create(
        b, loc, VectorType::get({kCudaVectorWidth}, elem), bufferOf(operand),
        ValueRange{base}, /*nontemporal=*/false,
        llvm::MaybeAlign(vectorAlignment(elem)));
  }

  /// acc' = combine(x, y) with the reduction's combiner.
  Value combine(Value x, Value y) {
    IRMapping m;
    m.map(accArg, x);
    m.map(comb.value, y);
    return b.clone(*comb.op, m)->getResult(0);
  }
  Value identity() { return arith::ConstantOp::create(b, loc, comb.identity); }

  /// Folds `v` over the lanes of each warp (every lane gets the result).
  Value warpReduce(Value v) {
    for (int32_t offset = kWarpSize / 2; offset > 0; offset /= 2) {
      auto shuffle = gpu::ShuffleOp::create(b, loc, v, offset, kWarpSize,
                                            gpu::ShuffleMode::XOR);
      v = combine(v, shuffle.getShuffleResult());
    }
    return v;
  }

  /// Folds every work-item's `v`; the result is valid in work-item 0.
  /// Warp shuffles where the type allows, else a tree in workgroup memory.
  Value workgroupReduce(Value v, Value tid, Value scratch) {
    int64_t wg = bb.spec.workgroupSize;
    if (shuffleType(v.getType()) && wg >= kWarpSize && wg % kWarpSize == 0) {
      v = warpReduce(v);
      int64_t warps = wg / kWarpSize;
      if (warps == 1)
        return v;
      Value lane = bb.rem(tid, bb.c(kWarpSize));
      Value warp = bb.div(tid, bb.c(kWarpSize));
      auto first = scf::IfOp::create(
          b, loc, cmp(arith::CmpIPredicate::eq, lane, bb.c(0)), false);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPoint(first.thenBlock()->getTerminator());
        memref::StoreOp::create(b, loc, v, scratch, warp);
      }
      gpu::BarrierOp::create(b, loc);
      // Every warp folds the per-warp values (a uniform branch-free step);
      // work-item 0 keeps the result.
      Value has = cmp(arith::CmpIPredicate::ult, lane, bb.c(warps));
      Value slot = select(has, lane, bb.c(0));
      Value w = memref::LoadOp::create(b, loc, scratch, slot);
      return warpReduce(select(has, w, identity()));
    }
    memref::StoreOp::create(b, loc, v, scratch, tid);
    gpu::BarrierOp::create(b, loc);
    for (int64_t half = wg / 2; half > 0; half /= 2) {
      auto step = scf::IfOp::create(
          b, loc, cmp(arith::CmpIPredicate::ult, tid, bb.c(half)), false);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPoint(step.thenBlock()->getTerminator());
        Value mine = memref::LoadOp::create(b, loc, scratch, tid);
        Value other = memref::LoadOp::create(
            b, loc, scratch, ValueRange{bb.add(tid, bb.c(half))});
        memref::StoreOp::create(b, loc, combine(mine, other), scratch, tid);
      }
      gpu::BarrierOp::create(b, loc);
    }
    return memref::LoadOp::create(b, loc, scratch, bb.c(0));
  }

  /// Folds output `o`'s `slices` partials: the work-items stride over them
  /// (a few each: there are about as many partials as the reduction had
  /// workgroups), then combine through `scratch`. Each work-item folds its
  /// partials in a fixed order and the tree is fixed: the same bits on
  /// every run. The result is valid in work-item 0.
  Value foldPartials(Value o, Value slices, Value tid, Value bdim,
                     Value scratch) {
    Value base = bb.mul(o, slices);
    auto loop =
        scf::ForOp::create(b, loc, tid, slices, bdim, ValueRange{identity()});
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      Value partial = memref::LoadOp::create(
          b, loc, bb.arg(bb.spec.partialArg),
          ValueRange{bb.add(base, loop.getInductionVar())});
      scf::YieldOp::create(b, loc, combine(loop.getRegionIterArg(0), partial));
    }
    return workgroupReduce(loop.getResult(0), tid, scratch);
  }

  /// Writes a reduced value into output element `outOff`: stored as it is
  /// when the output starts from the combiner's identity, else folded into
  /// the output's initial value.
  void writeOutput(Value total, Value outOff) {
    Value out = bb.arg(bb.spec.bufferArg.lookup(
        bb.op.getDpsInitsMutable()[0].getOperandNumber()));
    if (!bb.spec.initIsIdentity)
      total = combine(memref::LoadOp::create(b, loc, out, outOff), total);
    memref::StoreOp::create(b, loc, total, out, outOff);
  }

  /// The single-launch reduction's end of an item (after work-item 0 stored
  /// its partial): work-item 0 makes the partial visible to the whole GPU
  /// (a `membar.gl` fence), then takes a ticket from the queue's counter
  /// word (argument spec.counterArg); the workgroup that takes the last one
  /// folds every partial into the output and sets the word back to zero.
  /// The flag goes through workgroup memory, so the branch is uniform and
  /// its barriers are reached by the whole workgroup.
  LogicalResult lastWorkgroupCombine(Value /*item*/, Value items, Value tid,
                                     Value bdim) {
    auto func = bb.func;
    Value scratch = func.getWorkgroupAttributions()[0];
    Value flag = func.getWorkgroupAttributions()[1];
    // The word is in global memory (the runtime allocated it on the device).
    Value counter = LLVM::AddrSpaceCastOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1),
        bb.arg(bb.spec.counterArg));
    auto first = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::eq, tid, bb.c(0)), false);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(first.thenBlock()->getTerminator());
      NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
      Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
      Value taken =
          LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::add, counter,
                                    one, LLVM::AtomicOrdering::monotonic);
      Value takenIndex =
          arith::IndexCastUIOp::create(b, loc, b.getIndexType(), taken);
      Value last =
          cmp(arith::CmpIPredicate::eq, takenIndex, bb.sub(items, bb.c(1)));
      memref::StoreOp::create(
          b, loc, arith::ExtUIOp::create(b, loc, b.getI32Type(), last), flag,
          ValueRange{bb.c(0)});
    }
    gpu::BarrierOp::create(b, loc);
    Value isLast =
        cmp(arith::CmpIPredicate::ne,
            memref::LoadOp::create(b, loc, flag, ValueRange{bb.c(0)}),
            arith::ConstantIntOp::create(b, loc, 0, 32));
    auto lastGroup = scf::IfOp::create(b, loc, isLast, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(lastGroup.thenBlock()->getTerminator());
    // Every other workgroup's partial was made visible before its ticket.
    NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
    Value numOutputs = bb.product(bb.parLoops);
    Value slices = bb.arg(bb.spec.slicesArg);
    auto oLoop = scf::ForOp::create(b, loc, bb.c(0), numOutputs, bb.c(1));
    {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPoint(oLoop.getBody()->getTerminator());
      Value o = oLoop.getInductionVar();
      Value total = foldPartials(o, slices, tid, bdim, scratch);
      auto writer = scf::IfOp::create(
          b, loc, cmp(arith::CmpIPredicate::eq, tid, bb.c(0)), false);
      {
        OpBuilder::InsertionGuard g3(b);
        b.setInsertionPoint(writer.thenBlock()->getTerminator());
        FailureOr<Value> outOff = bb.outputOffset(o);
        if (failed(outOff))
          return failure();
        writeOutput(total, *outOff);
      }
      gpu::BarrierOp::create(b, loc);
    }
    // Every workgroup has taken its ticket: the queue's next launch finds
    // the word at zero (the kernel's end orders the store before it).
    auto reset = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::eq, tid, bb.c(0)), false);
    b.setInsertionPoint(reset.thenBlock()->getTerminator());
    LLVM::StoreOp::create(b, loc, arith::ConstantIntOp::create(b, loc, 0, 32),
                          counter, /*alignment=*/4);
    return success();
  }

  BodyBuilder &bb;
  OpBuilder &b;
  Location loc;
  Combiner &comb;
  BlockArgument accArg;
};

} // namespace

bool sluice::kernels::reducedLoopsInnermost(linalg::GenericOp op) {
  SmallVector<unsigned> par, red;
  for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
    (it == utils::IteratorType::parallel ? par : red).push_back(i);
  return par.empty() || red.empty() || par.back() < red.front();
}

bool sluice::kernels::cudaVectorizable(linalg::GenericOp op) {
  bool reduction = op.getNumReductionLoops() > 0;
  if (reduction && !reducedLoopsInnermost(op))
    return false;
  // Strided views (run-time broadcasts) are not contiguous.
  for (OpOperand &operand : op->getOpOperands())
    if (auto t = dyn_cast<MemRefType>(operand.get().getType());
        t && !t.getLayout().isIdentity())
      return false;
  for (OpOperand *in : loadedInputs(op))
    if (!op.getMatchingIndexingMap(in).isIdentity() ||
        !vectorElementType(
            cast<MemRefType>(in->get().getType()).getElementType()))
      return false;
  if (reduction)
    return true;
  for (OpOperand &init : op.getDpsInitsMutable())
    if (!op.getMatchingIndexingMap(&init).isIdentity() ||
        !vectorElementType(
            cast<MemRefType>(init.get().getType()).getElementType()))
      return false;
  return true;
}

LogicalResult sluice::kernels::buildCudaElementwiseKernel(gpu::GPUFuncOp func,
                                                          KernelSpec &spec) {
  if (!cudaVectorizable(spec.op))
    return buildElementwiseKernel(func, spec);
  BodyBuilder bb(func, spec);
  CudaBuilder cb(bb);
  OpBuilder &b = bb.b;
  Location loc = bb.loc;
  linalg::GenericOp op = spec.op;
  Value total =
      bb.product(llvm::to_vector(llvm::seq<unsigned>(0, bb.loopSizes.size())));
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value bdim = gpu::BlockDimOp::create(b, loc, gpu::Dimension::x);
  Value gdim = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value gid = bb.add(bb.mul(bid, bdim), tid);
  Value stride = bb.mul(gdim, bdim);
  const int64_t V = kCudaVectorWidth;

  SmallVector<OpOperand *> inputs = loadedInputs(op), all = inputs;
  for (OpOperand &init : op.getDpsInitsMutable())
    all.push_back(&init);
  Value vectors = cb.select(cb.aligned(all), bb.div(total, bb.c(V)), bb.c(0));

  auto vloop = scf::ForOp::create(b, loc, gid, vectors, stride);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(vloop.getBody()->getTerminator());
    Value base = bb.mul(vloop.getInductionVar(), bb.c(V));
    SmallVector<Value> loaded;
    for (OpOperand *in : inputs)
      loaded.push_back(cb.loadVector(*in, base));
    SmallVector<SmallVector<Value>> lanes(op.getNumDpsInits());
    for (int64_t k = 0; k < V; ++k) {
      for (auto [in, vec] : llvm::zip(inputs, loaded))
        bb.preloaded[in->getOperandNumber()] =
            vector::ExtractOp::create(b, loc, vec, k);
      BodyBuilder::Point p;
      p.flat = bb.add(base, bb.c(k));
      IRMapping mapping;
      FailureOr<SmallVector<Value>> values = bb.payload(p, Value(), mapping);
      if (failed(values))
        return failure();
      for (auto [j, v] : llvm::enumerate(*values))
        lanes[j].push_back(v);
    }
    bb.preloaded.clear();
    for (auto [init, values] : llvm::zip(op.getDpsInitsMutable(), lanes)) {
      Type elem = cb.elementOf(init);
      Value vec = vector::FromElementsOp::create(
          b, loc, VectorType::get({V}, elem), values);
      vector::StoreOp::create(b, loc, vec, cb.bufferOf(init), ValueRange{base},
                              /*nontemporal=*/false,
                              llvm::MaybeAlign(vectorAlignment(elem)));
    }
  }
  // The rest, element by element.
  Value tailStart = bb.add(bb.mul(vectors, bb.c(V)), gid);
  auto tail = scf::ForOp::create(b, loc, tailStart, total, stride);
  if (failed(bb.storeElementsOf(tail)))
    return failure();
  bb.finish();
  return success();
}

LogicalResult sluice::kernels::buildCudaReductionKernel(gpu::GPUFuncOp func,
                                                        KernelSpec &spec) {
  BodyBuilder bb(func, spec);
  CudaBuilder cb(bb);
  OpBuilder &b = bb.b;
  Location loc = bb.loc;
  linalg::GenericOp op = spec.op;
  const int64_t V = kCudaVectorWidth;
  bool vectorize = cudaVectorizable(op);
  Value numOutputs = bb.product(bb.parLoops);
  Value reduced = bb.product(bb.redLoops);
  Value slices = bb.arg(spec.slicesArg);
  Value items = bb.mul(numOutputs, slices);
  // Slices start at multiples of the vector width when vectorising.
  Value chunk = bb.ceilDiv(reduced, slices);
  if (vectorize)
    chunk = bb.mul(bb.ceilDiv(chunk, bb.c(V)), bb.c(V));
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value bdim = gpu::BlockDimOp::create(b, loc, gpu::Dimension::x);
  Value gdim = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value scratch = func.getWorkgroupAttributions()[0];
  SmallVector<OpOperand *> inputs = loadedInputs(op);
  Value inputsAligned = vectorize ? cb.aligned(inputs) : Value();

  // One item (output o, slice s) per workgroup at a time.
  auto itemLoop = scf::ForOp::create(b, loc, bid, items, gdim);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(itemLoop.getBody()->getTerminator());
  Value item = itemLoop.getInductionVar();
  Value o = bb.div(item, slices);
  Value s = bb.rem(item, slices);
  Value rlo = bb.min(bb.mul(s, chunk), reduced);
  Value rhi = bb.min(bb.add(rlo, chunk), reduced);
  Value rowBase = bb.mul(o, reduced);
  Value acc = cb.identity();

  auto evalAt = [&](Value r, Value accIn) -> FailureOr<Value> {
    BodyBuilder::Point p;
    p.outputIndex = o;
    p.reducedIndex = r;
    p.flat = bb.add(rowBase, r);
    IRMapping mapping;
    FailureOr<SmallVector<Value>> values = bb.payload(p, accIn, mapping);
    if (failed(values))
      return failure();
    return (*values)[0];
  };

  Value tailStart = bb.add(rlo, tid);
  if (vectorize) {
    // Rows start aligned when the reduced extent is a multiple of the
    // vector width (or there is one row).
    Value rowAligned =
        cb.cmp(arith::CmpIPredicate::eq, bb.rem(rowBase, bb.c(V)), bb.c(0));
    Value ok = arith::AndIOp::create(b, loc, inputsAligned, rowAligned);
    Value nv = cb.select(ok, bb.div(bb.sub(rhi, rlo), bb.c(V)), bb.c(0));
    // Vectors v, v + bdim, ... v + (U-1)*bdim of the slice in one step (U
    // loads in flight, each a whole warp's contiguous 512 bytes for f32),
    // then at most U-1 vectors more, one per step; an accumulator per lane
    // of each.
    auto step = [&](scf::ForOp loop, int64_t unroll) -> LogicalResult {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      SmallVector<Value> r0s;
      SmallVector<SmallVector<Value>> loaded(unroll);
      for (int64_t u = 0; u < unroll; ++u) {
        Value v = bb.add(loop.getInductionVar(), bb.mul(bb.c(u), bdim));
        Value r0 = bb.add(rlo, bb.mul(v, bb.c(V)));
        r0s.push_back(r0);
        for (OpOperand *in : inputs)
          loaded[u].push_back(cb.loadVector(*in, bb.add(rowBase, r0)));
      }
      SmallVector<Value> next(loop.getRegionIterArgs());
      for (int64_t u = 0; u < unroll; ++u)
        for (int64_t k = 0; k < V; ++k) {
          for (auto [in, vec] : llvm::zip(inputs, loaded[u]))
            bb.preloaded[in->getOperandNumber()] =
                vector::ExtractOp::create(b, loc, vec, k);
          FailureOr<Value> v =
              evalAt(bb.add(r0s[u], bb.c(k)), loop.getRegionIterArg(u * V + k));
          if (failed(v))
            return failure();
          next[u * V + k] = *v;
        }
      bb.preloaded.clear();
      scf::YieldOp::create(b, loc, next);
      return success();
    };
    const int64_t U = kCudaReductionUnroll;
    Value span = bb.mul(bdim, bb.c(U));
    Value reach = bb.mul(bdim, bb.c(U - 1));
    Value mainEnd = cb.select(cb.cmp(arith::CmpIPredicate::ugt, nv, reach),
                              bb.sub(nv, reach), bb.c(0));
    SmallVector<Value> inits(U * V, acc);
    auto main = scf::ForOp::create(b, loc, tid, mainEnd, span, inits);
    if (failed(step(main, U)))
      return failure();
    Value done = cb.select(cb.cmp(arith::CmpIPredicate::ugt, mainEnd, tid),
                           bb.ceilDiv(bb.sub(mainEnd, tid), span), bb.c(0));
    auto vloop = scf::ForOp::create(b, loc, bb.add(tid, bb.mul(done, span)), nv,
                                    bdim, main.getResults());
    if (failed(step(vloop, 1)))
      return failure();
    SmallVector<Value> parts = vloop.getResults();
    while (parts.size() > 1) {
      SmallVector<Value> folded;
      for (size_t i = 0; i + 1 < parts.size(); i += 2)
        folded.push_back(cb.combine(parts[i], parts[i + 1]));
      if (parts.size() % 2)
        folded.push_back(parts.back());
      parts = folded;
    }
    acc = parts[0];
    tailStart = bb.add(bb.add(rlo, bb.mul(nv, bb.c(V))), tid);
  }
  auto tail = scf::ForOp::create(b, loc, tailStart, rhi, bdim, ValueRange{acc});
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(tail.getBody());
    FailureOr<Value> v =
        evalAt(tail.getInductionVar(), tail.getRegionIterArg(0));
    if (failed(v))
      return failure();
    scf::YieldOp::create(b, loc, *v);
  }
  Value total = cb.workgroupReduce(tail.getResult(0), tid, scratch);
  auto first = scf::IfOp::create(
      b, loc, cb.cmp(arith::CmpIPredicate::eq, tid, bb.c(0)), false);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(first.thenBlock()->getTerminator());
    if (spec.singlePhase) {
      FailureOr<Value> outOff = bb.outputOffset(o);
      if (failed(outOff))
        return failure();
      cb.writeOutput(total, *outOff);
    } else {
      memref::StoreOp::create(b, loc, total, bb.arg(spec.partialArg), item);
    }
  }
  if (spec.counterArg >= 0 &&
      failed(cb.lastWorkgroupCombine(item, items, tid, bdim)))
    return failure();
  // The next item reuses the workgroup memory.
  gpu::BarrierOp::create(b, loc);
  b.setInsertionPointAfter(itemLoop);
  bb.finish();
  return success();
}

LogicalResult sluice::kernels::buildCudaCombineKernel(gpu::GPUFuncOp func,
                                                      KernelSpec &spec) {
  BodyBuilder bb(func, spec);
  CudaBuilder cb(bb);
  OpBuilder &b = bb.b;
  Location loc = bb.loc;
  Value numOutputs = bb.product(bb.parLoops);
  Value slices = bb.arg(spec.slicesArg);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value bdim = gpu::BlockDimOp::create(b, loc, gpu::Dimension::x);
  Value gdim = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value scratch = func.getWorkgroupAttributions()[0];
  // A workgroup per output.
  auto oLoop = scf::ForOp::create(b, loc, bid, numOutputs, gdim);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(oLoop.getBody()->getTerminator());
  Value o = oLoop.getInductionVar();
  Value total = cb.foldPartials(o, slices, tid, bdim, scratch);
  auto first = scf::IfOp::create(
      b, loc, cb.cmp(arith::CmpIPredicate::eq, tid, bb.c(0)), false);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(first.thenBlock()->getTerminator());
    FailureOr<Value> outOff = bb.outputOffset(o);
    if (failed(outOff))
      return failure();
    cb.writeOutput(total, *outOff);
  }
  // The next output reuses the workgroup memory.
  gpu::BarrierOp::create(b, loc);
  b.setInsertionPointAfter(oLoop);
  bb.finish();
  return success();
}
