#!/usr/bin/python3
"""numpy definitions of the TFLite operators the tests use, in float64: the
independent reference the importer's results are compared with (besides
TensorFlow Lite's own outputs, tflite_refs/). Written from the operators'
documented semantics, not from any implementation."""
import math

import numpy as np


def same_pads(size, kernel, stride, dilation=1):
    out = (size + stride - 1) // stride
    eff = (kernel - 1) * dilation + 1
    total = max((out - 1) * stride + eff - size, 0)
    return out, total // 2, total - total // 2


def window_out(size, kernel, stride, dilation, padding):
    if padding == "SAME":
        out, before, after = same_pads(size, kernel, stride, dilation)
        return out, before
    eff = (kernel - 1) * dilation + 1
    return (size - eff) // stride + 1, 0


def act(x, name):
    if name in (None, "NONE"):
        return x
    if name == "RELU":
        return np.maximum(x, 0)
    if name == "RELU6":
        return np.clip(x, 0, 6)
    if name == "RELU_N1_TO_1":
        return np.clip(x, -1, 1)
    if name == "TANH":
        return np.tanh(x)
    raise ValueError(name)


def _taps(x, kh, kw, stride, dilation, padding):
    """For each window tap (ki, kj): the input pixel under it for every
    output position, [N, OH, OW, C], zeros where the window leaves the
    input (x zero-padded)."""
    n, h, wd, c = x.shape
    oh, top = window_out(h, kh, stride[0], dilation[0], padding)
    ow, left = window_out(wd, kw, stride[1], dilation[1], padding)
    bottom = max((oh - 1) * stride[0] + (kh - 1) * dilation[0] + 1 - h - top,
                 0)
    right = max((ow - 1) * stride[1] + (kw - 1) * dilation[1] + 1 - wd - left,
                0)
    xp = np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)))
    for ki in range(kh):
        for kj in range(kw):
            y0, x0 = ki * dilation[0], kj * dilation[1]
            yield ki, kj, xp[:, y0:y0 + (oh - 1) * stride[0] + 1:stride[0],
                             x0:x0 + (ow - 1) * stride[1] + 1:stride[1], :]


def conv2d(x, w, b, stride=(1, 1), dilation=(1, 1), padding="SAME",
           activation=None):
    """x [N,H,W,C], w [O,KH,KW,C/groups], b [O]."""
    x = x.astype(np.float64)
    w = w.astype(np.float64)
    c = x.shape[3]
    o, kh, kw, ic = w.shape
    groups = c // ic
    og = o // groups
    y = 0
    for ki, kj, patch in _taps(x, kh, kw, stride, dilation, padding):
        parts = [patch[..., g * ic:(g + 1) * ic] @
                 w[g * og:(g + 1) * og, ki, kj, :].T for g in range(groups)]
        y = y + np.concatenate(parts, axis=3)
    if b is not None:
        y = y + b.astype(np.float64)
    return act(y, activation)


def depthwise(x, w, b, stride=(1, 1), dilation=(1, 1), padding="SAME",
              activation=None):
    """w [1,KH,KW,C*M]."""
    x = x.astype(np.float64)
    n, _, _, c = x.shape
    _, kh, kw, cm = w.shape
    m = cm // c
    wf = w.astype(np.float64).reshape(kh, kw, c, m)
    y = 0
    for ki, kj, patch in _taps(x, kh, kw, stride, dilation, padding):
        y = y + patch[..., :, None] * wf[ki, kj]
    y = y.reshape(n, y.shape[1], y.shape[2], cm)
    if b is not None:
        y = y + b.astype(np.float64)
    return act(y, activation)


def transpose_conv(x, w, b, out_shape, stride=(1, 1), padding="SAME"):
    """w [O,KH,KW,C]: every input pixel scatters its window."""
    x = x.astype(np.float64)
    n, h, wd, c = x.shape
    o, kh, kw, _ = w.shape
    _, oh, ow, _ = out_shape
    if padding == "SAME":
        top = max((h - 1) * stride[0] + kh - oh, 0) // 2
        left = max((wd - 1) * stride[1] + kw - ow, 0) // 2
    else:
        top = left = 0
    y = np.zeros((n, oh, ow, o))
    wf = w.astype(np.float64)
    for i in range(h):
        for j in range(wd):
            for ki in range(kh):
                for kj in range(kw):
                    oi = i * stride[0] + ki - top
                    oj = j * stride[1] + kj - left
                    if 0 <= oi < oh and 0 <= oj < ow:
                        y[:, oi, oj] += x[:, i, j] @ wf[:, ki, kj, :].T
    if b is not None:
        y += b.astype(np.float64)
    return y


def pool(x, kernel, stride, padding, kind):
    x = x.astype(np.float64)
    n, h, wd, c = x.shape
    oh, top = window_out(h, kernel[0], stride[0], 1, padding)
    ow, left = window_out(wd, kernel[1], stride[1], 1, padding)
    y = np.zeros((n, oh, ow, c))
    for i in range(oh):
        for j in range(ow):
            y0, x0 = i * stride[0] - top, j * stride[1] - left
            win = x[:, max(y0, 0):min(y0 + kernel[0], h),
                    max(x0, 0):min(x0 + kernel[1], wd)]
            if kind == "max":
                y[:, i, j] = win.max(axis=(1, 2))
            elif kind == "avg":
                y[:, i, j] = win.mean(axis=(1, 2))
            else:
                y[:, i, j] = np.sqrt((win * win).mean(axis=(1, 2)))
    return y


