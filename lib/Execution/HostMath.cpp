//===- HostMath.cpp - Vector math library of host kernels -----------------===//

#include "sluice/Execution/HostMath.h"
#include "sluice/Conversion/LinalgToKernels/KernelTarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <map>
#include <mutex>

using namespace sluice;
using namespace sluice::exec;

namespace {

struct MathFunction {
  const char *name;
  unsigned arity;
};

constexpr MathFunction kFunctions[] = {
#define SLUICE_HOST_VECTOR_MATH(name, arity) {#name, arity},
#include "sluice/Execution/HostVectorMath.def"
};

/// glibc's vector math library, loaded into the process for the JIT (and
/// checked to be there before artifacts are linked against it); null when
/// it cannot be loaded.
const char *const kLibmvec = "libmvec.so.1";

llvm::sys::DynamicLibrary &libmvec() {
  static llvm::sys::DynamicLibrary lib = [] {
    std::string error;
    return llvm::sys::DynamicLibrary::getPermanentLibrary(kLibmvec, &error);
  }();
  return lib;
}

/// One vector variant of the x86-64 vector function ABI with its ISA letter
/// (b: SSE4, d: AVX2, e: AVX-512) and the width of its float variant.
struct Isa {
  char letter;
  unsigned floatLanes;
  const char *feature;
};
constexpr Isa kIsas[] = {
    {'b', 4, "+sse4.1"}, {'d', 8, "+avx2"}, {'e', 16, "+avx512f"}};

/// Host kernels marked kNontemporalStoresAttrName (the variants for large
/// outputs): once vectorised, their vector stores that are aligned to their
/// size become non-temporal (x86: movntps and kin, which bypass the caches:
/// a cached store first reads the line it overwrites), and the function
/// fences them before it returns (streaming stores are weakly ordered).
/// Stores the vectoriser left scalar or unaligned (a loop's remainder) stay
/// as they are.
struct NontemporalStoresPass : llvm::PassInfoMixin<NontemporalStoresPass> {
  llvm::PreservedAnalyses run(llvm::Function &f,
                              llvm::FunctionAnalysisManager &) {
    if (!f.hasFnAttribute(sluice::kNontemporalStoresAttrName))
      return llvm::PreservedAnalyses::all();
    llvm::LLVMContext &ctx = f.getContext();
    llvm::MDNode *one = llvm::MDNode::get(
        ctx, llvm::ConstantAsMetadata::get(
                 llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), 1)));
    bool marked = false;
    for (llvm::BasicBlock &bb : f) {
      for (llvm::Instruction &inst : bb) {
        auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst);
        if (!store || store->isVolatile() || store->isAtomic() ||
            !store->getValueOperand()->getType()->isVectorTy())
          continue;
        llvm::TypeSize size = f.getParent()->getDataLayout().getTypeStoreSize(
            store->getValueOperand()->getType());
        if (size.isScalable() || size.getFixedValue() < 16 ||
            store->getAlign().value() < size.getFixedValue())
          continue;
        store->setMetadata(llvm::LLVMContext::MD_nontemporal, one);
        marked = true;
      }
    }
    if (!marked)
      return llvm::PreservedAnalyses::all();
    if (llvm::Triple(f.getParent()->getTargetTriple()).getArch() ==
        llvm::Triple::x86_64) {
      for (llvm::BasicBlock &bb : f) {
        if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(bb.getTerminator())) {
          llvm::IRBuilder<> b(ret);
          b.CreateIntrinsic(llvm::Intrinsic::x86_sse_sfence, {});
        }
      }
    }
    llvm::PreservedAnalyses kept;
    kept.preserveSet<llvm::CFGAnalyses>();
    return kept;
  }
};

} // namespace

