//===- Importer.h - The ONNX importer and what handlers see -----*- C++ -*-===//
//
// Private to lib/Frontend/ONNX. An Importer imports one graph: it holds the
// values and compile-time constants defined so far and emits TOSA at the
// current node's location. Each node goes to the handler its OpRegistry
// entry names (ops/*.cpp), which sees the node through a NodeContext.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_FRONTEND_ONNX_IMPORTER_H
#define NNAPI_MLIR_LIB_FRONTEND_ONNX_IMPORTER_H

#include "OpRegistry.h"

#include "../Common/Emitter.h"
#include "../Common/Quant.h"

#include "nnapi-mlir/Frontend/ONNX/ONNXImporter.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include "onnx/onnx_pb.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>

namespace mlir::nnapi::onnx_import {

namespace frontend = mlir::nnapi::frontend;

/// Whether `type` is a tensor whose every dimension is known.
bool isStatic(const onnx::TypeProto &type);

class NodeContext;
using frontend::checkedCount;
using frontend::denseOf;
using frontend::floatsOf;
using frontend::intsOf;
using frontend::kMaxDim;
using frontend::kMaxElements;
using frontend::kNoBound;
using frontend::normalizeAxis;
using frontend::product;
using frontend::Shape;

using frontend::kMaxUnrolledNodes;

/// Imports one graph. The emission helpers build at the location of the
/// node being imported.
class Importer : public frontend::Emitter {
public:
  Importer(MLIRContext *ctx, const onnx::ModelProto &model, StringRef path);

  OwningOpRef<ModuleOp> run();

  /// The graph inputs in the model's order (LoadOptions::inputOrder) and
  /// those of them the loader turned into initializers (--input-value or
  /// --specialize-value): each stays an argument of the entry function, in
  /// its place, marked with the value it was compiled for.
  void keepBoundInputs(std::vector<std::string> order,
                       std::set<std::string> bound) {
    inputOrder = std::move(order);
    boundInputs = std::move(bound);
  }

  /// Graph inputs whose symbolic dimensions stay dynamic (issue 54), with
  /// their ranges (ONNXImportOptions::inputDimRanges): values may then have
  /// dynamic dimensions, which only the operators OpRegistry.cpp lists as
  /// handling them may see.
  void keepDynamic(std::map<std::string, std::vector<int64_t>> inputs) {
    dynamicInputs = std::move(inputs);
  }
  bool dynamic() const { return !dynamicInputs.empty(); }
  /// "kept dynamic: x, y", for messages.
  std::string dynamicInputsText() const;

  /// The graph inputs offered with --specialize-value and not bound yet: a
  /// handler that would rather compile for one value of such an input than
  /// for all (If's condition) asks for it with NodeContext::needConstant.
  void offerValues(std::set<std::string> offered) {
    offeredInputs = std::move(offered);
  }

  /// After a failed run(): the graph inputs whose values a node needed at
  /// compile time (to decide a shape, an axis, K...) but got at run time,
  /// found by walking back from the values it needed through everything
  /// that is not a compile-time constant.
  std::set<std::string> shapeDecidingInputs() const {
    return inputsBehind(neededValues);
  }
  /// The graph inputs, not compile-time constants, that the values `names`
  /// are computed from (through nodes of the graph and its subgraphs).
  std::set<std::string> inputsBehind(const std::set<std::string> &names) const;
  bool offered(StringRef input) const {
    return offeredInputs.count(input.str());
  }
  /// The element count of the run-time value `name`, or -1 if there is
  /// none.
  int64_t runtimeElements(StringRef name) const {
    Value v = values.lookup(name);
    return v ? typeOf(v).getNumElements() : -1;
  }

  /// An ONNX value as the importer holds it: a compile-time constant, or
  /// else a value computed at run time.
  struct Bound {
    Value value;
    DenseElementsAttr constant;
  };
  /// Imports `graph` (an If branch, a Loop or Scan body) inline at the
  /// current point, its inputs bound to `inputs`; the names it defines are
  /// forgotten afterwards, so a body can be imported again. Its outputs, or
  /// failure with a diagnostic.
  FailureOr<SmallVector<Bound>> importSubgraph(const onnx::GraphProto &graph,
                                               ArrayRef<Bound> inputs);

  // Types and constants.
  FailureOr<Type> elementType(int32_t onnxType, const Twine &what);
  FailureOr<RankedTensorType> tensorType(const onnx::TypeProto &type,
                                         const Twine &what);
  FailureOr<DenseElementsAttr> tensorAttr(const onnx::TensorProto &t);
  /// For a uint8 value (i32 inside) that a QuantizeLinear-like node made:
  /// its signed 8-bit storage, so quantized consumers skip the round trip.
  llvm::DenseMap<Value, Value> signedStorage;

private:
  friend class NodeContext;

  // Values.
  Value get(StringRef name);
  DenseElementsAttr constantOf(StringRef name) const {
    auto it = constants.find(name);
    return it == constants.end() ? DenseElementsAttr() : it->second;
  }

