//===- Passes.td - Sluice conversion passes ----------------*- tablegen -*-===//

#ifndef SLUICE_CONVERSION_PASSES_TD
#define SLUICE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertUSMToLinalgPass : Pass<"convert-usm-to-linalg", "mlir::ModuleOp"> {
  let summary = "Lower usm arrays to memrefs in USM memory spaces and linalg";
  let description = [{
    Converts every `!usm.array` to a memref whose memory space is the array's
    `#usm.placement` (the queue and USM kind), with an identity layout and a
    signless element type; function signatures, calls, returns, branches and
    `scf` control flow follow.

    Arrays are immutable values, so each op that produces one allocates a
    fresh, 64-byte aligned buffer in its placement and fills it:

    - elementwise ops, `broadcast_to` and `arange`: one `linalg.generic` with
      NumPy broadcasting maps and the op's scalar function as its body
      (signedness from the usm element type; NumPy's floor division,
      remainder, NaN comparison and `astype` semantics);
    - reductions: `linalg.fill` with the identity, then a `linalg.generic`
      with reduction iterators (`keepdims` writes a collapsed view);
    - `to_device`, `from_host`, `to_host`, `constant`: an allocation and a
      `memref.copy` (constants from a private global);
    - `reshape`: a row-major view of the input; `transpose`: `linalg.transpose`.

    ```mlir
    // Before
    %c = usm.add %a, %b : (!usm.array<4x3xf32, "opencl:cpu:0", device>,
                           !usm.array<3xf32, "opencl:cpu:0", device>)
                        -> !usm.array<4x3xf32, "opencl:cpu:0", device>
    // After
    %c = memref.alloc() {alignment = 64 : i64}
       : memref<4x3xf32, #usm.placement<"opencl:cpu:0", device>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                     affine_map<(d0, d1) -> (d1)>,
                                     affine_map<(d0, d1) -> (d0, d1)>], ...}
        ins(%a, %b : ...) outs(%c : ...) {
    ^bb0(%x: f32, %y: f32, %out: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
    ```

    Dynamic (`?`) sizes follow NumPy at run time. Where two of them meet, or
    one meets a static size, the result size is computed on the host and a
    `usm.assert` checks that every size is 1 or the result's ("operands could
    not be broadcast together with shapes (10,) (3,)", with the op's name and
    location); when a size that could be 1 really is while the result's is
    not, an `scf.if` takes a second generic that reads that operand through a
    stride-0 view (`memref.reinterpret_cast` with a strided layout). Equal
    sizes take the generic with identity maps. An elementwise `usm.fused`
    group is one generic when no input is broadcast at run time, else its ops
    run one by one (each checked once, before). A group with one reduction
    is one reduction generic whose body evaluates the reduction's producers
    at the points of its input's space (their inputs broadcast there, as
    above: nothing of that space is stored); values of the chain that the
    group also returns are written by one elementwise generic first and read
    back, and the ops after the reduction run one by one. A reduction group
    over short rows (a static reduced extent of 1 to 8, the 3 coordinates of
    pairwise distances) that returns one value of the reduction's result
    shape is instead one elementwise generic over that shape: the body
    evaluates the producers at each position of the row (an input that
    varies along the row is an operand once per position, its map holding
    the position as constants; one that may be broadcast at run time is
    read through a stride-0 view), folds them into the accumulator from the
    identity in ascending row-major order with no reassociation (the order
    of the GPU targets' reduction kernels for such rows; the host's kernel
    lets LLVM reassociate: docs/fusion.md), and evaluates the epilogue on
    it. Such a group that also returns values of its prologue is first
    split in two: an elementwise group writing those values, and the
    reduction group without them, unrolled, computing the prologue again
    from the inputs instead of reading the values back. Other run-time
    checks:
    `reshape` with dynamic sizes (same element count, no negative size),
    `broadcast_to` (each input size 1 or the target's), creation ops with a
    negative size, and `max`/`min` over a reduced extent of 0 ("zero-size
    array to reduction operation maximum which has no identity").
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::math::MathDialect",
    "mlir::linalg::LinalgDialect", "mlir::memref::MemRefDialect",
    "mlir::affine::AffineDialect", "mlir::bufferization::BufferizationDialect",
    "mlir::scf::SCFDialect", "mlir::complex::ComplexDialect"
  ];
}

