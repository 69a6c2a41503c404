//===- UnusedTargets.cpp - LLVM targets the wheel leaves out --------------===//
//
// SLUICE_STATIC_LLVM only. LLD's driver initialises every LLVM target for
// link-time optimisation of bitcode inputs (InitializeAllTargets and
// friends), which Sluice never gives it: it links the object files of one
// host target. Those calls alone would pull every backend of Debian's LLVM
// into libsluice-compiler.so (AMDGPU, RISC-V, AArch64, Hexagon, ...: some
// 50 MB). These empty definitions come first, so the linker takes none of
// those archives: the library then holds the backends Sluice compiles for,
// X86 (host code, the JIT) and NVPTX (CUDA kernels), as an LLVM built with
// LLVM_TARGETS_TO_BUILD="X86;NVPTX" would. A target left out here is one
// no part of Sluice looks up.
//
//===----------------------------------------------------------------------===//

#define SLUICE_UNUSED_TARGET(T)                                                \
  extern "C" void LLVMInitialize##T##TargetInfo() {}                           \
  extern "C" void LLVMInitialize##T##Target() {}                               \
  extern "C" void LLVMInitialize##T##TargetMC() {}                             \
  extern "C" void LLVMInitialize##T##AsmPrinter() {}                           \
  extern "C" void LLVMInitialize##T##AsmParser() {}                            \
  extern "C" void LLVMInitialize##T##Disassembler() {}

SLUICE_UNUSED_TARGET(AArch64)
SLUICE_UNUSED_TARGET(AMDGPU)
SLUICE_UNUSED_TARGET(ARM)
SLUICE_UNUSED_TARGET(AVR)
SLUICE_UNUSED_TARGET(BPF)
SLUICE_UNUSED_TARGET(Hexagon)
SLUICE_UNUSED_TARGET(Lanai)
SLUICE_UNUSED_TARGET(LoongArch)
SLUICE_UNUSED_TARGET(M68k)
SLUICE_UNUSED_TARGET(MSP430)
SLUICE_UNUSED_TARGET(Mips)
SLUICE_UNUSED_TARGET(PowerPC)
SLUICE_UNUSED_TARGET(RISCV)
SLUICE_UNUSED_TARGET(SPIRV)
SLUICE_UNUSED_TARGET(Sparc)
SLUICE_UNUSED_TARGET(SystemZ)
SLUICE_UNUSED_TARGET(VE)
SLUICE_UNUSED_TARGET(WebAssembly)
SLUICE_UNUSED_TARGET(XCore)
SLUICE_UNUSED_TARGET(Xtensa)
