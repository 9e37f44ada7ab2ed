//===- DotProducts.cpp - 8-bit tiles on dot-product instructions ---------===//
//
// A dot-product instruction adds, in each 32-bit lane, the products of a
// group of G pairs: four 8-bit ones (vpdpbusd, sdot) or two 16-bit ones
// (vpmaddwd, whose sums the tile adds to the lane). A register tile of a
// convolution (rows output pixels by `vectors` vectors of output channels)
// then takes, per filter tap and per G input channels, one 32-bit broadcast
// of the G input values per row and one vector of the filter per output
// vector: the filter is packed at compile time as [KH][KW][C/G][F'][G],
// each lane's G values being G input channels of one output channel. A tile
// of a matmul of two computed tensors interleaves G rows of B into that
// layout in registers.
//
// x86's vpdpbusd multiplies unsigned by signed bytes: the input's bytes are
// flipped (x + 128) as they are broadcast, and 128 times each output
// channel's filter sum is subtracted from the accumulators. AArch64's sdot
// multiplies signed by signed. vpmaddwd multiplies signed 16-bit values:
// nnapi-codegen-prepare sign-extends the 8-bit operands once, before the op
// (tiles of 8-bit operands are left to the generic strategy), the filter is
// packed as 16-bit values, and the pair sums of 8-bit products are exact
// (at most 2 * 128 * 128). (DotProductOperands.cpp prepares the operands.)
//
//===----------------------------------------------------------------------===//

#include "DotProducts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

#include <numeric>

using namespace mlir;

namespace mlir::nnapi::codegen {

namespace {

//===----------------------------------------------------------------------===//
// nnapi-codegen: register tiles to dot products
//===----------------------------------------------------------------------===//

int64_t lanesOf(DotKind kind) {
  switch (kind) {
  case DotKind::Avx512Vnni:
  case DotKind::Avx512Madd:
    return 16;
  case DotKind::AvxVnni:
  case DotKind::Avx2Madd:
    return 8;
  case DotKind::DotProd:
  case DotKind::I8mm:
    return 4;
  case DotKind::None:
    break;
  }
  return 0;
}

/// vpdpbusd takes unsigned bytes on its first operand.
bool flipsInput(DotKind kind) {
  return kind == DotKind::Avx512Vnni || kind == DotKind::AvxVnni;
}

/// The products each lane sums: G.
int64_t groupOf(DotKind kind) { return isMadd(kind) ? 2 : 4; }

/// The width of the instruction's operands: 16 for vpmaddwd, else 8.
unsigned operandBits(DotKind kind) { return isMadd(kind) ? 16 : 8; }


struct Packed {
  Value weights;    ///< [KH, KW, C/G, F' * G] of the operand type
  Value correction; ///< [F'] i32: 128 * the filter sums (flipped inputs)
};

class TileLowering {
public:
  TileLowering(DotKind kind, int64_t registers, Block &entry)
      : kind(kind), lanes(lanesOf(kind)), group(groupOf(kind)),
        registers(registers), entry(entry) {}
  LogicalResult lower(RewriterBase &rewriter, linalg::Conv2DNhwcHwcfOp op);
  LogicalResult lower(RewriterBase &rewriter, linalg::MatmulOp op);

private:
  Packed pack(RewriterBase &rewriter, arith::ConstantOp filter);
  Value dot(OpBuilder &b, Location loc, Value acc, Value x, Value w) const;
  /// G values of `input` at `at` (the last index the first value's; fewer,
  /// `width`, padded with zeros) as one 32-bit word broadcast to every
  /// lane: four bytes, flipped for vpdpbusd, or two 16-bit values for
  /// vpmaddwd.
  Value broadcastWord(OpBuilder &b, Location loc, Value input,
                      ValueRange at, int64_t width) const;
  /// The accumulators of a tile [1.., rows, channels] of `init`, row-major,
  /// `vectors` per row (the last padded with zeros), each minus
  /// correction(j) if given. The tile is read (and written by
  /// writeAccumulators) as one vector, so that the initializer fused before
  /// and the element-wise ops fused after forward it in registers instead
  /// of through a buffer.
  SmallVector<Value>
  readAccumulators(RewriterBase &rewriter, Location loc, Value init,
                   function_ref<Value(int64_t j)> correction) const;
  /// Replaces `op` by the accumulators written into its tile.
  void writeAccumulators(RewriterBase &rewriter, Operation *op,
                         ArrayRef<Value> accs) const;