def ConvertLinalgToKernelsPass
    : Pass<"convert-linalg-to-kernels", "mlir::ModuleOp"> {
  let summary = "Outline every linalg op on USM memrefs into a GPU kernel";
  let description = [{
    Replaces each `linalg.generic` (and named op, after generalising it) whose
    operands live in USM memory spaces by one or two `gpu.launch_func` of
    kernels outlined into a `gpu.module` per target family:
    `@sluice_host_kernels` (queues of the `host` backend),
    `@sluice_spirv_kernels` (`opencl`, `level_zero`) and
    `@sluice_cuda_kernels` (`cuda`). Each launch carries the queue it runs on
    as `sluice.queue`, so host-code lowering needs no other source for it.

    Buffers reach a kernel as flat `memref<?xT>` views (every USM array is
    contiguous), loop sizes as `index` arguments and scalars by value.
    Indexing maps are projections of the loops, with constants for fixed
    positions: 0 along a dimension of size 1, or any position of a static
    dimension (a short row unrolled by convert-usm-to-linalg).

    - Elementwise ops: the iteration space is flattened. On the host each
      workgroup runs a unit-stride loop over a contiguous chunk (which LLVM
      vectorises); on GPUs work-items stride over the space. On CUDA, when
      every buffer is read and written at the flat index, work-items step
      over 4-element vectors (16-byte loads and stores for `f32`) while the
      buffers' addresses are aligned, checked when the kernel runs, and a
      scalar loop does the rest.
    - Reductions run in parallel in two phases: the reduced range of each
      output element is split into `S` slices; phase one reduces every
      (output, slice) pair into a partial (host workgroups and SPIR-V
      work-items: a serial loop per slice; CUDA: a workgroup per slice of a
      contiguous row, with vector loads, warp shuffles and one value per
      warp through workgroup memory, or a serial loop per work-item when
      the reduced loops are not innermost); phase two folds the partials
      into the output (on CUDA a workgroup per output), starting from its
      initial value. A CUDA reduction to one output (`sum` and the other
      full reductions) is one launch: each workgroup stores its partial,
      fences (`nvvm.memory.barrier`) and takes a ticket (`llvm.atomicrmw
      add`) from the launch queue's counter word, a kernel argument that
      the host code gets from the runtime (`sluiceProgramLaunchCounter`;
      the launch carries `sluice.launch_counter`, the operand's index, and
      an `llvm.mlir.zero` placeholder); the workgroup that takes the last
      ticket folds the partials in a fixed order (the same bits on every
      run) and sets the word back to zero for the queue's next launch.
      Each queue owns its word, so queues running the same kernel at once
      never share a counter. On CUDA rows shorter than 64 elements take a
      work-item each instead of a workgroup (chosen when the program runs
      where the row length is dynamic). An output just filled with the
      combiner's identity (as `usm.sum` starts; the fill may be followed by
      the two generics of a run-time broadcast, each after the views it
      reads) needs no fill kernel: the reduction stores its result. `S` is
      chosen from the sizes so that the machine is filled; when it is 1
      (statically, or when the program runs), phase one writes the output
      directly.
    - Host reductions with parallel loops after all the reduced ones (and
      any others before them: column reductions, `x.sum(axis=0)`, and
      `x.sum(axis=1)` of a 3-D array) with the output indexed by the
      parallel loops in order: a work item is an index of the outer
      parallel loops, a tile of contiguous outputs of the inner ones (about
      an eighth of them, 64 to 1024, a multiple of 16; the width is a
      kernel argument) and a slice of the reduced rows. It
      stores the identity into the tile, then folds the rows into it four
      at a time, the innermost loop running over the tile's outputs with
      unit stride (contiguous loads and an elementwise combine, which LLVM
      vectorises; each output still folds its rows in order). With several
      slices the partials are slice-major and the combine kernel reads
      them so.
    - With `host-streaming-stores` (on in Sluice's pipelines), a host
      elementwise kernel that stores every output at the flat index gets a
      second version, `<name>_map_stream`, marked
      `sluice-nontemporal-stores`: it assumes its outputs 64-byte aligned,
      and the host optimisation pipeline makes its vector stores
      non-temporal (stores that bypass the caches, then a store fence). The
      launch runs it when the outputs hold 16 MiB or more and are aligned
      (an `scf.if` on the host), the plain kernel otherwise; static sizes
      below 16 MiB make no second version.

    ```mlir
    gpu.launch_func @sluice_host_kernels::@generic_0
        blocks in (%g, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<?xf32, #usm.placement<"host:cpu:0", device>>, ...)
        {sluice.queue = #usm.queue<"host:cpu:0">}
    ```
  }];
  let options = [
    Option<"workgroupSize", "workgroup-size", "int64_t", "256",
           "work-items per workgroup on GPU targets">,
    Option<"hostGrain", "host-grain", "int64_t", "16384",
           "elements per host workgroup, at least">,
    Option<"hostMaxGroups", "host-max-groups", "int64_t", "256",
           "most workgroups of one host launch">,
    Option<"hostStreamingStores", "host-streaming-stores", "bool", "false",
           "give host elementwise kernels a variant with non-temporal "
           "stores, launched for outputs of 16 MiB and more that are "
           "64-byte aligned">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::gpu::GPUDialect",
    "mlir::memref::MemRefDialect", "mlir::scf::SCFDialect",
    "mlir::linalg::LinalgDialect", "mlir::vector::VectorDialect",
    "mlir::LLVM::LLVMDialect", "mlir::NVVM::NVVMDialect"
  ];
}

