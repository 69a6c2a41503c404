//===- HostToRuntime.cpp - Host code onto the Sluice runtime --------------===//
//
// Lowers a module with host code (functions on memrefs in USM memory
// spaces, gpu.launch_func) and host kernels to the LLVM dialect. The calls
// it emits are the program-support functions of include/sluice-c/Program.h.
//
//===----------------------------------------------------------------------===//

#include "HostToRuntime.h"

#include "sluice/Conversion/LinalgToKernels/KernelTarget.h"
#include "sluice/Conversion/Passes.h"
#include "sluice/Dialect/USM/IR/USMDialect.h"
#include "sluice/Dialect/USM/IR/USMOps.h"
#include "sluice/Dialect/USM/IR/USMTypes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

namespace sluice {
#define GEN_PASS_DEF_CONVERTHOSTTORUNTIMEPASS
#include "sluice/Conversion/Passes.h.inc"
} // namespace sluice

using namespace mlir;
using namespace sluice;
using namespace sluice::host;

//===----------------------------------------------------------------------===//
// Runtime calls
//===----------------------------------------------------------------------===//

LLVM::LLVMFuncOp sluice::host::runtimeFunction(OpBuilder &b, ModuleOp module,
                                               StringRef name, Type result,
                                               ArrayRef<Type> params) {
  if (auto f = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return f;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  if (!result)
    result = LLVM::LLVMVoidType::get(b.getContext());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name,
                                  LLVM::LLVMFunctionType::get(result, params));
}

Value sluice::host::callRuntime(OpBuilder &b, Location loc, ModuleOp module,
                                StringRef name, Type result, ValueRange args) {
  SmallVector<Type> params = llvm::to_vector(args.getTypes());
  LLVM::LLVMFuncOp f = runtimeFunction(b, module, name, result, params);
  auto call = LLVM::CallOp::create(b, loc, f, args);
  return call.getNumResults() ? call.getResult() : Value();
}

Value sluice::host::globalString(OpBuilder &b, Location loc, ModuleOp module,
                                 StringRef value) {
  std::string name =
      "sluice_str_" + llvm::utohexstr(llvm::xxh3_64bits(value), true);
  auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
  if (!global) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), value.size() + 1);
    global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal, name,
                                    b.getStringAttr(std::string(value) + '\0'));
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

Value sluice::host::queueFor(OpBuilder &b, Location loc, ModuleOp module,
                             usm::QueueAttr queue) {
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  Value device = globalString(b, loc, module, queue.getDevice());
  Value name = globalString(b, loc, module, queue.getName());
  return callRuntime(b, loc, module, "sluiceProgramQueue", ptr, {device, name});
}

namespace {

usm::PlacementAttr placementOf(Type t) {
  auto type = dyn_cast<BaseMemRefType>(t);
  return type ? dyn_cast_or_null<usm::PlacementAttr>(type.getMemorySpace())
              : usm::PlacementAttr();
}

Value i32(OpBuilder &b, Location loc, int32_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                  b.getI32IntegerAttr(v));
}
Value i64(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                  b.getI64IntegerAttr(v));
}

