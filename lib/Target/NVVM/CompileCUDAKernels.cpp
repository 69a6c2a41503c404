//===- CompileCUDAKernels.cpp - Kernels of CUDA queues to PTX -------------===//

#include "KernelObjectCache.h"

#include "sluice/Conversion/LinalgToKernels/KernelTarget.h"
#include "sluice/Conversion/Passes.h"
#include "sluice/Dialect/USM/IR/USMDialect.h"
#include "sluice/Dialect/USM/IR/USMTypes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace sluice {
#define GEN_PASS_DEF_COMPILECUDAKERNELSPASS
#include "sluice/Conversion/Passes.h.inc"
} // namespace sluice

using namespace mlir;
using namespace sluice;

namespace {

/// PTX's `neg.f32`/`neg.f64` (what LLVM's `fneg` becomes) do not keep a
/// NaN's sign, where IEEE negation (and NumPy) flips the sign bit of every
/// value. Negations in CUDA kernels flip the bit with an integer `xor`
/// instead, written as inline PTX so that neither InstCombine nor the
/// instruction selector turns it back into `fneg`; vectors lane by lane.
Value flipSignBit(OpBuilder &b, Location loc, Value x) {
  auto type = cast<FloatType>(x.getType());
  unsigned width = type.getWidth();
  const char *constraint = width == 64 ? "=l,l" : width == 32 ? "=r,r" : "=h,h";
  Type bits = b.getIntegerType(width);
  std::string asmText = "xor.b" + std::to_string(width) + " $0, $1, 0x" +
                        llvm::utohexstr(uint64_t(1) << (width - 1)) + ";";
  Value in = arith::BitcastOp::create(b, loc, bits, x);
  auto flipped = LLVM::InlineAsmOp::create(
      b, loc, bits, ValueRange{in}, asmText, constraint,
      /*has_side_effects=*/false, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  return arith::BitcastOp::create(b, loc, type, flipped.getResult(0));
}

void negateBySignBit(gpu::GPUModuleOp gm) {
  gm.walk([](arith::NegFOp neg) {
    Type type = neg.getType();
    auto vec = dyn_cast<VectorType>(type);
    auto elem = dyn_cast<FloatType>(vec ? vec.getElementType() : type);
    if (!elem || !llvm::is_contained({16u, 32u, 64u}, elem.getWidth()) ||
        (vec && (vec.getRank() != 1 || vec.isScalable())))
      return;
    OpBuilder b(neg);
    Location loc = neg.getLoc();
    Value x = neg.getOperand();
    Value out;
    if (!vec) {
      out = flipSignBit(b, loc, x);
    } else {
      out = x;
      for (int64_t i = 0, e = vec.getDimSize(0); i < e; ++i) {
        Value lane = vector::ExtractOp::create(b, loc, x, i);
        out =
            vector::InsertOp::create(b, loc, flipSignBit(b, loc, lane), out, i);
      }
    }
    neg.replaceAllUsesWith(out);
    neg.erase();
  });
}

/// What identifies the toolkit's libdevice (its size and modification
/// time): math functions in the PTX come from it.
std::string libdeviceStamp(StringRef toolkit) {
  llvm::SmallString<256> path(toolkit);
  llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status))
    return "none";
  return std::to_string(status.getSize()) + ":" +
         std::to_string(
             status.getLastModificationTime().time_since_epoch().count());
}

