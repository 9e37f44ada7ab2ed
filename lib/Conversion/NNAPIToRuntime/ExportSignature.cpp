//===- ExportSignature.cpp - nnapi-export-signature -----------------------===//
//
// The entry point's description for the runtime (ModelABI.h): its inputs'
// and outputs' names, element types and shapes (dynamic dimensions with
// their ranges), the shape buckets to warm up, and a checksum.
//
//===----------------------------------------------------------------------===//

#include "DynamicShapes.h"
#include "nnapi-mlir/Conversion/Passes.h"
#include "nnapi-mlir/Conversion/TosaToNNAPI/TosaToNNAPI.h"
#include "nnapi-mlir/Runtime/ModelABI.h"
#include "nnapi-mlir/Runtime/Runtime.h"
#include "nnapi-mlir/Support/Sha256.h"
#include "nnapi-mlir/Transforms/ShapeBuckets.h"
#include "nnapi-mlir/Target/NNAPIBlob/NNAPIBlob.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIEXPORTSIGNATURE
#include "nnapi-mlir/Conversion/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;
using namespace mlir::nnapi;

namespace {

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
/// for every input ("1x1x32x100,4", "scalar" for a rank-0 one).
LogicalResult writeBuckets(func::FuncOp func, StringRef text,
                           llvm::raw_ostream &os) {
  FailureOr<SmallVector<ShapeBucket>> buckets = parseShapeBuckets(func, text);
  if (failed(buckets))
    return failure();
  for (const ShapeBucket &bucket : *buckets) {
    os << "bucket ";
    for (auto [i, dims] : llvm::enumerate(bucket)) {
      os << (i ? "," : "");
      if (dims.empty())
        os << "scalar";
      llvm::interleave(dims, os, "x");
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
          NNAPIDialect::kBoundAttrName, NNAPIDialect::kDimRangesAttrName,
          NNAPIDialect::kDimTypicalAttrName}) {
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

} // namespace
