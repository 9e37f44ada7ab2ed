#!/usr/bin/python3
"""Writes RNN, GRU and LSTM models beyond ONNX's node tests (which feed the
weights as runtime inputs and cover one direction): constant weights,
reverse and bidirectional directions, sequence_lens shorter than the
sequence (as a constant and at run time), initial states, layout 1, clip,
linear_before_reset, input_forget, peepholes and non-default activations
with their alpha and beta. Expected outputs come from the float64 numpy
reference in examples/streaming/rnn_reference.py; ONNX Runtime 1.30 agrees
with it on every model written here that it runs (checked with
../shared/tools/ort; it refuses layout 1).

Usage: make_recurrent_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from testdata import save

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "..", "examples",
                                "streaming"))
from rnn_reference import reference  # noqa: E402

def build(out, name, kind, T, N, I, H, direction="forward", const_weights=True,
          bias=True, lens=None, runtime_lens=False, states=False,
          peepholes=False, layout=0, dtype=np.float32, seed=0,
          state_only=False, **attrs):
    rng = np.random.default_rng(seed)
    D = 2 if direction == "bidirectional" else 1
    G = {"RNN": 1, "GRU": 3, "LSTM": 4}[kind]
    X = rng.standard_normal((N, T, I) if layout else (T, N, I)).astype(dtype)
    W = (rng.standard_normal((D, G * H, I)) * 0.5).astype(dtype)
    R = (rng.standard_normal((D, G * H, H)) * 0.5).astype(dtype)
    Bv = (rng.standard_normal((D, 2 * G * H)) * 0.3).astype(dtype)
    state_shape = (N, D, H) if layout else (D, N, H)
    h0 = rng.standard_normal(state_shape).astype(dtype)
    c0 = rng.standard_normal(state_shape).astype(dtype)
    P = (rng.standard_normal((D, 3 * H)) * 0.5).astype(dtype)
    lens_v = None if lens is None else np.array(lens, np.int32)

    elem = onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(dtype)]
    inputs = [helper.make_tensor_value_info("X", elem, list(X.shape))]
    feeds = [("X", X)]
    inits = []
    names = ["X", "W", "R", "", "", "", "", ""]

    def add(slot, n, v, const):
        names[slot] = n
        if const:
            inits.append(numpy_helper.from_array(v, n))
        else:
            inputs.append(helper.make_tensor_value_info(
                n, onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[v.dtype], list(v.shape)))
            feeds.append((n, v))

    add(1, "W", W, const_weights)
    add(2, "R", R, const_weights)
    if bias:
        add(3, "B", Bv, const_weights)
    if lens_v is not None:
        add(4, "sequence_lens", lens_v, not runtime_lens)
    if states:
        add(5, "initial_h", h0, False)
        if kind == "LSTM":
            add(6, "initial_c", c0, False)
    if peepholes:
        add(7, "P", P, const_weights)
    while names and names[-1] == "":
        names.pop()
    outs = ["Y", "Y_h"] + (["Y_c"] if kind == "LSTM" else [])
    if state_only:  # Y not asked for: the node's first output is ""
        outs[0] = ""
    node = helper.make_node(kind, names, outs, hidden_size=H,
                            direction=direction, layout=layout, **attrs)
    Y, Yh, Yc = reference(
        kind, X, W, R, Bv if bias else None, lens_v, h0 if states else None,
        c0 if states and kind == "LSTM" else None, P if peepholes else None,
        direction, attrs.get("activations"), attrs.get("activation_alpha"),
        attrs.get("activation_beta"), attrs.get("clip"),
        attrs.get("linear_before_reset", 0), attrs.get("input_forget", 0),
        layout)
    expected = [("Y", Y), ("Y_h", Yh), ("Y_c", Yc)][:len(outs)]
    if state_only:
        expected = expected[1:]
    outputs = [helper.make_tensor_value_info(n, elem, list(v.shape))
               for n, v in expected]
    g = helper.make_graph([node], name, inputs, outputs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)])
    m.ir_version = 7
    onnx.checker.check_model(m)
    save(out, name, m, feeds, [(n, v.astype(dtype)) for n, v in expected])


def bad(out, name, kind, T=2, N=1, I=2, H=3, W_rows=None, lens=None,
        h0_shape=None, B_shape=None, P_shape=None, R_cols=None, **attrs):
    """A model the importer must refuse with a clear error."""
    G = {"RNN": 1, "GRU": 3, "LSTM": 4}[kind]
    f = TensorProto.FLOAT
    inits = [numpy_helper.from_array(
                 np.zeros((1, W_rows or G * H, I), np.float32), "W"),
             numpy_helper.from_array(
                 np.zeros((1, G * H, R_cols or H), np.float32), "R")]
    inputs = [helper.make_tensor_value_info("X", f, [T, N, I])]
    names = ["X", "W", "R"]
    if B_shape is not None:
        inits.append(numpy_helper.from_array(np.zeros(B_shape, np.float32),
                                             "B"))
        names.append("B")
    if lens is not None:
        inits.append(numpy_helper.from_array(np.array(lens, np.int32),
                                             "sequence_lens"))
        names += [""] * (4 - len(names)) + ["sequence_lens"]
    if h0_shape is not None:
        names += [""] * (5 - len(names)) + ["initial_h"]
        inputs.append(helper.make_tensor_value_info("initial_h", f, h0_shape))
    if P_shape is not None:
        names += [""] * (7 - len(names)) + ["P"]
        inits.append(numpy_helper.from_array(np.zeros(P_shape, np.float32),
                                             "P"))
    node = helper.make_node(kind, names, ["", "Y_h"], name=name,
                            hidden_size=H, **attrs)
    g = helper.make_graph([node], name, inputs,
                          [helper.make_tensor_value_info("Y_h", f, [1, N, H])],
                          inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)])
    m.ir_version = 7
    onnx.save(m, os.path.join(out, name + ".onnx"))


def bad_rank(out):
    """An opset-7 LSTM whose X has rank 1: libonnx's inference of that opset
    (run before the model is upgraded) would read dimensions X lacks."""
    f = TensorProto.FLOAT
    node = helper.make_node("LSTM", ["X", "W", "R"], ["", "Y_h"], name="flat",
                            hidden_size=3)
    g = helper.make_graph(
        [node], "bad_rank", [helper.make_tensor_value_info("X", f, [2])],
        [helper.make_tensor_value_info("Y_h", f, [1, 1, 3])],
        [numpy_helper.from_array(np.zeros((1, 12, 2), np.float32), "W"),
         numpy_helper.from_array(np.zeros((1, 12, 3), np.float32), "R")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 7)])
    m.ir_version = 7
    onnx.save(m, os.path.join(out, "bad_rank.onnx"))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    bad_rank(out)
    bad(out, "bad_direction", "RNN", direction="sideways")
    bad(out, "bad_activation", "LSTM", activations=["Sigmoid", "Gelu", "Tanh"])
    bad(out, "bad_activation_count", "LSTM", activations=["Sigmoid", "Tanh"])
    bad(out, "bad_clip", "GRU", clip=-1.0)
    bad(out, "bad_lens", "RNN", N=2, lens=[2, 5])
    bad(out, "bad_weights", "GRU", W_rows=7)
    bad(out, "bad_state", "RNN", N=2, h0_shape=[1, 3, 3])
    bad(out, "bad_bias", "LSTM", B_shape=[1, 12])
    bad(out, "bad_peepholes", "LSTM", P_shape=[1, 6])
    bad(out, "bad_hidden", "RNN", R_cols=4)
    bad(out, "bad_long", "LSTM", T=1000)
    # Constant weights (fully_connected), both directions, a shorter
    # sequence in the batch (constant lengths), initial states.
    build(out, "lstm_bidi", "LSTM", 5, 3, 4, 6, "bidirectional",
          lens=[5, 3, 1], states=True, peepholes=True)
    # Runtime lengths, reverse, layout 1, clip.
    build(out, "lstm_reverse", "LSTM", 4, 2, 3, 5, "reverse",
          const_weights=False, lens=[2, 4], runtime_lens=True, states=True,
          layout=1, clip=0.8)
    build(out, "lstm_coupled", "LSTM", 3, 2, 3, 4, input_forget=1,
          activations=["HardSigmoid", "Softsign", "Elu"],
          activation_alpha=[0.3, 0.7], activation_beta=[0.4])
    # What NNAPI's UNIDIRECTIONAL_SEQUENCE_LSTM computes: both directions
    # (the reverse one between GATHERs), peepholes, states, layout 1; relu
    # for the cell; float16.
    build(out, "lstm_seq", "LSTM", 4, 2, 3, 5, "bidirectional", states=True,
          peepholes=True, layout=1)
    build(out, "lstm_relu", "LSTM", 3, 2, 4, 3,
          activations=["Sigmoid", "Relu", "Relu"])
    build(out, "lstm_f16", "LSTM", 3, 1, 4, 3, states=True, dtype=np.float16)
    # The final states only, of an LSTM NNAPI's operation does not compute
    # (clip): its steps are placed op by op, the unread Y dropped.
    build(out, "lstm_states", "LSTM", 3, 2, 3, 4, states=True, clip=1.5,
          state_only=True)
    build(out, "gru_lbr", "GRU", 4, 2, 3, 5, "bidirectional",
          linear_before_reset=1, states=True, lens=[4, 2])
    build(out, "gru_acts", "GRU", 3, 2, 4, 3, "reverse", bias=True,
          activations=["ScaledTanh", "LeakyRelu"],
          activation_alpha=[0.9, 0.2], activation_beta=[1.3], layout=1,
          states=True)
    build(out, "rnn_bidi", "RNN", 4, 2, 3, 4, "bidirectional", states=True,
          activations=["Relu", "Affine"], activation_alpha=[0.5],
          activation_beta=[0.1], lens=[3, 4], runtime_lens=True,
          const_weights=False)
    build(out, "rnn_f16", "RNN", 3, 2, 3, 4, dtype=np.float16,
          activations=["ThresholdedRelu"], activation_alpha=[0.1])
    build(out, "gru_softplus", "GRU", 3, 1, 2, 3,
          activations=["Sigmoid", "Softplus"], clip=2.0)
    # What NNAPI's UNIDIRECTIONAL_SEQUENCE_RNN computes: Relu, both
    # directions, states, layout 1. ONNX's default Tanh it does not.
    build(out, "rnn_relu", "RNN", 4, 2, 3, 5, "bidirectional", states=True,
          layout=1, activations=["Relu", "Relu"])
    build(out, "rnn_tanh", "RNN", 3, 2, 3, 4, states=True)


if __name__ == "__main__":
    main()