  // Nodes.
  /// Checks what every operator needs, then runs the node's handler.
  LogicalResult importNode(const onnx::NodeProto &node);
  /// Tensors TOSA cannot compute on (SpecialTensors.cpp): refuses a node
  /// that computes on bfloat16; defines the outputs of a node whose every
  /// output is empty as empty constants (nullopt when the node is not one).
  LogicalResult checkBFloat16Use(const onnx::NodeProto &node);
  std::optional<LogicalResult> defineEmptyOutputs(NodeContext &context);
  InFlightDiagnostic nodeError(const onnx::NodeProto &node);
  FailureOr<RankedTensorType> outputType(const onnx::NodeProto &node, int i);
  Type boundaryType(int32_t onnxType, Type internal);
  /// The initializer `t`, already in `constants`, as the entry function's
  /// caller passes it (boundaryType's element type).
  DenseElementsAttr boundaryValue(const onnx::TensorProto &t);
  /// Runs ONNX's inference on `node` alone with the inputs' types and
  /// compile-time values known now, recording its outputs' types in
  /// `inferred`; for outputs the whole-graph inference left unshaped.
  void inferAlone(const onnx::NodeProto &node);

  MLIRContext *ctx;
  const onnx::ModelProto &model;
  Location fileLoc;
  int64_t opset = 0;
  llvm::StringMap<Value> values;
  llvm::StringMap<DenseElementsAttr> constants;
  llvm::StringMap<const onnx::TypeProto *> inferred;
  /// Types inferAlone found (`inferred` points into it).
  std::map<std::string, onnx::TypeProto> inferredAlone;
  /// Why ONNX's inference of the last node inferAlone ran failed, if it did.
  std::string inferenceError;
  /// inferAlone's answers (output types, or the error) by the node and its
  /// known inputs: an unrolled loop asks the same question once per
  /// iteration, and each answer costs a child process (Sandbox.cpp).
  struct AloneAnswer {
    bool ok;
    std::vector<onnx::TypeProto> outputs;
    std::string error;
  };
  std::map<std::string, AloneAnswer> aloneAnswers;
  std::vector<std::string> inputOrder;
  std::set<std::string> boundInputs;
  /// Values a node needed as compile-time constants and did not get.
  std::set<std::string> neededValues;
  std::set<std::string> offeredInputs;
  std::map<std::string, std::vector<int64_t>> dynamicInputs;
};

/// What a handler sees of the node it imports.
class NodeContext {
public:
  NodeContext(Importer &imp, const onnx::NodeProto &node);

  /// Emission helpers: imp.reshape(...), imp.transpose(...), ...
  Importer &imp;
  const onnx::NodeProto &node;
  /// The importer's builder.
  OpBuilder &b;
  /// The node's location.
  Location loc;
  /// The (upgraded) default-domain opset.
  int64_t opset;

  llvm::StringRef opType() const { return node.op_type(); }
  /// Whether input i is present and not empty.
  bool has(int i) const {
    return i < node.input_size() && !node.input(i).empty();
  }
  /// The run-time value of input i (constants are materialized), or null if
  /// it is absent.
  Value in(int i);
  /// The compile-time value of input i, or null.
  DenseElementsAttr cst(int i) const {
    return has(i) ? imp.constantOf(node.input(i)) : DenseElementsAttr();
  }
  /// The compile-time value of input i, or an error that `what` must be
  /// known at compile time.
  FailureOr<DenseElementsAttr> needConstant(int i, llvm::StringRef what);
  /// ONNX's inferred type of output i.
  FailureOr<RankedTensorType> out(int i = 0) { return imp.outputType(node, i); }
  /// Input i's rank if it is within [min, max], else an error naming the
  /// input and the ranks it may have (ONNX's shape inference does not check
  /// every operator's ranks; a handler that indexes dimensions asks first).
  FailureOr<int64_t> needRank(int i, int64_t min,
                              int64_t max = std::numeric_limits<int64_t>::max());
  bool isFloat(Value v) const {
    return isa<FloatType>(imp.typeOf(v).getElementType());
  }
  /// Whether input i is an ONNX unsigned integer (computed zero-extended in
  /// a wider signed type), as ONNX's types or the initializer say.
  bool isUnsignedInput(int i) const;
  /// Input i's ONNX element type (onnx::TensorProto::DataType), as ONNX's
  /// types or the initializer say; UNDEFINED when neither does.
  int32_t inputType(int i) const;
  /// An error prefixed "node 'NAME' (OpType, opset N): ".
  InFlightDiagnostic error() { return imp.nodeError(node); }

  int64_t intAttr(llvm::StringRef name, int64_t dflt) const;
  float floatAttr(llvm::StringRef name, float dflt) const;
  std::string stringAttr(llvm::StringRef name, llvm::StringRef dflt) const;
  std::optional<SmallVector<int64_t>> intsAttr(llvm::StringRef name) const;
  const onnx::AttributeProto *attr(llvm::StringRef name) const;

