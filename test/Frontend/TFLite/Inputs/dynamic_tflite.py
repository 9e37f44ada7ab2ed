#!/usr/bin/python3
"""dynamic_tflite.py DIR [--bucket-middle] [nnapi-compile flags...]

TFLite models whose shape_signature has an unknown (-1) width, compiled
once with the width kept dynamic (--input-shape line=1x8x[8..256]x1) by
nnapi-compile (PATH) and run with nnapi-run at widths 16 (the stored one),
24 and 40 against numpy in float64 (tflite_reference.py). Prints
"NAME W1 W2 W3: OK" or MISMATCH lines.

"line": a text-line-like network: CONV_2D 3x3 SAME + RELU (1 -> 4 channels),
MAX_POOL_2D 2x2 VALID stride 2, DEPTHWISE_CONV_2D 3x3 SAME + RELU6, ADD of
a per-channel constant, SOFTMAX over the channels; every tensor's signature
has -1 for the width, as TensorFlow Lite's converter writes them.
"pointwise": a 1x1 CONV_2D + RELU6 over a map of dynamic height and width
(--input-shape map=1x?x?x3), run at 4x6, 5x9 and 16x3; "rows": a
FULLY_CONNECTED over [rows, 8] with the rows dynamic, at 1, 3 and 17 rows.
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tflite_builder import ModelBuilder  # noqa: E402
import tflite_reference as ref  # noqa: E402

H, C = 8, 4
STORED = 16
WIDTHS = (16, 24, 40)


def line_model(rng):
    w1 = rng.uniform(-1, 1, (C, 3, 3, 1)).astype(np.float32)
    b1 = rng.uniform(-1, 1, (C,)).astype(np.float32)
    wd = rng.uniform(-1, 1, (1, 3, 3, C)).astype(np.float32)
    bd = rng.uniform(-1, 1, (C,)).astype(np.float32)
    shift = rng.uniform(-1, 1, (C,)).astype(np.float32)
    b = ModelBuilder()

    def t(name, h, w, c):
        return b.tensor(name, [1, h, w, c], shape_signature=[1, h, -1, c])

    x = b.input("line", [1, H, STORED, 1], shape_signature=[1, H, -1, 1])
    f = t("features", H, STORED, C)
    b.op("CONV_2D", [x, b.const("w1", w1), b.const("b1", b1)], [f],
         ("Conv2DOptions", {"Padding": "SAME", "StrideW": 1, "StrideH": 1,
                            "FusedActivationFunction": "RELU"}))
    p = t("pooled", H // 2, STORED // 2, C)
    b.op("MAX_POOL_2D", [f], [p],
         ("Pool2DOptions", {"Padding": "VALID", "StrideW": 2, "StrideH": 2,
                            "FilterWidth": 2, "FilterHeight": 2}))
    d = t("depthwise", H // 2, STORED // 2, C)
    b.op("DEPTHWISE_CONV_2D", [p, b.const("wd", wd), b.const("bd", bd)], [d],
         ("DepthwiseConv2DOptions", {"Padding": "SAME", "StrideW": 1,
                                     "StrideH": 1, "DepthMultiplier": 1,
                                     "FusedActivationFunction": "RELU6"}))
    s = t("shifted", H // 2, STORED // 2, C)
    b.op("ADD", [d, b.const("shift", shift)], [s], ("AddOptions", {}))
    y = t("classes", H // 2, STORED // 2, C)
    b.op("SOFTMAX", [s], [y], ("SoftmaxOptions", {"Beta": 1.0}))
    b.output(y)
    b.sign("serving_default", {"line": x}, {"classes": y})

    def reference(xv):
        fv = ref.conv2d(xv, w1, b1, activation="RELU")
        pv = ref.pool(fv, (2, 2), (2, 2), "VALID", "max")
        dv = ref.depthwise(pv, wd, bd, activation="RELU6")
        return ref.softmax(dv + shift.astype(np.float64))
    return b.finish(), reference


def pointwise_model(rng):
    """A 1x1 CONV_2D + RELU6 over a map of dynamic height and width, as the
    model's output: the host code multiplies the pixels as a matrix
    (nnapi-pointwise-conv-as-matmul) and reshapes back."""
    w = rng.uniform(-1, 1, (8, 1, 1, 3)).astype(np.float32)
    bias = rng.uniform(-1, 1, (8,)).astype(np.float32)
    b = ModelBuilder()
    x = b.input("map", [1, 4, 6, 3], shape_signature=[1, -1, -1, 3])
    y = b.tensor("features", [1, 4, 6, 8], shape_signature=[1, -1, -1, 8])
    b.op("CONV_2D", [x, b.const("w", w), b.const("b", bias)], [y],
         ("Conv2DOptions", {"Padding": "VALID", "StrideW": 1, "StrideH": 1,
                            "FusedActivationFunction": "RELU6"}))
    b.output(y)

    def reference(xv):
        return ref.conv2d(xv, w, bias, padding="VALID", activation="RELU6")
    return b.finish(), reference


def run_case(d, name, built, input_shape, cases, flags, rng):
    """Writes DIR/NAME.tflite (`built`: the model and its numpy reference),
    compiles it once with --input-shape=`input_shape` and `flags`, runs it
    at each (label, shape) of `cases` (inputs DIR/NAME_<label>.npy) and
    prints "NAME <labels>: OK" or MISMATCH lines."""
    model, reference = built
    path = os.path.join(d, name + ".tflite")
    with open(path, "wb") as f:
        f.write(model)
    so = os.path.join(d, name + ".so")
    # --bucket-middle (ours, not nnapi-compile's): the middle case's shape
    # as --shape-buckets, so it runs the model's static copy.
    extra = []
    if "--bucket-middle" in flags:
        flags = [f for f in flags if f != "--bucket-middle"]
        extra = ["--shape-buckets=" +
                 "x".join(map(str, cases[len(cases) // 2][1]))]
    subprocess.run(["nnapi-compile", path, "-o", so,
                    "--input-shape=" + input_shape] + flags + extra,
                   check=True)
    ok = True
    for label, shape in cases:
        xv = rng.uniform(0, 1, shape).astype(np.float32)
        xp = os.path.join(d, "%s_%s.npy" % (name, label))
        np.save(xp, xv)
        out = os.path.join(d, "out_%s_%s" % (name, label))
        subprocess.run(["nnapi-run", so, "--input", xp, "--output-dir", out],
                       check=True, stdout=subprocess.DEVNULL)
        got = np.load(os.path.join(out, "output0.npy"))
        want = reference(xv)
        if got.shape != want.shape:
            print("MISMATCH %s at %s: shape %s, numpy %s"
                  % (name, label, list(got.shape), list(want.shape)))
            ok = False
            continue
        err = float(np.abs(got - want).max())
        if err > 1e-4:
            print("MISMATCH %s at %s: max error %g" % (name, label, err))
            ok = False
    if ok:
        print("%s %s: OK" % (name, " ".join(label for label, _ in cases)))


def rows_model(rng):
    """FULLY_CONNECTED + RELU over [rows, 8] with the rows dynamic."""
    w = rng.uniform(-1, 1, (5, 8)).astype(np.float32)
    bias = rng.uniform(-1, 1, (5,)).astype(np.float32)
    b = ModelBuilder()
    x = b.input("rows", [2, 8], shape_signature=[-1, 8])
    y = b.tensor("scores", [2, 5], shape_signature=[-1, 5])
    b.op("FULLY_CONNECTED", [x, b.const("w", w), b.const("b", bias)], [y],
         ("FullyConnectedOptions", {"FusedActivationFunction": "RELU"}))
    b.output(y)

    def reference(xv):
        return np.maximum(xv.astype(np.float64) @ w.T.astype(np.float64)
                          + bias, 0)
    return b.finish(), reference


def refused_models(rng):
    """Models the importer refuses with the width dynamic (errors.test):
    a RESHAPE on the dynamic path (no shape rule for dynamic dimensions
    yet), a convolution with SAME padding and stride 2 over it (its
    padding depends on the width), and an AVERAGE_POOL_2D over it (MLIR
    19's tosa-to-linalg does not lower a dynamic avg_pool2d)."""
    b = ModelBuilder()
    x = b.input("line", [1, H, STORED, 1], shape_signature=[1, H, -1, 1])
    r = b.tensor("flat", [H, STORED], shape_signature=[H, -1])
    b.op("RESHAPE", [x, b.const("shape", np.array([H, -1], np.int32))], [r],
         ("ReshapeOptions", {"NewShape": [H, -1]}))
    b.output(r)
    reshape = b.finish()
    b = ModelBuilder()
    x = b.input("line", [1, H, STORED, 1], shape_signature=[1, H, -1, 1])
    f = b.tensor("features", [1, H // 2, STORED // 2, C],
                 shape_signature=[1, H // 2, -1, C])
    w = rng.uniform(-1, 1, (C, 3, 3, 1)).astype(np.float32)
    b.op("CONV_2D", [x, b.const("w", w), -1], [f],
         ("Conv2DOptions", {"Padding": "SAME", "StrideW": 2, "StrideH": 2}))
    b.output(f)
    strided = b.finish()
    b = ModelBuilder()
    x = b.input("line", [1, H, STORED, 1], shape_signature=[1, H, -1, 1])
    a = b.tensor("average", [1, H // 2, STORED // 2, 1],
                 shape_signature=[1, H // 2, -1, 1])
    b.op("AVERAGE_POOL_2D", [x], [a],
         ("Pool2DOptions", {"Padding": "VALID", "StrideW": 2, "StrideH": 2,
                            "FilterWidth": 2, "FilterHeight": 2}))
    b.output(a)
    return {"reshape.tflite": reshape, "strided.tflite": strided,
            "average.tflite": b.finish()}


def main():
    d, flags = sys.argv[1], sys.argv[2:]
    os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(7)
    for name, data in refused_models(rng).items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    # Below the declared range: for the refusal test.
    np.save(os.path.join(d, "line_4.npy"),
            np.zeros((1, H, 4, 1), np.float32))
    run_case(d, "line", line_model(rng), "line=1x%dx[8..256]x1" % H,
             [(str(w), (1, H, w, 1)) for w in WIDTHS], flags, rng)
    run_case(d, "pointwise", pointwise_model(rng), "map=1x?x?x3",
             [("4x6", (1, 4, 6, 3)), ("5x9", (1, 5, 9, 3)),
              ("16x3", (1, 16, 3, 3))], flags, rng)
    run_case(d, "rows", rows_model(rng), "rows=?x8",
             [(str(n), (n, 8)) for n in (1, 3, 17)], flags, rng)


if __name__ == "__main__":
    main()
