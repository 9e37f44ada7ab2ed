#!/usr/bin/python3
"""Writes the end-to-end benchmark models as ONNX files with python3-onnx.

    mobilenetv2  MobileNetV2's stem and first three stages at 224x224:
                 conv 3x3/2 -> 112x112x32, inverted residual blocks (1x1
                 expand, 3x3 depthwise, 1x1 project, residual adds) down to
                 28x28x32, a 1x1 head to 1280, global average pool, Gemm to
                 1000, Softmax. BatchNormalization after every conv, Clip
                 [0, 6] as ReLU6.
    resnet18     ResNet-18's stem and first two stages at 224x224: conv 7x7/2
                 + BN + ReLU, max pool 3x3/2 -> 56x56x64, two basic blocks,
                 a strided block with a 1x1 projection shortcut to 28x28x128
                 and one more block, global average pool, Gemm to 1000.
    mobilenetv2_qdq  mobilenetv2 in ONNX's QDQ format (int8 per-channel
                 weights with batch normalization folded in, uint8
                 activations, int32 biases, quantized residual adds), float
                 logits: what quantization tools write for phone NPUs.
    detection    A text detector in the style of PP-OCR's DB network at
                 320x320: a MobileNetV3-like backbone (hard-swish, depthwise
                 blocks with squeeze-and-excitation) to 1/32, a feature
                 pyramid (1x1 lateral convs, nearest Resize x2 and Add, 3x3
                 convs, Resize to 1/4, Concat) and a probability head (conv,
                 two 2x2 ConvTranspose, Sigmoid) giving 1x1x320x320.

Each model gets DIR/NAME/model.onnx and DIR/NAME/test_data_set_0/input_0.pb
(a seeded random input); reference outputs come from ONNX Runtime
(benchmarks/ort_compare.py writes them), so this script computes none.

Usage: make_bench_models.py --out-dir DIR [--seed N]
"""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class Graph:
    def __init__(self, rng):
        self.rng = rng
        self.nodes, self.inits = [], []
        self.count = 0

    def name(self, prefix):
        self.count += 1
        return f"{prefix}{self.count}"

    def const(self, array, prefix="w"):
        n = self.name(prefix)
        self.inits.append(numpy_helper.from_array(array.astype(np.float32), n))
        return n

    def node(self, op, inputs, **attrs):
        out = self.name(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out

    def conv(self, x, cin, cout, k, stride=1, group=1, bn=True):
        fan_in = cin // group * k * k
        w = self.rng.standard_normal((cout, cin // group, k, k)) * np.sqrt(2.0 / fan_in)
        b = self.rng.standard_normal(cout) * 0.01
        y = self.node("Conv", [x, self.const(w), self.const(b, "b")],
                      kernel_shape=[k, k], strides=[stride, stride],
                      pads=[k // 2] * 4, group=group)
        if bn:
            scale = 1 + 0.1 * self.rng.standard_normal(cout)
            shift = 0.1 * self.rng.standard_normal(cout)
            mean = 0.1 * self.rng.standard_normal(cout)
            var = 1 + 0.1 * self.rng.random(cout)
            y = self.node("BatchNormalization",
                          [y, self.const(scale, "g"), self.const(shift, "beta"),
                           self.const(mean, "m"), self.const(var, "v")],
                          epsilon=1e-5)
        return y

    def relu6(self, x):
        return self.node("Clip", [x, self.const(np.array(0.0), "lo"),
                                  self.const(np.array(6.0), "hi")])

    def head(self, x, channels, classes, softmax):
        y = self.node("GlobalAveragePool", [x])
        y = self.node("Flatten", [y], axis=1)
        w = self.rng.standard_normal((classes, channels)) * np.sqrt(1.0 / channels)
        y = self.node("Gemm", [y, self.const(w), self.const(np.zeros(classes), "b")],
                      transB=1)
        return self.node("Softmax", [y], axis=1) if softmax else y

    def hardswish(self, x):
        return self.node("HardSwish", [x])

    def model(self, x, y, classes, size=224, out_shape=None, opset=13):
        graph = helper.make_graph(
            self.nodes, "bench",
            [helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, 3, size, size])],
            [helper.make_tensor_value_info(y, TensorProto.FLOAT,
                                           out_shape or [1, classes])],
            self.inits)
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
        m.ir_version = 8
        onnx.checker.check_model(m)
        return m


def mobilenetv2(rng):
    g = Graph(rng)
    x = g.relu6(g.conv("input", 3, 32, 3, stride=2))
    # (expansion, output channels, repeats, first stride)
    c = 32
    for t, cout, n, s in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2)]:
        for i in range(n):
            stride = s if i == 0 else 1
            hidden = c * t
            y = x if t == 1 else g.relu6(g.conv(x, c, hidden, 1))
            y = g.relu6(g.conv(y, hidden, hidden, 3, stride=stride, group=hidden))
            y = g.conv(y, hidden, cout, 1)
            x = g.node("Add", [x, y]) if stride == 1 and c == cout else y
            c = cout
    x = g.relu6(g.conv(x, c, 1280, 1))
    return g.model("input", g.head(x, 1280, 1000, softmax=True), 1000)


def resnet18(rng):
    g = Graph(rng)
    x = g.node("Relu", [g.conv("input", 3, 64, 7, stride=2)])
    x = g.node("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2], pads=[1] * 4)
    c = 64
    for cout, stride in [(64, 1), (64, 1), (128, 2), (128, 1)]:
        y = g.node("Relu", [g.conv(x, c, cout, 3, stride=stride)])
        y = g.conv(y, cout, cout, 3)
        shortcut = x if stride == 1 and c == cout else g.conv(x, c, cout, 1, stride=stride)
        x = g.node("Relu", [g.node("Add", [y, shortcut])])
        c = cout
    return g.model("input", g.head(x, c, 1000, softmax=False), 1000)


def detection(rng):
    g = Graph(rng)
    x = g.hardswish(g.conv("input", 3, 16, 3, stride=2))
    # (kernel, expansion, output channels, squeeze-excite, stride)
    blocks = [(3, 16, 16, True, 2), (3, 64, 24, False, 2), (3, 72, 24, False, 1),
              (5, 72, 40, True, 2), (5, 120, 40, True, 1), (3, 240, 80, False, 2),
              (3, 200, 80, False, 1), (3, 480, 112, True, 1), (5, 672, 160, True, 1)]
    c, features = 16, []
    for i, (k, hidden, cout, se, stride) in enumerate(blocks):
        if stride == 2 and i:
            features.append((x, c))  # the last map of each resolution
        y = g.hardswish(g.conv(x, c, hidden, 1))
        y = g.hardswish(g.conv(y, hidden, hidden, k, stride=stride, group=hidden))
        if se:
            s = g.node("ReduceMean", [y], axes=[2, 3], keepdims=1)
            s = g.node("Relu", [g.conv(s, hidden, hidden // 4, 1, bn=False)])
            s = g.node("HardSigmoid", [g.conv(s, hidden // 4, hidden, 1, bn=False)],
                       alpha=0.2, beta=0.5)
            y = g.node("Mul", [y, s])
        y = g.conv(y, hidden, cout, 1)
        x = g.node("Add", [x, y]) if stride == 1 and c == cout else y
        c = cout
    features.append((x, c))  # 1/4, 1/8, 1/16, 1/32
    lateral = [g.conv(f, fc, 96, 1, bn=False) for f, fc in features]
    top = lateral[-1]
    merged = [top]
    for lat in reversed(lateral[:-1]):
        up = g.node("Resize", [top, "", g.const(np.array([1, 1, 2, 2]), "scale")],
                    mode="nearest")
        top = g.node("Add", [lat, up])
        merged.insert(0, top)
    outs = []
    for i, m in enumerate(merged):
        y = g.conv(m, 96, 24, 3, bn=False)
        if i:
            factor = float(2 ** i)
            y = g.node("Resize", [y, "", g.const(np.array([1, 1, factor, factor]),
                                                 "scale")], mode="nearest")
        outs.append(y)
    y = g.node("Concat", outs, axis=1)
    y = g.node("Relu", [g.conv(y, 96, 24, 3)])
    for cout in (24, 1):
        w = rng.standard_normal((24, cout, 2, 2)) * np.sqrt(2.0 / 24)
        y = g.node("ConvTranspose", [y, g.const(w), g.const(np.zeros(cout), "b")],
                   kernel_shape=[2, 2], strides=[2, 2])
        if cout == 24:
            y = g.node("Relu", [y])
    y = g.node("Sigmoid", [y])
    return g.model("input", y, 1, size=320, out_shape=[1, 1, 320, 320], opset=14)


class QdqGraph(Graph):
    """A graph in ONNX's QDQ format, as quantization tools write it: uint8
    activations between QuantizeLinear / DequantizeLinear pairs, int8
    weights per output channel (symmetric), int32 biases at input scale x
    weight scale. Batch normalization is folded into the weights first, as
    those tools do. Activation ranges are fixed per kind (ReLU6 outputs
    [0, 6], linear outputs [-8, 8]) instead of calibrated: both runtimes
    compute the same quantized model either way."""

    def u8(self, array):
        return numpy_helper.from_array(np.asarray(array, np.uint8),
                                       self.name("zp"))

    def qdq(self, x, lo, hi):
        """x -> Q -> DQ with the uint8 parameters of range [lo, hi]; returns
        the DQ output and its (scale, zero point) names."""
        scale = (hi - lo) / 255.0
        zp = int(round(-lo / scale))
        s = self.const(np.array(scale), "s")
        z = self.u8(zp)
        self.inits.append(z)
        self.scales[x] = scale
        q = self.node("QuantizeLinear", [x, s, z.name])
        y = self.node("DequantizeLinear", [q, s, z.name])
        self.scales[y] = scale
        return y

    def dq_weights(self, w, axis=0):
        """DequantizeLinear of w as int8, symmetric per channel of `axis`."""
        moved = np.moveaxis(w, axis, 0).reshape(w.shape[axis], -1)
        scale = np.maximum(np.abs(moved).max(axis=1), 1e-8) / 127.0
        shape = [1] * w.ndim
        shape[axis] = -1
        q = np.clip(np.round(w / scale.reshape(shape)), -127, 127).astype(np.int8)
        qn = self.name("wq")
        self.inits.append(numpy_helper.from_array(q, qn))
        s = self.const(scale, "ws")
        z = self.name("wz")
        self.inits.append(numpy_helper.from_array(
            np.zeros(len(scale), np.int8), z))
        return self.node("DequantizeLinear", [qn, s, z], axis=axis), scale

    def dq_bias(self, b, scale):
        q = np.round(b / scale).astype(np.int32)
        qn = self.name("bq")
        self.inits.append(numpy_helper.from_array(q, qn))
        return self.node("DequantizeLinear", [qn, self.const(scale, "bs")],
                         axis=0)

    def qconv(self, x, cin, cout, k, stride=1, group=1, relu6=True):
        fan_in = cin // group * k * k
        w = self.rng.standard_normal((cout, cin // group, k, k)) * np.sqrt(2.0 / fan_in)
        b = self.rng.standard_normal(cout) * 0.01
        # Folded batch normalization.
        gamma = 1 + 0.1 * self.rng.standard_normal(cout)
        beta = 0.1 * self.rng.standard_normal(cout)
        mean = 0.1 * self.rng.standard_normal(cout)
        var = 1 + 0.1 * self.rng.random(cout)
        f = gamma / np.sqrt(var + 1e-5)
        w = w * f.reshape(-1, 1, 1, 1)
        b = (b - mean) * f + beta
        wd, ws = self.dq_weights(w)
        bd = self.dq_bias(b, self.scales[x] * ws)
        y = self.node("Conv", [x, wd, bd], kernel_shape=[k, k],
                      strides=[stride, stride], pads=[k // 2] * 4, group=group)
        if relu6:
            y = self.relu6(y)
            return self.qdq(y, 0.0, 6.0)
        return self.qdq(y, -8.0, 8.0)


def mobilenetv2_qdq(rng):
    """mobilenetv2's architecture in QDQ form (int8 per-channel weights,
    uint8 activations, residual adds of quantized tensors), float logits."""
    g = QdqGraph(rng)
    g.scales = {}
    x = g.qdq("input", -4.0, 4.0)
    x = g.qconv(x, 3, 32, 3, stride=2)
    c = 32
    for t, cout, n, s in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2)]:
        for i in range(n):
            stride = s if i == 0 else 1
            hidden = c * t
            y = x if t == 1 else g.qconv(x, c, hidden, 1)
            y = g.qconv(y, hidden, hidden, 3, stride=stride, group=hidden)
            y = g.qconv(y, hidden, cout, 1, relu6=False)
            if stride == 1 and c == cout:
                x = g.qdq(g.node("Add", [x, y]), -8.0, 8.0)
            else:
                x = y
            c = cout
    x = g.qconv(x, c, 1280, 1)
    x = g.qdq(g.node("GlobalAveragePool", [x]), 0.0, 6.0)
    x = g.node("Flatten", [x], axis=1)
    w = rng.standard_normal((1000, 1280)) * np.sqrt(1.0 / 1280)
    wd, ws = g.dq_weights(w)
    bd = g.dq_bias(np.zeros(1000), g.scales[x] * ws if x in g.scales else
                   (6.0 / 255) * ws)
    y = g.node("Gemm", [x, wd, bd], transB=1)
    return g.model("input", y, 1000)


MODELS = [("mobilenetv2", mobilenetv2, 224), ("resnet18", resnet18, 224),
          ("detection", detection, 320),
          ("mobilenetv2_qdq", mobilenetv2_qdq, 224)]


def write_model(out_dir, name, seed=3):
    """OUT_DIR/NAME/model.onnx and its seeded random input
    OUT_DIR/NAME/test_data_set_0/input_0.pb; returns OUT_DIR/NAME. Other
    scripts (qdq_vs_ort.py, the tests) write the models through this."""
    build, size = {n: (b, s) for n, b, s in MODELS}[name]
    rng = np.random.default_rng(seed)
    d = os.path.join(out_dir, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    onnx.save(build(rng), os.path.join(d, "model.onnx"))
    x = rng.standard_normal((1, 3, size, size)).astype(np.float32)
    t = numpy_helper.from_array(x, "input")
    with open(os.path.join(d, "test_data_set_0", "input_0.pb"), "wb") as f:
        f.write(t.SerializeToString())
    return d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    for name, _, _ in MODELS:
        d = write_model(args.out_dir, name, args.seed)
        print(f"wrote {d}/model.onnx")


if __name__ == "__main__":
    main()
