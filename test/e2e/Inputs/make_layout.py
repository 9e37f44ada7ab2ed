#!/usr/bin/python3
"""An NCHW opset-13 ONNX model made of the places where a layout change
used to stay in the graph: a residual add of the graph input, a
squeeze-excite gate (GlobalAveragePool, Flatten, Gemm, Sigmoid, Reshape to
[1, C, 1, 1], Mul), a concat of a convolution with the graph input (a U-Net
skip), a mean over the spatial axes subtracted back (reduction axes), and a
feature map flattened to [1, C, H*W] and transposed for a MatMul (a patch
embedding). Two outputs: the NCHW feature map and the embedding. The
expected outputs are computed independently with numpy in float64.

Usage: make_layout.py DIR
Writes DIR/model.onnx, DIR/test_data_set_0/{input_0,output_0,output_1}.pb
and DIR/{x,expected_0,expected_1}.npy.
"""
import sys

import numpy as np
from onnx import TensorProto, helper

import model_files

C, S, OUT, EMBED = 8, 8, 4, 6
RNG = np.random.default_rng(11)
builder = model_files.Graph()
node = builder.node


def const(value):
    return builder.const(value, np.float32)


def weights(*shape, scale=0.3):
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


W3, B3 = weights(C, C, 3, 3), weights(C)
G1, GB1 = weights(C // 2, C), weights(C // 2)
G2, GB2 = weights(C, C // 2), weights(C)
W1, B1 = weights(C, C, 1, 1), weights(C)
WO, BO = weights(OUT, 2 * C, 1, 1), weights(OUT)
WE = weights(OUT, EMBED)


def build():
    r = node("Relu", [node("Conv", ["x", const(W3), const(B3)], pads=[1] * 4)])
    s = node("Add", [r, "x"])
    g = node("Flatten", [node("GlobalAveragePool", [s])])
    g = node("Relu", [node("Gemm", [g, const(G1), const(GB1)], transB=1)])
    g = node("Sigmoid", [node("Gemm", [g, const(G2), const(GB2)], transB=1)])
    g = node("Reshape", [g, builder.const(np.array([1, C, 1, 1]), np.int64)])
    e = node("Mul", [s, g])
    c = node("Concat", [node("Conv", [e, const(W1), const(B1)]), "x"], axis=1)
    d = node("Sub", [c, node("ReduceMean", [c], axes=[2, 3], keepdims=1)])
    out = node("Conv", [d, const(WO), const(BO)])
    p = node("Reshape", [out, builder.const(np.array([1, OUT, S * S]),
                                            np.int64)])
    emb = node("MatMul", [node("Transpose", [p], perm=[0, 2, 1]), const(WE)])
    return out, emb


def conv(x, w, b):
    k = w.shape[2]
    p = k // 2
    xp = np.pad(x, ((0, 0), (p, p), (p, p)))
    out = np.zeros((w.shape[0],) + x.shape[1:])
    for ky in range(k):
        for kx in range(k):
            out += np.einsum("oc,chw->ohw", w[:, :, ky, kx],
                             xp[:, ky:ky + S, kx:kx + S])
    return out + b[:, None, None]


def reference(x):
    f = lambda a: a.astype(np.float64)
    x = f(x[0])
    s = np.maximum(conv(x, f(W3), f(B3)), 0) + x
    g = np.maximum(f(G1) @ s.mean(axis=(1, 2)) + f(GB1), 0)
    g = 1 / (1 + np.exp(-(f(G2) @ g + f(GB2))))
    e = s * g[:, None, None]
    c = np.concatenate([conv(e, f(W1), f(B1)), x])
    d = c - c.mean(axis=(1, 2), keepdims=True)
    out = conv(d, f(WO), f(BO))
    emb = out.reshape(OUT, S * S).T @ f(WE)
    return out[None], emb[None]


def main():
    d = sys.argv[1]
    out, emb = build()
    graph = helper.make_graph(
        builder.nodes, "layout",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, C, S, S])],
        [helper.make_tensor_value_info(out, TensorProto.FLOAT, [1, OUT, S, S]),
         helper.make_tensor_value_info(emb, TensorProto.FLOAT,
                                       [1, S * S, EMBED])], builder.inits)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    x = RNG.standard_normal((1, C, S, S)).astype(np.float32)
    model_files.save(d, model, [("x", x)],
                     [a.astype(np.float32) for a in reference(x)])


if __name__ == "__main__":
    main()
