//===- NNAPIToRuntime.cpp - Partitions become blobs and runtime calls -----===//
//
// The passes that turn outlined partitions into something the host pipeline
// can compile: blobs as module constants (nnapi-serialize-partitions), a
// description of the entry point (nnapi-export-signature), and the C entry
// points in the LLVM dialect (nnapi-emit-entry-point). The runtime dispatch
// of partition calls is LowerPartitionCalls.cpp.
//
//===----------------------------------------------------------------------===//

#include "DynamicShapes.h"
#include "nnapi-mlir/Conversion/Passes.h"
#include "nnapi-mlir/Conversion/TosaToNNAPI/TosaToNNAPI.h"
#include "nnapi-mlir/Runtime/ModelABI.h"
#include "nnapi-mlir/Runtime/Runtime.h"
#include "nnapi-mlir/Support/Sha256.h"
#include "nnapi-mlir/Target/NNAPIBlob/NNAPIBlob.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPISERIALIZEPARTITIONS
#define GEN_PASS_DEF_NNAPIEXPORTSIGNATURE
#define GEN_PASS_DEF_NNAPIEMITENTRYPOINT
#include "nnapi-mlir/Conversion/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;
using namespace mlir::nnapi;

namespace {

unsigned partitionFeatureLevel(func::FuncOp func) {
  if (auto attr =
          func->getAttrOfType<IntegerAttr>(NNAPIDialect::kFeatureLevelAttrName))
    return attr.getInt();
  return 7;
}

//===----------------------------------------------------------------------===//
// nnapi-serialize-partitions
//===----------------------------------------------------------------------===//

struct SerializePartitionsPass
    : public nnapi::impl::NNAPISerializePartitionsBase<SerializePartitionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> partitions;
    for (auto func : module.getOps<func::FuncOp>())
      if (func->hasAttr(NNAPIDialect::kPartitionAttrName) &&
          !func->hasAttr(NNAPIDialect::kBlobAttrName))
        partitions.push_back(func);
    for (func::FuncOp func : partitions) {
      // Convert a copy: the TOSA original stays as the host copy.
      auto copy = cast<func::FuncOp>(func->clone());
      auto erase = llvm::make_scope_exit([&] { copy.erase(); });
      if (failed(convertPartitionToNNAPI(copy, partitionFeatureLevel(func))))
        return signalPassFailure();
      FailureOr<std::vector<uint8_t>> bytes = serializeToBlob(copy);
      if (failed(bytes))
        return signalPassFailure();

      OpBuilder builder(module.getBodyRegion());
      builder.setInsertionPointToEnd(module.getBody());
      auto i8 = builder.getIntegerType(8);
      int64_t size = static_cast<int64_t>(bytes->size());
      auto init = DenseElementsAttr::getFromRawBuffer(
          RankedTensorType::get({size}, i8),
          ArrayRef<char>(reinterpret_cast<const char *>(bytes->data()),
                         bytes->size()));
      auto global = builder.create<memref::GlobalOp>(
          func.getLoc(), (func.getSymName() + "_blob").str(),
          builder.getStringAttr("private"), MemRefType::get({size}, i8), init,
          /*constant=*/true, builder.getI64IntegerAttr(64));
      symbols.insert(global);
      func->setAttr(NNAPIDialect::kBlobAttrName,
                    FlatSymbolRefAttr::get(global.getSymNameAttr()));
    }
  }
};

//===----------------------------------------------------------------------===//
// nnapi-export-signature
//===----------------------------------------------------------------------===//

