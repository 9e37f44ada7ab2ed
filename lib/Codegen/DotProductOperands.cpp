//===- DotProductOperands.cpp - 8-bit operands for dot products -------===//
//
// nnapi-codegen-prepare's side of the 8-bit dot products (DotProducts.h):
// convolutions and matmuls by a constant become 8-bit convolutions whose
// zero points are folded into the accumulator's initial value (or, for a
// filter whose differences from its zero point exceed 8 bits, subtracted
// after, times each window's input sum); matmuls of two computed 8-bit
// tensors keep their 8-bit product and apply their zero points after it.
// DotProducts.cpp lowers the tiles nnapi-codegen makes of them.
//
//===----------------------------------------------------------------------===//

#include "DotProducts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace mlir::nnapi::codegen {

std::optional<DotKind> parseDotKind(StringRef name, Operation *op) {
  std::optional<DotKind> kind =
      llvm::StringSwitch<std::optional<DotKind>>(name)
          .Case("", DotKind::None)
          .Case("avx512-vnni", DotKind::Avx512Vnni)
          .Case("avx-vnni", DotKind::AvxVnni)
          .Case("dotprod", DotKind::DotProd)
          .Case("i8mm", DotKind::I8mm)
          .Case("avx512-madd", DotKind::Avx512Madd)
          .Case("avx2-madd", DotKind::Avx2Madd)
          .Default(std::nullopt);
  if (!kind)
    op->emitError() << "unknown int8-dot '" << name
                    << "' (avx512-vnni, avx-vnni, dotprod, i8mm, "
                       "avx512-madd, avx2-madd, or empty)";
  return kind;
}

bool isInt8Conv(Operation *op) {
  auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op);
  auto isI8 = [](Value v) { return getElementTypeOrSelf(v).isInteger(8); };
  return conv && conv.hasPureTensorSemantics() &&
         (isI8(conv.getInputs()[0]) ||
          getElementTypeOrSelf(conv.getInputs()[0]).isInteger(16)) &&
         isI8(conv.getInputs()[1]) && op->getNumResults() == 1 &&
         getElementTypeOrSelf(op->getResult(0)).isInteger(32);
}

namespace {

/// A tensor of static shape whose elements are `width`-bit integers.
bool isStaticOf(Value v, unsigned width) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.hasStaticShape() &&
         type.getElementType().isInteger(width);
}

} // namespace

bool isInt8Matmul(Operation *op) {
  auto operands = [&](unsigned width) {
    return isStaticOf(op->getOperand(0), width) &&
           isStaticOf(op->getOperand(1), width);
  };
  return isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) &&
         cast<linalg::LinalgOp>(op).hasPureTensorSemantics() &&
         op->getNumOperands() == 3 && op->getNumResults() == 1 &&
         (operands(8) || operands(16)) && isStaticOf(op->getResult(0), 32);
}

