//===- TFLiteImporter.cpp - TensorFlow Lite flatbuffer to TOSA ------------===//
//
// The importer's core: the checks a file passes before anything is read
// (identifier, the flatbuffers Verifier, schema version, buffers inside the
// file), tensors and buffers as types and constants, the entry function and
// its SignatureDef names, the dispatch of every operator to its handler
// (ops/*.cpp, found in the registry, OpRegistry.cpp), and the public entry
// points.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <cstring>
#include <tuple>

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::tflite_import;

//===----------------------------------------------------------------------===//
// Tensors, buffers and types
//===----------------------------------------------------------------------===//

Importer::Importer(MLIRContext *ctx, StringRef data,
                   const tflite::Model &model, StringRef path,
                   const TFLiteImportOptions &options)
    : Emitter(ctx, FileLineColLoc::get(ctx, path, 0, 0)), ctx(ctx),
      data(data), model(model), options(options),
      fileLoc(FileLineColLoc::get(ctx, path, 0, 0)) {}

std::string Importer::tensorName(int32_t index) const {
  std::string text = "tensor " + std::to_string(index);
  if (graph && graph->tensors() && index >= 0 &&
      uint32_t(index) < graph->tensors()->size())
    if (const flatbuffers::String *name = graph->tensors()->Get(index)->name())
      text += " ('" + name->str() + "')";
  return text;
}

bool tflite_import::hasScale(const tflite::Tensor &t) {
  const tflite::QuantizationParameters *q = t.quantization();
  return q && q->scale() && q->scale()->size() > 0;
}

bool tflite_import::isQuantized8(const tflite::Tensor &t) {
  return (t.type() == tflite::TensorType_INT8 ||
          t.type() == tflite::TensorType_UINT8) &&
         hasScale(t);
}

FailureOr<Type> Importer::elementType(const tflite::Tensor &t,
                                      const Twine &what) {
  switch (t.type()) {
  case tflite::TensorType_FLOAT32:
    return Type(builder.getF32Type());
  case tflite::TensorType_FLOAT16:
    return Type(builder.getF16Type());
  case tflite::TensorType_FLOAT64:
    return Type(builder.getF64Type());
  case tflite::TensorType_INT8:
    return Type(builder.getIntegerType(8));
  case tflite::TensorType_UINT8:
    // Quantized uint8 is held as signed storage (zero point - 128), plain
    // uint8 data wider, as every unsigned type.
    return isQuantized8(t) ? Type(builder.getIntegerType(8))
                           : Type(builder.getI32Type());
  case tflite::TensorType_INT16:
    return Type(builder.getIntegerType(16));
  case tflite::TensorType_UINT16:
  case tflite::TensorType_INT32:
    return Type(builder.getI32Type());
  case tflite::TensorType_UINT32:
  case tflite::TensorType_INT64:
    return Type(builder.getI64Type());
  case tflite::TensorType_BOOL:
    return Type(builder.getI1Type());
  default:
    break;
  }
  const char *name = tflite::EnumNameTensorType(t.type());
  return emitError(loc) << what << " has type "
                        << (name && *name ? name : "(unknown)")
                        << ", which is not supported (float32, float16, "
                           "float64, int8/16/32/64, uint8/16/32, bool are)";
}

FailureOr<RankedTensorType> Importer::tensorType(const tflite::Tensor &t,
                                                 const Twine &what) {
  FailureOr<Type> element = elementType(t, what);
  if (failed(element))
    return failure();
  Shape shape;
  if (t.shape())
    for (int32_t d : *t.shape())
      shape.push_back(d);
  if (t.sparsity() && t.buffer() == 0)
    return emitError(loc) << what
                          << " is sparse but not a constant; only constant "
                             "tensors may be sparse";
  if (checkedCount(shape) < 0)
    return emitError(loc) << what << " has a negative dimension, one above "
                          << kMaxDim << " or more than " << kMaxElements
                          << " elements";
  // Kept dynamic (an input's -1 given as ? or a range): the unknown
  // dimensions of every tensor's shape signature.
  if (dynamicImport && t.shape_signature() &&
      t.shape_signature()->size() == shape.size())
    for (size_t d = 0; d < shape.size(); ++d)
      if (t.shape_signature()->Get(d) < 0)
        shape[d] = ShapedType::kDynamic;
  return RankedTensorType::get(shape, *element);
}