  /// Whether `v`'s elements are the instruction's operands: bytes, or for
  /// vpmaddwd 16-bit values (nnapi-codegen-prepare widens them).
  bool takes(Value v) const {
    return getElementTypeOrSelf(v).isInteger(operandBits(kind));
  }

  DotKind kind;
  int64_t lanes, group, registers;
  Block &entry;
  DenseMap<Operation *, Packed> packed;
};

Packed TileLowering::pack(RewriterBase &rewriter, arith::ConstantOp filter) {
  auto it = packed.find(filter);
  if (it != packed.end())
    return it->second;
  auto attr = cast<DenseIntElementsAttr>(filter.getValue());
  ArrayRef<int64_t> shape = attr.getType().getShape(); // KH, KW, C, F
  int64_t taps = shape[0] * shape[1], c = shape[2], f = shape[3];
  int64_t cg = (c + group - 1) / group;
  // One vector of zero channels past the last: a tile whose first channel
  // is not a multiple of the lanes (a power-of-two piece of a remainder)
  // reads up to a vector beyond its channels.
  int64_t fp = (f + lanes - 1) / lanes * lanes + lanes;
  SmallVector<int16_t> weights(taps * cg * fp * group, 0);
  SmallVector<int32_t> sums(fp, 0);
  int64_t i = 0;
  for (const APInt &v : attr.getValues<APInt>()) {
    int64_t tap = i / (c * f), ch = i / f % c, oc = i % f;
    int8_t w = int8_t(v.getSExtValue());
    weights[((tap * cg + ch / group) * fp + oc) * group + ch % group] = w;
    sums[oc] += 128 * int32_t(w);
    ++i;
  }
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&entry);
  Location loc = filter.getLoc();
  unsigned bits = operandBits(kind);
  auto weightsType =
      RankedTensorType::get({shape[0], shape[1], cg, fp * group},
                            rewriter.getIntegerType(bits));
  Packed p;
  p.weights = rewriter.create<arith::ConstantOp>(
      loc, bits == 16 ? DenseElementsAttr::get(weightsType,
                                               ArrayRef<int16_t>(weights))
                      : DenseElementsAttr::get(
                            weightsType,
                            ArrayRef<int8_t>(SmallVector<int8_t>(weights.begin(),
                                                              weights.end()))));
  if (flipsInput(kind))
    p.correction = rewriter.create<arith::ConstantOp>(
        loc, DenseElementsAttr::get(
                 RankedTensorType::get({fp}, rewriter.getI32Type()),
                 ArrayRef<int32_t>(sums)));
  return packed[filter] = p;
}

/// acc + the sums of G products of pairs per lane, in plain vector ops
/// (unsigned x for vpdpbusd, signed for sdot and vpmaddwd);
/// nnapi-lower-vectors turns them into the instruction
/// (DotProductToIntrinsic). Keeping them plain until then keeps the tiles
/// free of ops with memory effects.
Value TileLowering::dot(OpBuilder &b, Location loc, Value acc, Value x,
                        Value w) const {
  Type i32 = b.getI32Type();
  auto values = VectorType::get({group * lanes},
                                b.getIntegerType(operandBits(kind)));
  auto words = VectorType::get({group * lanes}, i32);
  // x: a word of G input values per lane; w: G filter values per lane.
  x = b.create<vector::BitCastOp>(loc, values, x);
  Value ex = flipsInput(kind)
                 ? b.create<arith::ExtUIOp>(loc, words, x).getResult()
                 : b.create<arith::ExtSIOp>(loc, words, x).getResult();
  Value ew = b.create<arith::ExtSIOp>(loc, words, w);
  Value products = b.create<vector::ShapeCastOp>(
      loc, VectorType::get({lanes, group}, i32),
      b.create<arith::MulIOp>(loc, ex, ew));
  return b.create<vector::MultiDimReductionOp>(
      loc, products, acc, ArrayRef<bool>{false, true},
      vector::CombiningKind::ADD);
}

Value TileLowering::broadcastWord(OpBuilder &b, Location loc, Value input,
                                  ValueRange at, int64_t width) const {
  Type i32 = b.getI32Type();
  auto accType = VectorType::get({lanes}, i32);
  Type element = getElementTypeOrSelf(input);
  Value bytes = b.create<vector::TransferReadOp>(
      loc, VectorType::get({width}, element), input, at, ArrayRef<bool>{true});
  if (width < group)
    bytes = b.create<vector::InsertStridedSliceOp>(
        loc, bytes,
        b.create<arith::ConstantOp>(
            loc, DenseElementsAttr::get(VectorType::get({group}, element),
                                        b.getIntegerAttr(element, 0))),
        ArrayRef<int64_t>{0}, ArrayRef<int64_t>{1});
  Value word = b.create<vector::ExtractOp>(
      loc,
      b.create<vector::BitCastOp>(loc, VectorType::get({1}, i32), bytes),
      ArrayRef<int64_t>{0});
  Value v = b.create<vector::BroadcastOp>(loc, accType, word);
  if (flipsInput(kind))
    v = b.create<arith::XOrIOp>(
        loc, v,
        b.create<arith::ConstantOp>(
            loc, DenseElementsAttr::get(
                     accType, b.getI32IntegerAttr(int32_t(0x80808080)))));
  return v;
}

SmallVector<Value>
TileLowering::readAccumulators(RewriterBase &rewriter, Location loc,
                               Value init,
                               function_ref<Value(int64_t)> correction) const {
  auto type = cast<RankedTensorType>(init.getType());
  int64_t rank = type.getRank();
  int64_t rows = type.getDimSize(rank - 2), channels = type.getDimSize(rank - 1);
  auto accType = VectorType::get({lanes}, rewriter.getI32Type());
  Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
  Value zeros = rewriter.create<arith::ConstantOp>(
      loc, DenseElementsAttr::get(accType, rewriter.getI32IntegerAttr(0)));
  Value tile = rewriter.create<vector::TransferReadOp>(
      loc, VectorType::get(type.getShape(), type.getElementType()), init,
      SmallVector<Value>(rank, zero), SmallVector<bool>(rank, true));
  SmallVector<Value> accs;
  for (int64_t r = 0; r < rows; ++r) {
    SmallVector<int64_t> position(rank - 2, 0);
    position.push_back(r);
    Value row = rewriter.create<vector::ExtractOp>(loc, tile, position);
    for (int64_t j = 0; j * lanes < channels; ++j) {
      int64_t n = std::min(lanes, channels - j * lanes);
      Value v = row;
      if (n < channels)
        v = rewriter.create<vector::ExtractStridedSliceOp>(
            loc, row, ArrayRef<int64_t>{j * lanes}, ArrayRef<int64_t>{n},
            ArrayRef<int64_t>{1});
      if (n < lanes)
        v = rewriter.create<vector::InsertStridedSliceOp>(
            loc, v, zeros, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{1});
      if (Value c = correction(j))
        v = rewriter.create<arith::SubIOp>(loc, v, c);
      accs.push_back(v);
    }
  }
  return accs;
}

void TileLowering::writeAccumulators(RewriterBase &rewriter, Operation *op,
                                     ArrayRef<Value> accs) const {
  Location loc = op->getLoc();
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t rank = type.getRank();
  int64_t rows = type.getDimSize(rank - 2), channels = type.getDimSize(rank - 1);
  int64_t vectors = (channels + lanes - 1) / lanes;
  auto tileType = VectorType::get(type.getShape(), type.getElementType());
  Value result = rewriter.create<arith::ConstantOp>(
      loc, DenseElementsAttr::get(tileType, rewriter.getI32IntegerAttr(0)));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < vectors; ++j) {
      int64_t n = std::min(lanes, channels - j * lanes);
      Value v = accs[r * vectors + j];
      if (n < lanes)
        v = rewriter.create<vector::ExtractStridedSliceOp>(
            loc, v, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{n},
            ArrayRef<int64_t>{1});
      SmallVector<int64_t> at(rank - 2, 0);
      at.append({r, j * lanes});
      result = rewriter.create<vector::InsertStridedSliceOp>(
          loc, v, result, at, ArrayRef<int64_t>{1});
    }
  Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
  Value init = cast<DestinationStyleOpInterface>(op).getDpsInits()[0];
  result = rewriter
               .create<vector::TransferWriteOp>(
                   loc, result, init, SmallVector<Value>(rank, zero),
                   SmallVector<bool>(rank, true))
               .getResult();
  rewriter.replaceOp(op, result);
}

