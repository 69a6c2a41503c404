//===- LinalgToKernels.cpp - linalg on USM memrefs to GPU kernels ---------===//
//
// Every linalg op left after convert-usm-to-linalg becomes one kernel (two
// for reductions split into slices, except CUDA reductions to one output,
// whose last workgroup folds the partials, counting the workgroups in a word
// the launch queue owns) in the gpu.module of its queue's target family,
// launched from where the op was. See the pass description in Passes.td for the
// shapes of the kernels; KernelBodies.cpp builds their bodies.
//
//===----------------------------------------------------------------------===//

#include "KernelBodies.h"

#include "sluice/Conversion/LinalgToKernels/KernelTarget.h"
#include "sluice/Conversion/Passes.h"
#include "sluice/Dialect/USM/IR/USMDialect.h"
#include "sluice/Dialect/USM/IR/USMTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace sluice {
#define GEN_PASS_DEF_CONVERTLINALGTOKERNELSPASS
#include "sluice/Conversion/Passes.h.inc"
} // namespace sluice

using namespace mlir;
using namespace sluice;
using namespace sluice::kernels;

namespace {

/// Largest grid of one GPU launch: the kernels loop over what is left.
constexpr int64_t kMaxGpuGroups = 65536;
/// Workgroups a host reduction aims for, so that every worker thread of a
/// machine with a few dozen cores gets several.
constexpr int64_t kHostReductionGroups = 64;
/// Workgroups a GPU reduction aims for.
constexpr int64_t kGpuReductionGroups = 1024;
/// CUDA reductions over rows shorter than this run a work-item per row.
constexpr int64_t kCudaShortRow = 64;
/// Fewest elements of a slice that a GPU work-item reduces alone.
constexpr int64_t kGpuSerialMinChunk = 1024;
static_assert(kCudaShortRow <= kGpuSerialMinChunk,
              "a short CUDA row is one slice");
/// Host column reductions: tiles of outputs aimed for, and the bounds of a
/// tile's width (64 floats are four cache lines of a row; 1024 keep the
/// tile in the first-level cache).
constexpr int64_t kHostColumnTiles = 8;
constexpr int64_t kHostColumnTileMin = 64;
constexpr int64_t kHostColumnTileMax = 1024;
/// Marks a reduction whose output starts as its combiner's identity.
constexpr llvm::StringLiteral kInitIsIdentityAttrName =
    "sluice.init_is_identity";

usm::PlacementAttr placementOf(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  return type ? dyn_cast_or_null<usm::PlacementAttr>(type.getMemorySpace())
              : usm::PlacementAttr();
}

/// Host-side arithmetic on index values that folds constants.
struct IndexMath {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value ceilDiv(Value x, Value y) {
    return arith::CeilDivUIOp::create(b, loc, x, y);
  }
  Value min(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value max(Value x, Value y) { return arith::MaxUIOp::create(b, loc, x, y); }
  Value clamp(Value x, int64_t lo, int64_t hi) {
    return max(min(x, c(hi)), c(lo));
  }
  Value product(ArrayRef<Value> xs) {
    Value p = c(1);
    for (Value x : xs)
      p = mul(p, x);
    return p;
  }
};

class KernelFormer {
public:
  KernelFormer(ModuleOp module, const ConvertLinalgToKernelsPassOptions &opts)
      : module(module), opts(opts), symbols(module) {}

  LogicalResult run(linalg::GenericOp op);

private:
  gpu::GPUModuleOp moduleFor(KernelTarget target);
  /// A flat memref<?xT> view of a contiguous buffer, built before `op`.
  Value flatView(OpBuilder &b, Location loc, Value buffer);
  /// The flat memref<?xT> base buffer of a strided view, built before `op`.
  Value stridedBase(OpBuilder &b, Location loc,
                    memref::ExtractStridedMetadataOp meta);
  /// Creates the kernel function and a launch of it.
  void launch(OpBuilder &b, Location loc, KernelSpec &spec, gpu::GPUFuncOp func,
              Value groups, int64_t localSize, usm::QueueAttr queue);
  gpu::GPUFuncOp createKernel(KernelTarget target, StringRef name,
                              ArrayRef<Type> argTypes, Location loc,
                              TypeRange workgroupMemory = {});

