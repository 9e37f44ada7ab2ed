//===- Linear.cpp - Matrix products -----------------------------*- C++ -*-===//
//
// Gemm (tosa.fully_connected when B is constant and alpha 1, else
// tosa.matmul) and MatMul (tosa.matmul over a flattened, broadcast batch).
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../OpRegistry.h"

#include "nnapi-mlir/Transforms/Constants.h"

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
    SmallVector<double> bias(n, 0.0);
    if (ctx.has(2)) {
      SmallVector<double> cv = floatsOf(cc);
      for (int64_t j = 0; j < n; ++j)
        bias[j] = beta * cv[cv.size() == 1 ? 0 : j];
    }
    return ctx.setResult(builder.create<tosa::FullyConnectedOp>(
        ctx.loc, *t, a, imp.constant(weight),
        imp.constant(denseOf(
            RankedTensorType::get({n}, t->getElementType()), bias)),
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
  FailureOr<RankedTensorType> t = ctx.out();
  if (failed(t))
    return failure();
  if (!ctx.isFloat(ctx.in(0)))
    return ctx.error() << "integer MatMul is not supported";
  FailureOr<Value> y = batchMatMul(ctx, ctx.in(0), ctx.in(1), t->getShape());
  return failed(y) ? failure() : ctx.setResult(*y);
}

} // namespace

FailureOr<Value> mlir::nnapi::onnx_import::batchMatMul(
    NodeContext &ctx, Value a, Value b, ArrayRef<int64_t> resultShape,
    std::optional<std::pair<int64_t, int64_t>> zeroPoints) {
  Importer &imp = ctx.imp;
  OpBuilder &builder = ctx.b;
  Type element =
      zeroPoints ? builder.getI32Type() : imp.typeOf(a).getElementType();
  tosa::MatMulOpQuantizationAttr quant =
      zeroPoints ? tosa::MatMulOpQuantizationAttr::get(builder.getContext(),
                                                       zeroPoints->first,
                                                       zeroPoints->second)
                 : nullptr;
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
  // Dynamic dimensions (issue 54): a product with one is dynamic, and the
  // reshapes below can infer one dynamic size each.
  auto times = [](int64_t x, int64_t y) {
    return ShapedType::isDynamic(x) || ShapedType::isDynamic(y)
               ? ShapedType::kDynamic
               : x * y;
  };
  // (Dynamic batch dimensions, and batches folded into dynamic rows of a
  // dynamic K, would need reshapes that infer two sizes.)
  bool foldsBatch = llvm::any_of(aBatch, [](int64_t d) { return d != 1; });
  if (llvm::any_of(aBatch, ShapedType::isDynamic) ||
      llvm::any_of(bBatch, ShapedType::isDynamic) ||
      (foldsBatch && ShapedType::isDynamic(m) && ShapedType::isDynamic(k)))
    return ctx.error() << "MatMul of " << at << " and " << bt
                       << ": dynamic batch dimensions, or a batch over "
                          "dynamic rows and a dynamic inner dimension, are "
                          "not supported";
  Shape batch;
  for (int64_t i = 0; i < rank; ++i) {
    if (aBatch[i] == 0 || bBatch[i] == 0)
      return ctx.error() << "zero-size batch dimensions are not "
                            "supported";
    if (aBatch[i] != bBatch[i] && aBatch[i] != 1 && bBatch[i] != 1)
      return ctx.error() << "batch dimensions " << aBatch[i] << " and "
                         << bBatch[i] << " do not broadcast";
    batch.push_back(ShapedType::isDynamic(aBatch[i]) ? aBatch[i]
                    : ShapedType::isDynamic(bBatch[i])
                        ? bBatch[i]
                        : std::max(aBatch[i], bBatch[i]));
  }
  int64_t nb = 1;
  for (int64_t d : batch)
    nb = times(nb, d);
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
  auto one = [](int64_t d) { return d == 1; };
  if (llvm::all_of(bBatch, one) && !llvm::all_of(aBatch, one)) {
    // Fold A's batch into its rows: one [1, B*M, K] x [1, K, N].
    prod = builder.create<tosa::MatMulOp>(
        ctx.loc, RankedTensorType::get({1, times(nb, m), n}, element),
        imp.reshape(a, {1, times(nb, m), k}), imp.reshape(b, {1, k, n}),
        quant);
  } else {
    prod = builder.create<tosa::MatMulOp>(
        ctx.loc, RankedTensorType::get({nb, m, n}, element),
        expand(a, aBatch, m, k), expand(b, bBatch, k, n), quant);
  }
  return imp.reshape(prod, resultShape);
}

