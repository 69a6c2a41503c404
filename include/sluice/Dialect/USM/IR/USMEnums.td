//===- USMEnums.td - usm dialect enums ---------------------*- tablegen -*-===//

#ifndef SLUICE_DIALECT_USM_IR_USMENUMS_TD
#define SLUICE_DIALECT_USM_IR_USMENUMS_TD

include "mlir/IR/EnumAttr.td"
include "sluice/Dialect/USM/IR/USMDialect.td"

// The order of the cases is the coercion order: when operands of different
// kinds meet, the result takes the smallest (device < shared < host).
def USM_KindEnum : I32EnumAttr<"USMKind", "kind of USM allocation", [
    I32EnumAttrCase<"device", 0>,
    I32EnumAttrCase<"shared", 1>,
    I32EnumAttrCase<"host", 2>
  ]> {
  let cppNamespace = "::sluice::usm";
  let genSpecializedAttr = 0;
}

def USM_KindAttr : EnumAttr<USM_Dialect, USM_KindEnum, "kind"> {
  let summary = "kind of USM allocation: device, shared or host";
  let assemblyFormat = "`<` $value `>`";
}

#endif // SLUICE_DIALECT_USM_IR_USMENUMS_TD