/// A tensor's element type and dimensions as the signature writes them:
/// a dynamic dimension is "?" or, with a declared range (`ranges`, a (low,
/// high) pair per dynamic dimension), "[low..high]" (version 5).
FailureOr<std::string> describeTensor(Operation *where, Type type,
                                      bool isUnsigned,
                                      ArrayRef<int64_t> ranges = {}) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return where->emitError("the entry function must take and return "
                            "ranked tensors, got ")
           << type;
  std::string s;
  llvm::raw_string_ostream os(s);
  Type e = tensor.getElementType();
  if (e.isF64())
    os << "f64";
  else if (e.isF32())
    os << "f32";
  else if (e.isF16())
    os << "f16";
  else if (e.isBF16())
    os << "bf16";
  else if (e.isSignlessInteger())
    os << (isUnsigned && !e.isInteger(1) ? "u" : "i") << e.getIntOrFloatBitWidth();
  else if (e.isUnsignedInteger(8)) // quantized TOSA's uint8 data
    os << "u8";
  else
    return where->emitError("unsupported entry element type ") << e;
  os << " ";
  if (tensor.getRank() == 0)
    os << "scalar";
  int64_t numDynamic = tensor.getNumDynamicDims();
  if (!ranges.empty() && int64_t(ranges.size()) != 2 * numDynamic)
    return where->emitError()
           << "'" << NNAPIDialect::kDimRangesAttrName << "' needs a (low, high) "
           << "pair for each of the " << numDynamic
           << " dynamic dimensions of " << type;
  unsigned next = 0;
  for (int64_t d = 0; d < tensor.getRank(); ++d) {
    if (d)
      os << "x";
    if (!tensor.isDynamicDim(d)) {
      os << tensor.getDimSize(d);
      continue;
    }
    if (ranges.empty()) {
      os << "?";
      continue;
    }
    int64_t low = ranges[next++], high = ranges[next++];
    if (low < 1 || high < low || high > NNAPI_MODEL_MAX_DYNAMIC_DIM)
      return where->emitError()
             << "dimension " << d << " of " << type << " has range [" << low
             << ".." << high << "]; a range must satisfy 1 <= low <= high <= "
             << NNAPI_MODEL_MAX_DYNAMIC_DIM;
    os << "[" << low << ".." << high << "]";
  }
  return s;
}

/// A tensor's name as the signature holds it (version 4): bytes other than
/// letters, digits and "_.-:/" as %XX, so that any name (spaces, quotes,
/// newlines, UTF-8) stays one field of its line; "-" alone, which once
/// meant "no name", as %2D.
std::string encodeName(StringRef name) {
  if (name == "-")
    return "%2D";
  std::string out;
  for (unsigned char c : name) {
    if (llvm::isAlnum(c) || StringRef("_.-:/").contains(c)) {
      out.push_back(char(c));
      continue;
    }
    out += '%';
    out += llvm::hexdigit(c >> 4);
    out += llvm::hexdigit(c & 15);
  }
  return out;
}

