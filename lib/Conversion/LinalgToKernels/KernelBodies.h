//===- KernelBodies.h - Bodies of the kernels formed from linalg -*- C++
//-*-===//

#ifndef SLUICE_LIB_CONVERSION_LINALGTOKERNELS_KERNELBODIES_H
#define SLUICE_LIB_CONVERSION_LINALGTOKERNELS_KERNELBODIES_H

#include "sluice/Conversion/LinalgToKernels/KernelTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/DenseMap.h"

namespace sluice::kernels {

/// How a reduction's body folds a value into its accumulator.
struct Combiner {
  /// The binary op `acc' = op(acc, value)` (operands in either order).
  mlir::Operation *op = nullptr;
  mlir::Value value;
  /// The combiner's neutral element, in the accumulator's type.
  mlir::TypedAttr identity;
  mlir::gpu::AllReduceOperation gpuOp = mlir::gpu::AllReduceOperation::ADD;
};

/// Finds the combiner of a single-output reduction, or reports (when
/// `report`) why the op cannot run as a parallel reduction.
mlir::FailureOr<Combiner> matchCombiner(mlir::linalg::GenericOp op,
                                        bool report = true);

/// What the kernel builders need to know about one linalg op and the kernel
/// arguments formed for it (the same list for every kernel of the op).
/// How a kernel reads a buffer with a strided layout (a view such as a
/// stride-0 broadcast): element (i0, i1, ...) of the view is at
/// offset + sum(ik * stride_k) of its flat base buffer. Each offset or
/// stride is a kernel argument (its index) or static (argument index -1).
struct StridedAccess {
  int64_t offsetArg = -1;
  int64_t staticOffset = 0;
  llvm::SmallVector<int64_t> strideArgs;
  llvm::SmallVector<int64_t> staticStrides;
};

struct KernelSpec {
  KernelTarget target = KernelTarget::Host;
  mlir::linalg::GenericOp op;
  int64_t workgroupSize = 1;
  int64_t hostGrain = 1;
  /// Host values passed to the kernels, in order.
  llvm::SmallVector<mlir::Value> hostArgs;
  /// Operand number of the generic -> kernel argument index.
  llvm::DenseMap<unsigned, unsigned> bufferArg, scalarArg;
  /// Operand number of the generic -> how it is read, for buffers with a
  /// strided layout (the others are contiguous, row-major).
  llvm::DenseMap<unsigned, StridedAccess> strided;
  /// Values the body uses from above (scalars) -> kernel argument index.
  llvm::DenseMap<mlir::Value, unsigned> capturedArg;
  /// Per loop: the kernel argument holding its size, or -1 when static.
  llvm::SmallVector<int64_t> loopSizeArg;
  llvm::SmallVector<int64_t> staticLoopSizes;
  /// Reductions: the slice count and partials arguments (-1 when absent).
  int64_t slicesArg = -1, partialArg = -1;
  bool singlePhase = false;
  /// Host column reductions (hostColumnReductionApplies): the argument
  /// holding the outputs per tile, and the partials' layout, slice-major
  /// (partial (o, s) at s * outputs + o) rather than output-major.
  int64_t tileArg = -1;
  bool partialsBySlice = false;
  /// CUDA reductions to one output in a single launch: the argument (an
  /// `!llvm.ptr`) holding the launch queue's counter word (the runtime's
  /// sluiceProgramLaunchCounter: zero at the start of every launch, one
  /// word per queue). Every workgroup stores its partial and takes a ticket
  /// from it; the one that takes the last folds the partials in a fixed
  /// order (the result is the same bits whichever workgroup finishes last)
  /// and sets the word back to zero for the queue's next launch. -1 when
  /// the partials are folded by a combine kernel.
  int64_t counterArg = -1;
  /// The output starts as the combiner's identity (its fill was dropped):
  /// reduced values are stored, not folded into what the output held.
  bool initIsIdentity = false;
  /// Host elementwise kernels for large outputs: the outputs are 64-byte
  /// aligned (the launch checks) and the stores bypass the caches
  /// (non-temporal stores, made after vectorisation: see
  /// sluice::kNontemporalStoresAttrName).
  bool nontemporalStores = false;
  Combiner combiner;

