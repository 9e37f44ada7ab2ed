"""Writes a generated ONNX model and its test data the way the e2e tests
read them: DIR/model.onnx, DIR/test_data_set_0/{input_k,output_0}.pb (ONNX's
test-data layout, for nnapi-run --test-data and ONNX Runtime) and
DIR/<input name>.npy, DIR/expected.npy (for nnapi-run --input)."""
import os

import numpy as np
import onnx
from onnx import numpy_helper


def save(d, model, inputs, expected):
    """`inputs`: (npy name, array) pairs in the model's input order."""
    onnx.checker.check_model(model)
    data = os.path.join(d, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    onnx.save(model, os.path.join(d, "model.onnx"))
    tensors = [(f"input_{k}", v) for k, (_, v) in enumerate(inputs)]
    for name, value in tensors + [("output_0", expected)]:
        with open(os.path.join(data, name + ".pb"), "wb") as f:
            f.write(numpy_helper.from_array(value).SerializeToString())
    for name, value in inputs:
        np.save(os.path.join(d, name + ".npy"), value)
    np.save(os.path.join(d, "expected.npy"), expected)