namespace {

//===----------------------------------------------------------------------===//
// nnapi-codegen-prepare: 8-bit operands, zero points in the initial value
//===----------------------------------------------------------------------===//

/// `init` reshaped to `type` (a unit-dimension expansion of it) plus
/// `delta[f]` along the last dimension. A bias broadcast or a fill of a
/// constant (the initializers the convolution strategy fuses) becomes a
/// broadcast of the changed constant into an empty `type`; anything else is
/// expanded and gets an element-wise addition.
Value initialValue(PatternRewriter &rewriter, Location loc, Value init,
                   ArrayRef<int32_t> delta, RankedTensorType type) {
  auto initType = cast<RankedTensorType>(init.getType());
  int64_t rank = type.getRank();
  auto vectorType =
      RankedTensorType::get({int64_t(delta.size())}, rewriter.getI32Type());
  auto lastOf = [&](int64_t n) {
    return AffineMap::get(n, 0, rewriter.getAffineDimExpr(n - 1));
  };
  AffineMap last = lastOf(rank), id = rewriter.getMultiDimIdentityMap(rank);
  SmallVector<utils::IteratorType> parallel(rank,
                                            utils::IteratorType::parallel);
  // An element-wise generic into an empty `type` reading the constant
  // vector `values` along the last dimension (after `init`, if given).
  auto perChannel = [&](Value init, ArrayRef<int32_t> values) -> Value {
    Value c = rewriter.create<arith::ConstantOp>(
        loc, DenseElementsAttr::get(vectorType, values));
    Value empty = rewriter.create<tensor::EmptyOp>(loc, type.getShape(),
                                                   type.getElementType());
    SmallVector<Value> ins = {c};
    SmallVector<AffineMap> maps = {last, id};
    if (init) {
      ins.insert(ins.begin(), init);
      maps.insert(maps.begin(), id);
    }
    return rewriter
        .create<linalg::GenericOp>(
            loc, TypeRange{type}, ins, ValueRange{empty}, maps, parallel,
            [&](OpBuilder &b, Location l, ValueRange args) {
              b.create<linalg::YieldOp>(
                  l, init ? ValueRange{b.create<arith::AddIOp>(l, args[0],
                                                               args[1])}
                          : ValueRange{args[0]});
            })
        ->getResult(0);
  };
  auto broadcast = [&](ArrayRef<int32_t> values) {
    return perChannel(Value(), values);
  };
  auto plus = [&](auto base) {
    SmallVector<int32_t> values;
    for (size_t f = 0; f < delta.size(); ++f)
      values.push_back(int32_t(uint32_t(base(f)) + uint32_t(delta[f])));
    return values;
  };
  if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
    IntegerAttr c;
    if (matchPattern(fill.value(), m_Constant(&c)))
      return broadcast(plus([&](size_t) { return c.getInt(); }));
  }
  if (auto generic = init.getDefiningOp<linalg::GenericOp>()) {
    DenseIntElementsAttr bias;
    Block *body = generic.getBody();
    int64_t initRank = initType.getRank();
    if (generic.getNumDpsInputs() == 1 && generic.getNumDpsInits() == 1 &&
        generic.getNumParallelLoops() == generic.getNumLoops() &&
        generic.getIndexingMapsArray() ==
            SmallVector<AffineMap>{lastOf(initRank),
                                   rewriter.getMultiDimIdentityMap(initRank)} &&
        body->getTerminator()->getOperand(0) == body->getArgument(0) &&
        matchPattern(generic.getDpsInputs()[0], m_Constant(&bias)) &&
        bias.getNumElements() == int64_t(delta.size())) {
      SmallVector<APInt> b(bias.getValues<APInt>());
      return broadcast(plus([&](size_t f) { return b[f].getSExtValue(); }));
    }
  }
  if (initType != type) {
    std::optional<SmallVector<ReassociationIndices>> map =
        getReassociationIndicesForReshape(initType, type);
    init = rewriter.create<tensor::ExpandShapeOp>(loc, type, init, *map);
  }
  return perChannel(init, delta);
}

/// A filter [KH, KW, C, F] of 8-bit differences from its zero point, and
/// each output channel's sum of them; or, when the differences do not fit
/// 8 bits (uint8 weights with a zero point, as dynamic quantization makes),
/// the weights themselves, with that zero point left to the window sums.
struct Int8Filter {
  SmallVector<int8_t> hwcf;
  SmallVector<int64_t> sums;
  int64_t windowZero = 0; ///< Subtracted times each window's input sum.
};

/// `filter` minus `zero`, its i-th element moved to position hwcfIndex(i)
/// of the HWCF filter.
Int8Filter int8Filter(DenseIntElementsAttr filter, int64_t zero,
                      ArrayRef<int64_t> hwcfShape,
                      function_ref<int64_t(int64_t)> hwcfIndex) {
  SmallVector<int64_t> values;
  for (const APInt &v : filter.getValues<APInt>())
    values.push_back(v.getSExtValue());
  Int8Filter r;
  if (llvm::any_of(values, [&](int64_t v) {
        return v - zero < -128 || v - zero > 127;
      })) {
    r.windowZero = zero;
    zero = 0;
  }
  r.hwcf.resize(values.size());
  r.sums.assign(hwcfShape[3], 0);
  for (auto [i, v] : llvm::enumerate(values)) {
    int64_t at = hwcfIndex(i);
    r.hwcf[at] = int8_t(v - zero);
    r.sums[at % hwcfShape[3]] += v - zero;
  }
  return r;
}