struct CompileCUDAKernelsPass
    : sluice::impl::CompileCUDAKernelsPassBase<CompileCUDAKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    StringRef name = kernelModuleName(KernelTarget::Cuda);
    auto gm = module.lookupSymbol<gpu::GPUModuleOp>(name);
    if (!gm)
      return;
    // USM memory is the kernel's global memory (NVPTX address space 1):
    // accesses are `ld.global`/`st.global` however much LLVM optimises.
    AttrTypeReplacer replacer;
    Attribute global = IntegerAttr::get(IntegerType::get(&getContext(), 64), 1);
    replacer.addReplacement([&](MemRefType t) -> std::optional<Type> {
      if (!isa_and_nonnull<usm::PlacementAttr>(t.getMemorySpace()))
        return std::nullopt;
      return MemRefType::get(t.getShape(), t.getElementType(), t.getLayout(),
                             global);
    });
    replacer.recursivelyReplaceElementsIn(gm, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
    negateBySignBit(gm);

    // Streaming kernels (no barriers, shuffles or workgroup memory: the
    // elementwise maps) compile at `streaming-opt-level`: the driver's PTX
    // compiler optimises their simple loops fully, and LLVM's pipeline only
    // adds compile time. The others (reductions) get `opt-level`.
    unsigned level = std::min(optLevel.getValue(), 3u);
    unsigned streamingLevel = std::min(streamingOptLevel.getValue(), level);
    llvm::StringSet<> streaming;
    size_t numKernels = 0;
    for (auto fn : gm.getOps<gpu::GPUFuncOp>()) {
      if (!fn.isKernel())
        continue;
      ++numKernels;
      if (isStreaming(fn))
        streaming.insert(fn.getName());
    }
    std::string streamingName = (name + "_streaming").str();
    if (streamingLevel != level && !streaming.empty() &&
        streaming.size() < numKernels) {
      // Two modules: the streaming kernels move to their own, and so do
      // their launches.
      auto copy = cast<gpu::GPUModuleOp>(gm->clone());
      copy.setName(streamingName);
      for (auto fn : llvm::make_early_inc_range(copy.getOps<gpu::GPUFuncOp>()))
        if (fn.isKernel() && !streaming.contains(fn.getName()))
          fn.erase();
      for (auto fn : llvm::make_early_inc_range(gm.getOps<gpu::GPUFuncOp>()))
        if (fn.isKernel() && streaming.contains(fn.getName()))
          fn.erase();
      module.walk([&](gpu::LaunchFuncOp launch) {
        if (launch.getKernelModuleName() == name &&
            streaming.contains(launch.getKernelName()))
          launch.setKernelAttr(SymbolRefAttr::get(
              &getContext(), streamingName,
              {FlatSymbolRefAttr::get(&getContext(), launch.getKernelName())}));
      });
      if (failed(compile(module, copy, streamingName, streamingLevel)) ||
          failed(compile(module, gm, name.str(), level)))
        return signalPassFailure();
      return;
    }
    unsigned only = streaming.size() == numKernels ? streamingLevel : level;
    if (failed(compile(module, gm, name.str(), only)))
      return signalPassFailure();
  }

  /// A kernel that only streams through memory: no barrier, shuffle or
  /// workgroup memory.
  static bool isStreaming(gpu::GPUFuncOp fn) {
    if (fn.getNumWorkgroupAttributions() || fn.getNumPrivateAttributions())
      return false;
    WalkResult r = fn.walk([](Operation *op) {
      if (isa<gpu::BarrierOp, gpu::ShuffleOp, memref::AllocaOp,
              memref::AllocOp>(op))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return !r.wasInterrupted();
  }

  /// Compiles `gm` (moved out of `module`) to `gpu.binary @<symbol>` in
  /// `module`, optimising at `level`.
  LogicalResult compile(ModuleOp module, gpu::GPUModuleOp gm,
                        const std::string &symbol, unsigned level) {
    Location loc = gm.getLoc();
    // LLVM's data layout of 64-bit NVPTX, known when the kernels become
    // LLVM IR: without it, accesses get the default layout's 4-byte
    // alignment of 64-bit types and PTX splits each into two 32-bit ones.
    gm->setAttr(LLVM::LLVMDialect::getDataLayoutAttrName(),
                StringAttr::get(gm.getContext(), "e-p6:32:32-i64:64-i128:128-"
                                                 "i256:256-v16:16-v32:32-"
                                                 "n16:32:64"));
    OwningOpRef<ModuleOp> scratch = ModuleOp::create(loc);
    if (gm->getParentOp())
      gm->moveBefore(scratch->getBody(), scratch->getBody()->end());
    else
      scratch->getBody()->push_back(gm);
    // The same kernels compiled before (this process or, on disk, another):
    // their object (KernelObjectCache.h).
    std::string key;
    if (nvvm::kernelCacheEnabled()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      gm->print(os);
      os.flush();
      std::string libdevice = libdeviceStamp(toolkit);
      std::string levelText = std::to_string(level);
      key = nvvm::kernelCacheKey({"sluice-cuda-kernels 1", LLVM_VERSION_STRING,
                                  chip, "+ptx80", levelText, toolkit, libdevice,
                                  text});
      if (Attribute object =
              nvvm::lookupKernelObject(module.getContext(), key)) {
        OpBuilder b(module.getContext());
        b.setInsertionPointToEnd(module.getBody());
        gpu::BinaryOp::create(b, loc, symbol, /*offloadingHandler=*/nullptr,
                              ArrayAttr::get(module.getContext(), {object}));
        return success();
      }
    }
    // Typed options of the upstream passes (nvvm-attach-target,
    // gpu.module(arith-expand, convert-scf-to-cf, convert-gpu-to-nvvm,
    // convert-math-to-llvm, reconcile-unrealized-casts), gpu-module-to-binary).
    GpuNVVMAttachTargetOptions target;
    target.moduleMatcher = symbol;
    target.chip = chip;
    target.features = "+ptx80";
    target.optLevel = level;
    GpuModuleToBinaryPassOptions binary;
    binary.compilationTarget = "isa";
    binary.toolkitPath = toolkit;
    PassManager pm(&getContext());
    pm.addPass(createGpuNVVMAttachTarget(target));
    OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
    kernels.addPass(arith::createArithExpandOpsPass());
    kernels.addPass(createSCFToControlFlowPass());
    kernels.addPass(createConvertGpuOpsToNVVMOps());
    kernels.addPass(createConvertMathToLLVMPass());
    kernels.addPass(createReconcileUnrealizedCastsPass());
    pm.addPass(createGpuModuleToBinaryPass(binary));
    if (failed(pm.run(*scratch))) {
      emitError(loc) << "PTX generation for the CUDA kernels (" << chip
                     << ") failed";
      return failure();
    }
    auto compiled = scratch->lookupSymbol<gpu::BinaryOp>(symbol);
    if (!compiled) {
      emitError(loc) << "gpu-module-to-binary produced no binary";
      return failure();
    }
    // The object without the time its compile took (a property that made
    // two compiles of the same program differ).
    SmallVector<Attribute> objects;
    for (Attribute a : compiled.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(a);
      if (object && object.getProperties() &&
          object.getProperties().get("LLVMIRToISATimeInMs")) {
        NamedAttrList kept(object.getProperties());
        kept.erase("LLVMIRToISATimeInMs");
        a = gpu::ObjectAttr::get(object.getContext(), object.getTarget(),
                                 object.getFormat(), object.getObject(),
                                 kept.getDictionary(object.getContext()),
                                 object.getKernels());
      }
      objects.push_back(a);
    }
    compiled.setObjectsAttr(ArrayAttr::get(module.getContext(), objects));
    if (!key.empty() && objects.size() == 1)
      nvvm::storeKernelObject(key, objects[0]);
    compiled->moveBefore(module.getBody(), module.getBody()->end());
    return success();
  }
};

} // namespace