/// A tile [rows, K] x [K, n] of an 8-bit matmul of two computed tensors:
/// per step of G k, each row's G values of A broadcast as a word, and
/// per vector of columns G rows of B's bytes interleaved in registers
/// (each lane's G values G k of one column), the layout the packed
/// filter of a convolution has in memory. B is re-interleaved for every
/// tile of rows; packing it once per call would need a buffer and a pass
/// over it. For vpdpbusd, whose flipped A adds 128 times each column's sum
/// of B, that sum is one more dot product per vector and step, of the
/// flip's bytes and B's.
LogicalResult TileLowering::lower(RewriterBase &rewriter,
                                  linalg::MatmulOp op) {
  std::optional<MatmulTile> t = matmulTile(op);
  if (!t)
    return failure();
  Value a = t->a, bm = t->b;
  if (!takes(a) || !takes(bm))
    return failure();
  int64_t rows = t->rows, channels = t->channels, k = t->k;
  int64_t vectors = (channels + lanes - 1) / lanes;
  bool flips = flipsInput(kind);
  // Accumulators, B's vectors, the corrections and a broadcast.
  if (rows * vectors + vectors * (flips ? 2 : 1) + 1 > registers)
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Type element = getElementTypeOrSelf(bm), i32 = rewriter.getI32Type();
  auto accType = VectorType::get({lanes}, i32);
  auto index = [&](OpBuilder &b, int64_t v) -> Value {
    return b.create<arith::ConstantIndexOp>(loc, v);
  };
  SmallVector<Value> accs = readAccumulators(
      rewriter, loc, op.getOutputs()[0], [](int64_t) { return Value(); });
  if (flips)
    accs.append(vectors,
                rewriter.create<arith::ConstantOp>(
                    loc, DenseElementsAttr::get(
                             accType, rewriter.getI32IntegerAttr(0))));
  auto rowType = VectorType::get({lanes}, element);
  // The shuffle that interleaves G rows of `lanes` values (concatenated)
  // into lanes groups of G: value G c + i is row i's value c.
  SmallVector<int64_t> interleave;
  for (int64_t c = 0; c < lanes; ++c)
    for (int64_t i = 0; i < group; ++i)
      interleave.push_back(i * lanes + c);
  SmallVector<int64_t> concat(2 * lanes);
  std::iota(concat.begin(), concat.end(), 0);

  // One step: k in [G kg, G kg + width).
  auto step = [&](OpBuilder &b, Value kg, int64_t width, ValueRange in) {
    SmallVector<Value> out(in);
    Value k0 = b.create<arith::MulIOp>(loc, kg, index(b, group));
    SmallVector<Value> broadcasts;
    for (int64_t r = 0; r < rows; ++r)
      broadcasts.push_back(
          broadcastWord(b, loc, a, ValueRange{index(b, r), k0}, width));
    Value zeroRow = b.create<arith::ConstantOp>(
        loc, DenseElementsAttr::get(rowType, b.getIntegerAttr(element, 0)));
    for (int64_t j = 0; j < vectors; ++j) {
      int64_t n = std::min(lanes, channels - j * lanes);
      SmallVector<Value> bRows;
      for (int64_t i = 0; i < group; ++i) {
        if (i >= width) {
          bRows.push_back(zeroRow);
          continue;
        }
        // n bytes in bounds, in a vector of zeros when fewer than lanes.
        Value kk = b.create<arith::AddIOp>(loc, k0, index(b, i));
        Value row = b.create<vector::TransferReadOp>(
            loc, VectorType::get({n}, element), bm,
            ValueRange{kk, index(b, j * lanes)}, ArrayRef<bool>{true});
        if (n < lanes)
          row = b.create<vector::InsertStridedSliceOp>(
              loc, row, zeroRow, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{1});
        bRows.push_back(row);
      }
      Value w;
      if (group == 2) {
        w = b.create<vector::ShuffleOp>(loc, bRows[0], bRows[1], interleave);
      } else {
        Value low =
            b.create<vector::ShuffleOp>(loc, bRows[0], bRows[1], concat);
        Value high =
            b.create<vector::ShuffleOp>(loc, bRows[2], bRows[3], concat);
        w = b.create<vector::ShuffleOp>(loc, low, high, interleave);
      }
      for (int64_t r = 0; r < rows; ++r)
        out[r * vectors + j] =
            dot(b, loc, out[r * vectors + j], broadcasts[r], w);
      if (flips) {
        Value flip = b.create<arith::ConstantOp>(
            loc, DenseElementsAttr::get(
                     accType, b.getI32IntegerAttr(int32_t(0x80808080))));
        out[rows * vectors + j] = dot(b, loc, out[rows * vectors + j], flip, w);
      }
    }
    return out;
  };
  if (k >= group)
    accs = carry(rewriter, loc, k / group, accs,
                 [&](OpBuilder &b, Value kg, ValueRange args) {
                   return step(b, kg, group, args);
                 });
  if (k % group)
    accs = step(rewriter, index(rewriter, k / group), k % group, accs);
  if (flips) {
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < vectors; ++j)
        accs[r * vectors + j] = rewriter.create<arith::SubIOp>(
            loc, accs[r * vectors + j], accs[rows * vectors + j]);
    accs.resize(rows * vectors);
  }
  writeAccumulators(rewriter, op, accs);
  return success();
}