/// Over NHWC loops, the identity and the map that reads one value per pixel
/// (a [N, H, W, 1] tensor).
std::pair<AffineMap, AffineMap> pixelMaps(MLIRContext *ctx) {
  AffineExpr n, h, w, c;
  bindDims(ctx, n, h, w, c);
  return {AffineMap::get(4, 0, {n, h, w, c}, ctx),
          AffineMap::get(4, 0, {n, h, w, getAffineConstantExpr(0, ctx)}, ctx)};
}

/// The sums of `input` (i8 [N, H, W, C]) over each window of a convolution
/// with filter `hwcfShape` into `outType` ([N, OH, OW, F]), as i32
/// [N, OH, OW, 1]: the input channels summed per pixel, then those sums
/// over the window (a sum pooling) unless it is one pixel.
Value windowSums(PatternRewriter &rewriter, Location loc, Value input,
                 ArrayRef<int64_t> hwcfShape, RankedTensorType outType,
                 DenseIntElementsAttr strides, DenseIntElementsAttr dilations) {
  ArrayRef<int64_t> in = cast<RankedTensorType>(input.getType()).getShape();
  ArrayRef<int64_t> out = outType.getShape();
  Type i32 = rewriter.getI32Type();
  Value zero = rewriter.create<arith::ConstantOp>(loc,
                                                  rewriter.getI32IntegerAttr(0));
  auto zeros = [&](ArrayRef<int64_t> shape) {
    Value empty = rewriter.create<tensor::EmptyOp>(loc, shape, i32);
    return rewriter.create<linalg::FillOp>(loc, zero, empty).getResult(0);
  };
  auto [id, pixel] = pixelMaps(rewriter.getContext());
  SmallVector<int64_t> pixelShape = {in[0], in[1], in[2], 1};
  Value channelSums =
      rewriter
          .create<linalg::GenericOp>(
              loc, TypeRange{RankedTensorType::get(pixelShape, i32)},
              ValueRange{input}, ValueRange{zeros(pixelShape)},
              ArrayRef<AffineMap>{id, pixel},
              ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                            utils::IteratorType::parallel,
                                            utils::IteratorType::parallel,
                                            utils::IteratorType::reduction},
              [&](OpBuilder &b, Location l, ValueRange args) {
                Value x = b.create<arith::ExtSIOp>(l, i32, args[0]);
                b.create<linalg::YieldOp>(
                    l, ValueRange{b.create<arith::AddIOp>(l, args[1], x)});
              })
          ->getResult(0);
  SmallVector<int64_t> sumShape = {out[0], out[1], out[2], 1};
  if (hwcfShape[0] == 1 && hwcfShape[1] == 1 &&
      ArrayRef<int64_t>(pixelShape) == ArrayRef<int64_t>(sumShape))
    return channelSums;
  Value window = rewriter.create<tensor::EmptyOp>(
      loc, ArrayRef<int64_t>{hwcfShape[0], hwcfShape[1]}, i32);
  return rewriter
      .create<linalg::PoolingNhwcSumOp>(
          loc, TypeRange{RankedTensorType::get(sumShape, i32)},
          ValueRange{channelSums, window}, ValueRange{zeros(sumShape)},
          strides, dilations)
      ->getResult(0);
}

