//===- SpecializeShapes.cpp - Static copies of a dynamic entry ------------===//
//
// A dynamically shaped model's host code pays for its generality at small
// sizes (loops of one iteration, remainders, sizes read at run time). The
// shapes a user lists with --shape-buckets get a static copy of the entry
// instead, compiled like a library made for that shape.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Runtime/ModelABI.h"
#include "nnapi-mlir/Transforms/Passes.h"
#include "nnapi-mlir/Transforms/ShapeBuckets.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPISPECIALIZESHAPES
#include "nnapi-mlir/Transforms/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;
using namespace mlir::nnapi;

FailureOr<SmallVector<ShapeBucket>>
mlir::nnapi::parseShapeBuckets(func::FuncOp func, StringRef text) {
  SmallVector<ShapeBucket> result;
  if (text.empty())
    return result;
  FunctionType type = func.getFunctionType();
  auto isDynamic = [](Type t) {
    auto shaped = dyn_cast<ShapedType>(t);
    return shaped && shaped.hasRank() && !shaped.hasStaticShape();
  };
  if (!llvm::any_of(type.getInputs(), isDynamic))
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
    ShapeBucket &parsed = result.emplace_back();
    for (auto [i, shape] : llvm::enumerate(shapes)) {
      auto tensor = dyn_cast<RankedTensorType>(type.getInput(i));
      if (!tensor)
        return bad() << "input " << i << " is not a ranked tensor";
      ArrayRef<int64_t> ranges;
      if (auto r = func.getArgAttrOfType<DenseI64ArrayAttr>(
              i, NNAPIDialect::kDimRangesAttrName))
        ranges = r.asArrayRef();
      SmallVector<int64_t, 4> &dimsOut = parsed.emplace_back();
      shape = shape.trim();
      if (tensor.getRank() == 0 && shape == "scalar")
        continue;
      SmallVector<StringRef> dims;
      shape.split(dims, 'x');
      if (int64_t(dims.size()) != tensor.getRank())
        return bad() << "input " << i << " has rank " << tensor.getRank()
                     << ", the shape has " << dims.size() << " dimensions";
      unsigned next = 0;
      for (auto [d, text] : llvm::enumerate(dims)) {
        int64_t v;
        if (text.getAsInteger(10, v) || v < 1 ||
            v > NNAPI_MODEL_MAX_DYNAMIC_DIM)
          return bad() << "input " << i << " dimension " << d << " '" << text
                       << "' is not a size from 1 to "
                       << NNAPI_MODEL_MAX_DYNAMIC_DIM;
        if (!tensor.isDynamicDim(d) && v != tensor.getDimSize(d))
          return bad() << "input " << i << " dimension " << d << " is " << v
                       << "; the model's is " << tensor.getDimSize(d);
        if (tensor.isDynamicDim(d) && 2 * next + 1 < ranges.size()) {
          int64_t low = ranges[2 * next], high = ranges[2 * next + 1];
          ++next;
          if (v < low || v > high)
            return bad() << "input " << i << " dimension " << d << " is " << v
                         << ", outside its range [" << low << ".." << high
                         << "]";
        }
        dimsOut.push_back(v);
      }
    }
  }
  return result;
}

std::string mlir::nnapi::specializedEntryName(StringRef entry,
                                              unsigned index) {
  return (entry + "__shape" + Twine(index)).str();
}

