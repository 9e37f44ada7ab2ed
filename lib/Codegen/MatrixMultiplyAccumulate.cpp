//===- MatrixMultiplyAccumulate.cpp - 8-bit tiles on AArch64 smmla --------===//
//
// AArch64's i8mm `smmla` multiplies a 2x8 block of signed bytes by the
// transpose of another and adds the 2x2 result to four 32-bit lanes: per
// instruction 32 products, against sdot's 16. A register tile of rows by
// channels is then held as 2x2 blocks (row pairs by channel pairs), each
// step taking eight input channels (or k): per row pair the two rows'
// eight bytes, per channel pair the two channels' eight weights.
//
// A convolution's filter is packed at compile time as [KH][KW][C/8][F'][8]
// (each output channel's eight weights of a step contiguous, so any two
// neighbouring channels are one 16-byte load); a matmul of two computed
// tensors gathers its channel pairs from eight rows of B in registers.
// The blocks are arranged from and back into the tile's rows as it is
// read and written, so what is fused before and after it is unchanged.
//
//===----------------------------------------------------------------------===//

#include "DotProducts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace mlir::nnapi::codegen {

namespace {

/// Byte k of row i (i < 2) of a 2x8 block, for block lane (i, j): the
/// shuffles that line up smmla's products in plain vector ops.
SmallVector<int64_t> blockMask(bool columns) {
  SmallVector<int64_t> mask;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 2; ++j)
      for (int64_t k = 0; k < 8; ++k)
        mask.push_back((columns ? j : i) * 8 + k);
  return mask;
}

class MmlaLowering {
public:
  MmlaLowering(int64_t registers, Block &entry)
      : registers(registers), entry(entry) {}
  LogicalResult lower(RewriterBase &rewriter, linalg::Conv2DNhwcHwcfOp op);
  LogicalResult lower(RewriterBase &rewriter, linalg::MatmulOp op);

private:
  /// acc + the 2x2 products of a's two rows and w's two rows (eight bytes
  /// each), in plain vector ops that MmlaToIntrinsic makes smmla.
  Value mmla(OpBuilder &b, Location loc, Value acc, Value a, Value w) const;
  /// The row pair `p`'s eight bytes each from `read(row)` (up to eight
  /// bytes, zero-padded; a row past `rows` zeros) as one 16-byte vector.
  Value rowPair(OpBuilder &b, Location loc, int64_t p, int64_t rows,
                function_ref<Value(int64_t)> read) const;
  /// The tile [1.., rows, channels] of `init` as 2x2 blocks, row pairs by
  /// channel pairs, each [r c, r c+1, r+1 c, r+1 c+1].
  SmallVector<Value> readBlocks(RewriterBase &rewriter, Location loc,
                                Value init) const;
  /// Replaces `op` by the blocks written back into its tile.
  void writeBlocks(RewriterBase &rewriter, Operation *op,
                   ArrayRef<Value> blocks) const;
  /// The filter [KH, KW, C, F] as [KH, KW, C/8, (F + 2) * 8] (two zero
  /// channels past the last: a pair starting at the last channel).
  Value pack(RewriterBase &rewriter, arith::ConstantOp filter);

  int64_t registers;
  Block &entry;
  DenseMap<Operation *, Value> packed;
};

Value MmlaLowering::mmla(OpBuilder &b, Location loc, Value acc, Value a,
                         Value w) const {
  auto words = VectorType::get({32}, b.getI32Type());
  auto lineUp = [&](Value v, bool columns) -> Value {
    Value s = b.create<vector::ShuffleOp>(loc, v, v, blockMask(columns));
    return b.create<arith::ExtSIOp>(loc, words, s);
  };
  Value products = b.create<vector::ShapeCastOp>(
      loc, VectorType::get({4, 8}, b.getI32Type()),
      b.create<arith::MulIOp>(loc, lineUp(a, false), lineUp(w, true)));
  return b.create<vector::MultiDimReductionOp>(
      loc, products, acc, ArrayRef<bool>{false, true},
      vector::CombiningKind::ADD);
}