/// --shape-buckets as the signature's 'bucket' lines: for each shape, one
/// for every input ("1x1x32x100,4", "scalar" for a rank-0 one), its static
/// dimensions as declared and its dynamic ones within their ranges.
LogicalResult writeBuckets(func::FuncOp func, StringRef text,
                           llvm::raw_ostream &os) {
  if (text.empty())
    return success();
  FunctionType type = func.getFunctionType();
  if (!llvm::any_of(type.getInputs(), isDynamicShape))
    return func.emitError("--shape-buckets: the model has no dynamic input "
                          "dimension");
  SmallVector<StringRef> buckets;
  text.split(buckets, ';', -1, /*KeepEmpty=*/false);
  for (auto [k, bucket] : llvm::enumerate(buckets)) {
    auto bad = [&, k = k, bucket = bucket]() {
      return func.emitError() << "--shape-buckets: shape " << k + 1 << " ('"
                              << bucket << "'): ";
    };
    SmallVector<StringRef> shapes;
    bucket.split(shapes, ',');
    if (shapes.size() != type.getNumInputs())
      return bad() << "gives " << shapes.size() << " input shapes; the model "
                   << "has " << type.getNumInputs() << " inputs";
    os << "bucket ";
    for (auto [i, shape] : llvm::enumerate(shapes)) {
      auto tensor = cast<RankedTensorType>(type.getInput(i));
      ArrayRef<int64_t> ranges;
      if (auto r = func.getArgAttrOfType<DenseI64ArrayAttr>(
              i, NNAPIDialect::kDimRangesAttrName))
        ranges = r.asArrayRef();
      SmallVector<StringRef> dims;
      shape = shape.trim();
      if (tensor.getRank() == 0 && shape == "scalar") {
        os << shape << (i + 1 < shapes.size() ? "," : "");
        continue;
      }
      shape.split(dims, 'x');
      if (int64_t(dims.size()) != tensor.getRank())
        return bad() << "input " << i << " has rank " << tensor.getRank()
                     << ", the shape has " << dims.size()
                     << " dimensions";
      unsigned next = 0;
      for (auto [d, text] : llvm::enumerate(dims)) {
        int64_t v;
        if (text.getAsInteger(10, v) || v < 1 || v > NNAPI_MODEL_MAX_DYNAMIC_DIM)
          return bad() << "input " << i << " dimension " << d << " '" << text
                       << "' is not a size from 1 to "
                       << NNAPI_MODEL_MAX_DYNAMIC_DIM;
        if (!tensor.isDynamicDim(d) && v != tensor.getDimSize(d))
          return bad() << "input " << i << " dimension " << d << " is " << v
                       << "; the model's is " << tensor.getDimSize(d);
        if (tensor.isDynamicDim(d) && !ranges.empty()) {
          int64_t low = ranges[2 * next], high = ranges[2 * next + 1];
          ++next;
          if (v < low || v > high)
            return bad() << "input " << i << " dimension " << d << " is " << v
                         << ", outside its range [" << low << ".." << high
                         << "]";
        }
        os << (d ? "x" : "") << v;
      }
      os << (i + 1 < shapes.size() ? "," : "");
    }
    os << "\n";
  }
  return success();
}