/// linalg.conv_2d_nhwc_hwcf of `input` (i8) and `filter`, its accumulator
/// starting at `init` (reshaped to `outType`) - zx * the filter's sums: sum
/// (x - zx) w' over a window is sum x w' - zx sum w', exact in i32 as the
/// original is (the padded border holds what the input operand holds
/// either way). A filter that keeps its zero point zw (windowZero) also
/// gets + zx zw (KH KW C) in the initial value and - zw times each
/// window's input sum after: sum (x - zx)(w - zw) = sum x w - zx sum w -
/// zw sum x + zx zw (KH KW C).
Value int8Conv(PatternRewriter &rewriter, Location loc, Value input,
               const Int8Filter &filter, ArrayRef<int64_t> hwcfShape,
               int64_t zx, Value init, RankedTensorType outType,
               DenseIntElementsAttr strides, DenseIntElementsAttr dilations) {
  Value weights = rewriter.create<arith::ConstantOp>(
      loc, DenseElementsAttr::get(
               RankedTensorType::get(hwcfShape, rewriter.getI8Type()),
               ArrayRef<int8_t>(filter.hwcf)));
  int64_t window = hwcfShape[0] * hwcfShape[1] * hwcfShape[2];
  SmallVector<int32_t> delta;
  for (int64_t s : filter.sums)
    delta.push_back(int32_t(
        uint32_t(-zx * s + zx * filter.windowZero * window)));
  if (zx != 0 || init.getType() != outType)
    init = initialValue(rewriter, loc, init, delta, outType);
  Value conv = rewriter
                   .create<linalg::Conv2DNhwcHwcfOp>(
                       loc, TypeRange{outType}, ValueRange{input, weights},
                       ValueRange{init}, strides, dilations)
                   ->getResult(0);
  if (!filter.windowZero)
    return conv;
  Value sums = windowSums(rewriter, loc, input, hwcfShape, outType, strides,
                          dilations);
  auto [id, pixel] = pixelMaps(rewriter.getContext());
  Value empty = rewriter.create<tensor::EmptyOp>(loc, outType.getShape(),
                                                 outType.getElementType());
  int64_t zw = filter.windowZero;
  return rewriter
      .create<linalg::GenericOp>(
          loc, TypeRange{outType}, ValueRange{conv, sums}, ValueRange{empty},
          ArrayRef<AffineMap>{id, pixel, id},
          SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value k = b.create<arith::ConstantOp>(l, b.getI32IntegerAttr(zw));
            Value t = b.create<arith::MulIOp>(l, args[1], k);
            b.create<linalg::YieldOp>(
                l, ValueRange{b.create<arith::SubIOp>(l, args[0], t)});
          })
      ->getResult(0);
}

/// The operands of a `_q` convolution or matmul the 8-bit form takes: an i8
/// input, a constant i8 filter, constant zero points, an i32 result.
struct Int8Operands {
  DenseIntElementsAttr filter;
  int64_t inputZero, filterZero;
};

std::optional<Int8Operands> int8Operands(linalg::LinalgOp op) {
  ValueRange in = op.getDpsInputs();
  Int8Operands r;
  IntegerAttr inputZero, filterZero;
  if (!op.hasPureTensorSemantics() || in.size() != 4 ||
      op->getNumResults() != 1 || !isStaticOf(in[0], 8) ||
      !isStaticOf(op->getResult(0), 32) ||
      !matchPattern(in[1], m_Constant(&r.filter)) ||
      !r.filter.getElementType().isInteger(8) ||
      !matchPattern(in[2], m_Constant(&inputZero)) ||
      !matchPattern(in[3], m_Constant(&filterZero)))
    return std::nullopt;
  r.inputZero = inputZero.getInt();
  r.filterZero = filterZero.getInt();
  return r;
}

