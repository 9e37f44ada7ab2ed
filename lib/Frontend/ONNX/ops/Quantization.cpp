//===- Quantization.cpp - QuantizeLinear and friends ------------*- C++ -*-===//
//
// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, QLinearConv,
// QLinearMatMul, ConvInteger and MatMulInteger.
//
// Quantized data is computed as signed 8-bit integers: uint8 data is
// shifted by -128 with its zero point (x - zp is unchanged), and shifted
// back where the graph holds it as uint8 (i32 inside, as every unsigned
// type). With compile-time scales and zero points, QuantizeLinear and
// DequantizeLinear become the `quantize` and `dequantize` composites
// (Composites.h); computed ones (DynamicQuantizeLinear) stay arithmetic.
// Integer products are tosa.conv2d / tosa.matmul on 8-bit data with their
// zero points (i32 accumulators); requantization is ONNX Runtime's: the
// accumulator times input scale x weight scale / output scale in float32,
// rounded half to even, plus the zero point, saturated.
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../OpRegistry.h"

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Transforms/Composites.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/Format.h"

#include <cmath>

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::onnx_import;
using namespace mlir::nnapi::frontend;

namespace names = mlir::nnapi::composite;

namespace {

/// A number as diagnostics show it ("0.5", "nan").
std::string text(double v) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%g", v);
  return s;
}

/// Whether input i is 8-bit data (uint8 or int8) as ONNX's types say; for a
/// value of unknown ONNX type, whether it is i8 inside.
bool isEightBit(NodeContext &n, int i) {
  int32_t t = n.inputType(i);
  if (t == onnx::TensorProto::UNDEFINED)
    return n.imp.typeOf(n.in(i)).getElementType().isInteger(8);
  return t == onnx::TensorProto::UINT8 || t == onnx::TensorProto::INT8;
}

/// Input i's ONNX element type by name ("UINT16").
std::string onnxTypeName(NodeContext &n, int i) {
  return onnx::TensorProto::DataType_Name(
      onnx::TensorProto::DataType(n.inputType(i)));
}

/// The shift from uint8 data to its signed storage.
int64_t storageShift(NodeContext &n, int i) {
  return n.isUnsignedInput(i) ? -128 : 0;
}

/// Input i (uint8, int8 or int32 data) as signed storage: i8, or i32 for
/// int32 data.
Value signedInput(NodeContext &n, int i) {
  Value v = n.in(i);
  if (!n.isUnsignedInput(i))
    return v;
  return signedStorageOf(n.imp, v, n.imp.signedStorage);
}

/// Signed storage `s` (i8) as the graph's value of an output of ONNX type
/// uint8 (`isUnsigned`: i32, shifted back) or int8.
Value graphValue(NodeContext &n, Value s, bool isUnsigned) {
  if (!isUnsigned)
    return s;
  return unsignedValueOf(n.imp, s, n.imp.signedStorage);
}

