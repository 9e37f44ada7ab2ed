#!/usr/bin/python3
"""One-operation TOSA models for the element-wise NNAPI operations, an input
for each (odd shapes, broadcasting, values in the function's domain plus its
edges), and the expected output computed independently with numpy in float64.

Usage: make_elementwise_ops.py --out-dir DIR
Writes DIR/<name>.mlir, DIR/<name>_input<k>.npy and DIR/<name>_expected.npy
(the format check_models.py reads), and DIR/all.mlir chaining every op in one
function (for placement checks; no expected output, so it is not named
<name>.mlir with inputs).
"""
import argparse
import os

import numpy as np

import model_files

RNG = np.random.default_rng(11)
SHAPE = (3, 5, 7)


def t(shape):
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


def uniform(lo, hi, shape=SHAPE):
    return RNG.uniform(lo, hi, shape).astype(np.float32)


# name: (TOSA op, inputs, float64 reference)
UNARY = {
    "exp": ("tosa.exp", uniform(-20, 20), np.exp),
    "log": ("tosa.log", np.float32(10.0) ** uniform(-30, 30), np.log),
    "rsqrt": ("tosa.rsqrt", np.float32(10.0) ** uniform(-30, 30),
              lambda x: 1.0 / np.sqrt(x)),
    "abs": ("tosa.abs", uniform(-100, 100), np.abs),
    "negate": ("tosa.negate", uniform(-100, 100), np.negative),
    "floor": ("tosa.floor", uniform(-10, 10), np.floor),
    "sin": ("tosa.sin", uniform(-10, 10), np.sin),
}
BINARY = {
    "maximum": ("tosa.maximum", np.maximum),
    "minimum": ("tosa.minimum", np.minimum),
    "pow": ("tosa.pow", np.power),
}


def unary_model(op):
    ty = t(SHAPE)
    return (f"func.func @main(%a0: {ty}) -> {ty} {{\n"
            f"  %r = {op} %a0 : ({ty}) -> {ty}\n  return %r : {ty}\n}}\n")


def binary_model(op, a_shape, b_shape):
    ta, tb, tr = t(a_shape), t(b_shape), t(SHAPE)
    return (f"func.func @main(%a0: {ta}, %a1: {tb}) -> {tr} {{\n"
            f"  %r = {op} %a0, %a1 : ({ta}, {tb}) -> {tr}\n"
            f"  return %r : {tr}\n}}\n")


def sqrt_model():
    ty, th = t(SHAPE), t((1, 1, 1))
    return (f"func.func @main(%a0: {ty}) -> {ty} {{\n"
            f'  %h = "tosa.const"() {{value = dense<0.5> : {th}}} : () -> {th}\n'
            f"  %r = tosa.pow %a0, %h : ({ty}, {th}) -> {ty}\n"
            f"  return %r : {ty}\n}}\n")


def all_model():
    ty = t(SHAPE)
    lines = [f"func.func @main(%a0: {ty}, %a1: {ty}) -> {ty} {{"]
    prev = "%a0"
    for i, (op, _, _) in enumerate(UNARY.values()):
        lines.append(f"  %u{i} = {op} {prev} : ({ty}) -> {ty}")
        prev = f"%u{i}"
    for i, (op, _) in enumerate(BINARY.values()):
        lines.append(f"  %b{i} = {op} {prev}, %a1 : ({ty}, {ty}) -> {ty}")
        prev = f"%b{i}"
    lines.append(f"  return {prev} : {ty}\n}}\n")
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out-dir", required=True)
    d = p.parse_args().out_dir
    os.makedirs(d, exist_ok=True)
    models = {}
    for name, (op, x, ref) in UNARY.items():
        models[name] = (unary_model(op), [x], ref(x.astype(np.float64)))
    # The second operand broadcasts along the first two dimensions.
    b_shape = (1, 1, SHAPE[2])
    for name, (op, ref) in BINARY.items():
        if name == "pow":
            a, b = uniform(0.1, 4), uniform(-3, 3, b_shape)
        else:
            a, b = uniform(-5, 5), uniform(-5, 5, b_shape)
        models[name] = (binary_model(op, SHAPE, b_shape), [a, b],
                        ref(a.astype(np.float64), b.astype(np.float64)))
    x = np.float32(10.0) ** uniform(-30, 30)
    models["sqrt"] = (sqrt_model(), [x], np.sqrt(x.astype(np.float64)))
    for name, (src, inputs, expected) in models.items():
        model_files.save_case(d, name, inputs, expected.astype(np.float32),
                              src)
        print(name)
    os.makedirs(os.path.join(d, "placement"), exist_ok=True)
    with open(os.path.join(d, "placement", "all.mlir"), "w") as f:
        f.write(all_model())


if __name__ == "__main__":
    main()