FailureOr<std::optional<QuantParams>>
Importer::quantOf(const tflite::Tensor &t, const Twine &what) {
  if (!hasScale(t))
    return std::optional<QuantParams>();
  const tflite::QuantizationParameters &q = *t.quantization();
  if (q.details_type() != tflite::QuantizationDetails_NONE)
    return emitError(loc) << what
                          << " has custom quantization details, which are "
                             "not supported";
  QuantParams p;
  for (float s : *q.scale()) {
    if (!(s > 0) || !std::isfinite(s))
      return emitError(loc) << what << " has scale " << s
                            << ", not a positive finite number";
    p.scales.push_back(s);
  }
  // Quantized uint8 is held as int8 with its zero point moved down by 128.
  int64_t shift = t.type() == tflite::TensorType_UINT8 ? -128 : 0;
  size_t zeros = q.zero_point() ? q.zero_point()->size() : 0;
  if (zeros != 0 && zeros != p.scales.size())
    return emitError(loc) << what << " has " << p.scales.size()
                          << " scales and " << zeros << " zero points";
  for (size_t i = 0; i < p.scales.size(); ++i) {
    int64_t z = zeros ? q.zero_point()->Get(i) : 0;
    int64_t lo = t.type() == tflite::TensorType_UINT8 ? 0 : -128;
    int64_t hi = t.type() == tflite::TensorType_UINT8 ? 255 : 127;
    if (t.type() != tflite::TensorType_INT32 && (z < lo || z > hi))
      return emitError(loc) << what << " has zero point " << z
                            << " outside its type's range";
    p.zeroPoints.push_back(z + shift);
  }
  if (p.scales.size() > 1) {
    int64_t rank = t.shape() ? int64_t(t.shape()->size()) : 0;
    int64_t axis = q.quantized_dimension();
    if (axis < 0 || axis >= rank ||
        t.shape()->Get(axis) != int32_t(p.scales.size()))
      return emitError(loc) << what << " has " << p.scales.size()
                            << " scales along dimension " << axis
                            << ", which does not have that many entries";
    p.axis = axis;
  }
  return std::optional<QuantParams>(p);
}

FailureOr<DenseElementsAttr> Importer::constantOf(const tflite::Tensor &t,
                                                  const Twine &what) {
  const auto *buffers = model.buffers();
  uint32_t index = t.buffer();
  if (index == 0)
    return DenseElementsAttr();
  if (!buffers || index >= buffers->size())
    return emitError(loc) << what << " names buffer " << index
                          << ", beyond the model's "
                          << (buffers ? buffers->size() : 0) << " buffers";
  const tflite::Buffer &buffer = *buffers->Get(index);
  ArrayRef<char> bytes;
  if (buffer.offset() > 1) {
    // Past the flatbuffer (models above 2 GB): offset and size in the file.
    uint64_t offset = buffer.offset(), size = buffer.size();
    if (offset > data.size() || size > data.size() - offset)
      return emitError(loc) << what << "'s buffer " << index << " lies at "
                            << offset << " + " << size
                            << ", beyond the file's " << data.size()
                            << " bytes";
    bytes = ArrayRef<char>(data.data() + offset, size);
  } else if (buffer.data()) {
    bytes = ArrayRef<char>(
        reinterpret_cast<const char *>(buffer.data()->data()),
        buffer.data()->size());
  }
  if (bytes.empty())
    return DenseElementsAttr();
  FailureOr<RankedTensorType> type = tensorType(t, what);
  if (failed(type))
    return failure();
  int64_t count = type->getNumElements();
  size_t width;
  switch (t.type()) {
  case tflite::TensorType_FLOAT64:
  case tflite::TensorType_INT64:
    width = 8;
    break;
  case tflite::TensorType_FLOAT32:
  case tflite::TensorType_INT32:
  case tflite::TensorType_UINT32:
    width = 4;
    break;
  case tflite::TensorType_FLOAT16:
  case tflite::TensorType_INT16:
  case tflite::TensorType_UINT16:
    width = 2;
    break;
  default:
    width = 1;
  }
  std::vector<char> expanded;
  if (const tflite::SparsityParameters *sparsity = t.sparsity()) {
    // Stored sparse (DENSIFY's input, or weights read sparse): made dense
    // here, so every operator sees a dense constant.
    if (count > kMaxDensifiedBytes / int64_t(width))
      return emitError(loc) << what << " is sparse, and dense it would take "
                            << count << " x " << width
                            << " bytes, above the " << kMaxDensifiedBytes
                            << " allowed";
    llvm::Expected<std::vector<char>> dense =
        densify(*sparsity, type->getShape(), bytes, width);
    if (!dense)
      return emitError(loc) << what << " is sparse, and "
                            << llvm::toString(dense.takeError());
    expanded = std::move(*dense);
    bytes = expanded;
  }
  if (bytes.size() != size_t(count) * width)
    return emitError(loc) << what << " has " << count << " elements of "
                          << width << " bytes, but its buffer " << index
                          << " holds " << bytes.size() << " bytes";
  Type element = type->getElementType();
  auto read = [&](int64_t i, auto zero) {
    decltype(zero) v;
    std::memcpy(&v, bytes.data() + i * sizeof v, sizeof v);
    return v;
  };
  switch (t.type()) {
  case tflite::TensorType_FLOAT32:
  case tflite::TensorType_FLOAT16:
  case tflite::TensorType_FLOAT64:
  case tflite::TensorType_INT8:
  case tflite::TensorType_INT16:
  case tflite::TensorType_INT32:
  case tflite::TensorType_INT64: {
    bool detectedSplat = false;
    if (!DenseElementsAttr::isValidRawBuffer(*type, bytes, detectedSplat))
      break;
    return DenseElementsAttr::getFromRawBuffer(*type, bytes);
  }
  default:
    break;
  }
  // Widened unsigned data, storage of quantized uint8, and bools (a byte
  // each in TFLite, bits in MLIR).
  unsigned bits = element.getIntOrFloatBitWidth();
  SmallVector<APInt> values;
  values.reserve(count);
  for (int64_t i = 0; i < count; ++i) {
    int64_t v = 0;
    switch (t.type()) {
    case tflite::TensorType_UINT8:
      v = uint8_t(bytes[i]) - (isQuantized8(t) ? 128 : 0);
      break;
    case tflite::TensorType_UINT16:
      v = read(i, uint16_t());
      break;
    case tflite::TensorType_UINT32:
      v = read(i, uint32_t());
      break;
    case tflite::TensorType_BOOL:
      v = bytes[i] != 0;
      break;
    default:
      break;
    }
    values.push_back(APInt(bits, uint64_t(v), /*isSigned=*/true));
  }
  return DenseElementsAttr::get(*type, values);
}

