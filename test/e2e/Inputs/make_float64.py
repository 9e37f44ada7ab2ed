#!/usr/bin/python3
"""Small ONNX models computing in float64, with inputs beyond float32's range
(1e-300 .. 1e300, exp(700)) or differences float32 cannot hold (1 + 1e-12),
and their expected outputs computed independently with numpy (and Python's
math.erf) in float64.

Usage: make_float64.py --out-dir DIR
Writes, per model, DIR/<name>.onnx, DIR/<name>_input<k>.npy,
DIR/<name>_expected.npy and DIR/<name>_tolerance.json (the format
check_models.py reads). Tolerances are float64's: relative 1e-13 for
arithmetic, 1e-12 for sums of many terms and transcendentals.
"""
import argparse
import math
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

import model_files

RNG = np.random.default_rng(64)
D = TensorProto.DOUBLE


def wide(shape, lo=-300, hi=300):
    """Values of both signs spread over 10^lo .. 10^hi."""
    return RNG.choice([-1.0, 1.0], shape) * 10.0 ** RNG.uniform(lo, hi, shape)


def normal(shape, scale=1.0):
    return RNG.standard_normal(shape) * scale


MODELS = {}


def model(name, nodes, inputs, expected, inits=(), rtol=1e-13, atol=0.0,
          opset=17):
    """Registers a model whose graph inputs are the arrays `inputs` (named
    i0, i1, ...) and whose one output 'out' must equal `expected`."""
    ins = [helper.make_tensor_value_info(f"i{k}", onnx_type(a), a.shape)
           for k, a in enumerate(inputs)]
    out = helper.make_tensor_value_info("out", onnx_type(expected),
                                        expected.shape)
    graph = helper.make_graph(
        nodes, name, ins, [out],
        [numpy_helper.from_array(v, k) for k, v in inits])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    MODELS[name] = (m, inputs, expected, {"rtol": rtol, "atol": atol})


def onnx_type(a):
    return {np.dtype(np.float64): D, np.dtype(np.float32): TensorProto.FLOAT,
            np.dtype(np.int64): TensorProto.INT64,
            np.dtype(np.bool_): TensorProto.BOOL}[a.dtype]


def node(op, inputs, output="out", **attrs):
    return helper.make_node(op, inputs, [output], **attrs)


def conv_reference(x, w, b, stride, pad, group):
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ho = (h + 2 * pad - kh) // stride + 1
    wo = (wd + 2 * pad - kw) // stride + 1
    y = np.zeros((n, m, ho, wo))
    per = m // group
    for o in range(m):
        g = o // per
        for i in range(ho):
            for j in range(wo):
                window = xp[:, g * cg:(g + 1) * cg, i * stride:i * stride + kh,
                            j * stride:j * stride + kw]
                y[:, o, i, j] = np.sum(window * w[o], axis=(1, 2, 3)) + b[o]
    return y