/// Reads the scale (input si) and zero point (input zi, optional) of data
/// of rank `rank` whose type is that of input `di`, quantized along `axis`
/// when the scale has more than one value.
FailureOr<QuantParams> readParams(NodeContext &n, int si, int zi, int di,
                                  int64_t rank, int64_t axis,
                                  ArrayRef<int64_t> dataShape,
                                  StringRef what) {
  FailureOr<DenseElementsAttr> scale =
      n.needConstant(si, (what + " scale").str());
  if (failed(scale))
    return failure();
  QuantParams p;
  for (double s : floatsOf(*scale)) {
    if (!(s > 0) || !std::isfinite(s))
      return n.error() << what << " scale " << text(s)
                       << " is not positive and finite";
    p.scales.push_back(float(s));
  }
  if (n.has(zi)) {
    FailureOr<DenseElementsAttr> zp =
        n.needConstant(zi, (what + " zero point").str());
    if (failed(zp))
      return failure();
    if (zp->getNumElements() != scale->getNumElements())
      return n.error() << what << " has " << scale->getNumElements()
                       << " scales and " << zp->getNumElements()
                       << " zero points";
    int64_t shift = storageShift(n, zi);
    for (int64_t z : intsOf(*zp))
      p.zeroPoints.push_back(z + shift);
  } else {
    // No zero point: 0 of the data's own type (uint8's 0 is -128 stored).
    p.zeroPoints.assign(p.scales.size(), storageShift(n, di));
  }
  if (p.scales.empty())
    return n.error() << what << " scale is empty";
  if (p.scales.size() > 1 || scale->getType().getRank() == 1) {
    if (scale->getType().getRank() > 1)
      return n.error() << what << " scale has rank "
                       << scale->getType().getRank() << " (0 or 1 allowed)";
    if (p.scales.size() == 1) {
      // One value in a 1-D tensor: per tensor, whatever the axis (as ONNX
      // Runtime reads it).
      return p;
    }
    int64_t a = normalizeAxis(axis, rank);
    if (a < 0 || a >= rank)
      return n.error() << "axis " << axis << " is out of range for rank "
                       << rank;
    if (dataShape[a] != int64_t(p.scales.size()))
      return n.error() << what << " has " << p.scales.size()
                       << " scales for the " << dataShape[a]
                       << " entries of axis " << a;
    p.axis = p.scales.size() > 1 ? a : -1;
  }
  return p;
}

/// A run-time scale or zero point (input i) shaped to broadcast against a
/// rank-`rank` tensor along `axis` (when it has more than one value).
Value runtimeParam(NodeContext &n, int i, int64_t rank, int64_t axis) {
  Value v = n.in(i);
  int64_t count = n.imp.typeOf(v).getNumElements();
  Shape shape(rank, 1);
  if (count > 1)
    shape[normalizeAxis(axis, rank)] = count;
  return n.imp.reshape(v, shape);
}

/// Checks a run-time parameter's length against the data along `axis`.
LogicalResult checkRuntimeParam(NodeContext &n, int i, ArrayRef<int64_t> shape,
                                int64_t axis, StringRef what) {
  RankedTensorType t = n.imp.typeOf(n.in(i));
  int64_t count = t.getNumElements();
  if (t.getRank() > 1)
    return n.error() << what << " has rank " << t.getRank()
                     << " (0 or 1 allowed)";
  if (count == 1)
    return success();
  int64_t a = normalizeAxis(axis, int64_t(shape.size()));
  if (a < 0 || a >= int64_t(shape.size()))
    return n.error() << "axis " << axis << " is out of range for rank "
                     << shape.size();
  if (shape[a] != count)
    return n.error() << what << " has " << count << " values for the "
                     << shape[a] << " entries of axis " << a;
  return success();
}

bool isConstantInput(NodeContext &n, int i) {
  return !n.has(i) || bool(n.cst(i));
}

//===----------------------------------------------------------------------===//
// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear
//===----------------------------------------------------------------------===//

LogicalResult importQuantizeLinear(NodeContext &n) {
  Value x = n.in(0);
  if (failed(requireFloat(n, x)))
    return failure();
  x = n.imp.castTo(x, n.b.getF32Type());
  RankedTensorType t = n.imp.typeOf(x);
  int64_t axis = n.intAttr("axis", 1);
  // The output's type is the zero point's (uint8 without one).
  bool isUnsigned = !n.has(2) || n.isUnsignedInput(2);
  if (n.has(2) && !isEightBit(n, 2))
    return n.error() << "only uint8 and int8 outputs are supported, got "
                     << onnxTypeName(n, 2);
  if (isConstantInput(n, 1) && isConstantInput(n, 2)) {
    FailureOr<QuantParams> p =
        readParams(n, 1, 2, 2, t.getRank(), axis, t.getShape(), "y");
    if (failed(p))
      return failure();
    return n.setResult(graphValue(n, quantize(n.imp, x, *p), isUnsigned));
  }
  // Scale or zero point computed at run time.
  if (failed(checkRuntimeParam(n, 1, t.getShape(), axis, "y_scale")) ||
      (n.has(2) &&
       failed(checkRuntimeParam(n, 2, t.getShape(), axis, "y_zero_point"))))
    return failure();
  Value scale =
      n.imp.castTo(runtimeParam(n, 1, t.getRank(), axis), n.b.getF32Type());
  Value zp;
  if (n.has(2))
    zp = n.imp.castTo(runtimeParam(n, 2, t.getRank(), axis), n.b.getI32Type());
  else
    zp = n.imp.splat(n.b.getI32Type(), Shape(t.getRank(), 1), 0);
  if (isUnsigned)
    zp = sub(n, zp, n.imp.scalarLike(zp, 128));
  return n.setResult(graphValue(n, quantizeWith(n.imp, x, scale, zp), isUnsigned));
}