//===----------------------------------------------------------------------===//
// The entry subgraph
//===----------------------------------------------------------------------===//

LogicalResult Importer::importOperator(uint32_t index,
                                       const tflite::Operator &op) {
  const auto *codes = model.operator_codes();
  if (!codes || op.opcode_index() >= codes->size())
    return emitError(loc) << "operator " << index << " names operator code "
                          << op.opcode_index() << ", beyond the model's "
                          << (codes ? codes->size() : 0);
  const tflite::OperatorCode &opcode = *codes->Get(op.opcode_index());
  // Codes below 127 are in deprecated_builtin_code; builtin_code holds the
  // others (and, in newer files, all of them): the larger is the code.
  int32_t code = std::max<int32_t>(opcode.deprecated_builtin_code(),
                                   opcode.builtin_code());
  std::string custom =
      opcode.custom_code() ? opcode.custom_code()->str() : std::string();
  std::string name = operatorName(code, custom);
  int32_t version = opcode.version();
  // Tensor indices first: every handler may then read them.
  auto checkIndices = [&](const flatbuffers::Vector<int32_t> *list,
                          const char *what, bool optional) -> LogicalResult {
    if (!list)
      return success();
    for (int32_t t : *list)
      if ((t < 0 && !(optional && t == -1)) ||
          (t >= 0 && uint32_t(t) >= graph->tensors()->size()))
        return emitError(loc) << "operator " << index << " (" << name
                              << "): " << what << " tensor index " << t
                              << " is out of range (the subgraph has "
                              << graph->tensors()->size() << " tensors)";
    return success();
  };
  if (failed(checkIndices(op.inputs(), "input", true)) ||
      failed(checkIndices(op.outputs(), "output", false)))
    return failure();
  OpContext ctx(*this, op, index, code, version, name);
  const OpEntry *entry = OpRegistry::get().lookup(code, custom);
  if (!entry) {
    if (code == kCustom && custom == "TFLite_Detection_PostProcess")
      return ctx.error()
             << "custom operator 'TFLite_Detection_PostProcess' is not "
                "supported: its non-maximum suppression has no TOSA form; "
                "export the model without it (its inputs, the box "
                "encodings and class scores, as outputs) and decode the "
                "boxes in the app";
    if (code == kCustom)
      return ctx.error() << "custom operator '" << custom
                         << "' is not supported";
    if (name.rfind("builtin ", 0) == 0)
      return ctx.error() << "operator code " << code
                         << " is not one this compiler's schema knows";
    return ctx.error() << "operator " << name << " is not supported";
  }
  if (version < entry->minVersion || version > entry->maxVersion)
    return ctx.error() << "version " << version << " of " << name
                       << " is not supported (versions " << entry->minVersion
                       << " to " << entry->maxVersion << " are)";
  if (op.outputs() == nullptr || op.outputs()->size() == 0)
    return ctx.error() << "the operator has no outputs";
  // Dynamic dimensions only where the handler computes shapes from its
  // operands (OpEntry::dynamic).
  if (dynamicImport && !entry->dynamic) {
    auto refuse = [&](const Twine &tensor, RankedTensorType type) {
      return ctx.error() << "does not take dynamic dimensions yet: "
                         << tensor << " is " << shapeText(type.getShape())
                         << " (without ? in --input-shape, the model "
                            "compiles at its stored size)";
    };
    for (int i = 0; i < ctx.numInputs(); ++i) {
      if (!ctx.has(i))
        continue;
      Value v = slots[ctx.inputIndex(i)].value;
      if (v && !typeOf(v).hasStaticShape())
        return refuse("input " + Twine(i) + " (" +
                          tensorName(ctx.inputIndex(i)) + ")",
                      typeOf(v));
    }
    for (int i = 0, e = int(op.outputs()->size()); i < e; ++i) {
      FailureOr<RankedTensorType> type = ctx.outType(i);
      if (succeeded(type) && !type->hasStaticShape())
        return refuse("output " + Twine(i) + " (" +
                          tensorName(ctx.outputIndex(i)) + ")",
                      *type);
    }
  }
  // An input nothing defined: a model input, constant or earlier output
  // must define every tensor an operator reads.
  for (int i = 0; i < ctx.numInputs(); ++i) {
    if (!ctx.has(i))
      continue;
    const Slot &slot = slots[ctx.inputIndex(i)];
    if (!slot.value && !slot.constant)
      return ctx.error() << "input " << i << " ("
                         << tensorName(ctx.inputIndex(i))
                         << ") is defined by no input, constant or earlier "
                            "operator";
  }
  // A handler that reads an omitted input gets a null value and fails; it
  // need not say so itself. Nothing is refused without a message.
  bool reported = false;
  LogicalResult result = [&] {
    ScopedDiagnosticHandler watch(ctx.b.getContext(), [&](Diagnostic &d) {
      reported |= d.getSeverity() == DiagnosticSeverity::Error;
      return failure(); // and on to the handler that reports it
    });
    return entry->handler(ctx);
  }();
  if (succeeded(result) || reported)
    return result;
  for (int i = 0; i < ctx.numInputs(); ++i)
    if (!ctx.has(i))
      return ctx.error() << "input " << i
                         << " is omitted, where the operator needs it";
  return ctx.error() << "internal error: refused without a reason";
}

