#!/usr/bin/python3
"""Seeded TFLite test models, one directory per case, each with its inputs
and its numpy reference (tflite_reference.py, float64):

    make_tflite_models.py OUTDIR [CASE...]

writes OUTDIR/<case>/model.tflite, input_<k>.npy, numpy_<k>.npy and
case.json ({"nnapi": whether every operator must run on NNAPI with the
eager profile, "tol": tolerance against the references, relative to
max(1, max |reference|), "tflite": false when TensorFlow Lite's
interpreter cannot run the model (custom operators it lacks), "quanta": for
quantized outputs, how many quanta may differ}). The models are
byte-identical from run to run (tflite_refs/ holds TensorFlow Lite's
outputs for them, checked against the model's SHA-256).
"""
import hashlib
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tflite_builder import ModelBuilder  # noqa: E402
import networks  # noqa: E402
import tflite_reference as ref  # noqa: E402

CASES = {}


def case(nnapi=True, tol=1e-4, quanta=None, tflite=True):
    def register(fn):
        meta = dict(nnapi=nnapi, tol=tol, quanta=quanta)
        if not tflite:
            meta["tflite"] = False
        CASES[fn.__name__] = (fn, meta)
        return fn
    return register


def rand(rng, *shape, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, size=shape).astype(np.float32)


# --------------------------------------------------------------------- float

@case()
def conv_same_relu(b, rng):
    x = rand(rng, 1, 9, 9, 3)
    w, bias = rand(rng, 8, 3, 3, 3), rand(rng, 8)
    xi = b.input("image", x.shape)
    y = b.tensor("features", [1, 9, 9, 8])
    b.op("CONV_2D", [xi, b.const("w", w), b.const("b", bias)], [y],
         ("Conv2DOptions", {"Padding": "SAME", "StrideW": 1, "StrideH": 1,
                            "FusedActivationFunction": "RELU"}))
    b.output(y)
    b.sign("serving_default", {"image": xi}, {"features": y})
    return [x], [ref.conv2d(x, w, bias, activation="RELU")]


@case()
def conv_valid_stride_dilation(b, rng):
    x = rand(rng, 1, 12, 11, 4)
    w1, w2 = rand(rng, 6, 3, 3, 4), rand(rng, 5, 3, 2, 6)
    xi = b.input("x", x.shape)
    h = b.tensor("h", [1, 5, 5, 6])
    bias1 = rand(rng, 6)
    b.op("CONV_2D", [xi, b.const("w1", w1), b.const("b1", bias1)], [h],
         ("Conv2DOptions", {"Padding": "VALID", "StrideW": 2, "StrideH": 2,
                            "FusedActivationFunction": "RELU6"}))
    bias2 = rand(rng, 5)
    y = b.tensor("y", [1, 5, 5, 5])
    b.op("CONV_2D", [h, b.const("w2", w2), b.const("b2", bias2)], [y],
         ("Conv2DOptions", {"Padding": "SAME", "StrideW": 1, "StrideH": 1,
                            "DilationWFactor": 2, "DilationHFactor": 2}),
         version=2)
    b.output(y)
    hv = ref.conv2d(x, w1, bias1, (2, 2), padding="VALID",
                    activation="RELU6")
    return [x], [ref.conv2d(hv, w2, bias2, dilation=(2, 2))]


@case()
def depthwise_multiplier(b, rng):
    x = rand(rng, 1, 10, 10, 3)
    w, bias = rand(rng, 1, 3, 3, 6), rand(rng, 6)
    xi = b.input("x", x.shape)
    y = b.tensor("y", [1, 5, 5, 6])
    b.op("DEPTHWISE_CONV_2D", [xi, b.const("w", w), b.const("b", bias)], [y],
         ("DepthwiseConv2DOptions", {"Padding": "SAME", "StrideW": 2,
                                     "StrideH": 2, "DepthMultiplier": 2,
                                     "FusedActivationFunction": "RELU6"}))
    b.output(y)
    return [x], [ref.depthwise(x, w, bias, (2, 2), activation="RELU6")]


@case()
def transpose_conv(b, rng):
    x = rand(rng, 1, 5, 6, 4)
    w, bias = rand(rng, 3, 3, 3, 4), rand(rng, 3)
    xi = b.input("x", x.shape)
    y = b.tensor("y", [1, 10, 12, 3])
    shape = b.const("shape", np.array([1, 10, 12, 3], np.int32))
    b.op("TRANSPOSE_CONV", [shape, b.const("w", w), xi, b.const("b", bias)],
         [y], ("TransposeConvOptions", {"Padding": "SAME", "StrideW": 2,
                                        "StrideH": 2}), version=3)
    b.output(y)
    return [x], [ref.transpose_conv(x, w, bias, (1, 10, 12, 3), (2, 2))]


@case()
def transpose_conv_bias(b, rng):
    """MediaPipe's Convolution2DTransposeBias (custom options: padding,
    stride width, stride height as int32), SAME and VALID."""
    x = rand(rng, 1, 5, 6, 4)
    xi = b.input("x", x.shape)
    refs = []
    for name, (kh, kw), (sh, sw), padding, out in [
            ("same", (3, 3), (2, 2), 1, (1, 9, 12, 3)),
            ("valid", (2, 3), (1, 2), 2, (1, 6, 13, 2))]:
        w, bias = rand(rng, out[3], kh, kw, 4), rand(rng, out[3])
        y = b.tensor(name, list(out))
        b.op("CUSTOM", [xi, b.const(name + "_w", w), b.const(name + "_b", bias)],
             [y], custom="Convolution2DTransposeBias",
             custom_options=np.int32([padding, sw, sh]).tobytes())
        b.output(y)
        refs.append(ref.transpose_conv(x, w, bias, out, (sh, sw),
                                       "SAME" if padding == 1 else "VALID"))
    return [x], refs


def pool_options(padding, stride, kernel, activation=0):
    """MediaPipe's TfLitePoolParams as its custom options: padding (1 SAME,
    2 VALID), stride w/h, filter w/h, activation, then the two computed
    padding words files carry."""
    return np.int32([padding, stride[1], stride[0], kernel[1], kernel[0],
                     activation, -1, -1]).tobytes()


