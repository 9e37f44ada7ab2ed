#!/usr/bin/python3
"""Writes quantized ONNX models beyond ONNX's node tests (which feed every
scale, zero point and weight as a graph input, uint8 only): constant int8
per-channel weights, int32 biases, depthwise and strided QLinearConv,
int8 QLinearMatMul with per-column scales, a QDQ convolution, and models
with bad quantization parameters.

Expected outputs come from numpy here: integer products in int64, then
ONNX Runtime's requantization (accumulator x (a_scale x w_scale / y_scale)
in float32, rounded half to even, plus the zero point, saturated); QDQ
models from the float32 formula of QuantizeLinear / DequantizeLinear
around a float64 convolution (a float convolution, or NNAPI's fixed-point
requantization, may round an output one step differently: the test
allows one quantum).

Usage: make_quant_models.py OUT_DIR
"""
import sys

import numpy as np
from onnx import TensorProto, helper

from testdata import const, model, save, vi

F32 = np.float32


def requant(acc, m, zp, lo, hi):
    """ONNX Runtime's requantization of int64 accumulators."""
    scaled = acc.astype(F32) * m.astype(F32)
    return np.clip(np.round(scaled) + zp, lo, hi)


def conv_nchw(x, w, stride, pad, group):
    """Integer or float convolution (NCHW, OIHW), as int64/float64."""
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (wd + 2 * pad - kw) // stride + 1
    y = np.zeros((n, o, oh, ow), x.dtype)
    og = o // group
    for oc in range(o):
        g = oc // og
        for i in range(oh):
            for j in range(ow):
                patch = x[:, g * cg:(g + 1) * cg, i * stride:i * stride + kh,
                          j * stride:j * stride + kw]
                y[:, oc, i, j] = (patch * w[oc]).sum(axis=(1, 2, 3))
    return y


def qlinear_conv(out, name, group, stride, x_unsigned, seed):
    rng = np.random.default_rng(seed)
    c, o = (4, 4) if group == 4 else (3, 5)
    cg = c // group
    xt, lo, hi = ((np.uint8, 0, 255) if x_unsigned else (np.int8, -128, 127))
    x = rng.integers(lo, hi + 1, (1, c, 7, 7)).astype(xt)
    w = rng.integers(-127, 128, (o, cg, 3, 3)).astype(np.int8)
    xs, xz = F32(0.02), (130 if x_unsigned else -3)
    ws = (rng.uniform(0.002, 0.01, o)).astype(F32)
    ys, yz = F32(0.05), (120 if x_unsigned else 5)
    b = rng.integers(-2000, 2000, o).astype(np.int32)
    acc = conv_nchw(x.astype(np.int64) - xz, w.astype(np.int64), stride, 1,
                    group) + b.reshape(1, o, 1, 1)
    m = (xs * ws) / ys
    y = requant(acc, m.reshape(1, o, 1, 1), yz, lo, hi).astype(xt)
    elem = TensorProto.UINT8 if x_unsigned else TensorProto.INT8
    node = helper.make_node(
        "QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"],
        ["y"], group=group, strides=[stride, stride], pads=[1, 1, 1, 1])
    inits = [const("xs", xs), const("xz", np.array(xz, xt)), const("w", w),
             const("ws", ws), const("wz", np.zeros(o, np.int8)),
             const("ys", ys), const("yz", np.array(yz, xt)), const("b", b)]
    mdl = model(name, [node], [vi("x", list(x.shape), elem)],
                [vi("y", list(y.shape), elem)], inits, opset=13)
    save(out, name, mdl, [("x", x)], [("y", y)])