LogicalResult importDequantizeLinear(NodeContext &n) {
  Value x = n.in(0);
  RankedTensorType t = n.imp.typeOf(x);
  bool int32 = n.inputType(0) == onnx::TensorProto::INT32;
  if (!isEightBit(n, 0) && !int32)
    return n.error() << "only uint8, int8 and int32 inputs are supported, got "
                     << onnxTypeName(n, 0);
  int64_t axis = n.intAttr("axis", 1);
  Value q = signedInput(n, 0);
  FailureOr<RankedTensorType> out = n.out();
  if (failed(out))
    return failure();
  Value y;
  if (isConstantInput(n, 1) && isConstantInput(n, 2)) {
    FailureOr<QuantParams> p =
        readParams(n, 1, 2, 0, t.getRank(), axis, t.getShape(), "x");
    if (failed(p))
      return failure();
    if (int32 && llvm::any_of(p->zeroPoints, [](int64_t z) { return z; }))
      return n.error() << "int32 data must have zero point 0";
    y = dequantize(n.imp, q, *p);
  } else {
    if (failed(checkRuntimeParam(n, 1, t.getShape(), axis, "x_scale")) ||
        (n.has(2) &&
         failed(checkRuntimeParam(n, 2, t.getShape(), axis, "x_zero_point"))))
      return failure();
    Value scale =
        n.imp.castTo(runtimeParam(n, 1, t.getRank(), axis), n.b.getF32Type());
    Value zp;
    if (n.has(2)) {
      zp = n.imp.castTo(runtimeParam(n, 2, t.getRank(), axis),
                        n.b.getI32Type());
      if (n.isUnsignedInput(2))
        zp = sub(n, zp, n.imp.scalarLike(zp, 128));
    } else {
      zp = n.imp.splat(n.b.getI32Type(), Shape(t.getRank(), 1),
                       double(storageShift(n, 0)));
    }
    y = dequantizeWith(n.imp, q, scale, zp);
  }
  return n.setResult(n.imp.castTo(y, out->getElementType()));
}

LogicalResult importDynamicQuantizeLinear(NodeContext &n) {
  Value x = n.in(0);
  if (failed(requireFloat(n, x)))
    return failure();
  x = n.imp.castTo(x, n.b.getF32Type());
  RankedTensorType t = n.imp.typeOf(x);
  int64_t rank = t.getRank();
  SmallVector<int64_t> all;
  for (int64_t i = 0; i < rank; ++i)
    all.push_back(i);
  Value zero = n.imp.splat(n.b.getF32Type(), Shape(rank, 1), 0);
  // The range always holds 0, so that 0 is exact.
  Value lo = n.b.create<tosa::MinimumOp>(n.loc, zero.getType(),
                                         n.imp.reduce("min", x, all), zero);
  Value hi = n.b.create<tosa::MaximumOp>(n.loc, zero.getType(),
                                         n.imp.reduce("max", x, all), zero);
  Value scale = n.b.create<arith::DivFOp>(
      n.loc, sub(n, hi, lo), n.imp.splat(n.b.getF32Type(), Shape(rank, 1), 255));
  // An all-zero input has scale 0: divide by 1 instead (every value is 0).
  Value isZero = compare<tosa::EqualOp>(n, scale, zero);
  Value divisor = select(n, isZero, n.imp.scalarLike(scale, 1), scale);
  // zero point = saturate(round(0 - lo / scale)) in [0, 255].
  Value zpFloat = sub(n, zero, n.b.create<arith::DivFOp>(n.loc, lo, divisor));
  Value zpU = n.imp.castTo(n.imp.clamp(zpFloat, 0, 255), n.b.getI32Type());
  Value zpS = sub(n, zpU, n.imp.scalarLike(zpU, 128));
  Value y = quantizeWith(n.imp, x, divisor, zpS);
  if (failed(n.define(0, graphValue(n, y, /*isUnsigned=*/true))) ||
      failed(n.define(1, n.imp.reshape(scale, {}))))
    return failure();
  return n.define(2, n.imp.reshape(zpU, {}));
}