@case(tflite=False)
def mediapipe_unpool(b, rng):
    """MediaPipe's MaxPoolingWithArgmax2D into MaxUnpooling2D (as its
    segmentation models use them), and an odd SAME 3x3 stride-2 argmax pool
    with RELU6. Inputs in steps of 0.5, so windows hold ties (the first
    maximum wins). TensorFlow Lite's interpreter lacks these operators:
    numpy only."""
    x = np.round(rand(rng, 1, 6, 8, 3, lo=-2, hi=2) * 2) / 2
    z = np.round(rand(rng, 1, 5, 7, 2, lo=-8, hi=8) * 2) / 2
    xi, zi = b.input("x", x.shape), b.input("z", z.shape)
    pooled, where = b.tensor("pooled", [1, 3, 4, 3]), b.tensor(
        "where", [1, 3, 4, 3])
    b.op("CUSTOM", [xi], [pooled, where], custom="MaxPoolingWithArgmax2D",
         custom_options=pool_options(1, (2, 2), (2, 2)))
    up = b.tensor("unpooled", [1, 6, 8, 3])
    b.op("CUSTOM", [pooled, where], [up], custom="MaxUnpooling2D",
         custom_options=pool_options(2, (2, 2), (2, 2)))
    zp, zw = b.tensor("z_pooled", [1, 3, 4, 2]), b.tensor("z_where",
                                                         [1, 3, 4, 2])
    b.op("CUSTOM", [zi], [zp, zw], custom="MaxPoolingWithArgmax2D",
         custom_options=pool_options(1, (2, 2), (3, 3), activation=3))
    for t in (pooled, where, up, zp, zw):
        b.output(t)
    v, i = ref.max_pool_argmax(x, (2, 2), (2, 2), "SAME")
    zv, zi_ = ref.max_pool_argmax(z, (3, 3), (2, 2), "SAME", "RELU6")
    return [x, z], [v, i, ref.max_unpool(v, i, (2, 2)), zv, zi_]


def sparse_const(b, name, dense, block=1, index_kind="Int32"):
    """A constant 2-D tensor stored sparse: rows dense, then the nonzero
    column blocks of each row (CSR), each block's `block` values dense
    (TFLite's 1xN block sparsity; no blocks when block is 1)."""
    rows, cols = dense.shape
    blocks = cols // block
    segments, indices, values = [0], [], []
    for r in range(rows):
        for c in range(blocks):
            part = dense[r, c * block:(c + 1) * block]
            if np.any(part != 0):
                indices.append(c)
                values.extend(part)
        segments.append(len(indices))
    dims = [("DENSE", rows), ("CSR", segments, indices, index_kind)]
    spec = dict(order=[0, 1], dims=dims)
    if block > 1:
        spec = dict(order=[0, 1, 2], block_map=[1],
                    dims=dims + [("DENSE", block)])
    data = np.array(values, dense.dtype).tobytes()
    return b.tensor(name, dense.shape, _DTYPE_NAMES[dense.dtype], data=data,
                    sparse=spec)


_DTYPE_NAMES = {np.dtype(np.float32): "FLOAT32",
                np.dtype(np.float16): "FLOAT16", np.dtype(np.int8): "INT8"}


@case()
def densify(b, rng):
    """Sparse weights through DENSIFY: a fully connected layer's 1x4-block
    sparse float32 weights, and an element-sparse float16 constant added
    to the input (uint8 indices)."""
    x = rand(rng, 2, 8)
    w = rand(rng, 6, 8)
    w[rng.random((6, 2)).repeat(4, axis=1) < 0.5] = 0
    c = rand(rng, 2, 8).astype(np.float16)
    c[rng.random((2, 8)) < 0.6] = 0
    xi = b.input("x", x.shape)
    ws, wd = sparse_const(b, "w_sparse", w, block=4), b.tensor("w", [6, 8])
    b.op("DENSIFY", [ws], [wd])
    cs = sparse_const(b, "c_sparse", c, index_kind="Uint8")
    c16, c32 = b.tensor("c16", [2, 8], "FLOAT16"), b.tensor("c", [2, 8])
    b.op("DENSIFY", [cs], [c16])
    b.op("DEQUANTIZE", [c16], [c32])
    shifted, y = b.tensor("shifted", [2, 8]), b.tensor("y", [2, 6])
    b.op("ADD", [xi, c32], [shifted], ("AddOptions", {}))
    b.op("FULLY_CONNECTED", [shifted, wd, -1], [y],
         ("FullyConnectedOptions", {}))
    b.output(y)
    xd = x.astype(np.float64) + c.astype(np.float64)
    return [x], [xd @ w.astype(np.float64).T]


@case()
def pools(b, rng):
    x = rand(rng, 1, 9, 10, 4)
    xi = b.input("x", x.shape)
    a = b.tensor("avg", [1, 5, 5, 4])
    b.op("AVERAGE_POOL_2D", [xi], [a],
         ("Pool2DOptions", {"Padding": "SAME", "StrideW": 2, "StrideH": 2,
                            "FilterWidth": 3, "FilterHeight": 3}))
    m = b.tensor("max", [1, 4, 4, 4])
    b.op("MAX_POOL_2D", [a], [m],
         ("Pool2DOptions", {"Padding": "VALID", "StrideW": 1, "StrideH": 1,
                            "FilterWidth": 2, "FilterHeight": 2,
                            "FusedActivationFunction": "RELU"}))
    b.output(a)
    b.output(m)
    av = ref.pool(x, (3, 3), (2, 2), "SAME", "avg")
    return [x], [av, np.maximum(ref.pool(av, (2, 2), (1, 1), "VALID",
                                         "max"), 0)]


@case()
def fully_connected(b, rng):
    x = rand(rng, 2, 3, 8)
    w, bias = rand(rng, 5, 8), rand(rng, 5)
    xi = b.input("x", x.shape)
    y = b.tensor("y", [2, 3, 5])
    b.op("FULLY_CONNECTED", [xi, b.const("w", w), b.const("b", bias)], [y],
         ("FullyConnectedOptions", {"FusedActivationFunction": "RELU",
                                    "KeepNumDims": True}), version=5)
    z = b.tensor("z", [6, 4])
    w2 = rand(rng, 4, 5)
    b.op("FULLY_CONNECTED", [y, b.const("w2", w2), -1], [z],
         ("FullyConnectedOptions", {}))
    b.output(z)
    yv = np.maximum(x.astype(np.float64) @ w.T.astype(np.float64) + bias, 0)
    return [x], [yv.reshape(6, 5) @ w2.T.astype(np.float64)]


