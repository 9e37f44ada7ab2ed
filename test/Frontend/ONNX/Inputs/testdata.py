"""Writes an ONNX model and one ONNX test directory for it (input_<i>.pb,
output_<i>.pb, each TensorProto named after its graph input or output, as
nnapi-run --test-data reads them)."""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def vi(name, shape, elem=TensorProto.FLOAT):
    """A graph input's or output's name and type."""
    return helper.make_tensor_value_info(name, elem, shape)


def const(name, array):
    """An initializer."""
    return numpy_helper.from_array(np.asarray(array), name)


def model(name, nodes, inputs, outputs, inits=(), check=True, opset=14):
    """A model of one graph at `opset`, checked unless it is meant to be bad."""
    g = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 7
    if check:
        onnx.checker.check_model(m)
    return m


def save(out, name, model, inputs, outputs, case="test_data_set_0"):
    onnx.save(model, os.path.join(out, name + ".onnx"))
    d = os.path.join(out, name, case)
    os.makedirs(d, exist_ok=True)
    for kind, tensors in (("input", inputs), ("output", outputs)):
        for i, (n, a) in enumerate(tensors):
            with open(os.path.join(d, "%s_%d.pb" % (kind, i)), "wb") as f:
                f.write(numpy_helper.from_array(a, n).SerializeToString())
