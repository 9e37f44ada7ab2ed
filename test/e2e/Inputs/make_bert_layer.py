#!/usr/bin/python3
"""A BERT encoder layer as an opset-17 ONNX model: 4-head self-attention
with an additive mask, residuals, LayerNormalization, and a feed-forward
block with the Erf form of GELU; the expected output is computed
independently with numpy in float64.

Usage: make_bert_layer.py DIR
Writes DIR/model.onnx and DIR/test_data_set_0/{input_0,input_1,output_0}.pb.
"""
import math
import sys

import numpy as np
from onnx import TensorProto, helper

import model_files

S, H, HEADS, FF = 16, 64, 4, 256
D = H // HEADS
RNG = np.random.default_rng(1)
builder = model_files.Graph()
inits, nodes = builder.inits, builder.nodes
params = {}


def const(value):
    return builder.const(value)


def weight(shape, scale):
    w = (RNG.standard_normal(shape) * scale).astype(np.float32)
    return const(w), w


node = builder.node


def linear(x, fin, fout):
    w, wv = weight((fin, fout), 1 / math.sqrt(fin))
    b, bv = weight((fout,), 0.1)
    return node("Add", [node("MatMul", [x, w]), b]), (wv, bv)


def layer_norm(x):
    g = RNG.uniform(0.5, 1.5, H).astype(np.float32)
    b, bv = weight((H,), 0.1)
    return node("LayerNormalization", [x, const(g), b], axis=-1,
                epsilon=1e-5), (g, bv)


def build():
    def heads(t, perm):
        shape = const(np.array([1, S, HEADS, D], dtype=np.int64))
        return node("Transpose", [node("Reshape", [t, shape])], perm=perm)
    q, pq = linear("x", H, H)
    k, pk = linear("x", H, H)
    v, pv = linear("x", H, H)
    q, k, v = heads(q, [0, 2, 1, 3]), heads(k, [0, 2, 3, 1]), heads(v, [0, 2, 1, 3])
    scores = node("Add", [node("Div", [node("MatMul", [q, k]),
                                       const(np.float32(math.sqrt(D)))]), "mask"])
    probs = node("Softmax", [scores], axis=-1)
    ctx = node("Transpose", [node("MatMul", [probs, v])], perm=[0, 2, 1, 3])
    ctx = node("Reshape", [ctx, const(np.array([1, S, H], dtype=np.int64))])
    o, po = linear(ctx, H, H)
    a, pln1 = layer_norm(node("Add", ["x", o]))
    f, pf1 = linear(a, H, FF)
    erf = node("Erf", [node("Div", [f, const(np.float32(math.sqrt(2)))])])
    g = node("Mul", [node("Mul", [f, const(np.float32(0.5))]),
                     node("Add", [const(np.float32(1.0)), erf])])
    f2, pf2 = linear(g, FF, H)
    y, pln2 = layer_norm(node("Add", [a, f2]))
    return y, (pq, pk, pv, po, pln1, pf1, pf2, pln2)


def reference(x, mask, p):
    (wq, bq), (wk, bk), (wv, bv), (wo, bo), ln1, (w1, b1), (w2, b2), ln2 = [
        tuple(a.astype(np.float64) for a in t) for t in p]

    def split(t):
        return t.reshape(S, HEADS, D).transpose(1, 0, 2)

    def norm(t, g, b):
        mu = t.mean(-1, keepdims=True)
        var = ((t - mu) ** 2).mean(-1, keepdims=True)
        return (t - mu) / np.sqrt(var + 1e-5) * g + b

    x = x[0].astype(np.float64)
    q, k, v = split(x @ wq + bq), split(x @ wk + bk), split(x @ wv + bv)
    s = q @ k.transpose(0, 2, 1) / math.sqrt(D) + mask[0].astype(np.float64)
    e = np.exp(s - s.max(-1, keepdims=True))
    ctx = (e / e.sum(-1, keepdims=True) @ v).transpose(1, 0, 2).reshape(S, H)
    a = norm(x + ctx @ wo + bo, *ln1)
    f = a @ w1 + b1
    gelu = 0.5 * f * (1 + np.vectorize(math.erf)(f / math.sqrt(2)))
    return norm(a + gelu @ w2 + b2, *ln2)[None]


def main():
    d = sys.argv[1]
    y, p = build()
    graph = helper.make_graph(
        nodes, "bert_layer",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, S, H]),
         helper.make_tensor_value_info("mask", TensorProto.FLOAT, [1, 1, S, S])],
        [helper.make_tensor_value_info(y, TensorProto.FLOAT, [1, S, H])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    x = RNG.standard_normal((1, S, H)).astype(np.float32)
    # The last four positions are padding: -10000 on their scores.
    valid = np.ones(S, np.float32)
    valid[12:] = 0
    mask = np.broadcast_to((1 - valid) * np.float32(-10000), (1, 1, S, S))
    mask = np.ascontiguousarray(mask, dtype=np.float32)
    model_files.save(d, model, [("x", x), ("mask", mask)],
                     reference(x, mask, p).astype(np.float32))


if __name__ == "__main__":
    main()