def build():
    # Arithmetic across float64's range: float32 would give inf and 0.
    a, b = wide((3, 5, 7), -150, 150), wide((5, 7), -150, 150)
    model("add", [node("Add", ["i0", "i1"])], [a, b], a + b)
    model("mul", [node("Mul", ["i0", "i1"])], [a, b], a * b)
    model("div", [node("Div", ["i0", "i1"])], [a, b], a / b)
    model("sub_precision", [node("Sub", ["i0", "i1"])],
          [1.0 + 1e-12 * np.arange(1, 8), np.ones(7)], 1e-12 * np.arange(1, 8),
          rtol=1e-3)  # the difference of two rounded values
    x = RNG.uniform(-700, 700, (4, 9))
    model("exp", [node("Exp", ["i0"])], [x], np.exp(x), rtol=1e-12)
    x = 10.0 ** RNG.uniform(-300, 300, (4, 9))
    model("log", [node("Log", ["i0"])], [x], np.log(x), rtol=1e-12)
    model("sqrt", [node("Sqrt", ["i0"])], [x], np.sqrt(x))
    model("reciprocal", [node("Reciprocal", ["i0"])], [x], 1.0 / x)
    x = RNG.uniform(-20, 20, (4, 9))
    model("tanh", [node("Tanh", ["i0"])], [x], np.tanh(x), rtol=1e-12,
          atol=1e-300)
    x = RNG.uniform(-700, 700, (4, 9))
    model("sigmoid", [node("Sigmoid", ["i0"])], [x], 1.0 / (1.0 + np.exp(-x)),
          rtol=1e-12, atol=1e-300)
    x = RNG.uniform(-6, 6, (4, 9))
    model("erf", [node("Erf", ["i0"])], [x],
          np.vectorize(math.erf)(x), rtol=1e-12, atol=1e-15)
    x, y = 10.0 ** RNG.uniform(-3, 3, (4, 9)), RNG.uniform(-40, 40, (4, 9))
    model("pow", [node("Pow", ["i0", "i1"])], [x, y], x ** y, rtol=1e-12)
    # Clip without bounds keeps 1e300 (float32's limits are no bound here).
    x = wide((4, 9))
    model("clip_default", [node("Clip", ["i0"])], [x], x)
    model("clip", [node("Clip", ["i0", "lo", "hi"])], [x],
          np.clip(x, -1e100, 1e200),
          inits=[("lo", np.array(-1e100)), ("hi", np.array(1e200))])
    model("relu", [node("Relu", ["i0"])], [x], np.maximum(x, 0))
    # Linear algebra with results beyond float32 (1e100 * 1e100).
    a, b = normal((2, 7, 9), 1e100), normal((9, 5), 1e100)
    model("matmul", [node("MatMul", ["i0", "i1"])], [a, b], a @ b, rtol=1e-12,
          atol=1e188)
    w, c = normal((6, 9), 1e150), normal((6,), 1e150)
    a = normal((3, 9), 1e150)
    model("gemm_const", [node("Gemm", ["i0", "w", "c"], transB=1, beta=0.5)],
          [a], a @ w.T + 0.5 * c, inits=[("w", w), ("c", c)], rtol=1e-12,
          atol=1e288)
    # Convolutions and pools.
    x = normal((1, 4, 9, 8), 1e200)
    w, bias = normal((6, 4, 3, 3), 1e-100), normal((6,), 1e100)
    model("conv", [node("Conv", ["i0", "w", "b"], pads=[1] * 4,
                        strides=[2, 2])], [x],
          conv_reference(x, w, bias, 2, 1, 1), inits=[("w", w), ("b", bias)],
          rtol=1e-12, atol=1e88)
    w = normal((4, 1, 3, 3))
    bias = np.zeros(4)
    model("depthwise", [node("Conv", ["i0", "w"], pads=[1] * 4, group=4)],
          [x], conv_reference(x, w, bias, 1, 1, 4), inits=[("w", w)],
          rtol=1e-12, atol=1e188)
    pooled = x[:, :, :8, :].reshape(1, 4, 4, 2, 4, 2)
    model("avgpool", [node("AveragePool", ["i0"], kernel_shape=[2, 2],
                           strides=[2, 2])], [x], pooled.mean(axis=(3, 5)),
          rtol=1e-12)
    model("maxpool", [node("MaxPool", ["i0"], kernel_shape=[2, 2],
                           strides=[2, 2])], [x], pooled.max(axis=(3, 5)))
    model("global_avgpool", [node("GlobalAveragePool", ["i0"])], [x],
          x.mean(axis=(2, 3), keepdims=True), rtol=1e-12, atol=1e186)
    # Normalizations and reductions.
    x = normal((2, 3, 10), 1e150)
    e = np.exp(x / 1e150 - (x / 1e150).max(axis=-1, keepdims=True))
    model("softmax", [node("Div", ["i0", "s"], "t"), node("Softmax", ["t"])],
          [x], e / e.sum(axis=-1, keepdims=True),
          inits=[("s", np.array(1e150))], rtol=1e-12)
    scale, shift = normal((10,)), normal((10,))
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    model("layernorm", [node("LayerNormalization", ["i0", "g", "h"],
                             epsilon=1e-300)], [x],
          (x - mu) / np.sqrt(var + 1e-300) * scale + shift,
          inits=[("g", scale), ("h", shift)], rtol=1e-11, atol=1e-12)
    # float32 data, float64 statistics (stash_type 11): a mean of 1e4 with
    # a spread of 1e-3 is below float32's resolution of the sum's terms.
    x32 = (1e4 + 1e-3 * normal((2, 3, 16))).astype(np.float32)
    g32, h32 = normal((16,)).astype(np.float32), normal((16,)).astype(np.float32)
    x64 = x32.astype(np.float64)
    mu = x64.mean(axis=-1, keepdims=True)
    var = ((x64 - mu) ** 2).mean(axis=-1, keepdims=True)
    norm = ((x64 - mu) / np.sqrt(var + 1e-12)).astype(np.float32)
    model("layernorm_stash64", [node("LayerNormalization", ["i0", "g", "h"],
                                     epsilon=1e-12, stash_type=D)], [x32],
          norm * g32 + h32, inits=[("g", g32), ("h", h32)], rtol=1e-5,
          atol=1e-5)
    x = normal((2, 3, 4, 5), 1e150)
    g, h, m, v = normal((3,)), normal((3,)), normal((3,), 1e150), \
        10.0 ** RNG.uniform(299, 300, (3,))
    shape = (1, 3, 1, 1)
    model("batchnorm", [node("BatchNormalization", ["i0", "g", "h", "m", "v"],
                             epsilon=1e-5)], [x],
          (x - m.reshape(shape)) / np.sqrt(v.reshape(shape) + 1e-5) *
          g.reshape(shape) + h.reshape(shape),
          inits=[("g", g), ("h", h), ("m", m), ("v", v)], rtol=1e-12,
          atol=1e-3)
    axes = [("axes", np.array([1, 2]))]
    model("reduce_sum", [node("ReduceSum", ["i0", "axes"], keepdims=0)], [x],
          x.sum(axis=(1, 2)), inits=axes, rtol=1e-12, atol=1e138)
    model("reduce_max", [node("ReduceMax", ["i0"], axes=[3])], [x],
          x.max(axis=3, keepdims=True))
    y = 10.0 ** RNG.uniform(-30, 30, (2, 3, 4, 5))
    model("reduce_prod", [node("ReduceProd", ["i0"], axes=[1, 3])], [y],
          y.prod(axis=(1, 3), keepdims=True), rtol=1e-12)
    # Casts at the edges of float32 and of float64's integer range.
    x = np.array([1e300, -1e-300, 3.4e38, 3.5e38, 1 + 2 ** -40, 0.1])
    model("cast_to_f32", [node("Cast", ["i0"], to=TensorProto.FLOAT)], [x],
          x.astype(np.float32))
    i = np.array([2 ** 53, -(2 ** 53) + 1, 123456789012345, 0, -7])
    model("cast_from_i64", [node("Cast", ["i0"], to=D)], [i],
          i.astype(np.float64))
    x = np.array([2.0 ** 53, -2.0 ** 52 - 0.5, 123456789012.75, -7.5])
    model("cast_to_i64", [node("Cast", ["i0"], to=TensorProto.INT64)], [x],
          np.trunc(x).astype(np.int64))
    # Data movement and selection keep every bit.
    x, y = wide((3, 4, 5)), wide((3, 4, 5))
    model("where_less", [node("Less", ["i0", "i1"], "c"),
                         node("Where", ["c", "i0", "i1"])], [x, y],
          np.where(x < y, x, y))
    model("transpose_concat",
          [node("Transpose", ["i0"], "t", perm=[2, 0, 1]),
           node("Transpose", ["i1"], "u", perm=[2, 0, 1]),
           node("Concat", ["t", "u"], axis=1)], [x, y],
          np.concatenate([x.transpose(2, 0, 1), y.transpose(2, 0, 1)], 1))
    x = 1.0 + 1e-13 * RNG.integers(-1000, 1000, (3, 6))
    model("cumsum", [node("CumSum", ["i0", "axis"])], [x],
          np.cumsum(x, axis=1), inits=[("axis", np.array(1))], rtol=1e-14)
    x = normal((1, 2, 3, 4), 1e250)
    scales = np.array([1.0, 1.0, 2.0, 2.0], np.float32)
    model("resize_linear", [node("Resize", ["i0", "", "scales"],
                                 mode="linear")], [x],
          resize_linear_reference(x, 2), inits=[("scales", scales)],
          rtol=1e-12, atol=1e238)
    # Nearest, half_pixel, round_prefer_floor, 3 -> 7 and 4 -> 6.
    sizes = np.array([1, 2, 7, 6])
    rows = [nearest_index(o, 3, 7 / 3) for o in range(7)]
    cols = [nearest_index(o, 4, 6 / 4) for o in range(6)]
    model("resize_nearest", [node("Resize", ["i0", "", "", "sizes"],
                                  mode="nearest")], [x],
          x[:, :, rows][:, :, :, cols], inits=[("sizes", sizes)])
    # float64 around a float32 convolution: the casts and the float64
    # arithmetic stay on the host, the convolution may go to NNAPI.
    x = normal((1, 3, 6, 6))
    w = normal((4, 3, 3, 3)).astype(np.float32)
    y = conv_reference(x.astype(np.float32).astype(np.float64),
                       w.astype(np.float64), np.zeros(4), 1, 0, 1)
    model("mixed_f32_conv",
          [node("Cast", ["i0"], "m32", to=TensorProto.FLOAT),
           node("Conv", ["m32", "w"], "c"),
           node("Cast", ["c"], "c64", to=D),
           node("Mul", ["c64", "k"])], [x], y * 1e300,
          inits=[("k", np.array(1e300)), ("w", w)], rtol=1e-5, atol=1e295)