def qlinear_matmul(out):
    rng = np.random.default_rng(3)
    a = rng.integers(-128, 128, (2, 3, 8)).astype(np.int8)
    b = rng.integers(-128, 128, (8, 6)).astype(np.int8)
    az, bz, yz = 4, 0, -7
    as_, ys = F32(0.03), F32(0.4)
    bs = rng.uniform(0.01, 0.03, 6).astype(F32)
    acc = np.matmul(a.astype(np.int64) - az, b.astype(np.int64) - bz)
    y = requant(acc, (as_ * bs) / ys, yz, -128, 127).astype(np.int8)
    node = helper.make_node(
        "QLinearMatMul", ["a", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"])
    inits = [const("as", as_), const("az", np.array(az, np.int8)),
             const("b", b), const("bs", bs), const("bz", np.zeros(6, np.int8)),
             const("ys", ys), const("yz", np.array(yz, np.int8))]
    mdl = model("qlinear_matmul_i8", [node],
                [vi("a", list(a.shape), TensorProto.INT8)],
                [vi("y", list(y.shape), TensorProto.INT8)], inits, opset=13)
    save(out, "qlinear_matmul_i8", mdl, [("a", a)], [("y", y)])


def integer_ops(out):
    """MatMulInteger (int8) and ConvInteger (uint8 with a zero point per
    output channel, all equal) side by side."""
    rng = np.random.default_rng(5)
    a = rng.integers(-128, 128, (5, 7)).astype(np.int8)
    b = rng.integers(-128, 128, (7, 3)).astype(np.int8)
    x = rng.integers(0, 256, (1, 2, 5, 5)).astype(np.uint8)
    w = rng.integers(0, 256, (3, 2, 2, 2)).astype(np.uint8)
    mm = np.matmul(a.astype(np.int64) + 9, b.astype(np.int64)).astype(np.int32)
    cv = conv_nchw(x.astype(np.int64) - 77, w.astype(np.int64) - 128, 1, 0,
                   1).astype(np.int32)
    nodes = [
        helper.make_node("MatMulInteger", ["a", "b", "az"], ["mm"]),
        helper.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["cv"]),
    ]
    inits = [const("b", b), const("az", np.array(-9, np.int8)),
             const("w", w), const("xz", np.array(77, np.uint8)),
             const("wz", np.full(3, 128, np.uint8))]
    mdl = model("integer_ops", nodes,
                [vi("a", list(a.shape), TensorProto.INT8),
                 vi("x", list(x.shape), TensorProto.UINT8)],
                [vi("mm", list(mm.shape), TensorProto.INT32),
                 vi("cv", list(cv.shape), TensorProto.INT32)], inits, opset=13)
    save(out, "integer_ops", mdl, [("a", a), ("x", x)],
         [("mm", mm), ("cv", cv)])


def dynamic_quantize(x):
    """ONNX's DynamicQuantizeLinear in float32: (uint8 data, scale, zero
    point), the range widened to hold 0, rounding half to even."""
    x = x.astype(F32)
    lo, hi = min(F32(0), x.min()), max(F32(0), x.max())
    s = F32((hi - lo) / F32(255))
    z = np.uint8(np.clip(np.round(F32(0) - lo / s), 0, 255))
    q = np.clip(np.round(x / s) + F32(z), 0, 255).astype(np.uint8)
    return q, s, z


def dynamic_quant(out):
    """What ONNX Runtime's quantize_dynamic writes (per-tensor uint8 weights
    with a zero point, activations quantized at run time): DynamicQuantizeLinear
    -> ConvInteger / MatMulInteger with the run-time zero point -> Cast ->
    Mul by x_scale x w_scale -> Add the float bias. A padded and a strided
    depthwise convolution, a batched MatMul by a constant, and a MatMul of
    two run-time-quantized operands (both zero points computed)."""
    rng = np.random.default_rng(21)
    x = (rng.standard_normal((1, 3, 9, 9)) + 0.7).astype(F32)
    w = rng.integers(0, 256, (4, 3, 3, 3)).astype(np.uint8)
    wz, ws = np.uint8(131), F32(0.004)
    dw = rng.integers(0, 256, (3, 1, 3, 3)).astype(np.uint8)
    dwz, dws = np.uint8(97), F32(0.003)
    bias = rng.standard_normal(4).astype(F32)
    a = (rng.standard_normal((2, 5, 8)) * 2 - 1).astype(F32)
    b = rng.integers(0, 256, (8, 6)).astype(np.uint8)
    bz, bs = np.uint8(119), F32(0.01)
    c = (rng.standard_normal((2, 8, 3)) + 0.3).astype(F32)

    xq, xs, xz = dynamic_quantize(x)
    cv = conv_nchw(xq.astype(np.int64) - int(xz), w.astype(np.int64) - int(wz),
                   1, 1, 1).astype(np.int32)
    y = cv.astype(F32) * (xs * ws) + bias.reshape(1, 4, 1, 1)
    dv = conv_nchw(xq.astype(np.int64) - int(xz), dw.astype(np.int64) - int(dwz),
                   2, 1, 3).astype(np.int32)
    yd = dv.astype(F32) * (xs * dws)
    aq, as_, az = dynamic_quantize(a)
    mm = np.matmul(aq.astype(np.int64) - int(az),
                   b.astype(np.int64) - int(bz)).astype(np.int32)
    ym = mm.astype(F32) * (as_ * bs)
    cq, cs, cz = dynamic_quantize(c)
    mm2 = np.matmul(aq.astype(np.int64) - int(az),
                    cq.astype(np.int64) - int(cz)).astype(np.int32)
    ym2 = mm2.astype(F32) * (as_ * cs)

    nodes = [
        helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"]),
        helper.make_node("ConvInteger", ["xq", "w", "xz", "wz"], ["cv"],
                         pads=[1, 1, 1, 1]),
        helper.make_node("Cast", ["cv"], ["cvf"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["xs", "ws"], ["cs_"]),
        helper.make_node("Mul", ["cvf", "cs_"], ["cm"]),
        helper.make_node("Add", ["cm", "bias"], ["y"]),
        helper.make_node("ConvInteger", ["xq", "dw", "xz", "dwz"], ["dv"],
                         pads=[1, 1, 1, 1], strides=[2, 2], group=3),
        helper.make_node("Cast", ["dv"], ["dvf"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["xs", "dws"], ["ds_"]),
        helper.make_node("Mul", ["dvf", "ds_"], ["yd"]),
        helper.make_node("DynamicQuantizeLinear", ["a"], ["aq", "as", "az"]),
        helper.make_node("MatMulInteger", ["aq", "b", "az", "bz"], ["mm"]),
        helper.make_node("Cast", ["mm"], ["mmf"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["as", "bs"], ["ms_"]),
        helper.make_node("Mul", ["mmf", "ms_"], ["ym"]),
        helper.make_node("DynamicQuantizeLinear", ["c"], ["cq", "cs", "cz"]),
        helper.make_node("MatMulInteger", ["aq", "cq", "az", "cz"], ["mm2"]),
        helper.make_node("Cast", ["mm2"], ["mm2f"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["as", "cs"], ["m2s"]),
        helper.make_node("Mul", ["mm2f", "m2s"], ["ym2"]),
    ]
    inits = [const("w", w), const("wz", wz), const("ws", ws),
             const("dw", dw), const("dwz", dwz), const("dws", dws),
             const("bias", bias.reshape(1, 4, 1, 1)),
             const("b", b), const("bz", bz), const("bs", bs)]
    mdl = model("dynamic_quant", nodes,
                [vi("x", list(x.shape)), vi("a", list(a.shape)),
                 vi("c", list(c.shape))],
                [vi("y", list(y.shape)), vi("yd", list(yd.shape)),
                 vi("ym", list(ym.shape)), vi("ym2", list(ym2.shape)),
                 vi("xz", [], TensorProto.UINT8)],
                inits, opset=13)
    save(out, "dynamic_quant", mdl, [("x", x), ("a", a), ("c", c)],
         [("y", y), ("yd", yd), ("ym", ym), ("ym2", ym2),
          ("xz", np.array(xz, np.uint8))])


def quantize(x, s, z, lo, hi):
    return np.clip(np.round(x / s) + z, lo, hi)


def qdq_conv(out):
    """float x -> Q(uint8) -> DQ -> Conv (DQ'd int8 per-channel weights,
    DQ'd int32 bias) -> Relu -> Q(uint8) -> DQ."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((1, 3, 8, 8)).astype(F32)
    wq = rng.integers(-127, 128, (4, 3, 3, 3)).astype(np.int8)
    ws = rng.uniform(0.002, 0.006, 4).astype(F32)
    xs, xz, ys, yz = F32(0.03), 128, F32(0.02), 0
    bq = rng.integers(-500, 500, 4).astype(np.int32)
    bs = (xs * ws).astype(F32)
    xq = quantize(x, xs, xz, 0, 255).astype(np.uint8)
    xd = ((xq.astype(F32) - F32(xz)) * xs).astype(np.float64)
    wd = (wq.astype(F32) * ws.reshape(4, 1, 1, 1)).astype(np.float64)
    bd = (bq.astype(F32) * bs).astype(np.float64)
    conv = conv_nchw(xd, wd, 1, 1, 1) + bd.reshape(1, 4, 1, 1)
    relu = np.maximum(conv, 0).astype(F32)
    yq = quantize(relu, ys, yz, 0, 255).astype(np.uint8)
    y = ((yq.astype(F32) - F32(yz)) * ys).astype(F32)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
        helper.make_node("DequantizeLinear", ["wq", "ws", "wz"], ["wd"],
                         axis=0),
        helper.make_node("DequantizeLinear", ["bq", "bs"], ["bd"], axis=0),
        helper.make_node("Conv", ["xd", "wd", "bd"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("QuantizeLinear", ["r", "ys", "yz"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "ys", "yz"], ["y"]),
    ]
    inits = [const("xs", xs), const("xz", np.array(xz, np.uint8)),
             const("wq", wq), const("ws", ws), const("wz", np.zeros(4, np.int8)),
             const("bq", bq), const("bs", bs), const("ys", ys),
             const("yz", np.array(yz, np.uint8))]
    mdl = model("qdq_conv", nodes, [vi("x", list(x.shape))],
                [vi("y", list(y.shape))], inits, opset=13)
    save(out, "qdq_conv", mdl, [("x", x)], [("y", y)])


def qdq_add(out):
    """Q/DQ(a) + Q/DQ(b) -> Relu -> Q -> DQ: a quantized residual add, each
    operand with its own scale."""
    rng = np.random.default_rng(9)
    a = rng.standard_normal((1, 8, 4, 4)).astype(F32)
    b = rng.standard_normal((1, 8, 4, 4)).astype(F32)
    sa, za, sb, zb, so, zo = F32(0.03), 128, F32(0.05), 110, F32(0.04), 0
    da = (quantize(a, sa, za, 0, 255) - za).astype(F32) * sa
    db = (quantize(b, sb, zb, 0, 255) - zb).astype(F32) * sb
    r = np.maximum(da.astype(np.float64) + db, 0).astype(F32)
    y = ((quantize(r, so, zo, 0, 255) - zo).astype(F32) * so).astype(F32)
    nodes = [
        helper.make_node("QuantizeLinear", ["a", "sa", "za"], ["aq"]),
        helper.make_node("DequantizeLinear", ["aq", "sa", "za"], ["ad"]),
        helper.make_node("QuantizeLinear", ["b", "sb", "zb"], ["bq"]),
        helper.make_node("DequantizeLinear", ["bq", "sb", "zb"], ["bd"]),
        helper.make_node("Add", ["ad", "bd"], ["s"]),
        helper.make_node("Relu", ["s"], ["r"]),
        helper.make_node("QuantizeLinear", ["r", "so", "zo"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "so", "zo"], ["y"]),
    ]
    # a's parameters as 1-D tensors of one value: per tensor, though the
    # default axis 1 has 8 entries.
    inits = [const("sa", np.array([sa], F32)),
             const("za", np.array([za], np.uint8)),
             const("sb", sb), const("zb", np.array(zb, np.uint8)),
             const("so", so), const("zo", np.array(zo, np.uint8))]
    mdl = model("qdq_add", nodes,
                [vi("a", list(a.shape)), vi("b", list(b.shape))],
                [vi("y", list(y.shape))], inits, opset=13)
    save(out, "qdq_add", mdl, [("a", a), ("b", b)], [("y", y)])


def pool_nchw(x, k, stride, pad, average):
    """Max or average (padding not counted) pooling of NCHW float64."""
    n, c, h, w = x.shape
    oh = (h + 2 * pad - k) // stride + 1
    ow = (w + 2 * pad - k) // stride + 1
    y = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * stride - pad, j * stride - pad
            win = x[:, :, max(r0, 0):r0 + k, max(c0, 0):c0 + k]
            y[:, :, i, j] = win.mean(axis=(2, 3)) if average else \
                win.max(axis=(2, 3))
    return y


def qdq_pools(out):
    """The data-movement and pooling operations of QDQ models, each between
    Q/DQ pairs: MaxPool and AveragePool with their input's parameters,
    Concat of both (the output quantized with other parameters: its inputs
    are requantized), GlobalAveragePool, Flatten."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal((1, 8, 8, 8)).astype(F32)
    s1, z1, s2, z2 = F32(0.05), 128, F32(0.06), 120

    def qdq(v, s, z):
        return ((quantize(v.astype(F32), s, z, 0, 255) - z).astype(F32) *
                s).astype(np.float64)

    xd = qdq(x, s1, z1)
    m = qdq(pool_nchw(xd, 3, 2, 1, False), s1, z1)
    a = qdq(pool_nchw(m, 3, 1, 1, True), s1, z1)
    c = qdq(np.concatenate([m, a], axis=1), s2, z2)
    g = qdq(c.mean(axis=(2, 3), keepdims=True), s2, z2)
    y = qdq(g.reshape(1, 16), s2, z2).astype(F32)

    nodes = []

    def qdq_node(v, s, z):
        nodes.append(helper.make_node("QuantizeLinear", [v, s, z], [v + "q"]))
        nodes.append(helper.make_node("DequantizeLinear", [v + "q", s, z],
                                      [v + "d"]))
        return v + "d"

    xn = qdq_node("x", "s1", "z1")
    nodes.append(helper.make_node("MaxPool", [xn], ["m"], kernel_shape=[3, 3],
                                  strides=[2, 2], pads=[1, 1, 1, 1]))
    mn = qdq_node("m", "s1", "z1")
    nodes.append(helper.make_node("AveragePool", [mn], ["a"],
                                  kernel_shape=[3, 3], pads=[1, 1, 1, 1]))
    an = qdq_node("a", "s1", "z1")
    nodes.append(helper.make_node("Concat", [mn, an], ["c"], axis=1))
    cn = qdq_node("c", "s2", "z2")
    nodes.append(helper.make_node("GlobalAveragePool", [cn], ["g"]))
    gn = qdq_node("g", "s2", "z2")
    nodes.append(helper.make_node("Flatten", [gn], ["f"], axis=1))
    nodes.append(helper.make_node("QuantizeLinear", ["f", "s2", "z2"],
                                  ["fq"]))
    nodes.append(helper.make_node("DequantizeLinear", ["fq", "s2", "z2"],
                                  ["y"]))
    inits = [const("s1", s1), const("z1", np.array(z1, np.uint8)),
             const("s2", s2), const("z2", np.array(z2, np.uint8))]
    mdl = model("qdq_pools", nodes, [vi("x", list(x.shape))],
                [vi("y", list(y.shape))], inits, opset=13)
    save(out, "qdq_pools", mdl, [("x", x)], [("y", y)])


def qdq_transpose(out):
    """A Transpose between Q/DQ pairs of its input's parameters (an int8
    TRANSPOSE, which moves the stored values), between reshapes as an
    attention layer splits heads, so that no layout pass moves it."""
    rng = np.random.default_rng(12)
    x = rng.standard_normal((2, 12)).astype(F32)
    s, z = F32(0.04), 3
    xq = quantize(x, s, z, -128, 127)
    t = np.transpose(xq.reshape(2, 3, 4), (0, 2, 1)).reshape(2, 12)
    y = ((t - z).astype(F32) * s).astype(F32)
    nodes = []

    def qdq_node(v):
        nodes.append(helper.make_node("QuantizeLinear", [v, "s", "z"],
                                      [v + "q"]))
        nodes.append(helper.make_node("DequantizeLinear", [v + "q", "s", "z"],
                                      [v + "d"]))
        return v + "d"

    nodes.append(helper.make_node("Reshape", [qdq_node("x"), "split"],
                                  ["r"]))
    nodes.append(helper.make_node("Transpose", [qdq_node("r")], ["t"],
                                  perm=[0, 2, 1]))
    nodes.append(helper.make_node("Reshape", [qdq_node("t"), "merge"],
                                  ["m"]))
    nodes.append(helper.make_node("QuantizeLinear", ["m", "s", "z"], ["mq"]))
    nodes.append(helper.make_node("DequantizeLinear", ["mq", "s", "z"],
                                  ["y"]))
    inits = [const("s", s), const("z", np.array(z, np.int8)),
             const("split", np.array([2, 3, 4], np.int64)),
             const("merge", np.array([2, 12], np.int64))]
    mdl = model("qdq_transpose", nodes, [vi("x", list(x.shape))],
                [vi("y", list(y.shape))], inits, opset=13)
    save(out, "qdq_transpose", mdl, [("x", x)], [("y", y)])


def qdq_resize(out):
    """A nearest-neighbor Resize (2x upsampling, as detection necks do)
    between Q/DQ pairs of its input's parameters: an int8
    RESIZE_NEAREST_NEIGHBOR, which copies stored values; NCHW input."""
    rng = np.random.default_rng(13)
    x = rng.standard_normal((1, 3, 4, 5)).astype(F32)
    s, z = F32(0.03), -7
    xq = quantize(x, s, z, -128, 127)
    up = np.repeat(np.repeat(xq, 2, axis=2), 2, axis=3)
    y = ((up - z).astype(F32) * s).astype(F32)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "s", "z"], ["xd"]),
        helper.make_node("Resize", ["xd", "", "scales"], ["r"],
                         mode="nearest"),
        helper.make_node("QuantizeLinear", ["r", "s", "z"], ["rq"]),
        helper.make_node("DequantizeLinear", ["rq", "s", "z"], ["y"]),
    ]
    inits = [const("s", s), const("z", np.array(z, np.int8)),
             const("scales", np.array([1, 1, 2, 2], F32))]
    mdl = model("qdq_resize", nodes, [vi("x", list(x.shape))],
                [vi("y", list(y.shape))], inits, opset=13)
    save(out, "qdq_resize", mdl, [("x", x)], [("y", y)])


def qdq_activations(out):
    """The activations of QDQ models between Q/DQ pairs: HardSwish, Sigmoid
    and Tanh and Softmax (quantized as NNAPI fixes their outputs: 1/256
    and 1/128), and a Mul of two quantized tensors (a squeeze-and-excite
    gate)."""
    rng = np.random.default_rng(13)
    x = (rng.standard_normal((1, 8, 4, 4)) * 2).astype(F32)
    params = {"x": (0.04, 128), "h": (0.03, 20), "g": (1 / 256, 0),
              "m": (0.02, 30), "t": (1 / 128, 128), "y": (1 / 256, 0)}

    def qdq(v, name):
        s, z = params[name]
        s = F32(s)
        return ((quantize(v.astype(F32), s, z, 0, 255) - z).astype(F32) *
                s).astype(np.float64)

    xd = qdq(x, "x")
    hd = qdq(xd * np.clip(xd / 6 + 0.5, 0, 1), "h")
    gd = qdq(1 / (1 + np.exp(-xd)), "g")
    md = qdq(hd * gd, "m")
    td = qdq(np.tanh(md), "t")
    e = np.exp(td - td.max(axis=-1, keepdims=True))
    y = qdq(e / e.sum(axis=-1, keepdims=True), "y").astype(F32)

    nodes, inits = [], []
    for name, (s, z) in params.items():
        inits += [const(name + "_s", F32(s)),
                  const(name + "_z", np.array(z, np.uint8))]

    def qdq_node(v, name, out_name=None):
        nodes.append(helper.make_node(
            "QuantizeLinear", [v, name + "_s", name + "_z"], [v + "_q"]))
        nodes.append(helper.make_node(
            "DequantizeLinear", [v + "_q", name + "_s", name + "_z"],
            [out_name or v + "_d"]))
        return out_name or v + "_d"

    xn = qdq_node("x", "x")
    nodes.append(helper.make_node("HardSwish", [xn], ["h"]))
    hn = qdq_node("h", "h")
    nodes.append(helper.make_node("Sigmoid", [xn], ["g"]))
    gn = qdq_node("g", "g")
    nodes.append(helper.make_node("Mul", [hn, gn], ["m"]))
    mn = qdq_node("m", "m")
    nodes.append(helper.make_node("Tanh", [mn], ["t"]))
    tn = qdq_node("t", "t")
    nodes.append(helper.make_node("Softmax", [tn], ["sm"], axis=-1))
    qdq_node("sm", "y", "y")
    mdl = model("qdq_activations", nodes, [vi("x", list(x.shape))],
                [vi("y", list(y.shape))], inits, opset=14)
    save(out, "qdq_activations", mdl, [("x", x)], [("y", y)])


def qdq_matmul(out):
    """Q/DQ(x) [2, 5, 16] -> MatMul by a DQ'd constant int8 matrix [16, 8]
    (per-tensor scale, zero point 3) -> Q -> DQ: a quantized MatMul of a
    transformer's linear layer."""
    rng = np.random.default_rng(19)
    x = rng.standard_normal((2, 5, 16)).astype(F32)
    wq = rng.integers(-127, 128, (16, 8)).astype(np.int8)
    xs, xz, ws, wz, ys, yz = F32(0.03), 128, F32(0.01), 3, F32(0.05), 120
    xd = (quantize(x, xs, xz, 0, 255) - xz).astype(F32) * xs
    wd = (wq.astype(F32) - F32(wz)) * ws
    m = (xd.astype(np.float64) @ wd.astype(np.float64)).astype(F32)
    y = ((quantize(m, ys, yz, 0, 255) - yz).astype(F32) * ys).astype(F32)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
        helper.make_node("DequantizeLinear", ["wq", "ws", "wz"], ["wd"]),
        helper.make_node("MatMul", ["xd", "wd"], ["m"]),
        helper.make_node("QuantizeLinear", ["m", "ys", "yz"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "ys", "yz"], ["y"]),
    ]
    inits = [const("xs", xs), const("xz", np.array(xz, np.uint8)),
             const("wq", wq), const("ws", ws),
             const("wz", np.array(wz, np.int8)), const("ys", ys),
             const("yz", np.array(yz, np.uint8))]
    mdl = model("qdq_matmul", nodes, [vi("x", list(x.shape))],
                [vi("y", list(y.shape))], inits, opset=13)
    save(out, "qdq_matmul", mdl, [("x", x)], [("y", y)])


def qdq_linear_per_channel(out):
    """Q/DQ(x) [3, 16] -> Gemm (transB, DQ'd int8 weights [8, 16] per output
    channel, DQ'd int32 bias) -> Q -> DQ, then MatMul by DQ'd int8 [8, 6]
    per output column -> Q -> DQ: per-channel weights of fully connected
    layers (as quantization tools write them with per_channel=True)."""
    rng = np.random.default_rng(23)
    x = rng.standard_normal((3, 16)).astype(F32)
    w1 = rng.integers(-127, 128, (8, 16)).astype(np.int8)
    s1 = rng.uniform(0.005, 0.02, 8).astype(F32)
    w2 = rng.integers(-127, 128, (8, 6)).astype(np.int8)
    s2 = rng.uniform(0.005, 0.02, 6).astype(F32)
    xs, xz, hs, hz, ys, yz = F32(0.03), 128, F32(0.05), 100, F32(0.04), 128
    bq = rng.integers(-300, 300, 8).astype(np.int32)
    bs = (xs * s1).astype(F32)
    xd = (quantize(x, xs, xz, 0, 255) - xz).astype(F32) * xs
    w1d = w1.astype(F32) * s1.reshape(8, 1)
    bd = bq.astype(F32) * bs
    h = (xd.astype(np.float64) @ w1d.T.astype(np.float64) + bd).astype(F32)
    hd = (quantize(h, hs, hz, 0, 255) - hz).astype(F32) * hs
    w2d = w2.astype(F32) * s2.reshape(1, 6)
    m = (hd.astype(np.float64) @ w2d.astype(np.float64)).astype(F32)
    y = ((quantize(m, ys, yz, 0, 255) - yz).astype(F32) * ys).astype(F32)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
        helper.make_node("DequantizeLinear", ["w1", "s1", "z1"], ["w1d"],
                         axis=0),
        helper.make_node("DequantizeLinear", ["bq", "bs"], ["bd"], axis=0),
        helper.make_node("Gemm", ["xd", "w1d", "bd"], ["h"], transB=1),
        helper.make_node("QuantizeLinear", ["h", "hs", "hz"], ["hq"]),
        helper.make_node("DequantizeLinear", ["hq", "hs", "hz"], ["hd"]),
        helper.make_node("DequantizeLinear", ["w2", "s2", "z2"], ["w2d"],
                         axis=1),
        helper.make_node("MatMul", ["hd", "w2d"], ["m"]),
        helper.make_node("QuantizeLinear", ["m", "ys", "yz"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "ys", "yz"], ["y"]),
    ]
    inits = [const("xs", xs), const("xz", np.array(xz, np.uint8)),
             const("w1", w1), const("s1", s1), const("z1", np.zeros(8, np.int8)),
             const("bq", bq), const("bs", bs),
             const("hs", hs), const("hz", np.array(hz, np.uint8)),
             const("w2", w2), const("s2", s2), const("z2", np.zeros(6, np.int8)),
             const("ys", ys), const("yz", np.array(yz, np.uint8))]
    mdl = model("qdq_linear_per_channel", nodes, [vi("x", list(x.shape))],
                [vi("y", list(y.shape))], inits, opset=13)
    save(out, "qdq_linear_per_channel", mdl, [("x", x)], [("y", y)])