/// linalg.conv_2d_nhwc_fhwc_q on an i8 input with a constant i8 filter ->
/// an 8-bit linalg.conv_2d_nhwc_hwcf (int8Conv).
struct Int8ConvWithZeroPoints
    : OpRewritePattern<linalg::Conv2DNhwcFhwcQOp> {
  Int8ConvWithZeroPoints(MLIRContext *ctx)
      : OpRewritePattern(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(linalg::Conv2DNhwcFhwcQOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Int8Operands> q = int8Operands(op);
    if (!q)
      return failure();
    ArrayRef<int64_t> fhwc = q->filter.getType().getShape();
    int64_t f = fhwc[0], window = fhwc[1] * fhwc[2] * fhwc[3];
    SmallVector<int64_t> hwcf = {fhwc[1], fhwc[2], fhwc[3], f};
    Int8Filter w = int8Filter(q->filter, q->filterZero, hwcf, [&](int64_t i) {
      return (i % window) * f + i / window;
    });
    rewriter.replaceOp(
        op, int8Conv(rewriter, op.getLoc(), op.getInputs()[0], w, hwcf,
                     q->inputZero, op.getOutputs()[0],
                     cast<RankedTensorType>(op->getResult(0).getType()),
                     op.getStrides(), op.getDilations()));
    return success();
  }
};

/// linalg.quantized_matmul of an i8 [M, K] by a constant i8 [K, N] -> an
/// 8-bit 1x1 convolution (int8Conv): of the [1, H, W, K] feature map that A
/// collapses, into the [1, H, W, N] the result is expanded to (a 1x1
/// convolution that TOSA made a matmul), else of A as [1, 1, M, K].
struct Int8MatmulAsConv : OpRewritePattern<linalg::QuantizedMatmulOp> {
  Int8MatmulAsConv(MLIRContext *ctx) : OpRewritePattern(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(linalg::QuantizedMatmulOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Int8Operands> q = int8Operands(op);
    if (!q)
      return failure();
    ValueRange in = op.getInputs();
    int64_t k = q->filter.getType().getDimSize(0),
            n = q->filter.getType().getDimSize(1);
    SmallVector<int64_t> hwcf = {1, 1, k, n};
    Int8Filter w = int8Filter(q->filter, q->filterZero, hwcf,
                              [](int64_t i) { return i; });
    Location loc = op.getLoc();
    Value result = op->getResult(0);
    auto resultType = cast<RankedTensorType>(result.getType());
    SmallVector<ReassociationIndices> rows = {{0, 1, 2}, {3}};
    // The feature map A collapses and the one its result is expanded to.
    auto collapse = in[0].getDefiningOp<tensor::CollapseShapeOp>();
    auto expand = result.hasOneUse()
                      ? dyn_cast<tensor::ExpandShapeOp>(*result.user_begin())
                      : tensor::ExpandShapeOp();
    if (collapse && expand && collapse.getSrcType().getRank() == 4 &&
        collapse.getSrcType().getDimSize(0) == 1 &&
        collapse.getReassociationIndices() == rows &&
        expand.getReassociationIndices() == rows &&
        expand.getResultType().getShape().drop_back() ==
            collapse.getSrcType().getShape().drop_back()) {
      Value conv = int8Conv(
          rewriter, loc, collapse.getSrc(), w, hwcf, q->inputZero,
          op.getOutputs()[0], expand.getResultType(),
          rewriter.getI64TensorAttr({1, 1}), rewriter.getI64TensorAttr({1, 1}));
      rewriter.replaceOp(expand, conv);
      rewriter.eraseOp(op);
      return success();
    }
    auto lhsType = cast<RankedTensorType>(in[0].getType());
    auto expanded = [](RankedTensorType t) {
      return RankedTensorType::get({1, 1, t.getDimSize(0), t.getDimSize(1)},
                                   t.getElementType());
    };
    Value lhs = rewriter.create<tensor::ExpandShapeOp>(loc, expanded(lhsType),
                                                       in[0], rows);
    Value conv = int8Conv(rewriter, loc, lhs, w, hwcf, q->inputZero,
                          op.getOutputs()[0], expanded(resultType),
                          rewriter.getI64TensorAttr({1, 1}),
                          rewriter.getI64TensorAttr({1, 1}));
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(op, resultType, conv,
                                                         rows);
    return success();
  }
};

/// linalg.quantized_matmul or quantized_batch_matmul of two 8-bit tensors
/// (B not a constant: Int8MatmulAsConv packs those, or, where it does not
/// apply, they are widened to i32 and packed as panels) -> the plain 8-bit
/// op,
/// whose tiles compute on dot-product instructions (lowerInt8ConvTiles),
/// and its zero points after it: sum (a - za)(b - zb) over k is
/// sum ab - za colsum(B) - zb rowsum(A) + K za zb, the sums computed once
/// per call (O(MK + KN) against the product's O(MKN)). Exact in i32 as the
/// original is (wrapping).
template <typename QuantizedOp, typename PlainOp>
struct Int8MatmulOfTensors : OpRewritePattern<QuantizedOp> {
  using OpRewritePattern<QuantizedOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizedOp op,
                                PatternRewriter &rewriter) const override {
    ValueRange in = op.getInputs();
    IntegerAttr za, zb;
    if (!op.hasPureTensorSemantics() || !isStaticOf(in[0], 8) ||
        !isStaticOf(in[1], 8) || !isStaticOf(op->getResult(0), 32) ||
        matchPattern(in[1], m_Constant()) ||
        !matchPattern(in[2], m_Constant(&za)) ||
        !matchPattern(in[3], m_Constant(&zb)))
      return failure();
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Value product = rewriter
                        .create<PlainOp>(loc, TypeRange{resultType},
                                         ValueRange{in[0], in[1]},
                                         op.getOutputs())
                        ->getResult(0);
    int64_t a0 = za.getInt(), b0 = zb.getInt();
    if (a0 == 0 && b0 == 0) {
      rewriter.replaceOp(op, product);
      return success();
    }
    // A [(B,) M, K], B [(B,) K, N].
    int64_t rank = resultType.getRank();
    ArrayRef<int64_t> shape = resultType.getShape();
    int64_t k = cast<RankedTensorType>(in[0].getType()).getShape().back();
    MLIRContext *ctx = rewriter.getContext();
    Type i32 = rewriter.getI32Type();
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    // The result's loops but the last two, then `dims`.
    auto batchAnd = [&](ArrayRef<int64_t> dims) {
      SmallVector<AffineExpr> r;
      for (int64_t i = 0; i < rank - 2; ++i)
        r.push_back(getAffineDimExpr(i, ctx));
      for (int64_t i : dims)
        r.push_back(getAffineDimExpr(i, ctx));
      return AffineMap::get(rank, 0, r, ctx);
    };
    // The sums over k of `v` into [batch, kept]: of A's rows over loops
    // (batch, m, k), of B's columns over loops (batch, k, n), so that the
    // innermost loop is the contiguous one either way (B's columns then
    // add as whole vectors).
    auto sums = [&](Value v, bool columns, int64_t kept) {
      SmallVector<int64_t> sumShape(shape.drop_back(2));
      sumShape.push_back(kept);
      Value zero = rewriter.create<arith::ConstantOp>(
          loc, rewriter.getI32IntegerAttr(0));
      Value init =
          rewriter
              .create<linalg::FillOp>(
                  loc, zero,
                  rewriter.create<tensor::EmptyOp>(loc, sumShape, i32)
                      .getResult())
              .getResult(0);
      SmallVector<utils::IteratorType> iterators(
          rank, utils::IteratorType::parallel);
      int64_t k = columns ? rank - 2 : rank - 1;
      iterators[k] = utils::IteratorType::reduction;
      return rewriter
          .create<linalg::GenericOp>(
              loc, TypeRange{init.getType()}, ValueRange{v}, ValueRange{init},
              ArrayRef<AffineMap>{id, batchAnd({columns ? rank - 1 : rank - 2})},
              iterators,
              [&](OpBuilder &b, Location l, ValueRange args) {
                Value x = b.create<arith::ExtSIOp>(l, i32, args[0]);
                b.create<linalg::YieldOp>(
                    l, ValueRange{b.create<arith::AddIOp>(l, args[1], x)});
              })
          ->getResult(0);
    };
    // Over the result's loops (batch, m, n): B's column sums at
    // (batch, n), A's row sums at (batch, m).
    SmallVector<Value> ins = {product};
    SmallVector<AffineMap> maps = {id};
    if (a0 != 0) {
      ins.push_back(sums(in[1], /*columns=*/true, shape.back()));
      maps.push_back(batchAnd({rank - 1}));
    }
    if (b0 != 0) {
      ins.push_back(sums(in[0], /*columns=*/false, shape[rank - 2]));
      maps.push_back(batchAnd({rank - 2}));
    }
    maps.push_back(id);
    Value empty = rewriter.create<tensor::EmptyOp>(
        loc, resultType.getShape(), i32);
    int32_t constant = int32_t(uint32_t(k) * uint32_t(a0) * uint32_t(b0));
    rewriter.replaceOpWithNewOp<linalg::GenericOp>(
        op, TypeRange{resultType}, ins, ValueRange{empty}, maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange args) {
          auto c = [&](int64_t v) {
            return b.create<arith::ConstantOp>(l, b.getI32IntegerAttr(v));
          };
          Value r = args[0];
          unsigned next = 1;
          if (a0 != 0)
            r = b.create<arith::SubIOp>(
                l, r, b.create<arith::MulIOp>(l, args[next++], c(a0)));
          if (b0 != 0)
            r = b.create<arith::SubIOp>(
                l, r, b.create<arith::MulIOp>(l, args[next++], c(b0)));
          if (constant != 0)
            r = b.create<arith::AddIOp>(l, r, c(constant));
          b.create<linalg::YieldOp>(l, r);
        });
    return success();
  }
};