LogicalResult TileLowering::lower(RewriterBase &rewriter,
                                  linalg::Conv2DNhwcHwcfOp op) {
  std::optional<ConvTile> t = convTile(op);
  Value input = op.getInputs()[0], init = op.getOutputs()[0];
  if (!t || !takes(input))
    return failure();
  int64_t rows = t->rows, channels = t->channels, kh = t->kh, kw = t->kw,
          c = t->c;
  ArrayRef<int64_t> strides = t->strides, dilations = t->dilations;
  int64_t vectors = (channels + lanes - 1) / lanes;
  // Accumulators, the filter vectors and a broadcast in registers.
  if (rows * vectors + vectors + 1 > registers)
    return failure();
  Packed p = pack(rewriter, t->filter);

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Type i32 = rewriter.getI32Type();
  auto accType = VectorType::get({lanes}, i32);
  auto index = [&](OpBuilder &b, int64_t v) -> Value {
    return b.create<arith::ConstantIndexOp>(loc, v);
  };
  Value first = firstChannel(rewriter, loc, t->offsets);
  Value zero = index(rewriter, 0);

  // The accumulators: the initial value, minus the flip's correction.
  SmallVector<Value> accs = readAccumulators(
      rewriter, loc, init, [&](int64_t j) -> Value {
        if (!p.correction)
          return Value();
        Value at = rewriter.create<arith::AddIOp>(loc, first,
                                                  index(rewriter, j * lanes));
        return rewriter.create<vector::TransferReadOp>(
            loc, accType, p.correction, ValueRange{at}, ArrayRef<bool>{true});
      });

  // One step: G input channels (fewer in the tail) of one filter tap,
  // which the packed weights index by (ky, kx) and the input slice reads at
  // (ky, kx) times the dilations, plus the tile row's stride.
  struct Tap {
    Value ky, kx, y, x;
  };
  auto step = [&](OpBuilder &b, const Tap &tap, Value cg, int64_t width,
                  ValueRange in) {
    SmallVector<Value> out(in);
    Value channel = b.create<arith::MulIOp>(loc, cg, index(b, group));
    SmallVector<Value> broadcasts;
    for (int64_t r = 0; r < rows; ++r) {
      Value col =
          b.create<arith::AddIOp>(loc, tap.x, index(b, r * strides[1]));
      broadcasts.push_back(broadcastWord(
          b, loc, input, ValueRange{zero, tap.y, col, channel}, width));
    }
    for (int64_t j = 0; j < vectors; ++j) {
      Value oc = b.create<arith::AddIOp>(loc, first, index(b, j * lanes));
      Value w = b.create<vector::TransferReadOp>(
          loc,
          VectorType::get({group * lanes},
                          getElementTypeOrSelf(p.weights.getType())),
          p.weights,
          ValueRange{tap.ky, tap.kx, cg,
                     b.create<arith::MulIOp>(loc, oc, index(b, group))},
          ArrayRef<bool>{true});
      for (int64_t r = 0; r < rows; ++r)
        out[r * vectors + j] =
            dot(b, loc, out[r * vectors + j], broadcasts[r], w);
    }
    return out;
  };
  accs = carry(rewriter, loc, kh, accs, [&](OpBuilder &b, Value ky,
                                            ValueRange a) {
    return carry(b, loc, kw, a, [&](OpBuilder &b, Value kx, ValueRange a) {
      Tap tap{ky, kx, b.create<arith::MulIOp>(loc, ky, index(b, dilations[0])),
              b.create<arith::MulIOp>(loc, kx, index(b, dilations[1]))};
      SmallVector<Value> acc(a);
      if (c >= group)
        acc = carry(b, loc, c / group, a,
                    [&](OpBuilder &b, Value cg, ValueRange a) {
                      return step(b, tap, cg, group, a);
                    });
      if (c % group)
        acc = step(b, tap, index(b, c / group), c % group, acc);
      return acc;
    });
  });

  writeAccumulators(rewriter, op, accs);
  return success();
}

