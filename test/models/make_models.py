#!/usr/bin/python3
"""Real architectures at their published layer shapes, with random weights
(numpy.random.RandomState, deterministic), each written as an exporter
writes it at opset 11 and at opset 17, with symbolic input dimensions:

  mobilenetv2   MobileNetV2 1.0 as torchvision exports it (batch norms folded
                into the convolutions): inverted residual blocks, depthwise
                convolutions (group = channels), ReLU6 as Clip(0, 6), linear
                1x1 projections, residual Adds, GlobalAveragePool, Flatten,
                Gemm to 1000 classes; input [batch, 3, H, W] (published 224).
  resnet18      ResNet-18 exported without constant folding: every
                BatchNormalization kept as a node, 7x7/2 stem, MaxPool 3x3/2,
                basic blocks with 1x1/2 downsample shortcuts,
                GlobalAveragePool, Flatten, Gemm; input [batch, 3, H, W]
                (published 224).
  distilbert    A DistilBERT-sized encoder (hidden 768, 12 heads, FFN 3072)
                with 2 layers instead of DistilBERT's 6, to keep the tests
                short, as PyTorch exports DistilBERT: MatMul + Add projections,
                head reshapes whose shapes come from Shape -> Gather ->
                Unsqueeze -> Concat on the dynamic input, q / sqrt(64),
                an additive attention mask [batch, seq] reshaped in the graph
                to [batch, 1, 1, seq], Softmax, GELU as
                x * (1 + Erf(x / sqrt 2)) * 0.5, and LayerNorm decomposed
                (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, Mul, Add)
                at opset 11 and as LayerNormalization at opset 17. Inputs:
                float embeddings [batch, seq, 768] (no embedding table, to keep
                the file small) and the mask.

Usage: make_models.py OUT_DIR [--image-size N]... [--batch N]
                      [--encoder-batch N] [--seq N] [NAME...]
NAME is e.g. mobilenetv2 (both opsets) or resnet18-opset17; all six by
default. Writes OUT_DIR/NAME-opsetK.onnx and
OUT_DIR/NAME-opsetK/test_data_set_<k>/{input_<i>,output_0}.pb (each
TensorProto named after its graph input or output, so that nnapi-run can
specialise the symbolic dimensions): random inputs at the given sizes
(default 112x112 images in a batch of 1; the encoder at batch 2, seq 16) and
the expected output from reference.py's float64 evaluation.
"""
import argparse
import math
import os
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

import reference

OPSETS = (11, 17)
# ONNX IR versions of the releases that introduced each opset, as exporters
# write them.
IR_VERSION = {11: 6, 17: 8}


class Builder:
    """Nodes, weights (initializers) and exporter-style Constant nodes of one
    graph, with the operators whose signature changed between opsets."""

    def __init__(self, opset, seed):
        self.opset, self.rng = opset, np.random.RandomState(seed)
        self.nodes, self.inits, self.count = [], [], {}

    def node(self, op, inputs, scope, **attrs):
        """Appends a node named `/scope/op`, as PyTorch names them, and
        returns its output."""
        k = self.count.get((scope, op), 0)
        self.count[(scope, op)] = k + 1
        name = f"/{scope}/{op}" + (f"_{k}" if k else "")
        out = f"{name}_output_0"
        self.nodes.append(helper.make_node(op, inputs, [out], name, **attrs))
        return out

    def const(self, value, dtype, scope):
        """A Constant node, as PyTorch writes shapes, indices and scalars."""
        t = numpy_helper.from_array(np.array(value, dtype))
        return self.node("Constant", [], scope, value=t)

    def weight(self, name, shape, std=None, low=None, high=None):
        """A float32 initializer, normal(0, std) or uniform(low, high)."""
        if std is not None:
            v = std * self.rng.standard_normal(shape)
        else:
            v = self.rng.uniform(low, high, shape)
        self.inits.append(numpy_helper.from_array(v.astype(np.float32), name))
        return name

    def unsqueeze(self, x, axes, scope):
        """Unsqueeze: axes an attribute before opset 13, an input from 13."""
        if self.opset < 13:
            return self.node("Unsqueeze", [x], scope, axes=axes)
        return self.node("Unsqueeze", [x, self.const(axes, np.int64, scope)],
                         scope)

    def clip(self, x, lo, hi, scope):
        """Clip: bounds as inputs from opset 11 (the oldest one written)."""
        return self.node("Clip", [x, self.const(lo, np.float32, scope),
                                  self.const(hi, np.float32, scope)], scope)

    def model(self, name, inputs, outputs, results):
        """The model whose graph outputs `outputs` are the node outputs
        `results` (renamed)."""
        renames = {r: o.name for r, o in zip(results, outputs)}
        for n in self.nodes:
            n.output[:] = [renames.get(o, o) for o in n.output]
        graph = helper.make_graph(self.nodes, name, inputs, outputs,
                                  self.inits)
        m = helper.make_model(
            graph, producer_name="nnapi-mlir test/models/make_models.py",
            opset_imports=[helper.make_opsetid("", self.opset)],
            ir_version=IR_VERSION[self.opset])
        onnx.checker.check_model(m, full_check=True)
        return m