struct ExportSignaturePass
    : public nnapi::impl::NNAPIExportSignatureBase<ExportSignaturePass> {
  using NNAPIExportSignatureBase::NNAPIExportSignatureBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal()) {
      module.emitError() << "entry function '@" << entry << "' not found";
      return signalPassFailure();
    }
    unsigned partitions = 0;
    for (auto f : module.getOps<func::FuncOp>())
      partitions += f->hasAttr(NNAPIDialect::kPartitionAttrName);
    std::string text;
    llvm::raw_string_ostream os(text);
    // Version 3 ended with a checksum of the text, which the runtime
    // verifies (the sizes it checks buffers against come from here); runtimes
    // that know only versions 1 and 2 refuse it rather than skip the check
    // or, for "bound" inputs (version 2), the value check. Version 4 encodes
    // names (encodeName).
    // Version 5 adds dynamic dimensions; a static model stays version 4,
    // which runtimes before them read.
    bool dynamic = llvm::any_of(func.getArgumentTypes(), isDynamicShape) ||
                   llvm::any_of(func.getResultTypes(), isDynamicShape);
    os << "nnapi-mlir-model " << (dynamic ? 5 : 4) << "\npartitions "
       << partitions << "\n";
    auto describe = [&](StringRef kind, unsigned i, Type type,
                        DictionaryAttr attrs) {
      ArrayRef<int64_t> ranges;
      if (attrs)
        if (auto r = attrs.getAs<DenseI64ArrayAttr>(
                NNAPIDialect::kDimRangesAttrName))
          ranges = r.asArrayRef();
      FailureOr<std::string> t = describeTensor(
          func, type,
          attrs && attrs.contains(NNAPIDialect::kUnsignedAttrName), ranges);
      if (failed(t))
        return false;
      std::string name = (kind == "input" ? "arg" : "result") + std::to_string(i);
      if (attrs)
        if (auto n = attrs.getAs<StringAttr>(NNAPIDialect::kNameAttrName))
          name = n.str();
      os << kind << " " << i << " " << encodeName(name) << " " << *t;
      if (attrs && attrs.contains(NNAPIDialect::kBoundAttrName))
        os << " bound";
      os << "\n";
      return true;
    };
    FunctionType type = func.getFunctionType();
    SmallVector<NamedAttribute> bound;
    for (unsigned i = 0; i < type.getNumInputs(); ++i) {
      if (!describe("input", i, type.getInput(i), func.getArgAttrDict(i)))
        return signalPassFailure();
      if (Attribute value = func.getArgAttr(i, NNAPIDialect::kBoundAttrName)) {
        auto dense = dyn_cast<DenseElementsAttr>(value);
        auto argType = dyn_cast<ShapedType>(type.getInput(i));
        if (!dense || !argType ||
            dense.getType().getShape() != argType.getShape() ||
            dense.getElementType() != argType.getElementType()) {
          func.emitError() << "'" << NNAPIDialect::kBoundAttrName
                           << "' on argument " << i
                           << " must be a dense value of the argument's type";
          return signalPassFailure();
        }
        bound.emplace_back(
            StringAttr::get(module.getContext(), std::to_string(i)), dense);
      }
    }
    if (!bound.empty())
      module->setAttr(NNAPIDialect::kBoundInputsAttrName,
                      DictionaryAttr::get(module.getContext(), bound));
    for (unsigned i = 0; i < type.getNumResults(); ++i)
      if (!describe("output", i, type.getResult(i), func.getResultAttrDict(i)))
        return signalPassFailure();
    if (failed(writeBuckets(func, shapeBuckets, os)))
      return signalPassFailure();
    os.flush();
    std::string checksum = nnapi_mlir::Sha256::hex(
        nnapi_mlir::Sha256().update(text.data(), text.size()).finish());
    os << "checksum " << checksum << "\n";
    module->setAttr(NNAPIDialect::kSignatureAttrName,
                    StringAttr::get(module.getContext(), os.str()));
    // Names and signedness now live in the signature; LLVM has no use for
    // them.
    for (StringRef attr :
         {NNAPIDialect::kNameAttrName, NNAPIDialect::kUnsignedAttrName,
          NNAPIDialect::kBoundAttrName, NNAPIDialect::kDimRangesAttrName}) {
      auto name = StringAttr::get(module.getContext(), attr);
      for (unsigned i = 0; i < type.getNumInputs(); ++i)
        func.removeArgAttr(i, name);
      for (unsigned i = 0; i < type.getNumResults(); ++i)
        func.removeResultAttr(i, name);
    }
    dropEmptyBuffers(func);
  }

  /// Inputs and outputs without elements stay in the signature (the caller
  /// passes a buffer for each) but leave the entry function: a zero-size
  /// buffer has no bare-pointer form, and there is nothing to read or
  /// write. An empty input is an empty constant inside; nnapi-emit-entry-
  /// point skips both when it calls the entry.
  static void dropEmptyBuffers(func::FuncOp func) {
    auto isEmpty = [](Type t) {
      auto shaped = dyn_cast<ShapedType>(t);
      return shaped && shaped.hasStaticShape() && shaped.getNumElements() == 0;
    };
    FunctionType type = func.getFunctionType();
    llvm::BitVector args(type.getNumInputs()), results(type.getNumResults());
    OpBuilder b(func.getContext());
    b.setInsertionPointToStart(&func.front());
    for (BlockArgument arg : func.getArguments()) {
      if (!isEmpty(arg.getType()))
        continue;
      args.set(arg.getArgNumber());
      auto t = cast<ShapedType>(arg.getType());
      arg.replaceAllUsesWith(b.create<arith::ConstantOp>(
          func.getLoc(), DenseElementsAttr::get(t, ArrayRef<Attribute>{})));
    }
    for (unsigned i = 0; i < type.getNumResults(); ++i)
      if (isEmpty(type.getResult(i)))
        results.set(i);
    if (args.none() && results.none())
      return;
    func.walk([&](func::ReturnOp ret) {
      for (int i = int(ret.getNumOperands()) - 1; i >= 0; --i)
        if (results.test(unsigned(i)))
          ret->eraseOperand(unsigned(i));
    });
    func.eraseArguments(args);
    func.eraseResults(results);
  }
};