bool Importer::defineInputs(func::FuncOp func, ArrayRef<int32_t> inputs) {
  bool ok = true;
  Block &body = func.front();
  for (auto [i, index] : llvm::enumerate(inputs)) {
    const tflite::Tensor &t = *graph->tensors()->Get(index);
    Value arg = body.getArgument(i);
    Type held = *elementType(t, "");
    RankedTensorType heldType =
        RankedTensorType::get(typeOf(arg).getShape(), held);
    if (t.type() == tflite::TensorType_UINT8 ||
        t.type() == tflite::TensorType_UINT16 ||
        t.type() == tflite::TensorType_UINT32) {
      func.setArgAttr(i, NNAPIDialect::kUnsignedAttrName,
                      builder.getUnitAttr());
      Type wide = t.type() == tflite::TensorType_UINT32
                      ? Type(builder.getI64Type())
                      : Type(builder.getI32Type());
      arg = builder.create<arith::ExtUIOp>(
          fileLoc, RankedTensorType::get(heldType.getShape(), wide), arg);
      if (isQuantized8(t))
        arg = signedStorageOf(*this, arg, signedStorage);
    }
    if (typeOf(arg) != heldType) {
      emitError(fileLoc) << "internal error: input " << i << " is held as "
                         << typeOf(arg) << ", not " << heldType;
      ok = false;
    }
    slots[index].value = arg;
  }
  return ok;
}

/// The element type a tensor has in the entry function's signature: its
/// held type, but unsigned data at its own width.
static Type boundaryType(OpBuilder &b, const tflite::Tensor &t, Type held) {
  switch (t.type()) {
  case tflite::TensorType_UINT8:
    return b.getIntegerType(8);
  case tflite::TensorType_UINT16:
    return b.getIntegerType(16);
  case tflite::TensorType_UINT32:
    return b.getIntegerType(32);
  default:
    return held;
  }
}

