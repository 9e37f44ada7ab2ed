#!/usr/bin/env python3
"""Writes small CNNs in TOSA MLIR, an input, and the expected output.

The expected output is computed here with plain numpy, independently of the
compiler and of the host NNAPI kernels, so tests can check both against it.

  make_cnn.py --model cnn   --out-dir DIR   conv -> relu -> depthwise conv ->
                                            max pool -> fully connected ->
                                            softmax (about 50k parameters)
  make_cnn.py --model split --out-dir DIR   the same with tosa.cos (no NNAPI
                                            lowering) in the middle, so it
                                            needs two partitions and host code

--image N (default 28) and --channels C (default 8) scale the input and the
first convolution.

Run it with Debian's /usr/bin/python3 (python3-numpy).
"""
import argparse
import math
import os

import numpy as np


def dense(a):
    """MLIR dense attribute of a float32 array, as little-endian hex."""
    a = np.ascontiguousarray(a, dtype="<f4")
    return 'dense<"0x%s">' % a.tobytes().hex().upper()


def ttype(shape):
    return "tensor<%sxf32>" % "x".join(str(d) for d in shape)


class Builder:
    def __init__(self):
        self.lines = []
        self.n = 0

    def emit(self, text, shape):
        name = "%%v%d" % self.n
        self.n += 1
        self.lines.append("    %s = %s -> %s" % (name, text, ttype(shape)))
        return name

    def const(self, a):
        name = "%%c%d" % self.n
        self.n += 1
        self.lines.append('    %s = "tosa.const"() {value = %s : %s} : () -> %s'
                          % (name, dense(a), ttype(a.shape), ttype(a.shape)))
        return name


# ---- numpy reference (NHWC), written from the operator definitions ---------

def ref_conv(x, w, b, pad, stride):
    """x [N,H,W,C], w [O,KH,KW,C], pad (top, bottom, left, right)."""
    xp = np.pad(x, ((0, 0), (pad[0], pad[1]), (pad[2], pad[3]), (0, 0)))
    n, h, wd, _ = xp.shape
    o, kh, kw, _ = w.shape
    oh = (h - kh) // stride + 1
    ow = (wd - kw) // stride + 1
    out = np.zeros((n, oh, ow, o), np.float64)
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, i:i + stride * oh:stride, j:j + stride * ow:stride, :]
            out += np.einsum("nhwc,oc->nhwo", patch, w[:, i, j, :])
    return out + b


def ref_depthwise(x, w, b, pad):
    """w [KH,KW,C,M] (TOSA layout); output channel c*M+m."""
    kh, kw, c, m = w.shape
    xp = np.pad(x, ((0, 0), (pad[0], pad[1]), (pad[2], pad[3]), (0, 0)))
    n, h, wd, _ = xp.shape
    oh, ow = h - kh + 1, wd - kw + 1
    out = np.zeros((n, oh, ow, c, m), np.float64)
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, i:i + oh, j:j + ow, :]
            out += patch[..., None] * w[i, j]
    return out.reshape(n, oh, ow, c * m) + b


def ref_maxpool2(x):
    n, h, w, c = x.shape
    return x.reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))