  // The phases of run: the op's one placement, the kernel arguments, and
  // the kernels and launches of a map or a reduction.
  FailureOr<usm::PlacementAttr> placementOfOp(linalg::GenericOp op);
  void addBufferArgs(OpBuilder &b, Location loc, KernelSpec &spec);
  SmallVector<Value> addLoopSizeArgs(OpBuilder &b, Location loc,
                                     KernelSpec &spec);
  LogicalResult addCapturedArgs(usm::PlacementAttr placement, KernelSpec &spec);
  /// What forming the kernels of one op takes.
  struct FormContext {
    OpBuilder &b;
    IndexMath &m;
    KernelSpec &spec;
    usm::PlacementAttr placement;
    ArrayRef<Value> hostLoopSizes;
    const std::string &base;
  };
  LogicalResult formElementwise(FormContext &ctx);
  /// A host elementwise kernel's variant for large aligned outputs, with
  /// non-temporal stores (null where none applies).
  gpu::GPUFuncOp formStreamingVariant(FormContext &ctx);
  LogicalResult formReduction(FormContext &ctx);
  /// The sizes of a reduction's parallel and reduced loops, on the host and
  /// (products of the static ones) at compile time.
  struct ReductionShape {
    SmallVector<Value> parallelSizes, reductionSizes;
    int64_t staticP, staticR;
    bool allStatic;
  };
  /// The kernels of a reduction whose work-items reduce slices alone
  /// (`serialItems`) or, on CUDA, whose workgroups share them.
  LogicalResult formReductionAs(FormContext &ctx, const ReductionShape &shape,
                                bool serialItems, bool oneSlice = false);
  /// The launches of one way to run it: `slices` slices per output, in one
  /// phase (slices == 1: each output stored at once) or two.
  LogicalResult formReductionPhases(FormContext &ctx, Value numOutputs,
                                    Value slices, bool serialItems,
                                    bool singlePhase);

