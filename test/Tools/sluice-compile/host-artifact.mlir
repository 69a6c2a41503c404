// sluice-compile writes a shared object that sluice-run runs with no
// compiler in the loop.
// RUN: rm -f %t.so
// RUN: sluice-compile %s -o %t.so
// RUN: sluice-run %t.so --input=f32=2 --input='4xf32=[1,2,3,4]' \
// RUN:   --input='4xf32=[10,20,30,40]' | FileCheck %s
// CHECK:      4xf32=[12 24 36 48]
// CHECK-NEXT: f32=120

// The artifact exports its signatures, its compiler's version and one entry
// point per public function; it needs only the runtime.
// RUN: llvm-nm -D --defined-only %t.so | FileCheck %s --check-prefix=SYMS
// SYMS-DAG: T _sluice_entry_main
// SYMS-DAG: R sluice_compiler_version
// SYMS-DAG: R sluice_signatures
// RUN: strings -a %t.so | FileCheck %s --check-prefix=STRINGS
// STRINGS-DAG: {{^}}main(f32,4xf32@host:cpu:0/1,4xf32@host:cpu:0/1)->(4xf32@host:cpu:0/1,f32@host:cpu:0/1){{$}}
// STRINGS-DAG: {{^}}Sluice {{[0-9.]+}} (MLIR {{[0-9.]+}}){{$}}
// RUN: llvm-readelf -d %t.so | FileCheck %s --check-prefix=DYN
// DYN: (NEEDED) Shared library: [libsluice-runtime.so]
// DYN: (RUNPATH) Library runpath: [{{.*}}]

// The options that change the code, not the results.
// RUN: sluice-compile %s --no-fusion -O0 -o %t.O0.so
// RUN: sluice-run %t.O0.so --input=f32=2 --input='4xf32=[1,2,3,4]' \
// RUN:   --input='4xf32=[10,20,30,40]' | FileCheck %s

// --device rebinds every queue at compile time.
// RUN: sed 's/host:cpu:0/opencl:gpu:7/g' %s > %t.elsewhere.mlir
// RUN: sluice-compile %t.elsewhere.mlir --device=host -o %t.host.so
// RUN: sluice-run %t.host.so --input=f32=2 --input='4xf32=[1,2,3,4]' \
// RUN:   --input='4xf32=[10,20,30,40]' | FileCheck %s

// With no -o, the output is named after the input, in the current directory.
// RUN: rm -rf %t.dir && mkdir %t.dir && cp %s %t.dir/prog.mlir
// RUN: cd %t.dir && sluice-compile prog.mlir && sluice-run prog.so \
// RUN:   --input=f32=2 --input='4xf32=[1,2,3,4]' \
// RUN:   --input='4xf32=[10,20,30,40]' | FileCheck %s

!X = !usm.array<4xf32, "host:cpu:0", device>
!S = !usm.array<f32, "host:cpu:0", device>
func.func @main(%a: f32, %x: !X, %y: !X) -> (!X, !S) {
  %ax = usm.mul %x, %a : (!X, f32) -> !X
  %r = usm.add %ax, %y : (!X, !X) -> !X
  %s = usm.sum %r : !X -> !S
  return %r, %s : !X, !S
}