@case()
def elementwise(b, rng):
    x, y = rand(rng, 2, 3, 4), rand(rng, 3, 1, lo=0.5, hi=2.0)
    xi, yi = b.input("x", x.shape), b.input("y", y.shape)
    outs, refs = [], []
    xd, yd = x.astype(np.float64), y.astype(np.float64)
    for name, opts, f in [
            ("ADD", ("AddOptions", {"FusedActivationFunction": "RELU6"}),
             lambda: np.clip(xd + yd, 0, 6)),
            ("SUB", ("SubOptions", {}), lambda: xd - yd),
            ("MUL", ("MulOptions", {"FusedActivationFunction": "RELU"}),
             lambda: np.maximum(xd * yd, 0)),
            ("DIV", ("DivOptions", {}), lambda: xd / yd),
            ("MAXIMUM", None, lambda: np.maximum(xd, yd)),
            ("MINIMUM", None, lambda: np.minimum(xd, yd)),
            ("SQUARED_DIFFERENCE", None, lambda: (xd - yd) ** 2)]:
        t = b.tensor(name.lower(), [2, 3, 4])
        b.op(name, [xi, yi], [t], opts)
        outs.append(b.output(t))
        refs.append(f())
    return [x, y], refs


@case()
def activations(b, rng):
    x = rand(rng, 2, 16, lo=-4, hi=4)
    alpha = rand(rng, 16, lo=0, hi=0.5)
    xi = b.input("x", x.shape)
    xd = x.astype(np.float64)
    refs = []
    for name, opts, f in [
            ("LOGISTIC", None, lambda: 1 / (1 + np.exp(-xd))),
            ("TANH", None, lambda: np.tanh(xd)),
            ("HARD_SWISH", None, lambda: ref.hard_swish(xd)),
            ("LEAKY_RELU", ("LeakyReluOptions", {"Alpha": 0.1}),
             lambda: np.where(xd > 0, xd, 0.1 * xd)),
            ("ELU", None, lambda: np.where(xd > 0, xd, np.exp(xd) - 1)),
            ("RELU6", None, lambda: np.clip(xd, 0, 6)),
            ("RELU_N1_TO_1", None, lambda: np.clip(xd, -1, 1)),
            ("ABS", None, lambda: np.abs(xd)),
            ("NEG", None, lambda: -xd)]:
        t = b.tensor(name.lower(), list(x.shape))
        b.op(name, [xi], [t], opts)
        b.output(t)
        refs.append(f())
    p = b.tensor("prelu", list(x.shape))
    b.op("PRELU", [xi, b.const("alpha", alpha)], [p])
    b.output(p)
    refs.append(np.where(xd > 0, xd, alpha * xd))
    return [x], refs


@case()
def normalizations(b, rng):
    x = rand(rng, 3, 10, lo=-3, hi=3)
    xi = b.input("x", x.shape)
    s = b.tensor("softmax", [3, 10])
    b.op("SOFTMAX", [xi], [s], ("SoftmaxOptions", {"Beta": 0.5}))
    ls = b.tensor("log_softmax", [3, 10])
    b.op("LOG_SOFTMAX", [xi], [ls])
    l2 = b.tensor("l2", [3, 10])
    b.op("L2_NORMALIZATION", [xi], [l2])
    for t in (s, ls, l2):
        b.output(t)
    xd = x.astype(np.float64)
    return [x], [ref.softmax(x, 0.5), ref.softmax(x, log=True),
                 xd / np.sqrt((xd * xd).sum(-1, keepdims=True))]


@case()
def reductions(b, rng):
    x = rand(rng, 2, 5, 6, 3)
    xi = b.input("x", x.shape)
    xd = x.astype(np.float64)
    refs = []
    for name, axes, keep, f in [
            ("MEAN", [1, 2], True, lambda: xd.mean((1, 2), keepdims=True)),
            ("SUM", [-1], False, lambda: xd.sum(-1)),
            ("REDUCE_MAX", [0, 3], False, lambda: xd.max((0, 3))),
            ("REDUCE_MIN", [2], True, lambda: xd.min(2, keepdims=True))]:
        r = f()
        t = b.tensor(name.lower(), list(r.shape))
        b.op(name, [xi, b.const(name + "_axes", np.array(axes, np.int32))],
             [t], ("ReducerOptions", {"KeepDims": keep}))
        b.output(t)
        refs.append(r)
    am = b.tensor("arg_max", [2, 5, 6], "INT32")
    b.op("ARG_MAX", [xi, b.const("am_axis", np.array([3], np.int32))], [am],
         ("ArgMaxOptions", {"OutputType": "INT32"}))
    b.output(am)
    refs.append(xd.argmax(3).astype(np.int32))
    return [x], refs


@case()
def pads(b, rng):
    x = rand(rng, 1, 4, 5, 2)
    xi = b.input("x", x.shape)
    p = np.array([[0, 0], [1, 2], [2, 0], [0, 0]], np.int32)
    xd = x.astype(np.float64)
    refs, outs = [], []
    t = b.tensor("pad", [1, 7, 7, 2])
    b.op("PAD", [xi, b.const("p", p)], [t])
    outs.append(t)
    refs.append(np.pad(xd, p))
    t = b.tensor("padv2", [1, 7, 7, 2])
    b.op("PADV2", [xi, b.const("p2", p),
                   b.const("v", np.array(0.5, np.float32))], [t])
    outs.append(t)
    refs.append(np.pad(xd, p, constant_values=0.5))
    for mode in ("REFLECT", "SYMMETRIC"):
        t = b.tensor(mode.lower(), [1, 7, 7, 2])
        b.op("MIRROR_PAD", [xi, b.const("p" + mode, p)], [t],
             ("MirrorPadOptions", {"Mode": mode}))
        outs.append(t)
        refs.append(np.pad(xd, p, mode=mode.lower()))
    for t in outs:
        b.output(t)
    return [x], refs


