#!/usr/bin/python3
"""A transformer's embedding block as an opset-17 model: int64 token ids
(one negative: ONNX counts it from the end) pick rows of a token table
(Gather with indices given at run time), position rows come from a Gather
with constant indices, their sum goes through LayerNormalization. The
expected output is numpy's indexing and normalization in float64.

Usage: make_embedding.py DIR
Writes DIR/model.onnx, DIR/test_data_set_0/{input_0,output_0}.pb and
DIR/{ids,expected}.npy; DIR/{ids,expected}_oob.npy for ids out of range.
"""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

import model_files

rng = np.random.default_rng(5)
VOCAB, SEQ, HIDDEN = 32, 8, 16
tokens = rng.standard_normal((VOCAB, HIDDEN)).astype(np.float32)
positions = rng.standard_normal((SEQ, HIDDEN)).astype(np.float32)
gamma = rng.uniform(0.5, 1.5, HIDDEN).astype(np.float32)
beta = rng.standard_normal(HIDDEN).astype(np.float32)
ids = np.array([[1, 31, 7, 7, 0, -1, 12, 30]], dtype=np.int64)

inits = [numpy_helper.from_array(tokens, "tokens"),
         numpy_helper.from_array(positions, "positions"),
         numpy_helper.from_array(np.arange(SEQ, dtype=np.int64), "pos_ids"),
         numpy_helper.from_array(gamma, "gamma"),
         numpy_helper.from_array(beta, "beta")]
nodes = [
    helper.make_node("Gather", ["tokens", "ids"], ["tok"], axis=0),
    helper.make_node("Gather", ["positions", "pos_ids"], ["pos"], axis=0),
    helper.make_node("Add", ["tok", "pos"], ["sum"]),
    helper.make_node("LayerNormalization", ["sum", "gamma", "beta"], ["y"],
                     axis=-1, epsilon=1e-5),
]



def reference(rows):
    summed = (tokens.astype(np.float64)[rows] +
              positions.astype(np.float64))[None]
    mean = summed.mean(-1, keepdims=True)
    var = ((summed - mean) ** 2).mean(-1, keepdims=True)
    return ((summed - mean) / np.sqrt(var + 1e-5) * gamma + beta).astype(
        np.float32)


expected = reference(ids[0] % VOCAB)
# Ids outside [-VOCAB, VOCAB) are an error to ONNX; compiled code clamps
# them to the first and last row (design.md) rather than read outside the
# table.
oob = np.array([[VOCAB, -VOCAB - 5, 1 << 40, 3, 3, 3, 3, 3]], dtype=np.int64)
np.save(f"{sys.argv[1]}/ids_oob.npy", oob)
np.save(f"{sys.argv[1]}/expected_oob.npy",
        reference(np.clip(np.where(oob[0] < 0, oob[0] + VOCAB, oob[0]), 0,
                          VOCAB - 1)))

graph = helper.make_graph(
    nodes, "embedding",
    [helper.make_tensor_value_info("ids", TensorProto.INT64, ids.shape)],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, expected.shape)],
    inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model_files.save(sys.argv[1], model, [("ids", ids)], expected)