  ModuleOp module;
  const ConvertLinalgToKernelsPassOptions &opts;
  SymbolTable symbols;
  llvm::DenseMap<unsigned, gpu::GPUModuleOp> modules;
  /// The elements reduced into each output by the reduction being formed:
  /// host reductions take a workgroup per hostGrain elements of work, not
  /// per output (64 rows of 64 elements are one workgroup, not 64).
  Value reducedPerOutput;
};

gpu::GPUModuleOp KernelFormer::moduleFor(KernelTarget target) {
  auto it = modules.find(static_cast<unsigned>(target));
  if (it != modules.end())
    return it->second;
  StringRef name = kernelModuleName(target);
  auto existing = symbols.lookup<gpu::GPUModuleOp>(name);
  if (!existing) {
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    existing = gpu::GPUModuleOp::create(b, module.getLoc(), name);
    symbols.insert(existing);
  }
  modules[static_cast<unsigned>(target)] = existing;
  return existing;
}

Value KernelFormer::flatView(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  IndexMath m{b, loc};
  SmallVector<Value> dims;
  int64_t staticTotal = 1;
  bool isStatic = type.hasStaticShape();
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (isStatic)
      staticTotal *= type.getDimSize(i);
    else
      dims.push_back(memref::DimOp::create(b, loc, buffer, i));
  }
  auto flatType =
      MemRefType::get({ShapedType::kDynamic}, type.getElementType(),
                      MemRefLayoutAttrInterface(), type.getMemorySpace());
  OpFoldResult total = isStatic ? OpFoldResult(b.getIndexAttr(staticTotal))
                                : OpFoldResult(m.product(dims));
  return memref::ReinterpretCastOp::create(b, loc, flatType, buffer,
                                           b.getIndexAttr(0), {total},
                                           {b.getIndexAttr(1)});
}

Value KernelFormer::stridedBase(OpBuilder &b, Location loc,
                                memref::ExtractStridedMetadataOp meta) {
  // The flat base covers every element the view reaches:
  // offset + sum((size_k - 1) * stride_k) + 1 (sizes of 0 counted as 1).
  IndexMath m{b, loc};
  Value extent = arith::AddIOp::create(b, loc, meta.getOffset(), m.c(1));
  for (auto [size, stride] : llvm::zip(meta.getSizes(), meta.getStrides())) {
    Value last = arith::SubIOp::create(b, loc, m.max(size, m.c(1)), m.c(1));
    extent = arith::AddIOp::create(b, loc, extent, m.mul(last, stride));
  }
  auto base = cast<MemRefType>(meta.getBaseBuffer().getType());
  auto flatType =
      MemRefType::get({ShapedType::kDynamic}, base.getElementType(),
                      MemRefLayoutAttrInterface(), base.getMemorySpace());
  return memref::ReinterpretCastOp::create(
      b, loc, flatType, meta.getBaseBuffer(), b.getIndexAttr(0), {extent},
      {b.getIndexAttr(1)});
}

gpu::GPUFuncOp KernelFormer::createKernel(KernelTarget target, StringRef name,
                                          ArrayRef<Type> argTypes, Location loc,
                                          TypeRange workgroupMemory) {
  gpu::GPUModuleOp gpuModule = moduleFor(target);
  OpBuilder b = OpBuilder::atBlockEnd(gpuModule.getBody());
  auto func = gpu::GPUFuncOp::create(
      b, loc, name, b.getFunctionType(argTypes, {}), workgroupMemory);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  SymbolTable(gpuModule).insert(func); // renames on a clash
  return func;
}

void KernelFormer::launch(OpBuilder &b, Location loc, KernelSpec &spec,
                          gpu::GPUFuncOp func, Value groups, int64_t localSize,
                          usm::QueueAttr queue) {
  IndexMath m{b, loc};
  Value one = m.c(1);
  gpu::KernelDim3 grid{groups, one, one};
  gpu::KernelDim3 block{m.c(localSize), one, one};
  auto launchOp = gpu::LaunchFuncOp::create(b, loc, func, grid, block,
                                            /*dynamicSharedMemorySize=*/Value(),
                                            spec.hostArgs);
  launchOp->setAttr(kLaunchQueueAttrName, queue);
  if (spec.counterArg >= 0)
    launchOp->setAttr(kLaunchCounterAttrName,
                      b.getI64IntegerAttr(spec.counterArg));
}

LogicalResult KernelFormer::run(linalg::GenericOp op) {
  Location loc = op.getLoc();
  FailureOr<usm::PlacementAttr> placement = placementOfOp(op);
  if (failed(placement))
    return failure();
  std::optional<KernelTarget> target =
      kernelTargetForDevice(placement->getQueue().getDevice());
  if (!target)
    return op.emitOpError("queue ")
           << placement->getQueue()
           << " names no backend Sluice compiles for (host, opencl, "
              "level_zero, cuda); bind it to a device first";

  OpBuilder b(op);
  IndexMath m{b, loc};
  KernelSpec spec;
  spec.target = *target;
  spec.op = op;
  spec.workgroupSize = *target == KernelTarget::Host ? 1 : opts.workgroupSize;
  spec.hostGrain = opts.hostGrain;
  spec.initIsIdentity = op->hasAttr(kInitIsIdentityAttrName);

  // Kernel arguments: the flat buffers, then the dynamic loop sizes, then
  // the scalar inputs, then the scalars the body uses from above.
  addBufferArgs(b, loc, spec);
  SmallVector<Value> hostLoopSizes = addLoopSizeArgs(b, loc, spec);
  if (failed(addCapturedArgs(*placement, spec)))
    return failure();

  auto func = op->getParentOfType<FunctionOpInterface>();
  std::string base = (func ? func.getName().str() : std::string("kernel"));
  FormContext ctx{b, m, spec, *placement, hostLoopSizes, base};
  if (failed(op.getNumReductionLoops() == 0 ? formElementwise(ctx)
                                            : formReduction(ctx)))
    return failure();
  op.erase();
  return success();
}

FailureOr<usm::PlacementAttr>
KernelFormer::placementOfOp(linalg::GenericOp op) {
  // One placement for the whole op; the usm verifiers made sure of it.
  usm::PlacementAttr placement;
  for (Value operand : op->getOperands()) {
    if (!isa<MemRefType>(operand.getType()))
      continue;
    usm::PlacementAttr p = placementOf(operand);
    if (!p)
      return op.emitOpError("operand is not in a USM memory space: ")
             << operand.getType();
    if (placement && p.getQueue() != placement.getQueue())
      return op.emitOpError("operands are on different queues (")
             << placement.getQueue() << " and " << p.getQueue() << ")";
    placement = p;
    auto type = cast<MemRefType>(operand.getType());
    if (!type.getLayout().isIdentity() &&
        !isa<StridedLayoutAttr>(type.getLayout()))
      return op.emitOpError("operand has a layout that is neither the "
                            "identity nor strided: ")
             << operand.getType();
  }
  if (!placement)
    return op.emitOpError("has no buffer operand to place it");
  return placement;
}

/// A buffer that is both read and written (a result stored into an
/// operand) is one argument, so the kernel's loads and stores visibly use
/// one pointer and vectorise without alias checks.
void KernelFormer::addBufferArgs(OpBuilder &b, Location loc, KernelSpec &spec) {
  linalg::GenericOp op = spec.op;
  llvm::DenseMap<Value, size_t> flatArg;
  for (OpOperand &operand : op->getOpOperands()) {
    Value v = operand.get();
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type)
      continue;
    unsigned number = operand.getOperandNumber();
    if (type.getLayout().isIdentity()) {
      auto [it, inserted] = flatArg.try_emplace(v, spec.hostArgs.size());
      spec.bufferArg[number] = it->second;
      if (inserted)
        spec.hostArgs.push_back(flatView(b, loc, v));
      continue;
    }
    spec.bufferArg[number] = spec.hostArgs.size();
    // A strided view: its base buffer, then the offset and strides that
    // are not static.
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, v);
    spec.hostArgs.push_back(stridedBase(b, loc, meta));
    auto layout = cast<StridedLayoutAttr>(type.getLayout());
    StridedAccess access;
    access.staticOffset = layout.getOffset();
    if (ShapedType::isDynamic(layout.getOffset())) {
      access.offsetArg = spec.hostArgs.size();
      spec.hostArgs.push_back(meta.getOffset());
    }
    for (auto [k, stride] : llvm::enumerate(layout.getStrides())) {
      access.staticStrides.push_back(stride);
      access.strideArgs.push_back(-1);
      if (ShapedType::isDynamic(stride)) {
        access.strideArgs.back() = spec.hostArgs.size();
        spec.hostArgs.push_back(meta.getStrides()[k]);
      }
    }
    spec.strided[number] = std::move(access);
  }
}

