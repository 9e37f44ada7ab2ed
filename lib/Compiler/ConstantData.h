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

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace mlir::nnapi {

/// Before translation to LLVM IR: gives every constant `llvm.mlir.global`
/// of more than 64 bytes whose value is a dense array of numbers that value
/// as one array of bytes, a resource over the attribute's own storage (no
/// copy), with the alignment its elements had. Translated, it is one LLVM
/// byte array made straight from those bytes, where a weight tensor would
/// be an LLVM constant per innermost row that the context keeps to the end
/// (and flattenConstantData a second copy). Does nothing unless `littleEndian`
/// (the target's byte order, which must be this machine's).
void weightsAsBytes(ModuleOp module, bool littleEndian);

/// Replaces the initializer of every constant global that is a (nested) array
/// of numbers by the same bytes as an i8 array: same name, linkage, section
/// and at least the alignment the old type had, so every address and load
/// stays as it was. Leaves the module alone when the target's byte order is
/// not this machine's (the raw values are in this machine's). Returns how
/// many globals were rewritten.
unsigned flattenConstantData(llvm::Module &module);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_LIB_COMPILER_CONSTANTDATA_H