bool Importer::loadConstants() {
  bool ok = true;
  for (size_t i = 0; i < slots.size(); ++i) {
    const tflite::Tensor *t = graph->tensors()->Get(i);
    if (t->external_buffer() != 0) {
      emitError(fileLoc) << tensorName(int32_t(i))
                         << " keeps its data in an external buffer (another "
                            "file), which is not supported";
      ok = false;
      continue;
    }
    FailureOr<DenseElementsAttr> c = constantOf(*t, tensorName(int32_t(i)));
    if (failed(c)) {
      ok = false;
      continue;
    }
    if (!*c && t->is_variable()) {
      // A variable (a recurrent layer's state) reads as zeros, as TFLite's
      // interpreter leaves it before its first Invoke: every run of the
      // compiled model starts from there (TFLite carries the state from
      // one Invoke to the next).
      FailureOr<RankedTensorType> type =
          tensorType(*t, tensorName(int32_t(i)));
      if (failed(type)) {
        ok = false;
        continue;
      }
      c = DenseElementsAttr::get(
          *type, builder.getZeroAttr(type->getElementType()));
    }
    slots[i].constant = *c;
  }
  return ok;
}

bool Importer::importOperators() {
  bool ok = true;
  auto validTensor = [&](int32_t t) {
    return t >= 0 && size_t(t) < slots.size();
  };
  // Operators, in order (TFLite stores them topologically sorted).
  if (const auto *ops = graph->operators())
    for (auto [index, op] : llvm::enumerate(*ops)) {
      std::string first;
      if (op->outputs() && op->outputs()->size() &&
          validTensor(op->outputs()->Get(0)))
        if (const flatbuffers::String *n =
                graph->tensors()->Get(op->outputs()->Get(0))->name())
          first = n->str();
      loc = NameLoc::get(
          builder.getStringAttr(first),
          FileLineColLoc::get(fileLoc->getContext(),
                              cast<FileLineColLoc>(fileLoc).getFilename(),
                              unsigned(index + 1), 0));
      // An operator fed by a refused one is skipped silently: each refusal
      // is reported once, at the operator refused.
      bool fedByFailure = false;
      if (op->inputs())
        for (int32_t t : *op->inputs())
          fedByFailure |= validTensor(t) && slots[t].failed;
      if (fedByFailure || failed(importOperator(uint32_t(index), *op))) {
        if (op->outputs())
          for (int32_t t : *op->outputs())
            if (validTensor(t))
              slots[t].failed = true;
        ok = false;
      }
    }
  return ok;
}

FailureOr<SmallVector<Value>>
Importer::importSubgraph(uint32_t index, ValueRange args, const Twine &caller) {
  const auto *subgraphs = model.subgraphs();
  if (index >= subgraphs->size())
    return emitError(loc) << caller << " names subgraph " << index
                          << ", beyond the model's " << subgraphs->size();
  if (llvm::is_contained(activeGraphs, index))
    return emitError(loc) << caller << " runs subgraph " << index
                          << ", which is being imported already: a subgraph "
                             "may not run itself";
  constexpr size_t kMaxNesting = 16;
  if (activeGraphs.size() >= kMaxNesting)
    return emitError(loc) << caller << " nests subgraphs more than "
                          << kMaxNesting << " deep";
  const tflite::SubGraph *g = subgraphs->Get(index);
  size_t numTensors = g->tensors() ? g->tensors()->size() : 0;
  size_t numInputs = g->inputs() ? g->inputs()->size() : 0;
  if (numInputs != args.size())
    return emitError(loc) << caller << " passes " << args.size()
                          << " values to subgraph " << index << ", which has "
                          << numInputs << " inputs";

  // The caller's subgraph comes back whatever happens here.
  const tflite::SubGraph *savedGraph = graph;
  uint32_t savedIndex = graphIndex;
  std::vector<Slot> savedSlots = std::move(slots);
  llvm::DenseMap<Value, Value> savedStorage = signedStorage;
  Location savedLoc = loc;
  auto restore = llvm::make_scope_exit([&] {
    graph = savedGraph;
    graphIndex = savedIndex;
    slots = std::move(savedSlots);
    signedStorage = std::move(savedStorage);
    loc = savedLoc;
    activeGraphs.pop_back();
  });
  activeGraphs.push_back(index);
  graph = g;
  graphIndex = index;
  slots.assign(numTensors, Slot());
  Location callerLoc = loc;
  if (!loadConstants())
    return failure();
  for (auto [i, arg] : llvm::enumerate(args)) {
    int32_t t = g->inputs()->Get(i);
    if (t < 0 || size_t(t) >= numTensors)
      return emitError(callerLoc) << "subgraph " << index << "'s input " << i
                                  << " is tensor " << t << ", not one of its "
                                  << numTensors << " tensors";
    FailureOr<RankedTensorType> type =
        tensorType(*g->tensors()->Get(t), tensorName(t));
    if (failed(type))
      return failure();
    if (*type != arg.getType())
      return emitError(callerLoc)
             << caller << " passes " << arg.getType() << " as input " << i
             << " of subgraph " << index << ", whose " << tensorName(t)
             << " is " << *type;
    slots[t].value = arg;
    slots[t].constant = {};
  }
  if (!importOperators())
    return failure();
  SmallVector<Value> results;
  if (const auto *outs = g->outputs())
    for (auto [k, t] : llvm::enumerate(*outs)) {
      if (t < 0 || size_t(t) >= numTensors)
        return emitError(callerLoc) << "subgraph " << index << "'s output " << k
                                    << " is tensor " << t
                                    << ", not one of its " << numTensors
                                    << " tensors";
      Value v = slots[t].value;
      if (!v && slots[t].constant)
        v = constant(slots[t].constant);
      if (!v)
        return emitError(callerLoc) << "subgraph " << index << "'s output " << k
                                    << " (" << tensorName(t)
                                    << ") is computed by no operator";
      results.push_back(v);
    }
  return results;
}