  /// Defines output 0 as `v` (see define).
  LogicalResult setResult(Value v) { return define(0, v); }
  /// Defines output i as `v`, reshaped to ONNX's inferred shape if only the
  /// shape differs; an internal error if `v` is null or its element type or
  /// element count differs from the inferred type's.
  LogicalResult define(int i, Value v);
  /// Defines output i as a compile-time value.
  LogicalResult defineConstant(int i, DenseElementsAttr attr);
  /// Defines output i as `b`, with b's own type: for a handler that knows
  /// the type better than ONNX's inference (an If on a constant condition
  /// whose branches differ in shape).
  LogicalResult defineBound(int i, const Importer::Bound &b);
};

// Attributes.
const onnx::AttributeProto *findAttr(const onnx::NodeProto &node,
                                     StringRef name);
int64_t intAttr(const onnx::NodeProto &node, StringRef name, int64_t dflt);
float floatAttr(const onnx::NodeProto &node, StringRef name, float dflt);
std::string stringAttr(const onnx::NodeProto &node, StringRef name,
                       StringRef dflt);
std::optional<Shape> intsAttr(const onnx::NodeProto &node, StringRef name);

/// Gather, Concat, Unsqueeze, Squeeze, Reshape, Identity, Cast, Add, Sub,
/// Mul, Div, Ceil, Floor, Relu and Abs of compile-time inputs (shape
/// arithmetic), and comparisons and logic (conditions), computed on the
/// host: their handlers call this first. The result if it defined
/// output 0 or failed, nullopt if the node must be computed at run time.
std::optional<LogicalResult> foldAtCompileTime(NodeContext &node);

//===----------------------------------------------------------------------===//
// Helpers for handlers
//===----------------------------------------------------------------------===//

/// `OpTy(a, b)` broadcast to a common rank, with an i1 result.
template <typename OpTy>
inline Value compare(NodeContext &n, Value a, Value b) {
  return n.imp.compare<OpTy>(a, b);
}

/// select(c, a, b) broadcast to a common rank; the element type is a's.
inline Value select(NodeContext &n, Value c, Value a, Value b) {
  return n.imp.select(c, a, b);
}

inline Value add(NodeContext &n, Value a, Value b) { return n.imp.add(a, b); }
inline Value sub(NodeContext &n, Value a, Value b) { return n.imp.sub(a, b); }

inline LogicalResult requireFloat(NodeContext &n, Value v) {
  if (n.isFloat(v))
    return success();
  return n.error() << "only float tensors are supported, got "
                   << n.imp.typeOf(v).getElementType();
}

// Shared between families.

/// An integer convolution (ConvInteger, QLinearConv) for importWindowOp: x
/// and w are signed 8-bit data (uint8 shifted by -128, zero points with
/// them), the bias (or null) and the accumulators i32. `finish` maps the
/// NHWC accumulators to the result's element type (requantization).
struct IntegerConv {
  Value x, w;
  DenseElementsAttr wConst;
  Value bias;
  int64_t xZeroPoint = 0, wZeroPoint = 0;
  /// x's zero point when it is computed at run time (DynamicQuantizeLinear):
  /// a rank-0 i32 in x's signed storage, xZeroPoint then unused.
  Value xZeroPointValue;
  std::function<Value(Value)> finish = [](Value acc) { return acc; };
};
/// Conv, ConvTranspose, MaxPool, AveragePool (ops/ConvPool.cpp); with `q`,
/// the node's window attributes applied to q's integer convolution.
LogicalResult importWindowOp(NodeContext &ctx, const IntegerConv *q = nullptr);
/// a x b with NumPy's matmul broadcasting as one tosa.matmul, reshaped to
/// `resultShape` (ops/Linear.cpp). With `zeroPoints` (a's, b's), a and b are
/// signed 8-bit data and the products i32.
FailureOr<Value>
batchMatMul(NodeContext &ctx, Value a, Value b, ArrayRef<int64_t> resultShape,
            std::optional<std::pair<int64_t, int64_t>> zeroPoints = {});

// One function per family of operators (ops/*.cpp), called by
// OpRegistry::get().
void registerConstantOps(OpRegistry &registry);
void registerElementwiseOps(OpRegistry &registry);
void registerActivationOps(OpRegistry &registry);
void registerDataMovementOps(OpRegistry &registry);
void registerReductionOps(OpRegistry &registry);
void registerNormalizationOps(OpRegistry &registry);
void registerConvPoolOps(OpRegistry &registry);
void registerLinearOps(OpRegistry &registry);
void registerResizeOps(OpRegistry &registry);
void registerMathOps(OpRegistry &registry);
void registerIndexingOps(OpRegistry &registry);
void registerRecurrentOps(OpRegistry &registry);
void registerControlFlowOps(OpRegistry &registry);
void registerQuantizationOps(OpRegistry &registry);

} // namespace mlir::nnapi::onnx_import

#endif // NNAPI_MLIR_LIB_FRONTEND_ONNX_IMPORTER_H
