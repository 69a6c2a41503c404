//===- USMDialect.td - The usm dialect ---------------------*- tablegen -*-===//
//
// The usm dialect models arrays that live in USM allocations bound to a queue
// (compute-follows-data).
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_DIALECT_USM_IR_USMDIALECT_TD
#define SLUICE_DIALECT_USM_IR_USMDIALECT_TD

include "mlir/IR/OpBase.td"

def USM_Dialect : Dialect {
  let name = "usm";
  let cppNamespace = "::sluice::usm";
  let summary = "Arrays in USM allocations bound to queues (compute-follows-data)";
  let description = [{
    The `usm` dialect models array programs in the compute-follows-data model
    of dpctl and dpnp. Every array value has a type `!usm.array` that carries
    its shape, element type and *placement*: the queue it is bound to and the
    kind of USM allocation (`device`, `shared` or `host`) that holds it.

    Operations run on the queue of their array operands. All array operands
    of one operation must be on the same queue; the result is on that queue
    and its USM kind is the coerced kind of the operands (device < shared <
    host: the smallest wins). Data changes queue or USM kind only through
    `usm.to_device`.

    Arrays are values: operations never write their operands, which lets the
    compiler fuse chains of operations into single kernels.

    ```mlir
    !A = !usm.array<1024xf32, "opencl:cpu:0", device>
    func.func @saxpy(%a: f32, %x: !A, %y: !A) -> !A {
      %ax = usm.mul %x, %a : (!A, f32) -> !A
      %r = usm.add %ax, %y : (!A, !A) -> !A
      return %r : !A
    }
    ```
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // SLUICE_DIALECT_USM_IR_USMDIALECT_TD
