#!/usr/bin/python3
"""dynamic_onnx.py DIR [--bucket-middle] [nnapi-compile flags...]

ONNX models with a symbolic dimension, one per operator whose import keeps
dynamic dimensions (OpRegistry.cpp, handlesDynamicShapes) plus a small
encoder-like block: each is compiled once with the symbol kept dynamic
(--input-shape x=?x...) by nnapi-compile (PATH), run with nnapi-run at
several sizes, and compared with numpy. Prints '<name> <sizes>: OK' or
'<name> <size>: MISMATCH ...'; exits 1 if any failed.
"""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(0)
W = RNG.uniform(-0.5, 0.5, (16, 8)).astype(np.float32)
B = RNG.uniform(-0.5, 0.5, (8,)).astype(np.float32)


def softmax(y, axis=-1):
    e = np.exp(y - y.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def unary(op, f):
    return (op, [helper.make_node(op, ["x"], ["y"])], [], f, "s x 16")


def binary(op, f):
    c = RNG.uniform(0.5, 1.5, (16,)).astype(np.float32)
    return (op, [helper.make_node(op, ["x", "c"], ["y"])],
            [numpy_helper.from_array(c, "c")], lambda x: f(x, c), "s x 16")


MODELS = [
    unary("Abs", np.abs), unary("Exp", np.exp), unary("Identity", lambda x: x),
    unary("Neg", np.negative), unary("Relu", lambda x: np.maximum(x, 0)),
    unary("Sigmoid", lambda x: 1 / (1 + np.exp(-x))), unary("Tanh", np.tanh),
    ("Log", [helper.make_node("Abs", ["x"], ["a"]),
             helper.make_node("Log", ["a"], ["y"])], [],
     lambda x: np.log(np.abs(x)), "s x 16"),
    ("Sqrt", [helper.make_node("Abs", ["x"], ["a"]),
              helper.make_node("Sqrt", ["a"], ["y"])], [],
     lambda x: np.sqrt(np.abs(x)), "s x 16"),
    binary("Add", np.add), binary("Sub", np.subtract),
    binary("Mul", np.multiply), binary("Div", np.divide),
    binary("Max", np.maximum), binary("Min", np.minimum),
    ("Softmax", [helper.make_node("Softmax", ["x"], ["y"], axis=-1)], [],
     softmax, "s x 16"),
    ("Transpose", [helper.make_node("Transpose", ["x"], ["y"], perm=[1, 0])],
     [], lambda x: x.T, "s x 16"),
    ("MatMul", [helper.make_node("MatMul", ["x", "w"], ["y"])],
     [numpy_helper.from_array(W, "w")], lambda x: x @ W, "s x 16"),
    # Batch dimensions folded into the (dynamic) rows.
    ("MatMul_batched", [helper.make_node("MatMul", ["x", "w"], ["y"])],
     [numpy_helper.from_array(W, "w")], lambda x: x @ W, "1 x 2 x s x 16"),
    # Global pools over a [1, 4, S, S] map: the average divides by the size
    # of the call.
    ("GlobalAveragePool",
     [helper.make_node("GlobalAveragePool", ["x"], ["y"])], [],
     lambda x: x.mean(axis=(2, 3), keepdims=True), "1 x 4 x s x s"),
    ("GlobalMaxPool", [helper.make_node("GlobalMaxPool", ["x"], ["y"])], [],
     lambda x: x.max(axis=(2, 3), keepdims=True), "1 x 4 x s x s"),
    # An encoder-like block over a [1, S, 16] sequence: projection, bias,
    # attention scores S x S, softmax over keys, weighted sum, ReLU.
    ("encoder_block",
     [helper.make_node("MatMul", ["x", "w"], ["p"]),
      helper.make_node("Add", ["p", "b"], ["q"]),
      helper.make_node("Transpose", ["q"], ["k"], perm=[0, 2, 1]),
      helper.make_node("MatMul", ["q", "k"], ["s"]),
      helper.make_node("Softmax", ["s"], ["a"], axis=-1),
      helper.make_node("MatMul", ["a", "q"], ["o"]),
      helper.make_node("Relu", ["o"], ["y"])],
     [numpy_helper.from_array(W, "w"), numpy_helper.from_array(B, "b")],
     lambda x: np.maximum(softmax((x @ W + B) @ (x @ W + B).transpose(0, 2, 1))
                          @ (x @ W + B), 0),
     "1 x s x 16"),
]


def conv_reference(x, w, b, stride, pad):
    """NCHW convolution (numpy, float64)."""
    n, c, h, wd = x.shape
    oc, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (wd + 2 * pad - kw) // stride + 1
    y = np.zeros((n, oc, oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = xp[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
            y[:, :, i, j] = np.tensordot(patch, w, axes=([1, 2, 3], [1, 2, 3]))
    return y + b[None, :, None, None]


def maxpool_reference(x, k, stride):
    n, c, h, wd = x.shape
    oh, ow = (h - k) // stride + 1, (wd - k) // stride + 1
    y = np.full((n, c, oh, ow), -np.inf)
    for i in range(oh):
        for j in range(ow):
            y[:, :, i, j] = x[:, :, i * stride:i * stride + k,
                              j * stride:j * stride + k].max(axis=(2, 3))
    return y


CW = RNG.uniform(-0.5, 0.5, (6, 3, 3, 3)).astype(np.float32)
CB = RNG.uniform(-0.5, 0.5, (6,)).astype(np.float32)
DW = RNG.uniform(-0.5, 0.5, (6, 1, 3, 3)).astype(np.float32)
BN = [RNG.uniform(0.5, 1.5, (6,)).astype(np.float32) for _ in range(4)]


def depthwise_reference(x, w, stride, pad):
    return np.concatenate([conv_reference(x[:, i:i + 1], w[i:i + 1],
                                          np.zeros(1), stride, pad)
                           for i in range(x.shape[1])], axis=1)


def cnn_reference(x):
    y = conv_reference(x, CW, CB, 2, 1)
    scale, bias, mean, var = BN
    y = (y - mean[None, :, None, None]) / np.sqrt(
        var[None, :, None, None] + 1e-5) * scale[None, :, None, None] \
        + bias[None, :, None, None]
    y = np.clip(y, 0, 6)
    y = depthwise_reference(y, DW, 1, 1)
    return maxpool_reference(y, 2, 2)


# A small CNN over images of any height and width: a strided 3x3
# convolution with explicit pads, batch norm, ReLU6 (Clip), a depthwise 3x3
# convolution and a 2x2 max pool.
CNN = ("cnn",
       [helper.make_node("Conv", ["x", "cw", "cb"], ["c1"], pads=[1, 1, 1, 1],
                         strides=[2, 2], kernel_shape=[3, 3]),
        helper.make_node("BatchNormalization", ["c1", "s", "bb", "m", "v"],
                         ["bn"], epsilon=1e-5),
        helper.make_node("Clip", ["bn", "lo", "hi"], ["r"]),
        helper.make_node("Conv", ["r", "dw"], ["c2"], pads=[1, 1, 1, 1],
                         group=6, kernel_shape=[3, 3]),
        helper.make_node("MaxPool", ["c2"], ["y"], kernel_shape=[2, 2],
                         strides=[2, 2])],
       [numpy_helper.from_array(CW, "cw"), numpy_helper.from_array(CB, "cb"),
        numpy_helper.from_array(DW, "dw")] +
       [numpy_helper.from_array(t, n) for t, n in zip(BN, ["s", "bb", "m", "v"])] +
       [numpy_helper.from_array(np.array(0, np.float32), "lo"),
        numpy_helper.from_array(np.array(6, np.float32), "hi")],
       cnn_reference, "1 x 3 x s x s")


def make(d, name, nodes, inits, dims):
    shape = [("seq" if t == "s" else int(t)) for t in dims.split(" x ")]
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    path = os.path.join(d, name + ".onnx")
    onnx.save(model, path)
    return path, "x".join("?" if t == "s" else t for t in dims.split(" x "))


def main():
    d, flags = sys.argv[1], sys.argv[2:]
    # --bucket-middle (ours, not nnapi-compile's): each library is compiled
    # with its middle test size as --shape-buckets, so that size runs the
    # model's static copy and the others its dynamic code.
    bucket = "--bucket-middle" in flags
    flags = [f for f in flags if f != "--bucket-middle"]
    np.save(os.path.join(d, "w.npy"), W)  # for test data made elsewhere
    failed = False
    for name, nodes, inits, f, dims in MODELS + [CNN]:
        path, spec = make(d, name, nodes, inits, dims)
        so = os.path.join(d, name + ".so")
        sizes = (1, 5, 33) if name != "cnn" else (4, 9, 33)

        def shape_at(size):
            return [size if t == "s" else int(t) for t in dims.split(" x ")]
        extra = (["--shape-buckets=" + "x".join(map(str, shape_at(sizes[1])))]
                 if bucket else [])
        subprocess.run(["nnapi-compile", path, "-o", so,
                        "--input-shape=x=" + spec] + flags + extra,
                       check=True)
        for size in sizes:
            shape = shape_at(size)
            x = RNG.uniform(-1, 1, shape).astype(np.float32)
            xp = os.path.join(d, f"{name}_{size}.npy")
            np.save(xp, x)
            out = os.path.join(d, f"out_{name}_{size}")
            subprocess.run(["nnapi-run", so, "--input", xp, "--output-dir",
                            out], check=True, stdout=subprocess.DEVNULL)
            got = np.load(os.path.join(out, "output0.npy"))
            want = f(x.astype(np.float64))
            if got.shape != want.shape or not np.allclose(
                    got, want, rtol=1e-4, atol=1e-5):
                print(f"{name} {size}: MISMATCH {got.shape} {want.shape}")
                failed = True
                break
        else:
            print(f"{name} {' '.join(map(str, sizes))}: OK")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