int32_t kindCode(usm::USMKind kind) {
  // SluiceUsmKind in include/sluice-c/Runtime.h.
  switch (kind) {
  case usm::USMKind::device:
    return 1;
  case usm::USMKind::shared:
    return 2;
  case usm::USMKind::host:
    return 3;
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// `bytes`, or UINT64_MAX when the product of the element size and `sizes`
/// overflows 64 bits: sluiceProgramAlloc then fails with a status instead
/// of returning a buffer smaller than the array (which kernels would write
/// past).
Value overflowCheckedBytes(OpBuilder &b, Location loc, MemRefType type,
                           ArrayRef<Value> sizes, Value bytes) {
  if (type.hasStaticShape())
    return bytes; // the type verifier bounds static sizes
  MLIRContext *ctx = b.getContext();
  Type i64Type = b.getI64Type(), i1Type = b.getI1Type();
  auto pairType = LLVM::LLVMStructType::getLiteral(ctx, {i64Type, i1Type});
  // A complex element is a vector<2xT> here (sluice-expand-complex).
  Type element = type.getElementType();
  uint64_t elementBits =
      isa<VectorType>(element)
          ? cast<VectorType>(element).getNumElements() *
                cast<VectorType>(element).getElementTypeBitWidth()
          : element.getIntOrFloatBitWidth();
  uint64_t elementBytes =
      std::max<uint64_t>(1, llvm::divideCeil(elementBits, 8));
  Value product = i64(b, loc, int64_t(elementBytes));
  Value overflow =
      LLVM::ConstantOp::create(b, loc, i1Type, b.getIntegerAttr(i1Type, 0));
  for (Value size : sizes) {
    if (size.getType() != i64Type)
      size = LLVM::ZExtOp::create(b, loc, i64Type, size);
    Value pair =
        LLVM::UMulWithOverflowOp::create(b, loc, pairType, product, size);
    product = LLVM::ExtractValueOp::create(b, loc, pair, 0);
    overflow = LLVM::OrOp::create(
        b, loc, overflow, LLVM::ExtractValueOp::create(b, loc, pair, 1));
  }
  if (bytes.getType() != i64Type)
    bytes = LLVM::ZExtOp::create(b, loc, i64Type, bytes);
  return LLVM::SelectOp::create(b, loc, overflow, i64(b, loc, -1), bytes);
}

/// Allocations in a placement: sluiceProgramAlloc on its queue.
struct AllocLowering : ConvertOpToLLVMPattern<memref::AllocOp> {
  AllocLowering(const LLVMTypeConverter &c)
      : ConvertOpToLLVMPattern(c, /*benefit=*/10) {}
  LogicalResult
  matchAndRewrite(memref::AllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    usm::PlacementAttr placement = placementOf(op.getType());
    if (!placement)
      return failure();
    MemRefType type = op.getType();
    if (!type.getLayout().isIdentity())
      return rewriter.notifyMatchFailure(op, "non-identity layout");
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    SmallVector<Value> sizes, strides;
    Value bytes;
    getMemRefDescriptorSizes(loc, type, adaptor.getDynamicSizes(), rewriter,
                             sizes, strides, bytes, /*sizeInBytes=*/true);
    bytes = overflowCheckedBytes(rewriter, loc, type, sizes, bytes);
    Value queue = queueFor(rewriter, loc, module, placement.getQueue());
    auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    Value ptr = callRuntime(
        rewriter, loc, module, "sluiceProgramAlloc", ptrType,
        {queue, i32(rewriter, loc, kindCode(placement.getKind())), bytes});
    rewriter.replaceOp(op, {createMemRefDescriptor(loc, type, ptr, ptr, sizes,
                                                   strides, rewriter)});
    return success();
  }
};

/// Deallocations in a placement: sluiceProgramFree (deferred until the
/// tasks using the buffer finish).
struct DeallocLowering : ConvertOpToLLVMPattern<memref::DeallocOp> {
  DeallocLowering(const LLVMTypeConverter &c)
      : ConvertOpToLLVMPattern(c, /*benefit=*/10) {}
  LogicalResult
  matchAndRewrite(memref::DeallocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    usm::PlacementAttr placement = placementOf(op.getMemref().getType());
    if (!placement)
      return failure();
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    MemRefDescriptor desc(adaptor.getMemref());
    Value queue = queueFor(rewriter, loc, module, placement.getQueue());
    callRuntime(rewriter, loc, module, "sluiceProgramFree", Type(),
                {queue, desc.allocatedPtr(rewriter, loc)});
    rewriter.eraseOp(op);
    return success();
  }
};

/// Copies that touch a placement: sluiceProgramCopy between the queues.
struct CopyLowering : ConvertOpToLLVMPattern<memref::CopyOp> {
  CopyLowering(const LLVMTypeConverter &c)
      : ConvertOpToLLVMPattern(c, /*benefit=*/10) {}
  LogicalResult
  matchAndRewrite(memref::CopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<MemRefType>(op.getSource().getType());
    auto dstType = cast<MemRefType>(op.getTarget().getType());
    usm::PlacementAttr src = placementOf(srcType), dst = placementOf(dstType);
    if (!src && !dst)
      return failure();
    if (!srcType.getLayout().isIdentity() || !dstType.getLayout().isIdentity())
      return rewriter.notifyMatchFailure(op, "non-identity layout");
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    MemRefDescriptor srcDesc(adaptor.getSource()), dstDesc(adaptor.getTarget());
    Value elems = i64(rewriter, loc, 1);
    for (int64_t i = 0; i < srcType.getRank(); ++i)
      elems = LLVM::MulOp::create(rewriter, loc, elems,
                                  srcDesc.size(rewriter, loc, i));
    Value bytes = LLVM::MulOp::create(
        rewriter, loc, elems,
        getSizeInBytes(loc, srcType.getElementType(), rewriter));
    auto elemPtr = [&](MemRefDescriptor &d, MemRefType t) -> Value {
      Type elem = getTypeConverter()->convertType(t.getElementType());
      return LLVM::GEPOp::create(
          rewriter, loc, d.alignedPtr(rewriter, loc).getType(), elem,
          d.alignedPtr(rewriter, loc), ValueRange{d.offset(rewriter, loc)});
    };
    // Host-only data (constants) travels on the other side's queue.
    usm::QueueAttr dstQueue = (dst ? dst : src).getQueue();
    usm::QueueAttr srcQueue = (src ? src : dst).getQueue();
    Value dq = queueFor(rewriter, loc, module, dstQueue);
    Value sq =
        srcQueue == dstQueue ? dq : queueFor(rewriter, loc, module, srcQueue);
    callRuntime(
        rewriter, loc, module, "sluiceProgramCopy", Type(),
        {dq, elemPtr(dstDesc, dstType), sq, elemPtr(srcDesc, srcType), bytes});
    rewriter.eraseOp(op);
    return success();
  }
};

/// Byte size of a kernel argument value of LLVM type `t`.
int64_t argSize(Type t) {
  if (isa<LLVM::LLVMPointerType>(t))
    return 8;
  // A complex scalar: two parts (sluice-expand-complex).
  if (auto v = dyn_cast<VectorType>(t))
    return v.getNumElements() * ((v.getElementTypeBitWidth() + 7) / 8);
  return (t.getIntOrFloatBitWidth() + 7) / 8;
}

struct LaunchLowering : ConvertOpToLLVMPattern<gpu::LaunchFuncOp> {
  LaunchLowering(const LLVMTypeConverter &c,
                 const llvm::StringMap<BinaryInfo> &binaries)
      : ConvertOpToLLVMPattern(c, /*benefit=*/10), binaries(binaries) {}

  LogicalResult
  matchAndRewrite(gpu::LaunchFuncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    auto queueAttr = op->getAttrOfType<usm::QueueAttr>(kLaunchQueueAttrName);
    std::optional<KernelTarget> target =
        kernelTargetForModule(op.getKernelModuleName());
    if (!queueAttr || !target)
      return rewriter.notifyMatchFailure(op, "not a Sluice kernel launch");
    auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());

    // The argument values, memrefs expanded per the target's convention;
    // the operand of the queue's counter word takes it from the runtime.
    Value queue = queueFor(rewriter, loc, module, queueAttr);
    std::optional<uint64_t> counterArg;
    if (auto attr = op->getAttrOfType<IntegerAttr>(kLaunchCounterAttrName))
      counterArg = attr.getValue().getZExtValue();
    SmallVector<Value> values;
    for (auto [i, orig, conv] :
         llvm::enumerate(op.getKernelOperands(), adaptor.getKernelOperands())) {
      if (counterArg && i == *counterArg) {
        values.push_back(callRuntime(rewriter, loc, module,
                                     "sluiceProgramLaunchCounter", ptrType,
                                     {queue}));
      } else if (auto memref = dyn_cast<MemRefType>(orig.getType())) {
        if (*target == KernelTarget::Spirv) {
          MemRefDescriptor d(conv);
          values.push_back(d.alignedPtr(rewriter, loc));
        } else {
          MemRefDescriptor::unpack(rewriter, loc, conv, memref, values);
        }
      } else {
        values.push_back(conv);
      }
    }
    Value stack = LLVM::StackSaveOp::create(rewriter, loc, ptrType);
    SmallVector<Type> fieldTypes =
        llvm::to_vector(ValueRange(values).getTypes());
    auto structType =
        LLVM::LLVMStructType::getLiteral(rewriter.getContext(), fieldTypes);
    Value one = i64(rewriter, loc, 1);
    Value n = i64(rewriter, loc, values.size());
    Value slot = LLVM::AllocaOp::create(rewriter, loc, ptrType, structType, one,
                                        /*alignment=*/16);
    Value argv = LLVM::AllocaOp::create(rewriter, loc, ptrType, ptrType, n,
                                        /*alignment=*/8);
    Value sizes = LLVM::AllocaOp::create(rewriter, loc, ptrType,
                                         rewriter.getI64Type(), n, 8);
    for (auto [i, v] : llvm::enumerate(values)) {
      Value field = LLVM::GEPOp::create(
          rewriter, loc, ptrType, structType, slot,
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      LLVM::StoreOp::create(rewriter, loc, v, field);
      Value argSlot =
          LLVM::GEPOp::create(rewriter, loc, ptrType, ptrType, argv,
                              ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      LLVM::StoreOp::create(rewriter, loc, field, argSlot);
      Value sizeSlot = LLVM::GEPOp::create(
          rewriter, loc, ptrType, rewriter.getI64Type(), sizes,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      LLVM::StoreOp::create(rewriter, loc,
                            i64(rewriter, loc, argSize(v.getType())), sizeSlot);
    }
    Value numArgs = i32(rewriter, loc, values.size());
    if (*target == KernelTarget::Host) {
      std::string wrapper =
          hostKernelSymbol(op.getKernelModuleName(), op.getKernelName());
      Value fn = LLVM::AddressOfOp::create(rewriter, loc, ptrType, wrapper);
      callRuntime(rewriter, loc, module, "sluiceProgramLaunchHost", Type(),
                  {queue, fn, adaptor.getGridSizeX(), adaptor.getGridSizeY(),
                   adaptor.getGridSizeZ(), numArgs, argv, sizes});
    } else {
      auto it = binaries.find(op.getKernelModuleName());
      if (it == binaries.end())
        return rewriter.notifyMatchFailure(op, "no binary for the kernels");
      Value blob =
          LLVM::AddressOfOp::create(rewriter, loc, ptrType, it->second.global);
      Value mod =
          callRuntime(rewriter, loc, module, "sluiceProgramModule", ptrType,
                      {queue, i32(rewriter, loc, it->second.format), blob,
                       i64(rewriter, loc, it->second.size)});
      Value name = globalString(rewriter, loc, module, op.getKernelName());
      callRuntime(rewriter, loc, module, "sluiceProgramLaunch", Type(),
                  {queue, mod, name, adaptor.getGridSizeX(),
                   adaptor.getGridSizeY(), adaptor.getGridSizeZ(),
                   adaptor.getBlockSizeX(), adaptor.getBlockSizeY(),
                   adaptor.getBlockSizeZ(), numArgs, argv, sizes});
    }
    LLVM::StackRestoreOp::create(rewriter, loc, stack);
    rewriter.eraseOp(op);
    return success();
  }

  const llvm::StringMap<BinaryInfo> &binaries;
};

/// Library products: sluiceProgramMatmul on the result's queue, the
/// operands' strides read off their descriptors.
struct LibraryMatmulLowering : ConvertOpToLLVMPattern<usm::LibraryMatmulOp> {
  LibraryMatmulLowering(const LLVMTypeConverter &c)
      : ConvertOpToLLVMPattern(c, /*benefit=*/10) {}
  LogicalResult
  matchAndRewrite(usm::LibraryMatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto outType = cast<MemRefType>(op.getOut().getType());
    usm::PlacementAttr placement = placementOf(outType);
    if (!placement)
      return rewriter.notifyMatchFailure(op, "no placement");
    // Element type code of sluiceProgramMatmul; a complex element is a
    // vector<2xT> here (sluice-expand-complex).
    Type element = outType.getElementType();
    int32_t code = -1;
    if (auto v = dyn_cast<VectorType>(element))
      code = v.getElementType().isF32()   ? 2
             : v.getElementType().isF64() ? 3
                                          : -1;
    else
      code = element.isF32() ? 0 : element.isF64() ? 1 : -1;
    if (code < 0)
      return op.emitOpError("has no library product for elements of type ")
             << element;
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    ArrayRef<int64_t> c = outType.getShape();
    int64_t rank = c.size();
    int64_t batch = 1;
    for (int64_t d : c.drop_back(2))
      batch *= d;
    Type elemLLVM = getTypeConverter()->convertType(element);
    // Pointer to the first element, batch, row and column strides.
    auto operand = [&](Value orig, Value conv, SmallVectorImpl<Value> &out) {
      auto t = cast<MemRefType>(orig.getType());
      MemRefDescriptor d(conv);
      int64_t r = t.getRank();
      out.push_back(LLVM::GEPOp::create(
          rewriter, loc, d.alignedPtr(rewriter, loc).getType(), elemLLVM,
          d.alignedPtr(rewriter, loc), ValueRange{d.offset(rewriter, loc)}));
      bool broadcast = t.getShape().drop_back(2) != c.drop_back(2);
      out.push_back(broadcast || r < 3 || batch == 1
                        ? i64(rewriter, loc, 0)
                        : d.stride(rewriter, loc, r - 3));
      out.push_back(d.stride(rewriter, loc, r - 2));
      out.push_back(d.stride(rewriter, loc, r - 1));
    };
    SmallVector<Value> args;
    args.push_back(queueFor(rewriter, loc, module, placement.getQueue()));
    args.push_back(i32(rewriter, loc, code));
    args.push_back(i64(rewriter, loc, batch));
    args.push_back(i64(rewriter, loc, c[rank - 2]));
    args.push_back(i64(rewriter, loc, c[rank - 1]));
    args.push_back(
        i64(rewriter, loc,
            cast<MemRefType>(op.getLhs().getType()).getShape().back()));
    operand(op.getLhs(), adaptor.getLhs(), args);
    operand(op.getRhs(), adaptor.getRhs(), args);
    SmallVector<Value> out;
    operand(op.getOut(), adaptor.getOut(), out);
    args.push_back(out[0]);
    args.push_back(rank < 3 || batch == 1 ? i64(rewriter, loc, 0) : out[1]);
    args.push_back(out[2]);
    callRuntime(rewriter, loc, module, "sluiceProgramMatmul", Type(), args);
    rewriter.eraseOp(op);
    return success();
  }
};

/// Run-time checks: a branch to a block that records the failure with
/// sluiceProgramFail (sticky: the invocation's later work does nothing).
struct AssertLowering : ConvertOpToLLVMPattern<usm::AssertOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(usm::AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    Block *before = rewriter.getInsertionBlock();
    Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
    Block *failure = rewriter.createBlock(after);
    ValueRange values = adaptor.getValues();
    Value stack = LLVM::StackSaveOp::create(rewriter, loc, ptrType);
    Value array = LLVM::ZeroOp::create(rewriter, loc, ptrType);
    if (!values.empty()) {
      array =
          LLVM::AllocaOp::create(rewriter, loc, ptrType, rewriter.getI64Type(),
                                 i64(rewriter, loc, values.size()), 8);
      for (auto [i, v] : llvm::enumerate(values)) {
        Value slot = LLVM::GEPOp::create(
            rewriter, loc, ptrType, rewriter.getI64Type(), array,
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
        LLVM::StoreOp::create(rewriter, loc, v, slot);
      }
    }
    // SLUICE_ERROR_INVALID_VALUE: NumPy raises ValueError for all of these.
    Value message = globalString(rewriter, loc, module, op.getMessage());
    callRuntime(rewriter, loc, module, "sluiceProgramFail", Type(),
                {i32(rewriter, loc, 1), message,
                 i32(rewriter, loc, values.size()), array});
    LLVM::StackRestoreOp::create(rewriter, loc, stack);
    LLVM::BrOp::create(rewriter, loc, ValueRange(), after);
    rewriter.setInsertionPointToEnd(before);
    LLVM::CondBrOp::create(rewriter, loc, adaptor.getCondition(), after,
                           failure);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConvertHostToRuntimePass
    : sluice::impl::ConvertHostToRuntimePassBase<ConvertHostToRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    // Launches must name their queue and a kernel family.
    WalkResult checked = module.walk([](gpu::LaunchFuncOp op) {
      if (!op->getAttrOfType<usm::QueueAttr>(kLaunchQueueAttrName) ||
          !kernelTargetForModule(op.getKernelModuleName())) {
        op.emitOpError("is not a Sluice kernel launch (it needs a `")
            << kLaunchQueueAttrName
            << "` queue and a kernel module formed by "
               "convert-linalg-to-kernels)";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (checked.wasInterrupted())
      return signalPassFailure();

    SmallVector<std::string> entries;
    for (auto f : module.getOps<func::FuncOp>())
      if (f.isPublic() && !f.isExternal())
        entries.push_back(f.getName().str());

    SmallVector<HostKernel> kernels;
    if (failed(outlineHostKernels(module, kernels)))
      return signalPassFailure();
    llvm::StringMap<BinaryInfo> binaries;
    if (failed(embedBinaries(module, binaries)))
      return signalPassFailure();
    WalkResult compiled = module.walk([&](gpu::LaunchFuncOp op) {
      if (*kernelTargetForModule(op.getKernelModuleName()) !=
              KernelTarget::Host &&
          !binaries.count(op.getKernelModuleName())) {
        op.emitOpError("kernels of ")
            << op.getKernelModuleName()
            << " were not compiled to a binary (gpu.binary) before host "
               "lowering";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (compiled.wasInterrupted())
      return signalPassFailure();

    // bf16 arithmetic in f32, rounded once per op: LLVM would promote it
    // through __truncsfbf2, which neither the JIT's process nor a CPU
    // without AVX512-BF16 provides. (Conversions to and from bf16 become
    // integer code below.)
    {
      TypeConverter bf16;
      arith::populateEmulateUnsupportedFloatsConversions(
          bf16, {BFloat16Type::get(ctx)}, Float32Type::get(ctx));
      RewritePatternSet patterns(ctx);
      arith::populateEmulateUnsupportedFloatsPatterns(patterns, bf16);
      ConversionTarget target(*ctx);
      arith::populateEmulateUnsupportedFloatsLegality(target, bf16);
      if (failed(applyPartialConversion(module, target, std::move(patterns))))
        return signalPassFailure();
    }

    // Expand what the LLVM conversions do not take directly. Float and
    // integer maximum/minimum stay whole (llvm.maximum, llvm.smax, ...):
    // LLVM vectorises reductions of those intrinsics, where the
    // compare-and-select expansion of arith.maximumf (NaN test included)
    // left max/min reduction loops scalar.
    {
      RewritePatternSet patterns(ctx);
      arith::populateCeilFloorDivExpandOpsPatterns(patterns);
      arith::populateExpandScalingExtTruncPatterns(patterns);
      arith::populateExpandBFloat16Patterns(patterns);
      memref::populateExpandStridedMetadataPatterns(patterns);
      if (failed(applyPatternsGreedily(module, std::move(patterns))))
        return signalPassFailure();
    }
    // Structured control flow to blocks, by dialect conversion as
    // convert-scf-to-cf does: the greedy driver's region simplification
    // loses or crashes on scf.while loops with nested loops (MLIR 22).
    {
      RewritePatternSet patterns(ctx);
      populateSCFToControlFlowConversionPatterns(patterns);
      ConversionTarget target(*ctx);
      target.addIllegalDialect<scf::SCFDialect>();
      target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
      if (failed(applyPartialConversion(module, target, std::move(patterns))))
        return signalPassFailure();
    }

    LowerToLLVMOptions options(ctx);
    LLVMTypeConverter converter(ctx, options);
    // Placements were used up by the patterns; pointers are plain.
    converter.addTypeAttributeConversion(
        [ctx](BaseMemRefType, usm::PlacementAttr) -> Attribute {
          return IntegerAttr::get(IntegerType::get(ctx, 64), 0);
        });
    RewritePatternSet patterns(ctx);
    patterns.add<AllocLowering, DeallocLowering, CopyLowering, AssertLowering,
                 LibraryMatmulLowering>(converter);
    patterns.add<LaunchLowering>(converter, binaries);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);
    // LLVM intrinsics (vectorisable) first; libm only for what has none.
    populateMathToLLVMConversionPatterns(converter, patterns,
                                         /*approximateLog1p=*/false,
                                         /*benefit=*/2);
    populateMathToLibmConversionPatterns(patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
    // Complex numbers are vector<2xT> (sluice-expand-complex).
    populateVectorToLLVMConversionPatterns(converter, patterns);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);
    LLVMConversionTarget target(*ctx);
    target.addLegalOp<ModuleOp>();
    target.addIllegalDialect<gpu::GPUDialect>();
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
    // Host code that only launches kernels (no host kernel in the module)
    // compiles without optimisation (sluice::exec::JitProgram): it makes
    // runtime calls, which optimisation does not speed up.
    if (kernels.empty())
      module->setAttr(kLaunchCodeOnlyAttrName, UnitAttr::get(ctx));
    hoistArgumentSlots(module, kernels);

    if (failed(createHostKernelWrappers(module, kernels)) ||
        failed(createEntryPoints(module, entries)))
      return signalPassFailure();
  }
};

} // namespace
