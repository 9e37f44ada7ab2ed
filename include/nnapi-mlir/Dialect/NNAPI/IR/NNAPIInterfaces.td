//===- NNAPIInterfaces.td - nnapi op interfaces ------------*- tablegen -*-===//
#ifndef NNAPI_INTERFACES_TD
#define NNAPI_INTERFACES_TD

include "mlir/IR/OpBase.td"

def NNAPI_OperationInterface : OpInterface<"NNAPIOperationInterface"> {
  let cppNamespace = "::mlir::nnapi";
  let description = [{
    An op that is one NNAPI operation: it knows its operation code and the
    lowest NNAPI feature level (1..8) that accepts it with its operand types
    and attributes. This is the one place that computes an op's level: the
    partitioner, convert-tosa-to-nnapi and the blob writer all ask it.
  }];
  let methods = [
    InterfaceMethod<"Returns the ANEURALNETWORKS_* operation code.",
      "int32_t", "getOperationCode", (ins), [{}],
      [{ return ConcreteOp::kOperationCode; }]>,
    InterfaceMethod<[{
        Returns the lowest feature level that runs this op with its operand
        types and attributes, and what needs it: the level of the NNAPI
        operands the op gives (the spec's operation, data type, rank and
        optional-operand levels, nnapi-mlir/NNAPI/Layouts.h), and the op's
        behaviour rules (`levelRules` in NNAPIOps.td).
      }],
      "::mlir::nnapi::FeatureLevelNeed", "getFeatureLevelNeed", (ins), [{}],
      [{
        ::mlir::nnapi::FeatureLevelNeed need =
            ::mlir::nnapi::detail::getSpecFeatureLevel(
                $_op.getOperation(), ConcreteOp::kOperationCode);
        $_op.raiseFeatureLevel(need);
        return need;
      }]>,
    InterfaceMethod<"Returns getFeatureLevelNeed().level.",
      "unsigned", "getMinFeatureLevel", (ins), [{}],
      [{ return $_op.getFeatureLevelNeed().level; }]>,
  ];
  // After the op's own verifier, so that its messages come first: the
  // operands it gives must be ones the NNAPI spec accepts.
  let verify = [{ return ::mlir::nnapi::detail::verifySpecOperands($_op); }];
  let verifyWithRegions = 1;
}

#endif // NNAPI_INTERFACES_TD
