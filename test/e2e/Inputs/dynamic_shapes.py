#!/usr/bin/python3
"""dynamic_shapes.py DIR MODEL.so KIND SIZE... [-- RUNNER...]

Runs one library compiled with dynamic dimensions (dynamic_conv.mlir,
dynamic_sequence.mlir or dynamic_int8_scores.mlir, KIND conv, sequence or
int8, whose integer outputs must be exact) at each SIZE (the dynamic
dimension's value) with nnapi-run (PATH; or the command after "--", such
as qemu running the aarch64 nnapi-run) on random inputs, and compares
every output with numpy's direct definition of the model. Prints
'<kind> <size>: OK <output shapes>' or '<kind> <size>: MISMATCH ...'; exits
1 if any size failed.
"""
import os
import subprocess
import sys

import numpy as np


def conv_reference(x):
    w = np.full((8, 3, 3, 4), 0.0625, np.float32) * np.array(
        [0.5, -0.25, 0.125, 1.0], np.float32)
    b = np.array([0.1, -0.2, 0.3, 0.0, 0.5, -0.6, 0.7, 0.05], np.float32)
    n, h, width, _ = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    y = np.zeros((n, h, width, 8), np.float64)
    for i in range(h):
        for j in range(width):
            patch = xp[0, i:i + 3, j:j + 3, :].astype(np.float64)
            y[0, i, j, :] = np.tensordot(w, patch, axes=([1, 2, 3], [0, 1, 2]))
    y = np.clip(y + b, 0.0, 6.0)
    return [np.maximum(y[:, 0::2], y[:, 1::2])]


def sequence_reference(x):
    w = np.full((16, 8), 0.03125) * np.array(
        [1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, 0.0])
    b = np.array([0.1, 0.2, 0.3, 0.4, -0.1, -0.2, -0.3, -0.4])
    y = x[0].astype(np.float64) @ w + b
    e = np.exp(y - y.max(axis=1, keepdims=True))
    return [(e / e.sum(axis=1, keepdims=True))[None],
            y.sum(axis=0)[None, None]]


def int8_reference(x):
    q = x[0].astype(np.int64) - 3
    return [(q @ q.T)[None].astype(np.int32)]


REFERENCES = {"conv": conv_reference, "sequence": sequence_reference,
              "int8": int8_reference}


def main():
    args = sys.argv[1:]
    runner = ["nnapi-run"]
    if "--" in args:
        runner = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    d, so, kind = args[0], args[1], args[2]
    failed = False
    for size in map(int, args[3:]):
        rng = np.random.default_rng(size)
        if kind == "int8":
            x = rng.integers(-128, 128, (1, size, 20)).astype(np.int8)
        else:
            shape = (1, 8, size, 4) if kind == "conv" else (1, size, 16)
            x = rng.uniform(-1, 1, shape).astype(np.float32)
        path = os.path.join(d, f"{kind}_{size}.npy")
        np.save(path, x)
        out = os.path.join(d, f"out_{kind}_{size}")
        subprocess.run(runner + [so, "--input", path, "--output-dir", out],
                       check=True, stdout=subprocess.DEVNULL)
        expected = REFERENCES[kind](x)
        shapes = []
        for k, want in enumerate(expected):
            got = np.load(os.path.join(out, f"output{k}.npy"))
            shapes.append("x".join(map(str, got.shape)))
            exact = np.issubdtype(want.dtype, np.integer)
            if got.shape != want.shape or not (
                    np.array_equal(got, want) if exact else
                    np.allclose(got, want, rtol=1e-4, atol=1e-5)):
                diff = (np.abs(got - want).max()
                        if got.shape == want.shape else "shape")
                print(f"{kind} {size}: MISMATCH output {k} {got.shape} "
                      f"{want.shape} {diff}")
                failed = True
                break
        else:
            print(f"{kind} {size}: OK {' '.join(shapes)}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
