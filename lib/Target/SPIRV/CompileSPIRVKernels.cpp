//===- CompileSPIRVKernels.cpp - Kernels of OpenCL/L0 queues to SPIR-V ----===//

#include "sluice/Conversion/LinalgToKernels/KernelTarget.h"
#include "sluice/Conversion/Passes.h"
#include "sluice/Dialect/USM/IR/USMDialect.h"
#include "sluice/Dialect/USM/IR/USMTypes.h"
#include "sluice/Target/SPIRV/EmulateHalfFloats.h"
#include "sluice/Target/SPIRV/ExpandMathForOpenCL.h"
#include "sluice/Target/SPIRV/Validate.h"

#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRVPass.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/SPIRV/Serialization.h"

namespace sluice {
#define GEN_PASS_DEF_COMPILESPIRVKERNELSPASS
#include "sluice/Conversion/Passes.h.inc"
} // namespace sluice

using namespace mlir;
using namespace sluice;

namespace {

/// What the kernels may use; spirv-update-vce declares what they do use.
spirv::TargetEnvAttr openclTargetEnv(MLIRContext *ctx, bool float16) {
  using C = spirv::Capability;
  SmallVector<C> caps = {C::Kernel, C::Addresses, C::Int8,   C::Int16,
                         C::Int64,  C::Float64,   C::Groups, C::Int64Atomics};
  if (float16)
    caps.push_back(C::Float16);
  auto triple = spirv::VerCapExtAttr::get(spirv::Version::V_1_0, caps, {}, ctx);
  return spirv::TargetEnvAttr::get(
      triple, spirv::getDefaultResourceLimits(ctx), spirv::ClientAPI::OpenCL,
      spirv::Vendor::Unknown, spirv::DeviceType::Unknown,
      spirv::TargetEnvAttr::kUnknownDeviceID);
}

/// gpu.module(arith-expand, convert-math-to-spirv, convert-vector-to-spirv),
/// convert-gpu-to-spirv{use-64bit-index=true},
/// gpu.module(spirv.module(spirv-lower-abi-attrs, spirv-update-vce)).
LogicalResult convertToSPIRV(ModuleOp scratch) {
  PassManager pm(scratch.getContext());
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(arith::createArithExpandOpsPass());
  kernels.addPass(createConvertMathToSPIRVPass());
  kernels.addPass(createConvertVectorToSPIRVPass());
  // Upstream constructs convert-gpu-to-spirv without its options struct.
  std::unique_ptr<Pass> gpuToSPIRV = createConvertGPUToSPIRVPass();
  auto onError = [&](const Twine &message) {
    return emitError(scratch.getLoc(), message);
  };
  if (failed(gpuToSPIRV->initializeOptions("use-64bit-index=true", onError)))
    return failure();
  pm.addPass(std::move(gpuToSPIRV));
  OpPassManager &spirvModule =
      pm.nest<gpu::GPUModuleOp>().nest<spirv::ModuleOp>();
  spirvModule.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spirvModule.addPass(spirv::createSPIRVUpdateVCEPass());
  return pm.run(scratch);
}

struct CompileSPIRVKernelsPass
    : sluice::impl::CompileSPIRVKernelsPassBase<CompileSPIRVKernelsPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto gm = module.lookupSymbol<gpu::GPUModuleOp>(
        kernelModuleName(KernelTarget::Spirv));
    if (!gm)
      return;
    Location loc = gm.getLoc();
    // bf16 always, f16 unless native-f16, are computed in f32
    // (EmulateHalfFloats.cpp): core SPIR-V has no bf16, and half needs
    // cl_khr_fp16.
    bool float16 = nativeF16 && usesHalfFloats(gm);
    if (usesHalfFloats(gm, /*bf16Only=*/nativeF16) &&
        failed(emulateHalfFloats(gm, /*bf16Only=*/nativeF16))) {
      emitError(loc) << "cannot compute the f16/bf16 kernels in f32";
      return signalPassFailure();
    }
    expandMathForOpenCL(gm);
    spirv::TargetEnvAttr env = openclTargetEnv(ctx, float16);

