#!/usr/bin/python3
"""A numpy evaluator for the ONNX operators of the real-model tests, written
from the ONNX operator specification and independent of nnapi-mlir: it
computes in float64 (integer tensors stay int64) and follows each operator's
signature at the model's opset (Clip's bounds as attributes below 11 and as
inputs from 11, Unsqueeze/Squeeze/ReduceSum/Split axes as attributes below 13
and as inputs from 13, Softmax's 2-D coercion below 13).

Usage: reference.py MODEL.onnx TESTDIR
Reads TESTDIR/input_<i>.pb and writes TESTDIR/output_<i>.pb (float32).
As a module: evaluate(model, feeds) returns the graph outputs in order.
"""
import math
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper

_erf = np.vectorize(math.erf, otypes=[np.float64])


def _pair_pads(pads, rank):
    """ONNX pads [b1, b2, ..., e1, e2, ...] as (begin, end) per axis."""
    pads = list(pads) if pads else [0] * (2 * rank)
    return [(pads[i], pads[i + rank]) for i in range(rank)]


def _windows(x, kernel, strides, pads, dilations, fill):
    """The sliding windows of an NCHW tensor: [N, C, KH, KW, OH, OW]."""
    (pt, pb), (pl, pr) = _pair_pads(pads, 2)
    x = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)), constant_values=fill)
    kh, kw = kernel
    sh, sw = strides
    dh, dw = dilations
    oh = (x.shape[2] - dh * (kh - 1) - 1) // sh + 1
    ow = (x.shape[3] - dw * (kw - 1) - 1) // sw + 1
    cols = np.empty(x.shape[:2] + (kh, kw, oh, ow), x.dtype)
    for i in range(kh):
        for j in range(kw):
            cols[:, :, i, j] = x[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                                 j * dw:j * dw + sw * (ow - 1) + 1:sw]
    return cols


