//===- NNAPIInterfaces.td - nnapi op interfaces ------------*- tablegen -*-===//
#ifndef NNAPI_INTERFACES_TD
#define NNAPI_INTERFACES_TD

include "mlir/IR/OpBase.td"

def NNAPI_OperationInterface : OpInterface<"NNAPIOperationInterface"> {
  let cppNamespace = "::mlir::nnapi";
  let description = [{
    An op that is one NNAPI operation: it knows its operation code and the
    lowest NNAPI feature level (1..8) that accepts it with its operand types
    and attributes.
  }];
  let methods = [
    InterfaceMethod<"Returns the ANEURALNETWORKS_* operation code.",
      "int32_t", "getOperationCode", (ins), [{}],
      [{ return ConcreteOp::kOperationCode; }]>,
    InterfaceMethod<[{
        Returns the lowest feature level that runs this op with its operand
        types and attributes (at least the level that introduced the
        operation).
      }],
      "unsigned", "getMinFeatureLevel", (ins), [{}],
      [{ return ::mlir::nnapi::detail::getMinFeatureLevel($_op.getOperation(),
                                                         ConcreteOp::kIntroducedIn); }]>,
  ];
}

#endif // NNAPI_INTERFACES_TD
