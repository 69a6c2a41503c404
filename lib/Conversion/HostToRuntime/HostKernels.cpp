//===- HostKernels.cpp - Host kernels, binaries and entry points ----------===//
//
// The parts of convert-host-to-runtime that create functions: host kernels
// become ordinary functions with their workgroup id and count as arguments
// (before conversion to LLVM) and get an ABI wrapper (after it); device
// binaries become global constants; public functions get entry points with
// a packed argument list.
//
//===----------------------------------------------------------------------===//

#include "HostToRuntime.h"

#include "sluice/Conversion/LinalgToKernels/KernelTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace sluice;
using namespace sluice::host;

std::string sluice::host::hostKernelSymbol(StringRef module, StringRef kernel) {
  return (module + "__" + kernel).str();
}

LogicalResult
sluice::host::outlineHostKernels(ModuleOp module,
                                 SmallVectorImpl<HostKernel> &out) {
  auto gm = module.lookupSymbol<gpu::GPUModuleOp>(
      kernelModuleName(KernelTarget::Host));
  if (!gm)
    return success();
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  b.setInsertionPoint(gm);
  Type index = b.getIndexType();
  SmallVector<func::FuncOp> impls;
  for (auto k : llvm::make_early_inc_range(gm.getOps<gpu::GPUFuncOp>())) {
    Location loc = k.getLoc();
    SmallVector<Type> inputs(k.getFunctionType().getInputs());
    inputs.append({index, index});
    HostKernel names{hostKernelSymbol(gm.getName(), k.getName()) + "_impl",
                     hostKernelSymbol(gm.getName(), k.getName()),
                     k->hasAttr(kNontemporalStoresAttrName)};
    auto impl =
        func::FuncOp::create(b, loc, names.impl, b.getFunctionType(inputs, {}));
    impl.setPrivate();
    impl.getBody().takeBody(k.getBody());
    Block &entry = impl.getBody().front();
    Value groupId = entry.addArgument(index, loc);
    Value numGroups = entry.addArgument(index, loc);
    SmallVector<Operation *> gpuOps;
    impl.walk([&](Operation *op) {
      if (isa<gpu::GPUDialect>(op->getDialect()))
        gpuOps.push_back(op);
    });
    for (Operation *op : gpuOps) {
      OpBuilder ob(op);
      auto constant = [&](int64_t v) -> Value {
        return arith::ConstantIndexOp::create(ob, op->getLoc(), v);
      };
      Value replacement;
      if (auto id = dyn_cast<gpu::BlockIdOp>(op))
        replacement =
            id.getDimension() == gpu::Dimension::x ? groupId : constant(0);
      else if (auto dim = dyn_cast<gpu::GridDimOp>(op))
        replacement =
            dim.getDimension() == gpu::Dimension::x ? numGroups : constant(1);
      else if (isa<gpu::ThreadIdOp>(op))
        replacement = constant(0);
      else if (isa<gpu::BlockDimOp>(op))
        replacement = constant(1);
      else if (isa<gpu::ReturnOp>(op)) {
        func::ReturnOp::create(ob, op->getLoc());
        op->erase();
        continue;
      } else {
        return op->emitOpError("is not supported in a host kernel");
      }
      op->getResult(0).replaceAllUsesWith(replacement);
      op->erase();
    }
    impls.push_back(impl);
    out.push_back(std::move(names));
  }
  gm.erase();

  for (func::FuncOp impl : impls)
    extendHalfMath(impl);
  for (func::FuncOp impl : impls)
    callLibmForInexactMath(impl);
  return success();
}