/// The dynamic loop sizes and the scalar inputs; returns every loop's size
/// on the host.
SmallVector<Value> KernelFormer::addLoopSizeArgs(OpBuilder &b, Location loc,
                                                 KernelSpec &spec) {
  linalg::GenericOp op = spec.op;
  SmallVector<int64_t> staticSizes = op.getStaticLoopRanges();
  SmallVector<Range, 4> ranges =
      cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(b, loc);
  for (auto [i, size] : llvm::enumerate(staticSizes)) {
    if (ShapedType::isDynamic(size)) {
      spec.loopSizeArg.push_back(spec.hostArgs.size());
      spec.hostArgs.push_back(
          getValueOrCreateConstantIndexOp(b, loc, ranges[i].size));
    } else {
      spec.loopSizeArg.push_back(-1);
    }
  }
  spec.staticLoopSizes = staticSizes;
  SmallVector<Value> hostLoopSizes;
  for (Range &r : ranges)
    hostLoopSizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isa<ShapedType>(input->get().getType())) {
      spec.scalarArg[input->getOperandNumber()] = spec.hostArgs.size();
      spec.hostArgs.push_back(input->get());
    }
  }

  return hostLoopSizes;
}

LogicalResult KernelFormer::addCapturedArgs(usm::PlacementAttr placement,
                                            KernelSpec &spec) {
  linalg::GenericOp op = spec.op;
  // Scalars the body uses from above become arguments too (constants are
  // cloned into the kernel instead).
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op.getRegion(), captured);
  for (Value v : captured) {
    // A flat buffer the payload loads from at positions it computes (a
    // gather) is passed whole; it is on the op's queue.
    auto buffer = dyn_cast<MemRefType>(v.getType());
    bool flatBuffer = buffer && buffer.getRank() == 1 &&
                      buffer.getLayout().isIdentity() && placementOf(v) &&
                      placementOf(v).getQueue() == placement.getQueue();
    if (isa<ShapedType>(v.getType()) && !flatBuffer)
      return op.emitOpError("body uses a shaped value from above: ")
             << v.getType();
    if (auto *def = v.getDefiningOp();
        def && def->hasTrait<OpTrait::ConstantLike>())
      continue;
    spec.capturedArg[v] = spec.hostArgs.size();
    spec.hostArgs.push_back(v);
  }
  return success();
}

