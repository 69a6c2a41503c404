//===- USMAttrs.td - usm dialect attributes ----------------*- tablegen -*-===//

#ifndef SLUICE_DIALECT_USM_IR_USMATTRS_TD
#define SLUICE_DIALECT_USM_IR_USMATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "sluice/Dialect/USM/IR/USMDialect.td"
include "sluice/Dialect/USM/IR/USMEnums.td"

def USM_QueueAttr : AttrDef<USM_Dialect, "Queue"> {
  let mnemonic = "queue";
  let summary = "a queue identity: a device and, for extra queues, a name";
  let description = [{
    A queue is named by its device, written as a dpctl filter string
    (`backend:device_type:index`, any part optional), which the parser
    normalises to all three parts: a missing backend or device type becomes
    `*` (bound to a concrete device at run time), a missing index becomes `0`,
    `native_cpu` is spelled `host`, a `*` index is 0, and the host backend's only device type is
    `cpu`. Without a name the attribute denotes the device's canonical queue;
    a name makes it a distinct queue on the same device, as a second
    `dpctl.SyclQueue` is distinct from the first.

    ```mlir
    #usm.queue<"level_zero:gpu:0">        // canonical queue of the first L0 GPU
    #usm.queue<"gpu">                     // "*:gpu:0": the first GPU of any backend
    #usm.queue<"opencl:cpu:0", "worker">  // a second queue on the same device
    ```

    Fallback lists (`"gpu,cpu"`) select a device at run time and are not
    queue identities: they are rejected here.

    The reserved device `"?"` is the *unplaced* queue: it is how an array type
    says "no queue yet" (written `?` inside `!usm.array`, see the array type).
    It cannot be written as a filter string; `usm-infer-placement` replaces it.
  }];
  let parameters = (ins StringRefParameter<"normalised filter string">:$device,
                        StringRefParameter<"queue name; empty for the canonical queue", "\"\"">:$name);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// True for the canonical queue of the device (no name).
    bool isCanonical() const { return getName().empty(); }
    /// True for the reserved unplaced queue ("no queue yet").
    bool isUnplaced() const { return getDevice() == "?"; }
    /// The reserved unplaced queue.
    static QueueAttr getUnplaced(::mlir::MLIRContext *ctx);
    /// The queue in the short form used inside types: "dev" or "dev"("name").
    void printShort(::mlir::AsmPrinter &printer) const;
    /// Parses the short form; emits a diagnostic and returns null on error.
    static QueueAttr parseShort(::mlir::AsmParser &parser);
    /// Builds a queue from a user-written filter string, normalising it;
    /// returns null and sets `error` if the string is malformed.
    static QueueAttr getChecked(::mlir::MLIRContext *ctx,
                                ::llvm::StringRef filter,
                                ::llvm::StringRef name, std::string &error);
  }];
}

def USM_PlacementAttr : AttrDef<USM_Dialect, "Placement"> {
  let mnemonic = "placement";
  let summary = "a queue and a USM kind: where an array's memory lives";
  let description = [{
    The placement of an array, as an attribute. Code generation uses it as
    the memory space of the memrefs that hold arrays, so that allocations,
    copies and kernel launches reach the runtime on the queue it names.

    ```mlir
    memref<1024xf32, #usm.placement<"opencl:cpu:0", device>>
    memref<?xi32, #usm.placement<"host:cpu:0"("worker"), shared>>
    ```
  }];
  let parameters = (ins "QueueAttr":$queue, "::sluice::usm::USMKind":$kind);
  let hasCustomAssemblyFormat = 1;
}

#endif // SLUICE_DIALECT_USM_IR_USMATTRS_TD