//===----------------------------------------------------------------------===//
// Integer products
//===----------------------------------------------------------------------===//

/// A compile-time zero point (input i, optional) of 8-bit data whose signed
/// storage comes from input `di`, as one signed value; `what` names it.
FailureOr<int64_t> singleZeroPoint(NodeContext &n, int i, int di,
                                   StringRef what) {
  if (!n.has(i))
    return storageShift(n, di);
  FailureOr<DenseElementsAttr> zp = n.needConstant(i, what);
  if (failed(zp))
    return failure();
  SmallVector<int64_t> values = intsOf(*zp);
  if (values.empty())
    return n.error() << what << " is empty";
  if (llvm::any_of(values, [&](int64_t v) { return v != values[0]; }))
    return n.error() << what
                     << " differs between rows or channels (only one zero "
                        "point per tensor is supported)";
  return values[0] + storageShift(n, i);
}

/// A zero point of 8-bit data: one value known at compile time, or one
/// computed at run time (DynamicQuantizeLinear's), as a rank-0 i32; both
/// in the data's signed storage.
struct ZeroPoint {
  int64_t value = 0;
  Value runtime;
};

/// The zero point (input i, optional) of 8-bit data whose signed storage
/// comes from input `di`; `what` names it.
FailureOr<ZeroPoint> zeroPoint(NodeContext &n, int i, int di, StringRef what) {
  if (isConstantInput(n, i)) {
    FailureOr<int64_t> v = singleZeroPoint(n, i, di, what);
    if (failed(v))
      return failure();
    return ZeroPoint{*v, {}};
  }
  RankedTensorType t = n.imp.typeOf(n.in(i));
  if (t.getNumElements() != 1)
    return n.error() << what << " is computed at run time and has "
                     << t.getNumElements()
                     << " values (one per tensor is supported)";
  Value z = n.imp.castTo(n.imp.reshape(n.in(i), {}), n.b.getI32Type());
  if (n.isUnsignedInput(i))
    z = sub(n, z, n.imp.scalarLike(z, 128));
  return ZeroPoint{0, z};
}

/// Input i, 8-bit integer data, as signed storage; an error otherwise.
FailureOr<Value> eightBitInput(NodeContext &n, int i, StringRef what) {
  if (!isEightBit(n, i))
    return n.error() << what << " must be uint8 or int8, got "
                     << onnxTypeName(n, i);
  return signedInput(n, i);
}

/// Compile-time 8-bit data (input i) as signed storage.
FailureOr<DenseElementsAttr> eightBitConstant(NodeContext &n, int i,
                                              StringRef what) {
  FailureOr<DenseElementsAttr> c = n.needConstant(i, what);
  if (failed(c))
    return failure();
  int64_t shift = storageShift(n, i);
  SmallVector<double> v;
  for (int64_t x : intsOf(*c))
    v.push_back(double(x + shift));
  return denseOf(RankedTensorType::get(c->getType().getShape(),
                                       n.b.getI8Type()),
                 v);
}

/// Requantizes i32 accumulators `acc` whose last dimension indexes
/// `multipliers` (one value: all) to the output's storage.
Value requantize(NodeContext &n, Value acc, ArrayRef<double> multipliers,
                 int64_t outZeroPoint) {
  RankedTensorType t = n.imp.typeOf(acc);
  Shape shape(t.getRank(), 1);
  if (multipliers.size() > 1)
    shape.back() = int64_t(multipliers.size());
  Value m = n.imp.constant(
      denseOf(RankedTensorType::get(shape, n.b.getF32Type()), multipliers));
  Value scaled = n.imp.mul(n.imp.castTo(acc, n.b.getF32Type()), m);
  return toStorage(n.imp, scaled,
                   n.imp.splat(n.b.getI32Type(), Shape(t.getRank(), 1),
                               double(outZeroPoint)));
}