def image_io():
    """The image models' graph inputs and outputs, as torchvision names them
    in its export examples."""
    x = helper.make_tensor_value_info("input", TensorProto.FLOAT,
                                      ["batch", 3, "H", "W"])
    y = helper.make_tensor_value_info("output", TensorProto.FLOAT,
                                      ["batch", 1000])
    return [x], [y]


def conv(b, x, cin, cout, k, stride, scope, group=1, bias=True, gain=1.0):
    """Conv with He-style normal weights scaled by `gain`."""
    fan_in = cin // group * k * k
    w = b.weight(f"{scope}.weight", (cout, cin // group, k, k),
                 std=gain / math.sqrt(fan_in))
    inputs = [x, w]
    if bias:
        inputs.append(b.weight(f"{scope}.bias", (cout,), std=0.1))
    return b.node("Conv", inputs, scope, dilations=[1, 1], group=group,
                  kernel_shape=[k, k], pads=[k // 2] * 4,
                  strides=[stride, stride])


def classifier(b, x, features, scope):
    """torchvision's head: pool, torch.flatten(x, 1), Linear to 1000."""
    x = b.node("GlobalAveragePool", [x], scope)
    x = b.node("Flatten", [x], scope, axis=1)
    w = b.weight(f"{scope}.weight", (1000, features),
                 std=1 / math.sqrt(features))
    bias = b.weight(f"{scope}.bias", (1000,), std=0.1)
    return b.node("Gemm", [x, w, bias], scope, alpha=1.0, beta=1.0, transB=1)


# MobileNetV2's inverted residual settings: expansion t, channels c,
# repeats n, first stride s (Sandler et al. 2018, table 2).
MOBILENETV2_SETTINGS = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2),
                        (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                        (6, 320, 1, 1)]


def mobilenet_v2(opset):
    b = Builder(opset, seed=2)

    def conv_relu6(x, cin, cout, k, stride, scope, group=1):
        y = conv(b, x, cin, cout, k, stride, scope, group, gain=math.sqrt(2))
        return b.clip(y, 0.0, 6.0, scope)

    x = conv_relu6("input", 3, 32, 3, 2, "features.0")
    cin, index = 32, 1
    for t, c, n, s in MOBILENETV2_SETTINGS:
        for r in range(n):
            stride, scope = s if r == 0 else 1, f"features.{index}.conv"
            hidden = cin * t
            y = x
            if t != 1:
                y = conv_relu6(y, cin, hidden, 1, 1, f"{scope}.0")
            y = conv_relu6(y, hidden, hidden, 3, stride, f"{scope}.dw",
                           group=hidden)
            y = conv(b, y, hidden, c, 1, 1, f"{scope}.project")
            if stride == 1 and cin == c:
                y = b.node("Add", [x, y], f"features.{index}")
            x, cin, index = y, c, index + 1
    x = conv_relu6(x, 320, 1280, 1, 1, f"features.{index}")
    y = classifier(b, x, 1280, "classifier.1")
    return b.model("mobilenetv2", *image_io(), [y])


def resnet18(opset):
    b = Builder(opset, seed=3)

    def bn(x, c, scope, gamma=(0.5, 1.0)):
        # Random statistics of order one: with He-scaled convolutions the
        # activations stay of order one.
        return b.node("BatchNormalization", [
            x, b.weight(f"{scope}.weight", (c,), low=gamma[0], high=gamma[1]),
            b.weight(f"{scope}.bias", (c,), std=0.1),
            b.weight(f"{scope}.running_mean", (c,), std=0.1),
            b.weight(f"{scope}.running_var", (c,), low=0.5, high=1.5)],
            scope, epsilon=1e-5, momentum=0.9)

    def conv_bn(x, cin, cout, k, stride, scope, bn_scope, **kw):
        y = conv(b, x, cin, cout, k, stride, scope, bias=False,
                 gain=math.sqrt(2))
        return bn(y, cout, bn_scope, **kw)

    x = conv_bn("input", 3, 64, 7, 2, "conv1", "bn1")
    x = b.node("Relu", [x], "relu")
    x = b.node("MaxPool", [x], "maxpool", kernel_shape=[3, 3], pads=[1] * 4,
               strides=[2, 2])
    cin = 64
    for layer, c in enumerate([64, 128, 256, 512], start=1):
        for block in range(2):
            scope = f"layer{layer}.{block}"
            stride = 2 if layer > 1 and block == 0 else 1
            y = conv_bn(x, cin, c, 3, stride, f"{scope}.conv1", f"{scope}.bn1")
            y = b.node("Relu", [y], f"{scope}.relu")
            # Smaller last gammas keep the residual sum from growing block
            # after block.
            y = conv_bn(y, c, c, 3, 1, f"{scope}.conv2", f"{scope}.bn2",
                        gamma=(0.2, 0.5))
            shortcut = x
            if stride != 1 or cin != c:
                shortcut = conv_bn(x, cin, c, 1, stride,
                                   f"{scope}.downsample.0",
                                   f"{scope}.downsample.1")
            x = b.node("Relu", [b.node("Add", [y, shortcut], scope)], scope)
            cin = c
    y = classifier(b, x, 512, "fc")
    return b.model("resnet18", *image_io(), [y])


HIDDEN, HEADS, FFN, LAYERS = 768, 12, 3072, 2


def distilbert(opset):
    b = Builder(opset, seed=4)
    head = HIDDEN // HEADS

    def linear(x, fin, fout, scope):
        w = b.weight(f"{scope}.weight", (fin, fout), std=0.04)
        bias = b.weight(f"{scope}.bias", (fout,), std=0.02)
        return b.node("Add", [b.node("MatMul", [x, w], scope), bias], scope)

    def layer_norm(x, scope):
        gamma = b.weight(f"{scope}.weight", (HIDDEN,), low=0.8, high=1.2)
        beta = b.weight(f"{scope}.bias", (HIDDEN,), std=0.02)
        if opset >= 17:
            return b.node("LayerNormalization", [x, gamma, beta], scope,
                          axis=-1, epsilon=1e-12)
        mean = b.node("ReduceMean", [x], scope, axes=[-1], keepdims=1)
        d = b.node("Sub", [x, mean], scope)
        var = b.node("ReduceMean", [
            b.node("Pow", [d, b.const(2.0, np.float32, scope)], scope)],
            scope, axes=[-1], keepdims=1)
        std = b.node("Sqrt", [
            b.node("Add", [var, b.const(1e-12, np.float32, scope)], scope)],
            scope)
        y = b.node("Mul", [b.node("Div", [d, std], scope), gamma], scope)
        return b.node("Add", [y, beta], scope)

    def dim(shape, i, scope):
        """Unsqueeze(Gather(shape, i)): one dimension as a 1-D tensor."""
        g = b.node("Gather", [shape, b.const(i, np.int64, scope)], scope,
                   axis=0)
        return b.unsqueeze(g, [0], scope)

    def concat(parts, scope):
        return b.node("Concat", [
            p if isinstance(p, str) else b.const(p, np.int64, scope)
            for p in parts], scope, axis=0)

    x = "inputs_embeds"
    for layer in range(LAYERS):
        scope = f"transformer.layer.{layer}.attention"
        # bs, q_length, dim = query.size(); k_length = key.size(1)
        shape = b.node("Shape", [x], scope)
        bs, k_length = dim(shape, 0, scope), dim(shape, 1, scope)
        # shape(t) = t.view(bs, -1, n_heads, dim_per_head).transpose(1, 2)
        heads_shape = concat([bs, [-1], [HEADS], [head]], scope)

        def heads(t):
            return b.node("Transpose", [b.node("Reshape", [t, heads_shape],
                                               scope)],
                          scope, perm=[0, 2, 1, 3])
        q = heads(linear(x, HIDDEN, HIDDEN, f"{scope}.q_lin"))
        k = heads(linear(x, HIDDEN, HIDDEN, f"{scope}.k_lin"))
        v = heads(linear(x, HIDDEN, HIDDEN, f"{scope}.v_lin"))
        q = b.node("Div", [q, b.const(math.sqrt(head), np.float32, scope)],
                   scope)
        k = b.node("Transpose", [k], scope, perm=[0, 1, 3, 2])
        scores = b.node("MatMul", [q, k], scope)
        # The additive mask, mask.view(bs, 1, 1, k_length).
        mask = b.node("Reshape", [
            "attention_mask", concat([bs, [1], [1], k_length], scope)], scope)
        scores = b.node("Add", [scores, mask], scope)
        weights = b.node("Softmax", [scores], scope,
                         axis=-1 if opset >= 13 else 3)
        context = b.node("MatMul", [weights, v], scope)
        # unshape(t) = t.transpose(1, 2).view(bs, -1, n_heads * dim_per_head)
        context = b.node("Reshape", [
            b.node("Transpose", [context], scope, perm=[0, 2, 1, 3]),
            concat([bs, [-1], [HIDDEN]], scope)], scope)
        attn = linear(context, HIDDEN, HIDDEN, f"{scope}.out_lin")
        scope = f"transformer.layer.{layer}"
        x = layer_norm(b.node("Add", [attn, x], scope),
                       f"{scope}.sa_layer_norm")
        h = linear(x, HIDDEN, FFN, f"{scope}.ffn.lin1")
        gelu = f"{scope}.ffn.activation"
        erf = b.node("Erf", [b.node("Div", [
            h, b.const(math.sqrt(2), np.float32, gelu)], gelu)], gelu)
        h = b.node("Mul", [
            b.node("Mul", [h, b.node("Add", [
                erf, b.const(1.0, np.float32, gelu)], gelu)], gelu),
            b.const(0.5, np.float32, gelu)], gelu)
        h = linear(h, FFN, HIDDEN, f"{scope}.ffn.lin2")
        x = layer_norm(b.node("Add", [h, x], scope),
                       f"{scope}.output_layer_norm")
    inputs = [
        helper.make_tensor_value_info("inputs_embeds", TensorProto.FLOAT,
                                      ["batch", "seq", HIDDEN]),
        helper.make_tensor_value_info("attention_mask", TensorProto.FLOAT,
                                      ["batch", "seq"])]
    outputs = [helper.make_tensor_value_info(
        "last_hidden_state", TensorProto.FLOAT, ["batch", "seq", HIDDEN])]
    return b.model("distilbert", inputs, outputs, [x])


ARCHITECTURES = {"mobilenetv2": mobilenet_v2, "resnet18": resnet18,
                 "distilbert": distilbert}


def test_inputs(arch, args, size, rng):
    """(graph input name, value) pairs at the test's sizes."""
    if arch == "distilbert":
        x = rng.standard_normal((args.encoder_batch, args.seq, HIDDEN))
        # BERT's additive mask: 0 for tokens, -10000 for padding at the end
        # of each sequence (a different length per batch row).
        mask = np.zeros((args.encoder_batch, args.seq))
        for row in range(args.encoder_batch):
            mask[row, args.seq - min(args.seq - 1, 2 + 3 * row):] = -10000.0
        return [("inputs_embeds", x.astype(np.float32)),
                ("attention_mask", mask.astype(np.float32))]
    x = rng.standard_normal((args.batch, 3, size, size))
    return [("input", x.astype(np.float32))]


def write_tensor(path, value, name):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(value, name).SerializeToString())


