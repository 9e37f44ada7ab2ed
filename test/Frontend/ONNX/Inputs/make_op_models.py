#!/usr/bin/python3
"""Writes models for operators whose ONNX node tests feed a runtime value the
importer needs at compile time (CumSum's axis, Range's bounds, ScatterND's
indices), with the constant forms exporters write, plus Einsum equations the
node tests do not cover. Expected outputs are numpy's.

Usage: make_op_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from testdata import save


def build(out, name, nodes, inputs, outputs, feeds, expected, inits=(),
          opset=14):
    g = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 7
    onnx.checker.check_model(m)
    save(out, name, m, feeds, expected)


def pool(x, kernel, strides, pads, dilations, kind, include_pad=False, p=2):
    """A direct N-D pool over the last len(kernel) axes (numpy loops)."""
    k = len(kernel)
    spatial = x.shape[-k:]
    out = [(spatial[i] + pads[i] + pads[i + k] - (kernel[i] - 1) * dilations[i] - 1)
           // strides[i] + 1 for i in range(k)]
    y = np.zeros(x.shape[:-k] + tuple(out), np.float64)
    for o in np.ndindex(*out):
        values, count = [], 0
        for t in np.ndindex(*kernel):
            pos = [o[i] * strides[i] - pads[i] + t[i] * dilations[i] for i in range(k)]
            inside = all(0 <= pos[i] < spatial[i] for i in range(k))
            in_pads = all(-pads[i] <= pos[i] < spatial[i] + pads[i + k] for i in range(k))
            if inside:
                values.append(x[(Ellipsis,) + tuple(pos)])
            count += inside or (include_pad and in_pads)
            if include_pad and in_pads and not inside:
                values.append(np.zeros(x.shape[:-k]))
        stacked = np.stack(values)
        if kind == "max":
            y[(Ellipsis,) + o] = stacked.max(0)
        elif kind == "lp":
            y[(Ellipsis,) + o] = (np.abs(stacked.astype(np.float64)) ** p).sum(0) ** (1.0 / p)
        else:
            y[(Ellipsis,) + o] = stacked.sum(0) / count
    return y.astype(np.float32)


def cubic_resize(x, scales, out_shape, coord, a, exclude):
    """ONNX's cubic Resize of the last two axes, one axis at a time: each
    output sample takes the 4 input samples nearest its source coordinate
    (ties to the lower index) in the edge-padded axis."""
    def coeffs(r):
        return np.array([((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
                         ((a + 2) * r - (a + 3)) * r * r + 1,
                         ((a + 2) * (1 - r) - (a + 3)) * (1 - r) * (1 - r) + 1,
                         ((a * (2 - r) - 5 * a) * (2 - r) + 8 * a) * (2 - r) - 4 * a])

    def one(v, scale, n_out):
        n_in = len(v)
        padded = np.pad(v, 2, mode="edge")
        res = np.zeros(n_out)
        for o in range(n_out):
            width = scale * n_in
            if coord == "align_corners":
                x0 = 0.0 if width == 1 else o * (n_in - 1) / (width - 1)
            elif coord == "asymmetric":
                x0 = o / scale
            else:
                x0 = (o + 0.5) / scale - 0.5
            r = 1.0 if float(x0).is_integer() else x0 - np.floor(x0)
            c = coeffs(r)
            near = sorted(sorted(range(len(padded)),
                                 key=lambda i: (abs(x0 + 2 - i), i))[:4])
            idx = np.array(near) - 2
            if exclude:
                c = np.where((idx < 0) | (idx >= n_in), 0.0, c)
                c = c / c.sum()
            res[o] = np.dot(c, padded[near])
        return res

    y = x.astype(np.float64)
    for axis in (2, 3):
        y = np.apply_along_axis(one, axis, y, scales[axis], out_shape[axis])
    return y.astype(np.float32)


def conv_transpose(x, w, strides, dilations, pads, extra=(0, 0)):
    """A direct 2-D transposed convolution: every input pixel scatters its
    kernel (taps `dilations` apart) at `strides`, `extra` rows and columns
    (output_padding) are added at the end; then the pads are cut."""
    n, c, h, wd = x.shape
    _, oc, kh, kw = w.shape
    full = ((h - 1) * strides[0] + (kh - 1) * dilations[0] + 1 + extra[0],
            (wd - 1) * strides[1] + (kw - 1) * dilations[1] + 1 + extra[1])
    y = np.zeros((n, oc) + full)
    for i in range(h):
        for j in range(wd):
            for a in range(kh):
                for b in range(kw):
                    y[:, :, i * strides[0] + a * dilations[0],
                      j * strides[1] + b * dilations[1]] += \
                        np.einsum("nc,co->no", x[:, :, i, j], w[:, :, a, b])
    return y[:, :, pads[0]:full[0] - pads[2],
             pads[1]:full[1] - pads[3]].astype(np.float32)


def vi(name, shape, t=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, t, shape)


def const(name, value):
    return numpy_helper.from_array(np.array(value), name)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.RandomState(3)

    x = rng.uniform(-1, 1, size=(2, 5)).astype(np.float32)
    exclusive_0 = np.concatenate([np.zeros((1, 5), np.float32), x[:1]], 0)
    reverse_exclusive = np.flip(np.cumsum(np.flip(x, 1), 1), 1) - x
    build(out, "cumsum",
         [helper.make_node("CumSum", ["x", "one"], ["y1"]),
          helper.make_node("CumSum", ["x", "zero"], ["y2"], exclusive=1),
          helper.make_node("CumSum", ["x", "minus_one"], ["y3"], exclusive=1,
                           reverse=1)],
         [vi("x", [2, 5])], [vi("y1", [2, 5]), vi("y2", [2, 5]), vi("y3", [2, 5])],
         [("x", x)],
         [("y1", np.cumsum(x, 1)), ("y2", exclusive_0),
          ("y3", reverse_exclusive.astype(np.float32))],
         [const("one", np.int64(1)), const("zero", np.int64(0)),
          const("minus_one", np.int64(-1))])

    # Position ids as exporters write them: Range(0, Shape(x)[1], 1), with a
    # symbolic sequence length nnapi-run sets from the test data.
    x = rng.uniform(-1, 1, size=(2, 6)).astype(np.float32)
    build(out, "range",
         [helper.make_node("Shape", ["x"], ["shape"]),
          helper.make_node("Gather", ["shape", "one"], ["len"], axis=0),
          helper.make_node("Range", ["zero", "len", "one"], ["positions"]),
          helper.make_node("Range", ["start", "limit", "delta"], ["steps"])],
         [vi("x", ["N", "S"])],
         [vi("positions", ["S"], TensorProto.INT64), vi("steps", [5])],
         [("x", x)],
         [("positions", np.arange(6, dtype=np.int64)),
          ("steps", np.arange(1.5, 4, 0.5, dtype=np.float32))],
         [const("zero", np.int64(0)), const("one", np.int64(1)),
          const("start", np.float32(1.5)), const("limit", np.float32(4)),
          const("delta", np.float32(0.5))])

    data = rng.uniform(-1, 1, size=(4, 3)).astype(np.float32)
    updates = rng.uniform(-1, 1, size=(2, 3)).astype(np.float32)
    scattered = data.copy()
    scattered[[3, 1]] = updates
    build(out, "scatternd",
         [helper.make_node("ScatterND", ["data", "indices", "updates"], ["y"])],
         [vi("data", [4, 3]), vi("updates", [2, 3])], [vi("y", [4, 3])],
         [("data", data), ("updates", updates)], [("y", scattered)],
         [numpy_helper.from_array(np.array([[3], [1]], np.int64), "indices")])

    a = rng.uniform(-1, 1, size=(2, 3, 4)).astype(np.float32)
    b = rng.uniform(-1, 1, size=(2, 4, 5)).astype(np.float32)
    c = rng.uniform(-1, 1, size=(3, 5)).astype(np.float32)
    d = rng.uniform(-1, 1, size=(4, 4)).astype(np.float32)
    e = rng.uniform(-1, 1, size=(2, 3, 3)).astype(np.float32)
    build(out, "einsum",
         [helper.make_node("Einsum", ["a", "b"], ["batched"],
                           equation="...ij,...jk->...ik"),
          helper.make_node("Einsum", ["a", "c"], ["implicit"],
                           equation="bij,ik"),
          helper.make_node("Einsum", ["a"], ["summed"], equation="bij->jb"),
          # Diagonals: a trace, a batched diagonal, a diagonal then a product.
          helper.make_node("Einsum", ["d"], ["trace"], equation="ii"),
          helper.make_node("Einsum", ["e"], ["diag"], equation="bii->bi"),
          helper.make_node("Einsum", ["e", "c2"], ["diagmm"],
                           equation="bii,ik->bk")],
         [vi("a", [2, 3, 4]), vi("b", [2, 4, 5]), vi("c", [3, 5]),
          vi("d", [4, 4]), vi("e", [2, 3, 3]), vi("c2", [3, 5])],
         [vi("batched", [2, 3, 5]), vi("implicit", [2, 4, 5]),
          vi("summed", [4, 2]), vi("trace", []), vi("diag", [2, 3]),
          vi("diagmm", [2, 5])],
         [("a", a), ("b", b), ("c", c), ("d", d), ("e", e), ("c2", c)],
         [("batched", np.einsum("...ij,...jk->...ik", a, b)),
          ("implicit", np.einsum("bij,ik", a, c)),
          ("summed", np.einsum("bij->jb", a)),
          ("trace", np.array(np.trace(d), np.float32)),
          ("diag", np.einsum("bii->bi", e)),
          ("diagmm", np.einsum("bii,ik->bk", e, c))])

    # Pools TOSA's 2-D pools cannot express: 3-D windows with pads (with
    # and without the pads counted), a dilated 2-D max pool, LpPool, and
    # 3-D windows of 512 elements (8x8x8).
    x3 = rng.uniform(-1, 1, size=(1, 2, 4, 5, 5)).astype(np.float32)
    x4 = rng.uniform(-1, 1, size=(1, 1, 10, 10, 10)).astype(np.float32)
    x2 = rng.uniform(-1, 1, size=(1, 1, 7, 7)).astype(np.float32)
    k3, s3, p3 = [2, 3, 3], [1, 2, 2], [0, 1, 1, 1, 1, 1]
    build(out, "pools",
          [helper.make_node("AveragePool", ["x3"], ["avg"], kernel_shape=k3,
                            strides=s3, pads=p3),
           helper.make_node("AveragePool", ["x3"], ["avg_pads"], kernel_shape=k3,
                            strides=s3, pads=p3, count_include_pad=1),
           helper.make_node("MaxPool", ["x3"], ["max3"], kernel_shape=k3,
                            strides=s3, pads=p3),
           helper.make_node("MaxPool", ["x2"], ["dilated"], kernel_shape=[3, 3],
                            pads=[1, 1, 1, 1], dilations=[2, 2]),
           helper.make_node("LpPool", ["x2"], ["lp2"], kernel_shape=[2, 2],
                            strides=[2, 2]),
           helper.make_node("LpPool", ["x2"], ["lp3"], kernel_shape=[3, 3],
                            pads=[1, 1, 1, 1], p=3),
           helper.make_node("MaxPool", ["x4"], ["max_big"], kernel_shape=[8, 8, 8],
                            strides=[2, 2, 2]),
           helper.make_node("AveragePool", ["x4"], ["avg_big"],
                            kernel_shape=[8, 8, 8], strides=[2, 2, 2],
                            pads=[1, 1, 1, 1, 1, 1])],
          [vi("x3", [1, 2, 4, 5, 5]), vi("x2", [1, 1, 7, 7]),
           vi("x4", [1, 1, 10, 10, 10])],
          [vi("avg", [1, 2, 4, 3, 3]), vi("avg_pads", [1, 2, 4, 3, 3]),
           vi("max3", [1, 2, 4, 3, 3]), vi("dilated", [1, 1, 5, 5]),
           vi("lp2", [1, 1, 3, 3]), vi("lp3", [1, 1, 7, 7]),
           vi("max_big", [1, 1, 2, 2, 2]), vi("avg_big", [1, 1, 3, 3, 3])],
          [("x3", x3), ("x2", x2), ("x4", x4)],
          [("avg", pool(x3, k3, s3, p3, [1, 1, 1], "avg")),
           ("avg_pads", pool(x3, k3, s3, p3, [1, 1, 1], "avg", True)),
           ("max3", pool(x3, k3, s3, p3, [1, 1, 1], "max")),
           ("dilated", pool(x2, [3, 3], [1, 1], [1, 1, 1, 1], [2, 2], "max")),
           ("lp2", pool(x2, [2, 2], [2, 2], [0, 0, 0, 0], [1, 1], "lp")),
           ("lp3", pool(x2, [3, 3], [1, 1], [1, 1, 1, 1], [1, 1], "lp", p=3)),
           ("max_big", pool(x4, [8, 8, 8], [2, 2, 2], [0] * 6, [1, 1, 1], "max")),
           ("avg_big", pool(x4, [8, 8, 8], [2, 2, 2], [1] * 6, [1, 1, 1], "avg"))],
          opset=13)

    # Pads computed from constants: Concat(Split(c)), a reversing Slice
    # whose end is before the first element (-2^63 + 1: the whole vector),
    # and a constant value sliced out of a 2-D float constant.
    xp = rng.uniform(-1, 1, size=(1, 1, 3, 4)).astype(np.float32)
    big_negative = -(2 ** 63) + 1
    build(out, "const_pads",
          [helper.make_node("Split", ["c", "sp"], ["c0", "c1"], axis=0),
           helper.make_node("Concat", ["c0", "c1"], ["pads_a"], axis=0),
           helper.make_node("Pad", ["x", "pads_a"], ["ya"]),
           helper.make_node("Slice", ["r", "rs", "re", "ra", "rst"], ["pads_b"]),
           helper.make_node("Slice", ["vals", "vs", "ve"], ["v11"]),
           helper.make_node("Reshape", ["v11", "scalar"], ["value"]),
           helper.make_node("Pad", ["x", "pads_b", "value"], ["yb"])],
          [vi("x", [1, 1, 3, 4])],
          [vi("ya", [1, 1, 6, 7]), vi("yb", [1, 1, 6, 5])],
          [("x", xp)],
          [("ya", np.pad(xp, ((0, 0), (0, 0), (1, 2), (2, 1)))),
           ("yb", np.pad(xp, ((0, 0), (0, 0), (2, 1), (0, 1)),
                         constant_values=3.5))],
          [numpy_helper.from_array(np.array([0, 0, 1, 2, 0, 0, 2, 1], np.int64), "c"),
           numpy_helper.from_array(np.array([4, 4], np.int64), "sp"),
           numpy_helper.from_array(np.array([1, 1, 0, 0, 0, 2, 0, 0], np.int64), "r"),
           numpy_helper.from_array(np.array([-1], np.int64), "rs"),
           numpy_helper.from_array(np.array([big_negative], np.int64), "re"),
           numpy_helper.from_array(np.array([0], np.int64), "ra"),
           numpy_helper.from_array(np.array([-1], np.int64), "rst"),
           numpy_helper.from_array(np.array([[0.5, 2.5], [1.5, 3.5]], np.float32), "vals"),
           numpy_helper.from_array(np.array([1, 1], np.int64), "vs"),
           numpy_helper.from_array(np.array([2, 2], np.int64), "ve"),
           numpy_helper.from_array(np.array([], np.int64), "scalar")],
          opset=13)

    # Intermediate values exposed as outputs (--expose-values): the test
    # directory holds y and then a and b.
    xe = rng.uniform(-1, 1, size=(2, 3)).astype(np.float32)
    a = np.maximum(xe, 0)
    b = a * 2
    build(out, "expose",
          [helper.make_node("Relu", ["x"], ["a"]),
           helper.make_node("Mul", ["a", "two"], ["b"]),
           helper.make_node("Add", ["b", "one"], ["y"])],
          [vi("x", [2, 3])], [vi("y", [2, 3])], [("x", xe)],
          [("y", b + 1), ("a", a), ("b", b)],
          [numpy_helper.from_array(np.array(2, np.float32), "two"),
           numpy_helper.from_array(np.array(1, np.float32), "one")])

    # A sequence value cannot be exposed.
    g = helper.make_graph(
        [helper.make_node("SequenceConstruct", ["x"], ["s"]),
         helper.make_node("SequenceAt", ["s", "zero"], ["y"])],
        "expose_seq", [vi("x", [2, 3])], [vi("y", [2, 3])],
        [numpy_helper.from_array(np.array(0, np.int64), "zero")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)])
    m.ir_version = 7
    onnx.save(m, os.path.join(out, "expose_seq.onnx"))

    # Cubic Resize with constant scales or sizes, every coordinate mode the
    # importer takes, exclude_outside and another cubic coefficient.
    x = rng.uniform(-1, 1, size=(1, 2, 5, 6)).astype(np.float32)
    roi = numpy_helper.from_array(np.array([], np.float32), "roi")
    build(out, "cubic",
          [helper.make_node("Resize", ["x", "roi", "up_scales"], ["up"],
                            mode="cubic"),
           helper.make_node("Resize", ["x", "roi", "down_scales"], ["down"],
                            mode="cubic", exclude_outside=1, cubic_coeff_a=-0.5,
                            coordinate_transformation_mode="align_corners"),
           helper.make_node("Resize", ["x", "roi", "", "sizes"], ["asym"],
                            mode="cubic",
                            coordinate_transformation_mode="asymmetric")],
          [vi("x", [1, 2, 5, 6])],
          [vi("up", [1, 2, 8, 12]), vi("down", [1, 2, 3, 3]),
           vi("asym", [1, 2, 7, 4])],
          [("x", x)],
          [("up", cubic_resize(x, [1, 1, 1.6, 2.0], (1, 2, 8, 12),
                               "half_pixel", -0.75, False)),
           ("down", cubic_resize(x, [1, 1, 0.6, 0.5], (1, 2, 3, 3),
                                 "align_corners", -0.5, True)),
           ("asym", cubic_resize(x, [1, 1, 7 / 5, 4 / 6], (1, 2, 7, 4),
                                 "asymmetric", -0.75, False))],
          [roi,
           numpy_helper.from_array(np.array([1, 1, 1.6, 2], np.float32), "up_scales"),
           numpy_helper.from_array(np.array([1, 1, 0.6, 0.5], np.float32), "down_scales"),
           numpy_helper.from_array(np.array([1, 2, 7, 4], np.int64), "sizes")],
          opset=13)

    # ConvTranspose with dilations, constant weights (folded) and runtime
    # ones (the node test's form).
    x = rng.uniform(-1, 1, size=(1, 2, 4, 5)).astype(np.float32)
    w = rng.uniform(-1, 1, size=(2, 3, 3, 2)).astype(np.float32)
    attrs = dict(strides=[2, 1], dilations=[2, 3], pads=[1, 0, 0, 2])
    y = conv_transpose(x, w, [2, 1], [2, 3], [1, 0, 0, 2])
    # output_shape (pads derived, the odd one at the start), without and
    # with output_padding: pads worked out by hand from ONNX's formula,
    # total = stride * (in - 1) + output_padding + kernel - out.
    shaped = conv_transpose(x, w, [2, 1], [1, 1], [1, 1, 0, 0])
    padded = conv_transpose(x, w, [2, 1], [1, 1], [1, 1, 1, 0], extra=(1, 0))
    build(out, "convtranspose",
          [helper.make_node("ConvTranspose", ["x", "wc"], ["yc"], **attrs),
           helper.make_node("ConvTranspose", ["x", "w"], ["yr"], **attrs),
           helper.make_node("ConvTranspose", ["x", "wc"], ["ys"],
                            strides=[2, 1], output_shape=[8, 5]),
           helper.make_node("ConvTranspose", ["x", "wc"], ["yp"],
                            strides=[2, 1], output_padding=[1, 0],
                            output_shape=[8, 5])],
          [vi("x", [1, 2, 4, 5]), vi("w", [2, 3, 3, 2])],
          [vi("yc", list(y.shape)), vi("yr", list(y.shape)),
           vi("ys", [1, 3, 8, 5]), vi("yp", [1, 3, 8, 5])],
          [("x", x), ("w", w)],
          [("yc", y), ("yr", y), ("ys", shaped), ("yp", padded)],
          [numpy_helper.from_array(w, "wc")], opset=13)

    # Integer Mod of every sign combination, with divisors 0 and -1 (0, as
    # numpy; no trap) and INT_MIN, in int32 and int64.
    for name, dt, tp in (("mod32", np.int32, TensorProto.INT32),
                         ("mod64", np.int64, TensorProto.INT64)):
        lo = np.iinfo(dt).min
        a = np.array([7, -7, 7, -7, 5, lo, lo, 9, 0], dt)
        b = np.array([3, 3, -3, -3, 0, -1, 7, -1, 4], dt)
        safe = np.where((b == 0) | (b == -1), 1, b)
        fmod = np.where((b == 0) | (b == -1), 0, np.fmod(a, safe)).astype(dt)
        pymod = np.where((b == 0) | (b == -1), 0, np.mod(a, safe)).astype(dt)
        build(out, name,
              [helper.make_node("Mod", ["a", "b"], ["m"]),
               helper.make_node("Mod", ["a", "b"], ["f"], fmod=1)],
              [vi("a", [9], tp), vi("b", [9], tp)],
              [vi("m", [9], tp), vi("f", [9], tp)],
              [("a", a), ("b", b)], [("m", pymod), ("f", fmod)], opset=13)

    # Integer MaxPool (uint8 images; int8 with negative values, so that the
    # padding must be below every value), through the strided-slice pools.
    xu = rng.randint(0, 256, size=(1, 2, 5, 6)).astype(np.uint8)
    xi = rng.randint(-128, -10, size=(1, 2, 5, 6)).astype(np.int8)
    kw = dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    build(out, "intpool",
          [helper.make_node("MaxPool", ["xu"], ["yu"], **kw),
           helper.make_node("MaxPool", ["xi"], ["yi"], **kw)],
          [vi("xu", [1, 2, 5, 6], TensorProto.UINT8),
           vi("xi", [1, 2, 5, 6], TensorProto.INT8)],
          [vi("yu", [1, 2, 3, 3], TensorProto.UINT8),
           vi("yi", [1, 2, 3, 3], TensorProto.INT8)],
          [("xu", xu), ("xi", xi)],
          [("yu", pool(xu, [3, 3], [2, 2], [1, 1, 1, 1], [1, 1], "max").astype(np.uint8)),
           ("yi", pool(xi, [3, 3], [2, 2], [1, 1, 1, 1], [1, 1], "max").astype(np.int8))],
          opset=13)

    # uint64 Mod above 2^63: the unsigned remainder, divisor 2^64-1 included.
    a = np.array([2**63, 2**64 - 1, 2**63 + 5, 10, 7], np.uint64)
    b = np.array([3, 2**64 - 1, 2**63, 0, 2**64 - 1], np.uint64)
    expected = np.array([int(x) % int(y) if y else 0 for x, y in zip(a, b)],
                        np.uint64)
    build(out, "modu64",
          [helper.make_node("Mod", ["a", "b"], ["m"])],
          [vi("a", [5], TensorProto.UINT64), vi("b", [5], TensorProto.UINT64)],
          [vi("m", [5], TensorProto.UINT64)],
          [("a", a), ("b", b)], [("m", expected)], opset=13)

    # ScatterND reductions: rows hit several times accumulate in update
    # order (numpy's add.at / multiply.at), rows hit never stay.
    data = rng.uniform(-1, 1, size=(5, 3)).astype(np.float32)
    upd = rng.uniform(0.5, 1.5, size=(4, 3)).astype(np.float32)
    rows = np.array([[1], [3], [1], [1]], np.int64)
    added, multiplied = data.copy(), data.copy()
    np.add.at(added, rows[:, 0], upd)
    np.multiply.at(multiplied, rows[:, 0], upd)
    build(out, "scatternd_reduce",
          [helper.make_node("ScatterND", ["x", "rows", "u"], ["a"],
                            reduction="add"),
           helper.make_node("ScatterND", ["x", "rows", "u"], ["m"],
                            reduction="mul")],
          [vi("x", [5, 3]), vi("u", [4, 3])], [vi("a", [5, 3]), vi("m", [5, 3])],
          [("x", data), ("u", upd)], [("a", added), ("m", multiplied)],
          [numpy_helper.from_array(rows, "rows")], opset=16)

    # Compile-time arithmetic on small float values (a window's length as
    # a float, feeding Range) and casts of booleans, folded by the importer.
    n = np.array(6, np.int32)
    x = rng.uniform(-1, 1, size=10).astype(np.float32)
    r = np.arange(0, (float(n) - 1) / 2, 0.25, dtype=np.float32)
    build(out, "float_fold",
          [helper.make_node("Cast", ["n"], ["nf"], to=TensorProto.FLOAT),
           helper.make_node("Sub", ["nf", "one"], ["last"]),
           helper.make_node("Div", ["last", "two"], ["half"]),
           helper.make_node("Range", ["zero", "half", "quarter"], ["r"]),
           helper.make_node("Cast", ["flags"], ["fi"], to=TensorProto.INT64),
           helper.make_node("Cast", ["counts"], ["cb"], to=TensorProto.BOOL),
           helper.make_node("Mul", ["x", "r"], ["y"])],
          [vi("x", [10])],
          [vi("y", [10]), vi("fi", [3], TensorProto.INT64),
           vi("cb", [3], TensorProto.BOOL)],
          [("x", x)],
          [("y", x * r), ("fi", np.array([1, 0, 1], np.int64)),
           ("cb", np.array([True, False, True]))],
          [numpy_helper.from_array(n, "n"),
           numpy_helper.from_array(np.array(1, np.float32), "one"),
           numpy_helper.from_array(np.array(2, np.float32), "two"),
           numpy_helper.from_array(np.array(0, np.float32), "zero"),
           numpy_helper.from_array(np.array(0.25, np.float32), "quarter"),
           numpy_helper.from_array(np.array([True, False, True]), "flags"),
           numpy_helper.from_array(np.array([2, 0, -1], np.int64), "counts")])

    # 3-D convolution (host only): strides, dilations, asymmetric pads and a
    # bias, against a direct loop over the definition.
    x3 = rng.uniform(-1, 1, size=(2, 3, 6, 7, 5)).astype(np.float32)
    w3 = rng.uniform(-1, 1, size=(4, 3, 2, 3, 2)).astype(np.float32)
    b3 = rng.uniform(-1, 1, size=4).astype(np.float32)
    strides, dil, pads = (2, 1, 2), (1, 2, 1), (1, 0, 1, 0, 2, 1)
    xp = np.pad(x3, [(0, 0), (0, 0)] + [(pads[i], pads[i + 3]) for i in range(3)])
    eff = [(w3.shape[2 + i] - 1) * dil[i] + 1 for i in range(3)]
    od = [(xp.shape[2 + i] - eff[i]) // strides[i] + 1 for i in range(3)]
    y3 = np.zeros((2, 4, *od), np.float64)
    for d in range(od[0]):
        for h in range(od[1]):
            for w in range(od[2]):
                patch = xp[:, :,
                           d * strides[0]:d * strides[0] + eff[0]:dil[0],
                           h * strides[1]:h * strides[1] + eff[1]:dil[1],
                           w * strides[2]:w * strides[2] + eff[2]:dil[2]]
                y3[:, :, d, h, w] = np.einsum("ncdhw,ocdhw->no", patch, w3)
    y3 += b3[None, :, None, None, None]
    build(out, "conv3d",
          [helper.make_node("Conv", ["x", "w", "b"], ["y"], strides=strides,
                            dilations=dil, pads=pads)],
          [vi("x", [2, 3, 6, 7, 5])], [vi("y", [2, 4, *od])],
          [("x", x3)], [("y", y3.astype(np.float32))],
          [numpy_helper.from_array(w3, "w"), numpy_helper.from_array(b3, "b")])

    # The same in groups (PyTorch's Conv3d(groups=2)): each group's output
    # channels read their group's input channels only.
    xg = rng.uniform(-1, 1, size=(1, 4, 4, 5, 4)).astype(np.float32)
    wg = rng.uniform(-1, 1, size=(6, 2, 2, 2, 3)).astype(np.float32)
    bg = rng.uniform(-1, 1, size=6).astype(np.float32)
    xgp = np.pad(xg, [(0, 0), (0, 0), (1, 1), (0, 0), (1, 1)]).astype(np.float64)
    yg = np.zeros((1, 6, 5, 4, 4), np.float64)
    for o in range(6):
        grp = o // 3
        for d in range(5):
            for h in range(4):
                for w in range(4):
                    patch = xgp[0, 2 * grp:2 * grp + 2, d:d + 2, h:h + 2, w:w + 3]
                    yg[0, o, d, h, w] = (patch * wg[o]).sum() + bg[o]
    build(out, "conv3d_groups",
          [helper.make_node("Conv", ["x", "w", "b"], ["y"], group=2,
                            pads=(1, 0, 1, 1, 0, 1))],
          [vi("x", [1, 4, 4, 5, 4])], [vi("y", [1, 6, 5, 4, 4])],
          [("x", xg)], [("y", yg.astype(np.float32))],
          [numpy_helper.from_array(wg, "w"), numpy_helper.from_array(bg, "b")])

    # 3-D transposed convolution with strides, dilations, pads (one larger
    # than the kernel's extent: a crop) and output_padding, against the
    # scatter of its definition.
    xt = rng.uniform(-1, 1, size=(1, 3, 3, 2, 4)).astype(np.float32)
    wt = rng.uniform(-1, 1, size=(3, 2, 2, 3, 2)).astype(np.float32)
    bt = rng.uniform(-1, 1, size=2).astype(np.float32)
    st, dl, op = (2, 1, 3), (1, 2, 1), (1, 0, 2)
    pb, pe = (0, 1, 2), (1, 3, 0)
    full = [(xt.shape[2 + i] - 1) * st[i] + (wt.shape[2 + i] - 1) * dl[i] + 1 +
            op[i] for i in range(3)]
    acc = np.zeros((1, 2, *full), np.float64)
    for d in range(xt.shape[2]):
        for h in range(xt.shape[3]):
            for w in range(xt.shape[4]):
                for kd in range(wt.shape[2]):
                    for kh in range(wt.shape[3]):
                        for kw in range(wt.shape[4]):
                            acc[0, :, d * st[0] + kd * dl[0], h * st[1] + kh * dl[1],
                                w * st[2] + kw * dl[2]] += \
                                xt[0, :, d, h, w] @ wt[:, :, kd, kh, kw]
    yt = acc[:, :, pb[0]:full[0] - pe[0], pb[1]:full[1] - pe[1],
             pb[2]:full[2] - pe[2]] + bt[None, :, None, None, None]
    build(out, "convtranspose3d",
          [helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"], strides=st,
                            dilations=dl, output_padding=op,
                            pads=pb + pe)],
          [vi("x", list(xt.shape))], [vi("y", list(yt.shape))],
          [("x", xt)], [("y", yt.astype(np.float32))],
          [numpy_helper.from_array(wt, "w"), numpy_helper.from_array(bt, "b")])

    # Resize's tf_crop_and_resize: a region of interest (a constant roi)
    # sampled linearly and by nearest, the part outside the input filled
    # with extrapolation_value, against the formula of ONNX's definition.
    xr = rng.uniform(-1, 1, size=(1, 2, 4, 5)).astype(np.float32)
    roi = np.array([0, 0, 0.2, -0.3, 1, 1, 0.9, 1.2], np.float32)

    def crop_axis(n_in, n_out, start, end):
        if n_out > 1:
            return [start * (n_in - 1) + o * (end - start) * (n_in - 1) / (n_out - 1)
                    for o in range(n_out)]
        return [0.5 * (start + end) * (n_in - 1)]

    for name, mode, size in (("resize_crop_linear", "linear", (3, 7)),
                             ("resize_crop_nearest", "nearest", (5, 4))):
        hs = crop_axis(4, size[0], float(roi[2]), float(roi[6]))
        ws_ = crop_axis(5, size[1], float(roi[3]), float(roi[7]))
        yr = np.full((1, 2, *size), 10.0, np.float64)
        for i, hy in enumerate(hs):
            for j, wx in enumerate(ws_):
                if not (0 <= hy <= 3 and 0 <= wx <= 4):
                    continue
                if mode == "nearest":
                    # round_prefer_floor
                    pick = lambda v: int(np.floor(v)) if v - np.floor(v) <= 0.5 \
                        else int(np.ceil(v))
                    yr[0, :, i, j] = xr[0, :, pick(hy), pick(wx)]
                    continue
                h0, w0 = int(np.floor(hy)), int(np.floor(wx))
                h1, w1 = min(h0 + 1, 3), min(w0 + 1, 4)
                fh, fw = hy - h0, wx - w0
                yr[0, :, i, j] = ((1 - fh) * ((1 - fw) * xr[0, :, h0, w0] + fw * xr[0, :, h0, w1]) +
                                  fh * ((1 - fw) * xr[0, :, h1, w0] + fw * xr[0, :, h1, w1]))
        build(out, name,
              [helper.make_node("Resize", ["x", "roi", "", "sizes"], ["y"],
                                mode=mode, extrapolation_value=10.0,
                                coordinate_transformation_mode="tf_crop_and_resize")],
              [vi("x", list(xr.shape))], [vi("y", [1, 2, *size])],
              [("x", xr)], [("y", yr.astype(np.float32))],
              [numpy_helper.from_array(roi, "roi"),
               numpy_helper.from_array(np.array([1, 2, *size], np.int64), "sizes")],
              opset=13)

    # Integer Relu and PRelu: values beyond int32 and the float bounds
    # the importer clamps with (saturated to the integer type).
    xi = np.array([-5, 3_000_000_000, -3_000_000_000, 7, 0, 2**62], np.int64)
    slope = np.array([2], np.int64)
    build(out, "int_relu",
          [helper.make_node("Relu", ["x"], ["r"]),
           helper.make_node("PRelu", ["x", "slope"], ["p"])],
          [vi("x", [6], TensorProto.INT64)],
          [vi("r", [6], TensorProto.INT64), vi("p", [6], TensorProto.INT64)],
          [("x", xi)],
          [("r", np.maximum(xi, 0)), ("p", np.where(xi < 0, xi * 2, xi))],
          [numpy_helper.from_array(slope, "slope")], opset=16)

    # TopK with a constant K as detection heads write it; ties (the two
    # 0.5s) go to the lower index.
    x = rng.uniform(-1, 1, size=(3, 6)).astype(np.float32)
    x[0, 1] = x[0, 4] = 0.5
    order = np.argsort(-x, axis=1, kind="stable")[:, :3]
    low = np.argsort(x, axis=0, kind="stable")[:2, :]
    build(out, "topk",
          [helper.make_node("TopK", ["x", "k3"], ["v", "i"]),
           helper.make_node("TopK", ["x", "k2"], ["sv", "si"], axis=0, largest=0)],
          [vi("x", [3, 6])],
          [vi("v", [3, 3]), vi("i", [3, 3], TensorProto.INT64),
           vi("sv", [2, 6]), vi("si", [2, 6], TensorProto.INT64)],
          [("x", x)],
          [("v", np.take_along_axis(x, order, 1)), ("i", order.astype(np.int64)),
           ("sv", np.take_along_axis(x, low, 0)), ("si", low.astype(np.int64))],
          [numpy_helper.from_array(np.array([3], np.int64), "k3"),
           numpy_helper.from_array(np.array([2], np.int64), "k2")])


if __name__ == "__main__":
    main()
