//===- ConstantData.h - Weights as bytes for LLVM -------------------------===//
//
// MLIR's translation writes a weight tensor as a nested LLVM array of floats
// ([1280 x [1000 x float]]), which the assembly printer emits one element at
// a time: on MobileNetV2's 5 MB head that was 2.8 s of a 4.6 s compile. The
// same bytes as one [N x i8] array are emitted as a block.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_COMPILER_CONSTANTDATA_H
#define NNAPI_MLIR_LIB_COMPILER_CONSTANTDATA_H

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::nnapi {

/// Replaces the initializer of every constant global that is a (nested) array
/// of numbers by the same bytes as an i8 array: same name, linkage, section
/// and at least the alignment the old type had, so every address and load
/// stays as it was. Leaves the module alone when the target's byte order is
/// not this machine's (the raw values are in this machine's). Returns how
/// many globals were rewritten.
unsigned flattenConstantData(llvm::Module &module);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_LIB_COMPILER_CONSTANTDATA_H
