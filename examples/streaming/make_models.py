#!/usr/bin/python3
"""Builds three small sequence models with python3-onnx, the shapes of what
phones run on audio and text, and their expected outputs from numpy:

- vad.onnx, a streaming voice-activity detector: a 512-sample chunk and the
  sample rate in, a convolutional front end chosen by an If on the rate
  (16000 or 8000 Hz weights), two LSTM layers, a speech probability out;
  the LSTM state [2, 1, 64] (h and c) goes in and comes out, to be fed back.
- kws.onnx, a keyword spotter: an MLP over 490 features, its smoothed scores
  as state in and out, and a verifier that runs under an If only when a
  keyword is likely (both branches give [1, 1]).
- tagger.onnx, a bidirectional GRU tagger over 20 token embeddings.

For vad and kws it writes STEPS consecutive inputs and what each step gives
with the state fed back (NAME_stream*.npz: the inputs, the outputs of every
step; vad_audio.f32 the chunks raw, sr_16000.pb and sr_8000.pb the rates as
TensorProtos), for tagger one input and its output (tagger_data.npz).

Usage: make_models.py OUT_DIR [STEPS]
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rnn_reference import reference  # noqa: E402

F = TensorProto.FLOAT
CHUNK, HIDDEN, FRAMES = 512, 64, 31


def vi(name, shape, elem=F):
    return helper.make_tensor_value_info(name, elem, shape)


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def save(out, name, nodes, inputs, outputs, inits):
    g = helper.make_graph(nodes, name, inputs, outputs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)])
    m.ir_version = 7
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))


def conv1d(x, w, b, stride, pad):
    """x [C, L], w [O, C, K]: ONNX Conv in float64."""
    x = np.pad(x, ((0, 0), (pad, pad)))
    o, _, k = w.shape
    n = (x.shape[1] - k) // stride + 1
    cols = np.stack([x[:, i * stride:i * stride + k].ravel()
                     for i in range(n)], 1)
    return w.reshape(o, -1) @ cols + b[:, None]


def lstm_weights(rng, inputs):
    return ((rng.standard_normal((1, 4 * HIDDEN, inputs)) * 0.15).astype(np.float32),
            (rng.standard_normal((1, 4 * HIDDEN, HIDDEN)) * 0.15).astype(np.float32),
            (rng.standard_normal((1, 8 * HIDDEN)) * 0.1).astype(np.float32))


def vad(out, steps, rng):
    p = {}
    for rate in ("16k", "8k"):
        p["front_w_" + rate] = (rng.standard_normal((HIDDEN, 1, 32)) * 0.2).astype(np.float32)
        p["front_b_" + rate] = (rng.standard_normal(HIDDEN) * 0.1).astype(np.float32)
    p["enc_w"] = (rng.standard_normal((HIDDEN, HIDDEN, 3)) * 0.08).astype(np.float32)
    p["enc_b"] = (rng.standard_normal(HIDDEN) * 0.1).astype(np.float32)
    p["W1"], p["R1"], p["B1"] = lstm_weights(rng, HIDDEN)
    p["W2"], p["R2"], p["B2"] = lstm_weights(rng, HIDDEN)
    p["dec_w"] = (rng.standard_normal((1, HIDDEN)) * 0.3).astype(np.float32)
    p["dec_b"] = np.zeros(1, np.float32)

    def front(rate):
        return helper.make_graph(
            [helper.make_node("Conv", ["audio3", "front_w_" + rate,
                                       "front_b_" + rate], ["f_" + rate],
                              strides=[16])],
            "front_" + rate, [], [vi("f_" + rate, [1, HIDDEN, FRAMES])])

    nodes = [
        helper.make_node("Reshape", ["audio", "shape3"], ["audio3"]),
        helper.make_node("Equal", ["sr", "k16000"], ["is16k"]),
        helper.make_node("If", ["is16k"], ["feat"], then_branch=front("16k"),
                         else_branch=front("8k"), name="rate"),
        helper.make_node("Relu", ["feat"], ["feat_r"]),
        helper.make_node("Conv", ["feat_r", "enc_w", "enc_b"], ["enc"],
                         strides=[2], pads=[1, 1]),
        helper.make_node("Relu", ["enc"], ["enc_r"]),
        helper.make_node("Transpose", ["enc_r"], ["seq"], perm=[2, 0, 1]),
        helper.make_node("Split", ["h", "halves"], ["h1", "h2"], axis=0),
        helper.make_node("Split", ["c", "halves"], ["c1", "c2"], axis=0),
        helper.make_node("LSTM", ["seq", "W1", "R1", "B1", "", "h1", "c1"],
                         ["y1", "hn1", "cn1"], hidden_size=HIDDEN),
        helper.make_node("Squeeze", ["y1", "axis1"], ["seq2"]),
        helper.make_node("LSTM", ["seq2", "W2", "R2", "B2", "", "h2", "c2"],
                         ["", "hn2", "cn2"], hidden_size=HIDDEN),
        helper.make_node("Concat", ["hn1", "hn2"], ["hn"], axis=0),
        helper.make_node("Concat", ["cn1", "cn2"], ["cn"], axis=0),
        helper.make_node("Reshape", ["hn2", "shape2"], ["last"]),
        helper.make_node("Gemm", ["last", "dec_w", "dec_b"], ["logit"],
                         transB=1),
        helper.make_node("Sigmoid", ["logit"], ["prob"]),
    ]
    consts = [init("shape3", np.array([1, 1, CHUNK])),
              init("shape2", np.array([1, HIDDEN])),
              init("k16000", np.int64(16000)), init("halves", np.array([1, 1])),
              init("axis1", np.array([1]))]
    save(out, "vad", nodes,
         [vi("audio", [1, CHUNK]), vi("sr", [], TensorProto.INT64),
          vi("h", [2, 1, HIDDEN]), vi("c", [2, 1, HIDDEN])],
         [vi("prob", [1, 1]), vi("hn", [2, 1, HIDDEN]),
          vi("cn", [2, 1, HIDDEN])],
         consts + [init(k, v) for k, v in p.items()])

    def step(audio, rate, h, c):
        feat = conv1d(audio.reshape(1, CHUNK).astype(np.float64),
                      p["front_w_" + rate], p["front_b_" + rate], 16, 0)
        enc = np.maximum(conv1d(np.maximum(feat, 0), p["enc_w"], p["enc_b"],
                                2, 1), 0)
        seq = enc.T[:, None, :]  # [T, 1, 64]
        y1, hn1, cn1 = reference("LSTM", seq, p["W1"], p["R1"], p["B1"],
                                 h0=h[0:1], c0=c[0:1])
        _, hn2, cn2 = reference("LSTM", y1[:, 0], p["W2"], p["R2"], p["B2"],
                                h0=h[1:2], c0=c[1:2])
        logit = hn2.reshape(1, HIDDEN) @ p["dec_w"].T + p["dec_b"]
        return (1 / (1 + np.exp(-logit)), np.concatenate([hn1, hn2]),
                np.concatenate([cn1, cn2]))

    # Speech-like chunks: noise with a tone whose loudness changes.
    t = np.arange(CHUNK) / 16000.0
    chunks = np.stack([
        (0.3 * rng.standard_normal(CHUNK) +
         (k % 7) * 0.2 * np.sin(2 * np.pi * (200 + 40 * k) * t)).reshape(1, CHUNK)
        for k in range(steps)]).astype(np.float32)
    for rate, hz in (("16k", 16000), ("8k", 8000)):
        h = np.zeros((2, 1, HIDDEN))
        c = np.zeros((2, 1, HIDDEN))
        probs, hs, cs = [], [], []
        for k in range(steps):
            prob, h, c = step(chunks[k], rate, h, c)
            probs.append(prob)
            hs.append(h)
            cs.append(c)
        np.savez(os.path.join(out, "vad_stream_%s.npz" % rate),
                 audio=chunks, sr=np.int64(hz),
                 prob=np.array(probs, np.float32), hn=np.array(hs, np.float32),
                 cn=np.array(cs, np.float32))
        # The rate as nnapi-compile --input-value takes it.
        with open(os.path.join(out, "sr_%d.pb" % hz), "wb") as f:
            f.write(numpy_helper.from_array(np.array(hz, np.int64),
                                            "sr").SerializeToString())
    chunks.tofile(os.path.join(out, "vad_audio.f32"))


def kws(out, steps, rng):
    p = {"w1": (rng.standard_normal((490, 128)) * 0.05).astype(np.float32),
         "b1": (rng.standard_normal(128) * 0.1).astype(np.float32),
         "w2": (rng.standard_normal((128, 128)) * 0.1).astype(np.float32),
         "b2": (rng.standard_normal(128) * 0.1).astype(np.float32),
         "w3": (rng.standard_normal((128, 12)) * 0.4).astype(np.float32),
         "b3": (rng.standard_normal(12) * 0.1).astype(np.float32),
         "wv": (rng.standard_normal((128, 1)) * 0.2).astype(np.float32),
         "bv": np.zeros(1, np.float32)}
    verify = helper.make_graph([
        helper.make_node("Gemm", ["a2", "wv", "bv"], ["vlogit"]),
        helper.make_node("Sigmoid", ["vlogit"], ["v"])],
        "verify", [], [vi("v", [1, 1])])
    skip = helper.make_graph([
        helper.make_node("Constant", [], ["none"],
                         value=numpy_helper.from_array(
                             np.zeros((1, 1), np.float32)))],
        "skip", [], [vi("none", [1, 1])])
    nodes = [
        helper.make_node("Gemm", ["feats", "w1", "b1"], ["z1"]),
        helper.make_node("Relu", ["z1"], ["a1"]),
        helper.make_node("Gemm", ["a1", "w2", "b2"], ["z2"]),
        helper.make_node("Relu", ["z2"], ["a2"]),
        helper.make_node("Gemm", ["a2", "w3", "b3"], ["z3"]),
        helper.make_node("Softmax", ["z3"], ["p"], axis=1),
        helper.make_node("Mul", ["scores", "keep"], ["kept"]),
        helper.make_node("Mul", ["p", "take"], ["taken"]),
        helper.make_node("Add", ["kept", "taken"], ["scores_out"]),
        helper.make_node("ReduceMax", ["scores_out"], ["best"], keepdims=0),
        helper.make_node("Greater", ["best", "threshold"], ["likely"]),
        helper.make_node("If", ["likely"], ["verified"], then_branch=verify,
                         else_branch=skip, name="verifier"),
    ]
    consts = [init("keep", np.float32(0.7)), init("take", np.float32(0.3)),
              init("threshold", np.float32(0.3))]
    save(out, "kws", nodes, [vi("feats", [1, 490]), vi("scores", [1, 12])],
         [vi("scores_out", [1, 12]), vi("verified", [1, 1])],
         consts + [init(k, v) for k, v in p.items()])

    feats = rng.standard_normal((steps, 1, 490)).astype(np.float32)
    # Some steps look like a keyword: the features that drive class 3.
    for k in range(steps):
        if k % 5 >= 2:
            feats[k] += 1.5 * np.sign(p["w1"][:, :].sum(1))
    scores = np.zeros((1, 12))
    outs, verified = [], []
    for k in range(steps):
        a1 = np.maximum(feats[k].astype(np.float64) @ p["w1"] + p["b1"], 0)
        a2 = np.maximum(a1 @ p["w2"] + p["b2"], 0)
        z3 = a2 @ p["w3"] + p["b3"]
        e = np.exp(z3 - z3.max())
        scores = scores * np.float32(0.7) + (e / e.sum()) * np.float32(0.3)
        v = (1 / (1 + np.exp(-(a2 @ p["wv"] + p["bv"])))
             if scores.max() > np.float32(0.3) else np.zeros((1, 1)))
        outs.append(scores)
        verified.append(v)
    np.savez(os.path.join(out, "kws_stream.npz"), feats=feats,
             scores_out=np.array(outs, np.float32),
             verified=np.array(verified, np.float32))


def tagger(out, rng):
    T, E, H, TAGS = 20, 32, 32, 9
    W = (rng.standard_normal((2, 3 * H, E)) * 0.2).astype(np.float32)
    R = (rng.standard_normal((2, 3 * H, H)) * 0.2).astype(np.float32)
    B = (rng.standard_normal((2, 6 * H)) * 0.1).astype(np.float32)
    wo = (rng.standard_normal((2 * H, TAGS)) * 0.3).astype(np.float32)
    bo = (rng.standard_normal(TAGS) * 0.1).astype(np.float32)
    nodes = [
        helper.make_node("GRU", ["x", "W", "R", "B"], ["y"], hidden_size=H,
                         direction="bidirectional", linear_before_reset=1),
        helper.make_node("Transpose", ["y"], ["yt"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["yt", "flat"], ["feat"]),
        helper.make_node("Gemm", ["feat", "wo", "bo"], ["logits"]),
        helper.make_node("Softmax", ["logits"], ["tags"], axis=1),
    ]
    save(out, "tagger", nodes, [vi("x", [T, 1, E])], [vi("tags", [T, TAGS])],
         [init("W", W), init("R", R), init("B", B), init("wo", wo),
          init("bo", bo), init("flat", np.array([T, 2 * H]))])
    x = rng.standard_normal((T, 1, E)).astype(np.float32)
    y, _, _ = reference("GRU", x, W, R, B, direction="bidirectional", lbr=1)
    logits = y.transpose(0, 2, 1, 3).reshape(T, 2 * H) @ wo + bo
    e = np.exp(logits - logits.max(1, keepdims=True))
    np.savez(os.path.join(out, "tagger_data.npz"), x=x,
             tags=(e / e.sum(1, keepdims=True)).astype(np.float32))


def main():
    out = sys.argv[1]
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(7)
    vad(out, steps, rng)
    kws(out, steps, rng)
    tagger(out, rng)


if __name__ == "__main__":
    main()