  llvm::SmallVector<mlir::Type> argTypes() const {
    llvm::SmallVector<mlir::Type> types;
    for (mlir::Value v : hostArgs)
      types.push_back(v.getType());
    return types;
  }
};

/// Elements of one vector access in CUDA kernels (16 bytes of f32).
inline constexpr int64_t kCudaVectorWidth = 4;

/// Whether the reduced loops all come after the parallel ones (then a row
/// of the reduction is contiguous in identity-mapped buffers).
bool reducedLoopsInnermost(mlir::linalg::GenericOp op);
/// Whether CUDA kernels of `op` can use vector loads (and, for elementwise
/// ops, stores): every buffer the payload reads (and every output) is at
/// the flat index, with elements of 8 to 64 bits; reductions need their
/// reduced loops innermost.
bool cudaVectorizable(mlir::linalg::GenericOp op);

/// Outputs of at least this many bytes are stored past the caches by host
/// elementwise kernels (a cached store first reads the line it overwrites,
/// and an output this large does not stay in the caches anyway).
inline constexpr int64_t kHostStreamingBytes = int64_t(16) << 20;
/// Alignment of the outputs that a streaming kernel assumes (checked at the
/// launch).
inline constexpr int64_t kHostStreamingAlign = 64;
/// Whether a host elementwise kernel of `spec` has a streaming variant: it
/// runs over the flat index and stores every output at it, each output an
/// integer or float buffer of its own.
bool hostStreamingStoresApply(KernelSpec &spec);

/// Fill the body of an (empty) kernel function.
mlir::LogicalResult buildElementwiseKernel(mlir::gpu::GPUFuncOp func,
                                           KernelSpec &spec);
mlir::LogicalResult buildReductionKernel(mlir::gpu::GPUFuncOp func,
                                         KernelSpec &spec);
/// Whether a host reduction of `spec` runs as a column reduction: some of
/// its parallel loops come after all of its reduced ones, the others before
/// them (`x.sum(axis=0)`, `x.sum(axis=1)` of a 3-D array), and its output is
/// stored in the order of the parallel loops. Then a
/// workgroup takes tiles of contiguous outputs and folds the reduced rows
/// into them one row at a time: the innermost loop runs over outputs with
/// unit stride (contiguous loads, an elementwise combine), which LLVM
/// vectorises, instead of reading each output's column with a stride.
bool hostColumnReductionApplies(KernelSpec &spec);
/// The kernel of such a reduction: items are (index of the parallel loops
/// before the reduced ones, slice, tile of the outputs after them);
/// tileArg holds the tile's width. One phase stores into the
/// output, two into slice-major partials (partialsBySlice).
mlir::LogicalResult buildHostColumnReductionKernel(mlir::gpu::GPUFuncOp func,
                                                   KernelSpec &spec);
mlir::LogicalResult buildCombineKernel(mlir::gpu::GPUFuncOp func,
                                       KernelSpec &spec);

/// CUDA's kernels (CudaKernelBodies.cpp): vector loads and stores, and
/// reductions through warp shuffles. The reduction kernel needs
/// reducedLoopsInnermost(); it and the combine kernel need a
/// workgroup-memory attribution of workgroupSize elements (and the
/// reduction kernel with a ticket a second one, memref<1xi32>, for the
/// last workgroup's flag).
mlir::LogicalResult buildCudaElementwiseKernel(mlir::gpu::GPUFuncOp func,
                                               KernelSpec &spec);
mlir::LogicalResult buildCudaReductionKernel(mlir::gpu::GPUFuncOp func,
                                             KernelSpec &spec);
mlir::LogicalResult buildCudaCombineKernel(mlir::gpu::GPUFuncOp func,
                                           KernelSpec &spec);

} // namespace sluice::kernels

#endif // SLUICE_LIB_CONVERSION_LINALGTOKERNELS_KERNELBODIES_H