/// `v` (a static i8 tensor) sign-extended to i16 by an element-wise op.
Value widenToI16(PatternRewriter &rewriter, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t rank = type.getRank();
  Type i16 = rewriter.getI16Type();
  Value empty = rewriter.create<tensor::EmptyOp>(loc, type.getShape(), i16);
  AffineMap id = rewriter.getMultiDimIdentityMap(rank);
  return rewriter
      .create<linalg::GenericOp>(
          loc, TypeRange{empty.getType()}, ValueRange{v}, ValueRange{empty},
          ArrayRef<AffineMap>{id, id},
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [&](OpBuilder &b, Location l, ValueRange args) {
            b.create<linalg::YieldOp>(
                l, ValueRange{b.create<arith::ExtSIOp>(l, i16, args[0])});
          })
      ->getResult(0);
}

/// For vpmaddwd: an isInt8Conv op's 8-bit input sign-extended to 16 bits
/// once, before the convolution (before its padding, so that the extension
/// joins the element-wise chain that made the input), instead of in every
/// tile for every broadcast (four instructions per row and step, against
/// one broadcast from memory).
struct WidenConvInput : OpRewritePattern<linalg::Conv2DNhwcHwcfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::Conv2DNhwcHwcfOp op,
                                PatternRewriter &rewriter) const override {
    Value input = op.getInputs()[0];
    if (!isInt8Conv(op) || !isStaticOf(input, 8))
      return failure();
    Location loc = op.getLoc();
    Type i16 = rewriter.getI16Type();
    auto widen = [&](Value v) { return widenToI16(rewriter, loc, v); };
    Value wide;
    auto pad = input.getDefiningOp<tensor::PadOp>();
    IntegerAttr padValue;
    if (pad && pad->hasOneUse() && pad.getConstantPaddingValue() &&
        matchPattern(pad.getConstantPaddingValue(), m_Constant(&padValue))) {
      auto padType = cast<RankedTensorType>(pad.getResultType());
      Value value = rewriter.create<arith::ConstantOp>(
          loc, rewriter.getIntegerAttr(i16, padValue.getValue().getSExtValue()));
      wide = rewriter.create<tensor::PadOp>(
          loc, RankedTensorType::get(padType.getShape(), i16),
          widen(pad.getSource()), pad.getMixedLowPad(), pad.getMixedHighPad(),
          value);
    } else {
      wide = widen(input);
    }
    rewriter.replaceOpWithNewOp<linalg::Conv2DNhwcHwcfOp>(
        op, op->getResultTypes(), ValueRange{wide, op.getInputs()[1]},
        op.getOutputs(), op.getStrides(), op.getDilations());
    return success();
  }
};

