#!/usr/bin/python3
"""Quantized TOSA as quantizing producers write it: `!quant.uniform`
element types, convolutions and matmuls with zero points
(`quantization_info`) accumulating in int32, and `tosa.rescale` back to
8 bits, signed and unsigned (ui8 at the function's boundary).

The expected outputs follow the TOSA specification in Python integers:
products of values minus their zero points summed exactly, then
rescale's apply_scale_32 (value x multiplier + 2^(shift - 1), plus or
minus 2^30 with double rounding when shift > 31, shifted right
arithmetically), plus the output zero point, saturated.

Usage: make_quantized_tosa.py --out-dir DIR
Writes DIR/<name>.mlir, DIR/<name>_input<k>.npy, DIR/<name>_expected.npy.
"""
import argparse
import os

import numpy as np

import model_files

RNG = np.random.default_rng(17)


def qtype(shape, storage, scale, zp):
    return ("tensor<" + "x".join(str(d) for d in shape) +
            f"x!quant.uniform<{storage}:f32, {scale}:{zp}>>")


def plain(shape, element):
    return "tensor<" + "x".join(str(d) for d in shape) + f"x{element}>"


def dense(a, element):
    return f'dense<{np.asarray(a).tolist()}> : {plain(a.shape, element)}'


def apply_scale(value, multiplier, shift, double_round=True):
    rounding = 1 << (shift - 1)
    if double_round and shift > 31:
        rounding += (1 << 30) if value >= 0 else -(1 << 30)
    result = (value * multiplier + rounding) >> shift
    return max(-(1 << 31), min((1 << 31) - 1, result))


def rescale(values, in_zp, out_zp, multipliers, shifts, lo, hi, axis=-1):
    """TOSA rescale (scale32) of an integer array; per channel along the
    last axis when there is more than one multiplier."""
    out = np.empty(values.shape, np.int64)
    flat, of = values.reshape(-1, values.shape[-1]), out.reshape(-1, values.shape[-1])
    for i in range(flat.shape[0]):
        for c in range(flat.shape[1]):
            k = c if len(multipliers) > 1 else 0
            v = apply_scale(int(flat[i, c]) - in_zp, multipliers[k], shifts[k])
            of[i, c] = min(hi, max(lo, v + out_zp))
    return out


def multiplier_shift(real):
    """A 31-bit multiplier and shift for `real` (< 1), as producers compute
    them."""
    m, e = np.frexp(real)
    multiplier = int(round(m * (1 << 31)))
    shift = 31 - int(e)
    if multiplier == 1 << 31:
        multiplier //= 2
        shift -= 1
    return multiplier, shift


def conv_rescale():
    """i8 conv 3x3 (padding 1) with per-channel weights and an input zero
    point, rescaled per channel to i8, then a ReLU clamp at the output zero
    point."""
    x = RNG.integers(-128, 128, (1, 6, 5, 3)).astype(np.int8)
    w = RNG.integers(-127, 128, (4, 3, 3, 3)).astype(np.int8)
    b = RNG.integers(-2000, 2000, 4).astype(np.int32)
    xs, xz, ys, yz = 0.02, -5, 0.05, 3
    ws = [0.01, 0.004, 0.02, 0.007]
    ms = [multiplier_shift(xs * s / ys) for s in ws]
    padded = np.pad(x.astype(np.int64) - xz, ((0, 0), (1, 1), (1, 1), (0, 0)))
    acc = np.zeros((1, 6, 5, 4), np.int64)
    for oy in range(6):
        for ox in range(5):
            win = padded[0, oy:oy + 3, ox:ox + 3, :]
            for f in range(4):
                acc[0, oy, ox, f] = int((win * w[f].astype(np.int64)).sum()) + int(b[f])
    y = rescale(acc, 0, yz, [m for m, _ in ms], [s for _, s in ms], -128, 127)
    y = np.maximum(y, yz).astype(np.int8)
    wtype = (f"tensor<4x3x3x3x!quant.uniform<i8<-127:127>:f32:0, "
             f"{{{', '.join(str(s) for s in ws)}}}>>")
    xt, yt = qtype(x.shape, "i8", xs, xz), qtype(y.shape, "i8", ys, yz)
    text = f"""func.func @main(%x: {xt}) -> {yt} {{
  %w = "tosa.const"() <{{value = {dense(w, "i8")}}}> : () -> {wtype}
  %b = "tosa.const"() <{{value = {dense(b, "i32")}}}> : () -> {plain(b.shape, "i32")}
  %c = tosa.conv2d %x, %w, %b {{dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, quantization_info = #tosa.conv_quant<input_zp = {xz}, weight_zp = 0>}} : ({xt}, {wtype}, {plain(b.shape, "i32")}) -> {plain(acc.shape, "i32")}
  %r = tosa.rescale %c {{input_zp = 0 : i32, output_zp = {yz} : i32, multiplier = array<i32: {", ".join(str(m) for m, _ in ms)}>, shift = array<i8: {", ".join(str(s) for _, s in ms)}>, scale32 = true, double_round = true, per_channel = true}} : ({plain(acc.shape, "i32")}) -> {yt}
  %y = tosa.clamp %r {{min_int = {yz} : i64, max_int = 127 : i64, min_fp = 0.0 : f32, max_fp = 0.0 : f32}} : ({yt}) -> {yt}
  return %y : {yt}
}}
"""
    return text, [x], y


