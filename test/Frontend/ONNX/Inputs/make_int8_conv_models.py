#!/usr/bin/python3
"""QLinearConv models of awkward shapes, for the 8-bit dot-product tiles.

    make_int8_conv_models.py OUT_DIR

Each model is one QLinearConv with ONNX test data whose expected output is
numpy's: the integer window sums in int64 over the explicitly padded input
(the border holds the input's zero point), then ONNX Runtime's float32
requantization. The shapes exercise what the dot-product tiles must get
right: input channels not a multiple of 4 (3, 19), output channels not a
multiple of a vector (5, 17, 33), strides, dilation, asymmetric padding,
1x1 and 5x5 filters, a batch of two, uint8 and int8 data, per-channel
scales, zero points of 0, uint8 weights with a zero point of 128, and of
119 (differences from it beyond 8 bits: the window-sum form).
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testdata import const, model, save, vi  # noqa: E402

F32 = np.float32

# name: (N, C, H, W), O, (KH, KW), strides, dilations, pads
# [top, left, bottom, right], x unsigned, input zero point, weight zero
# point (None: int8 weights, zero point 0; a number: uint8 weights)
CASES = {
    "c3_o5": ((1, 3, 9, 11), 5, (3, 3), (1, 1), (1, 1), (1, 1, 1, 1),
              True, 130, None),
    "c19_o33_s2_n2": ((2, 19, 13, 10), 33, (3, 3), (2, 2), (1, 1),
                      (1, 1, 1, 1), False, -3, None),
    "c36_o17_1x1": ((1, 36, 7, 12), 17, (1, 1), (1, 1), (1, 1),
                    (0, 0, 0, 0), True, 0, None),
    "c8_o48_d2_wu8": ((1, 8, 11, 9), 48, (3, 3), (1, 1), (2, 2),
                      (2, 2, 2, 2), False, 5, 128),
    "c64_o64_5x5_asym": ((1, 64, 8, 9), 64, (5, 5), (1, 2), (1, 1),
                         (2, 1, 0, 2), True, 128, None),
    "c16_o16_zp0": ((1, 16, 6, 7), 16, (3, 3), (1, 1), (1, 1),
                    (1, 1, 1, 1), False, 0, None),
    # uint8 weights whose differences from their zero point (119) span
    # -119..136, beyond 8 bits (dynamic quantization's): window sums.
    "c20_o24_s2_wz119": ((1, 20, 9, 10), 24, (3, 3), (2, 2), (1, 1),
                         (1, 0, 1, 1), True, 90, 119),
    "c40_o8_1x1_wz119": ((1, 40, 5, 6), 8, (1, 1), (1, 1), (1, 1),
                         (0, 0, 0, 0), False, -20, 119),
}


def reference(x, w, zx, zw, b, strides, dilations, pads):
    """sum over each window of (x - zx)(w - zw) + b, int64, NCHW / OIHW."""
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    top, left, bottom, right = pads
    xp = np.full((n, c, h + top + bottom, wd + left + right), zx, np.int64)
    xp[:, :, top:top + h, left:left + wd] = x
    xp -= zx
    wz = w.astype(np.int64) - zw.reshape(o, 1, 1, 1)
    sh, sw = strides
    dh, dw = dilations
    oh = (xp.shape[2] - dh * (kh - 1) - 1) // sh + 1
    ow = (xp.shape[3] - dw * (kw - 1) - 1) // sw + 1
    acc = np.zeros((n, o, oh, ow), np.int64)
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                       j * dw:j * dw + sw * (ow - 1) + 1:sw]
            acc += np.einsum("nchw,oc->nohw", patch, wz[:, :, i, j])
    return acc + b.reshape(1, o, 1, 1)


def write(out, name, case, seed):
    (shape, o, (kh, kw), strides, dilations, pads, x_unsigned, zx,
     w_zero) = case
    rng = np.random.default_rng(seed)
    xt, lo, hi = (np.uint8, 0, 255) if x_unsigned else (np.int8, -128, 127)
    x = rng.integers(lo, hi + 1, shape).astype(xt)
    if w_zero is not None:
        w = rng.integers(0, 256, (o, shape[1], kh, kw)).astype(np.uint8)
        # (The same zero point for every channel, as dynamic quantization's
        # one per tensor.)
        zw = np.full(o, w_zero, np.uint8)
    else:
        w = rng.integers(-127, 128, (o, shape[1], kh, kw)).astype(np.int8)
        zw = np.zeros(o, np.int8)
    xs = F32(0.02)
    ws = rng.uniform(0.0005, 0.002, o).astype(F32)
    ys, yz = F32(0.25), (100 if x_unsigned else -7)
    b = rng.integers(-3000, 3000, o).astype(np.int32)
    acc = reference(x.astype(np.int64), w, zx, zw.astype(np.int64), b,
                    strides, dilations, pads)
    # ONNX Runtime's requantization: float32 multiplier, round half to even.
    m = ((xs * ws) / ys).astype(F32).reshape(1, o, 1, 1)
    y = np.clip(np.round(acc.astype(F32) * m) + yz, lo, hi).astype(xt)
    elem = TensorProto.UINT8 if x_unsigned else TensorProto.INT8
    node = helper.make_node(
        "QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"],
        ["y"], strides=list(strides), dilations=list(dilations),
        pads=[pads[0], pads[1], pads[2], pads[3]], kernel_shape=[kh, kw])
    inits = [const("xs", xs), const("xz", np.array(zx, xt)), const("w", w),
             const("ws", ws), const("wz", zw), const("ys", ys),
             const("yz", np.array(yz, xt)), const("b", b)]
    mdl = model(name, [node], [vi("x", list(x.shape), elem)],
                [vi("y", list(y.shape), elem)], inits, opset=13)
    save(out, name, mdl, [("x", x)], [("y", y)])


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for seed, (name, case) in enumerate(CASES.items()):
        write(out, name, case, 100 + seed)


if __name__ == "__main__":
    main()