LogicalResult KernelFormer::formElementwise(FormContext &ctx) {
  auto &[b, m, spec, placement, hostLoopSizes, base] = ctx;
  bool isCuda = spec.target == KernelTarget::Cuda;
  Value total = m.product(hostLoopSizes);
  // CUDA kernels that use vector accesses need a vector's worth of
  // elements per work-item.
  int64_t perItem = isCuda && cudaVectorizable(spec.op) ? kCudaVectorWidth : 1;
  Value groups =
      spec.target == KernelTarget::Host
          ? m.clamp(m.ceilDiv(total, m.c(opts.hostGrain)), 1,
                    opts.hostMaxGroups)
          : m.clamp(m.ceilDiv(total, m.c(opts.workgroupSize * perItem)), 1,
                    kMaxGpuGroups);
  gpu::GPUFuncOp kernel =
      createKernel(spec.target, base + "_map", spec.argTypes(), m.loc);
  if (failed(isCuda ? buildCudaElementwiseKernel(kernel, spec)
                    : buildElementwiseKernel(kernel, spec)))
    return failure();
  gpu::GPUFuncOp streaming = formStreamingVariant(ctx);
  if (!streaming) {
    launch(b, m.loc, spec, kernel, groups, spec.workgroupSize,
           placement.getQueue());
    return success();
  }
  // Large outputs that are 64-byte aligned take the variant that stores
  // past the caches; the others the plain kernel.
  Value outBytes = m.c(0);
  Value aligned;
  for (OpOperand &init : spec.op.getDpsInitsMutable()) {
    Value buffer =
        spec.hostArgs[spec.bufferArg.lookup(init.getOperandNumber())];
    auto type = cast<MemRefType>(buffer.getType());
    outBytes = arith::AddIOp::create(
        b, m.loc, outBytes,
        m.c(llvm::divideCeil(type.getElementTypeBitWidth(), 8)));
    Value ptr =
        memref::ExtractAlignedPointerAsIndexOp::create(b, m.loc, buffer);
    Value low = arith::RemUIOp::create(b, m.loc, ptr, m.c(kHostStreamingAlign));
    Value ok =
        arith::CmpIOp::create(b, m.loc, arith::CmpIPredicate::eq, low, m.c(0));
    aligned = aligned ? arith::AndIOp::create(b, m.loc, aligned, ok) : ok;
  }
  Value large =
      arith::CmpIOp::create(b, m.loc, arith::CmpIPredicate::uge,
                            m.mul(total, outBytes), m.c(kHostStreamingBytes));
  Value stream = arith::AndIOp::create(b, m.loc, large, aligned);
  auto choice = scf::IfOp::create(b, m.loc, stream, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(choice.thenBlock());
    launch(b, m.loc, spec, streaming, groups, spec.workgroupSize,
           placement.getQueue());
    b.setInsertionPointToStart(choice.elseBlock());
    launch(b, m.loc, spec, kernel, groups, spec.workgroupSize,
           placement.getQueue());
  }
  return success();
}

gpu::GPUFuncOp KernelFormer::formStreamingVariant(FormContext &ctx) {
  KernelSpec &spec = ctx.spec;
  if (!opts.hostStreamingStores || !hostStreamingStoresApply(spec))
    return nullptr;
  // A static size below the threshold never takes it.
  int64_t staticTotal = 1;
  for (int64_t size : spec.staticLoopSizes)
    staticTotal = ShapedType::isDynamic(size) || staticTotal < 0
                      ? -1
                      : staticTotal * size;
  if (staticTotal >= 0) {
    int64_t bytes = 0;
    for (OpOperand &init : spec.op.getDpsInitsMutable())
      bytes +=
          staticTotal *
          llvm::divideCeil(
              cast<MemRefType>(init.get().getType()).getElementTypeBitWidth(),
              8);
    if (bytes < kHostStreamingBytes)
      return nullptr;
  }
  gpu::GPUFuncOp kernel = createKernel(spec.target, ctx.base + "_map_stream",
                                       spec.argTypes(), ctx.m.loc);
  spec.nontemporalStores = true;
  LogicalResult built = buildElementwiseKernel(kernel, spec);
  spec.nontemporalStores = false;
  if (failed(built)) {
    kernel.erase();
    return nullptr;
  }
  return kernel;
}

LogicalResult KernelFormer::formReduction(FormContext &ctx) {
  auto &[b, m, spec, placement, hostLoopSizes, base] = ctx;
  linalg::GenericOp op = spec.op;
  Location loc = m.loc;
  bool isCuda = spec.target == KernelTarget::Cuda;
  SmallVector<int64_t> staticSizes = spec.staticLoopSizes;
  FailureOr<Combiner> combiner = matchCombiner(op);
  if (failed(combiner))
    return failure();
  spec.combiner = *combiner;
  SmallVector<Value> parallelSizes, reductionSizes;
  int64_t staticP = 1, staticR = 1;
  bool allStatic = true, staticReduced = true;
  for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray())) {
    bool par = it == utils::IteratorType::parallel;
    (par ? parallelSizes : reductionSizes).push_back(hostLoopSizes[i]);
    if (ShapedType::isDynamic(staticSizes[i])) {
      allStatic = false;
      staticReduced = staticReduced && par;
    } else {
      (par ? staticP : staticR) *= staticSizes[i];
    }
  }
  ReductionShape shape{parallelSizes, reductionSizes, staticP, staticR,
                       allStatic};
  // CUDA workgroups share a contiguous row, unless rows are short: then a
  // work-item reduces a whole row (a workgroup per output of a few elements
  // would leave most of its work-items idle). With a dynamic row length the
  // choice is made when the program runs.
  if (!isCuda || !reducedLoopsInnermost(op))
    return formReductionAs(ctx, shape, /*serialItems=*/true);
  if (staticReduced)
    return formReductionAs(ctx, shape, staticR < kCudaShortRow);
  Value reduced = m.product(reductionSizes);
  auto branch =
      scf::IfOp::create(b, loc,
                        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              reduced, m.c(kCudaShortRow)),
                        /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(branch.thenBlock()->getTerminator());
  KernelSpec serial = spec;
  // Rows this short are one slice each (a slice is 1024 elements at least).
  if (failed(formReductionAs(ctx, shape, /*serialItems=*/true,
                             /*oneSlice=*/true)))
    return failure();
  spec = serial;
  b.setInsertionPoint(branch.elseBlock()->getTerminator());
  return formReductionAs(ctx, shape, /*serialItems=*/false);
}