namespace {

/// The types `func` returns, looking through the casts back to the declared
/// types that tosa-infer-shapes puts before a return; the returns then give
/// the inferred values. Fails when returns disagree.
FailureOr<SmallVector<Type>> refineResults(func::FuncOp func) {
  std::optional<SmallVector<Type>> types;
  for (Block &block : func.getBody()) {
    auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
    if (!ret)
      continue;
    SmallVector<Type> here;
    for (OpOperand &operand : ret->getOpOperands()) {
      if (auto cast = operand.get().getDefiningOp<tensor::CastOp>())
        if (isa<RankedTensorType>(cast.getSource().getType())) {
          operand.set(cast.getSource());
          if (cast->use_empty())
            cast->erase();
        }
      here.push_back(operand.get().getType());
    }
    if (types && *types != here)
      return failure();
    types = here;
  }
  if (!types)
    return failure();
  return *types;
}

/// After inference: a reshape whose result is now static states its sizes
/// in new_shape (no -1), as an import at that size writes them.
void settleShapeAttributes(func::FuncOp func) {
  func.walk([](tosa::ReshapeOp reshape) {
    auto result = dyn_cast<RankedTensorType>(reshape.getType());
    if (result && result.hasStaticShape())
      reshape.setNewShapeAttr(Builder(reshape.getContext())
                                  .getDenseI64ArrayAttr(result.getShape()));
  });
}

/// Before inference: a reshape whose new_shape has one dynamic marker gets
/// TOSA's "the rest" (-1) there, which tosa-infer-shapes computes and the
/// verifier takes beside a static result.
void markInferredReshapes(func::FuncOp func) {
  func.walk([](tosa::ReshapeOp reshape) {
    SmallVector<int64_t> shape(reshape.getNewShape());
    if (llvm::count(shape, ShapedType::kDynamic) != 1 ||
        llvm::is_contained(shape, -1))
      return;
    std::replace(shape.begin(), shape.end(), ShapedType::kDynamic,
                 int64_t(-1));
    reshape.setNewShapeAttr(
        Builder(reshape.getContext()).getDenseI64ArrayAttr(shape));
  });
}

bool hasElements(Type t) {
  auto shaped = dyn_cast<ShapedType>(t);
  return shaped && shaped.hasStaticShape() && shaped.getNumElements() > 0;
}

struct SpecializeShapesPass
    : public nnapi::impl::NNAPISpecializeShapesBase<SpecializeShapesPass> {
  using NNAPISpecializeShapesBase::NNAPISpecializeShapesBase;

  void runOnOperation() override {
    if (shapeBuckets.empty())
      return;
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal()) {
      module.emitError() << "entry function '@" << entry << "' not found";
      return signalPassFailure();
    }
    FailureOr<SmallVector<ShapeBucket>> buckets =
        parseShapeBuckets(func, shapeBuckets);
    if (failed(buckets))
      return signalPassFailure();
    SymbolTable symbols(module);
    Operation *after = func;
    for (auto [k, bucket] : llvm::enumerate(*buckets)) {
      std::string name = specializedEntryName(entry, unsigned(k));
      if (symbols.lookup(name)) {
        module.emitError() << "nnapi-specialize-shapes: '@" << name
                           << "' exists already";
        return signalPassFailure();
      }
      func::FuncOp copy = specialize(func, bucket, name);
      module.getBody()->getOperations().insertAfter(after->getIterator(),
                                                    copy);
      symbols.insert(copy);
      // Inference, and whatever it leaves inconsistent (an op that is
      // valid at no size but the model's usual one), drops the copy, not
      // the compilation: the shape then runs the dynamic code.
      std::string problem;
      FailureOr<SmallVector<Type>> results = failure();
      {
        ScopedDiagnosticHandler quiet(&getContext(), [&](Diagnostic &d) {
          if (problem.empty() && d.getSeverity() == DiagnosticSeverity::Error)
            problem = d.str();
          return success();
        });
        markInferredReshapes(copy);
        OpPassManager infer(func::FuncOp::getOperationName());
        infer.addPass(tosa::createTosaInferShapesPass());
        if (succeeded(runPipeline(infer, copy))) {
          settleShapeAttributes(copy);
          results = refineResults(copy);
          if (succeeded(results) && llvm::all_of(*results, hasElements)) {
            copy.setType(FunctionType::get(
                &getContext(), copy.getFunctionType().getInputs(), *results));
            SmallVector<Attribute> shapes;
            for (Type t : llvm::concat<const Type>(
                     copy.getFunctionType().getInputs(), *results))
              shapes.push_back(DenseI64ArrayAttr::get(
                  &getContext(), cast<ShapedType>(t).getShape()));
            copy->setAttr(NNAPIDialect::kStaticShapesAttrName,
                          ArrayAttr::get(&getContext(), shapes));
            if (failed(verify(copy)))
              results = failure();
          } else if (succeeded(results)) {
            problem = "its outputs' shapes stay dynamic (or empty)";
            results = failure();
          }
        }
      }
      if (failed(results)) {
        func.emitWarning() << "--shape-buckets: shape " << k + 1
                           << " runs the dynamic host code: its static copy "
                              "is not valid at that shape ("
                           << (problem.empty() ? "shape inference failed"
                                               : problem)
                           << ")";
        symbols.erase(copy);
        continue;
      }
      after = copy;
    }
  }

  /// A copy of `func` named `name` taking `bucket`'s static shapes, without
  /// the signature's attributes (nnapi-export-signature reads the entry's).
  static func::FuncOp specialize(func::FuncOp func, const ShapeBucket &bucket,
                                 StringRef name) {
    func::FuncOp copy = func.clone();
    copy.setSymName(name);
    copy.setPublic();
    SmallVector<Type> inputs;
    for (auto [arg, dims] : llvm::zip(copy.getArguments(), bucket)) {
      auto tensor = cast<RankedTensorType>(arg.getType());
      auto type = RankedTensorType::get(dims, tensor.getElementType(),
                                        tensor.getEncoding());
      arg.setType(type);
      inputs.push_back(type);
    }
    copy.setType(FunctionType::get(func.getContext(), inputs,
                                   func.getFunctionType().getResults()));
    for (unsigned i = 0; i < copy.getNumArguments(); ++i)
      copy.setArgAttrs(i, DictionaryAttr::get(func.getContext()));
    for (unsigned i = 0; i < copy.getNumResults(); ++i)
      copy.setResultAttrs(i, DictionaryAttr::get(func.getContext()));
    return copy;
  }
};

} // namespace
