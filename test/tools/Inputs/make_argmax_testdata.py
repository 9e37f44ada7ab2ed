"""An ONNX ArgMax over 1001 floats (int64 output 1000), with two test
directories: right/ (expected 1000) and off_by_one/ (expected 1001, within
a float tolerance of rtol 1e-3 but not equal)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
graph = helper.make_graph(
    [helper.make_node("ArgMax", ["x"], ["y"], axis=1, keepdims=0)], "argmax",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1001])],
    [helper.make_tensor_value_info("y", TensorProto.INT64, [1])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 7
onnx.save(model, os.path.join(out, "argmax.onnx"))
x = np.linspace(0, 1, 1001, dtype=np.float32).reshape(1, 1001)
for name, expected in [("right", 1000), ("off_by_one", 1001)]:
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "x").SerializeToString())
    with open(os.path.join(d, "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(np.array([expected], np.int64),
                                        "y").SerializeToString())
