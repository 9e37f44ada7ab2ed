//===- Linear.cpp - Matrix products -----------------------------*- C++ -*-===//
//
// Gemm (tosa.fully_connected when B is constant and alpha 1, else
// tosa.matmul) and MatMul (tosa.matmul over a flattened, broadcast batch).
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../OpRegistry.h"

#include "nnapi-mlir/Dialect/NNAPI/IR/Constants.h"

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::onnx_import;

namespace {

LogicalResult importGemm(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  OpBuilder &builder = ctx.b;
  Value a = ctx.in(0), b = ctx.in(1);
  if (ctx.intAttr("transA", 0))
    a = imp.transpose(a, {1, 0});
  bool transB = ctx.intAttr("transB", 0);
  double alpha = ctx.floatAttr("alpha", 1.0f),
         beta = ctx.floatAttr("beta", 1.0f);
  FailureOr<RankedTensorType> t = ctx.out();
  if (failed(t))
    return failure();
  int64_t m = t->getDimSize(0), n = t->getDimSize(1);
  int64_t k = imp.typeOf(a).getDimSize(1);
  DenseElementsAttr bc = ctx.cst(1), cc = ctx.cst(2);
  bool fcBias =
      !ctx.has(2) || (cc && imp.typeOf(ctx.in(2)).getNumElements() == n &&
                      (imp.typeOf(ctx.in(2)).getRank() == 1 ||
                       (imp.typeOf(ctx.in(2)).getRank() == 2 &&
                        imp.typeOf(ctx.in(2)).getDimSize(0) == 1)));
  if (bc && alpha == 1.0 && fcBias && ctx.isFloat(a)) {
    // y = a * B + c as fully_connected with weight [N, K].
    DenseElementsAttr weight = transB ? bc : permuteElements(bc, {1, 0});
    SmallVector<float> bias(n, 0.0f);
    if (ctx.has(2)) {
      SmallVector<double> cv = floatsOf(cc);
      for (int64_t j = 0; j < n; ++j)
        bias[j] = float(beta * cv[cv.size() == 1 ? 0 : j]);
    }
    return ctx.setResult(builder.create<tosa::FullyConnectedOp>(
        ctx.loc, *t, a, imp.constant(weight),
        imp.constant(DenseElementsAttr::get(
            RankedTensorType::get({n}, builder.getF32Type()),
            ArrayRef<float>(bias))),
        /*quantization_info=*/nullptr));
  }
  if (transB)
    b = imp.transpose(b, {1, 0});
  Value prod = builder.create<tosa::MatMulOp>(
      ctx.loc, RankedTensorType::get({1, m, n}, t->getElementType()),
      imp.reshape(a, {1, m, k}), imp.reshape(b, {1, k, n}));
  Value result = imp.reshape(prod, {m, n});
  if (alpha != 1.0)
    result = imp.mul(result, imp.scalarLike(result, alpha));
  if (ctx.has(2)) {
    Value c = ctx.in(2);
    if (beta != 1.0)
      c = imp.mul(c, imp.scalarLike(c, beta));
    result = imp.binary<tosa::AddOp>(result, c);
  }
  return ctx.setResult(result);
}

LogicalResult importMatMul(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  OpBuilder &builder = ctx.b;
  Value a = ctx.in(0), b = ctx.in(1);
  FailureOr<RankedTensorType> t = ctx.out();
  if (failed(t))
    return failure();
  if (!ctx.isFloat(a))
    return ctx.error() << "integer MatMul is not supported";
  RankedTensorType at = imp.typeOf(a), bt = imp.typeOf(b);
  if (at.getRank() == 1)
    a = imp.reshape(a, {1, at.getDimSize(0)});
  if (bt.getRank() == 1)
    b = imp.reshape(b, {bt.getDimSize(0), 1});
  at = imp.typeOf(a);
  bt = imp.typeOf(b);
  int64_t m = at.getDimSize(at.getRank() - 2),
          k = at.getDimSize(at.getRank() - 1),
          n = bt.getDimSize(bt.getRank() - 1);
  Shape aBatch(at.getShape().drop_back(2)), bBatch(bt.getShape().drop_back(2));
  int64_t rank = std::max(aBatch.size(), bBatch.size());
  while (int64_t(aBatch.size()) < rank)
    aBatch.insert(aBatch.begin(), 1);
  while (int64_t(bBatch.size()) < rank)
    bBatch.insert(bBatch.begin(), 1);
  Shape batch;
  for (int64_t i = 0; i < rank; ++i) {
    if (aBatch[i] == 0 || bBatch[i] == 0)
      return ctx.error() << "zero-size batch dimensions are not "
                            "supported";
    if (aBatch[i] != bBatch[i] && aBatch[i] != 1 && bBatch[i] != 1)
      return ctx.error() << "batch dimensions " << aBatch[i] << " and "
                         << bBatch[i] << " do not broadcast";
    batch.push_back(std::max(aBatch[i], bBatch[i]));
  }
  int64_t nb = product(batch);
  auto expand = [&](Value v, Shape vb, int64_t rows, int64_t cols) {
    Shape full(vb);
    full.push_back(rows);
    full.push_back(cols);
    v = imp.reshape(v, full);
    if (vb != batch) {
      Shape multiples;
      for (int64_t i = 0; i < rank; ++i)
        multiples.push_back(batch[i] / vb[i]);
      multiples.append({1, 1});
      Shape tiled(batch);
      tiled.append({rows, cols});
      v = builder.create<tosa::TileOp>(
          ctx.loc, RankedTensorType::get(tiled, imp.typeOf(v).getElementType()),
          v, builder.getDenseI64ArrayAttr(multiples));
    }
    return imp.reshape(v, {nb, rows, cols});
  };
  Value prod;
  if (product(bBatch) == 1 && product(aBatch) > 1) {
    // Fold A's batch into its rows: one [1, B*M, K] x [1, K, N].
    prod = builder.create<tosa::MatMulOp>(
        ctx.loc, RankedTensorType::get({1, nb * m, n}, t->getElementType()),
        imp.reshape(a, {1, nb * m, k}), imp.reshape(b, {1, k, n}));
  } else {
    prod = builder.create<tosa::MatMulOp>(
        ctx.loc, RankedTensorType::get({nb, m, n}, t->getElementType()),
        expand(a, aBatch, m, k), expand(b, bBatch, k, n));
  }
  return ctx.setResult(imp.reshape(prod, t->getShape()));
}

} // namespace

void mlir::nnapi::onnx_import::registerLinearOps(OpRegistry &registry) {
  constexpr int64_t lo = kMinONNXOpset, hi = kAnyOpset;
  registry.add({
      {"", "Gemm", lo, hi, importGemm,
       "tosa.fully_connected (constant B, alpha 1) or tosa.matmul + mul/add",
       "FULLY_CONNECTED (1)", "B not constant (matmul)"},
      {"", "MatMul", lo, hi, importMatMul,
       "tosa.matmul (batch flattened / tiled), reshapes",
       "FULLY_CONNECTED (1) for constant B with one batch, else "
       "BATCH_MATMUL (6)",
       "non-float, rank > 4"},
  });
}