/// TileLowering::dot's form -> the instruction: multi_reduction<add> over
/// [lanes, G] of shape_cast(ext(a) * ext(b)) with a, b G * lanes values:
/// vpdpbusd for (unsigned, signed) bytes with 16 or 8 lanes, sdot for
/// (signed, signed) bytes with 4, vpmaddwd (plus the accumulator) for
/// (signed, signed) 16-bit values with 16 or 8.
struct DotProductToIntrinsic : OpRewritePattern<vector::MultiDimReductionOp> {
  DotProductToIntrinsic(MLIRContext *ctx, DotKind kind)
      : OpRewritePattern(ctx, /*benefit=*/2), kind(kind) {}
  LogicalResult matchAndRewrite(vector::MultiDimReductionOp op,
                                PatternRewriter &rewriter) const override {
    int64_t lanes = lanesOf(kind), group = groupOf(kind);
    unsigned bits = operandBits(kind);
    VectorType source = op.getSourceVectorType();
    auto cast = op.getSource().getDefiningOp<vector::ShapeCastOp>();
    auto mul = cast ? cast.getSource().getDefiningOp<arith::MulIOp>()
                    : arith::MulIOp();
    if (op.getKind() != vector::CombiningKind::ADD || !mul ||
        source.getShape() != ArrayRef<int64_t>{lanes, group} ||
        !source.getElementType().isInteger(32) ||
        !llvm::equal(op.getReductionMask(), ArrayRef<bool>{false, true}))
      return failure();
    // The byte operands and whether each is zero-extended.
    auto operand = [](Value v) -> std::pair<Value, std::optional<bool>> {
      if (auto e = v.getDefiningOp<arith::ExtUIOp>())
        return {e.getIn(), true};
      if (auto e = v.getDefiningOp<arith::ExtSIOp>())
        return {e.getIn(), false};
      return {Value(), std::nullopt};
    };
    auto [a, aUnsigned] = operand(mul.getLhs());
    auto [b, bUnsigned] = operand(mul.getRhs());
    if (!a || !b || !getElementTypeOrSelf(a).isInteger(bits) ||
        !getElementTypeOrSelf(b).isInteger(bits))
      return failure();
    if (flipsInput(kind) && *bUnsigned && !*aUnsigned) {
      std::swap(a, b);
      std::swap(aUnsigned, bUnsigned);
    }
    if (*bUnsigned || *aUnsigned != flipsInput(kind))
      return failure();
    Location loc = op.getLoc();
    Value acc = op.getAcc();
    if (isMadd(kind)) {
      StringRef name = kind == DotKind::Avx512Madd
                           ? "llvm.x86.avx512.pmaddw.d.512"
                           : "llvm.x86.avx2.pmadd.wd";
      Value sums = rewriter.create<LLVM::CallIntrinsicOp>(
                               loc, acc.getType(), name, ValueRange{a, b})
                       ->getResult(0);
      rewriter.replaceOpWithNewOp<arith::AddIOp>(op, acc, sums);
      return success();
    }
    StringRef name = kind == DotKind::Avx512Vnni
                         ? "llvm.x86.avx512.vpdpbusd.512"
                     : kind == DotKind::AvxVnni
                         ? "llvm.x86.avx512.vpdpbusd.256"
                         : "llvm.aarch64.neon.sdot.v4i32.v16i8";
    if (flipsInput(kind)) {
      a = rewriter.create<vector::BitCastOp>(loc, acc.getType(), a);
      b = rewriter.create<vector::BitCastOp>(loc, acc.getType(), b);
    }
    rewriter.replaceOpWithNewOp<LLVM::CallIntrinsicOp>(
        op, acc.getType(), name, ValueRange{acc, a, b});
    return success();
  }
  DotKind kind;
};

} // namespace

