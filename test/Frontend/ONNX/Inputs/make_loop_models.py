#!/usr/bin/python3
"""Writes Loop and Scan models beyond ONNX's node tests: a Loop with
loop-carried values and scan outputs whose body reads an outer weight, a
Loop without a trip count that ends when its body's condition (computed from
the iteration number) turns false, loops of run-time length (a condition
computed from data, a trip count given at run time, a loop too long to
unroll, a while loop on [1] tensors that NNAPI's WHILE runs), a Scan over two inputs along axis 1 with
reverse directions and an output stacked along axis 1 in reverse (an RNN
written as a Scan, as exporters do), and models the importer must refuse.
Expected outputs are numpy's.

Usage: make_loop_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from testdata import const, model, save, vi

F = TensorProto.FLOAT
I64 = TensorProto.INT64
B = TensorProto.BOOL


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(0)

    # h = tanh(h @ W + x); each iteration also emits h * i.
    W = (rng.standard_normal((4, 4)) * 0.5).astype(np.float32)
    x = rng.standard_normal((2, 4)).astype(np.float32)
    h0 = rng.standard_normal((2, 4)).astype(np.float32)
    body = body_rnn = helper.make_graph([
        helper.make_node("Identity", ["c_in"], ["c_out"]),
        helper.make_node("MatMul", ["h_in", "W"], ["hw"]),
        helper.make_node("Add", ["hw", "x"], ["pre"]),
        helper.make_node("Tanh", ["pre"], ["h_out"]),
        helper.make_node("Cast", ["i"], ["fi"], to=F),
        helper.make_node("Mul", ["h_out", "fi"], ["scaled"]),
    ], "body", [vi("i", [], I64), vi("c_in", [], B), vi("h_in", [2, 4])],
        [vi("c_out", [], B), vi("h_out", [2, 4]), vi("scaled", [2, 4])])
    m = model("loop_rnn", [
        helper.make_node("Loop", ["M", "", "h0"], ["h", "all"], body=body),
    ], [vi("x", [2, 4]), vi("h0", [2, 4])],
        [vi("h", [2, 4]), vi("all", [5, 2, 4])],
        [const("M", np.int64(5)), const("W", W)])
    h, steps = h0.astype(np.float64), []
    for i in range(5):
        h = np.tanh(h @ W + x)
        steps.append(h * i)
    save(out, "loop_rnn", m, [("x", x), ("h0", h0)],
         [("h", h.astype(np.float32)),
          ("all", np.stack(steps).astype(np.float32))])

    # No trip count: runs while i < 3 (the body's condition, folded).
    body = helper.make_graph([
        helper.make_node("Less", ["i", "three"], ["c_out"]),
        helper.make_node("Mul", ["v_in", "two"], ["v_out"]),
    ], "body", [vi("i", [], I64), vi("c_in", [], B), vi("v_in", [3])],
        [vi("c_out", [], B), vi("v_out", [3])])
    m = model("loop_until", [
        helper.make_node("Loop", ["", "go", "v0"], ["v"], body=body),
    ], [vi("v0", [3])], [vi("v", [3])],
        [const("go", np.bool_(True)), const("three", np.int64(3)),
         const("two", np.float32(2))])
    v0 = rng.standard_normal(3).astype(np.float32)
    # Iterations 0..3 run (the condition is checked after each).
    save(out, "loop_until", m, [("v0", v0)], [("v", v0 * 16)])

    # Scan: inputs [N, T, C] along axis 1, the second reversed; the state
    # s = s * 0.5 + a_t - b_t; the output stacked along axis 1, reversed.
    a = rng.standard_normal((2, 4, 3)).astype(np.float32)
    b = rng.standard_normal((2, 4, 3)).astype(np.float32)
    s0 = rng.standard_normal((2, 3)).astype(np.float32)
    body = helper.make_graph([
        helper.make_node("Mul", ["s_in", "half"], ["hs"]),
        helper.make_node("Add", ["hs", "a_t"], ["p"]),
        helper.make_node("Sub", ["p", "b_t"], ["s_out"]),
        helper.make_node("Identity", ["s_out"], ["y_t"]),
    ], "body", [vi("s_in", [2, 3]), vi("a_t", [2, 3]), vi("b_t", [2, 3])],
        [vi("s_out", [2, 3]), vi("y_t", [2, 3])])
    m = model("scan_axes", [
        helper.make_node("Scan", ["s0", "a", "b"], ["s", "y"], body=body,
                         num_scan_inputs=2, scan_input_axes=[1, 1],
                         scan_input_directions=[0, 1], scan_output_axes=[1],
                         scan_output_directions=[1]),
    ], [vi("s0", [2, 3]), vi("a", [2, 4, 3]), vi("b", [2, 4, 3])],
        [vi("s", [2, 3]), vi("y", [2, 4, 3])], [const("half", np.float32(0.5))])
    s, ys = s0.astype(np.float64), []
    for t in range(4):
        s = s * 0.5 + a[:, t] - b[:, 3 - t]
        ys.append(s)
    save(out, "scan_axes", m, [("s0", s0), ("a", a), ("b", b)],
         [("s", s.astype(np.float32)),
          ("y", np.stack(ys[::-1], axis=1).astype(np.float32))])

    # Run-time loops (tosa.while_loop): the body's condition computed from
    # data (v doubles while its sum is below 10), then also a trip count
    # given at run time. Two cases each: their iteration counts differ.
    body = body_data = helper.make_graph([
        helper.make_node("ReduceSum", ["v_in"], ["sum"], keepdims=0),
        helper.make_node("Less", ["sum", "ten"], ["c_out"]),
        helper.make_node("Mul", ["v_in", "twof"], ["v_out"]),
    ], "body", [vi("i", [], I64), vi("c_in", [], B), vi("v_in", [3])],
        [vi("c_out", [], B), vi("v_out", [3])])

    def run_loop(v, trips):
        v, i, cond = v.astype(np.float64), 0, True
        while cond and (trips is None or i < trips):
            cond = v.sum() < 10
            v = v * 2
            i += 1
        return v.astype(np.float32)

    m = model("loop_data_cond", [
        helper.make_node("Loop", ["M", "", "v0"], ["v"], body=body,
                         name="grow"),
    ], [vi("v0", [3])], [vi("v", [3])],
        [const("M", np.int64(8)), const("ten", np.float32(10)),
         const("twof", np.float32(2))])
    for k, v0 in enumerate([np.array([0.3, 0.5, 0.2], np.float32),
                            np.array([2.0, 3.0, 1.0], np.float32)]):
        save(out, "loop_data_cond", m, [("v0", v0)],
             [("v", run_loop(v0, 8))], case="test_data_set_%d" % k)
    m = model("loop_runtime_count", [
        helper.make_node("Loop", ["n", "", "v0"], ["v"], body=body,
                         name="counted"),
    ], [vi("n", [], I64), vi("v0", [3])], [vi("v", [3])],
        [const("ten", np.float32(10)), const("twof", np.float32(2))])
    for k, n in enumerate([3, 0]):
        v0 = np.array([0.1, 0.2, 0.3], np.float32)
        save(out, "loop_runtime_count", m, [("n", np.int64(n)), ("v0", v0)],
             [("v", run_loop(v0, n))], case="test_data_set_%d" % k)
    # Refused: a loop of run-time length with a scan output, and one whose
    # state changes shape.
    m = model("loop_runtime_scan", [
        helper.make_node("Loop", ["n", "", "h0"], ["h", "all"], body=body_rnn,
                         name="scanned"),
    ], [vi("n", [], I64), vi("x", [2, 4]), vi("h0", [2, 4])],
        [vi("h", [2, 4]), vi("all", [5, 2, 4])], [const("W", W)],
        check=False)
    onnx.save(m, os.path.join(out, "loop_runtime_scan.onnx"))
    grow = helper.make_graph([
        helper.make_node("Identity", ["c_in"], ["c_out"]),
        helper.make_node("Concat", ["v_in", "v_in"], ["v_out"], axis=0),
    ], "body", [vi("i", [], I64), vi("c_in", [], B), vi("v_in", [3])],
        [vi("c_out", [], B), vi("v_out", [6])])
    m = model("loop_growing", [
        helper.make_node("Loop", ["n", "", "v0"], ["v"], body=grow,
                         name="growing"),
    ], [vi("n", [], I64), vi("v0", [3])], [vi("v", [6])], check=False)
    onnx.save(m, os.path.join(out, "loop_growing.onnx"))
    # Refused: a trip count of two elements.
    m = model("loop_wide_count", [
        helper.make_node("Loop", ["M2", "", "v0"], ["v"], body=body,
                         name="wide"),
    ], [vi("v0", [3])], [vi("v", [3])],
        [const("M2", np.array([2, 3], np.int64)), const("ten", np.float32(10)),
         const("twof", np.float32(2))], check=False)
    onnx.save(m, os.path.join(out, "loop_wide_count.onnx"))
    # Refused: a body declared for a [2, 4] state that receives a scalar
    # (its recorded types are not trusted: MatMul of a scalar is an error).
    body2 = helper.make_graph([
        helper.make_node("Identity", ["c_in"], ["c_out"]),
        helper.make_node("MatMul", ["v_in", "W4"], ["v_out"], name="mm"),
    ], "body", [vi("i", [], I64), vi("c_in", [], B), vi("v_in", [2, 4])],
        [vi("c_out", [], B), vi("v_out", [2, 4])])
    m = model("loop_state_mismatch", [
        helper.make_node("Loop", ["M", "", "s0"], ["v"], body=body2),
    ], [vi("s0", [])], [vi("v", [2, 4])],
        [const("M", np.int64(2)),
         const("W4", np.zeros((4, 4), np.float32))], check=False)
    onnx.save(m, os.path.join(out, "loop_state_mismatch.onnx"))
    # Refused: no iteration, so an empty scan output.
    m = model("loop_no_trips", [
        helper.make_node("Loop", ["M0", "", "h0"], ["h", "all"], body=body_rnn,
                         name="never"),
    ], [vi("x", [2, 4]), vi("h0", [2, 4])],
        [vi("h", [2, 4]), vi("all", [1, 2, 4])],
        [const("M0", np.int64(0)), const("W", W)], check=False)
    onnx.save(m, os.path.join(out, "loop_no_trips.onnx"))
    # Refused: a body condition of two elements.
    body3 = helper.make_graph([
        helper.make_node("Constant", [], ["c_out"],
                         value=numpy_helper.from_array(np.array([True, True]))),
        helper.make_node("Mul", ["v_in", "twof"], ["v_out"]),
    ], "body", [vi("i", [], I64), vi("c_in", [], B), vi("v_in", [3])],
        [vi("c_out", [2], B), vi("v_out", [3])])
    m = model("loop_wide_cond", [
        helper.make_node("Loop", ["M", "go1", "v0"], ["v"], body=body3,
                         name="widecond"),
    ], [vi("v0", [3])], [vi("v", [3])],
        [const("M", np.int64(2)), const("go1", np.bool_(True)),
         const("twof", np.float32(2))], check=False)
    onnx.save(m, os.path.join(out, "loop_wide_cond.onnx"))
    # Refused at run time too: that condition, and a trip count of two
    # elements given as an input.
    m = model("loop_runtime_wide_cond", [
        helper.make_node("Loop", ["n", "go1", "v0"], ["v"], body=body3,
                         name="runwidecond"),
    ], [vi("n", [], I64), vi("v0", [3])], [vi("v", [3])],
        [const("go1", np.bool_(True)), const("twof", np.float32(2))],
        check=False)
    onnx.save(m, os.path.join(out, "loop_runtime_wide_cond.onnx"))
    m = model("loop_runtime_wide_count", [
        helper.make_node("Loop", ["n2", "", "v0"], ["v"], body=body_data,
                         name="runwide"),
    ], [vi("n2", [2], I64), vi("v0", [3])], [vi("v", [3])],
        [const("ten", np.float32(10)), const("twof", np.float32(2))],
        check=False)
    onnx.save(m, os.path.join(out, "loop_runtime_wide_count.onnx"))
    # Refused: a Scan too long to unroll, and scanned inputs of two lengths.
    sbody = helper.make_graph([
        helper.make_node("Add", ["s_in", "a_t"], ["s_out"]),
        helper.make_node("Identity", ["s_out"], ["y_t"]),
    ], "body", [vi("s_in", [2]), vi("a_t", [2])],
        [vi("s_out", [2]), vi("y_t", [2])])
    m = model("scan_long", [
        helper.make_node("Scan", ["s0", "a"], ["s", "y"], body=sbody,
                         num_scan_inputs=1, name="longscan"),
    ], [vi("s0", [2]), vi("a", [30000, 2])],
        [vi("s", [2]), vi("y", [30000, 2])], check=False)
    onnx.save(m, os.path.join(out, "scan_long.onnx"))
    sbody2 = helper.make_graph([
        helper.make_node("Add", ["s_in", "a_t"], ["p"]),
        helper.make_node("Add", ["p", "b_t"], ["s_out"]),
    ], "body", [vi("s_in", [2]), vi("a_t", [2]), vi("b_t", [2])],
        [vi("s_out", [2])])
    m = model("scan_uneven", [
        helper.make_node("Scan", ["s0", "a", "b"], ["s"], body=sbody2,
                         num_scan_inputs=2, name="uneven"),
    ], [vi("s0", [2]), vi("a", [3, 2]), vi("b", [4, 2])], [vi("s", [2])],
        check=False)
    onnx.save(m, os.path.join(out, "scan_uneven.onnx"))
    m = model("scan_axes_count", [
        helper.make_node("Scan", ["s0", "a"], ["s", "y"], body=sbody,
                         num_scan_inputs=1, scan_input_axes=[0, 1],
                         name="axescount"),
    ], [vi("s0", [2]), vi("a", [3, 2])], [vi("s", [2]), vi("y", [3, 2])],
        check=False)
    onnx.save(m, os.path.join(out, "scan_axes_count.onnx"))
    # Too long to unroll (100,000 iterations of 2 nodes): a run-time loop.
    body = helper.make_graph([
        helper.make_node("Identity", ["c_in"], ["c_out"]),
        helper.make_node("Add", ["v_in", "onef"], ["v_out"]),
    ], "body", [vi("i", [], I64), vi("c_in", [], B), vi("v_in", [3])],
        [vi("c_out", [], B), vi("v_out", [3])])
    m = model("loop_long", [
        helper.make_node("Loop", ["M", "", "v0"], ["v"], body=body,
                         name="long"),
    ], [vi("v0", [3])], [vi("v", [3])],
        [const("M", np.int64(100000)), const("onef", np.float32(1))])
    v0 = np.array([0.5, -2.0, 3.0], np.float32)
    save(out, "loop_long", m, [("v0", v0)],
         [("v", (v0 + np.float32(100000)).astype(np.float32))])

    # A while loop NNAPI's WHILE runs: no trip count, the first condition
    # given at run time, the body's computed on [1] tensors (v doubles
    # while its sum is below 10; the check comes before the doubling).
    body = helper.make_graph([
        helper.make_node("ReduceSum", ["v_in"], ["sum"], keepdims=1),
        helper.make_node("Less", ["sum", "ten1"], ["c_out"]),
        helper.make_node("Mul", ["v_in", "twof"], ["v_out"]),
    ], "body", [vi("i", [], I64), vi("c_in", [], B), vi("v_in", [3])],
        [vi("c_out", [1], B), vi("v_out", [3])])
    m = model("loop_while", [
        helper.make_node("Loop", ["", "go", "v0"], ["v"], body=body,
                         name="doubling"),
    ], [vi("go", [], B), vi("v0", [3])], [vi("v", [3])],
        [const("ten1", np.array([10], np.float32)),
         const("twof", np.float32(2))])
    for k, (go, v0) in enumerate([(True, [0.3, 0.5, 0.2]),
                                  (True, [2.0, 3.0, 6.0]),
                                  (False, [0.3, 0.5, 0.2])]):
        v0 = np.array(v0, np.float32)
        v = v0.astype(np.float64) if go else None
        if go:
            cond = True
            while cond:
                cond = v.sum() < 10
                v = v * 2
        expected = (v if go else v0).astype(np.float32)
        save(out, "loop_while", m, [("go", np.bool_(go)), ("v0", v0)],
             [("v", expected)], case="test_data_set_%d" % k)


if __name__ == "__main__":
    main()
