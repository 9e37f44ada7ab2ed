#!/usr/bin/python3
"""A small U-Net as an opset-13 ONNX model: two encoder levels (3x3
convolutions, max pooling), a bottleneck, a decoder that upsamples once with
a strided ConvTranspose (kernel 4, stride 2, pads 1) and once with a linear
Resize (half-pixel), concatenating the encoder's skip connections, and a
side branch upsampled with a nearest Resize. The expected output is
computed independently with numpy in float64.

Usage: make_unet.py DIR
Writes DIR/model.onnx, DIR/test_data_set_0/{input_0,output_0}.pb and
DIR/{x,expected}.npy.
"""
import sys

import numpy as np
from onnx import TensorProto, helper

import model_files

SIZE, CLASSES = 32, 3
RNG = np.random.default_rng(7)
builder = model_files.Graph()
inits, nodes = builder.inits, builder.nodes
params = []


def const(value):
    return builder.const(value)


node = builder.node


def conv(x, cin, cout, k=3, relu=True):
    w = (RNG.standard_normal((cout, cin, k, k)) *
         np.sqrt(2.0 / (cin * k * k))).astype(np.float32)
    b = (RNG.standard_normal(cout) * 0.1).astype(np.float32)
    params.append((w, b))
    y = node("Conv", [x, const(w), const(b)], pads=[k // 2] * 4)
    return node("Relu", [y]) if relu else y


def up_conv(x, cin, cout):
    # ONNX ConvTranspose weights are [in, out, kh, kw].
    w = (RNG.standard_normal((cin, cout, 4, 4)) *
         np.sqrt(1.0 / (cin * 4))).astype(np.float32)
    b = (RNG.standard_normal(cout) * 0.1).astype(np.float32)
    params.append((w, b))
    return node("ConvTranspose", [x, const(w), const(b)], strides=[2, 2],
                pads=[1, 1, 1, 1], kernel_shape=[4, 4])


def resize(x, mode):
    scales = const(np.array([1, 1, 2, 2], np.float32))
    return node("Resize", [x, "", scales], mode=mode)


def build():
    e1 = conv(conv("x", 3, 8), 8, 8)                       # 32x32
    e2 = conv(node("MaxPool", [e1], kernel_shape=[2, 2], strides=[2, 2]),
              8, 16)                                         # 16x16
    mid = conv(node("MaxPool", [e2], kernel_shape=[2, 2], strides=[2, 2]),
               16, 32)                                       # 8x8
    d2 = conv(node("Concat", [up_conv(mid, 32, 16), e2], axis=1), 32, 16)
    d1 = conv(node("Concat", [resize(d2, "linear"), e1], axis=1), 24, 8)
    side = conv(resize(d2, "nearest"), 16, 8, k=1, relu=False)
    return conv(node("Add", [d1, side]), 8, CLASSES, k=1, relu=False)


# numpy float64 reference, NCHW.
def ref_conv(x, w, b):
    k = w.shape[2]
    p = k // 2
    xp = np.pad(x, ((0, 0), (p, p), (p, p)))
    h, wd = x.shape[1:]
    out = np.zeros((w.shape[0], h, wd))
    for ky in range(k):
        for kx in range(k):
            out += np.einsum("oc,chw->ohw", w[:, :, ky, kx],
                             xp[:, ky:ky + h, kx:kx + wd])
    return out + b[:, None, None]


def ref_up_conv(x, w, b):
    # Full output (in - 1) * 2 + 4, then pads 1 cropped from every side.
    c, h, wd = x.shape
    full = np.zeros((w.shape[1], 2 * h + 2, 2 * wd + 2))
    for ky in range(4):
        for kx in range(4):
            full[:, ky:ky + 2 * h:2, kx:kx + 2 * wd:2] += np.einsum(
                "co,chw->ohw", w[:, :, ky, kx], x)
    return full[:, 1:-1, 1:-1] + b[:, None, None]


def ref_pool(x):
    c, h, w = x.shape
    return x.reshape(c, h // 2, 2, w // 2, 2).max(axis=(2, 4))


def ref_resize(x, mode):
    n = x.shape[1]
    # half_pixel: output o samples input (o + 0.5) / 2 - 0.5.
    src = (np.arange(2 * n) + 0.5) / 2 - 0.5
    if mode == "nearest":  # round_prefer_floor
        i = np.clip(np.ceil(src - 0.5).astype(int), 0, n - 1)
        return x[:, i][:, :, i]
    src = np.clip(src, 0, n - 1)
    lo = np.floor(src).astype(int)
    hi = np.minimum(lo + 1, n - 1)
    f = src - lo
    rows = x[:, lo] * (1 - f)[None, :, None] + x[:, hi] * f[None, :, None]
    return rows[:, :, lo] * (1 - f) + rows[:, :, hi] * f


def reference(x):
    p = iter([tuple(a.astype(np.float64) for a in t) for t in params])
    relu = lambda t: np.maximum(t, 0)
    x = x[0].astype(np.float64)
    e1 = relu(ref_conv(relu(ref_conv(x, *next(p))), *next(p)))
    e2 = relu(ref_conv(ref_pool(e1), *next(p)))
    mid = relu(ref_conv(ref_pool(e2), *next(p)))
    up = ref_up_conv(mid, *next(p))
    d2 = relu(ref_conv(np.concatenate([up, e2]), *next(p)))
    d1 = relu(ref_conv(np.concatenate([ref_resize(d2, "linear"), e1]),
                       *next(p)))
    side = ref_conv(ref_resize(d2, "nearest"), *next(p))
    return ref_conv(d1 + side, *next(p))[None]


def main():
    d = sys.argv[1]
    y = build()
    graph = helper.make_graph(
        nodes, "unet",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       [1, 3, SIZE, SIZE])],
        [helper.make_tensor_value_info(y, TensorProto.FLOAT,
                                       [1, CLASSES, SIZE, SIZE])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    x = RNG.standard_normal((1, 3, SIZE, SIZE)).astype(np.float32)
    model_files.save(d, model, [("x", x)], reference(x).astype(np.float32))


if __name__ == "__main__":
    main()
