#!/usr/bin/python3
"""Whole networks for the TFLite tests and benchmarks, each written once
and emitted three ways: as a TFLite model (float32, float32 with float16
weights behind DEQUANTIZE, or int8 with per-channel convolution weights),
as the same network in ONNX (NCHW, for the layout-tax and ONNX Runtime
comparisons), and computed in numpy (float64; the int8 form quantizes
every tensor as TFLite does, so its reference is the quantized network's).

    net = Net(seed)
    x = net.input("image", image)           # NHWC float32 array
    h = net.conv(x, 16, 3, stride=2, act="RELU6")
    ...
    net.output(net.softmax(h), "scores")
    data = net.tflite("int8")               # bytes
    ref = net.reference("int8")             # [output arrays]

Activation ranges for int8 come from the float run on the given input (the
calibration a converter does with representative data).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tflite_builder import ModelBuilder  # noqa: E402
import tflite_reference as ref  # noqa: E402


class Node:
    def __init__(self, kind, inputs, value, **attrs):
        self.kind, self.inputs, self.value, self.attrs = kind, inputs, value, attrs
        self.name = None


def _q_range(v):
    lo, hi = min(float(v.min()), 0.0), max(float(v.max()), 0.0)
    if hi - lo < 1e-6:
        hi = lo + 1e-6
    scale = float(np.float32((hi - lo) / 255))
    zero = int(np.clip(round(-128 - lo / scale), -128, 127))
    return scale, zero


def _per_channel(w, axis):
    """Symmetric int8 weights with a scale per output channel `axis`."""
    moved = np.moveaxis(w, axis, 0).reshape(w.shape[axis], -1)
    scales = np.maximum(np.abs(moved).max(1), 1e-6) / 127
    shape = [1] * w.ndim
    shape[axis] = -1
    q = np.clip(np.round(w / scales.reshape(shape)), -127, 127).astype(np.int8)
    return q, scales.astype(np.float32)


class Net:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inputs, self.outputs = [], [], []

    # Building ---------------------------------------------------------------
    def _add(self, kind, inputs, value, **attrs):
        n = Node(kind, inputs, np.asarray(value, np.float64), **attrs)
        n.name = f"t{len(self.nodes)}_{kind}"
        self.nodes.append(n)
        return n

    def _weights(self, *shape, fan_in):
        bound = np.sqrt(3.0 / fan_in)
        return self.rng.uniform(-bound, bound, shape).astype(np.float32)

    def _bias(self, n):
        return self.rng.uniform(-0.1, 0.1, n).astype(np.float32)

    def input(self, name, array):
        n = self._add("input", [], array)
        n.name = name
        n.array = np.asarray(array, np.float32)
        self.inputs.append(n)
        return n

    def output(self, node, name):
        node.name = name
        self.outputs.append(node)
        return node

    def conv(self, x, cout, k, stride=1, act="NONE", padding="SAME"):
        cin = x.value.shape[3]
        w = self._weights(cout, k, k, cin, fan_in=k * k * cin)
        b = self._bias(cout)
        v = ref.conv2d(x.value, w, b, (stride, stride), padding=padding,
                       activation=act)
        return self._add("conv", [x], v, w=w, b=b, stride=stride, act=act,
                         padding=padding)

    def dw(self, x, k, stride=1, act="NONE"):
        c = x.value.shape[3]
        w = self._weights(1, k, k, c, fan_in=k * k)
        b = self._bias(c)
        v = ref.depthwise(x.value, w, b, (stride, stride), activation=act)
        return self._add("dw", [x], v, w=w, b=b, stride=stride, act=act)

    def tconv(self, x, cout, k, stride):
        n, h, wd, cin = x.value.shape
        w = self._weights(cout, k, k, cin, fan_in=k * k * cin)
        b = self._bias(cout)
        shape = (n, h * stride, wd * stride, cout)
        v = ref.transpose_conv(x.value, w, b, shape, (stride, stride))
        return self._add("tconv", [x], v, w=w, b=b, stride=stride,
                         shape=shape)

    def add(self, a, b, act="NONE"):
        return self._add("add", [a, b], ref.act(a.value + b.value, act),
                         act=act)

    def mean(self, x):
        return self._add("mean", [x], x.value.mean(axis=(1, 2), keepdims=True))

    def reshape(self, x, shape):
        return self._add("reshape", [x], x.value.reshape(shape),
                         shape=list(shape))

    def fc(self, x, units, act="NONE", gain=1.0):
        k = x.value.shape[-1]
        w = self._weights(units, k, fan_in=k) * np.float32(gain)
        b = self._bias(units)
        v = ref.act(x.value @ w.T.astype(np.float64) + b, act)
        return self._add("fc", [x], v, w=w, b=b, act=act)

    def softmax(self, x):
        return self._add("softmax", [x], ref.softmax(x.value))

    def logistic(self, x):
        return self._add("logistic", [x], 1 / (1 + np.exp(-x.value)))

    def resize(self, x, h, w):
        v = ref.resize(x.value, h, w, "bilinear", half_pixel=True)
        return self._add("resize", [x], v, size=(h, w))

    def pad(self, x, pads):
        v = np.pad(x.value, pads)
        return self._add("pad", [x], v, pads=[list(p) for p in pads])

    def concat(self, parts, axis):
        v = np.concatenate([p.value for p in parts], axis)
        return self._add("concat", list(parts), v, axis=axis)

    def lstm(self, x, hidden):
        """Batch-major [B, T, K] -> [B, T, hidden], TANH, peepholes."""
        bsz, _, k = x.value.shape
        w = [self._weights(hidden, k, fan_in=k) for _ in range(4)]
        r = [self._weights(hidden, hidden, fan_in=hidden) for _ in range(4)]
        bias = [self._bias(hidden) for _ in range(4)]
        peep = [self._bias(hidden) for _ in range(3)]
        zeros = np.zeros((bsz, hidden))
        v = ref.lstm(x.value, w, r, bias, zeros, zeros, peep)
        return self._add("lstm", [x], v, w=w, r=r, bias=bias, peep=peep,
                         hidden=hidden)

    def last_step(self, x):
        """[B, T, K] -> [B, K], the last time step (STRIDED_SLICE with
        shrink_axis_mask)."""
        return self._add("last_step", [x], x.value[:, -1, :])

    # numpy ------------------------------------------------------------------
    def reference(self, form="float32"):
        """The outputs as the network in `form` computes them."""
        if form != "int8":
            values = {}
            for n in self.nodes:
                w = n.attrs.get("w")
                if form == "float16" and w is not None and n.kind != "lstm":
                    n2 = self._recompute(n, values, f16=True)
                    values[n] = n2
                elif n.kind == "input":
                    values[n] = n.array.astype(np.float64)
                else:
                    values[n] = self._recompute(n, values)
            return [values[o] for o in self.outputs]
        return self._int8_reference()

    def _recompute(self, n, values, f16=False):
        x = [values[i] for i in n.inputs]
        a = n.attrs

        def wt(t):
            return t.astype(np.float16).astype(np.float32) if f16 else t
        if n.kind == "conv":
            return ref.conv2d(x[0], wt(a["w"]), wt(a["b"]),
                              (a["stride"],) * 2, padding=a["padding"],
                              activation=a["act"])
        if n.kind == "dw":
            return ref.depthwise(x[0], wt(a["w"]), wt(a["b"]),
                                 (a["stride"],) * 2, activation=a["act"])
        if n.kind == "tconv":
            return ref.transpose_conv(x[0], wt(a["w"]), wt(a["b"]), a["shape"],
                                      (a["stride"],) * 2)
        if n.kind == "fc":
            return ref.act(x[0] @ wt(a["w"]).T.astype(np.float64) +
                           wt(a["b"]), a["act"])
        if n.kind == "add":
            return ref.act(x[0] + x[1], a["act"])
        if n.kind == "mean":
            return x[0].mean(axis=(1, 2), keepdims=True)
        if n.kind == "reshape":
            return x[0].reshape(a["shape"])
        if n.kind == "softmax":
            return ref.softmax(x[0])
        if n.kind == "logistic":
            return 1 / (1 + np.exp(-x[0]))
        if n.kind == "resize":
            return ref.resize(x[0], *a["size"], "bilinear", half_pixel=True)
        if n.kind == "pad":
            return np.pad(x[0], a["pads"])
        if n.kind == "concat":
            return np.concatenate(x, a["axis"])
        if n.kind == "lstm":
            zeros = np.zeros((x[0].shape[0], a["hidden"]))
            return ref.lstm(x[0], a["w"], a["r"], a["bias"], zeros, zeros,
                            a["peep"])
        if n.kind == "last_step":
            return x[0][:, -1, :]
        raise ValueError(n.kind)

    def _qparams(self, n):
        if n.kind == "softmax":
            return 1.0 / 256, -128
        if n.kind in ("reshape", "pad"):
            return self._qparams(n.inputs[0])
        return _q_range(n.value)

    def _int8_reference(self):
        q = {}  # node -> int8 array
        for n in self.nodes:
            s, z = self._qparams(n)
            if n.kind == "input":
                q[n] = ref.quantize(n.array, s, z)
                continue
            x = [ref.dequantize(q[i], *self._qparams(i)) for i in n.inputs]
            a = n.attrs
            if n.kind in ("conv", "dw", "fc"):
                axis = {"conv": 0, "dw": 3, "fc": None}[n.kind]
                if axis is None:
                    ws = float(np.float32(max(np.abs(a["w"]).max(), 1e-6) / 127))
                    wq = np.clip(np.round(a["w"] / ws), -127, 127)
                    wd, bs = wq * ws, self._qparams(n.inputs[0])[0] * ws
                else:
                    wq, scales = _per_channel(a["w"], axis)
                    shape = [1] * wq.ndim
                    shape[axis] = -1
                    wd = wq * scales.reshape(shape).astype(np.float64)
                    bs = (self._qparams(n.inputs[0])[0] * scales).astype(
                        np.float32).astype(np.float64)
                bd = np.round(a["b"] / bs) * bs
                if n.kind == "conv":
                    v = ref.conv2d(x[0], wd, bd, (a["stride"],) * 2,
                                   padding=a["padding"], activation=a["act"])
                elif n.kind == "dw":
                    v = ref.depthwise(x[0], wd, bd, (a["stride"],) * 2,
                                      activation=a["act"])
                else:
                    v = ref.act(x[0] @ wd.T + bd, a["act"])
            else:
                vals = {i: xi for i, xi in zip(n.inputs, x)}
                v = self._recompute(n, vals)
            q[n] = ref.quantize(v, s, z)
        return [ref.dequantize(q[o], *self._qparams(o)) for o in self.outputs]

    # TFLite -----------------------------------------------------------------
    def tflite(self, form="float32"):
        b = ModelBuilder()
        t = {}
        quant = form == "int8"

        def qt(n):
            return ([self._qparams(n)[0]], [self._qparams(n)[1]])

        def tensor(n, shape=None):
            shape = list(shape or n.value.shape)
            if quant:
                return b.tensor(n.name, shape, "INT8", qt(n))
            return b.tensor(n.name, shape)

        def weight(name, w, axis):
            if form == "float16":
                w16 = b.const(name + "_f16", w.astype(np.float16))
                w32 = b.tensor(name, list(w.shape))
                b.op("DEQUANTIZE", [w16], [w32], version=3)
                return w32
            if quant:
                if axis is None:
                    s = float(np.float32(max(np.abs(w).max(), 1e-6) / 127))
                    wq = np.clip(np.round(w / s), -127, 127).astype(np.int8)
                    return b.const(name, wq, quant=([s], [0])), np.float32(s)
                wq, scales = _per_channel(w, axis)
                return (b.const(name, wq, quant=(scales.tolist(),
                                                 [0] * len(scales), axis)),
                        scales)
            return b.const(name, w)

        def bias(name, bv, x, wscales):
            if quant:
                bs = (np.float32(self._qparams(x)[0]) *
                      np.asarray(wscales, np.float32)).astype(np.float32)
                bs = np.broadcast_to(bs, bv.shape).copy()
                bq = np.round(bv / bs).astype(np.int32)
                return b.const(name, bq, quant=(bs.tolist(), [0] * len(bs),
                                                0))
            return weight(name, bv, None) if form == "float16" else \
                b.const(name, bv)

        for n in self.nodes:
            a = n.attrs
            if n.kind == "input":
                xi = b.input(n.name, list(n.value.shape))
                if quant:
                    t[n] = tensor(n, None)
                    b.tensors[t[n]]["name"] = n.name + "_int8"
                    b.op("QUANTIZE", [xi], [t[n]])
                else:
                    t[n] = xi
                continue
            x = [t[i] for i in n.inputs]
            out = tensor(n)
            if n.kind in ("conv", "dw", "tconv", "fc"):
                axis = {"conv": 0, "dw": 3, "tconv": 0, "fc": None}[n.kind]
                got = weight(n.name + "_w", a["w"], axis)
                wt, ws = got if quant else (got, None)
                bt = bias(n.name + "_b", a["b"], n.inputs[0], ws)
                if n.kind == "conv":
                    b.op("CONV_2D", [x[0], wt, bt], [out],
                         ("Conv2DOptions", {
                             "Padding": a["padding"], "StrideW": a["stride"],
                             "StrideH": a["stride"],
                             "FusedActivationFunction": a["act"]}),
                         version=3 if quant else 1)
                elif n.kind == "dw":
                    b.op("DEPTHWISE_CONV_2D", [x[0], wt, bt], [out],
                         ("DepthwiseConv2DOptions", {
                             "Padding": "SAME", "StrideW": a["stride"],
                             "StrideH": a["stride"], "DepthMultiplier": 1,
                             "FusedActivationFunction": a["act"]}),
                         version=3 if quant else 1)
                elif n.kind == "tconv":
                    shape = b.const(n.name + "_shape",
                                    np.array(a["shape"], np.int32))
                    b.op("TRANSPOSE_CONV", [shape, wt, x[0], bt], [out],
                         ("TransposeConvOptions", {
                             "Padding": "SAME", "StrideW": a["stride"],
                             "StrideH": a["stride"]}), version=3)
                else:
                    b.op("FULLY_CONNECTED", [x[0], wt, bt], [out],
                         ("FullyConnectedOptions", {
                             "FusedActivationFunction": a["act"],
                             "KeepNumDims": n.value.ndim > 2}),
                         version=5)
            elif n.kind == "add":
                b.op("ADD", x, [out], ("AddOptions", {
                    "FusedActivationFunction": a["act"]}),
                    version=2 if quant else 1)
            elif n.kind == "mean":
                b.op("MEAN", [x[0], b.const(n.name + "_axes",
                                            np.array([1, 2], np.int32))],
                     [out], ("ReducerOptions", {"KeepDims": True}),
                     version=2 if quant else 1)
            elif n.kind == "reshape":
                b.op("RESHAPE", [x[0], b.const(n.name + "_shape",
                                               np.array(a["shape"],
                                                        np.int32))], [out])
            elif n.kind == "softmax":
                b.op("SOFTMAX", x, [out], ("SoftmaxOptions", {"Beta": 1.0}),
                     version=2 if quant else 1)
            elif n.kind == "logistic":
                b.op("LOGISTIC", x, [out], version=2 if quant else 1)
            elif n.kind == "resize":
                b.op("RESIZE_BILINEAR",
                     [x[0], b.const(n.name + "_size",
                                    np.array(a["size"], np.int32))], [out],
                     ("ResizeBilinearOptions", {"HalfPixelCenters": True}),
                     version=3)
            elif n.kind == "pad":
                b.op("PAD", [x[0], b.const(n.name + "_pads",
                                           np.array(a["pads"], np.int32))],
                     [out], version=2 if quant else 1)
            elif n.kind == "concat":
                b.op("CONCATENATION", x, [out], ("ConcatenationOptions",
                                                  {"Axis": a["axis"]}),
                     version=2 if quant else 1)
            elif n.kind == "lstm":
                assert not quant
                ins = [x[0]]
                ins += [weight(f"{n.name}_w{g}", a["w"][k], None)
                        for k, g in enumerate("ifco")]
                ins += [weight(f"{n.name}_r{g}", a["r"][k], None)
                        for k, g in enumerate("ifco")]
                ins += [weight(f"{n.name}_p{g}", a["peep"][k], None)
                        for k, g in enumerate("ifo")]
                ins += [weight(f"{n.name}_b{g}", a["bias"][k], None)
                        for k, g in enumerate("ifco")]
                bsz = n.value.shape[0]
                ins += [-1, -1,
                        b.tensor(n.name + "_h", [bsz, a["hidden"]],
                                 variable=True),
                        b.tensor(n.name + "_c", [bsz, a["hidden"]],
                                 variable=True),
                        -1, -1, -1, -1]
                b.op("UNIDIRECTIONAL_SEQUENCE_LSTM", ins, [out],
                     ("UnidirectionalSequenceLSTMOptions",
                      {"FusedActivationFunction": "TANH"}))
            elif n.kind == "last_step":
                tdim = n.inputs[0].value.shape[1]
                begin = b.const(n.name + "_begin",
                                np.array([0, tdim - 1, 0], np.int32))
                end = b.const(n.name + "_end", np.array([0, tdim, 0],
                                                        np.int32))
                step = b.const(n.name + "_step", np.array([1, 1, 1],
                                                          np.int32))
                b.op("STRIDED_SLICE", [x[0], begin, end, step], [out],
                     ("StridedSliceOptions", {"BeginMask": 5, "EndMask": 5,
                                              "ShrinkAxisMask": 2}))
            else:
                raise ValueError(n.kind)
            t[n] = out
        outs = []
        for o in self.outputs:
            if quant:
                f = b.tensor(o.name, list(o.value.shape))
                b.tensors[t[o]]["name"] = o.name + "_int8"
                b.op("DEQUANTIZE", [t[o]], [f])
                outs.append(f)
            else:
                outs.append(t[o])
        for f in outs:
            b.output(f)
        b.sign("serving_default", {n.name: b.inputs[k]
                                   for k, n in enumerate(self.inputs)},
               {o.name: f for o, f in zip(self.outputs, outs)})
        return b.finish()

    # ONNX -------------------------------------------------------------------
    def onnx(self):
        """The float32 network in ONNX's layout (NCHW, OIHW filters): a
        model as an NCHW framework would export it."""
        import onnx
        from onnx import TensorProto, helper, numpy_helper
        nodes, inits = [], []
        names = {}

        def const(name, value):
            inits.append(numpy_helper.from_array(np.asarray(value), name))
            return name

        def act(name, a, x):
            if a == "NONE":
                return x
            out = name + "_act"
            if a == "RELU":
                nodes.append(helper.make_node("Relu", [x], [out]))
            elif a == "RELU6":
                nodes.append(helper.make_node(
                    "Clip", [x, const(name + "_lo", np.float32(0)),
                             const(name + "_hi", np.float32(6))], [out]))
            else:
                raise ValueError(a)
            return out

        for index, n in enumerate(self.nodes):
            a = n.attrs
            if n.kind == "input":
                names[n] = n.name
                continue
            x = [names[i] for i in n.inputs]
            y = f"v{index}_{n.kind}"
            if n.kind in ("conv", "dw"):
                w = a["w"].transpose(0, 3, 1, 2) if n.kind == "conv" \
                    else a["w"].transpose(3, 0, 1, 2)
                k = w.shape[2]
                h = n.inputs[0].value.shape[1]
                s = a["stride"]
                out = -(-h // s)
                total = max((out - 1) * s + k - h, 0)
                pads = [total // 2, total // 2, total - total // 2,
                        total - total // 2]
                attrs = dict(strides=[s, s], pads=pads)
                if n.kind == "dw":
                    attrs["group"] = w.shape[0]
                nodes.append(helper.make_node(
                    "Conv", [x[0], const(y + "_w", w), const(y + "_b", a["b"])],
                    [y + "_conv"], **attrs))
                y = act(y, a["act"], y + "_conv")
            elif n.kind == "add":
                nodes.append(helper.make_node("Add", x, [y + "_add"]))
                y = act(y, a["act"], y + "_add")
            elif n.kind == "mean":
                nodes.append(helper.make_node("GlobalAveragePool", x, [y]))
            elif n.kind == "reshape":
                # Only the flatten before a classifier's FC: [1,1,1,C].
                nodes.append(helper.make_node("Flatten", x, [y]))
            elif n.kind == "fc":
                nodes.append(helper.make_node(
                    "Gemm", [x[0], const(y + "_w", a["w"]),
                             const(y + "_b", a["b"])], [y + "_fc"], transB=1))
                y = act(y, a["act"], y + "_fc")
            elif n.kind == "softmax":
                nodes.append(helper.make_node("Softmax", x, [y], axis=-1))
            else:
                raise ValueError("no ONNX form for " + n.kind)
            names[n] = y
        inputs = [helper.make_tensor_value_info(
            n.name, TensorProto.FLOAT,
            [n.value.shape[0], n.value.shape[3], *n.value.shape[1:3]])
            for n in self.inputs]
        outputs = []
        for o in self.outputs:
            nodes.append(helper.make_node("Identity", [names[o]], [o.name]))
            outputs.append(helper.make_tensor_value_info(
                o.name, TensorProto.FLOAT, list(o.value.shape)))
        graph = helper.make_graph(nodes, "net", inputs, outputs, inits)
        model = helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", 13)])
        model.ir_version = 8
        onnx.checker.check_model(model)
        return model

    def onnx_inputs(self):
        return [n.array.transpose(0, 3, 1, 2).copy() for n in self.inputs]


# The networks ----------------------------------------------------------------

def classifier(size=64, width=16, classes=10, seed=1):
    """MobileNet-like: a strided 3x3 convolution, inverted-residual-style
    depthwise/pointwise blocks (one with a residual ADD), global MEAN,
    FULLY_CONNECTED, SOFTMAX."""
    net = Net(seed)
    rng = np.random.default_rng(seed + 100)
    image = rng.uniform(0, 1, (1, size, size, 3)).astype(np.float32)
    x = net.input("image", image)
    h = net.conv(x, width, 3, stride=2, act="RELU6")
    c = width
    for stride, cout in ((1, width), (2, 2 * width), (1, 2 * width),
                         (2, 4 * width), (1, 4 * width)):
        d = net.dw(h, 3, stride=stride, act="RELU6")
        p = net.conv(d, cout, 1, act="NONE" if stride == 1 and cout == c
                     else "RELU6")
        h = net.add(h, p) if stride == 1 and cout == c else p
        c = cout
    h = net.conv(h, 8 * width, 1, act="RELU6")
    h = net.mean(h)
    h = net.reshape(h, [1, 8 * width])
    net.output(net.softmax(net.fc(h, classes, gain=8)), "scores")
    return net


def segmenter(size=32, seed=2):
    """Encoder (two strided convolutions), a transposed convolution up,
    a half-pixel bilinear resize up, a 1x1 convolution to two classes."""
    net = Net(seed)
    rng = np.random.default_rng(seed + 100)
    image = rng.uniform(0, 1, (1, size, size, 3)).astype(np.float32)
    x = net.input("image", image)
    h = net.conv(x, 8, 3, stride=2, act="RELU")
    h = net.conv(h, 16, 3, stride=2, act="RELU")
    h = net.tconv(h, 8, 3, 2)
    h = net.resize(h, size, size)
    net.output(net.conv(h, 2, 1), "mask")
    return net


def detector(size=32, anchors=2, classes=3, seed=3):
    """PAD, a VALID strided convolution, two feature levels whose box and
    score heads are reshaped and concatenated: boxes [1, N, 4] and scores
    [1, N, classes] (LOGISTIC)."""
    net = Net(seed)
    rng = np.random.default_rng(seed + 100)
    image = rng.uniform(0, 1, (1, size, size, 3)).astype(np.float32)
    x = net.input("image", image)
    h = net.pad(x, [(0, 0), (1, 1), (1, 1), (0, 0)])
    f1 = net.conv(h, 8, 3, stride=2, act="RELU6", padding="VALID")
    f2 = net.conv(f1, 16, 3, stride=2, act="RELU6")
    boxes, scores = [], []
    for f in (f1, f2):
        n = f.value.shape[1] * f.value.shape[2] * anchors
        boxes.append(net.reshape(net.conv(f, anchors * 4, 1), [1, n, 4]))
        scores.append(net.reshape(net.conv(f, anchors * classes, 1),
                                  [1, n, classes]))
    net.output(net.concat(boxes, 1), "boxes")
    net.output(net.logistic(net.concat(scores, 1)), "scores")
    return net


def keyword_spotter(frames=12, features=10, hidden=16, words=4, seed=4):
    """Frames of features through a FULLY_CONNECTED per frame, an
    UNIDIRECTIONAL_SEQUENCE_LSTM, the last step, FULLY_CONNECTED, SOFTMAX."""
    net = Net(seed)
    rng = np.random.default_rng(seed + 100)
    audio = rng.uniform(-1, 1, (1, frames, features)).astype(np.float32)
    x = net.input("features", audio)
    h = net.fc(x, hidden, act="RELU")
    h = net.lstm(h, hidden)
    h = net.last_step(h)
    net.output(net.softmax(net.fc(h, words, gain=4)), "words")
    return net
