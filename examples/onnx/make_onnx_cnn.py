#!/usr/bin/python3
"""Builds a small real CNN as an ONNX model with python3-onnx, plus an input
and the expected output computed independently with numpy.

    input 1x3x32x32 (NCHW)
    conv 3x3 (3->16, pad 1) -> Relu -> MaxPool 2x2
    -> conv 3x3 (16->32, pad 1) -> BatchNormalization -> Relu
    -> conv 3x3 depthwise (32, group 32, pad 1) -> Clip [0, 6]
    -> GlobalAveragePool -> Flatten -> Gemm (32->10) -> Softmax

Usage: make_onnx_cnn.py --out-dir DIR [--seed N]
Writes DIR/cnn.onnx, DIR/cnn_input.npy, DIR/cnn_expected.npy and an ONNX test
directory DIR/test_data_set_0 (input_0.pb, output_0.pb).
"""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def conv2d(x, w, b, pad, group=1):
    n, c, h, wd = x.shape
    oc, icg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = h + 2 * pad - kh + 1, wd + 2 * pad - kw + 1
    out = np.zeros((n, oc, oh, ow), np.float64)
    ocg = oc // group
    for o in range(oc):
        g = o // ocg
        for i in range(icg):
            for y in range(kh):
                for z in range(kw):
                    out[:, o] += w[o, i, y, z] * xp[:, g * icg + i, y:y + oh, z:z + ow]
        out[:, o] += b[o]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    f32 = np.float32
    w1 = (rng.standard_normal((16, 3, 3, 3)) * 0.3).astype(f32)
    b1 = (rng.standard_normal(16) * 0.1).astype(f32)
    w2 = (rng.standard_normal((32, 16, 3, 3)) * 0.1).astype(f32)
    b2 = (rng.standard_normal(32) * 0.1).astype(f32)
    scale = (1 + 0.1 * rng.standard_normal(32)).astype(f32)
    bias = (0.1 * rng.standard_normal(32)).astype(f32)
    mean = (0.1 * rng.standard_normal(32)).astype(f32)
    var = (1 + 0.1 * rng.random(32)).astype(f32)
    w3 = (rng.standard_normal((32, 1, 3, 3)) * 0.3).astype(f32)
    b3 = (rng.standard_normal(32) * 0.1).astype(f32)
    wf = (rng.standard_normal((10, 32)) * 0.3).astype(f32)
    bf = (rng.standard_normal(10) * 0.1).astype(f32)
    eps = 1e-5

    inits = [numpy_helper.from_array(a, n) for a, n in [
        (w1, "w1"), (b1, "b1"), (w2, "w2"), (b2, "b2"), (scale, "bn_scale"),
        (bias, "bn_bias"), (mean, "bn_mean"), (var, "bn_var"), (w3, "w3"),
        (b3, "b3"), (wf, "fc_w"), (bf, "fc_b"),
        (np.array(0, f32), "clip_lo"), (np.array(6, f32), "clip_hi")]]
    nodes = [
        helper.make_node("Conv", ["image", "w1", "b1"], ["c1"], name="conv1",
                         kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("MaxPool", ["r1"], ["p1"], name="pool1",
                         kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Conv", ["p1", "w2", "b2"], ["c2"], name="conv2",
                         kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization",
                         ["c2", "bn_scale", "bn_bias", "bn_mean", "bn_var"],
                         ["n2"], name="bn2", epsilon=eps),
        helper.make_node("Relu", ["n2"], ["r2"], name="relu2"),
        helper.make_node("Conv", ["r2", "w3", "b3"], ["c3"], name="dwconv3",
                         kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=32),
        helper.make_node("Clip", ["c3", "clip_lo", "clip_hi"], ["r3"], name="relu6"),
        helper.make_node("GlobalAveragePool", ["r3"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "fc_w", "fc_b"], ["logits"], name="fc",
                         transB=1),
        helper.make_node("Softmax", ["logits"], ["probs"], name="softmax", axis=1),
    ]
    graph = helper.make_graph(
        nodes, "small_cnn",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 32, 32])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, [1, 10])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="nnapi-mlir examples/onnx")
    model.ir_version = 7
    onnx.checker.check_model(model)

    x = rng.standard_normal((1, 3, 32, 32)).astype(f32)
    # Independent reference in float64.
    h = np.maximum(conv2d(x.astype(np.float64), w1, b1, 1), 0)
    h = h.reshape(1, 16, 16, 2, 16, 2).max(axis=(3, 5))
    h = conv2d(h, w2, b2, 1)
    h = (h - mean[None, :, None, None]) / np.sqrt(var[None, :, None, None] + eps)
    h = np.maximum(h * scale[None, :, None, None] + bias[None, :, None, None], 0)
    h = np.clip(conv2d(h, w3, b3, 1, group=32), 0, 6)
    h = h.mean(axis=(2, 3))
    logits = h @ wf.T.astype(np.float64) + bf
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    y = (e / e.sum(axis=1, keepdims=True)).astype(f32)

    os.makedirs(args.out_dir, exist_ok=True)
    onnx.save(model, os.path.join(args.out_dir, "cnn.onnx"))
    np.save(os.path.join(args.out_dir, "cnn_input.npy"), x)
    np.save(os.path.join(args.out_dir, "cnn_expected.npy"), y)
    data = os.path.join(args.out_dir, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    with open(os.path.join(data, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "image").SerializeToString())
    with open(os.path.join(data, "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(y, "probs").SerializeToString())


if __name__ == "__main__":
    main()