def bad(out):
    """One bad parameter each."""
    def q(name, scale, zp=None, shape=(2, 3), axis=None):
        ins = ["x", "s"] + (["z"] if zp is not None else [])
        attrs = {} if axis is None else {"axis": axis}
        inits = [const("s", np.asarray(scale, F32))]
        if zp is not None:
            inits.append(const("z", zp))
        node = helper.make_node("QuantizeLinear", ins, ["y"], **attrs)
        mdl = model(name, [node], [vi("x", list(shape))],
                    [vi("y", list(shape), TensorProto.UINT8
                        if zp is None or zp.dtype == np.uint8
                        else TensorProto.INT8)], inits, check=False, opset=13)
        save(out, name, mdl, [], [])
    q("q_scale_zero", 0.0)
    q("q_scale_negative", -0.5)
    q("q_scale_nan", float("nan"))
    q("q_scale_count", [0.1, 0.2], np.zeros(2, np.uint8), axis=1)
    q("q_zp_count", [0.1, 0.2, 0.3], np.zeros(2, np.uint8), axis=1)
    q("q_axis", [0.1, 0.2, 0.3], np.zeros(3, np.uint8), axis=4)

    # uint16 data is not 8-bit (it is i32 inside, like uint8): ONNX's type
    # constraints refuse it before the handler sees it.
    node = helper.make_node("DequantizeLinear", ["x", "s"], ["y"])
    mdl = model("dq_uint16", [node], [vi("x", [4], TensorProto.UINT16)],
                [vi("y", [4])], [const("s", F32(0.5))], check=False, opset=13)
    save(out, "dq_uint16", mdl, [], [])

    rng = np.random.default_rng(0)
    node = helper.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["y"])
    mdl = model("conv_zp_differ", [node],
                [vi("x", [1, 2, 4, 4], TensorProto.UINT8)],
                [vi("y", [1, 2, 3, 3], TensorProto.INT32)],
                [const("w", rng.integers(0, 255, (2, 2, 2, 2)).astype(
                    np.uint8)), const("xz", np.array(3, np.uint8)),
                 const("wz", np.array([1, 2], np.uint8))], check=False,
                opset=13)
    save(out, "conv_zp_differ", mdl, [], [])

    # Zero points computed at run time: one value per tensor, operands of
    # rank 2 or more.
    node = helper.make_node("MatMulInteger", ["a", "b", "az"], ["y"])
    mdl = model("mm_runtime_zp_rows", [node],
                [vi("a", [3, 4], TensorProto.UINT8),
                 vi("az", [3], TensorProto.UINT8)],
                [vi("y", [3, 2], TensorProto.INT32)],
                [const("b", np.ones((4, 2), np.uint8))], check=False, opset=13)
    save(out, "mm_runtime_zp_rows", mdl, [], [])
    mdl = model("mm_runtime_zp_vector", [node],
                [vi("a", [4], TensorProto.UINT8),
                 vi("az", [], TensorProto.UINT8)],
                [vi("y", [2], TensorProto.INT32)],
                [const("b", np.ones((4, 2), np.uint8))], check=False, opset=13)
    save(out, "mm_runtime_zp_vector", mdl, [], [])

    node = helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz",
                                            "ys", "yz"], ["y"])
    mdl = model("qconv_wscale_count", [node],
                [vi("x", [1, 2, 4, 4], TensorProto.INT8)],
                [vi("y", [1, 3, 3, 3], TensorProto.INT8)],
                [const("xs", F32(0.1)), const("xz", np.array(0, np.int8)),
                 const("w", np.ones((3, 2, 2, 2), np.int8)),
                 const("ws", np.array([0.1, 0.2], F32)),
                 const("wz", np.zeros(3, np.int8)), const("ys", F32(0.1)),
                 const("yz", np.array(0, np.int8))], check=False, opset=13)
    save(out, "qconv_wscale_count", mdl, [], [])


def main():
    out = sys.argv[1]
    qlinear_conv(out, "qlinear_conv_u8", 1, 1, True, 1)
    qlinear_conv(out, "qlinear_conv_dw_s2", 4, 2, False, 2)
    qlinear_matmul(out)
    integer_ops(out)
    dynamic_quant(out)
    qdq_conv(out)
    qdq_add(out)
    qdq_pools(out)
    qdq_transpose(out)
    qdq_resize(out)
    qdq_activations(out)
    qdq_matmul(out)
    qdq_linear_per_channel(out)
    bad(out)


if __name__ == "__main__":
    main()