//===----------------------------------------------------------------------===//
// nnapi-emit-entry-point
//===----------------------------------------------------------------------===//

/// The bytes a caller's buffer holds for `value` (little-endian; one byte
/// per i1).
std::string bufferBytes(DenseElementsAttr value) {
  std::string bytes;
  unsigned width = value.getElementType().getIntOrFloatBitWidth();
  unsigned size = std::max(1u, width / 8);
  auto put = [&](const APInt &bits) {
    APInt wide = bits.zext(8 * size);
    for (unsigned k = 0; k < size; ++k)
      bytes.push_back(char(wide.extractBitsAsZExtValue(8, 8 * k)));
  };
  if (isa<FloatType>(value.getElementType()))
    for (APFloat f : value.getValues<APFloat>())
      put(f.bitcastToAPInt());
  else
    for (APInt v : value.getValues<APInt>())
      put(v);
  return bytes;
}

/// Before the model runs: for each input bound to a value at compile time
/// (nnapi.bound_inputs), compare the caller's buffer with that value and
/// return 1 + the input's index on the first difference. `args` are the
/// loaded input pointers; the builder ends in the block that runs the model.
LogicalResult emitBoundInputChecks(ModuleOp module, LLVM::LLVMFuncOp run,
                                   OpBuilder &builder, ArrayRef<Value> args,
                                   unsigned numInputs) {
  auto bound =
      module->getAttrOfType<DictionaryAttr>(NNAPIDialect::kBoundInputsAttrName);
  if (!bound)
    return success();
  module->removeAttr(NNAPIDialect::kBoundInputsAttrName);
  MLIRContext *ctx = module.getContext();
  Location loc = run.getLoc();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto i32 = builder.getI32Type();
  auto i64 = builder.getI64Type();
  auto memcmp = module.lookupSymbol<LLVM::LLVMFuncOp>("memcmp");
  if (!memcmp) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(module.getBody());
    memcmp = builder.create<LLVM::LLVMFuncOp>(
        loc, "memcmp",
        LLVM::LLVMFunctionType::get(i32, {ptrType, ptrType, i64}));
  }
  for (NamedAttribute entry : bound) {
    unsigned index;
    auto value = dyn_cast<DenseElementsAttr>(entry.getValue());
    if (entry.getName().getValue().getAsInteger(10, index) ||
        index >= numInputs || !value)
      return module.emitError() << "'" << NNAPIDialect::kBoundInputsAttrName
                                << "' must map input indices below "
                                << numInputs << " to dense values";
    std::string bytes = bufferBytes(value);
    if (bytes.empty())
      continue;
    LLVM::GlobalOp global;
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToEnd(module.getBody());
      global = builder.create<LLVM::GlobalOp>(
          loc, LLVM::LLVMArrayType::get(builder.getI8Type(), bytes.size()),
          /*isConstant=*/true, LLVM::Linkage::Internal,
          "nnapi_bound_input_" + std::to_string(index),
          builder.getStringAttr(bytes));
    }
    Value expected = builder.create<LLVM::AddressOfOp>(loc, global);
    Value size = builder.create<LLVM::ConstantOp>(loc, i64, bytes.size());
    Value diff = builder
                     .create<LLVM::CallOp>(
                         loc, memcmp, ValueRange{args[index], expected, size})
                     .getResult();
    Value zero = builder.create<LLVM::ConstantOp>(loc, i32, 0);
    Value differs =
        builder.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::ne, diff, zero);
    Block *mismatch = new Block();
    Block *next = new Block();
    run.getBody().push_back(mismatch);
    run.getBody().push_back(next);
    builder.create<LLVM::CondBrOp>(loc, differs, mismatch, next);
    builder.setInsertionPointToStart(mismatch);
    Value code = builder.create<LLVM::ConstantOp>(loc, i32, index + 1);
    builder.create<LLVM::ReturnOp>(loc, code);
    builder.setInsertionPointToStart(next);
  }
  return success();
}

