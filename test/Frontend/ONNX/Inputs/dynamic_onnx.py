#!/usr/bin/python3
"""dynamic_onnx.py DIR [nnapi-compile flags...]

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
    failed = False
    for name, nodes, inits, f, dims in MODELS:
        path, spec = make(d, name, nodes, inits, dims)
        so = os.path.join(d, name + ".so")
        subprocess.run(["nnapi-compile", path, "-o", so,
                        "--input-shape=x=" + spec] + flags, check=True)
        sizes = (1, 5, 33)
        for size in sizes:
            shape = [size if t == "s" else int(t) for t in dims.split(" x ")]
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