@case()
def strided_slices(b, rng):
    x = rand(rng, 4, 6, 5)
    xi = b.input("x", x.shape)
    xd = x.astype(np.float64)
    specs = [
        # begin, end, strides, masks, numpy
        ([1, 0, 1], [3, 6, 5], [1, 2, 2], {}, xd[1:3, 0:6:2, 1:5:2]),
        ([0, -1, 0], [0, 0, 0], [1, -2, 1],
         {"BeginMask": 1, "EndMask": 5}, xd[:, -1:0:-2, :]),
        ([2, 0, 0], [3, 6, 5], [1, 1, 1], {"ShrinkAxisMask": 1}, xd[2]),
        ([0, 1, 0], [0, 4, 0], [1, 1, 1],
         {"BeginMask": 5, "EndMask": 5, "NewAxisMask": 0}, xd[:, 1:4, :]),
        ([0, 3], [0, 4], [1, 1], {"EllipsisMask": 1, "ShrinkAxisMask": 2},
         xd[..., 3]),
        ([1, 0, 0, 0], [2, 0, 0, 0], [1, 1, 1, 1],
         {"BeginMask": 14, "EndMask": 14, "NewAxisMask": 2},
         xd[1:2, None, :, :]),
    ]
    refs = []
    for k, (bg, en, st, masks, r) in enumerate(specs):
        t = b.tensor("slice%d" % k, list(r.shape))
        b.op("STRIDED_SLICE",
             [xi, b.const("b%d" % k, np.array(bg, np.int32)),
              b.const("e%d" % k, np.array(en, np.int32)),
              b.const("s%d" % k, np.array(st, np.int32))], [t],
             ("StridedSliceOptions", masks), version=4)
        b.output(t)
        refs.append(r)
    t = b.tensor("slice", [2, 3, 5])
    b.op("SLICE", [xi, b.const("sb", np.array([1, 2, 0], np.int32)),
                   b.const("ss", np.array([2, 3, -1], np.int32))], [t])
    b.output(t)
    refs.append(xd[1:3, 2:5, :])
    return [x], refs


@case()
def splits_and_packs(b, rng):
    x = rand(rng, 2, 6, 4)
    xi = b.input("x", x.shape)
    xd = x.astype(np.float64)
    refs = []
    parts = [b.tensor("split%d" % i, [2, 2, 4]) for i in range(3)]
    b.op("SPLIT", [b.const("axis", np.array(1, np.int32)), xi], parts,
         ("SplitOptions", {"NumSplits": 3}))
    refs += np.split(xd, 3, axis=1)
    vparts = [b.tensor("splitv%d" % i, [2, 6, n]) for i, n in
              enumerate([1, 3])]
    b.op("SPLIT_V", [xi, b.const("sizes", np.array([1, -1], np.int32)),
                     b.const("vaxis", np.array(-1, np.int32))], vparts,
         ("SplitVOptions", {"NumSplits": 2}))
    refs += [xd[..., :1], xd[..., 1:]]
    packed = b.tensor("packed", [2, 3, 2, 4])
    b.op("PACK", parts, [packed], ("PackOptions", {"ValuesCount": 3,
                                                   "Axis": 1}))
    refs.append(np.stack(np.split(xd, 3, axis=1), axis=1))
    un = [b.tensor("unpacked%d" % i, [6, 4]) for i in range(2)]
    b.op("UNPACK", [xi], un, ("UnpackOptions", {"Num": 2, "Axis": 0}))
    refs += [xd[0], xd[1]]
    cat = b.tensor("concat", [2, 6, 5])
    b.op("CONCATENATION", [xi, vparts[0]], [cat],
         ("ConcatenationOptions", {"Axis": 2}))
    refs.append(np.concatenate([xd, xd[..., :1]], axis=2))
    for t in parts + vparts + [packed] + un + [cat]:
        b.output(t)
    return [x], refs


@case()
def gathers(b, rng):
    x = rand(rng, 3, 7, 2)
    idx = np.array([[6, 0], [5, 3]], np.int32)
    xi = b.input("x", x.shape)
    ii = b.input("indices", [3], "INT32")
    g1 = b.tensor("const_indices", [3, 2, 2, 2])
    b.op("GATHER", [xi, b.const("idx", idx)], [g1],
         ("GatherOptions", {"Axis": 1}))
    g2 = b.tensor("runtime_indices", [3, 7, 2])
    b.op("GATHER", [xi, ii], [g2], ("GatherOptions", {"Axis": 0}))
    b.output(g1)
    b.output(g2)
    runtime = np.array([2, 0, 2], np.int32)
    xd = x.astype(np.float64)
    return [x, runtime], [np.take(xd, idx, axis=1), xd[runtime]]


