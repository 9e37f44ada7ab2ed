"""Writes a generated ONNX model and its test data the way the e2e tests
read them: DIR/model.onnx, DIR/test_data_set_0/{input_k,output_0}.pb (ONNX's
test-data layout, for nnapi-run --test-data and ONNX Runtime) and
DIR/<input name>.npy, DIR/expected.npy (for nnapi-run --input). Graph
builds the nodes and constants. save_case writes one of many models in a
directory as check_models.py reads them."""
import json
import os

import numpy as np
import onnx
from onnx import helper, numpy_helper


class Graph:
    """The nodes and initializers of a generated model, named in order:
    constants c0, c1, ..., node outputs t0, t1, ..."""

    def __init__(self):
        self.inits, self.nodes = [], []

    def const(self, value, dtype=None):
        name = f"c{len(self.inits)}"
        self.inits.append(numpy_helper.from_array(np.asarray(value, dtype),
                                                  name))
        return name

    def node(self, op, inputs, **attrs):
        out = f"t{len(self.nodes)}"
        self.nodes.append(helper.make_node(op, inputs, [out], **attrs))
        return out


def save(d, model, inputs, expected):
    """`inputs`: (npy name, array) pairs in the model's input order;
    `expected`: the output, or a list of the outputs (then written as
    output_k.pb and expected_k.npy)."""
    onnx.checker.check_model(model)
    data = os.path.join(d, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    onnx.save(model, os.path.join(d, "model.onnx"))
    outputs = expected if isinstance(expected, list) else [expected]
    tensors = [(f"input_{k}", v) for k, (_, v) in enumerate(inputs)]
    tensors += [(f"output_{k}", v) for k, v in enumerate(outputs)]
    for name, value in tensors:
        with open(os.path.join(data, name + ".pb"), "wb") as f:
            f.write(numpy_helper.from_array(value).SerializeToString())
    for name, value in inputs:
        np.save(os.path.join(d, name + ".npy"), value)
    if isinstance(expected, list):
        for k, value in enumerate(expected):
            np.save(os.path.join(d, f"expected_{k}.npy"), value)
    else:
        np.save(os.path.join(d, "expected.npy"), expected)


def save_case(d, name, inputs, expected, text=None, tolerance=None):
    """Model `name` of DIR as check_models.py reads it: DIR/<name>.mlir
    (`text`, when given; an ONNX model is saved by the caller),
    DIR/<name>_input<k>.npy, DIR/<name>_expected.npy and, when given,
    DIR/<name>_tolerance.json ({"rtol": ..., "atol": ...})."""
    if text is not None:
        with open(os.path.join(d, name + ".mlir"), "w") as f:
            f.write(text)
    for k, value in enumerate(inputs):
        np.save(os.path.join(d, f"{name}_input{k}.npy"), value)
    np.save(os.path.join(d, f"{name}_expected.npy"), expected)
    if tolerance is not None:
        with open(os.path.join(d, name + "_tolerance.json"), "w") as f:
            json.dump(tolerance, f)