bool isMadd(DotKind kind) {
  return kind == DotKind::Avx512Madd || kind == DotKind::Avx2Madd;
}

void populateDotProductLoweringPatterns(RewritePatternSet &patterns,
                                        DotKind kind) {
  if (kind != DotKind::None)
    patterns.add<DotProductToIntrinsic>(patterns.getContext(), kind);
  if (kind == DotKind::I8mm)
    populateMmlaLoweringPatterns(patterns);
}


/// The constant a filter tile is sliced from, with the tile's offsets along
/// the output channels (every other offset 0 and size whole); null if the
/// filter is not such a slice.
static arith::ConstantOp traceFilter(Value v, SmallVectorImpl<OpFoldResult> &offsets) {
  while (auto slice = v.getDefiningOp<tensor::ExtractSliceOp>()) {
    RankedTensorType source = slice.getSourceType();
    if (source.getRank() != 4 || slice.getResultType().getRank() != 4 ||
        !slice.hasUnitStride())
      return nullptr;
    SmallVector<OpFoldResult> at = slice.getMixedOffsets();
    ArrayRef<int64_t> sizes = slice.getStaticSizes();
    for (int d = 0; d < 3; ++d)
      if (getConstantIntValue(at[d]) != 0 || sizes[d] != source.getDimSize(d))
        return nullptr;
    offsets.push_back(at[3]);
    v = slice.getSource();
  }
  return v.getDefiningOp<arith::ConstantOp>();
}

