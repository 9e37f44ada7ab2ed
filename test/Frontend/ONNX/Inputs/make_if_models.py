#!/usr/bin/python3
"""Writes If models beyond ONNX's node test (whose condition is a graph
input): a condition that folds from shapes, one computed from data at run
time (both values of it; small branches, then large ones), one on a sample-rate input whose branches differ
in shape (compiled for one value), an If nested in a branch that reads outer
values, and models the importer must refuse. Expected outputs are numpy's.

Usage: make_if_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from testdata import const, model, save, vi

F = TensorProto.FLOAT


def branch(name, nodes, outputs):
    return helper.make_graph(nodes, name, [], outputs)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(0)

    # The condition folds at compile time: Shape(x)[0] > 1.
    x = rng.standard_normal((3, 4)).astype(np.float32)
    then_b = branch("then", [helper.make_node("Relu", ["x"], ["t"])],
                    [vi("t", [3, 4])])
    else_b = branch("else", [helper.make_node("Neg", ["x"], ["e"])],
                    [vi("e", [3, 4])])
    m = model("if_shape", [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "zero"], ["rows"], axis=0),
        helper.make_node("Greater", ["rows", "one"], ["c"]),
        helper.make_node("If", ["c"], ["y"], then_branch=then_b,
                         else_branch=else_b),
        helper.make_node("Mul", ["y", "two"], ["z"]),
    ], [vi("x", [3, 4])], [vi("z", [3, 4])],
        [const("zero", np.int64(0)), const("one", np.int64(1)),
         const("two", np.float32(2))])
    save(out, "if_shape", m, [("x", x)], [("z", np.maximum(x, 0) * 2)])

    # The condition comes from data: sum(x) > 0. Both branches run; each
    # test set takes another.
    then_b = branch("then", [helper.make_node("Sigmoid", ["x"], ["t"])],
                    [vi("t", [3, 4])])
    else_b = branch("else", [helper.make_node("Mul", ["x", "x"], ["e"])],
                    [vi("e", [3, 4])])
    m = model("if_data", [
        helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
        helper.make_node("Greater", ["s", "zerof"], ["c"]),
        helper.make_node("If", ["c"], ["y"], then_branch=then_b,
                         else_branch=else_b),
    ], [vi("x", [3, 4])], [vi("y", [3, 4])], [const("zerof", np.float32(0))])
    pos = np.abs(x) + 0.1
    save(out, "if_data", m, [("x", pos)], [("y", 1 / (1 + np.exp(-pos)))])
    save(out, "if_data", m, [("x", -pos)], [("y", pos * pos)],
         case="test_data_set_1")

    # Larger branches (20 operations each): a conditional on the host runs
    # one. Then: 10 rounds of y = tanh(y @ W1); else: of y = relu(y @ W2).
    W1 = (rng.standard_normal((4, 4)) * 0.5).astype(np.float32)
    W2 = (rng.standard_normal((4, 4)) * 0.5).astype(np.float32)

    def rounds(name, w, act):
        nodes, prev = [], "x"
        for k in range(10):
            nodes.append(helper.make_node("MatMul", [prev, w],
                                          ["%s_m%d" % (name, k)]))
            nodes.append(helper.make_node(act, ["%s_m%d" % (name, k)],
                                          ["%s_a%d" % (name, k)]))
            prev = "%s_a%d" % (name, k)
        return branch(name, nodes, [vi(prev, [3, 4])])

    m = model("if_large", [
        helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
        helper.make_node("Greater", ["s", "zerof"], ["c"]),
        helper.make_node("If", ["c"], ["y"],
                         then_branch=rounds("deep_then", "W1", "Tanh"),
                         else_branch=rounds("deep_else", "W2", "Relu")),
    ], [vi("x", [3, 4])], [vi("y", [3, 4])],
        [const("zerof", np.float32(0)), const("W1", W1), const("W2", W2)])
    for k, (sign, w, act) in enumerate([(1, W1, np.tanh),
                                        (-1, W2, lambda v: np.maximum(v, 0))]):
        y = sign * pos.astype(np.float64)
        for _ in range(10):
            y = act(y @ w)
        save(out, "if_large", m, [("x", (sign * pos).astype(np.float32))],
             [("y", y.astype(np.float32))], case="test_data_set_%d" % k)

    # A sample-rate input picks a front end whose output differs in shape:
    # 16000 frames the audio by 4, 8000 by 2 (then pools to the same size).
    audio = rng.standard_normal((1, 16)).astype(np.float32)
    then_b = branch("sr16k", [
        helper.make_node("Reshape", ["audio", "by4"], ["t"])],
        [vi("t", [4, 4])])
    else_b = branch("sr8k", [
        helper.make_node("Reshape", ["audio", "by2"], ["e"])],
        [vi("e", [8, 2])])
    m = model("if_rate", [
        helper.make_node("Equal", ["sr", "k16"], ["c"]),
        helper.make_node("If", ["c"], ["frames"], then_branch=then_b,
                         else_branch=else_b),
        helper.make_node("ReduceMean", ["frames"], ["y"], axes=[1],
                         keepdims=0),
    ], [vi("audio", [1, 16]), vi("sr", [], TensorProto.INT64)],
        [vi("y", ["frames"])],
        [const("k16", np.int64(16000)), const("by4", np.array([4, 4])),
         const("by2", np.array([8, 2]))])
    save(out, "if_rate", m, [("audio", audio), ("sr", np.array(16000))],
         [("y", audio.reshape(4, 4).mean(1))])
    save(out, "if_rate", m, [("audio", audio), ("sr", np.array(8000))],
         [("y", audio.reshape(8, 2).mean(1))], case="test_data_set_1")
    np.save(os.path.join(out, "if_rate", "audio.npy"), audio)
    np.save(os.path.join(out, "if_rate", "sr8000.npy"), np.array(8000))

    # An If in a branch of an If: the inner branches read the outer graph's
    # x and the outer branch's value.
    inner_then = branch("inner_then", [
        helper.make_node("Add", ["x", "u"], ["it"])], [vi("it", [3, 4])])
    inner_else = branch("inner_else", [
        helper.make_node("Sub", ["x", "u"], ["ie"])], [vi("ie", [3, 4])])
    outer_then = branch("outer_then", [
        helper.make_node("Abs", ["x"], ["u"]),
        helper.make_node("If", ["c2"], ["ot"], then_branch=inner_then,
                         else_branch=inner_else)], [vi("ot", [3, 4])])
    outer_else = branch("outer_else", [
        helper.make_node("Identity", ["x"], ["oe"])], [vi("oe", [3, 4])])
    m = model("if_nested", [
        helper.make_node("ReduceMax", ["x"], ["mx"], keepdims=0),
        helper.make_node("Greater", ["mx", "zerof"], ["c1"]),
        helper.make_node("ReduceMin", ["x"], ["mn"], keepdims=0),
        helper.make_node("Greater", ["mn", "zerof"], ["c2"]),
        helper.make_node("If", ["c1"], ["y"], then_branch=outer_then,
                         else_branch=outer_else),
    ], [vi("x", [3, 4])], [vi("y", [3, 4])], [const("zerof", np.float32(0))])
    # max > 0 and min < 0 here: x - |x|.
    save(out, "if_nested", m, [("x", x)], [("y", x - np.abs(x))])

    # Refused: branches that give different numbers of outputs.
    then_b = branch("two", [helper.make_node("Relu", ["x"], ["t1"]),
                            helper.make_node("Neg", ["x"], ["t2"])],
                    [vi("t1", [3, 4]), vi("t2", [3, 4])])
    else_b = branch("one", [helper.make_node("Neg", ["x"], ["e"])],
                    [vi("e", [3, 4])])
    m = model("if_bad_outputs", [
        helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
        helper.make_node("Greater", ["s", "zerof"], ["c"]),
        helper.make_node("If", ["c"], ["y"], then_branch=then_b,
                         else_branch=else_b, name="uneven"),
    ], [vi("x", [3, 4])], [vi("y", [3, 4])], [const("zerof", np.float32(0))],
        check=False)
    onnx.save(m, os.path.join(out, "if_bad_outputs.onnx"))
    # Refused: a condition of twelve elements.
    m = model("if_bad_cond", [
        helper.make_node("Greater", ["x", "zerof"], ["c"]),
        helper.make_node("If", ["c"], ["y"], then_branch=else_b,
                         else_branch=else_b, name="wide"),
    ], [vi("x", [3, 4])], [vi("y", [3, 4])], [const("zerof", np.float32(0))],
        check=False)
    onnx.save(m, os.path.join(out, "if_bad_cond.onnx"))


if __name__ == "__main__":
    main()
