#!/usr/bin/python3
"""Pad in reflect and edge mode with constant pads (ONNX's own node tests feed
the pads at run time, which the importer cannot compile), with expected
outputs from numpy.pad, as ONNX test directories.

Usage: make_pad_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main():
    out = sys.argv[1]
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 3, 4, 5)).astype(np.float32)
    pads = [0, 1, 2, 3, 0, 2, 1, 0]  # begins then ends, per axis
    for mode in ("reflect", "edge"):
        np_pads = [(pads[i], pads[i + 4]) for i in range(4)]
        y = np.pad(x, np_pads, mode=mode)
        g = helper.make_graph(
            [helper.make_node("Pad", ["x", "pads"], ["y"], name="pad", mode=mode)],
            "pad_" + mode,
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(y.shape))],
            [helper.make_tensor("pads", TensorProto.INT64, [8], pads)])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
        m.ir_version = 7
        d = os.path.join(out, mode)
        os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
        onnx.save(m, os.path.join(d, "model.onnx"))
        with open(os.path.join(d, "test_data_set_0", "input_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(x, "x").SerializeToString())
        with open(os.path.join(d, "test_data_set_0", "output_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(y, "y").SerializeToString())


if __name__ == "__main__":
    main()