LogicalResult KernelFormer::formReductionAs(FormContext &ctx,
                                            const ReductionShape &shape,
                                            bool serialItems, bool oneSlice) {
  auto &[b, m, spec, placement, hostLoopSizes, base] = ctx;
  Location loc = m.loc;
  bool isHost = spec.target == KernelTarget::Host;
  Value numOutputs = m.product(shape.parallelSizes);
  Value reduced = m.product(shape.reductionSizes);
  reducedPerOutput = reduced;
  // Work-items that reduce whole slices alone (host workgroups, SPIR-V
  // work-items, CUDA work-items when the reduced loops are not innermost
  // or short) want more, smaller slices than CUDA workgroups, which share
  // a slice of a contiguous row.
  int64_t target_ = isHost        ? kHostReductionGroups
                    : serialItems ? kGpuReductionGroups * 4
                                  : kGpuReductionGroups;
  int64_t minChunk = isHost        ? opts.hostGrain
                     : serialItems ? kGpuSerialMinChunk
                                   : opts.workgroupSize * 8;
  // S = max(1, min(ceil(T / P), ceil(R / minChunk))).
  auto slicesFor = [&](int64_t p, int64_t r) {
    int64_t byGroups =
        (target_ + std::max<int64_t>(p, 1) - 1) / std::max<int64_t>(p, 1);
    int64_t byWork = (r + minChunk - 1) / minChunk;
    return std::max<int64_t>(1, std::min(byGroups, byWork));
  };
  if (oneSlice)
    return formReductionPhases(ctx, numOutputs, m.c(1), serialItems,
                               /*singlePhase=*/true);
  if (shape.allStatic) {
    int64_t slices = slicesFor(shape.staticP, shape.staticR);
    return formReductionPhases(ctx, numOutputs, m.c(slices), serialItems,
                               slices == 1);
  }
  Value slices = m.max(m.min(m.ceilDiv(m.c(target_), m.max(numOutputs, m.c(1))),
                             m.ceilDiv(reduced, m.c(minChunk))),
                       m.c(1));
  // One slice per output (many outputs, short rows: softmax, distances)
  // needs no partials and no combine: chosen when the program runs.
  auto branch = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slices, m.c(1)),
      /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  KernelSpec before = spec;
  b.setInsertionPoint(branch.thenBlock()->getTerminator());
  if (failed(formReductionPhases(ctx, numOutputs, m.c(1), serialItems,
                                 /*singlePhase=*/true)))
    return failure();
  spec = before;
  b.setInsertionPoint(branch.elseBlock()->getTerminator());
  return formReductionPhases(ctx, numOutputs, slices, serialItems,
                             /*singlePhase=*/false);
}