def write(args, arch, opset):
    """Writes one model and its test data sets; returns summary lines."""
    name = f"{arch}-opset{opset}"
    model = ARCHITECTURES[arch](opset)
    path = os.path.join(args.out_dir, name + ".onnx")
    onnx.save(model, path)
    params = sum(int(np.prod(t.dims)) for t in model.graph.initializer)
    lines = [f"{name}: {len(model.graph.node)} nodes, {params} parameters, "
             f"{os.path.getsize(path)} bytes"]
    sizes = [None] if arch == "distilbert" else args.image_size or [112]
    for k, size in enumerate(sizes):
        inputs = test_inputs(arch, args, size, np.random.RandomState(100 + k))
        start = time.monotonic()
        outputs = reference.evaluate(model, dict(inputs))
        seconds = time.monotonic() - start
        data = os.path.join(args.out_dir, name, f"test_data_set_{k}")
        os.makedirs(data, exist_ok=True)
        for i, (input_name, value) in enumerate(inputs):
            write_tensor(os.path.join(data, f"input_{i}.pb"), value,
                         input_name)
        for i, (out, value) in enumerate(zip(model.graph.output, outputs)):
            write_tensor(os.path.join(data, f"output_{i}.pb"),
                         value.astype(np.float32), out.name)
        shapes = ", ".join("x".join(map(str, v.shape)) for _, v in inputs)
        out = outputs[0]
        lines.append(
            f"  test_data_set_{k}: inputs {shapes}; reference {seconds:.1f}s; "
            f"output {'x'.join(map(str, out.shape))}, rms "
            f"{np.sqrt(np.mean(out ** 2)):.3g}, "
            f"max |y| {np.abs(out).max():.3g}")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out_dir")
    parser.add_argument("names", nargs="*", metavar="NAME")
    parser.add_argument("--image-size", type=int, action="append",
                        help="height and width of the image models' test "
                        "input; the k-th given writes test_data_set_k "
                        "(default: 112)")
    parser.add_argument("--batch", type=int, default=1,
                        help="batch of the image models' test input")
    parser.add_argument("--encoder-batch", type=int, default=2)
    parser.add_argument("--seq", type=int, default=16)
    args = parser.parse_intermixed_args()
    selected = []
    for name in args.names or list(ARCHITECTURES):
        arch, _, opset = name.partition("-opset")
        if arch not in ARCHITECTURES or opset not in ("", *map(str, OPSETS)):
            parser.error(f"unknown model '{name}' (architectures: "
                         f"{', '.join(ARCHITECTURES)}; opsets {OPSETS})")
        selected += [(arch, int(opset))] if opset else [
            (arch, o) for o in OPSETS]
    os.makedirs(args.out_dir, exist_ok=True)
    for arch, opset in selected:
        print(write(args, arch, opset), flush=True)


if __name__ == "__main__":
    main()