std::optional<ConvTile> convTile(linalg::Conv2DNhwcHwcfOp op) {
  auto inType = cast<RankedTensorType>(op.getInputs()[0].getType());
  auto filterType = cast<RankedTensorType>(op.getInputs()[1].getType());
  auto outType = cast<RankedTensorType>(op->getResult(0).getType());
  if (!inType.hasStaticShape() || !filterType.hasStaticShape() ||
      !outType.hasStaticShape() || outType.getDimSize(0) != 1 ||
      outType.getDimSize(1) != 1)
    return std::nullopt;
  ConvTile t;
  t.filter = traceFilter(op.getInputs()[1], t.offsets);
  if (!t.filter || !isa<DenseIntElementsAttr>(t.filter.getValue()))
    return std::nullopt;
  t.rows = outType.getDimSize(2);
  t.channels = outType.getDimSize(3);
  t.kh = filterType.getDimSize(0);
  t.kw = filterType.getDimSize(1);
  t.c = filterType.getDimSize(2);
  t.strides.assign(op.getStrides().getValues<int64_t>().begin(),
                   op.getStrides().getValues<int64_t>().end());
  t.dilations.assign(op.getDilations().getValues<int64_t>().begin(),
                     op.getDilations().getValues<int64_t>().end());
  return t;
}