/// For vpmaddwd: an isInt8Matmul op's 8-bit operands sign-extended to 16
/// bits once, before the product (O(MK + KN) against its O(MKN)), instead
/// of B's rows in every tile of rows.
template <typename PlainOp>
struct WidenMatmulOperands : OpRewritePattern<PlainOp> {
  using OpRewritePattern<PlainOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(PlainOp op,
                                PatternRewriter &rewriter) const override {
    if (!isInt8Matmul(op) || !isStaticOf(op.getInputs()[0], 8))
      return failure();
    Location loc = op.getLoc();
    rewriter.replaceOpWithNewOp<PlainOp>(
        op, op->getResultTypes(),
        ValueRange{widenToI16(rewriter, loc, op.getInputs()[0]),
                   widenToI16(rewriter, loc, op.getInputs()[1])},
        op.getOutputs());
    return success();
  }
};

} // namespace

void populateMaddOperandPatterns(RewritePatternSet &patterns, DotKind kind) {
  if (isMadd(kind))
    patterns.add<WidenConvInput, WidenMatmulOperands<linalg::MatmulOp>,
                 WidenMatmulOperands<linalg::BatchMatmulOp>>(
        patterns.getContext());
}

void populateInt8ConvPatterns(RewritePatternSet &patterns, DotKind kind) {
  if (kind != DotKind::None)
    patterns.add<Int8ConvWithZeroPoints, Int8MatmulAsConv>(
        patterns.getContext());
}

void populateInt8MatmulPatterns(RewritePatternSet &patterns, DotKind kind) {
  if (kind != DotKind::None)
    patterns.add<Int8MatmulOfTensors<linalg::QuantizedMatmulOp,
                                     linalg::MatmulOp>,
                 Int8MatmulOfTensors<linalg::QuantizedBatchMatmulOp,
                                     linalg::BatchMatmulOp>>(
        patterns.getContext());
}

} // namespace mlir::nnapi::codegen
