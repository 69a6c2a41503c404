// What each --emit writes.

// MLIR after a stage of the pipeline, on standard output by default.
// RUN: sluice-compile %s --emit=mlir --stop-after=placed | FileCheck %s --check-prefix=PLACED
// PLACED-LABEL: func.func @main
// PLACED:       usm.mul
// PLACED-NOT:   usm.fused
// RUN: sluice-compile %s --emit=mlir --stop-after=fused -o - | FileCheck %s --check-prefix=FUSED
// FUSED:        usm.fused "host:cpu:0"
// RUN: sluice-compile %s --emit=mlir --stop-after=kernels | FileCheck %s --check-prefix=KERNELS
// KERNELS:      gpu.launch_func @{{.*}}::@main_map
// KERNELS-NOT:  gpu.launch_func
// KERNELS:      gpu.module
// RUN: sluice-compile %s --emit=mlir --no-fusion --stop-after=kernels | FileCheck %s --check-prefix=UNFUSED
// UNFUSED-COUNT-2: gpu.launch_func {{.*}}blocks
// Device kernels become binaries embedded in the module (from standard
// input here).
// RUN: sed 's/host:cpu:0/opencl:cpu:0/' %s | sluice-compile --emit=mlir --stop-after=binaries | FileCheck %s --check-prefix=BINARIES
// BINARIES:     gpu.launch_func @sluice_spirv_kernels::@main_map
// BINARIES:     gpu.binary @sluice_spirv_kernels
// BINARIES-NOT: gpu.module
// The LLVM dialect (the default stage) with the artifact's globals.
// RUN: sluice-compile %s --emit=mlir -o %t.ll.mlir
// RUN: FileCheck %s --check-prefix=LLVMDIALECT < %t.ll.mlir
// LLVMDIALECT-DAG: llvm.func @_sluice_entry_main(
// LLVMDIALECT-DAG: llvm.mlir.global external constant @sluice_signatures("main(f32,4xf32@host:cpu:0/1,4xf32@host:cpu:0/1)->(4xf32@host:cpu:0/1)\0A\00")
// LLVMDIALECT-DAG: llvm.mlir.global external constant @sluice_compiler_version("Sluice

// Optimised LLVM IR.
// RUN: sluice-compile %s --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: sluice-compile %s --emit=llvm -O0 | FileCheck %s --check-prefix=LLVM
// LLVM-DAG: @sluice_signatures = {{.*}}constant [{{[0-9]+}} x i8] c"main(f32,4xf32@host:cpu:0/1,4xf32@host:cpu:0/1)->(4xf32@host:cpu:0/1)\0A\00"
// LLVM-DAG: @sluice_compiler_version = {{.*}}constant
// LLVM-DAG: define {{.*}}i32 @_sluice_entry_main(ptr
// LLVM-DAG: call {{.*}}@sluiceProgramLaunchHost(

// A relocatable object, named after the input without -o.
// RUN: rm -rf %t.dir && mkdir %t.dir && cp %s %t.dir/prog.mlir
// RUN: cd %t.dir && sluice-compile prog.mlir --emit=obj
// RUN: llvm-readelf -h %t.dir/prog.o | FileCheck %s --check-prefix=OBJ
// OBJ: Class: ELF64
// OBJ: Type: REL (Relocatable file)
// RUN: llvm-nm %t.dir/prog.o | FileCheck %s --check-prefix=OBJSYMS
// OBJSYMS-DAG: T _sluice_entry_main
// OBJSYMS-DAG: R sluice_signatures
// OBJSYMS-DAG: U sluiceProgramLaunchHost

!X = !usm.array<4xf32, "host:cpu:0", device>
func.func @main(%a: f32, %x: !X, %y: !X) -> !X {
  %ax = usm.mul %x, %a : (!X, f32) -> !X
  %r = usm.add %ax, %y : (!X, !X) -> !X
  return %r : !X
}
