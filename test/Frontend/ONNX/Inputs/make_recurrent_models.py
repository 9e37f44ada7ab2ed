#!/usr/bin/python3
"""Writes RNN, GRU and LSTM models beyond ONNX's node tests (which feed the
weights as runtime inputs and cover one direction): constant weights,
reverse and bidirectional directions, sequence_lens shorter than the
sequence (as a constant and at run time), initial states, layout 1, clip,
linear_before_reset, input_forget, peepholes and non-default activations
with their alpha and beta. Expected outputs come from the reference below:
numpy in float64, one batch entry at a time over its own length, the
equations of ONNX's operator documentation. ONNX Runtime 1.30 agrees with
it on every model written here (checked with ../shared/tools/ort).

Usage: make_recurrent_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from testdata import save

DEFAULTS = {  # name: (alpha, beta) defaults
    "affine": (1.0, 0.0), "leakyrelu": (0.01, None),
    "thresholdedrelu": (1.0, None), "scaledtanh": (1.0, 1.0),
    "hardsigmoid": (0.2, 0.5), "elu": (1.0, None),
}


def activation(name, x, alpha, beta):
    name = name.lower()
    a, b = DEFAULTS.get(name, (None, None))
    a = a if alpha is None else alpha
    b = b if beta is None else beta
    if name == "relu":
        return np.maximum(x, 0)
    if name == "tanh":
        return np.tanh(x)
    if name == "sigmoid":
        return 1 / (1 + np.exp(-x))
    if name == "affine":
        return a * x + b
    if name == "leakyrelu":
        return np.where(x >= 0, x, a * x)
    if name == "thresholdedrelu":
        return np.where(x > a, x, 0)
    if name == "scaledtanh":
        return a * np.tanh(b * x)
    if name == "hardsigmoid":
        return np.clip(a * x + b, 0, 1)
    if name == "elu":
        return np.where(x >= 0, x, a * (np.exp(x) - 1))
    if name == "softsign":
        return x / (1 + np.abs(x))
    if name == "softplus":
        return np.log(1 + np.exp(x))
    raise ValueError(name)


def functions(kind, directions, names, alphas, betas):
    """Per direction, the list of (name, alpha, beta): alphas and betas go,
    in order, to the functions that read them."""
    per = {"RNN": 1, "GRU": 2, "LSTM": 3}[kind]
    if names is None:
        names = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"],
                 "LSTM": ["Sigmoid", "Tanh", "Tanh"]}[kind] * directions
    alphas, betas = list(alphas or []), list(betas or [])
    out = []
    for n in names:
        a = b = None
        key = n.lower()
        if key in ("affine", "leakyrelu", "thresholdedrelu", "scaledtanh",
                   "hardsigmoid", "elu") and alphas:
            a = alphas.pop(0)
        if key in ("affine", "scaledtanh", "hardsigmoid") and betas:
            b = betas.pop(0)
        out.append((n, a, b))
    return [out[d * per:(d + 1) * per] for d in range(directions)]


def reference(kind, X, W, R, B=None, lens=None, h0=None, c0=None, P=None,
              direction="forward", names=None, alphas=None, betas=None,
              clip=None, lbr=0, input_forget=0, layout=0):
    X = X.astype(np.float64)
    if layout:
        X = X.transpose(1, 0, 2)
        h0 = None if h0 is None else h0.transpose(1, 0, 2)
        c0 = None if c0 is None else c0.transpose(1, 0, 2)
    T, N, _ = X.shape
    D = 2 if direction == "bidirectional" else 1
    H = R.shape[2]
    acts = functions(kind, D, names, alphas, betas)
    Y = np.zeros((T, D, N, H))
    Yh = np.zeros((D, N, H))
    Yc = np.zeros((D, N, H))

    def f(d, i, v):
        if clip is not None:
            v = np.clip(v, -clip, clip)
        n, a, b = acts[d][i]
        return activation(n, v, a, b)

    for d in range(D):
        rev = direction == "reverse" or d == 1
        w, r = W[d].astype(np.float64), R[d].astype(np.float64)
        g = w.shape[0]
        wb = np.zeros(g) if B is None else B[d, :g].astype(np.float64)
        rb = np.zeros(g) if B is None else B[d, g:].astype(np.float64)
        for n in range(N):
            length = T if lens is None else int(lens[n])
            h = np.zeros(H) if h0 is None else h0[d, n].astype(np.float64)
            c = np.zeros(H) if c0 is None else c0[d, n].astype(np.float64)
            steps = range(length - 1, -1, -1) if rev else range(length)
            for t in steps:
                x = X[t, n]
                if kind == "RNN":
                    h = f(d, 0, w @ x + r @ h + wb + rb)
                elif kind == "GRU":
                    xz, xr, xh = np.split(w @ x + wb, 3)
                    rz, rr, rh = np.split(r, 3)
                    bz, br, bh = np.split(rb, 3)
                    z = f(d, 0, xz + rz @ h + bz)
                    rg = f(d, 0, xr + rr @ h + br)
                    if lbr:
                        cand = f(d, 1, xh + rg * (rh @ h + bh))
                    else:
                        cand = f(d, 1, xh + rh @ (rg * h) + bh)
                    h = (1 - z) * cand + z * h
                else:
                    gi, go, gf, gc = np.split(w @ x + r @ h + wb + rb, 4)
                    p = np.zeros(3 * H) if P is None else P[d].astype(np.float64)
                    pi, po, pf = np.split(p, 3)
                    i = f(d, 0, gi + pi * c)
                    fg = 1 - i if input_forget else f(d, 0, gf + pf * c)
                    c = fg * c + i * f(d, 1, gc)
                    o = f(d, 0, go + po * c)
                    h = o * f(d, 2, c)
                Y[t, d, n] = h
            Yh[d, n] = h
            Yc[d, n] = c
    if layout:
        return Y.transpose(2, 0, 1, 3), Yh.transpose(1, 0, 2), Yc.transpose(1, 0, 2)
    return Y, Yh, Yc


def build(out, name, kind, T, N, I, H, direction="forward", const_weights=True,
          bias=True, lens=None, runtime_lens=False, states=False,
          peepholes=False, layout=0, dtype=np.float32, seed=0, **attrs):
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
    outputs = [helper.make_tensor_value_info(n, elem, list(v.shape))
               for n, v in expected]
    g = helper.make_graph([node], name, inputs, outputs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)])
    m.ir_version = 7
    onnx.checker.check_model(m)
    save(out, name, m, feeds, [(n, v.astype(dtype)) for n, v in expected])


def bad(out, name, kind, T=2, N=1, I=2, H=3, W_rows=None, lens=None,
        h0_shape=None, **attrs):
    """A model the importer must refuse with a clear error."""
    G = {"RNN": 1, "GRU": 3, "LSTM": 4}[kind]
    f = TensorProto.FLOAT
    inits = [numpy_helper.from_array(
                 np.zeros((1, W_rows or G * H, I), np.float32), "W"),
             numpy_helper.from_array(np.zeros((1, G * H, H), np.float32), "R")]
    inputs = [helper.make_tensor_value_info("X", f, [T, N, I])]
    names = ["X", "W", "R"]
    if lens is not None:
        inits.append(numpy_helper.from_array(np.array(lens, np.int32),
                                             "sequence_lens"))
        names += ["", "sequence_lens"]
    if h0_shape is not None:
        names += [""] * (5 - len(names)) + ["initial_h"]
        inputs.append(helper.make_tensor_value_info("initial_h", f, h0_shape))
    node = helper.make_node(kind, names, ["", "Y_h"], name=name,
                            hidden_size=H, **attrs)
    g = helper.make_graph([node], name, inputs,
                          [helper.make_tensor_value_info("Y_h", f, [1, N, H])],
                          inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)])
    m.ir_version = 7
    onnx.save(m, os.path.join(out, name + ".onnx"))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    bad(out, "bad_direction", "RNN", direction="sideways")
    bad(out, "bad_activation", "LSTM", activations=["Sigmoid", "Gelu", "Tanh"])
    bad(out, "bad_activation_count", "LSTM", activations=["Sigmoid", "Tanh"])
    bad(out, "bad_clip", "GRU", clip=-1.0)
    bad(out, "bad_lens", "RNN", N=2, lens=[2, 5])
    bad(out, "bad_weights", "GRU", W_rows=7)
    bad(out, "bad_state", "RNN", N=2, h0_shape=[1, 3, 3])
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


if __name__ == "__main__":
    main()