std::optional<MatmulTile> matmulTile(linalg::MatmulOp op) {
  if (!isInt8Matmul(op))
    return std::nullopt;
  auto outType = cast<RankedTensorType>(op->getResult(0).getType());
  Value a = op.getInputs()[0];
  return MatmulTile{a, op.getInputs()[1], outType.getDimSize(0),
                    outType.getDimSize(1),
                    cast<RankedTensorType>(a.getType()).getDimSize(1)};
}

Value firstChannel(OpBuilder &b, Location loc,
                   ArrayRef<OpFoldResult> offsets) {
  Value first = b.create<arith::ConstantIndexOp>(loc, 0);
  for (OpFoldResult o : offsets)
    first = b.create<arith::AddIOp>(
        loc, first, getValueOrCreateConstantIndexOp(b, loc, o));
  return first;
}

SmallVector<Value>
carry(OpBuilder &b, Location loc, int64_t n, ValueRange in,
      function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)> body) {
  if (n == 1)
    return body(b, b.create<arith::ConstantIndexOp>(loc, 0), in);
  auto forOp = b.create<scf::ForOp>(
      loc, b.create<arith::ConstantIndexOp>(loc, 0),
      b.create<arith::ConstantIndexOp>(loc, n),
      b.create<arith::ConstantIndexOp>(loc, 1), in,
      [&](OpBuilder &nb, Location l, Value iv, ValueRange args) {
        nb.create<scf::YieldOp>(l, body(nb, iv, args));
      });
  return SmallVector<Value>(forOp.getResults());
}

void lowerInt8ConvTiles(RewriterBase &rewriter, Operation *function,
                        DotKind kind, int64_t registers) {
  if (kind == DotKind::None)
    return;
  SmallVector<Operation *> tiles;
  function->walk([&](Operation *op) {
    if (isInt8Conv(op) || (isInt8Matmul(op) && isa<linalg::MatmulOp>(op)))
      tiles.push_back(op);
  });
  Block &entry = function->getRegion(0).front();
  if (kind == DotKind::I8mm)
    tiles = lowerInt8MmlaTiles(rewriter, tiles, registers, entry);
  TileLowering lowering(kind, registers, entry);
  for (Operation *op : tiles) {
    if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op))
      (void)lowering.lower(rewriter, conv);
    else
      (void)lowering.lower(rewriter, cast<linalg::MatmulOp>(op));
  }
}

} // namespace mlir::nnapi::codegen
