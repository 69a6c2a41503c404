//===- CompileCUDAKernels.cpp - Kernels of CUDA queues to PTX -------------===//

#include "sluice/Conversion/LinalgToKernels/KernelTarget.h"
#include "sluice/Conversion/Passes.h"
#include "sluice/Dialect/USM/IR/USMDialect.h"
#include "sluice/Dialect/USM/IR/USMTypes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/Pass/PassManager.h"

#include <algorithm>
#include <mutex>

namespace sluice {
#define GEN_PASS_DEF_COMPILECUDAKERNELSPASS
#include "sluice/Conversion/Passes.h.inc"
} // namespace sluice

using namespace mlir;
using namespace sluice;

namespace {

struct CompileCUDAKernelsPass
    : sluice::impl::CompileCUDAKernelsPassBase<CompileCUDAKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    StringRef name = kernelModuleName(KernelTarget::Cuda);
    auto gm = module.lookupSymbol<gpu::GPUModuleOp>(name);
    if (!gm)
      return;
    Location loc = gm.getLoc();
    static std::once_flag registered;
    std::call_once(registered, [] {
      arith::registerArithExpandOpsPass();
      registerSCFToControlFlowPass();
      registerConvertGpuOpsToNVVMOps();
      registerConvertMathToLLVMPass();
      registerReconcileUnrealizedCastsPass();
      registerGpuNVVMAttachTarget();
      registerGpuModuleToBinaryPass();
    });

    // USM memory is the kernel's global memory: the default address space.
    AttrTypeReplacer replacer;
    replacer.addReplacement([&](MemRefType t) -> std::optional<Type> {
      if (!isa_and_nonnull<usm::PlacementAttr>(t.getMemorySpace()))
        return std::nullopt;
      return MemRefType::get(t.getShape(), t.getElementType(), t.getLayout());
    });
    replacer.recursivelyReplaceElementsIn(gm, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);

    OwningOpRef<ModuleOp> scratch = ModuleOp::create(loc);
    gm->moveBefore(scratch->getBody(), scratch->getBody()->end());
    std::string pipeline =
        "nvvm-attach-target{module=" + name.str() + " chip=" + chip +
        " features=+ptx80 O=" +
        std::to_string(std::min(optLevel.getValue(), 3u)) + "},gpu.module(arith-expand,convert-scf-to-cf,"
        "convert-gpu-to-nvvm,convert-math-to-llvm,reconcile-unrealized-casts),"
        "gpu-module-to-binary{format=isa toolkit=" +
        toolkit + "}";
    PassManager pm(&getContext());
    if (failed(parsePassPipeline(pipeline, pm, llvm::errs())) ||
        failed(pm.run(*scratch))) {
      emitError(loc) << "PTX generation for the CUDA kernels (" << chip
                     << ") failed";
      return signalPassFailure();
    }
    auto binary = scratch->lookupSymbol<gpu::BinaryOp>(name);
    if (!binary) {
      emitError(loc) << "gpu-module-to-binary produced no binary";
      return signalPassFailure();
    }
    binary->moveBefore(module.getBody(), module.getBody()->end());
  }
};

} // namespace
