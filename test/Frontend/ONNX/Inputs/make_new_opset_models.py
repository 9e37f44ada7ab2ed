#!/usr/bin/python3
"""Models at opsets 18 to 21 (newer than Debian's libonnx knows) using the
operators whose inputs, attributes or meaning changed there, each with a
test directory whose expected outputs numpy computes (independently of the
compiler). Built with onnx.helper, no checker (libonnx 1.12 would refuse).

Usage: make_new_opset_models.py OUT_DIR
"""
import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from testdata import save

rng = np.random.default_rng(18)


def f(name, shape, elem=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def model(name, nodes, inputs, outputs, opset, ir, initializers=()):
    graph = helper.make_graph(nodes, name, inputs, outputs,
                              initializer=list(initializers))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = ir
    return m


def ints(name, values):
    return numpy_helper.from_array(np.array(values, np.int64), name)


def floats(name, values):
    return numpy_helper.from_array(np.array(values, np.float32), name)


def erf(x):
    return np.vectorize(math.erf)(x.astype(np.float64)).astype(np.float32)


def group_norm(x, groups, scale, bias, eps, per_channel):
    n, c = x.shape[:2]
    g = x.reshape(n, groups, -1).astype(np.float64)
    mean = g.mean(axis=2, keepdims=True)
    var = ((g - mean) ** 2).mean(axis=2, keepdims=True)
    y = (g - mean) / np.sqrt(var + eps)
    if per_channel:
        y = y.reshape(n, c, -1) * scale[:, None] + bias[:, None]
    else:
        y = y * scale[:, None] + bias[:, None]
    return y.reshape(x.shape).astype(np.float32)


def nearest_half_pixel(x, out_hw, scale_hw):
    """Resize's nearest mode, half_pixel coordinates, round_prefer_floor."""
    def index(out, scale, size):
        v = (np.arange(out) + 0.5) / scale - 0.5
        fl = np.floor(v)
        r = np.where(v - fl > 0.5, fl + 1, fl)
        return np.clip(r, 0, size - 1).astype(int)
    h = index(out_hw[0], scale_hw[0], x.shape[2])
    w = index(out_hw[1], scale_hw[1], x.shape[3])
    return x[:, :, h][:, :, :, w]


def main():
    out = sys.argv[1]
    x = rng.standard_normal((2, 4, 6, 5)).astype(np.float32)

    # Opset 18: Reduce* axes as an input; noop_with_empty_axes.
    nodes = [
        helper.make_node("ReduceMean", ["x", "axes1"], ["mean"], keepdims=1),
        helper.make_node("ReduceMax", ["x", "axes23"], ["max"], keepdims=0),
        helper.make_node("ReduceSumSquare", ["x"], ["all"], keepdims=0),
        helper.make_node("ReduceMin", ["x"], ["same"], noop_with_empty_axes=1),
    ]
    m = model("reduce18", nodes, [f("x", [2, 4, 6, 5])],
              [f("mean", [2, 1, 6, 5]), f("max", [2, 4]), f("all", []),
               f("same", [2, 4, 6, 5])], 18, 8,
              [ints("axes1", [1]), ints("axes23", [2, 3])])
    save(out, "reduce18", m, [("x", x)],
         [("mean", x.mean(axis=1, keepdims=True)), ("max", x.max(axis=(2, 3))),
          ("all", np.array((x.astype(np.float64) ** 2).sum(), np.float32)),
          ("same", x)])

    # Opset 18: Split's num_outputs, dividing the dimension (4 / 2) and not
    # (6 / 4 = parts of 2, 2, 2, 0 is not allowed; 5 / 3 = 2, 2, 1).
    nodes = [
        helper.make_node("Split", ["x"], ["a", "b"], axis=1, num_outputs=2),
        helper.make_node("Split", ["x"], ["c", "d", "e"], axis=-1, num_outputs=3),
    ]
    m = model("split18", nodes, [f("x", [2, 4, 6, 5])],
              [f("a", [2, 2, 6, 5]), f("b", [2, 2, 6, 5]), f("c", [2, 4, 6, 2]),
               f("d", [2, 4, 6, 2]), f("e", [2, 4, 6, 1])], 18, 8)
    save(out, "split18", m, [("x", x)],
         [("a", x[:, :2]), ("b", x[:, 2:]), ("c", x[..., :2]),
          ("d", x[..., 2:4]), ("e", x[..., 4:])])

    # Opset 18: Pad's axes input (pads for H and W only), reflect and
    # constant with a value.
    nodes = [
        helper.make_node("Pad", ["x", "pads", "", "axes"], ["r"], mode="reflect"),
        helper.make_node("Pad", ["x", "pads", "value", "axes"], ["c"]),
    ]
    m = model("pad18", nodes, [f("x", [2, 4, 6, 5])],
              [f("r", [2, 4, 9, 7]), f("c", [2, 4, 9, 7])], 18, 8,
              [ints("pads", [1, 2, 2, 0]), ints("axes", [2, -1]),
               floats("value", 1.5)])
    width = ((0, 0), (0, 0), (1, 2), (2, 0))
    save(out, "pad18", m, [("x", x)],
         [("r", np.pad(x, width, mode="reflect")),
          ("c", np.pad(x, width, constant_values=1.5))])

    # Opset 18: Resize with axes, and keep_aspect_ratio_policy on sizes
    # (4x6 towards 8x9, not larger: 1.5x to 6x9).
    y = rng.standard_normal((1, 2, 4, 6)).astype(np.float32)
    nodes = [
        helper.make_node("Resize", ["y", "", "scales"], ["up"], mode="nearest",
                         axes=[2, 3]),
        helper.make_node("Resize", ["y", "", "", "sizes"], ["fit"],
                         mode="nearest", axes=[2, 3],
                         keep_aspect_ratio_policy="not_larger"),
    ]
    m = model("resize18", nodes, [f("y", [1, 2, 4, 6])],
              [f("up", [1, 2, 8, 12]), f("fit", [1, 2, 6, 9])], 18, 8,
              [floats("scales", [2, 2]), ints("sizes", [8, 9])])
    save(out, "resize18", m, [("y", y)],
         [("up", nearest_half_pixel(y, (8, 12), (2, 2))),
          ("fit", nearest_half_pixel(y, (6, 9), (1.5, 1.5)))])

    # Opset 18: Mish and GroupNormalization (scale and bias per group).
    gs = np.array([0.5, -1.25], np.float32)
    gb = np.array([0.1, 0.2], np.float32)
    nodes = [
        helper.make_node("Mish", ["x"], ["mish"]),
        helper.make_node("GroupNormalization", ["x", "gs", "gb"], ["gn"],
                         num_groups=2, epsilon=1e-3),
    ]
    m = model("norm18", nodes, [f("x", [2, 4, 6, 5])],
              [f("mish", [2, 4, 6, 5]), f("gn", [2, 4, 6, 5])], 18, 8,
              [numpy_helper.from_array(gs, "gs"), numpy_helper.from_array(gb, "gb")])
    xd = x.astype(np.float64)
    save(out, "norm18", m, [("x", x)],
         [("mish", (xd * np.tanh(np.log1p(np.exp(xd)))).astype(np.float32)),
          ("gn", group_norm(x, 2, gs, gb, 1e-3, False))])

    # Opset 19: AveragePool's dilations (all 1), Cast's saturate; IR 9.
    nodes = [
        helper.make_node("AveragePool", ["x"], ["pool"], kernel_shape=[2, 2],
                         strides=[2, 2], dilations=[1, 1]),
        helper.make_node("Cast", ["pool"], ["i"], to=TensorProto.INT32, saturate=1),
    ]
    m = model("pool19", nodes, [f("x", [2, 4, 6, 5])],
              [f("i", [2, 4, 3, 2], TensorProto.INT32)], 19, 9)
    big = (x * 10).astype(np.float32)
    pooled = big[:, :, :6, :4].reshape(2, 4, 3, 2, 2, 2).mean(axis=(3, 5))
    save(out, "pool19", m, [("x", big)], [("i", pooled.astype(np.int32))])

    # Opset 20: Gelu, exact and tanh.
    nodes = [
        helper.make_node("Gelu", ["x"], ["exact"]),
        helper.make_node("Gelu", ["x"], ["approx"], approximate="tanh"),
    ]
    m = model("gelu20", nodes, [f("x", [2, 4, 6, 5])],
              [f("exact", [2, 4, 6, 5]), f("approx", [2, 4, 6, 5])], 20, 9)
    exact = 0.5 * x * (1 + erf(x / np.float32(math.sqrt(2))))
    approx = 0.5 * xd * (1 + np.tanh(math.sqrt(2 / math.pi) * (xd + 0.044715 * xd ** 3)))
    save(out, "gelu20", m, [("x", x)],
         [("exact", exact.astype(np.float32)), ("approx", approx.astype(np.float32))])

    # Opset 21 (IR 10): GroupNormalization's scale and bias per channel, in
    # a small diffusion-style block: GroupNorm -> Mish -> Conv -> + x.
    cs = rng.standard_normal(4).astype(np.float32)
    cb = rng.standard_normal(4).astype(np.float32)
    w = (rng.standard_normal((4, 4, 1, 1)) * 0.3).astype(np.float32)
    nodes = [
        helper.make_node("GroupNormalization", ["x", "cs", "cb"], ["gn"],
                         num_groups=2),
        helper.make_node("Mish", ["gn"], ["act"]),
        helper.make_node("Conv", ["act", "w"], ["conv"]),
        helper.make_node("Add", ["conv", "x"], ["y"]),
    ]
    m = model("block21", nodes, [f("x", [2, 4, 6, 5])], [f("y", [2, 4, 6, 5])],
              21, 10, [numpy_helper.from_array(cs, "cs"),
                       numpy_helper.from_array(cb, "cb"),
                       numpy_helper.from_array(w, "w")])
    gn = group_norm(x, 2, cs, cb, 1e-5, True).astype(np.float64)
    act = gn * np.tanh(np.log1p(np.exp(gn)))
    conv = np.einsum("oc,nchw->nohw", w[:, :, 0, 0].astype(np.float64), act)
    save(out, "block21", m, [("x", x)], [("y", (conv + xd).astype(np.float32))])

    # Opset-18 forms inside If branches (a voice-activity model's pattern):
    # Split with num_outputs on a value from the outer graph, ReduceMean with
    # an axes input, and a nested If in the else branch.
    xs = rng.standard_normal((2, 6), dtype=np.float32)
    then_g = helper.make_graph(
        [helper.make_node("Split", ["xs"], ["t0", "t1"], axis=1,
                          num_outputs=2),
         helper.make_node("Sub", ["t0", "t1"], ["t"])],
        "then", [], [f("t", [2, 3])])
    inner_g = helper.make_graph(
        [helper.make_node("ReduceMean", ["xs", "ax"], ["m"], keepdims=1),
         helper.make_node("Split", ["xs"], ["u0", "u1"], axis=1,
                          num_outputs=2),
         helper.make_node("Add", ["u0", "m"], ["u"])],
        "inner", [], [f("u", [2, 3])])
    else_g = helper.make_graph(
        [helper.make_node("If", ["c"], ["e"], then_branch=inner_g,
                          else_branch=inner_g)],
        "else", [], [f("e", [2, 3])])
    m = model("if_split18",
              [helper.make_node("If", ["c"], ["y"], then_branch=then_g,
                                else_branch=else_g)],
              [f("c", [], TensorProto.BOOL), f("xs", [2, 6])], [f("y", [2, 3])],
              18, 8, [ints("ax", [1])])
    for flag, want in ((True, xs[:, :3] - xs[:, 3:]),
                       (False, xs[:, :3] + xs.mean(axis=1, keepdims=True))):
        name = "if_split18_" + ("then" if flag else "else")
        save(out, name, m, [("c", np.array(flag)), ("xs", xs)],
             [("y", want.astype(np.float32))])

    # Refused, each with its reason.
    bad = [
        ("wrap19", helper.make_node("Pad", ["x", "pads"], ["y"], mode="wrap"),
         19, 9, [ints("pads", [0, 0, 1, 1, 0, 0, 1, 1])]),
        ("antialias18", helper.make_node("Resize", ["x", "", "scales"], ["y"],
                                         mode="linear", antialias=1),
         18, 8, [floats("scales", [1, 1, 0.5, 0.5])]),
        ("bitwise18", helper.make_node("BitwiseNot", ["x"], ["y"]), 18, 8, []),
        ("axes_input18", helper.make_node("ReduceMean", ["x", "a"], ["y"]),
         18, 8, []),
    ]
    for name, node, opset, ir, inits in bad:
        inputs = [f("x", [2, 4, 6, 5])]
        if name == "axes_input18":
            inputs.append(f("a", [1], TensorProto.INT64))
        onnx.save(model(name, [node], inputs, [f("y", None)], opset, ir, inits),
                  os.path.join(out, name + ".onnx"))
    m = model("float8", [helper.make_node("Cast", ["x"], ["y"],
                                          to=17)],
              [f("x", [2])], [f("y", [2], 17)], 19, 9)
    onnx.save(m, os.path.join(out, "float8.onnx"))
    m = model("opset22", [helper.make_node("Relu", ["x"], ["y"])],
              [f("x", [2])], [f("y", [2])], 22, 10)
    onnx.save(m, os.path.join(out, "opset22.onnx"))


if __name__ == "__main__":
    main()