Value MmlaLowering::rowPair(OpBuilder &b, Location loc, int64_t p,
                            int64_t rows,
                            function_ref<Value(int64_t)> read) const {
  auto type = VectorType::get({16}, b.getI8Type());
  Value v = b.create<arith::ConstantOp>(
      loc, DenseElementsAttr::get(type, b.getI8IntegerAttr(0)));
  for (int64_t i = 0; i < 2 && 2 * p + i < rows; ++i)
    v = b.create<vector::InsertStridedSliceOp>(
        loc, read(2 * p + i), v, ArrayRef<int64_t>{8 * i},
        ArrayRef<int64_t>{1});
  return v;
}

SmallVector<Value> MmlaLowering::readBlocks(RewriterBase &rewriter,
                                            Location loc, Value init) const {
  auto type = cast<RankedTensorType>(init.getType());
  int64_t rank = type.getRank();
  int64_t rows = type.getDimSize(rank - 2), cols = type.getDimSize(rank - 1);
  int64_t pairs = (cols + 1) / 2, n = rows * cols;
  Type i32 = rewriter.getI32Type();
  Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
  Value tile = rewriter.create<vector::TransferReadOp>(
      loc, VectorType::get(type.getShape(), i32), init,
      SmallVector<Value>(rank, zero), SmallVector<bool>(rank, true));
  auto flatType = VectorType::get({n}, i32);
  Value flat = rewriter.create<vector::ShapeCastOp>(loc, flatType, tile);
  Value zeros = rewriter.create<arith::ConstantOp>(
      loc, DenseElementsAttr::get(flatType, rewriter.getI32IntegerAttr(0)));
  SmallVector<Value> blocks;
  for (int64_t p = 0; p < (rows + 1) / 2; ++p)
    for (int64_t q = 0; q < pairs; ++q) {
      SmallVector<int64_t> mask;
      for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 2; ++j) {
          int64_t r = 2 * p + i, c = 2 * q + j;
          mask.push_back(r < rows && c < cols ? r * cols + c : n);
        }
      blocks.push_back(
          rewriter.create<vector::ShuffleOp>(loc, flat, zeros, mask));
    }
  return blocks;
}

void MmlaLowering::writeBlocks(RewriterBase &rewriter, Operation *op,
                               ArrayRef<Value> blocks) const {
  Location loc = op->getLoc();
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t rank = type.getRank();
  int64_t rows = type.getDimSize(rank - 2), cols = type.getDimSize(rank - 1);
  int64_t pairs = (cols + 1) / 2;
  Type i32 = rewriter.getI32Type();
  // The blocks one after another, then each element picked to its place.
  auto allType = VectorType::get({int64_t(blocks.size()) * 4}, i32);
  Value all = rewriter.create<arith::ConstantOp>(
      loc, DenseElementsAttr::get(allType, rewriter.getI32IntegerAttr(0)));
  for (auto [k, block] : llvm::enumerate(blocks))
    all = rewriter.create<vector::InsertStridedSliceOp>(
        loc, block, all, ArrayRef<int64_t>{int64_t(k) * 4},
        ArrayRef<int64_t>{1});
  SmallVector<int64_t> mask;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      mask.push_back(((r / 2) * pairs + c / 2) * 4 + (r % 2) * 2 + c % 2);
  Value flat = rewriter.create<vector::ShuffleOp>(loc, all, all, mask);
  Value tile = rewriter.create<vector::ShapeCastOp>(
      loc, VectorType::get(type.getShape(), i32), flat);
  Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
  Value init = cast<DestinationStyleOpInterface>(op).getDpsInits()[0];
  Value result = rewriter
                     .create<vector::TransferWriteOp>(
                         loc, tile, init, SmallVector<Value>(rank, zero),
                         SmallVector<bool>(rank, true))
                     .getResult();
  rewriter.replaceOp(op, result);
}

