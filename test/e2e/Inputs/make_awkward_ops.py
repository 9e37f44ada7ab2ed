#!/usr/bin/python3
"""One-operation TOSA models with shapes that divide no tile or vector size,
an input for each, and the expected output computed independently with
numpy (direct definitions, float64 accumulation).

Usage: make_awkward_ops.py --out-dir DIR
Writes DIR/<name>.mlir, DIR/<name>_input<k>.npy, DIR/<name>_expected.npy for
every model in MODELS and prints the names.
"""
import argparse
import os

import numpy as np

import model_files

RNG = np.random.default_rng(5)


def t(shape):
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


def hexconst(name, a):
    a = np.ascontiguousarray(a, dtype="<f4")
    return (f'  %{name} = "tosa.const"() {{value = dense<"0x{a.tobytes().hex().upper()}"> : '
            f'{t(a.shape)}}} : () -> {t(a.shape)}\n')


def func(inputs, body, out_shape):
    args = ", ".join(f"%a{i}: {t(x.shape)}" for i, x in enumerate(inputs))
    return (f"func.func @main({args}) -> {t(out_shape)} {{\n{body}"
            f"  return %r : {t(out_shape)}\n}}\n")


def pad_nhwc(x, pads, value=0.0):
    top, bottom, left, right = pads
    return np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)),
                  constant_values=value)


def conv_ref(x, w, b, pads, stride, dilation):
    """x NHWC, w [OC, KH, KW, IC] (TOSA), pads [top, bottom, left, right]."""
    xp = pad_nhwc(x.astype(np.float64), pads)
    n, h, wd, c = xp.shape
    oc, kh, kw, _ = w.shape
    sh, sw = stride
    dh, dw = dilation
    oh = (h - (kh - 1) * dh - 1) // sh + 1
    ow = (wd - (kw - 1) * dw - 1) // sw + 1
    out = np.zeros((n, oh, ow, oc))
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, i * dh:i * dh + (oh - 1) * sh + 1:sh,
                       j * dw:j * dw + (ow - 1) * sw + 1:sw, :]
            out += patch @ w[:, i, j, :].T.astype(np.float64)
    return out + b


def depthwise_ref(x, w, b, pads, stride, dilation):
    """w [KH, KW, C, M] (TOSA): output channel c * M + m."""
    xp = pad_nhwc(x.astype(np.float64), pads)
    n, h, wd, c = xp.shape
    kh, kw, _, m = w.shape
    sh, sw = stride
    dh, dw = dilation
    oh = (h - (kh - 1) * dh - 1) // sh + 1
    ow = (wd - (kw - 1) * dw - 1) // sw + 1
    out = np.zeros((n, oh, ow, c, m))
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, i * dh:i * dh + (oh - 1) * sh + 1:sh,
                       j * dw:j * dw + (ow - 1) * sw + 1:sw, :]
            out += patch[..., None] * w[i, j].astype(np.float64)
    return out.reshape(n, oh, ow, c * m) + b


def pool_ref(x, k, stride, pads, kind):
    """TOSA pools: padding never wins a max, and averages count only the
    elements inside the input."""
    n, h, wd, c = x.shape
    top, bottom, left, right = pads
    oh = (h + top + bottom - k[0]) // stride[0] + 1
    ow = (wd + left + right - k[1]) // stride[1] + 1
    out = np.zeros((n, oh, ow, c))
    for y in range(oh):
        for z in range(ow):
            y0, z0 = y * stride[0] - top, z * stride[1] - left
            win = x[:, max(y0, 0):min(y0 + k[0], h), max(z0, 0):min(z0 + k[1], wd), :]
            win = win.astype(np.float64)
            out[:, y, z, :] = win.max(axis=(1, 2)) if kind == "max" else win.mean(axis=(1, 2))
    return out


def conv_model(h, w_, c, oc, k, stride, dilation, pads, clamp=None):
    x = RNG.standard_normal((1, h, w_, c)).astype(np.float32)
    w = (RNG.standard_normal((oc, k[0], k[1], c)) * 0.2).astype(np.float32)
    b = (RNG.standard_normal(oc) * 0.1).astype(np.float32)
    y = conv_ref(x, w, b, pads, stride, dilation)
    body = hexconst("w", w) + hexconst("b", b)
    conv = "%r" if clamp is None else "%c"
    body += (f"  {conv} = tosa.conv2d %a0, %w, %b {{dilation = array<i64: {dilation[0]}, {dilation[1]}>, "
             f"pad = array<i64: {', '.join(map(str, pads))}>, stride = array<i64: {stride[0]}, {stride[1]}>}}"
             f" : ({t(x.shape)}, {t(w.shape)}, {t(b.shape)}) -> {t(y.shape)}\n")
    if clamp is not None:
        body += (f"  %r = tosa.clamp %c {{min_fp = {clamp[0]:.1f} : f32, max_fp = {clamp[1]:.1f} : f32, "
                 f"min_int = 0 : i64, max_int = 0 : i64}} : ({t(y.shape)}) -> {t(y.shape)}\n")
        y = np.clip(y, clamp[0], clamp[1])
    return func([x], body, y.shape), [x], y


