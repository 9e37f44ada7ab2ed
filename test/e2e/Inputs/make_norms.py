#!/usr/bin/python3
"""LpNormalization (p = 2 on the channel axis and the last axis, p = 1) and
the sum-based reductions (ReduceL1, ReduceL2, ReduceSumSquare, ReduceLogSum,
ReduceLogSumExp of values up to 100, where a naive exp overflows, and of
infinities) as an opset-17 model; the input has a vector of zeros along each normalized axis
(ONNX Runtime's result: zeros). The results are flattened and concatenated;
the expected output is numpy's, in float64.

Usage: make_norms.py DIR
Writes DIR/model.onnx, DIR/test_data_set_0/{input_0,output_0}.pb and
DIR/{x,z,expected}.npy.
"""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

import model_files

x = np.random.default_rng(17).standard_normal((2, 3, 4)).astype(np.float32)
x[0, :, 1] = 0  # a zero vector along axis 1
x[1, 2, :] = 0  # and along the last axis
nodes, outs, expected = [], [], []
inits = [numpy_helper.from_array(np.array([1, -1], np.int64), "flat"),
         numpy_helper.from_array(np.float32(50), "fifty")]
# Rows of infinities for ReduceLogSumExp: all -inf gives -inf, a +inf +inf.
inf = np.float32(np.inf)
z = np.array([[-inf, -inf, -inf], [1, inf, 2], [-inf, 0, -inf]], np.float32)


def add(op, inputs, reference, **attrs):
    name = f"t{len(nodes)}"
    nodes.append(helper.make_node(op, inputs, [name], **attrs))
    flat = name + "_flat"
    nodes.append(helper.make_node("Reshape", [name, "flat"], [flat]))
    outs.append(flat)
    expected.append(np.asarray(reference).reshape(1, -1))
    return name


def lp(v, axis, p):
    norm = (np.abs(v) ** p).sum(axis, keepdims=True) ** (1.0 / p)
    return np.divide(v, norm, out=np.zeros_like(v), where=norm != 0)


xd = x.astype(np.float64)
add("LpNormalization", ["x"], lp(xd, 1, 2), axis=1, p=2)
add("LpNormalization", ["x"], lp(xd, -1, 2), axis=-1, p=2)
add("LpNormalization", ["x"], lp(xd, -1, 1), axis=-1, p=1)
add("ReduceL2", ["x"], np.sqrt((xd ** 2).sum(2)), axes=[2], keepdims=0)
add("ReduceL1", ["x"], np.abs(xd).sum(1, keepdims=True), axes=[1])
add("ReduceSumSquare", ["x"], (xd ** 2).sum((1, 2)), axes=[1, 2], keepdims=0)
nodes.append(helper.make_node("Exp", ["x"], ["ex"]))
add("ReduceLogSum", ["ex"], np.log(np.exp(xd).sum(0)), axes=[0], keepdims=0)
nodes.append(helper.make_node("Mul", ["x", "fifty"], ["big"]))
big = xd * 50
m = big.max(2, keepdims=True)
add("ReduceLogSumExp", ["big"], np.log(np.exp(big - m).sum(2, keepdims=True)) + m,
    axes=[2])
with np.errstate(invalid="ignore", divide="ignore"):
    add("ReduceLogSumExp", ["z"], [-np.inf, np.inf, 0.0], axes=[1], keepdims=0)
nodes.append(helper.make_node("Concat", outs, ["y"], axis=1))
y = np.concatenate(expected, axis=1).astype(np.float32)

graph = helper.make_graph(
    nodes, "norms",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape),
     helper.make_tensor_value_info("z", TensorProto.FLOAT, z.shape)],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, y.shape)], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model_files.save(sys.argv[1], model, [("x", x), ("z", z)], y)