Value MmlaLowering::pack(RewriterBase &rewriter, arith::ConstantOp filter) {
  auto it = packed.find(filter);
  if (it != packed.end())
    return it->second;
  auto attr = cast<DenseIntElementsAttr>(filter.getValue());
  ArrayRef<int64_t> shape = attr.getType().getShape(); // KH, KW, C, F
  int64_t taps = shape[0] * shape[1], c = shape[2], f = shape[3];
  int64_t c8 = (c + 7) / 8, fp = f + 2;
  SmallVector<int8_t> weights(taps * c8 * fp * 8, 0);
  int64_t i = 0;
  for (const APInt &v : attr.getValues<APInt>()) {
    int64_t tap = i / (c * f), ch = i / f % c, oc = i % f;
    weights[((tap * c8 + ch / 8) * fp + oc) * 8 + ch % 8] =
        int8_t(v.getSExtValue());
    ++i;
  }
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&entry);
  auto type = RankedTensorType::get({shape[0], shape[1], c8, fp * 8},
                                    rewriter.getI8Type());
  Value p = rewriter.create<arith::ConstantOp>(
      filter.getLoc(), DenseElementsAttr::get(type, ArrayRef<int8_t>(weights)));
  return packed[filter] = p;
}

LogicalResult MmlaLowering::lower(RewriterBase &rewriter,
                                  linalg::Conv2DNhwcHwcfOp op) {
  std::optional<ConvTile> t = convTile(op);
  if (!t)
    return failure();
  Value input = op.getInputs()[0];
  int64_t rows = t->rows, kh = t->kh, kw = t->kw, c = t->c;
  ArrayRef<int64_t> strides = t->strides, dilations = t->dilations;
  int64_t rowPairs = (rows + 1) / 2, pairs = (t->channels + 1) / 2;
  // The blocks, a row pair's bytes each and a channel pair's weights each.
  if (rowPairs * pairs + rowPairs + pairs > registers)
    return failure();
  Value weights = pack(rewriter, t->filter);

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Type i8 = rewriter.getI8Type();
  auto index = [&](OpBuilder &b, int64_t v) -> Value {
    return b.create<arith::ConstantIndexOp>(loc, v);
  };
  Value first = firstChannel(rewriter, loc, t->offsets);
  Value zero = index(rewriter, 0);
  SmallVector<Value> blocks = readBlocks(rewriter, loc, op.getOutputs()[0]);

  // One step: eight input channels (fewer in the tail) of one filter tap.
  auto step = [&](OpBuilder &b, Value ky, Value kx, Value c8, int64_t width,
                  ValueRange in) {
    SmallVector<Value> out(in);
    Value y = b.create<arith::MulIOp>(loc, ky, index(b, dilations[0]));
    Value x = b.create<arith::MulIOp>(loc, kx, index(b, dilations[1]));
    Value channel = b.create<arith::MulIOp>(loc, c8, index(b, 8));
    auto read = [&](int64_t row) -> Value {
      Value col = b.create<arith::AddIOp>(loc, x, index(b, row * strides[1]));
      Value bytes = b.create<vector::TransferReadOp>(
          loc, VectorType::get({width}, i8), input,
          ValueRange{zero, y, col, channel}, ArrayRef<bool>{true});
      return bytes;
    };
    SmallVector<Value> as;
    for (int64_t p = 0; p < rowPairs; ++p)
      as.push_back(rowPair(b, loc, p, rows, read));
    for (int64_t q = 0; q < pairs; ++q) {
      Value oc = b.create<arith::AddIOp>(loc, first, index(b, 2 * q));
      Value w = b.create<vector::TransferReadOp>(
          loc, VectorType::get({16}, i8), weights,
          ValueRange{ky, kx, c8, b.create<arith::MulIOp>(loc, oc, index(b, 8))},
          ArrayRef<bool>{true});
      for (int64_t p = 0; p < rowPairs; ++p)
        out[p * pairs + q] = mmla(b, loc, out[p * pairs + q], as[p], w);
    }
    return out;
  };
  blocks = carry(rewriter, loc, kh, blocks,
                 [&](OpBuilder &b, Value ky, ValueRange a) {
    return carry(b, loc, kw, a, [&](OpBuilder &b, Value kx, ValueRange a) {
      SmallVector<Value> acc(a);
      if (c / 8)
        acc = carry(b, loc, c / 8, acc,
                    [&](OpBuilder &b, Value c8, ValueRange a) {
                      return step(b, ky, kx, c8, 8, a);
                    });
      if (c % 8)
        acc = step(b, ky, kx, index(b, c / 8), c % 8, acc);
      return acc;
    });
  });
  writeBlocks(rewriter, op, blocks);
  return success();
}

