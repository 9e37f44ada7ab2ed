//===- Importer.h - The TFLite importer and what handlers see ---*- C++ -*-===//
//
// Private to lib/Frontend/TFLite. An Importer imports the entry subgraph of
// a verified model: it holds, per tensor, the value or compile-time
// constant defined so far and emits TOSA at the current operator's
// location. Each operator goes to the handler its registry entry names
// (ops/*.cpp), which sees it through an OpContext.
//
// Handlers compute in float: OpContext::inFloat dequantizes a quantized
// input (a `dequantize` composite of its 8-bit storage) and defineFloat
// quantizes to the output tensor's parameters, so one handler serves
// float32, float16-weight and int8/uint8 models alike.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_FRONTEND_TFLITE_IMPORTER_H
#define NNAPI_MLIR_LIB_FRONTEND_TFLITE_IMPORTER_H

#include "../Common/Emitter.h"
#include "../Common/Quant.h"

#include "nnapi-mlir/Frontend/TFLite/TFLiteImporter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"

#include "schema_generated.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::nnapi::tflite_import {

using namespace mlir::nnapi::frontend;

class OpContext;

/// Imports one operator: defines its outputs, or emits a diagnostic naming
/// the operator and returns failure.
using OpHandler = LogicalResult (*)(OpContext &op);

/// Custom operators are looked up by their custom code.
constexpr int32_t kCustom = tflite::BuiltinOperator_CUSTOM;

struct OpEntry {
  int32_t code;             ///< tflite::BuiltinOperator.
  llvm::StringRef custom;   ///< The custom code when code is kCustom.
  int32_t minVersion, maxVersion; ///< Operator code versions, inclusive.
  OpHandler handler;
  /// docs/ops.md's columns, as for ONNX.
  llvm::StringRef importedAs;
  llvm::StringRef nnapi;
  llvm::StringRef hostWhen;
  /// The handler takes dynamic dimensions (an input's unknown dimension
  /// kept dynamic): its shapes come from its operands, not the file.
  bool dynamic = false;
};

class OpRegistry {
public:
  static const OpRegistry &get();
  void add(llvm::ArrayRef<OpEntry> list) {
    entries.insert(entries.end(), list.begin(), list.end());
  }
  /// The entry for builtin `code` (or custom `custom`), whatever the
  /// version; null if none.
  const OpEntry *lookup(int32_t code, llvm::StringRef custom) const;
  llvm::ArrayRef<OpEntry> all() const { return entries; }

private:
  std::vector<OpEntry> entries;
};

/// An operator's name: the builtin's, or the custom code.
std::string operatorName(int32_t code, llvm::StringRef custom);

/// One family's handlers (ops/*.cpp).
void registerConvOps(OpRegistry &registry);
void registerElementwiseOps(OpRegistry &registry);
void registerShapeOps(OpRegistry &registry);
void registerReduceOps(OpRegistry &registry);
void registerQuantOps(OpRegistry &registry);
void registerRecurrentOps(OpRegistry &registry);
void registerControlFlowOps(OpRegistry &registry);

/// Imports the entry subgraph of a verified model.
class Importer : public Emitter {
public:
  Importer(MLIRContext *ctx, llvm::StringRef data, const tflite::Model &model,
           llvm::StringRef path, const TFLiteImportOptions &options);

  OwningOpRef<ModuleOp> run();

  /// The element type a tensor of `type` is held as: 8-bit quantized data
  /// as i8 signed storage, other unsigned integers wider (uint8 as i32), the
  /// rest as they are; failure (with a message naming `what`) for types the
  /// importer does not take.
  FailureOr<Type> elementType(const tflite::Tensor &t, const Twine &what);
  /// The tensor's type as held (its shape, or the shape given for its
  /// unknown dimensions).
  FailureOr<RankedTensorType> tensorType(const tflite::Tensor &t,
                                         const Twine &what);
  /// The quantization of an 8-bit (or int32 bias) tensor with scales, with
  /// zero points in signed storage; nullopt if it has none.
  FailureOr<std::optional<QuantParams>> quantOf(const tflite::Tensor &t,
                                                const Twine &what);
  /// The constant a tensor's buffer holds, in the held element type
  /// (null if its buffer is empty); failure if the buffer disagrees with
  /// the tensor's shape.
  FailureOr<DenseElementsAttr> constantOf(const tflite::Tensor &t,
                                          const Twine &what);
  /// How messages name tensor `index` of the subgraph: "tensor 5 ('conv')".
  std::string tensorName(int32_t index) const;

  /// What the importer knows of each tensor of the subgraph.
  struct Slot {
    Value value;
    DenseElementsAttr constant;
    bool failed = false; ///< Its producer was refused.
  };
  std::vector<Slot> slots;
  /// For uint8 data held as i32 that quantizing made: its signed storage.
  llvm::DenseMap<Value, Value> signedStorage;

  MLIRContext *ctx;
  llvm::StringRef data; ///< The whole file (buffers may lie past the root).
  const tflite::Model &model;
  const tflite::SubGraph *graph = nullptr;
  /// graph's index, and the entry subgraph's.
  uint32_t graphIndex = 0, entryGraph = 0;
  const TFLiteImportOptions &options;
  Location fileLoc;
  /// An input's unknown dimension is kept dynamic (TFLiteImportOptions):
  /// tensorType gives every tensor's unknown dimensions as dynamic, and
  /// only operators whose registry entry takes them are imported.
  bool dynamicImport = false;