namespace {

//===----------------------------------------------------------------------===//
// Einsum
//===----------------------------------------------------------------------===//

/// One operand of an Einsum: its value and one letter per dimension.
struct EinsumTerm {
  Value value;
  std::string letters;
};

/// Sums `term` over the letters `keep` rejects.
void sumOut(NodeContext &n, EinsumTerm &term,
            llvm::function_ref<bool(char)> keep) {
  SmallVector<int64_t> axes;
  std::string kept;
  for (auto [i, c] : llvm::enumerate(term.letters)) {
    if (keep(c))
      kept += c;
    else
      axes.push_back(int64_t(i));
  }
  if (axes.empty())
    return;
  Value v = n.imp.reduce("sum", term.value, axes);
  SmallVector<int64_t> shape;
  for (auto [i, d] : llvm::enumerate(n.imp.typeOf(v).getShape()))
    if (!llvm::is_contained(axes, int64_t(i)))
      shape.push_back(d);
  term = {n.imp.reshape(v, shape), kept};
}

/// `term` transposed to the letter order `order` (a permutation of its
/// letters).
Value permuteTo(NodeContext &n, const EinsumTerm &term, StringRef order) {
  SmallVector<int64_t> perm;
  for (char c : order)
    perm.push_back(int64_t(term.letters.find(c)));
  return n.imp.transpose(term.value, perm);
}

/// The matmul-like Einsum equations: one or two operands, each letter at
/// most once per operand, no broadcasting between operands. Letters only one
/// operand has and the output lacks are summed first; then the two operands
/// become one batched matmul [batch, free A, contracted] x [batch,
/// contracted, free B], transposed to the output's order.
LogicalResult importEinsum(NodeContext &n) {
  std::string equation = n.stringAttr("equation", "");
  llvm::erase_if(equation, [](char c) { return c == ' '; });
  auto [lhs, rhsPart] = StringRef(equation).split("->");
  bool explicitOutput = StringRef(equation).contains("->");
  SmallVector<StringRef> specs;
  lhs.split(specs, ',');
  if (int(specs.size()) != n.node.input_size() || specs.size() > 2)
    return n.error() << "equation '" << equation << "' has " << specs.size()
                     << " operands; Einsum of one or two operands is "
                        "supported";
  // Ellipses become letters no term uses (the same ones for every operand,
  // aligned at the end as numpy does).
  std::string unused;
  for (char c = 'A'; c <= 'Z'; ++c)
    if (!StringRef(equation).contains(c))
      unused += c;
  SmallVector<EinsumTerm> terms;
  std::string written; // every term's letters, before diagonals
  int64_t ellipsisRank = -1;
  for (auto [i, spec] : llvm::enumerate(specs)) {
    Value v = n.in(int(i));
    if (failed(requireFloat(n, v)))
      return failure();
    int64_t rank = n.imp.typeOf(v).getRank();
    std::string letters = spec.str();
    size_t dots = letters.find("...");
    if (dots != std::string::npos) {
      int64_t k = rank - int64_t(letters.size() - 3);
      if (k < 0 || (ellipsisRank >= 0 && k != ellipsisRank) ||
          k > int64_t(unused.size()))
        return n.error() << "the ellipses of '" << equation
                         << "' stand for different numbers of dimensions";
      ellipsisRank = k;
      letters.replace(dots, 3, unused.substr(unused.size() - k));
    }
    if (int64_t(letters.size()) != rank ||
        !llvm::all_of(letters, [](char c) { return llvm::isAlpha(c); }))
      return n.error() << "term '" << spec << "' does not match operand " << i
                       << " of rank " << rank;
    written += letters;
    // A letter repeated within a term takes the diagonal: mask with the
    // identity over the two dimensions, sum one of them away.
    for (size_t p = 0; p < letters.size(); ++p) {
      size_t q = letters.find(letters[p], p + 1);
      if (q == std::string::npos)
        continue;
      RankedTensorType vt = n.imp.typeOf(v);
      int64_t d = vt.getDimSize(p);
      if (vt.getDimSize(q) != d)
        return n.error() << "letter '" << letters[p] << "' of term '" << spec
                         << "' stands for dimensions of sizes " << d << " and "
                         << vt.getDimSize(q);
      // Selected, not multiplied: an inf off the diagonal must not turn the
      // sum into NaN.
      Shape maskShape(vt.getRank(), 1);
      maskShape[p] = maskShape[q] = d;
      SmallVector<bool> eye(size_t(d * d), false);
      for (int64_t i = 0; i < d; ++i)
        eye[size_t(i * d + i)] = true;
      Value mask = n.imp.constant(DenseElementsAttr::get(
          RankedTensorType::get(maskShape, n.b.getI1Type()), ArrayRef(eye)));
      Value onDiagonal = n.b.create<tosa::SelectOp>(
          n.loc, vt, mask, v,
          n.imp.splat(vt.getElementType(), Shape(vt.getRank(), 1), 0));
      Value summed = n.imp.reduce("sum", onDiagonal, {int64_t(q)});
      Shape shape(vt.getShape());
      shape.erase(shape.begin() + q);
      v = n.imp.reshape(summed, shape);
      letters.erase(q, 1);
      --p; // the letter may repeat a third time
    }
    terms.push_back({v, letters});
  }
  std::string out;
  if (explicitOutput) {
    out = rhsPart.str();
    size_t dots = out.find("...");
    if (dots != std::string::npos)
      out.replace(
          dots, 3,
          unused.substr(unused.size() - std::max<int64_t>(ellipsisRank, 0)));
  } else {
    // Implicit output: the ellipsis dimensions, then the letters that
    // appear once, alphabetically.
    // (Counted in the terms as written: a diagonal's letter appears twice.)
    std::string all = written;
    if (ellipsisRank > 0)
      out = unused.substr(unused.size() - ellipsisRank);
    std::string once;
    for (char c : all)
      if (llvm::count(all, c) == 1 && !StringRef(out).contains(c))
        once += c;
    llvm::sort(once);
    out += once;
  }
  auto sizeOf = [&](const EinsumTerm &t, char c) {
    return n.imp.typeOf(t.value).getDimSize(int64_t(t.letters.find(c)));
  };
  auto inTerm = [](const EinsumTerm &t, char c) {
    return t.letters.find(c) != std::string::npos;
  };
  for (char c : out)
    if (llvm::none_of(terms, [&](const EinsumTerm &t) { return inTerm(t, c); }))
      return n.error() << "output letter '" << c << "' is in no operand";
  if (terms.size() == 1) {
    EinsumTerm t = terms[0];
    sumOut(n, t, [&](char c) { return StringRef(out).contains(c); });
    return n.setResult(permuteTo(n, t, out));
  }
  EinsumTerm a = terms[0], b = terms[1];
  sumOut(n, a,
         [&](char c) { return StringRef(out).contains(c) || inTerm(b, c); });
  sumOut(n, b,
         [&](char c) { return StringRef(out).contains(c) || inTerm(a, c); });
  std::string batch, freeA, freeB, contracted;
  for (char c : a.letters) {
    if (inTerm(b, c)) {
      if (sizeOf(a, c) != sizeOf(b, c))
        return n.error() << "letter '" << c << "' has sizes " << sizeOf(a, c)
                         << " and " << sizeOf(b, c)
                         << "; broadcasting between operands is not supported";
      (StringRef(out).contains(c) ? batch : contracted) += c;
    } else {
      freeA += c;
    }
  }
  for (char c : b.letters)
    if (!inTerm(a, c))
      freeB += c;
  auto sizes = [&](const EinsumTerm &t, StringRef letters) {
    int64_t p = 1;
    for (char c : letters)
      p *= sizeOf(t, c);
    return p;
  };
  int64_t nb = sizes(a, batch), m = sizes(a, freeA), k = sizes(a, contracted),
          nn = sizes(b, freeB);
  Type element = n.imp.typeOf(a.value).getElementType();
  Value lhsValue =
      n.imp.reshape(permuteTo(n, a, batch + freeA + contracted), {nb, m, k});
  Value rhsValue =
      n.imp.reshape(permuteTo(n, b, batch + contracted + freeB), {nb, k, nn});
  Value product = n.b.create<tosa::MatMulOp>(
      n.loc, RankedTensorType::get({nb, m, nn}, element), lhsValue, rhsValue);
  SmallVector<int64_t> shape;
  for (char c : batch + freeA)
    shape.push_back(sizeOf(a, c));
  for (char c : freeB)
    shape.push_back(sizeOf(b, c));
  EinsumTerm result{n.imp.reshape(product, shape), batch + freeA + freeB};
  return n.setResult(permuteTo(n, result, out));
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
      {"", "Einsum", lo, hi, importEinsum,
       "reduce_sum, transposes, one tosa.matmul (one or two operands; no "
       "broadcasting between operands; diagonals selected by an identity "
       "mask)",
       "TRANSPOSE (2), REDUCE_SUM (3), BATCH_MATMUL (6)", "non-float"},
  });
}
