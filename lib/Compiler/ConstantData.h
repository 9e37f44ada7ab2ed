//===- ConstantData.h - Weights as bytes for LLVM -------------------------===//
//
// MLIR's translation writes a weight tensor as a nested LLVM array of floats
// ([1280 x [1000 x float]]), which the assembly printer emits one element at
// a time: on MobileNetV2's 5 MB head that was 2.8 s of a 4.6 s compile. The
// same bytes as one [N x i8] array are emitted as a block. A shared library
// goes further: its weights skip LLVM altogether, written from the MLIR
// attributes into an object file of their own (no LLVM constant, no
// assembler copy: 9 MB of the text detector's compile peak).
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_COMPILER_CONSTANTDATA_H
#define NNAPI_MLIR_LIB_COMPILER_CONSTANTDATA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
class Triple;
class raw_ostream;
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

/// A weight tensor as bytes for an object file of its own: `bytes` are the
/// MLIR attribute's storage (the context keeps them), `align` a power of 2.
struct DataSymbol {
  std::string name;
  llvm::ArrayRef<char> bytes;
  uint64_t align;
};

/// Whether writeDataObject writes objects for `triple` (64-bit little-endian
/// ELF on x86-64 and AArch64, the targets the linker makes libraries for)
/// on this machine (whose byte order the attributes' bytes are in).
bool canWriteDataObject(const llvm::Triple &triple);

/// The globals weightsAsBytes would rewrite (but those given a section)
/// become hidden external declarations, their bytes returned for
/// writeDataObject: translated, the weights are then never copied into LLVM
/// constants and through LLVM's assembler (9 MB of the text detector's
/// compile peak). In module order.
std::vector<DataSymbol> detachWeights(ModuleOp module);

/// Writes an ELF relocatable object for `triple` (canWriteDataObject) that
/// defines each of `symbols` as a hidden global object in one read-only
/// section, straight from their bytes.
llvm::Error writeDataObject(const llvm::Triple &triple,
                            llvm::ArrayRef<DataSymbol> symbols,
                            llvm::raw_ostream &os);

/// The same into the file at `path`; an error names the file when it cannot
/// be written.
llvm::Error writeDataObject(const llvm::Triple &triple,
                            llvm::ArrayRef<DataSymbol> symbols,
                            llvm::StringRef path);

/// Replaces the initializer of every constant global that is a (nested) array
/// of numbers by the same bytes as an i8 array: same name, linkage, section
/// and at least the alignment the old type had, so every address and load
/// stays as it was. Leaves the module alone when the target's byte order is
/// not this machine's (the raw values are in this machine's). Returns how
/// many globals were rewritten.
unsigned flattenConstantData(llvm::Module &module);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_LIB_COMPILER_CONSTANTDATA_H
