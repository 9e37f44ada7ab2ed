#!/usr/bin/python3
"""Stepped ONNX Slices as an opset-13 model: YOLOv5's Focus (four slices
with step 2 on height and width, concatenated on the channels), negative
steps on two axes, and a step of 4 whose last row is incomplete; the three
results flattened and concatenated. The expected output is numpy's slicing
of the same input.

Usage: make_strided_slices.py DIR
Writes DIR/model.onnx, DIR/test_data_set_0/{input_0,output_0}.pb and
DIR/{x,expected}.npy.
"""
import sys

import numpy as np
from onnx import TensorProto, helper

import model_files

x = np.random.default_rng(11).standard_normal((1, 3, 8, 10)).astype(np.float32)
builder = model_files.Graph()
inits, nodes = builder.inits, builder.nodes


def const(values):
    return builder.const(values, np.int64)


node = builder.node


def stepped(starts, ends, axes, steps):
    return node("Slice", ["x", const(starts), const(ends), const(axes),
                          const(steps)])


focus = node("Concat", [stepped([0, 0], [8, 10], [2, 3], [2, 2]),
                        stepped([1, 0], [8, 10], [2, 3], [2, 2]),
                        stepped([0, 1], [8, 10], [2, 3], [2, 2]),
                        stepped([1, 1], [8, 10], [2, 3], [2, 2])], axis=1)
backwards = stepped([7, 9], [-100, -100], [2, 3], [-2, -3])
sparse = stepped([1], [10], [3], [4])
flat = [node("Reshape", [v, const([1, -1])]) for v in (focus, backwards, sparse)]
nodes.append(helper.make_node("Concat", flat, ["y"], axis=1))

expected = np.concatenate([
    np.concatenate([x[:, :, 0::2, 0::2], x[:, :, 1::2, 0::2],
                    x[:, :, 0::2, 1::2], x[:, :, 1::2, 1::2]],
                   axis=1).reshape(1, -1),
    x[:, :, 7::-2, 9::-3].reshape(1, -1),
    x[:, :, :, 1:10:4].reshape(1, -1)], axis=1)
graph = helper.make_graph(
    nodes, "strided_slices",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, expected.shape)],
    inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model_files.save(sys.argv[1], model, [("x", x)], expected)