void sluice::host::extendHalfMath(func::FuncOp f) {
  // Math functions on f16 and bf16 are computed in f32 and rounded, as the
  // vector math library has f32 and f64 variants only; what is exact in any
  // type (abs, copysign, rounding) stays.
  SmallVector<Operation *> ops;
  f.walk([&](Operation *op) {
    if (isa<math::MathDialect>(op->getDialect()) && op->getNumResults() == 1 &&
        isa<Float16Type, BFloat16Type>(op->getResult(0).getType()) &&
        !isa<math::AbsFOp, math::CopySignOp, math::FloorOp, math::CeilOp,
             math::TruncOp, math::RoundOp, math::RoundEvenOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Type narrow = op->getResult(0).getType(), wide = b.getF32Type();
    SmallVector<Value> operands;
    for (Value v : op->getOperands())
      operands.push_back(
          v.getType() == narrow ? arith::ExtFOp::create(b, loc, wide, v) : v);
    OperationState state(loc, op->getName().getIdentifier(), operands,
                         TypeRange{wide}, op->getAttrs());
    Operation *computed = b.create(state);
    Value result =
        arith::TruncFOp::create(b, loc, narrow, computed->getResult(0));
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }
}

LogicalResult sluice::host::embedBinaries(ModuleOp module,
                                          llvm::StringMap<BinaryInfo> &out) {
  OpBuilder b(module.getContext());
  for (auto bin : llvm::make_early_inc_range(module.getOps<gpu::BinaryOp>())) {
    if (bin.getObjects().size() != 1)
      return bin.emitOpError("must hold exactly one object to be embedded");
    auto object = cast<gpu::ObjectAttr>(bin.getObjects()[0]);
    StringRef ns = object.getTarget().getDialect().getNamespace();
    BinaryInfo info;
    if (ns == "spirv")
      info.format = 0; // SLUICE_MODULE_SPIRV
    else if (ns == "nvvm")
      info.format = object.getFormat() == gpu::CompilationTarget::Assembly
                        ? 2  // SLUICE_MODULE_PTX
                        : 3; // SLUICE_MODULE_CUBIN
    else
      return bin.emitOpError("holds an object for target ")
             << object.getTarget() << ", which Sluice cannot load";
    StringRef bytes = object.getObject().getValue();
    std::string data = bytes.str();
    if (info.format == 2)
      data.push_back('\0'); // PTX is text; drivers want it terminated
    info.global = ("sluice_bin_" + bin.getName()).str();
    info.size = data.size();
    b.setInsertionPoint(bin);
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), data.size());
    LLVM::GlobalOp::create(b, bin.getLoc(), type, /*isConstant=*/true,
                           LLVM::Linkage::Internal, info.global,
                           b.getStringAttr(data), /*alignment=*/16);
    out[bin.getName()] = info;
    bin.erase();
  }
  return success();
}

namespace {

/// Loads the i-th pointer of a `void **` and the value it points to.
Value loadPacked(OpBuilder &b, Location loc, Value argv, int64_t i, Type t) {
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  Value slot = LLVM::GEPOp::create(
      b, loc, ptr, ptr, argv, ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
  Value p = LLVM::LoadOp::create(b, loc, ptr, slot);
  return LLVM::LoadOp::create(b, loc, t, p);
}

/// Functions with more parameters than this are moved into their only
/// caller by moveBodyIntoCaller instead of being called (and inlined by
/// LLVM): a call with thousands of arguments and the functions' signatures
/// cost LLVM's interprocedural passes time quadratic in their number (a
/// function of 1000 arrays has 5000 parameters).
constexpr size_t kMoveBodyParams = 256;

/// Replaces `call` by `callee`'s body: the call's block branches to the
/// callee's entry with the call's arguments, and each return branches to
/// the rest of the block with the returned value (the call's result). The
/// callee is erased. Allocas of a constant size in the callee's entry block
/// move to the caller's entry, where LLVM promotes them.
void moveBodyIntoCaller(OpBuilder &b, LLVM::CallOp call,
                        LLVM::LLVMFuncOp callee) {
  Block *before = call->getBlock();
  Block *after = before->splitBlock(std::next(call->getIterator()));
  if (call.getNumResults() == 1) {
    Value result =
        after->addArgument(call.getResult().getType(), call.getLoc());
    call.getResult().replaceAllUsesWith(result);
  }
  Region &body = callee.getBody();
  Block *calleeEntry = &body.front();
  Region *region = before->getParent();
  Block *callerEntry = &region->front();
  for (Operation &op : llvm::make_early_inc_range(*calleeEntry)) {
    auto alloca = dyn_cast<LLVM::AllocaOp>(op);
    if (!alloca)
      continue;
    Operation *size = alloca.getArraySize().getDefiningOp();
    if (!size || !isa<LLVM::ConstantOp>(size) ||
        size->getBlock() != calleeEntry)
      continue;
    size->moveBefore(callerEntry, callerEntry->begin());
    alloca->moveAfter(size);
  }
  region->getBlocks().splice(after->getIterator(), body.getBlocks());
  for (Block *block = calleeEntry; block != after;
       block = block->getNextNode()) {
    auto ret = dyn_cast<LLVM::ReturnOp>(block->getTerminator());
    if (!ret)
      continue;
    b.setInsertionPoint(ret);
    LLVM::BrOp::create(b, ret.getLoc(), ret.getOperands(), after);
    ret.erase();
  }
  b.setInsertionPoint(call);
  LLVM::BrOp::create(b, call.getLoc(), call.getArgOperands(), calleeEntry);
  call.erase();
  callee.erase();
}

} // namespace

LogicalResult
sluice::host::createHostKernelWrappers(ModuleOp module,
                                       ArrayRef<HostKernel> kernels) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto voidType = LLVM::LLVMVoidType::get(ctx);
  Type i64 = b.getI64Type();
  for (const HostKernel &k : kernels) {
    auto impl = module.lookupSymbol<LLVM::LLVMFuncOp>(k.impl);
    if (!impl)
      return module.emitError("host kernel ") << k.impl << " was lost";
    Location loc = impl.getLoc();
    // The wrapper is the implementation's only caller: inlined into it,
    // even at -O0, the call with one argument per memref field (thousands
    // for a kernel of many arrays, which instruction selection handles in
    // quadratic time) disappears.
    impl.setLinkage(LLVM::Linkage::Internal);
    impl.setAlwaysInline(true);
    b.setInsertionPointAfter(impl);
    auto wrapper = LLVM::LLVMFuncOp::create(
        b, loc, k.wrapper, LLVM::LLVMFunctionType::get(voidType, {ptr, ptr}));
    Block *entry = wrapper.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    Value argv = entry->getArgument(0), group = entry->getArgument(1);
    ArrayRef<Type> params = impl.getFunctionType().getParams();
    SmallVector<Value> args;
    for (int64_t i = 0, e = params.size() - 2; i < e; ++i)
      args.push_back(loadPacked(b, loc, argv, i, params[i]));
    // SluiceHostGroup: group_id[3], num_groups[3], local_size[3] (uint64_t).
    auto field = [&](int32_t i) -> Value {
      Value p = LLVM::GEPOp::create(b, loc, ptr, i64, group,
                                    ArrayRef<LLVM::GEPArg>{i});
      return LLVM::LoadOp::create(b, loc, i64, p);
    };
    args.push_back(field(0));
    args.push_back(field(3));
    auto call = LLVM::CallOp::create(b, loc, impl, args);
    LLVM::ReturnOp::create(b, loc, ValueRange());
    if (k.nontemporalStores) {
      ArrayAttr marker =
          b.getArrayAttr({b.getStringAttr(kNontemporalStoresAttrName)});
      wrapper.setPassthroughAttr(marker);
      impl.setPassthroughAttr(marker);
    }
    if (params.size() > kMoveBodyParams)
      moveBodyIntoCaller(b, call, impl);
  }
  return success();
}