def depthwise_relu6():
    """i8 depthwise conv 3x3, stride 2, padding 1, per-channel weights along
    the channel dimension ([kh, kw, C, 1]), an input zero point, rescaled
    per channel to i8, then a clamp at the ReLU6 range of the output
    parameters (zero point + round(6 / scale))."""
    x = RNG.integers(-128, 128, (1, 7, 6, 5)).astype(np.int8)
    w = RNG.integers(-127, 128, (3, 3, 5, 1)).astype(np.int8)
    b = RNG.integers(-500, 500, 5).astype(np.int32)
    xs, xz, ys, yz = 0.03, 9, 0.04, -20
    ws = [0.01, 0.02, 0.005, 0.015, 0.008]
    ms = [multiplier_shift(xs * s / ys) for s in ws]
    padded = np.pad(x.astype(np.int64) - xz, ((0, 0), (1, 1), (1, 1), (0, 0)))
    oh, ow = 4, 3
    acc = np.zeros((1, oh, ow, 5), np.int64)
    for oy in range(oh):
        for ox in range(ow):
            win = padded[0, 2 * oy:2 * oy + 3, 2 * ox:2 * ox + 3, :]
            acc[0, oy, ox, :] = (win * w[:, :, :, 0].astype(np.int64)).sum(
                axis=(0, 1)) + b
    hi = min(127, yz + int(round(6 / ys)))
    y = rescale(acc, 0, yz, [m for m, _ in ms], [s for _, s in ms], -128, 127)
    y = np.clip(y, yz, hi).astype(np.int8)
    wtype = (f"tensor<3x3x5x1x!quant.uniform<i8<-127:127>:f32:2, "
             f"{{{', '.join(str(s) for s in ws)}}}>>")
    xt, yt = qtype(x.shape, "i8", xs, xz), qtype(y.shape, "i8", ys, yz)
    text = f"""func.func @main(%x: {xt}) -> {yt} {{
  %w = "tosa.const"() <{{value = {dense(w, "i8")}}}> : () -> {wtype}
  %b = "tosa.const"() <{{value = {dense(b, "i32")}}}> : () -> {plain(b.shape, "i32")}
  %c = tosa.depthwise_conv2d %x, %w, %b {{dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>, quantization_info = #tosa.conv_quant<input_zp = {xz}, weight_zp = 0>}} : ({xt}, {wtype}, {plain(b.shape, "i32")}) -> {plain(acc.shape, "i32")}
  %r = tosa.rescale %c {{input_zp = 0 : i32, output_zp = {yz} : i32, multiplier = array<i32: {", ".join(str(m) for m, _ in ms)}>, shift = array<i8: {", ".join(str(s) for _, s in ms)}>, scale32 = true, double_round = true, per_channel = true}} : ({plain(acc.shape, "i32")}) -> {yt}
  %y = tosa.clamp %r {{min_int = {yz} : i64, max_int = {hi} : i64, min_fp = 0.0 : f32, max_fp = 0.0 : f32}} : ({yt}) -> {yt}
  return %y : {yt}
}}
"""
    return text, [x], y


def matmul_u8():
    """ui8 input rescaled to i8 (zero point 128 -> 0), an i8 matmul with
    both zero points, rescaled (multiplier above 2^30, shift above 31:
    double rounding) to ui8."""
    a = RNG.integers(0, 256, (1, 3, 8)).astype(np.uint8)
    bq = RNG.integers(-128, 128, (1, 8, 5)).astype(np.int8)
    az, bz = 7, -3
    # ui8 -> i8: a - 128 + 7 (the i8 tensor's zero point is 7).
    a8 = rescale(a.astype(np.int64), 128, az, [1 << 30], [30], -128, 127)
    acc = np.einsum("bmk,bkn->bmn", a8 - az, bq.astype(np.int64) - bz)
    m, s = multiplier_shift(0.0003)
    y = rescale(acc, 0, 128, [m], [s], 0, 255).astype(np.uint8)
    at = qtype(a.shape, "u8", 0.1, 128)
    a8t = qtype(a.shape, "i8", 0.1, az)
    bt = qtype(bq.shape, "i8", 0.2, bz)
    yt = qtype(y.shape, "u8", 0.3, 128)
    text = f"""func.func @main(%a: {at}) -> {yt} {{
  %a8 = tosa.rescale %a {{input_zp = 128 : i32, output_zp = {az} : i32, multiplier = array<i32: 1073741824>, shift = array<i8: 30>, scale32 = true, double_round = false, per_channel = false}} : ({at}) -> {a8t}
  %b = "tosa.const"() <{{value = {dense(bq, "i8")}}}> : () -> {bt}
  %c = tosa.matmul %a8, %b {{quantization_info = #tosa.matmul_quant<a_zp = {az}, b_zp = {bz}>}} : ({a8t}, {bt}) -> {plain(acc.shape, "i32")}
  %y = tosa.rescale %c {{input_zp = 0 : i32, output_zp = 128 : i32, multiplier = array<i32: {m}>, shift = array<i8: {s}>, scale32 = true, double_round = true, per_channel = false}} : ({plain(acc.shape, "i32")}) -> {yt}
  return %y : {yt}
}}
"""
    return text, [a], y


MODELS = {"q_conv_rescale": conv_rescale, "q_depthwise_relu6": depthwise_relu6,
          "q_matmul_u8": matmul_u8}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    for name, make in MODELS.items():
        text, inputs, expected = make()
        model_files.save_case(args.out_dir, name, inputs, expected, text)
        print(name)


if __name__ == "__main__":
    main()