def ConvertHostToRuntimePass
    : Pass<"convert-host-to-runtime", "mlir::ModuleOp"> {
  let summary = "Lower host code and host kernels to LLVM calls into the "
                "Sluice runtime";
  let description = [{
    The last step of Sluice's pipeline: the whole module becomes LLVM
    dialect, ready for the JIT or an object file.

    - Host kernels (`gpu.module @sluice_host_kernels`) become functions
      with the host backend's ABI, `void k(void **args, const
      SluiceHostGroup *group)`: a wrapper unpacks the arguments and calls
      the kernel body, whose workgroup id and count come from `group`.
      Math functions in them stay calls (LLVM intrinsics or libm names;
      `f16`/`bf16` ones computed in `f32`), which LLVM's loop vectoriser
      maps to the vector variants of glibc's libmvec (see
      docs/accuracy.md).
    - `memref.alloc`/`memref.dealloc` in a `#usm.placement` memory space
      call `sluiceProgramAlloc`/`sluiceProgramFree` (deferred) on the
      placement's queue; `memref.copy` calls `sluiceProgramCopy`, ordered
      after earlier work on both queues.
    - `gpu.launch_func` calls `sluiceProgramLaunchHost` with the kernel's
      address (host kernels) or `sluiceProgramLaunch` with the module's
      binary (device kernels, from `gpu.binary`), on the queue named by
      the launch's `sluice.queue`. The operand that `sluice.launch_counter`
      names (if any) gets the queue's counter word from
      `sluiceProgramLaunchCounter` instead of its placeholder value.
    - `usm.assert` branches to a call of `sluiceProgramFail` with the
      message and values when its condition is false; the failure is
      sticky, so the invocation's later calls do nothing.
    - Every public function `@f` gets an entry point
      `i32 @_sluice_entry_f(ptr %args)`: `args[i]` points to the i-th
      argument of `@f` after memref expansion (allocated pointer, aligned
      pointer, offset, sizes, strides), `args[n]` to storage for the
      results; it returns the status of the invocation (0 on success), after
      waiting for all of its work.

    Queues are looked up by their device string and name at run time, so a
    program can be rebound to another device (`sluiceProgramSetDeviceOverride`).
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect", "mlir::func::FuncDialect"];
}

def InsertDeallocsPass : Pass<"sluice-insert-deallocs", "mlir::ModuleOp"> {
  let summary = "Free temporary USM buffers after their last use";
  let description = [{
    Every array op allocates its result, so a program's intermediate arrays
    are buffers that nothing frees. This pass adds a `memref.dealloc` after
    the last use (in the allocation's block) of each allocation in a
    `#usm.placement` memory space that does not escape: it is not returned,
    passed to a call, yielded or branched with, nor stored. Views of the
    buffer count as the buffer. The runtime defers the release until the
    tasks already submitted with it have finished, so freeing right after
    the last launch is safe.

    Buffers that escape through control flow are left to their consumer;
    returned buffers belong to the caller.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def ExpandComplexPass : Pass<"sluice-expand-complex", "mlir::ModuleOp"> {
  let summary = "Expand complex arithmetic into float operations on vectors "
                "of two parts";
  let description = [{
    Expands complex arithmetic into float operations (the patterns of
    upstream `convert-complex-to-standard`, with its improved range for
    division and absolute values). The complex numbers left are values moved
    whole: loads,
    stores, kernel arguments, selections. This pass gives every
    `complex<T>` in the module (kernels and host code) the type
    `vector<2xT>`, which has NumPy's interleaved (real, imaginary) layout in
    memory and which every backend lowers (LLVM, NVVM, SPIR-V), and rewrites
    `complex.create`/`re`/`im`/`constant` into vector ops. A complex op that
    is still there is an error.

    ```mlir
    %z = complex.create %re, %im : complex<f32>
    // becomes
    %z = vector.from_elements %re, %im : vector<2xf32>
    ```
  }];
  let dependentDialects = ["mlir::vector::VectorDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::math::MathDialect"];
}

def CompileSPIRVKernelsPass
    : Pass<"sluice-compile-spirv-kernels", "mlir::ModuleOp"> {
  let summary = "Compile the kernels of OpenCL and Level Zero queues to "
                "validated SPIR-V";
  let description = [{
    Turns `gpu.module @sluice_spirv_kernels` into `gpu.binary
    @sluice_spirv_kernels` holding one SPIR-V module (Kernel capability,
    Physical64 addressing, OpenCL memory model):

    1. USM placements in memref types become the `CrossWorkgroup` storage
       class; the module gets a `spirv.target_env` (SPIR-V 1.0 with Kernel,
       Addresses, Int8/16/64, Float64 and Groups, the last for work-group
       reductions, plus Float16 with `native-f16`) and every kernel an entry
       point ABI.
    2. f16 and bf16: OpenCL devices need `cl_khr_fp16` for arithmetic on
       `half` (the Float16 capability), and many lack it; core SPIR-V has
       no bfloat16. By default f16 and bf16 data stays 16 bits in memory
       (i16 buffers and arguments) and is computed in f32, every result
       rounded to the nearest value of its type, ties to even: NumPy's
       results, on every device. With `native-f16` f16 kernels use `half`
       and need a device with `cl_khr_fp16` (the runtime refuses the module
       with `SLUICE_ERROR_UNSUPPORTED` on others); bf16 is still computed
       in f32.
    3. `arith-expand`, `convert-math-to-spirv` (math functions become
       OpenCL.std instructions) and `convert-gpu-to-spirv` with 64-bit
       indices run on the module alone; `spirv-update-vce` then declares
       only the capabilities the code uses (Float64 only for f64, Int64,
       Int16, Int8 only where used).
    4. The SPIR-V is serialised and validated in-process with SPIRV-Tools in
       the OpenCL 2.0 environment (SPIRV-Tools' universal environment for a
       module with Float16, which its OpenCL environment does not accept);
       a validation failure is an error with the validator's message.

    Nothing else in the module is touched.
  }];
  let options = [
    Option<"nativeF16", "native-f16", "bool", "false",
           "compute f16 as half (Float16 capability, devices with "
           "cl_khr_fp16) instead of in f32">
  ];
  let dependentDialects = ["mlir::spirv::SPIRVDialect", "mlir::gpu::GPUDialect",
                           "mlir::arith::ArithDialect", "mlir::math::MathDialect"];
}

def CompileCUDAKernelsPass
    : Pass<"sluice-compile-cuda-kernels", "mlir::ModuleOp"> {
  let summary = "Compile the kernels of CUDA queues to PTX";
  let description = [{
    Turns `gpu.module @sluice_cuda_kernels` into `gpu.binary
    @sluice_cuda_kernels` holding PTX for the chosen chip: USM placements in
    memref types become the default (global) address space, the module gets
    an `#nvvm.target` (PTX ISA 8.0, so sm_90 works), and `arith-expand`,
    `convert-scf-to-cf`, `convert-gpu-to-nvvm` and `gpu-module-to-binary`
    (`format=isa`, libdevice from the CUDA toolkit for math functions) run
    on the module alone. The runtime's CUDA backend JIT-compiles the PTX for
    the device it runs on.

    Streaming kernels (no barrier, shuffle or workgroup memory: the
    elementwise maps) go to a module of their own, `gpu.binary
    @sluice_cuda_kernels_streaming`, optimised at `streaming-opt-level`
    (default 0), and their launches follow them: the driver's PTX compiler
    optimises such loops fully (on an H100 their bandwidth is the same at
    LLVM -O0 and -O3), while LLVM's -O3 pipeline takes most of the compile
    time. Reductions keep `opt-level`.

    Scalar `arith.negf` becomes an integer `xor` of the sign bit (inline
    PTX): PTX's `neg.f32`/`neg.f64` do not keep a NaN's sign, where IEEE
    negation and NumPy flip it.

    Compiled modules are reused by content: the object of a kernel module
    is kept by the SHA-256 of its text, the chip, the level, the toolkit's
    libdevice and the compiler's build, in memory for the process and on
    disk under `$SLUICE_CACHE_DIR/ptx` (default `$XDG_CACHE_HOME/sluice`,
    else `~/.cache/sluice`; `SLUICE_CACHE_DIR=off`: memory only;
    `SLUICE_KERNEL_CACHE=off`: neither). A damaged entry is compiled again.
  }];
  let options = [
    Option<"chip", "chip", "std::string", "\"sm_90\"",
           "NVIDIA architecture (sm_80, sm_90, ...)">,
    Option<"toolkit", "toolkit", "std::string", "\"/usr/local/cuda\"",
           "CUDA toolkit (for libdevice)">,
    Option<"optLevel", "opt-level", "unsigned", "3",
           "LLVM optimisation level of the kernels before PTX (0-3)">,
    Option<"streamingOptLevel", "streaming-opt-level", "unsigned", "0",
           "LLVM level of kernels without barriers, shuffles or workgroup "
           "memory (at most opt-level)">,
  ];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::LLVM::LLVMDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect"];
}

#endif // SLUICE_CONVERSION_PASSES_TD