LogicalResult sluice::host::createEntryPoints(ModuleOp module,
                                              ArrayRef<std::string> functions) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  Type i32 = b.getI32Type();
  for (const std::string &name : functions) {
    auto f = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
    if (!f)
      return module.emitError("entry function ") << name << " was lost";
    Location loc = f.getLoc();
    // Callers outside the module go through the entry point: the function
    // itself is internal and, when the entry point is its only caller,
    // inlined into it, even at -O0 (no call with one argument per memref
    // field: see createHostKernelWrappers).
    bool onlyEntry = SymbolTable::symbolKnownUseEmpty(f, module);
    f.setLinkage(LLVM::Linkage::Internal);
    if (onlyEntry)
      f.setAlwaysInline(true);
    b.setInsertionPointAfter(f);
    auto entryFn =
        LLVM::LLVMFuncOp::create(b, loc, (kEntryPrefix + name).str(),
                                 LLVM::LLVMFunctionType::get(i32, {ptr}));
    // A function of very many arguments (hundreds of arrays) is host code
    // of thousands of loads and stores in one block, which LLVM's -O3
    // pipeline and scheduler handle in quadratic time and cannot improve:
    // its entry point (with the function inlined) is compiled without
    // optimisation. Kernels are separate functions and stay optimised.
    // So is a function marked `sluice.optimize_none` (the host side of a
    // Python kernel: a few runtime calls, where -O3 only costs compile
    // time).
    constexpr size_t kOptimizeNoneParams = 256;
    if (onlyEntry &&
        (f.getFunctionType().getNumParams() > kOptimizeNoneParams ||
         f->hasAttr("sluice.optimize_none"))) {
      entryFn.setOptimizeNone(true);
      entryFn.setNoInline(true);
    }
    Block *entry = entryFn.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    Value argv = entry->getArgument(0);
    callRuntime(b, loc, module, "sluiceProgramBegin", Type(), {});
    ArrayRef<Type> params = f.getFunctionType().getParams();
    SmallVector<Value> args;
    for (auto [i, t] : llvm::enumerate(params))
      args.push_back(loadPacked(b, loc, argv, i, t));
    auto call = LLVM::CallOp::create(b, loc, f, args);
    if (call.getNumResults() == 1) {
      Value slot = LLVM::GEPOp::create(
          b, loc, ptr, ptr, argv,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(params.size())});
      Value out = LLVM::LoadOp::create(b, loc, ptr, slot);
      LLVM::StoreOp::create(b, loc, call.getResult(), out);
    }
    Value status = callRuntime(b, loc, module, "sluiceProgramEnd", i32, {});
    LLVM::ReturnOp::create(b, loc, status);
    if (onlyEntry && params.size() > kMoveBodyParams)
      moveBodyIntoCaller(b, call, f);
  }
  return success();
}