LogicalResult KernelFormer::formReductionPhases(FormContext &ctx,
                                                Value numOutputs, Value slices,
                                                bool serialItems,
                                                bool singlePhase) {
  auto &[b, m, spec, placement, hostLoopSizes, base] = ctx;
  Location loc = m.loc;
  bool isCuda = spec.target == KernelTarget::Cuda;
  bool isHost = spec.target == KernelTarget::Host;
  spec.slicesArg = spec.hostArgs.size();
  spec.hostArgs.push_back(slices);
  Value items = m.mul(numOutputs, slices);

  Value partials;
  if (!singlePhase) {
    // One partial per (output, slice), in the accumulator's type.
    auto elemType = spec.combiner.op->getResult(0).getType();
    auto partialType = MemRefType::get(
        {ShapedType::kDynamic}, elemType, MemRefLayoutAttrInterface(),
        usm::PlacementAttr::get(b.getContext(), placement.getQueue(),
                                usm::USMKind::device));
    partials = memref::AllocOp::create(b, loc, partialType, ValueRange{items},
                                       b.getI64IntegerAttr(64));
    spec.partialArg = spec.hostArgs.size();
    spec.hostArgs.push_back(partials);
  }
  spec.singlePhase = singlePhase;
  // Host column reductions take tiles of contiguous outputs (about eight
  // tiles of 64 to 1024 outputs, a multiple of 16), each a work item per
  // slice.
  bool columns = hostColumnReductionApplies(spec);
  if (columns) {
    // The tiles run over the parallel loops after the reduced ones; the
    // loops before them (outer) multiply the items.
    SmallVector<utils::IteratorType> iters = spec.op.getIteratorTypesArray();
    size_t lastReduced = 0;
    for (auto [i, it] : llvm::enumerate(iters))
      if (it == utils::IteratorType::reduction)
        lastReduced = i;
    SmallVector<Value> innerSizes, outerSizes;
    for (auto [i, it] : llvm::enumerate(iters))
      if (it == utils::IteratorType::parallel)
        (i > lastReduced ? innerSizes : outerSizes).push_back(hostLoopSizes[i]);
    Value numInner = m.product(innerSizes);
    Value width =
        m.max(m.min(m.mul(m.ceilDiv(m.ceilDiv(numInner, m.c(kHostColumnTiles)),
                                    m.c(16)),
                          m.c(16)),
                    m.c(kHostColumnTileMax)),
              m.c(kHostColumnTileMin));
    spec.tileArg = spec.hostArgs.size();
    spec.hostArgs.push_back(width);
    spec.partialsBySlice = !singlePhase;
    items =
        m.mul(m.mul(m.product(outerSizes), m.ceilDiv(numInner, width)), slices);
  }

  Value groups1 =
      isHost
          ? m.clamp(m.min(items, m.ceilDiv(m.mul(numOutputs, reducedPerOutput),
                                           m.c(opts.hostGrain))),
                    1, opts.hostMaxGroups)
      : isCuda && serialItems
          ? m.clamp(m.ceilDiv(items, m.c(opts.workgroupSize)), 1, kMaxGpuGroups)
          : m.clamp(items, 1, kMaxGpuGroups);
  // GPU workgroups combine their work-items' values through workgroup
  // memory, one slot per work-item.
  SmallVector<Type> cudaScratch;
  if (isCuda)
    cudaScratch.push_back(MemRefType::get(
        {opts.workgroupSize}, spec.combiner.op->getResult(0).getType(),
        MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(b.getContext(),
                                   gpu::AddressSpace::Workgroup)));
  // A CUDA reduction to one output folds its partials in the workgroup
  // that finishes last, in the same launch: the workgroups count
  // themselves in the launch queue's counter word (an argument the runtime
  // fills in: one word per queue, so queues running the same kernel at
  // once never share it).
  bool lastWorkgroupCombines = isCuda && !serialItems && !singlePhase &&
                               matchPattern(numOutputs, m_One());
  if (lastWorkgroupCombines) {
    cudaScratch.push_back(
        MemRefType::get({1}, b.getI32Type(), MemRefLayoutAttrInterface(),
                        gpu::AddressSpaceAttr::get(
                            b.getContext(), gpu::AddressSpace::Workgroup)));
    spec.counterArg = spec.hostArgs.size();
    spec.hostArgs.push_back(LLVM::ZeroOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext())));
  }
  TypeRange scratch = serialItems ? TypeRange() : TypeRange(cudaScratch);
  gpu::GPUFuncOp partialKernel = createKernel(spec.target, base + "_reduce",
                                              spec.argTypes(), loc, scratch);
  LogicalResult built =
      isCuda && !serialItems ? buildCudaReductionKernel(partialKernel, spec)
      : columns ? buildHostColumnReductionKernel(partialKernel, spec)
                : buildReductionKernel(partialKernel, spec);
  if (failed(built))
    return failure();
  launch(b, loc, spec, partialKernel, groups1, spec.workgroupSize,
         placement.getQueue());
  if (lastWorkgroupCombines) {
    spec.hostArgs.pop_back();
    spec.counterArg = -1;
    memref::DeallocOp::create(b, loc, partials);
    return success();
  }
  if (!singlePhase) {
    // CUDA folds each output's partials with a workgroup.
    int64_t outputsPerGroup = isHost   ? opts.hostGrain
                              : isCuda ? 1
                                       : opts.workgroupSize;
    Value groups2 = m.clamp(m.ceilDiv(numOutputs, m.c(outputsPerGroup)), 1,
                            isHost ? opts.hostMaxGroups : kMaxGpuGroups);
    gpu::GPUFuncOp combineKernel =
        createKernel(spec.target, base + "_combine", spec.argTypes(), loc,
                     isCuda ? TypeRange(cudaScratch) : TypeRange());
    if (failed(isCuda ? buildCudaCombineKernel(combineKernel, spec)
                      : buildCombineKernel(combineKernel, spec)))
      return failure();
    launch(b, loc, spec, combineKernel, groups2, spec.workgroupSize,
           placement.getQueue());
    memref::DeallocOp::create(b, loc, partials);
  }
  return success();
}