bool sluice::exec::addHostVectorMath(llvm::TargetLibraryInfoImpl &tli,
                                     const llvm::TargetMachine &tm) {
  if (tm.getTargetTriple().getArch() != llvm::Triple::x86_64 ||
      !libmvec().isValid())
    return false;
  // The descriptors keep StringRefs: their strings live as long as the
  // process, built once per set of CPU features (so compiling many modules
  // allocates nothing more).
  const llvm::MCSubtargetInfo *sti = tm.getMCSubtargetInfo();
  unsigned isaMask = 0;
  for (auto [i, isa] : llvm::enumerate(kIsas))
    if (sti->checkFeatures(isa.feature))
      isaMask |= 1u << i;
  static llvm::BumpPtrAllocator arena;
  static llvm::StringSaver saver(arena);
  static std::map<unsigned, std::vector<llvm::VecDesc>> cache;
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = cache.try_emplace(isaMask);
  std::vector<llvm::VecDesc> &descs = it->second;
  for (auto [i, isa] : llvm::enumerate(kIsas)) {
    if (!inserted || !(isaMask & (1u << i)))
      continue;
    for (const MathFunction &f : kFunctions) {
      for (bool isDouble : {false, true}) {
        if (isDouble && !kVectorizeDoubleMath)
          continue;
        unsigned lanes = isDouble ? isa.floatLanes / 2 : isa.floatLanes;
        std::string scalar = std::string(f.name) + (isDouble ? "" : "f");
        std::string params(f.arity, 'v');
        std::string vector = "_ZGV" + std::string(1, isa.letter) + "N" +
                             std::to_string(lanes) + params + "_" + scalar;
        if (!libmvec().getAddressOfSymbol(vector.c_str()))
          continue;
        llvm::StringRef vectorName = saver.save(vector);
        llvm::StringRef abi =
            saver.save("_ZGV_LLVM_N" + std::to_string(lanes) + params);
        auto ec = llvm::ElementCount::getFixed(lanes);
        std::string intrinsic =
            std::string("llvm.") + f.name + (isDouble ? ".f64" : ".f32");
        for (const std::string &name : {scalar, intrinsic})
          descs.emplace_back(saver.save(name), vectorName, ec,
                             /*Masked=*/false, abi, std::nullopt);
      }
    }
  }
  if (descs.empty())
    return false;
  tli.addVectorizableFunctions(descs);
  return true;
}

std::vector<std::string> sluice::exec::hostVectorMathLinkArgs() {
  llvm::Triple host(llvm::sys::getProcessTriple());
  if (host.getArch() != llvm::Triple::x86_64 || !libmvec().isValid())
    return {};
  // Only artifacts that call a vector function depend on libmvec.
  return {"-Wl,--push-state,--as-needed", "-lmvec", "-Wl,--pop-state"};
}

std::function<llvm::Error(llvm::Module *)>
sluice::exec::makeHostOptimizingTransformer(unsigned optLevel,
                                            llvm::TargetMachine *tm) {
  return [optLevel, tm](llvm::Module *m) -> llvm::Error {
    llvm::OptimizationLevel level;
    switch (optLevel) {
    case 0:
      level = llvm::OptimizationLevel::O0;
      break;
    case 1:
      level = llvm::OptimizationLevel::O1;
      break;
    case 2:
      level = llvm::OptimizationLevel::O2;
      break;
    case 3:
      level = llvm::OptimizationLevel::O3;
      break;
    default:
      return llvm::createStringError("invalid optimization level " +
                                     std::to_string(optLevel));
    }
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PipelineTuningOptions tuning;
    tuning.LoopUnrolling = true;
    tuning.LoopInterleaving = true;
    tuning.LoopVectorization = true;
    // The SLP vectorizer's scheduling is quadratic in a block's length: a
    // kernel of a thousand arrays has a loop body of thousands of
    // instructions, where it takes tens of seconds (and the loop vectoriser
    // does the work). It runs on modules without such blocks.
    constexpr size_t kSlpMaxBlock = 4096;
    bool hugeBlock = false;
    for (llvm::Function &f : *m)
      for (llvm::BasicBlock &bb : f)
        hugeBlock |= bb.size() > kSlpMaxBlock;
    tuning.SLPVectorization = !hugeBlock;
    // LLVM's instrumentation options (-time-passes, -print-after=...) of
    // the tools that accept LLVM's options apply to this pipeline too.
    llvm::PassInstrumentationCallbacks pic;
    llvm::StandardInstrumentations si(m->getContext(), /*DebugLogging=*/false);
    si.registerCallbacks(pic, &mam);
    llvm::PassBuilder pb(tm, tuning, std::nullopt, &pic);
    pb.registerOptimizerLastEPCallback([](llvm::ModulePassManager &mpm,
                                          llvm::OptimizationLevel,
                                          llvm::ThinOrFullLTOPhase) {
      mpm.addPass(
          llvm::createModuleToFunctionPassAdaptor(NontemporalStoresPass()));
    });
    llvm::TargetLibraryInfoImpl tli(m->getTargetTriple());
    if (tm)
      addHostVectorMath(tli, *tm);
    // Registered first, so the builder's default registration is ignored.
    fam.registerPass([&] { return llvm::TargetLibraryAnalysis(tli); });
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm;
    if (level == llvm::OptimizationLevel::O0)
      mpm = pb.buildO0DefaultPipeline(level);
    else
      mpm = pb.buildPerModuleDefaultPipeline(level);
    mpm.run(*m, mam);
    return llvm::Error::success();
  };
}