    // 1. Storage classes (USM memory is CrossWorkgroup, workgroup scratch
    //    is Workgroup), target environment, entry points.
    AttrTypeReplacer replacer;
    auto crossWorkgroup =
        spirv::StorageClassAttr::get(ctx, spirv::StorageClass::CrossWorkgroup);
    replacer.addReplacement(
        [&](usm::PlacementAttr) -> std::optional<Attribute> {
          return crossWorkgroup;
        });
    replacer.addReplacement(
        [&](gpu::AddressSpaceAttr space) -> std::optional<Attribute> {
          if (space.getValue() != gpu::AddressSpace::Workgroup)
            return std::nullopt;
          return spirv::StorageClassAttr::get(ctx,
                                              spirv::StorageClass::Workgroup);
        });
    replacer.recursivelyReplaceElementsIn(gm, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
    gm->setAttr(spirv::getTargetEnvAttrName(), env);
    gm.walk([&](gpu::GPUFuncOp f) {
      if (f.isKernel())
        f->setAttr(spirv::getEntryPointABIAttrName(),
                   spirv::EntryPointABIAttr::get(ctx, nullptr, std::nullopt,
                                                 std::nullopt));
    });

    // 2. Convert the module on its own, so that other kernel modules are
    //    left for their own targets.
    OwningOpRef<ModuleOp> scratch = ModuleOp::create(loc);
    gm->moveBefore(scratch->getBody(), scratch->getBody()->end());
    if (failed(convertToSPIRV(*scratch))) {
      emitError(loc) << "SPIR-V conversion of the OpenCL/Level Zero kernels "
                        "failed";
      return signalPassFailure();
    }
    spirv::ModuleOp spirvModule;
    gm.walk([&](spirv::ModuleOp m) { spirvModule = m; });
    if (!spirvModule) {
      emitError(loc) << "convert-gpu-to-spirv produced no spirv.module";
      return signalPassFailure();
    }

    // 64-bit atomics (AtomicRef on int64/uint64/float64 arrays) need the
    // Int64Atomics capability, which spirv-update-vce does not infer from
    // the operand types, and cl_khr_int64_base_atomics, which the runtime
    // checks on loading.
    bool int64Atomics = false;
    spirvModule.walk([&](Operation *op) {
      if (!op->getName().getStringRef().starts_with("spirv.Atomic"))
        return;
      auto is64 = [](Type t) { return t.isInteger(64); };
      if (llvm::any_of(op->getResultTypes(), is64) ||
          llvm::any_of(op->getOperandTypes(), is64))
        int64Atomics = true;
    });
    // The target environment offers Int64Atomics (so that 64-bit atomics
    // convert), and spirv-update-vce may then declare it for any module
    // that uses 64-bit integers: declare it exactly when an atomic needs it,
    // so devices without cl_khr_int64_base_atomics load the others.
    auto vce = spirvModule.getVceTriple();
    if (vce) {
      SmallVector<spirv::Capability> caps;
      for (spirv::Capability c : vce->getCapabilities())
        if (c != spirv::Capability::Int64Atomics)
          caps.push_back(c);
      if (int64Atomics)
        caps.push_back(spirv::Capability::Int64Atomics);
      SmallVector<spirv::Extension> exts(vce->getExtensions());
      spirvModule.setVceTripleAttr(
          spirv::VerCapExtAttr::get(vce->getVersion(), caps, exts, ctx));
    }

    // 3. Serialise and validate.
    SmallVector<uint32_t> words;
    if (failed(spirv::serialize(spirvModule, words))) {
      emitError(loc) << "cannot serialise the SPIR-V kernels";
      return signalPassFailure();
    }
    std::string log;
    if (!validateSPIRV(words, log, float16 || int64Atomics)) {
      emitError(loc) << "the SPIR-V kernels fail validation:\n" << log;
      return signalPassFailure();
    }
    StringRef bytes(reinterpret_cast<const char *>(words.data()),
                    words.size() * sizeof(uint32_t));
    auto object =
        gpu::ObjectAttr::get(ctx, env, gpu::CompilationTarget::Binary,
                             StringAttr::get(ctx, bytes), nullptr, nullptr);
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    gpu::BinaryOp::create(b, loc, kernelModuleName(KernelTarget::Spirv),
                          Attribute(), ArrayRef<Attribute>{object});
  }
};

} // namespace