/// A float32 scale (input i) as values: one, or `count` per channel.
FailureOr<SmallVector<double>> scales(NodeContext &n, int i, StringRef what,
                                      int64_t count) {
  FailureOr<DenseElementsAttr> c = n.needConstant(i, what);
  if (failed(c))
    return failure();
  SmallVector<double> v = floatsOf(*c);
  for (double s : v)
    if (!(s > 0) || !std::isfinite(s))
      return n.error() << what << " " << text(s)
                       << " is not positive and finite";
  if (v.size() != 1 && int64_t(v.size()) != count)
    return n.error() << what << " has " << v.size() << " values, not 1 or "
                     << count;
  return v;
}

/// The multipliers a * b / y (in float32, in ONNX Runtime's order) for
/// `count` channels.
SmallVector<double> multipliers(ArrayRef<double> a, ArrayRef<double> b,
                                double y) {
  SmallVector<double> m;
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    float ab = float(a[a.size() == 1 ? 0 : i]) * float(b[b.size() == 1 ? 0 : i]);
    m.push_back(double(ab / float(y)));
  }
  return m;
}

/// ConvInteger (inputs x, w, x_zero_point, w_zero_point) and QLinearConv
/// (x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale,
/// y_zero_point, B).
LogicalResult importIntegerConv(NodeContext &n) {
  bool qlinear = n.opType() == "QLinearConv";
  int wi = qlinear ? 3 : 1, xzi = 2, wzi = qlinear ? 5 : 3;
  FailureOr<Value> x = eightBitInput(n, 0, "x");
  if (failed(x))
    return failure();
  if (!isEightBit(n, wi))
    return n.error() << "w must be uint8 or int8, got " << onnxTypeName(n, wi);
  FailureOr<DenseElementsAttr> w = eightBitConstant(n, wi, "w");
  if (failed(w))
    return failure();
  FailureOr<ZeroPoint> xzp = zeroPoint(n, xzi, 0, "x_zero_point");
  FailureOr<int64_t> wzp = singleZeroPoint(n, wzi, wi, "w_zero_point");
  if (failed(xzp) || failed(wzp))
    return failure();
  IntegerConv q;
  q.x = *x;
  q.wConst = *w;
  q.w = n.imp.constant(*w);
  q.xZeroPoint = xzp->value;
  q.xZeroPointValue = xzp->runtime;
  q.wZeroPoint = *wzp;
  if (qlinear) {
    int64_t oc = w->getType().getDimSize(0);
    FailureOr<SmallVector<double>> xs = scales(n, 1, "x_scale", 1),
                                   ws = scales(n, 4, "w_scale", oc),
                                   ys = scales(n, 6, "y_scale", 1);
    if (failed(xs) || failed(ws) || failed(ys))
      return failure();
    bool isUnsigned = !n.has(7) || n.isUnsignedInput(7);
    FailureOr<int64_t> yzp = singleZeroPoint(n, 7, 7, "y_zero_point");
    if (failed(yzp))
      return failure();
    if (!n.has(7))
      yzp = -128; // uint8's 0
    if (n.has(8)) {
      Value bias = n.in(8);
      if (n.inputType(8) != onnx::TensorProto::INT32)
        return n.error() << "B must be int32, got " << onnxTypeName(n, 8);
      q.bias = bias;
    }
    SmallVector<double> m = multipliers(*xs, *ws, (*ys)[0]);
    int64_t outZp = *yzp;
    q.finish = [&n, m, outZp, isUnsigned](Value acc) {
      return graphValue(n, requantize(n, acc, m, outZp), isUnsigned);
    };
  }
  return importWindowOp(n, &q);
}