def depthwise_model(h, w_, c, m, k, stride, dilation, pads):
    x = RNG.standard_normal((1, h, w_, c)).astype(np.float32)
    w = (RNG.standard_normal((k[0], k[1], c, m)) * 0.3).astype(np.float32)
    b = (RNG.standard_normal(c * m) * 0.1).astype(np.float32)
    y = depthwise_ref(x, w, b, pads, stride, dilation)
    body = hexconst("w", w) + hexconst("b", b)
    body += (f"  %r = tosa.depthwise_conv2d %a0, %w, %b {{dilation = array<i64: {dilation[0]}, {dilation[1]}>, "
             f"pad = array<i64: {', '.join(map(str, pads))}>, stride = array<i64: {stride[0]}, {stride[1]}>}}"
             f" : ({t(x.shape)}, {t(w.shape)}, {t(b.shape)}) -> {t(y.shape)}\n")
    return func([x], body, y.shape), [x], y


def fully_connected_model(m, k, n):
    x = RNG.standard_normal((m, k)).astype(np.float32)
    w = (RNG.standard_normal((n, k)) * 0.1).astype(np.float32)
    b = (RNG.standard_normal(n) * 0.1).astype(np.float32)
    y = x.astype(np.float64) @ w.T.astype(np.float64) + b
    body = hexconst("w", w) + hexconst("b", b)
    body += (f"  %r = tosa.fully_connected %a0, %w, %b : ({t(x.shape)}, {t(w.shape)}, {t(b.shape)})"
             f" -> {t(y.shape)}\n")
    return func([x], body, y.shape), [x], y


def matmul_model(batch, m, k, n):
    a = RNG.standard_normal((batch, m, k)).astype(np.float32)
    b = RNG.standard_normal((batch, k, n)).astype(np.float32)
    y = a.astype(np.float64) @ b.astype(np.float64)
    body = f"  %r = tosa.matmul %a0, %a1 : ({t(a.shape)}, {t(b.shape)}) -> {t(y.shape)}\n"
    return func([a, b], body, y.shape), [a, b], y


def pool_model(kind, h, w_, c, k, stride, pads):
    x = RNG.standard_normal((1, h, w_, c)).astype(np.float32)
    y = pool_ref(x, k, stride, pads, kind)
    extra = ", acc_type = f32" if kind == "avg" else ""
    body = (f"  %r = tosa.{kind}_pool2d %a0 {{kernel = array<i64: {k[0]}, {k[1]}>, "
            f"pad = array<i64: {', '.join(map(str, pads))}>, stride = array<i64: {stride[0]}, {stride[1]}>{extra}}}"
            f" : ({t(x.shape)}) -> {t(y.shape)}\n")
    return func([x], body, y.shape), [x], y


def elementwise_model(h, w_, c):
    """sigmoid(x + bias) * y, clamped to [-0.5, 0.75]: broadcast, two inputs."""
    x = RNG.standard_normal((1, h, w_, c)).astype(np.float32)
    y = RNG.standard_normal((1, h, w_, c)).astype(np.float32)
    b = RNG.standard_normal((1, 1, 1, c)).astype(np.float32)
    ref = np.clip(1 / (1 + np.exp(-(x.astype(np.float64) + b))) * y, -0.5, 0.75)
    s = t(x.shape)
    body = hexconst("b", b)
    body += f"  %0 = tosa.add %a0, %b : ({s}, {t(b.shape)}) -> {s}\n"
    body += f"  %1 = tosa.sigmoid %0 : ({s}) -> {s}\n"
    body += f"  %2 = tosa.mul %1, %a1 {{shift = 0 : i8}} : ({s}, {s}) -> {s}\n"
    body += (f"  %r = tosa.clamp %2 {{min_fp = -0.5 : f32, max_fp = 0.75 : f32, min_int = 0 : i64, "
             f"max_int = 0 : i64}} : ({s}) -> {s}\n")
    return func([x, y], body, ref.shape), [x, y], ref


MODELS = {
    # 3x3 stride 2, 24 -> 40 channels on 37x37, ReLU6 fused.
    "conv3x3_s2": lambda: conv_model(37, 37, 24, 40, (3, 3), (2, 2), (1, 1), (1, 1, 1, 1), (0, 6)),
    # 5x3 kernel, dilation 2x1, asymmetric padding, odd everything.
    "conv5x3_dilated": lambda: conv_model(19, 23, 7, 13, (5, 3), (1, 1), (2, 1), (2, 3, 1, 4)),
    # 1x1, 20 -> 52 channels on 37x37.
    "conv1x1": lambda: conv_model(37, 37, 20, 52, (1, 1), (1, 1), (1, 1), (0, 0, 0, 0)),
    # 7x7 stride 2 on a 3-channel image (a stem).
    "conv7x7_stem": lambda: conv_model(45, 45, 3, 17, (7, 7), (2, 2), (1, 1), (3, 3, 3, 3)),
    "depthwise3x3_s2": lambda: depthwise_model(37, 37, 44, 1, (3, 3), (2, 2), (1, 1), (1, 1, 1, 1)),
    "depthwise_m2_dilated": lambda: depthwise_model(13, 11, 6, 2, (3, 3), (1, 2), (2, 2), (2, 1, 0, 3)),
    "fully_connected": lambda: fully_connected_model(7, 300, 61),
    "batch_matmul": lambda: matmul_model(3, 13, 200, 77),
    "avgpool3x3_s2": lambda: pool_model("avg", 37, 37, 19, (3, 3), (2, 2), (1, 1, 1, 1)),
    "maxpool3x2_s2": lambda: pool_model("max", 37, 30, 19, (3, 2), (2, 2), (1, 0, 1, 1)),
    "elementwise": lambda: elementwise_model(37, 37, 19),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    for name, make in MODELS.items():
        text, inputs, expected = make()
        model_files.save_case(args.out_dir, name, inputs,
                              expected.astype(np.float32), text)
        print(name)


if __name__ == "__main__":
    main()