def nearest_index(o, n, scale):
    """ONNX's nearest sample (half_pixel, round_prefer_floor) of output o."""
    x = (o + 0.5) / scale - 0.5
    i = math.floor(x) if x - math.floor(x) <= 0.5 else math.ceil(x)
    return min(max(i, 0), n - 1)


def resize_linear_reference(x, f):
    """Bilinear upsampling by `f` with half_pixel coordinates."""
    def axis_weights(n):
        out = np.zeros((n * f, n))
        for o in range(n * f):
            s = min(max((o + 0.5) / f - 0.5, 0), n - 1)
            lo = int(math.floor(s))
            hi = min(lo + 1, n - 1)
            out[o, lo] += 1 - (s - lo)
            out[o, hi] += s - lo
        return out
    mh, mw = axis_weights(x.shape[2]), axis_weights(x.shape[3])
    return np.einsum("ph,nchw,qw->ncpq", mh, x, mw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args()
    build()
    os.makedirs(args.out_dir, exist_ok=True)
    for name, (m, inputs, expected, tol) in MODELS.items():
        onnx.save(m, os.path.join(args.out_dir, name + ".onnx"))
        model_files.save_case(args.out_dir, name, inputs, expected,
                              tolerance=tol)
        print(name)


if __name__ == "__main__":
    main()