/// `acc`, the i32 products of signed 8-bit `a` and `b` (input bi) taken
/// with zero points za.value and zb.value, corrected for the zero points
/// computed at run time: sum (a - za)(b - zb) over k is the product less
/// za x (column sums of b - zb) less zb x (row sums of a - za), plus
/// k za zb when both are. Column sums of a constant b are constants.
FailureOr<Value> subtractRuntimeZeroPoints(NodeContext &n, Value acc, Value a,
                                           Value b, int bi, ZeroPoint za,
                                           ZeroPoint zb) {
  Importer &imp = n.imp;
  RankedTensorType at = imp.typeOf(a), bt = imp.typeOf(b);
  int64_t rank = imp.typeOf(acc).getRank();
  if (at.getRank() < 2 || bt.getRank() < 2)
    return n.error() << "a zero point computed at run time needs A and B of "
                        "rank 2 or more";
  Type i32 = n.b.getI32Type();
  int64_t k = at.getShape().back();
  auto scalar = [&](Value z) { return imp.reshape(z, Shape(rank, 1)); };
  if (za.runtime) {
    // Column sums of b - zb: [..., 1, N].
    Value columns;
    if (n.cst(bi)) {
      FailureOr<DenseElementsAttr> stored = eightBitConstant(n, bi, "B");
      if (failed(stored))
        return failure();
      SmallVector<int64_t> v = intsOf(*stored);
      Shape shape(bt.getShape());
      int64_t cols = shape.back(), rows = shape[shape.size() - 2];
      int64_t batches = int64_t(v.size()) / (rows * cols);
      SmallVector<double> sums(batches * cols, 0);
      for (int64_t bIdx = 0; bIdx < batches; ++bIdx)
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t col = 0; col < cols; ++col)
            sums[bIdx * cols + col] +=
                double(v[(bIdx * rows + r) * cols + col] - zb.value);
      shape[shape.size() - 2] = 1;
      columns = imp.constant(denseOf(RankedTensorType::get(shape, i32), sums));
    } else {
      Value wide = imp.castTo(b, i32);
      if (zb.value)
        wide = imp.sub(wide, imp.scalarLike(wide, double(zb.value)));
      columns = imp.reduce("sum", wide, {bt.getRank() - 2});
    }
    acc = imp.sub(acc, imp.mul(scalar(za.runtime), imp.toRank(columns, rank)));
  }
  if (zb.runtime) {
    // Row sums of a - za: [..., M, 1].
    Value wide = imp.castTo(a, i32);
    if (za.value)
      wide = imp.sub(wide, imp.scalarLike(wide, double(za.value)));
    Value rows = imp.reduce("sum", wide, {at.getRank() - 1});
    acc = imp.sub(acc, imp.mul(scalar(zb.runtime), imp.toRank(rows, rank)));
  }
  if (za.runtime && zb.runtime)
    acc = imp.add(acc, imp.mul(imp.mul(scalar(za.runtime), scalar(zb.runtime)),
                               imp.splat(i32, Shape(rank, 1), double(k))));
  return acc;
}

