#!/usr/bin/python3
"""A small MobileNetV3-like ONNX model (opset 14): a strided stem, inverted
residual blocks with HardSwish, depthwise convolutions (Conv with group =
channels), squeeze-excite (GlobalAveragePool, Relu, HardSigmoid, Mul),
BatchNormalization after every convolution, a ReduceMean head and a Gemm
classifier, at 32x32 with random weights. The expected output is computed
independently with numpy in float64.

Usage: make_mobilenet_v3.py DIR
Writes DIR/model.onnx, DIR/test_data_set_0/{input_0,output_0}.pb and
DIR/{x,expected}.npy.
"""
import sys

import numpy as np
from onnx import TensorProto, helper

import model_files

RNG = np.random.default_rng(3)
builder = model_files.Graph()
inits, nodes = builder.inits, builder.nodes
# The numpy reference replays these, in order.
steps = []


def const(value):
    return builder.const(value, np.float32)


node = builder.node


def conv_bn(x, cin, cout, k, stride=1, group=1):
    w = (RNG.standard_normal((cout, cin // group, k, k)) *
         np.sqrt(2.0 / (cin // group * k * k))).astype(np.float32)
    b = (RNG.standard_normal(cout) * 0.1).astype(np.float32)
    gamma = RNG.uniform(0.5, 1.5, cout).astype(np.float32)
    beta = (RNG.standard_normal(cout) * 0.1).astype(np.float32)
    mean = (RNG.standard_normal(cout) * 0.1).astype(np.float32)
    var = RNG.uniform(0.5, 1.5, cout).astype(np.float32)
    y = node("Conv", [x, const(w), const(b)], kernel_shape=[k, k],
             strides=[stride, stride], pads=[k // 2] * 4, group=group)
    y = node("BatchNormalization",
             [y, const(gamma), const(beta), const(mean), const(var)])
    steps.append(("conv_bn", (w, b, gamma, beta, mean, var, stride, group)))
    return y


def hard_swish(x):
    steps.append(("hard_swish", None))
    return node("HardSwish", [x])


def block(x, cin, cexp, cout, k, stride, se):
    steps.append(("block_begin", (cin, cout, stride)))
    y = hard_swish(conv_bn(x, cin, cexp, 1))
    y = hard_swish(conv_bn(y, cexp, cexp, k, stride, cexp))
    if se:
        w1 = (RNG.standard_normal((cexp // 4, cexp, 1, 1)) * 0.3).astype(np.float32)
        b1 = (RNG.standard_normal(cexp // 4) * 0.1).astype(np.float32)
        w2 = (RNG.standard_normal((cexp, cexp // 4, 1, 1)) * 0.3).astype(np.float32)
        b2 = (RNG.standard_normal(cexp) * 0.1).astype(np.float32)
        s = node("GlobalAveragePool", [y])
        s = node("Relu", [node("Conv", [s, const(w1), const(b1)])])
        s = node("HardSigmoid", [node("Conv", [s, const(w2), const(b2)])],
                 alpha=1 / 6, beta=0.5)
        y = node("Mul", [y, s])
        steps.append(("se", (w1, b1, w2, b2)))
    y = conv_bn(y, cexp, cout, 1)
    if stride == 1 and cin == cout:
        y = node("Add", [x, y])
        steps.append(("residual", None))
    return y


def build():
    y = hard_swish(conv_bn("x", 3, 16, 3, 2))
    y = block(y, 16, 64, 16, 3, 1, True)
    y = block(y, 16, 64, 24, 5, 2, True)
    y = block(y, 24, 72, 24, 3, 1, False)
    y = node("Flatten", [node("ReduceMean", [y], axes=[2, 3], keepdims=1)])
    w = (RNG.standard_normal((10, 24)) * 0.3).astype(np.float32)
    b = (RNG.standard_normal(10) * 0.1).astype(np.float32)
    steps.append(("head", (w, b)))
    return node("Gemm", [y, const(w), const(b)], transB=1)


def ref_conv(x, w, b, stride, group):
    cin, h, wd = x.shape
    cout, cg, k, _ = w.shape
    p = k // 2
    xp = np.pad(x, ((0, 0), (p, p), (p, p)))
    oh, ow = (h + 2 * p - k) // stride + 1, (wd + 2 * p - k) // stride + 1
    out = np.zeros((cout, oh, ow))
    og = cout // group
    for g in range(group):
        xs = xp[g * cg:(g + 1) * cg]
        for ky in range(k):
            for kx in range(k):
                win = xs[:, ky:ky + stride * oh:stride, kx:kx + stride * ow:stride]
                out[g * og:(g + 1) * og] += np.einsum(
                    "oc,chw->ohw", w[g * og:(g + 1) * og, :, ky, kx], win)
    return out + b[:, None, None]


def reference(x):
    x = x[0].astype(np.float64)
    y, block_in = x, []
    for kind, p in steps:
        if kind == "conv_bn":
            w, b, gamma, beta, mean, var, stride, group = [
                np.asarray(v, np.float64) if isinstance(v, np.ndarray) else v
                for v in p]
            y = ref_conv(y, w, b, stride, group)
            y = ((y - mean[:, None, None]) / np.sqrt(var[:, None, None] + 1e-5)
                 * gamma[:, None, None] + beta[:, None, None])
        elif kind == "hard_swish":
            y = y * np.clip(y / 6 + 0.5, 0, 1)
        elif kind == "block_begin":
            block_in.append(y)
        elif kind == "se":
            w1, b1, w2, b2 = [v.astype(np.float64) for v in p]
            s = y.mean(axis=(1, 2))
            s = np.maximum(w1[:, :, 0, 0] @ s + b1, 0)
            s = np.clip((w2[:, :, 0, 0] @ s + b2) / 6 + 0.5, 0, 1)
            y = y * s[:, None, None]
        elif kind == "residual":
            y = block_in[-1] + y
        elif kind == "head":
            w, b = [v.astype(np.float64) for v in p]
            y = (w @ y.mean(axis=(1, 2)) + b)[None]
    return y


def main():
    d = sys.argv[1]
    y = build()
    graph = helper.make_graph(
        nodes, "mobilenet_v3_like",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 32, 32])],
        [helper.make_tensor_value_info(y, TensorProto.FLOAT, [1, 10])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    x = RNG.standard_normal((1, 3, 32, 32)).astype(np.float32)
    model_files.save(d, model, [("x", x)], reference(x).astype(np.float32))


if __name__ == "__main__":
    main()
