//===- Compiler.cpp - Compiling usm programs to runnable code -------------===//

#include "sluice/Execution/Compiler.h"
#include "sluice/Execution/HostMath.h"

#include "sluice-c/Runtime.h"

#include "sluice/Conversion/LinalgToKernels/KernelTarget.h"
#include "sluice/Conversion/Passes.h"
#include "sluice/Dialect/USM/IR/USMDialect.h"
#include "sluice/Dialect/USM/IR/USMTypes.h"
#include "sluice/Dialect/USM/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

#include <cstring>
#include <mutex>

using namespace mlir;
using namespace sluice;
using namespace sluice::exec;

void sluice::exec::registerCompilerDialects(DialectRegistry &registry) {
  registry.insert<usm::USMDialect>();
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  static std::once_flag passes;
  std::call_once(passes, [] {
    registerCanonicalizerPass();
    registerCSEPass();
    registerReconcileUnrealizedCastsPass();
    usm::registerAllUSMPasses();
    registerSluiceConversionPasses();
  });
}

FailureOr<func::FuncOp> sluice::exec::findEntry(ModuleOp module,
                                                StringRef name) {
  if (!name.empty()) {
    auto f = module.lookupSymbol<func::FuncOp>(name);
    if (!f || f.isExternal())
      return module.emitError("no function @") << name << " to run";
    return f;
  }
  if (auto f = module.lookupSymbol<func::FuncOp>("main"); f && !f.isExternal())
    return f;
  func::FuncOp only;
  for (auto f : module.getOps<func::FuncOp>()) {
    if (!f.isPublic() || f.isExternal())
      continue;
    if (only)
      return module.emitError("several public functions (@")
             << only.getName() << ", @" << f.getName()
             << ", ...): name the one to run";
    only = f;
  }
  if (!only)
    return module.emitError("no public function to run");
  return only;
}

static FailureOr<ValueInfo> valueInfo(Type type, Location loc,
                                      const Twine &what) {
  ValueInfo v;
  auto dtypeOf = [&](Type t) -> FailureOr<io::DType> {
    if (isa<IndexType>(t))
      return io::DType::I64;
    std::string text;
    llvm::raw_string_ostream os(text);
    t.print(os);
    if (std::optional<io::DType> d = io::parseDTypeName(text))
      return *d;
    return emitError(loc) << what << " has element type " << t
                          << ", which cannot be passed to a program";
  };
  if (auto array = dyn_cast<usm::ArrayType>(type)) {
    if (array.getQueue().isUnplaced())
      return emitError(loc) << what
                            << " is not placed on a queue; run "
                               "usm-infer-placement or give it a placement";
    FailureOr<io::DType> d = dtypeOf(array.getElementType());
    if (failed(d))
      return failure();
    v.isArray = true;
    v.dtype = *d;
    for (int64_t dim : array.getShape())
      v.shape.push_back(ShapedType::isDynamic(dim) ? -1 : dim);
    v.device = array.getQueue().getDevice().str();
    v.queueName = array.getQueue().getName().str();
    switch (array.getKind()) {
    case usm::USMKind::device:
      v.kind = 1;
      break;
    case usm::USMKind::shared:
      v.kind = 2;
      break;
    case usm::USMKind::host:
      v.kind = 3;
      break;
    }
    return v;
  }
  if (isa<IntegerType, FloatType, IndexType>(type)) {
    FailureOr<io::DType> d = dtypeOf(type);
    if (failed(d))
      return failure();
    v.dtype = *d;
    return v;
  }
  return emitError(loc) << what << " has type " << type
                        << ", which cannot be passed to a program";
}

FailureOr<EntrySignature> sluice::exec::signatureOf(func::FuncOp func) {
  EntrySignature sig;
  sig.name = func.getName().str();
  for (auto [i, t] : llvm::enumerate(func.getArgumentTypes())) {
    FailureOr<ValueInfo> v =
        valueInfo(t, func.getLoc(), "argument " + Twine(i));
    if (failed(v))
      return failure();
    sig.args.push_back(*v);
  }
  for (auto [i, t] : llvm::enumerate(func.getResultTypes())) {
    FailureOr<ValueInfo> v = valueInfo(t, func.getLoc(), "result " + Twine(i));
    if (failed(v))
      return failure();
    sig.results.push_back(*v);
  }
  return sig;
}

llvm::Expected<std::string> sluice::exec::resolveDevice(StringRef device,
                                                        bool allowAbsent) {
  std::string filter = device == "default" ? std::string() : device.str();
  SluiceDevice dev = nullptr;
  SluiceDeviceInfo info;
  if (sluiceDeviceSelect(filter.c_str(), &dev) == SLUICE_SUCCESS &&
      sluiceDeviceGetInfo(dev, &info) == SLUICE_SUCCESS)
    return std::string(info.filter_string);
  std::string message = sluiceGetLastErrorMessage();
  char normal[256];
  if (!allowAbsent || filter.empty() ||
      sluiceSelectorNormalize(filter.c_str(), normal, sizeof normal, nullptr) !=
          SLUICE_SUCCESS ||
      std::strpbrk(normal, "*,"))
    return llvm::createStringError(message);
  return std::string(normal);
}

