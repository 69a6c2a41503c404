//===- BodyBuilder.h - Building kernel bodies from a linalg op --*- C++ -*-===//
//
// Shared by the kernel builders of every target (KernelBodies.cpp, and
// CudaKernelBodies.cpp for CUDA's own shapes): evaluating a generic's payload
// at points of its iteration space inside a gpu.func.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_LIB_CONVERSION_LINALGTOKERNELS_BODYBUILDER_H
#define SLUICE_LIB_CONVERSION_LINALGTOKERNELS_BODYBUILDER_H

#include "KernelBodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

namespace sluice::kernels {

using namespace mlir;

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
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
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

  /// Indices of `loops` from a flat row-major index over them (below the
  /// product of their sizes: the outermost index needs no remainder, and a
  /// single loop's is the flat index itself).
  void delinearize(Value flat, ArrayRef<unsigned> loops,
                   SmallVectorImpl<Value> &idx) {
    for (auto [k, l] : llvm::enumerate(llvm::reverse(loops))) {
      if (k + 1 == loops.size()) {
        idx[l] = flat;
        break;
      }
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
    for (auto [j, e] : llvm::enumerate(map.getResults())) {
      Value index, size;
      if (auto d = dyn_cast<AffineDimExpr>(e)) {
        index = idx[d.getPosition()];
        size = loopSizes[d.getPosition()];
      } else if (auto k = dyn_cast<AffineConstantExpr>(e);
                 k && k.getValue() < staticDimSize(operand, j)) {
        // A fixed position of a static dimension (a size-1 dimension
        // broadcast, or a short row unrolled: ShortRowLowering.cpp).
        index = c(k.getValue());
        size = c(staticDimSize(operand, j));
      } else if (k && k.getValue() == 0) {
        index = c(0); // a dynamic dimension of size 1
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

  /// The static size of dimension `j` of `operand`'s memref, or -1.
  static int64_t staticDimSize(OpOperand &operand, size_t j) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    return type && !type.isDynamicDim(j) ? type.getDimSize(j) : -1;
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
      if (auto kc = dyn_cast<AffineConstantExpr>(e); kc && kc.getValue() > 0) {
        // A fixed position (a short row unrolled): the view's size there is
        // static and above it (ShortRowLowering.cpp reads such a view).
        off = add(off, mul(c(kc.getValue()), part(access.strideArgs[k],
                                                  access.staticStrides[k])));
        continue;
      }
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
      if (Value v = preloaded.lookup(operand.getOperandNumber())) {
        mapping.map(blockArg, v);
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

  /// Fills `loop`'s body, over flat element indices: evaluates the payload
  /// at its induction variable and stores the outputs.
  LogicalResult storeElementsOf(scf::ForOp loop) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    Point p;
    p.flat = loop.getInductionVar();
    IRMapping mapping;
    FailureOr<SmallVector<Value>> values = payload(p, Value(), mapping);
    if (failed(values))
      return failure();
    return storeOutputs(p, *values);
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
  /// Operand number -> its value at the point being built, loaded already
  /// (CUDA kernels load vectors and hand the payload one lane each).
  llvm::DenseMap<unsigned, Value> preloaded;
};

} // namespace sluice::kernels

#endif // SLUICE_LIB_CONVERSION_LINALGTOKERNELS_BODYBUILDER_H