def _conv(x, w, b, a):
    if a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
        raise NotImplementedError("Conv auto_pad")
    if x.ndim != 4:
        raise NotImplementedError("Conv of rank other than 4")
    group = a.get("group", 1)
    m, cg, kh, kw = w.shape
    cols = _windows(x, (kh, kw), a.get("strides", [1, 1]), a.get("pads"),
                    a.get("dilations", [1, 1]), 0.0)
    n, c, _, _, oh, ow = cols.shape
    assert c == cg * group and m % group == 0
    # im2col per group: [N, G, Cg*KH*KW, OH*OW] times [G, M/G, Cg*KH*KW].
    cols = cols.reshape(n, group, cg * kh * kw, oh * ow)
    y = np.matmul(w.reshape(group, m // group, cg * kh * kw), cols)
    y = y.reshape(n, m, oh, ow)
    return y if b is None else y + b.reshape(1, m, 1, 1)


def _max_pool(x, a):
    if a.get("ceil_mode", 0) or a.get("storage_order", 0):
        raise NotImplementedError("MaxPool ceil_mode/storage_order")
    if a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
        raise NotImplementedError("MaxPool auto_pad")
    cols = _windows(x, a["kernel_shape"], a.get("strides", [1, 1]),
                    a.get("pads"), a.get("dilations", [1, 1]), -np.inf)
    return cols.max(axis=(2, 3))


def _softmax(x, axis, opset):
    if opset < 13:
        # Below 13: coerced to 2-D at `axis`, normalised over the second axis.
        axis = axis % x.ndim
        flat = x.reshape(int(np.prod(x.shape[:axis])), -1)
        return _softmax(flat, 1, 13).reshape(x.shape)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _reshape(x, shape, allowzero):
    shape = [int(d) for d in shape]
    if not allowzero:
        shape = [x.shape[i] if d == 0 else d for i, d in enumerate(shape)]
    return x.reshape(shape)


def _unsqueeze(x, axes):
    rank = x.ndim + len(axes)
    for axis in sorted(a % rank for a in axes):
        x = np.expand_dims(x, axis)
    return x


def _layer_norm(x, scale, bias, a):
    axes = tuple(range(a.get("axis", -1) % x.ndim, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    y = (x - mean) / np.sqrt(var + a.get("epsilon", 1e-5)) * scale
    return y if bias is None else y + bias


def _gemm(a_, b_, c_, a):
    if a.get("transA", 0):
        a_ = a_.T
    if a.get("transB", 0):
        b_ = b_.T
    y = a.get("alpha", 1.0) * (a_ @ b_)
    return y if c_ is None else y + a.get("beta", 1.0) * c_


def _batch_norm(x, scale, bias, mean, var, a):
    if a.get("training_mode", 0):
        raise NotImplementedError("BatchNormalization training_mode")
    shape = (1, -1) + (1,) * (x.ndim - 2)
    inv = scale / np.sqrt(var + a.get("epsilon", 1e-5))
    return (x - mean.reshape(shape)) * inv.reshape(shape) + bias.reshape(shape)


def _axes(node_inputs, a, opset, since):
    """Axes: an attribute before opset `since`, the second input from it."""
    if opset < since:
        return a.get("axes")
    return None if node_inputs[1] is None else [int(v) for v in node_inputs[1]]


def _reduce(fn, x, axes, keepdims):
    axes = tuple(range(x.ndim)) if axes is None else tuple(axes)
    return fn(x, axis=axes, keepdims=bool(keepdims))


def _split(x, node, inputs, a, opset):
    axis = a.get("axis", 0) % x.ndim
    sizes = a.get("split") if opset < 13 else (
        inputs[1] if len(inputs) > 1 and inputs[1] is not None else None)
    if sizes is None:
        n = len(node.output)
        sizes = [x.shape[axis] // n] * n
    return np.split(x, np.cumsum([int(s) for s in sizes])[:-1], axis=axis)


def _run_node(node, inputs, a, opset):
    """The outputs of one node (a list) from its input values."""
    op = node.op_type
    x = inputs[0] if inputs else None
    arg = lambda i: inputs[i] if len(inputs) > i else None  # noqa: E731
    binary = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply,
              "Div": np.divide, "Pow": np.power}
    if op in binary:
        if op == "Div" and x.dtype.kind == "i":
            return [np.trunc(x / inputs[1]).astype(x.dtype)]
        return [binary[op](x, inputs[1])]
    if op == "Relu":
        return [np.maximum(x, 0.0)]
    if op == "Sqrt":
        return [np.sqrt(x)]
    if op == "Erf":
        return [_erf(x)]
    if op == "Clip":
        lo, hi = (a.get("min", -np.inf), a.get("max", np.inf)) if opset < 11 \
            else (arg(1), arg(2))
        return [np.clip(x, -np.inf if lo is None else lo,
                        np.inf if hi is None else hi)]
    if op == "Conv":
        return [_conv(x, inputs[1], arg(2), a)]
    if op == "BatchNormalization":
        return [_batch_norm(*inputs[:5], a)]
    if op == "MaxPool":
        return [_max_pool(x, a)]
    if op == "GlobalAveragePool":
        return [x.mean(axis=tuple(range(2, x.ndim)), keepdims=True)]
    if op == "Flatten":
        axis = a.get("axis", 1) % (x.ndim + 1) if x.ndim else 0
        return [x.reshape(int(np.prod(x.shape[:axis])), -1)]
    if op == "MatMul":
        return [np.matmul(x, inputs[1])]
    if op == "Gemm":
        return [_gemm(x, inputs[1], arg(2), a)]
    if op == "Softmax":
        return [_softmax(x, a.get("axis", -1 if opset >= 13 else 1), opset)]
    if op == "Transpose":
        return [np.transpose(x, a.get("perm"))]
    if op == "Reshape":
        return [_reshape(x, inputs[1], a.get("allowzero", 0))]
    if op == "Shape":
        start, end = a.get("start", 0), a.get("end", x.ndim)
        return [np.array(x.shape[start:end], dtype=np.int64)]
    if op == "Gather":
        axis = a.get("axis", 0) % x.ndim
        idx = np.asarray(inputs[1], np.int64)
        return [np.take(x, np.where(idx < 0, idx + x.shape[axis], idx),
                        axis=axis)]
    if op == "Unsqueeze":
        return [_unsqueeze(x, _axes(inputs, a, opset, 13))]
    if op == "Squeeze":
        axes = _axes(inputs + [None], a, opset, 13)
        return [np.squeeze(x, None if axes is None else tuple(axes))]
    if op == "Concat":
        return [np.concatenate(inputs, axis=a["axis"])]
    if op == "ReduceMean":
        # Axes stay an attribute up to opset 17.
        return [_reduce(np.mean, x, a.get("axes"), a.get("keepdims", 1))]
    if op == "ReduceSum":
        return [_reduce(np.sum, x, _axes(inputs + [None], a, opset, 13),
                        a.get("keepdims", 1))]
    if op == "LayerNormalization":
        return [_layer_norm(x, inputs[1], arg(2), a)]
    if op == "Split":
        return _split(x, node, inputs, a, opset)
    if op == "Identity":
        return [x]
    if op == "Constant":
        return [_float64(numpy_helper.to_array(a["value"]))]
    raise NotImplementedError(f"reference.py: operator {op}")


def _float64(v):
    return v.astype(np.float64) if v.dtype.kind == "f" else v


def evaluate(model, feeds):
    """The graph outputs of `model` (in order) for `feeds` (name -> array)."""
    opset = next(o.version for o in model.opset_import
                 if o.domain in ("", "ai.onnx"))
    values = {t.name: _float64(numpy_helper.to_array(t))
              for t in model.graph.initializer}
    values.update({k: _float64(np.asarray(v)) for k, v in feeds.items()})
    values[""] = None
    for node in model.graph.node:
        attrs = {at.name: onnx.helper.get_attribute_value(at)
                 for at in node.attribute}
        inputs = [values[name] for name in node.input]
        outputs = _run_node(node, inputs, attrs, opset)
        for name, v in zip(node.output, outputs):
            values[name] = v
    return [values[o.name] for o in model.graph.output]


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    model = onnx.load(argv[1])
    weights = {t.name for t in model.graph.initializer}
    inputs = [i.name for i in model.graph.input if i.name not in weights]
    feeds = {}
    for k, name in enumerate(inputs):
        t = onnx.TensorProto()
        with open(os.path.join(argv[2], f"input_{k}.pb"), "rb") as f:
            t.ParseFromString(f.read())
        feeds[name] = numpy_helper.to_array(t)
    results = evaluate(model, feeds)
    for i, (out, v) in enumerate(zip(model.graph.output, results)):
        v = v.astype(np.float32) if v.dtype.kind == "f" else v
        with open(os.path.join(argv[2], f"output_{i}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(v, out.name).SerializeToString())


if __name__ == "__main__":
    main(sys.argv)