OwningOpRef<ModuleOp> Importer::run() {
  const auto *subgraphs = model.subgraphs();
  if (!subgraphs || subgraphs->size() == 0) {
    emitError(fileLoc) << "the model has no subgraphs";
    return nullptr;
  }
  // The entry: the SignatureDef asked for, else the first, else subgraph 0.
  uint32_t entry = 0;
  const tflite::SignatureDef *signature = nullptr;
  if (const auto *sigs = model.signature_defs()) {
    for (const tflite::SignatureDef *s : *sigs) {
      std::string key = s->signature_key() ? s->signature_key()->str() : "";
      if (options.signature.empty() || key == options.signature) {
        signature = s;
        break;
      }
    }
  }
  if (!options.signature.empty() && !signature) {
    InFlightDiagnostic d = emitError(fileLoc)
                           << "the model has no signature '"
                           << options.signature << "' (it has:";
    if (const auto *sigs = model.signature_defs())
      for (const tflite::SignatureDef *s : *sigs)
        d << " '" << (s->signature_key() ? s->signature_key()->str() : "")
          << "'";
    d << ")";
    return nullptr;
  }
  if (signature)
    entry = signature->subgraph_index();
  entryGraph = graphIndex = entry;
  activeGraphs.push_back(entry);
  if (entry >= subgraphs->size()) {
    emitError(fileLoc) << "the signature names subgraph " << entry
                       << ", beyond the model's " << subgraphs->size();
    return nullptr;
  }
  graph = subgraphs->Get(entry);
  size_t numTensors = graph->tensors() ? graph->tensors()->size() : 0;
  slots.assign(numTensors, Slot());
  auto validTensor = [&](int32_t t) {
    return t >= 0 && size_t(t) < numTensors;
  };

  // Inputs and outputs: the subgraph's, named by the signature.
  auto collect = [&](const flatbuffers::Vector<int32_t> *list,
                     const flatbuffers::Vector<
                         flatbuffers::Offset<tflite::TensorMap>> *maps,
                     std::vector<int32_t> &indices,
                     std::vector<std::string> &names,
                     const char *what) -> bool {
    if (list)
      for (int32_t t : *list) {
        if (!validTensor(t)) {
          emitError(fileLoc) << "subgraph " << entry << "'s " << what << " "
                             << t << " is not one of its " << numTensors
                             << " tensors";
          return false;
        }
        indices.push_back(t);
        const flatbuffers::String *n = graph->tensors()->Get(t)->name();
        names.push_back(n ? n->str() : what + std::to_string(indices.size()));
      }
    if (maps)
      for (const tflite::TensorMap *m : *maps) {
        auto it = llvm::find(indices, int32_t(m->tensor_index()));
        if (it == indices.end()) {
          emitError(fileLoc) << "the signature's " << what << " '"
                             << (m->name() ? m->name()->str() : "")
                             << "' names " << tensorName(m->tensor_index())
                             << ", which is not one of the subgraph's "
                             << what << "s";
          return false;
        }
        if (m->name())
          names[it - indices.begin()] = m->name()->str();
      }
    return true;
  };
  if (!collect(graph->inputs(), signature ? signature->inputs() : nullptr,
               inputTensors, inputNames, "input") ||
      !collect(graph->outputs(), signature ? signature->outputs() : nullptr,
               outputTensors, outputNames, "output"))
    return nullptr;
  if (outputTensors.empty()) {
    emitError(fileLoc) << "subgraph " << entry
                       << " has no outputs: there is nothing to compute";
    return nullptr;
  }

  bool ok = loadConstants();
  // Unknown dimensions kept dynamic: an input's given as -1 (? or a range).
  dynamicImport = llvm::any_of(options.inputShapes, [](const auto &entry) {
    return llvm::is_contained(entry.second, int64_t(-1));
  });
  // The entry function's arguments: its inputs, shapes given for unknown
  // (-1) dimensions of the shape signature.
  SmallVector<Type> argTypes;
  for (auto [k, index] : llvm::enumerate(inputTensors)) {
    const tflite::Tensor &t = *graph->tensors()->Get(index);
    std::string what = "input '" + inputNames[k] + "'";
    FailureOr<RankedTensorType> type = tensorType(t, what);
    if (failed(type)) {
      ok = false;
      continue;
    }
    Shape shape(type->getShape());
    auto given = options.inputShapes.find(inputNames[k]);
    bool dynamic = false;
    if (const auto *sig = t.shape_signature()) {
      if (sig->size() != shape.size()) {
        emitError(fileLoc) << what << " has a shape signature of rank "
                           << sig->size() << " and a shape of rank "
                           << shape.size();
        ok = false;
        continue;
      }
      for (size_t d = 0; d < sig->size(); ++d)
        dynamic |= sig->Get(d) < 0;
    }
    // Every tensor of the file carries the shape the converter computed
    // with 1 (or a sample size) for each unknown dimension, and the
    // handlers read operator outputs' shapes from the file: the model is
    // imported at those sizes, as TensorFlow Lite's interpreter runs it
    // until an input is resized. Other sizes would need every operator's
    // shape rule (docs/design.md, "TFLite's unknown dimensions").
    if (given != options.inputShapes.end() && dynamicImport) {
      // Every unknown dimension is dynamic then (the file's signatures say
      // so for the tensors computed from it), every other one as stored.
      const std::vector<int64_t> &dims = given->second;
      bool fits = dims.size() == shape.size();
      for (size_t d = 0; fits && d < dims.size(); ++d)
        fits = ShapedType::isDynamic(shape[d]) ? dims[d] == -1
                                               : dims[d] == shape[d];
      if (!fits) {
        emitError(fileLoc)
            << what << " has shape " << shapeText(shape, "-1")
            << "; with a dimension kept dynamic, --input-shape gives ? (or a "
               "range) for each unknown (-1) dimension and the stored size "
               "for the others";
        ok = false;
        continue;
      }
    } else if (given != options.inputShapes.end()) {
      const std::vector<int64_t> &dims = given->second;
      bool fits = dims.size() == shape.size();
      const auto *sig = t.shape_signature();
      for (size_t d = 0; fits && d < dims.size(); ++d)
        fits = (sig && sig->Get(d) < 0) || dims[d] == shape[d];
      if (!fits) {
        InFlightDiagnostic d = emitError(fileLoc) << what << " has shape ";
        if (sig)
          llvm::interleave(*sig, d, "x");
        else
          llvm::interleave(shape, d, "x");
        d << "; --input-shape may only set its unknown (-1) dimensions, at "
             "its rank";
        ok = false;
        continue;
      }
      if (!llvm::equal(dims, shape)) {
        InFlightDiagnostic d = emitError(fileLoc) << what << " is stored at ";
        llvm::interleave(shape, d, "x");
        d << ", and its unknown dimensions can only take those sizes (the "
             "file records every tensor's shape for them; import at other "
             "sizes is not supported): convert the model at the size you "
             "need";
        ok = false;
        continue;
      }
    } else if (dynamic && !dynamicImport) {
      InFlightDiagnostic d =
          emitWarning(fileLoc)
          << what << " has unknown (-1) dimensions; it is compiled at the "
          << "size the file stores, ";
      llvm::interleave(shape, d, "x");
      d << ", as TensorFlow Lite runs it unless resized";
    }
    Shape sized(shape);
    for (int64_t &s : sized)
      if (ShapedType::isDynamic(s))
        s = 1;
    if (checkedCount(sized) < 0) {
      emitError(fileLoc) << what << " has a shape too large";
      ok = false;
      continue;
    }
    argTypes.push_back(RankedTensorType::get(
        shape, boundaryType(builder, t, type->getElementType())));
  }
  for (const auto &[name, dims] : options.inputShapes)
    if (!llvm::is_contained(inputNames, name)) {
      emitError(fileLoc) << "--input-shape names '" << name
                         << "', which is not an input of the model";
      ok = false;
    }
  if (!ok)
    return nullptr;

  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());
  auto func = builder.create<func::FuncOp>(
      fileLoc, "main", builder.getFunctionType(argTypes, {}));
  func.addEntryBlock();
  builder.setInsertionPointToStart(&func.front());
  for (auto [i, name] : llvm::enumerate(inputNames)) {
    func.setArgAttr(i, NNAPIDialect::kNameAttrName,
                    builder.getStringAttr(name));
    auto ranges = options.inputDimRanges.find(name);
    if (dynamicImport && ranges != options.inputDimRanges.end() &&
        !ranges->second.empty())
      func.setArgAttr(i, NNAPIDialect::kDimRangesAttrName,
                      builder.getDenseI64ArrayAttr(ranges->second));
  }
  if (!defineInputs(func, inputTensors))
    return nullptr;

  ok = importOperators();
  loc = fileLoc;
  if (!ok)
    return nullptr;

  SmallVector<Value> results;
  SmallVector<Type> resultTypes;
  for (auto [k, index] : llvm::enumerate(outputTensors)) {
    Slot &slot = slots[index];
    Value v = slot.value;
    if (!v && slot.constant)
      v = constant(slot.constant);
    if (!v) {
      emitError(fileLoc) << "output '" << outputNames[k]
                         << "' is computed by no operator";
      return nullptr;
    }
    const tflite::Tensor &t = *graph->tensors()->Get(index);
    if (isQuantized8(t) && t.type() == tflite::TensorType_UINT8)
      v = unsignedValueOf(*this, v, signedStorage);
    Type boundary = boundaryType(builder, t, typeOf(v).getElementType());
    if (boundary != typeOf(v).getElementType())
      v = builder.create<arith::TruncIOp>(
          fileLoc, RankedTensorType::get(typeOf(v).getShape(), boundary), v);
    results.push_back(v);
    resultTypes.push_back(v.getType());
  }
  func.setType(builder.getFunctionType(argTypes, resultTypes));
  for (auto [i, name] : llvm::enumerate(outputNames)) {
    func.setResultAttr(i, NNAPIDialect::kNameAttrName,
                       builder.getStringAttr(name));
    tflite::TensorType type =
        graph->tensors()->Get(outputTensors[i])->type();
    if (type == tflite::TensorType_UINT8 || type == tflite::TensorType_UINT16 ||
        type == tflite::TensorType_UINT32)
      func.setResultAttr(i, NNAPIDialect::kUnsignedAttrName,
                         builder.getUnitAttr());
  }
  builder.create<func::ReturnOp>(fileLoc, results);
  // A handler that built an op TOSA rejects is a bug, but must still end in
  // a diagnostic rather than a crash further down.
  if (failed(mlir::verify(*module)))
    return nullptr;
  return module;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