struct EmitEntryPointPass
    : public nnapi::impl::NNAPIEmitEntryPointBase<EmitEntryPointPass> {
  using NNAPIEmitEntryPointBase::NNAPIEmitEntryPointBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    auto signature =
        module->getAttrOfType<StringAttr>(NNAPIDialect::kSignatureAttrName);
    if (!signature) {
      module.emitError("missing nnapi.signature: run nnapi-export-signature "
                       "before lowering to LLVM");
      return signalPassFailure();
    }
    auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(entry);
    if (!func || func.isExternal()) {
      if (auto unlowered = module.lookupSymbol<func::FuncOp>(entry))
        unlowered.emitError()
            << "entry function '@" << entry
            << "' was not lowered to the LLVM dialect: its arguments and "
               "results must be static, non-empty buffers (a zero-size "
               "tensor has no bare-pointer form)";
      else
        module.emitError() << "entry function '@" << entry
                           << "' not found in the LLVM dialect";
      return signalPassFailure();
    }
    unsigned numInputs = 0, numOutputs = 0;
    // Which buffers the entry takes: not those without elements (a "0"
    // among the dimensions; nnapi-export-signature dropped them). Which
    // dimensions are dynamic ("?" or "[low..high]"), per input and output.
    SmallVector<bool> passed;
    SmallVector<SmallVector<unsigned>> dynamicDims;
    for (StringRef line : llvm::split(signature.getValue(), '\n')) {
      bool input = line.starts_with("input "), output = line.starts_with("output ");
      if (!input && !output)
        continue;
      numInputs += input;
      numOutputs += output;
      SmallVector<StringRef> fields;
      line.split(fields, ' ');
      SmallVector<StringRef> dims;
      if (fields.size() > 4 && fields[4] != "scalar")
        fields[4].split(dims, 'x');
      passed.push_back(!llvm::is_contained(dims, "0"));
      SmallVector<unsigned> dynamic;
      for (auto [d, dim] : llvm::enumerate(dims))
        if (dim.starts_with("?") || dim.starts_with("["))
          dynamic.push_back(unsigned(d));
      dynamicDims.push_back(dynamic);
    }
    unsigned numSizes = 0;
    for (const auto &d : dynamicDims)
      numSizes += d.size();
    bool dynamic = numSizes != 0;
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    OpBuilder builder(ctx);
    auto i32 = builder.getI32Type();
    auto i64 = builder.getI64Type();
    LLVM::LLVMFunctionType fnType = func.getFunctionType();
    unsigned numBuffers = unsigned(llvm::count(passed, true));
    if (fnType.getNumParams() != numBuffers + numSizes ||
        !llvm::all_of(fnType.getParams().take_front(numBuffers),
                      [&](Type t) { return t == ptrType; }) ||
        !llvm::all_of(fnType.getParams().drop_front(numBuffers),
                      [&](Type t) { return t == i64; }) ||
        !isa<LLVM::LLVMVoidType>(fnType.getReturnType())) {
      func.emitError("entry function must take one bare pointer per input "
                     "and output, then each dynamic dimension, and return "
                     "nothing (bufferize with results as out-parameters, "
                     "nnapi-dynamic-entry, lower with the bare-pointer "
                     "calling convention)");
      return signalPassFailure();
    }

    builder.setInsertionPointToEnd(module.getBody());
    Location loc = func.getLoc();
    // element `i` of the pointer array `array`, loaded as `type`.
    auto loadAt = [&](Value array, unsigned i, Type type) -> Value {
      Value slot = builder.create<LLVM::GEPOp>(
          loc, ptrType, type, array, ArrayRef<LLVM::GEPArg>{int32_t(i)});
      return builder.create<LLVM::LoadOp>(loc, type, slot);
    };
    // The dynamic dimensions of tensors [first, first + count), each read
    // from the dims array of its tensor: dims[i - first][d].
    auto loadSizes = [&](Value dimsArray, unsigned first, unsigned count,
                         SmallVectorImpl<Value> &sizes) {
      for (unsigned i = 0; i < count; ++i) {
        if (dynamicDims[first + i].empty())
          continue;
        Value dims = loadAt(dimsArray, i, ptrType);
        for (unsigned d : dynamicDims[first + i])
          sizes.push_back(loadAt(dims, d, i64));
      }
    };

    // Static models: int32_t nnapi_model_run(void *const *inputs,
    //                                        void *const *outputs)
    // Dynamic ones:  int32_t nnapi_model_run_dims(
    //     void *const *inputs, const int64_t *const *inputDims,
    //     void *const *outputs, const int64_t *const *outputDims)
    SmallVector<Type> params = {ptrType, ptrType};
    if (dynamic)
      params.append(2, ptrType);
    auto run = builder.create<LLVM::LLVMFuncOp>(
        loc, dynamic ? "nnapi_model_run_dims" : "nnapi_model_run",
        LLVM::LLVMFunctionType::get(i32, params));
    Block *body = run.addEntryBlock(builder);
    builder.setInsertionPointToStart(body);
    Value inputArray = body->getArgument(0);
    Value outputArray = body->getArgument(dynamic ? 2 : 1);
    SmallVector<Value> args;
    for (unsigned i = 0; i < numInputs; ++i)
      args.push_back(loadAt(inputArray, i, ptrType));
    for (unsigned i = 0; i < numOutputs; ++i)
      args.push_back(loadAt(outputArray, i, ptrType));
    if (failed(emitBoundInputChecks(module, run, builder, args, numInputs)))
      return signalPassFailure();
    SmallVector<Value> callArgs;
    for (auto [arg, pass] : llvm::zip(args, passed))
      if (pass)
        callArgs.push_back(arg);
    if (dynamic) {
      loadSizes(body->getArgument(1), 0, numInputs, callArgs);
      loadSizes(body->getArgument(3), numInputs, numOutputs, callArgs);
    }
    // A model with run-time loops (nnapi-bound-loops) returns whether one
    // of them ran past the loop timeout.
    if (module.lookupSymbol<LLVM::LLVMFuncOp>("nnapi_rt_loop_continue")) {
      auto declare = [&](StringRef name, Type result) {
        if (auto f = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
          return f;
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPointToEnd(module.getBody());
        return builder.create<LLVM::LLVMFuncOp>(
            loc, name, LLVM::LLVMFunctionType::get(result, {}));
      };
      LLVM::LLVMFuncOp begin =
          declare("nnapi_rt_run_begin", LLVM::LLVMVoidType::get(ctx));
      LLVM::LLVMFuncOp end = declare("nnapi_rt_run_end", i32);
      builder.create<LLVM::CallOp>(loc, begin, ValueRange{});
      builder.create<LLVM::CallOp>(loc, func, callArgs);
      Value status =
          builder.create<LLVM::CallOp>(loc, end, ValueRange{}).getResult();
      builder.create<LLVM::ReturnOp>(loc, status);
    } else {
      builder.create<LLVM::CallOp>(loc, func, callArgs);
      Value zero = builder.create<LLVM::ConstantOp>(loc, i32, 0);
      builder.create<LLVM::ReturnOp>(loc, zero);
    }
    if (dynamic &&
        failed(emitOutputDims(module, builder, numInputs, numOutputs,
                              dynamicDims, loadSizes, loadAt)))
      return signalPassFailure();

    // const char *nnapi_model_signature(void)
    builder.setInsertionPointToEnd(module.getBody());
    std::string text = signature.getValue().str();
    text.push_back('\0');
    auto arrayType = LLVM::LLVMArrayType::get(builder.getI8Type(), text.size());
    auto global = builder.create<LLVM::GlobalOp>(
        loc, arrayType, /*isConstant=*/true, LLVM::Linkage::Internal,
        "nnapi_signature_text", builder.getStringAttr(text));
    auto sigFn = builder.create<LLVM::LLVMFuncOp>(
        loc, "nnapi_model_signature", LLVM::LLVMFunctionType::get(ptrType, {}));
    Block *sigBody = sigFn.addEntryBlock(builder);
    builder.setInsertionPointToStart(sigBody);
    Value address = builder.create<LLVM::AddressOfOp>(loc, global);
    builder.create<LLVM::ReturnOp>(loc, address);

    // Keep the entry itself out of the dynamic symbol table: a public "main"
    // in a shared library would clash with the loading program's.
    func.setLinkage(LLVM::Linkage::Internal);
    module->removeAttr(NNAPIDialect::kSignatureAttrName);
  }

  /// int32_t nnapi_model_output_dims(const int64_t *const *inputDims,
  ///                                 int64_t *const *outputDims)
  /// writes each output's dynamic dimensions, from nnapi_output_dims
  /// (nnapi-output-dims); the caller has the static ones from the signature.
  template <typename LoadSizes, typename LoadAt>
  LogicalResult emitOutputDims(ModuleOp module, OpBuilder &builder,
                               unsigned numInputs, unsigned numOutputs,
                               ArrayRef<SmallVector<unsigned>> dynamicDims,
                               LoadSizes loadSizes, LoadAt loadAt) {
    MLIRContext *ctx = module.getContext();
    Location loc = module.getLoc();
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    auto i32 = builder.getI32Type();
    auto i64 = builder.getI64Type();
    auto shapes = module.lookupSymbol<LLVM::LLVMFuncOp>(
        NNAPIDialect::kOutputDimsFnName);
    bool dynamicOutputs = llvm::any_of(
        dynamicDims.drop_front(numInputs),
        [](const SmallVector<unsigned> &d) { return !d.empty(); });
    if (dynamicOutputs && (!shapes || shapes.isExternal())) {
      module.emitError() << "dynamically shaped outputs need @"
                         << NNAPIDialect::kOutputDimsFnName
                         << " in the LLVM dialect (nnapi-output-dims)";
      return failure();
    }
    builder.setInsertionPointToEnd(module.getBody());
    auto fn = builder.create<LLVM::LLVMFuncOp>(
        loc, "nnapi_model_output_dims",
        LLVM::LLVMFunctionType::get(i32, {ptrType, ptrType}));
    Block *body = fn.addEntryBlock(builder);
    builder.setInsertionPointToStart(body);
    SmallVector<Value> dims;
    if (dynamicOutputs) {
      SmallVector<Value> sizes;
      loadSizes(body->getArgument(0), 0, numInputs, sizes);
      if (shapes.getNumArguments() != sizes.size())
        return shapes.emitError()
               << "takes " << shapes.getNumArguments() << " sizes, the inputs "
               << "have " << sizes.size() << " dynamic dimensions";
      Value result = builder.create<LLVM::CallOp>(loc, shapes, sizes).getResult();
      if (auto packed = dyn_cast<LLVM::LLVMStructType>(result.getType())) {
        for (unsigned k = 0; k < packed.getBody().size(); ++k)
          dims.push_back(builder.create<LLVM::ExtractValueOp>(loc, result, k));
      } else {
        dims.push_back(result);
      }
      shapes.setLinkage(LLVM::Linkage::Internal);
    }
    unsigned next = 0;
    for (unsigned o = 0; o < numOutputs; ++o) {
      const SmallVector<unsigned> &dynamic = dynamicDims[numInputs + o];
      if (dynamic.empty())
        continue;
      Value out = loadAt(body->getArgument(1), o, ptrType);
      for (unsigned d : dynamic) {
        if (next >= dims.size())
          return shapes.emitError("returns fewer sizes than the outputs have "
                                  "dynamic dimensions");
        Value slot = builder.create<LLVM::GEPOp>(
            loc, ptrType, i64, out, ArrayRef<LLVM::GEPArg>{int32_t(d)});
        builder.create<LLVM::StoreOp>(loc, dims[next++], slot);
      }
    }
    Value zero = builder.create<LLVM::ConstantOp>(loc, i32, 0);
    builder.create<LLVM::ReturnOp>(loc, zero);
    return success();
  }
};

} // namespace