void sluice::exec::rebindQueues(ModuleOp module, StringRef device) {
  AttrTypeReplacer replacer;
  MLIRContext *ctx = module.getContext();
  replacer.addReplacement([&](usm::QueueAttr q) -> std::optional<Attribute> {
    if (q.isUnplaced())
      return std::nullopt;
    return usm::QueueAttr::get(ctx, device, q.getName());
  });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
}

LogicalResult
sluice::exec::compileProgram(ModuleOp module,
                             const ProgramPipelineOptions &options) {
  PassManager pm(module.getContext());
  if (failed(buildCompileProgramPipeline(pm, options)))
    return failure();
  return pm.run(module);
}

bool sluice::exec::isLaunchCodeOnly(ModuleOp module) {
  return module->hasAttr(kLaunchCodeOnlyAttrName);
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
sluice::exec::hostTargetMachine(bool positionIndependent) {
  static std::once_flag init;
  std::call_once(init, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  if (positionIndependent)
    builder->setRelocationModel(llvm::Reloc::PIC_);
  return builder->createTargetMachine();
}

JitProgram::~JitProgram() = default;

llvm::Expected<std::unique_ptr<JitProgram>>
JitProgram::create(ModuleOp module, unsigned optLevel) {
  auto tm = hostTargetMachine();
  if (!tm)
    return tm.takeError();
  bool launchOnly = isLaunchCodeOnly(module);
  auto transformer =
      makeHostOptimizingTransformer(launchOnly ? 0 : optLevel, tm->get());
  ExecutionEngineOptions options;
  options.transformer = transformer;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  // The engine generates code with the target machine it is given; the one
  // it makes without one has the default level, whatever
  // jitCodeGenOptLevel says. Launch code gets one at -O0 (fast instruction
  // selection and register allocation).
  std::unique_ptr<llvm::TargetMachine> codegenTm;
  if (launchOnly) {
    auto made = hostTargetMachine();
    if (!made)
      return made.takeError();
    codegenTm = std::move(*made);
    codegenTm->setOptLevel(llvm::CodeGenOptLevel::None);
    codegenTm->setO0WantsFastISel(true);
    options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::None;
  }
  auto engine = ExecutionEngine::create(module, options, std::move(codegenTm));
  if (!engine)
    return engine.takeError();
  std::unique_ptr<JitProgram> program(new JitProgram());
  program->engine = std::move(*engine);
  return program;
}

llvm::Expected<void *> JitProgram::entryAddress(StringRef name) {
  auto symbol = engine->lookup(("_sluice_entry_" + name).str());
  if (!symbol)
    return symbol.takeError();
  return *symbol;
}

llvm::Expected<EntryFunction> JitProgram::entry(StringRef name) {
  auto address = entryAddress(name);
  if (!address)
    return address.takeError();
  auto fn = reinterpret_cast<int32_t (*)(void **)>(*address);
  return EntryFunction([fn](void **args) { return fn(args); });
}

namespace {

llvm::Expected<std::unique_ptr<llvm::Module>>
optimizedModule(ModuleOp module, llvm::LLVMContext &ctx,
                llvm::TargetMachine &tm, unsigned optLevel) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, ctx);
  if (!llvmModule)
    return llvm::createStringError("cannot translate the module to LLVM IR");
  llvmModule->setTargetTriple(tm.getTargetTriple());
  llvmModule->setDataLayout(tm.createDataLayout());
  auto transformer = makeHostOptimizingTransformer(optLevel, &tm);
  if (llvm::Error e = transformer(llvmModule.get()))
    return e;
  return llvmModule;
}

} // namespace

llvm::Error sluice::exec::emitLLVMIR(ModuleOp module, llvm::raw_ostream &os,
                                     unsigned optLevel) {
  auto tm = hostTargetMachine();
  if (!tm)
    return tm.takeError();
  llvm::LLVMContext ctx;
  auto llvmModule = optimizedModule(module, ctx, **tm,
                                    isLaunchCodeOnly(module) ? 0 : optLevel);
  if (!llvmModule)
    return llvmModule.takeError();
  (*llvmModule)->print(os, nullptr);
  return llvm::Error::success();
}

llvm::Error sluice::exec::emitObject(ModuleOp module,
                                     llvm::raw_pwrite_stream &os,
                                     unsigned optLevel) {
  auto tm = hostTargetMachine(/*positionIndependent=*/true);
  if (!tm)
    return tm.takeError();
  if (isLaunchCodeOnly(module)) {
    optLevel = 0;
    (*tm)->setOptLevel(llvm::CodeGenOptLevel::None);
  }
  llvm::LLVMContext ctx;
  auto llvmModule = optimizedModule(module, ctx, **tm, optLevel);
  if (!llvmModule)
    return llvmModule.takeError();
  llvm::legacy::PassManager pm;
  if ((*tm)->addPassesToEmitFile(pm, os, nullptr,
                                 llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the target cannot emit object files");
  pm.run(**llvmModule);
  return llvm::Error::success();
}