bool mlir::nnapi::looksLikeTFLite(StringRef bytes) {
  return bytes.size() >= 8 && bytes.substr(4, 4) == tflite::ModelIdentifier();
}

OwningOpRef<ModuleOp> mlir::nnapi::importTFLite(StringRef data, StringRef name,
                                                MLIRContext *context,
                                                const TFLiteImportOptions &options) {
  context->loadDialect<tosa::TosaDialect, func::FuncDialect,
                       arith::ArithDialect, NNAPIDialect>();
  Location fileLoc = FileLineColLoc::get(context, name, 0, 0);
  if (!looksLikeTFLite(data)) {
    emitError(fileLoc) << "'" << name
                       << "' is not a TFLite model (no 'TFL3' file "
                          "identifier)";
    return nullptr;
  }
  // The flatbuffer itself is at most 2 GB; larger models keep their
  // buffers after it (Buffer.offset), which the importer checks itself.
  size_t size = std::min<size_t>(data.size(), FLATBUFFERS_MAX_BUFFER_SIZE - 1);
  // Verifying needs the buffer aligned as the flatbuffer was written.
  std::string aligned;
  const char *bytes = data.data();
  if (reinterpret_cast<uintptr_t>(bytes) % 16 != 0) {
    aligned.assign(data.data(), data.size());
    bytes = aligned.data();
    data = aligned;
  }
  flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t *>(bytes),
                                 size, /*max_depth=*/64,
                                 /*max_tables=*/10000000);
  if (!tflite::VerifyModelBuffer(verifier)) {
    emitError(fileLoc) << "'" << name
                       << "' fails the flatbuffers verifier: it is "
                          "truncated, corrupt, or not a TFLite model";
    return nullptr;
  }
  const tflite::Model *model = tflite::GetModel(bytes);
  if (model->version() != 3) {
    emitError(fileLoc) << "'" << name << "' has TFLite schema version "
                       << model->version() << "; version 3 is supported";
    return nullptr;
  }
  if (model->external_buffers() && model->external_buffers()->size()) {
    emitError(fileLoc) << "'" << name
                       << "' keeps tensor data in external buffers (other "
                          "files), which is not supported";
    return nullptr;
  }
  Importer importer(context, data, *model, name, options);
  return importer.run();
}

OwningOpRef<ModuleOp>
mlir::nnapi::importTFLiteFile(StringRef path, MLIRContext *context,
                              const TFLiteImportOptions &options) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file) {
    emitError(FileLineColLoc::get(context, path, 0, 0))
        << "cannot open '" << path << "': " << file.getError().message();
    return nullptr;
  }
  return importTFLite((*file)->getBuffer(), path, context, options);
}