@case()
def space_depth(b, rng):
    x = rand(rng, 1, 4, 6, 8)
    xi = b.input("x", x.shape)
    d2s = b.tensor("d2s", [1, 8, 12, 2])
    b.op("DEPTH_TO_SPACE", [xi], [d2s], ("DepthToSpaceOptions",
                                          {"BlockSize": 2}))
    s2d = b.tensor("s2d", [1, 2, 3, 32])
    b.op("SPACE_TO_DEPTH", [xi], [s2d], ("SpaceToDepthOptions",
                                          {"BlockSize": 2}))
    s2b = b.tensor("s2b", [4, 3, 3, 8])
    b.op("SPACE_TO_BATCH_ND",
         [xi, b.const("block", np.array([2, 2], np.int32)),
          b.const("bpad", np.array([[1, 1], [0, 0]], np.int32))], [s2b])
    b2s = b.tensor("b2s", [1, 4, 6, 8])
    b.op("BATCH_TO_SPACE_ND",
         [s2b, b.const("block2", np.array([2, 2], np.int32)),
          b.const("crop", np.array([[1, 1], [0, 0]], np.int32))], [b2s])
    for t in (d2s, s2d, s2b, b2s):
        b.output(t)
    xd = x.astype(np.float64)
    n, h, w, c = x.shape
    d2sr = xd.reshape(n, h, w, 2, 2, c // 4).transpose(0, 1, 3, 2, 4, 5) \
        .reshape(n, h * 2, w * 2, c // 4)
    s2dr = xd.reshape(n, h // 2, 2, w // 2, 2, c).transpose(0, 1, 3, 2, 4, 5)\
        .reshape(n, h // 2, w // 2, 4 * c)
    padded = np.pad(xd, [[0, 0], [1, 1], [0, 0], [0, 0]])
    s2br = padded.reshape(n, 3, 2, 3, 2, c).transpose(2, 4, 0, 1, 3, 5)\
        .reshape(4, 3, 3, c)
    return [x], [d2sr, s2dr, s2br, xd]


@case()
def resizes(b, rng):
    x = rand(rng, 1, 5, 7, 3)
    xi = b.input("x", x.shape)
    refs = []
    for k, (op, opts, oh, ow) in enumerate([
            ("RESIZE_BILINEAR", {"HalfPixelCenters": True}, 10, 14),
            ("RESIZE_BILINEAR", {"AlignCorners": True}, 9, 13),
            ("RESIZE_BILINEAR", {}, 8, 11),
            ("RESIZE_NEAREST_NEIGHBOR", {"HalfPixelCenters": True}, 10, 9),
            ("RESIZE_NEAREST_NEIGHBOR", {"AlignCorners": True}, 9, 13),
            ("RESIZE_NEAREST_NEIGHBOR", {}, 11, 7)]):
        t = b.tensor("resize%d" % k, [1, oh, ow, 3])
        table = "ResizeBilinearOptions" if op == "RESIZE_BILINEAR" \
            else "ResizeNearestNeighborOptions"
        b.op(op, [xi, b.const("size%d" % k, np.array([oh, ow], np.int32))],
             [t], (table, opts), version=3)
        b.output(t)
        refs.append(ref.resize(x, oh, ow, "nearest" if "NEAREST" in op
                               else "bilinear",
                               opts.get("AlignCorners", False),
                               opts.get("HalfPixelCenters", False)))
    return [x], refs


@case()
def matmul_and_shapes(b, rng):
    a, c = rand(rng, 2, 3, 4), rand(rng, 2, 5, 4)
    ai, ci = b.input("a", a.shape), b.input("c", c.shape)
    m = b.tensor("matmul", [2, 3, 5])
    b.op("BATCH_MATMUL", [ai, ci], [m], ("BatchMatMulOptions",
                                         {"AdjY": True}))
    t = b.tensor("transposed", [5, 2, 3])
    b.op("TRANSPOSE", [m, b.const("perm", np.array([2, 0, 1], np.int32))],
         [t])
    r = b.tensor("reshaped", [10, 3])
    b.op("RESHAPE", [t, b.const("shape", np.array([-1, 3], np.int32))], [r])
    e = b.tensor("expanded", [10, 1, 3])
    b.op("EXPAND_DIMS", [r, b.const("ax", np.array(1, np.int32))], [e])
    tl = b.tensor("tiled", [20, 1, 6])
    b.op("TILE", [e, b.const("mult", np.array([2, 1, 2], np.int32))], [tl])
    s = b.tensor("squeezed", [20, 6])
    b.op("SQUEEZE", [tl], [s], ("SqueezeOptions", {"SqueezeDims": [1]}))
    b.output(s)
    mm = a.astype(np.float64) @ c.astype(np.float64).transpose(0, 2, 1)
    rr = mm.transpose(2, 0, 1).reshape(10, 3)
    return [a, c], [np.tile(rr[:, None, :], (2, 1, 2)).reshape(20, 6)]


@case()
def float16_weights(b, rng):
    x = rand(rng, 1, 6, 6, 3)
    w = rand(rng, 4, 3, 3, 3).astype(np.float16)
    xi = b.input("x", x.shape)
    w16 = b.const("w16", w)
    w32 = b.tensor("w32", [4, 3, 3, 3])
    b.op("DEQUANTIZE", [w16], [w32], version=3)
    y = b.tensor("y", [1, 6, 6, 4])
    bias = rand(rng, 4).astype(np.float16)
    b16 = b.const("b16", bias)
    b32 = b.tensor("b32", [4])
    b.op("DEQUANTIZE", [b16], [b32], version=3)
    b.op("CONV_2D", [xi, w32, b32], [y],
         ("Conv2DOptions", {"Padding": "SAME", "StrideW": 1, "StrideH": 1}))
    b.output(y)
    return [x], [ref.conv2d(x, w.astype(np.float32), bias.astype(np.float32))]


@case()
def comparisons_select(b, rng):
    x, y = rand(rng, 2, 3, 4), rand(rng, 3, 1)
    # Integers with many equal pairs, for EQUAL and NOT_EQUAL.
    i = rng.integers(0, 3, size=(2, 3, 4)).astype(np.int32)
    j = rng.integers(0, 3, size=(4,)).astype(np.int32)
    xi, yi = b.input("x", x.shape), b.input("y", y.shape)
    ii, ji = b.input("i", i.shape, "INT32"), b.input("j", j.shape, "INT32")
    xd, yd = x.astype(np.float64), y.astype(np.float64)

    def boolean(name, op, ins, shape):
        t = b.tensor(name, shape, "BOOL")
        b.op(op, ins, [t])
        return t
    gt = boolean("gt", "GREATER", [xi, yi], [2, 3, 4])
    le = boolean("le", "LESS_EQUAL", [xi, yi], [2, 3, 4])
    lt = boolean("lt", "LESS", [xi, b.const("zero", np.float32([0]))],
                 [2, 3, 4])
    ge = boolean("ge", "GREATER_EQUAL", [yi, b.const(
        "third", np.float32([0.3]))], [3, 1])
    eq = boolean("eq", "EQUAL", [ii, ji], [2, 3, 4])
    ne = boolean("ne", "NOT_EQUAL", [ii, ji], [2, 3, 4])
    both = boolean("both", "LOGICAL_AND", [gt, lt], [2, 3, 4])
    either = boolean("either", "LOGICAL_OR", [eq, both], [2, 3, 4])
    neither = boolean("neither", "LOGICAL_NOT", [either], [2, 3, 4])
    beq = boolean("beq", "EQUAL", [gt, le], [2, 3, 4])
    # SELECT_V2 broadcasts: max(x, y) and y where y >= 0.3, else 0.
    hi = b.tensor("hi", [2, 3, 4])
    b.op("SELECT_V2", [gt, xi, yi], [hi])
    keep = b.tensor("keep", [3, 1])
    b.op("SELECT_V2", [ge, yi, b.const("zeros", np.float32([0]))], [keep])
    # SELECT with a condition per row of x.
    rows = b.input("rows", [2], "BOOL")
    picked = b.tensor("picked", [2, 3, 4])
    b.op("SELECT", [rows, xi, b.const("minus", -x)], [picked])
    r = np.array([True, False])
    for t in [gt, le, lt, eq, ne, neither, beq, hi, keep, picked]:
        b.output(t)
    gt_, lt_, eq_ = xd > yd, xd < 0, i == j
    return [x, y, i, j, r], [
        gt_, xd <= yd, lt_, eq_, i != j, ~(eq_ | (gt_ & lt_)),
        gt_ == (xd <= yd), np.maximum(xd, np.broadcast_to(yd, x.shape)),
        np.where(yd >= np.float32(0.3), yd, 0),
        np.where(r[:, None, None], xd, -xd)]


@case()
def while_counter(b, rng):
    """x halves and grows by one n times: WHILE over a counter, a limit
    and the tensor, with the limit from an input."""
    x = rand(rng, 2, 3)
    n = np.int32([3])
    main = b.current
    cond = b.subgraph(name="cond")
    ci, cn, cx = (b.input("i", [1], "INT32"), b.input("n", [1], "INT32"),
                  b.input("x", [2, 3]))
    go = b.tensor("go", [1], "BOOL")
    b.op("LESS", [ci, cn], [go])
    b.output(go)
    body = b.subgraph(name="body")
    bi, bn, bx = (b.input("i", [1], "INT32"), b.input("n", [1], "INT32"),
                  b.input("x", [2, 3]))
    i1, half, x1 = (b.tensor("i1", [1], "INT32"), b.tensor("half", [2, 3]),
                    b.tensor("x1", [2, 3]))
    b.op("ADD", [bi, b.const("one", np.int32([1]))], [i1])
    b.op("MUL", [bx, b.const("h", np.float32([0.5]))], [half])
    b.op("ADD", [half, b.const("inc", np.float32([1.0]))], [x1])
    for t in (i1, bn, x1):
        b.output(t)
    b.subgraph(main)
    xi, ni = b.input("x", x.shape), b.input("n", [1], "INT32")
    outs = [b.tensor("count", [1], "INT32"), b.tensor("limit", [1], "INT32"),
            b.tensor("y", [2, 3])]
    b.op("WHILE", [b.const("start", np.int32([0])), ni, xi], outs,
         ("WhileOptions", {"CondSubgraphIndex": cond,
                           "BodySubgraphIndex": body}))
    b.output(outs[2])
    b.output(outs[0])
    y = x.astype(np.float64)
    for _ in range(int(n[0])):
        y = y * 0.5 + 1
    return [x, n], [y, n]


@case()
def if_branches(b, rng):
    """Two IFs on one flag and its negation, so one input set runs both
    branches: the then branch doubles x, the else branch subtracts y."""
    x, y = rand(rng, 2, 3), rand(rng, 3)
    flag = np.array([True])
    main = b.current
    then = b.subgraph(name="then")
    tx, ty = b.input("x", [2, 3]), b.input("y", [3])
    t2 = b.tensor("doubled", [2, 3])
    b.op("ADD", [tx, tx], [t2])
    b.output(t2)
    other = b.subgraph(name="else")
    ex, ey = b.input("x", [2, 3]), b.input("y", [3])
    e2 = b.tensor("less", [2, 3])
    b.op("SUB", [ex, ey], [e2])
    b.output(e2)
    b.subgraph(main)
    fi, xi, yi = (b.input("flag", [1], "BOOL"), b.input("x", x.shape),
                  b.input("y", y.shape))
    nf = b.tensor("not_flag", [1], "BOOL")
    b.op("LOGICAL_NOT", [fi], [nf])
    outs = []
    for k, f in enumerate((fi, nf)):
        t = b.tensor("out%d" % k, [2, 3])
        b.op("IF", [f, xi, yi], [t],
             ("IfOptions", {"ThenSubgraphIndex": then,
                            "ElseSubgraphIndex": other}))
        outs.append(b.output(t))
    xd = x.astype(np.float64)
    return [flag, x, y], [2 * xd, xd - y.astype(np.float64)]


def lstm_layer(b, rng, x, batch, seq, inputs, hidden, name, peepholes=True,
               act="TANH", time_major=False):
    """An UNIDIRECTIONAL_SEQUENCE_LSTM on tensor x; returns (output tensor,
    the weights for tflite_reference.lstm)."""
    w = [rand(rng, hidden, inputs, lo=-0.6, hi=0.6) for _ in range(4)]
    r = [rand(rng, hidden, hidden, lo=-0.6, hi=0.6) for _ in range(4)]
    bias = [rand(rng, hidden, lo=-0.3, hi=0.3) for _ in range(4)]
    peep = [rand(rng, hidden, lo=-0.5, hi=0.5) for _ in range(3)] \
        if peepholes else None
    gates = "ifco"
    ins = [x]
    ins += [b.const(f"{name}_w{g}", w[k]) for k, g in enumerate(gates)]
    ins += [b.const(f"{name}_r{g}", r[k]) for k, g in enumerate(gates)]
    ins += [b.const(f"{name}_p{g}", peep[k]) for k, g in enumerate("ifo")] \
        if peepholes else [-1, -1, -1]
    ins += [b.const(f"{name}_b{g}", bias[k]) for k, g in enumerate(gates)]
    ins += [-1, -1]  # no projection
    ins += [b.tensor(f"{name}_h", [batch, hidden], variable=True),
            b.tensor(f"{name}_c", [batch, hidden], variable=True)]
    ins += [-1, -1, -1, -1]  # no layer normalization
    shape = [seq, batch, hidden] if time_major else [batch, seq, hidden]
    y = b.tensor(name, shape)
    b.op("UNIDIRECTIONAL_SEQUENCE_LSTM", ins, [y],
         ("UnidirectionalSequenceLSTMOptions",
          {"FusedActivationFunction": act, "TimeMajor": time_major}))
    return y, (w, r, bias, peep)


@case()
def lstm_peepholes(b, rng):
    batch, seq, inputs, hidden = 2, 5, 3, 4
    x = rand(rng, batch, seq, inputs)
    y, (w, r, bias, peep) = lstm_layer(b, rng, b.input("x", x.shape), batch,
                                       seq, inputs, hidden, "y")
    b.output(y)
    zeros = np.zeros((batch, hidden))
    return [x], [ref.lstm(x, w, r, bias, zeros, zeros, peep)]


@case()
def lstm_time_major_relu(b, rng):
    batch, seq, inputs, hidden = 3, 4, 5, 6
    x = rand(rng, seq, batch, inputs)
    y, (w, r, bias, _) = lstm_layer(b, rng, b.input("x", x.shape), batch, seq,
                                    inputs, hidden, "y", peepholes=False,
                                    act="RELU", time_major=True)
    b.output(y)
    zeros = np.zeros((batch, hidden))
    return [x], [ref.lstm(x, w, r, bias, zeros, zeros, None, "RELU",
                          time_major=True)]


# ----------------------------------------------------------------- quantized

def qparams(lo, hi, dtype=np.int8):
    """Scale and zero point that cover [lo, hi] (TFLite's asymmetric)."""
    info = np.iinfo(dtype)
    scale = (hi - lo) / (info.max - info.min)
    zero = int(round(info.min - lo / scale))
    return float(np.float32(scale)), zero


@case(quanta=1)
def int8_conv_per_channel(b, rng):
    x = rand(rng, 1, 8, 8, 3)
    w = rand(rng, 6, 3, 3, 3)
    bias = rand(rng, 6, lo=-0.5, hi=0.5)
    sx, zx = qparams(-1, 1)
    wscales = np.maximum(np.abs(w).reshape(6, -1).max(1), 1e-3) / 127
    wq = np.clip(np.round(w / wscales[:, None, None, None]), -127, 127) \
        .astype(np.int8)
    bscales = (sx * wscales).astype(np.float32)
    bq = np.round(bias / bscales).astype(np.int32)
    sy, zy = qparams(0, 4)
    xi = b.input("x", x.shape, "INT8", ([sx], [zx]))
    wt = b.const("w", wq, quant=(wscales.astype(np.float32).tolist(),
                                 [0] * 6, 0))
    bt = b.const("b", bq, quant=(bscales.tolist(), [0] * 6, 0))
    y = b.tensor("y", [1, 8, 8, 6], "INT8", ([sy], [zy]))
    b.op("CONV_2D", [xi, wt, bt], [y],
         ("Conv2DOptions", {"Padding": "SAME", "StrideW": 1, "StrideH": 1,
                            "FusedActivationFunction": "RELU"}), version=3)
    b.output(y)
    xq = ref.quantize(x, sx, zx)
    real = ref.conv2d(ref.dequantize(xq, sx, zx),
                      ref.dequantize(wq, wscales, 0, axis=0),
                      bq * bscales.astype(np.float64), activation="RELU")
    return [xq], [ref.quantize(real, sy, zy)]


@case(quanta=1)
def int8_depthwise_pool_add(b, rng):
    x = rand(rng, 1, 8, 8, 4)
    sx, zx = qparams(-1, 1)
    w = rand(rng, 1, 3, 3, 4)
    wscales = np.maximum(np.abs(w).reshape(-1, 4).max(0), 1e-3) / 127
    wq = np.clip(np.round(w / wscales), -127, 127).astype(np.int8)
    bscales = (sx * wscales).astype(np.float32)
    bq = np.zeros(4, np.int32)
    sh, zh = qparams(-2, 2)
    xi = b.input("x", x.shape, "INT8", ([sx], [zx]))
    h = b.tensor("h", [1, 8, 8, 4], "INT8", ([sh], [zh]))
    b.op("DEPTHWISE_CONV_2D",
         [xi, b.const("w", wq, quant=(wscales.astype(np.float32).tolist(),
                                      [0] * 4, 3)),
          b.const("b", bq, quant=(bscales.tolist(), [0] * 4, 0))], [h],
         ("DepthwiseConv2DOptions", {"Padding": "SAME", "StrideW": 1,
                                     "StrideH": 1, "DepthMultiplier": 1}),
         version=3)
    p = b.tensor("p", [1, 4, 4, 4], "INT8", ([sh], [zh]))
    b.op("AVERAGE_POOL_2D", [h], [p],
         ("Pool2DOptions", {"Padding": "VALID", "StrideW": 2, "StrideH": 2,
                            "FilterWidth": 2, "FilterHeight": 2}), version=2)
    sa, za = qparams(-3, 3)
    a = b.tensor("sum", [1, 4, 4, 4], "INT8", ([sa], [za]))
    sl = b.tensor("left", [1, 4, 4, 4], "INT8", ([sh], [zh]))
    b.op("MAX_POOL_2D", [h], [sl],
         ("Pool2DOptions", {"Padding": "VALID", "StrideW": 2, "StrideH": 2,
                            "FilterWidth": 2, "FilterHeight": 2}), version=2)
    b.op("ADD", [p, sl], [a], ("AddOptions", {}), version=2)
    b.output(a)
    xq = ref.quantize(x, sx, zx)
    hr = ref.quantize(ref.depthwise(ref.dequantize(xq, sx, zx),
                                    ref.dequantize(wq, wscales, 0, axis=3),
                                    None), sh, zh)
    hd = ref.dequantize(hr, sh, zh)
    pr = ref.quantize(ref.pool(hd, (2, 2), (2, 2), "VALID", "avg"), sh, zh)
    mr = ref.quantize(ref.pool(hd, (2, 2), (2, 2), "VALID", "max"), sh, zh)
    return [xq], [ref.quantize(ref.dequantize(pr, sh, zh) +
                               ref.dequantize(mr, sh, zh), sa, za)]


@case(quanta=1)
def int8_fc_softmax_edges(b, rng):
    """float in, QUANTIZE, int8 FULLY_CONNECTED, SOFTMAX (1/256, -128),
    DEQUANTIZE, float out: a quantized model with float edges."""
    x = rand(rng, 2, 16)
    w = rand(rng, 10, 16, lo=-0.5, hi=0.5)
    sx, zx = qparams(-1, 1)
    ws = float(np.float32(np.abs(w).max() / 127))
    wq = np.clip(np.round(w / ws), -127, 127).astype(np.int8)
    bias = rand(rng, 10, lo=-0.2, hi=0.2)
    bs = float(np.float32(sx * ws))
    bq = np.round(bias / bs).astype(np.int32)
    sl, zl = qparams(-4, 4)
    xi = b.input("x", x.shape)
    q = b.tensor("xq", [2, 16], "INT8", ([sx], [zx]))
    b.op("QUANTIZE", [xi], [q])
    logits = b.tensor("logits", [2, 10], "INT8", ([sl], [zl]))
    b.op("FULLY_CONNECTED", [q, b.const("w", wq, quant=([ws], [0])),
                             b.const("b", bq, quant=([bs], [0]))], [logits],
         ("FullyConnectedOptions", {}), version=4)
    probs = b.tensor("probs", [2, 10], "INT8", ([1 / 256], [-128]))
    b.op("SOFTMAX", [logits], [probs], ("SoftmaxOptions", {"Beta": 1.0}),
         version=2)
    out = b.tensor("out", [2, 10])
    b.op("DEQUANTIZE", [probs], [out], version=2)
    b.output(out)
    xq = ref.quantize(x, sx, zx)
    lr = ref.quantize(ref.dequantize(xq, sx, zx) @ (wq.astype(np.float64) *
                                                    ws).T + bq * bs, sl, zl)
    pr = ref.quantize(ref.softmax(ref.dequantize(lr, sl, zl)), 1 / 256, -128)
    return [x], [ref.dequantize(pr, 1 / 256, -128)]


@case(quanta=1)
def uint8_conv_concat_reshape(b, rng):
    x = rand(rng, 1, 6, 6, 2, lo=0, hi=1)
    sx, zx = qparams(0, 1, np.uint8)
    w = rand(rng, 3, 1, 1, 2)
    ws, wz = qparams(-1, 1, np.uint8)
    wq = ref.quantize(w, ws, wz, np.uint8)
    bs = float(np.float32(sx * ws))
    sy, zy = qparams(-2, 2, np.uint8)
    xi = b.input("x", x.shape, "UINT8", ([sx], [zx]))
    y = b.tensor("y", [1, 6, 6, 3], "UINT8", ([sy], [zy]))
    b.op("CONV_2D", [xi, b.const("w", wq, quant=([ws], [wz])),
                     b.const("b", np.zeros(3, np.int32), quant=([bs], [0]))],
         [y], ("Conv2DOptions", {"Padding": "VALID", "StrideW": 1,
                                 "StrideH": 1}))
    # Converters give a concatenation's inputs its output's parameters
    # (TensorFlow Lite's XNNPACK path copies bytes without rescaling), so
    # the input is requantized by a QUANTIZE first.
    xq2 = b.tensor("x_requantized", [1, 6, 6, 2], "UINT8", ([sy], [zy]))
    b.op("QUANTIZE", [xi], [xq2])
    c = b.tensor("c", [1, 6, 6, 5], "UINT8", ([sy], [zy]))
    b.op("CONCATENATION", [y, xq2], [c], ("ConcatenationOptions",
                                           {"Axis": 3}))
    r = b.tensor("r", [1, 180], "UINT8", ([sy], [zy]))
    b.op("RESHAPE", [c, b.const("shape", np.array([1, 180], np.int32))], [r])
    b.output(r)
    xq = ref.quantize(x, sx, zx, np.uint8)
    yr = ref.quantize(ref.conv2d(ref.dequantize(xq, sx, zx),
                                 ref.dequantize(wq, ws, wz), None,
                                 padding="VALID"), sy, zy, np.uint8)
    xr = ref.quantize(ref.dequantize(xq, sx, zx), sy, zy, np.uint8)
    return [xq], [np.concatenate([yr, xr], axis=3).reshape(1, 180)]


# ------------------------------------------------------------ whole networks

def network(net, form):
    """A case of networks.py's `net` in `form`: (inputs, references, the
    model's bytes)."""
    return ([n.array for n in net.inputs], net.reference(form),
            net.tflite(form))


@case(tol=1e-4)
def net_classifier_float16(b, rng):
    return network(networks.classifier(), "float16")


@case(quanta=3)
def net_classifier_int8(b, rng):
    return network(networks.classifier(), "int8")


@case()
def net_segmenter(b, rng):
    return network(networks.segmenter(), "float32")


@case()
def net_detector(b, rng):
    return network(networks.detector(), "float32")


@case()
def net_keyword_spotter(b, rng):
    return network(networks.keyword_spotter(), "float32")


def build(name):
    """(model bytes, inputs, references, case.json's fields)."""
    fn, meta = CASES[name]
    rng = np.random.default_rng(int.from_bytes(
        hashlib.sha256(name.encode()).digest()[:4], "little"))
    b = ModelBuilder()
    made = fn(b, rng)
    if len(made) == 3:
        return made[2], made[0], made[1], meta
    inputs, refs = made
    return b.finish(), inputs, refs, meta


def main():
    out = sys.argv[1]
    names = sys.argv[2:] or list(CASES)
    for name in names:
        data, inputs, refs, meta = build(name)
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "model.tflite"), "wb") as f:
            f.write(data)
        for k, x in enumerate(inputs):
            np.save(os.path.join(d, "input_%d.npy" % k), x)
        for k, r in enumerate(refs):
            np.save(os.path.join(d, "numpy_%d.npy" % k), np.asarray(r))
        meta = dict(meta, sha256=hashlib.sha256(data).hexdigest())
        with open(os.path.join(d, "case.json"), "w") as f:
            json.dump(meta, f, indent=1, sort_keys=True)
    print("%d models in %s" % (len(names), out))


if __name__ == "__main__":
    main()