def ref_softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def build(model, rng, image=28, channels=8):
    H = W = image
    C1, M = channels, 2
    C2 = C1 * M
    UNITS = 16
    x = rng.uniform(-1, 1, (1, H, W, 1)).astype(np.float32)
    w1 = (rng.standard_normal((C1, 3, 3, 1)) * 0.5).astype(np.float32)
    b1 = (rng.standard_normal(C1) * 0.1).astype(np.float32)
    w2 = (rng.standard_normal((3, 3, C1, M)) * 0.3).astype(np.float32)
    b2 = (rng.standard_normal(C2) * 0.1).astype(np.float32)
    fin = (H // 2) * (W // 2) * C2
    w3 = (rng.standard_normal((UNITS, fin)) / math.sqrt(fin)).astype(np.float32)
    b3 = (rng.standard_normal(UNITS) * 0.1).astype(np.float32)

    bld = Builder()
    c1w, c1b = bld.const(w1), bld.const(b1)
    t = bld.emit("tosa.conv2d %%arg0, %s, %s {dilation = array<i64: 1, 1>, "
                 "pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : "
                 "(%s, %s, %s)" % (c1w, c1b, ttype((1, H, W, 1)),
                                   ttype(w1.shape), ttype(b1.shape)),
                 (1, H, W, C1))
    t = bld.emit("tosa.clamp %s {min_fp = 0.0 : f32, max_fp = 3.40282347e+38 : "
                 "f32, min_int = 0 : i64, max_int = 2147483647 : i64} : (%s)"
                 % (t, ttype((1, H, W, C1))), (1, H, W, C1))
    ref = np.maximum(ref_conv(x.astype(np.float64), w1, b1, (1, 1, 1, 1), 1), 0)
    if model == "split":
        t = bld.emit("tosa.cos %s : (%s)" % (t, ttype((1, H, W, C1))),
                     (1, H, W, C1))
        ref = np.cos(ref)
    c2w, c2b = bld.const(w2), bld.const(b2)
    t = bld.emit("tosa.depthwise_conv2d %s, %s, %s {dilation = array<i64: 1, 1>, "
                 "pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : "
                 "(%s, %s, %s)" % (t, c2w, c2b, ttype((1, H, W, C1)),
                                   ttype(w2.shape), ttype(b2.shape)),
                 (1, H, W, C2))
    ref = ref_depthwise(ref, w2, b2, (1, 1, 1, 1))
    t = bld.emit("tosa.max_pool2d %s {kernel = array<i64: 2, 2>, pad = "
                 "array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (%s)"
                 % (t, ttype((1, H, W, C2))), (1, H // 2, W // 2, C2))
    ref = ref_maxpool2(ref)
    t = bld.emit("tosa.reshape %s {new_shape = array<i64: 1, %d>} : (%s)"
                 % (t, fin, ttype((1, H // 2, W // 2, C2))), (1, fin))
    ref = ref.reshape(1, fin)
    fw, fb = bld.const(w3), bld.const(b3)
    t = bld.emit("tosa.fully_connected %s, %s, %s : (%s, %s, %s)"
                 % (t, fw, fb, ttype((1, fin)), ttype(w3.shape),
                    ttype(b3.shape)), (1, UNITS))
    ref = ref @ w3.T.astype(np.float64) + b3
    # softmax as TOSA producers decompose it
    s = (1, UNITS)
    one = (1, 1)
    mx = bld.emit("tosa.reduce_max %s {axis = 1 : i32} : (%s)" % (t, ttype(s)), one)
    sb = bld.emit("tosa.sub %s, %s : (%s, %s)" % (t, mx, ttype(s), ttype(one)), s)
    ex = bld.emit("tosa.exp %s : (%s)" % (sb, ttype(s)), s)
    sm = bld.emit("tosa.reduce_sum %s {axis = 1 : i32} : (%s)" % (ex, ttype(s)), one)
    rc = bld.emit("tosa.reciprocal %s : (%s)" % (sm, ttype(one)), one)
    out = bld.emit("tosa.mul %s, %s {shift = 0 : i8} : (%s, %s)"
                   % (ex, rc, ttype(s), ttype(one)), s)
    ref = ref_softmax(ref)

    params = sum(a.size for a in (w1, b1, w2, b2, w3, b3))
    text = ["// Generated by examples/cnn/make_cnn.py --model %s (%d parameters)."
            % (model, params),
            "func.func @main(%%arg0: %s {nnapi.name = \"image\"}) -> %s {"
            % (ttype((1, H, W, 1)), ttype(s))]
    text += bld.lines
    text += ["    return %s : %s" % (out, ttype(s)), "}"]
    return "\n".join(text) + "\n", x, ref.astype(np.float32)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--model", choices=["cnn", "split"], default="cnn")
    p.add_argument("--out-dir", required=True)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--image", type=int, default=28,
                   help="input height and width (even)")
    p.add_argument("--channels", type=int, default=8,
                   help="channels of the first convolution")
    args = p.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    text, x, ref = build(args.model, np.random.default_rng(args.seed),
                         args.image, args.channels)
    with open(os.path.join(args.out_dir, args.model + ".mlir"), "w") as f:
        f.write(text)
    np.save(os.path.join(args.out_dir, args.model + "_input.npy"), x)
    np.save(os.path.join(args.out_dir, args.model + "_expected.npy"), ref)


if __name__ == "__main__":
    main()