def softmax(x, beta=1.0, log=False):
    x = x.astype(np.float64) * beta
    s = x - x.max(axis=-1, keepdims=True)
    e = np.exp(s)
    if log:
        return s - np.log(e.sum(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def resize(x, out_h, out_w, mode, align_corners=False, half_pixel=False):
    """TFLite's RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR, NHWC."""
    x = x.astype(np.float64)
    n, h, w, c = x.shape
    def scale(i, o):
        return (i - 1) / (o - 1) if align_corners and o > 1 else i / o
    sh, sw = scale(h, out_h), scale(w, out_w)
    y = np.zeros((n, out_h, out_w, c))
    for i in range(out_h):
        for j in range(out_w):
            if mode == "nearest":
                def pick(o, s, size):
                    v = (o + 0.5) * s if half_pixel else o * s
                    k = int(math.floor(v + 0.5)) if align_corners \
                        else int(math.floor(v))
                    return min(max(k, 0), size - 1)
                y[:, i, j] = x[:, pick(i, sh, h), pick(j, sw, w)]
            else:
                def coord(o, s, size):
                    v = (o + 0.5) * s - 0.5 if half_pixel else o * s
                    v = min(max(v, 0.0), size - 1.0) if half_pixel else v
                    lo = int(math.floor(v))
                    hi = min(lo + 1, size - 1)
                    lo = min(max(lo, 0), size - 1)
                    return lo, hi, v - math.floor(v)
                y0, y1, fy = coord(i, sh, h)
                x0, x1, fx = coord(j, sw, w)
                top = x[:, y0, x0] * (1 - fx) + x[:, y0, x1] * fx
                bottom = x[:, y1, x0] * (1 - fx) + x[:, y1, x1] * fx
                y[:, i, j] = top * (1 - fy) + bottom * fy
    return y


def hard_swish(x):
    x = x.astype(np.float64)
    return x * np.clip(x + 3, 0, 6) / 6


def quantize(real, scale, zero_point, dtype=np.int8):
    """TFLite's rounding: half away from zero."""
    info = np.iinfo(dtype)
    q = np.sign(real / scale) * np.floor(np.abs(real / scale) + 0.5)
    return np.clip(q + zero_point, info.min, info.max).astype(dtype)


def dequantize(q, scale, zero_point, axis=None):
    q = q.astype(np.float64)
    if axis is None:
        return (q - zero_point) * scale
    shape = [1] * q.ndim
    shape[axis] = -1
    return (q - np.reshape(zero_point, shape)) * np.reshape(scale, shape)


def lstm(x, w, r, bias, h, c, peep=None, act_name="TANH", time_major=False):
    """TFLite's UNIDIRECTIONAL_SEQUENCE_LSTM in float64: w, r, bias are
    lists of the input, forget, cell and output gates' tensors ([H, K],
    [H, H], [H]); peep (i, f, o) diagonal [H] vectors; h, c [B, H]."""
    x = np.asarray(x, np.float64)
    if not time_major:
        x = x.transpose(1, 0, 2)
    w, r, bias = ([np.asarray(t, np.float64) for t in ts] for ts in (w, r, bias))
    h, c = np.asarray(h, np.float64), np.asarray(c, np.float64)
    peep = [np.asarray(p, np.float64) for p in peep] if peep else None

    def sigmoid(v):
        return 1 / (1 + np.exp(-v))

    ys = []
    for xt in x:
        g = [xt @ w[k].T + h @ r[k].T + bias[k] for k in range(4)]
        if peep:
            g[0] = g[0] + peep[0] * c
            g[1] = g[1] + peep[1] * c
        i, f = sigmoid(g[0]), sigmoid(g[1])
        c = f * c + i * act(g[2], act_name)
        if peep:
            g[3] = g[3] + peep[2] * c
        h = sigmoid(g[3]) * act(c, act_name)
        ys.append(h)
    y = np.stack(ys)
    return y if time_major else y.transpose(1, 0, 2)


def max_pool_argmax(x, kernel, stride, padding, activation=None):
    """MediaPipe's MaxPoolingWithArgmax2D: per window the maximum over the
    cells inside the input (the first in raster order on ties) and its
    position in the window as float32 fy * KW + fx + 0.1."""
    n, h, w, c = x.shape
    outs, offs = [], []
    for size, k, s in zip((h, w), kernel, stride):
        o = (size + s - 1) // s if padding == "SAME" else (size - k + s) // s
        outs.append(o)
        offs.append(max(((o - 1) * s + k - size) // 2, 0))
    values = np.zeros((n, outs[0], outs[1], c))
    index = np.zeros((n, outs[0], outs[1], c), np.float32)
    for b in range(n):
        for oy in range(outs[0]):
            for ox in range(outs[1]):
                for ch in range(c):
                    best, at = -np.finfo(np.float32).max, 0
                    for fy in range(kernel[0]):
                        for fx in range(kernel[1]):
                            iy = oy * stride[0] - offs[0] + fy
                            ix = ox * stride[1] - offs[1] + fx
                            if 0 <= iy < h and 0 <= ix < w and \
                                    x[b, iy, ix, ch] > best:
                                best, at = x[b, iy, ix, ch], fy * kernel[1] + fx
                    values[b, oy, ox, ch] = best
                    index[b, oy, ox, ch] = np.float32(at) + np.float32(0.1)
    return act(values, activation), index


def max_unpool(values, index, kernel):
    """MediaPipe's MaxUnpooling2D with stride = filter size: each value
    back at the window position int(index) names, zeros elsewhere."""
    n, h, w, c = values.shape
    y = np.zeros((n, h * kernel[0], w * kernel[1], c))
    for b in range(n):
        for i in range(h):
            for j in range(w):
                for ch in range(c):
                    k = int(index[b, i, j, ch])
                    y[b, i * kernel[0] + k // kernel[1],
                      j * kernel[1] + k % kernel[1], ch] = values[b, i, j, ch]
    return y