/// MatMulInteger (A, B, a_zero_point, b_zero_point) and QLinearMatMul (a,
/// a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point).
LogicalResult importIntegerMatMul(NodeContext &n) {
  bool qlinear = n.opType() == "QLinearMatMul";
  int bi = qlinear ? 3 : 1, azi = 2, bzi = qlinear ? 5 : 3;
  FailureOr<Value> a = eightBitInput(n, 0, "A");
  FailureOr<Value> b = eightBitInput(n, bi, "B");
  if (failed(a) || failed(b))
    return failure();
  FailureOr<ZeroPoint> azp = zeroPoint(n, azi, 0, "a_zero_point");
  FailureOr<ZeroPoint> bzp = zeroPoint(n, bzi, bi, "b_zero_point");
  if (failed(azp) || failed(bzp))
    return failure();
  FailureOr<RankedTensorType> out = n.out();
  if (failed(out))
    return failure();
  FailureOr<Value> acc = batchMatMul(n, *a, *b, out->getShape(),
                                     std::make_pair(azp->value, bzp->value));
  if (failed(acc))
    return failure();
  if (azp->runtime || bzp->runtime) {
    FailureOr<Value> fixed = subtractRuntimeZeroPoints(n, *acc, *a, *b, bi,
                                                       *azp, *bzp);
    if (failed(fixed))
      return failure();
    acc = *fixed;
  }
  if (!qlinear)
    return n.setResult(*acc);
  int64_t cols = out->getShape().empty() ? 1 : out->getShape().back();
  FailureOr<SmallVector<double>> as = scales(n, 1, "a_scale", 1),
                                 bs = scales(n, 4, "b_scale", cols),
                                 ys = scales(n, 6, "y_scale", 1);
  if (failed(as) || failed(bs) || failed(ys))
    return failure();
  bool isUnsigned = n.isUnsignedInput(7);
  FailureOr<int64_t> yzp = singleZeroPoint(n, 7, 7, "y_zero_point");
  if (failed(yzp))
    return failure();
  Value y = requantize(n, *acc, multipliers(*as, *bs, (*ys)[0]), *yzp);
  return n.setResult(graphValue(n, y, isUnsigned));
}

} // namespace

void mlir::nnapi::onnx_import::registerQuantizationOps(OpRegistry &registry) {
  constexpr int64_t lo = kMinONNXOpset, hi = kAnyOpset;
  registry.add({
      {"", "QuantizeLinear", lo, hi, importQuantizeLinear,
       "the quantize composite (compile-time scale and zero point; per "
       "tensor or per axis); else divf, cast (half to even), add, clamp",
       "QUANTIZE (signed int8: 4) per tensor; ends an int8 group (below)",
       "uint8 and int8 outputs only; per axis or computed parameters (host)"},
      {"", "DequantizeLinear", lo, hi, importDequantizeLinear,
       "the dequantize composite (compile-time scale and zero point); else "
       "cast, sub, mul",
       "DEQUANTIZE (4) per tensor; DQ -> op (-> Relu/Clip) -> Q is one int8 "
       "operation (nnapi-raise-quantized; 4, or 1-3 as uint8 below 4): "
       "Conv, depthwise Conv, Gemm, MatMul by a constant, Add, Mul, "
       "MaxPool, AveragePool, GlobalAveragePool, Concat, Reshape, Flatten, "
       "Transpose, Resize (nearest), Sigmoid, Tanh, Softmax (NNAPI's fixed "
       "output parameters), "
       "HardSwish",
       "per axis or computed parameters (host)"},
      {"", "DynamicQuantizeLinear", lo, hi, importDynamicQuantizeLinear,
       "reduce_min/max, divf, cast, clamp (the quantize formula)", "- (host)",
       "-"},
      {"", "QLinearConv", lo, hi, importIntegerConv,
       "tosa.conv2d / depthwise_conv2d on int8 (uint8 shifted) with zero "
       "points, i32 accumulators, float32 requantization",
       "- (host: vectorized integer code)",
       "weights and parameters not constant; per-channel weight zero points "
       "that differ"},
      {"", "ConvInteger", lo, hi, importIntegerConv,
       "tosa.conv2d / depthwise_conv2d on int8 (uint8 shifted) with zero "
       "points, i32 results; a run-time x_zero_point (dynamic quantization) "
       "pads x with it and subtracts it times the filter sums",
       "- (host)",
       "weights and w_zero_point not constant; per-channel weight zero "
       "points that differ; a run-time x_zero_point of more than one value"},
      {"", "QLinearMatMul", lo, hi, importIntegerMatMul,
       "tosa.matmul on int8 (uint8 shifted) with zero points, float32 "
       "requantization",
       "- (host)", "zero points not constant or differing per row/column"},
      {"", "MatMulInteger", lo, hi, importIntegerMatMul,
       "tosa.matmul on int8 (uint8 shifted) with zero points, i32 results; "
       "run-time zero points (dynamic quantization) subtract them times the "
       "other operand's row or column sums",
       "- (host)",
       "zero points differing per row/column; run-time ones with a 1-D "
       "operand"},
  });
}