  /// Imports subgraph `index` (a WHILE's or IF's) at the builder's insertion
  /// point with its inputs bound to `args` (held types); returns its outputs.
  /// `caller` names the operator in messages. Subgraphs may nest, but not
  /// call themselves.
  FailureOr<SmallVector<Value>> importSubgraph(uint32_t index, ValueRange args,
                                               const Twine &caller);

private:
  friend class OpContext;
  LogicalResult importOperator(uint32_t index, const tflite::Operator &op);
  /// The current subgraph's constants (and zero-initialized variables) into
  /// its slots; false after diagnostics.
  bool loadConstants();
  /// The current subgraph's operators, in order; false after diagnostics.
  bool importOperators();
  /// The subgraphs being imported, outermost first.
  SmallVector<uint32_t> activeGraphs;
  /// Defines the entry function's arguments; false after a diagnostic.
  bool defineInputs(func::FuncOp func, ArrayRef<int32_t> inputs);
  /// Names of the inputs and outputs: the signature's, else the tensors'.
  std::vector<std::string> inputNames, outputNames;
  std::vector<int32_t> inputTensors, outputTensors;
};

/// What a handler sees of the operator it imports.
class OpContext {
public:
  OpContext(Importer &imp, const tflite::Operator &op, uint32_t index,
            int32_t code, int32_t version, llvm::StringRef name);

  Importer &imp;
  const tflite::Operator &op;
  OpBuilder &b;
  Location loc;
  uint32_t index;
  int32_t code;
  int32_t version;
  llvm::StringRef name; ///< The builtin's or custom operator's name.

  int numInputs() const { return op.inputs() ? int(op.inputs()->size()) : 0; }
  int numOutputs() const {
    return op.outputs() ? int(op.outputs()->size()) : 0;
  }
  /// Whether input i is given (TFLite marks an omitted optional one -1).
  bool has(int i) const {
    return i < numInputs() && op.inputs()->Get(i) >= 0;
  }
  int32_t inputIndex(int i) const { return op.inputs()->Get(i); }
  int32_t outputIndex(int i) const { return op.outputs()->Get(i); }
  const tflite::Tensor &inputTensor(int i) const;
  const tflite::Tensor &outputTensor(int i) const;

  /// Input i as held (8-bit quantized data as i8 storage); constants are
  /// materialized.
  Value in(int i);
  /// Input i's compile-time value as held, or null.
  DenseElementsAttr cst(int i) const {
    return has(i) ? imp.slots[inputIndex(i)].constant : DenseElementsAttr();
  }
  /// The compile-time value of input i, or an error that `what` must be one.
  FailureOr<DenseElementsAttr> needConstant(int i, llvm::StringRef what);
  /// The compile-time integers of input i (shapes, axes, paddings), or an
  /// error that `what` must be constant integers.
  FailureOr<SmallVector<int64_t>> needInts(int i, llvm::StringRef what);
  /// Input i as float32 (the value of quantized data, float16 widened), or
  /// null after a diagnostic (data that is not a number).
  Value inFloat(int i);
  /// Whether input i / output i is quantized 8-bit data.
  bool quantizedInput(int i) const;
  bool quantizedOutput(int i) const;
  /// Output i's type as the tensor declares it (held element type).
  FailureOr<RankedTensorType> outType(int i = 0);
  /// Output i's shape.
  FailureOr<Shape> outShape(int i = 0);

  /// Defines output i as `v` (of the held type; reshaped if only the shape
  /// differs), or an internal error.
  LogicalResult define(int i, Value v);
  /// Defines output i from its float32 value: quantized to the output's
  /// parameters, narrowed to float16, or as it is.
  LogicalResult defineFloat(int i, Value v);
  /// Defines output i as a compile-time value.
  LogicalResult defineConstant(int i, DenseElementsAttr value);

  /// The builtin options table, or null if the operator has none of that
  /// type (handlers then use TFLite's defaults).
  template <typename T> const T *options() const {
    return op.builtin_options_as<T>();
  }
  /// `x` through a fused activation; null after a diagnostic for one the
  /// importer does not take.
  Value fused(Value x, tflite::ActivationFunctionType act);

  /// An error prefixed "operator N (NAME v2, output 'TENSOR'): ".
  InFlightDiagnostic error();
};

/// Whether tensor `t` carries quantization (8-bit data, or a quantized
/// int32 bias): a scale is given.
bool hasScale(const tflite::Tensor &t);
/// Whether tensor `t` holds quantized 8-bit data.
bool isQuantized8(const tflite::Tensor &t);

/// The most levels (dimensions and blocks) a sparse tensor may have.
constexpr int64_t kMaxSparseLevels = 16;
/// The most bytes a sparse constant may take once dense.
constexpr int64_t kMaxDensifiedBytes = int64_t(1) << 30;

/// The row-major bytes of a sparse constant of `shape` whose `stored`
/// values (`width` bytes each) follow `sparsity`'s traversal; an error
/// (a sentence about "it", the tensor) when the structure is malformed or
/// disagrees with the shape or the values.
llvm::Expected<std::vector<char>>
densify(const tflite::SparsityParameters &sparsity,
        llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<char> stored,
        size_t width);

/// An axis of a rank-`rank` tensor, counted from the end when negative; an
/// error through `op` when out of range.
FailureOr<int64_t> axisOf(OpContext &op, int64_t axis, int64_t rank);

} // namespace mlir::nnapi::tflite_import

#endif // NNAPI_MLIR_LIB_FRONTEND_TFLITE_IMPORTER_H