/// A tile [rows, K] x [K, n] of a matmul of two computed tensors: per step
/// of eight k, eight rows of B's n bytes, from which each channel pair's
/// two columns are gathered (one shuffle).
LogicalResult MmlaLowering::lower(RewriterBase &rewriter,
                                  linalg::MatmulOp op) {
  std::optional<MatmulTile> t = matmulTile(op);
  if (!t)
    return failure();
  Value a = t->a, bm = t->b;
  int64_t rows = t->rows, channels = t->channels, k = t->k;
  int64_t rowPairs = (rows + 1) / 2, pairs = (channels + 1) / 2;
  // The blocks, the row pairs, B's eight rows and the channel pairs.
  if (channels > 8 ||
      rowPairs * pairs + rowPairs + 8 + pairs > registers)
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Type i8 = rewriter.getI8Type();
  auto index = [&](OpBuilder &b, int64_t v) -> Value {
    return b.create<arith::ConstantIndexOp>(loc, v);
  };
  SmallVector<Value> blocks = readBlocks(rewriter, loc, op.getOutputs()[0]);
  // B's eight rows side by side, one zero byte after them: channel pair
  // q's bytes are rows 0-7 of column 2q, then of column 2q + 1 (the zero
  // byte past the last column).
  int64_t span = 8 * channels;
  auto bType = VectorType::get({span + 1}, i8);
  SmallVector<SmallVector<int64_t>> gathers;
  for (int64_t q = 0; q < pairs; ++q) {
    SmallVector<int64_t> mask;
    for (int64_t j = 0; j < 2; ++j)
      for (int64_t i = 0; i < 8; ++i)
        mask.push_back(2 * q + j < channels ? i * channels + 2 * q + j : span);
    gathers.push_back(std::move(mask));
  }
  auto step = [&](OpBuilder &b, Value k8, int64_t width, ValueRange in) {
    SmallVector<Value> out(in);
    Value k0 = b.create<arith::MulIOp>(loc, k8, index(b, 8));
    SmallVector<Value> as;
    for (int64_t p = 0; p < rowPairs; ++p)
      as.push_back(rowPair(b, loc, p, rows, [&](int64_t row) -> Value {
        return b.create<vector::TransferReadOp>(
            loc, VectorType::get({width}, i8), a, ValueRange{index(b, row), k0},
            ArrayRef<bool>{true});
      }));
    Value bRows = b.create<arith::ConstantOp>(
        loc, DenseElementsAttr::get(bType, b.getI8IntegerAttr(0)));
    for (int64_t i = 0; i < width; ++i) {
      Value kk = b.create<arith::AddIOp>(loc, k0, index(b, i));
      Value row = b.create<vector::TransferReadOp>(
          loc, VectorType::get({channels}, i8), bm,
          ValueRange{kk, index(b, 0)}, ArrayRef<bool>{true});
      bRows = b.create<vector::InsertStridedSliceOp>(
          loc, row, bRows, ArrayRef<int64_t>{i * channels},
          ArrayRef<int64_t>{1});
    }
    for (int64_t q = 0; q < pairs; ++q) {
      Value w = b.create<vector::ShuffleOp>(loc, bRows, bRows, gathers[q]);
      for (int64_t p = 0; p < rowPairs; ++p)
        out[p * pairs + q] = mmla(b, loc, out[p * pairs + q], as[p], w);
    }
    return out;
  };
  if (k / 8)
    blocks = carry(rewriter, loc, k / 8, blocks,
                   [&](OpBuilder &b, Value k8, ValueRange in) {
                     return step(b, k8, 8, in);
                   });
  if (k % 8)
    blocks = step(rewriter, index(rewriter, k / 8), k % 8, blocks);
  writeBlocks(rewriter, op, blocks);
  return success();
}