/// A reduction whose output was just filled with its combiner's identity
/// (how usm.sum & co. start) stores its result instead of folding it into
/// the output: the fill, a pass over the output of its own, is dropped and
/// the reduction marked. The reduction may be one of the two generics that
/// a run-time broadcast chooses between (an scf.if after the fill).
void dropIdentityFills(ModuleOp module) {
  SmallVector<linalg::FillOp> fills;
  module.walk([&](linalg::FillOp fill) {
    if (!fill->getParentOfType<gpu::GPUModuleOp>())
      fills.push_back(fill);
  });
  for (linalg::FillOp fill : fills) {
    if (fill.getOutputs().size() != 1)
      continue;
    Value out = fill.getOutputs()[0];
    SmallVector<linalg::GenericOp, 2> reductions;
    // Index arithmetic (a run-time broadcast's condition) may come between.
    Operation *next = fill->getNextNode();
    while (next && next->getNumRegions() == 0 && isMemoryEffectFree(next))
      next = next->getNextNode();
    if (auto generic = dyn_cast_or_null<linalg::GenericOp>(next)) {
      reductions.push_back(generic);
    } else if (auto branch = dyn_cast_or_null<scf::IfOp>(next);
               branch && branch.getNumResults() == 0 && branch.elseBlock()) {
      // Each branch: views of the operands (a run-time broadcast's
      // stride-0 views), then the generic, then the terminator.
      for (Block *block : {branch.thenBlock(), branch.elseBlock()}) {
        Operation *first = &block->front();
        while (first->getNumRegions() == 0 && isMemoryEffectFree(first) &&
               first != block->getTerminator())
          first = first->getNextNode();
        if (auto generic = dyn_cast<linalg::GenericOp>(first);
            generic && generic->getNextNode() == block->getTerminator())
          reductions.push_back(generic);
      }
      if (reductions.size() != 2)
        continue;
    }
    if (reductions.empty())
      continue;
    Attribute value;
    if (!matchPattern(fill.getInputs()[0], m_Constant(&value)))
      continue;
    bool all = llvm::all_of(reductions, [&](linalg::GenericOp reduction) {
      if (reduction.getNumReductionLoops() == 0 ||
          reduction.getNumDpsInits() != 1 || reduction.getDpsInits()[0] != out)
        return false;
      FailureOr<Combiner> combiner = matchCombiner(reduction, /*report=*/false);
      return succeeded(combiner) && value == combiner->identity;
    });
    if (!all)
      continue;
    for (linalg::GenericOp reduction : reductions)
      reduction->setAttr(kInitIsIdentityAttrName,
                         UnitAttr::get(module.getContext()));
    fill.erase();
  }
}

struct ConvertLinalgToKernelsPass
    : sluice::impl::ConvertLinalgToKernelsPassBase<ConvertLinalgToKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (workgroupSize < 1 || hostGrain < 1 || hostMaxGroups < 1 ||
        (workgroupSize & (workgroupSize - 1))) {
      module.emitError("convert-linalg-to-kernels: workgroup-size must be a "
                       "power of two, host-grain and host-max-groups "
                       "positive");
      return signalPassFailure();
    }
    dropIdentityFills(module);
    // Named ops (fill, transpose, ...) become generics first.
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::LinalgOp> named;
    module.walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp>(op) &&
          !op->getParentOfType<gpu::GPUModuleOp>())
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      if (failed(linalg::generalizeNamedOp(rewriter, op))) {
        op.emitOpError("cannot be expressed as a linalg.generic for a kernel");
        return signalPassFailure();
      }
    }
    SmallVector<linalg::GenericOp> generics;
    module.walk([&](linalg::GenericOp op) {
      if (!op->getParentOfType<gpu::GPUModuleOp>())
        generics.push_back(op);
    });
    if (generics.empty())
      return;
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
    ConvertLinalgToKernelsPassOptions opts{workgroupSize, hostGrain,
                                           hostMaxGroups, hostStreamingStores};
    KernelFormer former(module, opts);
    for (linalg::GenericOp op : generics)
      if (failed(former.run(op)))
        return signalPassFailure();
  }
};

} // namespace
