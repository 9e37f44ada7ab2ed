//===- Reduce.cpp - MEAN and the reductions, ARG_MAX, ARG_MIN ---*- C++ -*-===//
//
// Reductions over the axes a constant input names (keep_dims or not: the
// output tensor says the shape), MEAN as the chain the mean composite is
// raised from (Emitter::mean), and ARG_MAX / ARG_MIN as tosa.argmax.
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"

using namespace mlir;
using namespace mlir::nnapi::tflite_import;

namespace {

/// The distinct axes input 1 names, counted from the end when negative.
FailureOr<SmallVector<int64_t>> reductionAxes(OpContext &op, int64_t rank) {
  FailureOr<SmallVector<int64_t>> given = op.needInts(1, "the axes");
  if (failed(given))
    return failure();
  SmallVector<int64_t> axes;
  for (int64_t a : *given) {
    FailureOr<int64_t> axis = axisOf(op, a, rank);
    if (failed(axis))
      return failure();
    if (!llvm::is_contained(axes, *axis))
      axes.push_back(*axis);
  }
  llvm::sort(axes);
  return axes;
}

LogicalResult importReduce(OpContext &op) {
  Emitter &e = op.imp;
  bool integer = !op.quantizedInput(0) && op.has(0) &&
                 isa<IntegerType>(e.typeOf(op.in(0)).getElementType());
  Value x = integer ? op.in(0) : op.inFloat(0);
  if (!x)
    return failure();
  FailureOr<SmallVector<int64_t>> axes =
      reductionAxes(op, e.typeOf(x).getRank());
  if (failed(axes))
    return failure();
  if (e.typeOf(x).getNumElements() == 0)
    return op.error() << "reducing an empty tensor is not supported";
  Value y;
  switch (op.code) {
  case tflite::BuiltinOperator_MEAN:
    if (integer)
      return op.error() << "the mean of integers is not supported";
    y = e.mean(x, *axes);
    break;
  case tflite::BuiltinOperator_SUM:
    y = e.reduce("sum", x, *axes);
    break;
  case tflite::BuiltinOperator_REDUCE_MAX:
    y = e.reduce("max", x, *axes);
    break;
  case tflite::BuiltinOperator_REDUCE_MIN:
    y = e.reduce("min", x, *axes);
    break;
  case tflite::BuiltinOperator_REDUCE_PROD:
    y = e.reduce("prod", x, *axes);
    break;
  default:
    return op.error() << "internal error: not a reduction";
  }
  return integer ? op.define(0, y) : op.defineFloat(0, y);
}

LogicalResult importArgMinMax(OpContext &op) {
  Emitter &e = op.imp;
  Value x = op.inFloat(0);
  FailureOr<RankedTensorType> out = op.outType();
  if (!x || failed(out))
    return failure();
  FailureOr<SmallVector<int64_t>> axes =
      reductionAxes(op, e.typeOf(x).getRank());
  if (failed(axes) || axes->size() != 1)
    return op.error() << "one axis must be given";
  int64_t axis = (*axes)[0];
  if (op.code == tflite::BuiltinOperator_ARG_MIN)
    x = e.unary("tosa.negate", x);
  Shape shape(e.typeOf(x).getShape());
  shape.erase(shape.begin() + axis);
  Value index = op.b.create<tosa::ArgMaxOp>(
      op.loc, RankedTensorType::get(shape, op.b.getI32Type()), x,
      op.b.getI32IntegerAttr(int32_t(axis)));
  return op.define(0, e.castTo(index, out->getElementType()));
}

} // namespace

void mlir::nnapi::tflite_import::registerReduceOps(OpRegistry &registry) {
  registry.add({
      {tflite::BuiltinOperator_MEAN, "", 1, 3, importReduce,
       "reduce_sum, mul by 1/N (the mean composite)", "MEAN (2)", "-"},
      {tflite::BuiltinOperator_SUM, "", 1, 2, importReduce,
       "tosa.reduce_sum per axis", "REDUCE_SUM (3)", "-"},
      {tflite::BuiltinOperator_REDUCE_MAX, "", 1, 3, importReduce,
       "tosa.reduce_max per axis", "REDUCE_MAX (3)", "-"},
      {tflite::BuiltinOperator_REDUCE_MIN, "", 1, 3, importReduce,
       "tosa.reduce_min per axis", "REDUCE_MIN (3)", "-"},
      {tflite::BuiltinOperator_REDUCE_PROD, "", 1, 2, importReduce,
       "tosa.reduce_prod per axis", "REDUCE_PROD (3)", "-"},
      {tflite::BuiltinOperator_ARG_MAX, "", 1, 3, importArgMinMax,
       "tosa.argmax", "ARGMAX (3)", "-"},
      {tflite::BuiltinOperator_ARG_MIN, "", 1, 3, importArgMinMax,
       "tosa.argmax of the negation", "ARGMIN (3)", "-"},
  });
}