/// MmlaLowering::mmla's form -> smmla: multi_reduction<add> over [4, 8] of
/// shape_cast(extsi(shuffle(a, a, rows)) * extsi(shuffle(w, w, columns)))
/// with a, w 16 bytes and the masks blockMask makes.
struct MmlaToIntrinsic : OpRewritePattern<vector::MultiDimReductionOp> {
  MmlaToIntrinsic(MLIRContext *ctx) : OpRewritePattern(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(vector::MultiDimReductionOp op,
                                PatternRewriter &rewriter) const override {
    VectorType source = op.getSourceVectorType();
    auto shaped = op.getSource().getDefiningOp<vector::ShapeCastOp>();
    auto mul = shaped ? shaped.getSource().getDefiningOp<arith::MulIOp>()
                      : arith::MulIOp();
    if (op.getKind() != vector::CombiningKind::ADD || !mul ||
        source.getShape() != ArrayRef<int64_t>{4, 8} ||
        !source.getElementType().isInteger(32) ||
        !llvm::equal(op.getReductionMask(), ArrayRef<bool>{false, true}))
      return failure();
    // The 16 bytes behind an operand lined up with `mask`.
    auto bytes = [](Value v, ArrayRef<int64_t> mask) -> Value {
      auto ext = v.getDefiningOp<arith::ExtSIOp>();
      auto shuffle =
          ext ? ext.getIn().getDefiningOp<vector::ShuffleOp>() : nullptr;
      if (!shuffle || shuffle.getV1() != shuffle.getV2() ||
          shuffle.getV1VectorType() != VectorType::get(
                                           {16}, IntegerType::get(
                                                     v.getContext(), 8)) ||
          !llvm::equal(llvm::map_range(shuffle.getMask(),
                                       [](Attribute a) {
                                         return cast<IntegerAttr>(a).getInt();
                                       }),
                       mask))
        return Value();
      return shuffle.getV1();
    };
    Value a = bytes(mul.getLhs(), blockMask(false));
    Value w = bytes(mul.getRhs(), blockMask(true));
    if (!a || !w)
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::CallIntrinsicOp>(
        op, op.getAcc().getType(), "llvm.aarch64.neon.smmla.v4i32.v16i8",
        ValueRange{op.getAcc(), a, w});
    return success();
  }
};

} // namespace

SmallVector<Operation *> lowerInt8MmlaTiles(RewriterBase &rewriter,
                                            ArrayRef<Operation *> tiles,
                                            int64_t registers, Block &entry) {
  MmlaLowering lowering(registers, entry);
  SmallVector<Operation *> left;
  for (Operation *op : tiles) {
    LogicalResult lowered =
        isa<linalg::Conv2DNhwcHwcfOp>(op)
            ? lowering.lower(rewriter, cast<linalg::Conv2DNhwcHwcfOp>(op))
            : lowering.lower(rewriter, cast<linalg::MatmulOp>(op));
    if (failed(lowered))
      left.push_back(op);
  }
  return left;
}

void populateMmlaLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<MmlaToIntrinsic>(patterns.getContext());
}

} // namespace mlir::nnapi::codegen
