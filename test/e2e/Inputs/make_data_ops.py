#!/usr/bin/python3
"""One-operation TOSA models for the data movement, reduction, matrix
product and composite NNAPI operations (GROUPED_CONV_2D, CHANNEL_SHUFFLE,
TRANSPOSE, PAD, PAD_V2, MIRROR_PAD,
REVERSE, GATHER (constant and run-time indices), SLICE, SPLIT, TILE, DEPTH_TO_SPACE, SPACE_TO_DEPTH,
REDUCE_*, MEAN, HARD_SWISH, PRELU, ELU, LOG_SOFTMAX, INSTANCE_NORMALIZATION,
LOCAL_RESPONSE_NORMALIZATION, MAXIMUM/MINIMUM for
HardSigmoid's clamp,
FULLY_CONNECTED and BATCH_MATMUL from matmul, erf from NNAPI operations),
inputs for each, and expected outputs computed independently with numpy in
float64.

Usage: make_data_ops.py --out-dir DIR
Writes DIR/<name>.mlir, DIR/<name>_input<k>.npy, DIR/<name>_expected.npy and,
where the default tolerance does not apply, DIR/<name>_tolerance.json (the
format check_models.py reads). erf_dense sweeps 2^20 points of [-8, 8] and
small magnitudes down to 1e-37 with an absolute tolerance of 1e-6 and no
relative slack.
"""
import argparse
import math
import os

import numpy as np

import model_files

RNG = np.random.default_rng(23)


def t(shape):
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


def nested(values):
    """MLIR dense literal of an n-d array."""
    a = np.asarray(values)
    if a.ndim == 0:
        return repr(float(a))
    return "[" + ", ".join(nested(v) for v in a) + "]"


def func(args, body, result_ty, result="%r"):
    params = ", ".join(f"%a{i}: {ty}" for i, ty in enumerate(args))
    return (f"func.func @main({params}) -> {result_ty} {{\n{body}"
            f"  return {result} : {result_ty}\n}}\n")


def models():
    m = {}
    x = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
    out = np.transpose(x, (3, 1, 0, 2))
    m["transpose"] = (func([t(x.shape)],
        '  %p = "tosa.const"() {value = dense<[3, 1, 0, 2]> : tensor<4xi32>} : () -> tensor<4xi32>\n'
        f"  %r = tosa.transpose %a0, %p : ({t(x.shape)}, tensor<4xi32>) -> {t(out.shape)}\n",
        t(out.shape)), [x], out.astype(np.float64))

    # The transposes the host code vectorizes (nnapi-codegen's
    # vectorTransposeTile): rows (a head split; rows longer than 256 in
    # pieces) and 8x8 blocks (a key's transpose).
    for name, shape, perm in (("transpose_rows", (2, 16, 12, 64), (0, 2, 1, 3)),
                              ("transpose_long_rows", (2, 3, 512), (1, 0, 2)),
                              ("transpose_blocks", (3, 24, 40), (0, 2, 1))):
        x = RNG.standard_normal(shape).astype(np.float32)
        out = np.transpose(x, perm)
        p = ", ".join(str(d) for d in perm)
        m[name] = (func([t(x.shape)],
            f'  %p = "tosa.const"() {{value = dense<[{p}]> : tensor<{len(perm)}xi32>}} '
            f": () -> tensor<{len(perm)}xi32>\n"
            f"  %r = tosa.transpose %a0, %p : ({t(x.shape)}, tensor<{len(perm)}xi32>) "
            f"-> {t(out.shape)}\n",
            t(out.shape)), [x], out.astype(np.float64))

    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    pads = [[1, 0], [0, 2], [1, 1]]
    for name, value in (("pad", None), ("pad_v2", -1.5)):
        out = np.pad(x.astype(np.float64), pads,
                     constant_values=0.0 if value is None else value)
        body = ('  %p = "tosa.const"() {value = dense<' + nested(pads).replace(".0", "") +
                '> : tensor<3x2xi64>} : () -> tensor<3x2xi64>\n')
        if value is None:
            body += (f"  %r = tosa.pad %a0, %p : ({t(x.shape)}, tensor<3x2xi64>) "
                     f"-> {t(out.shape)}\n")
        else:
            body += (f'  %v = "tosa.const"() {{value = dense<{value}> : tensor<f32>}} : () -> tensor<f32>\n'
                     f"  %r = tosa.pad %a0, %p, %v : ({t(x.shape)}, tensor<3x2xi64>, "
                     f"tensor<f32>) -> {t(out.shape)}\n")
        m[name] = (func([t(x.shape)], body, t(out.shape)), [x], out)

    x = RNG.standard_normal((4, 5, 6)).astype(np.float32)
    out = x[1:3, 0:5, 2:5].astype(np.float64)
    m["slice"] = (func([t(x.shape)],
        "  %r = tosa.slice %a0 {start = array<i64: 1, 0, 2>, size = array<i64: 2, 5, 3>} : "
        f"({t(x.shape)}) -> {t(out.shape)}\n", t(out.shape)), [x], out)

    x = RNG.standard_normal((2, 1, 3)).astype(np.float32)
    out = np.tile(x.astype(np.float64), (2, 3, 2))
    m["tile"] = (func([t(x.shape)],
        "  %r = tosa.tile %a0 {multiples = array<i64: 2, 3, 2>} : "
        f"({t(x.shape)}) -> {t(out.shape)}\n", t(out.shape)), [x], out)

    x = RNG.standard_normal((3, 5, 7)).astype(np.float32)
    near_one = RNG.uniform(0.5, 1.5, (3, 5, 7)).astype(np.float32)
    for kind, fn, data in (("sum", np.sum, x), ("max", np.max, x),
                           ("min", np.min, x), ("prod", np.prod, near_one)):
        out = fn(data.astype(np.float64), axis=1, keepdims=True)
        m["reduce_" + kind] = (func([t(data.shape)],
            f"  %r = tosa.reduce_{kind} %a0 {{axis = 1 : i32}} : "
            f"({t(data.shape)}) -> {t(out.shape)}\n", t(out.shape)), [data], out)

    # A mean over two axes, as the ONNX importer writes ReduceMean.
    out = np.mean(x.astype(np.float64), axis=(1, 2), keepdims=True)
    m["mean"] = (func([t(x.shape)],
        f"  %s1 = tosa.reduce_sum %a0 {{axis = 1 : i32}} : ({t(x.shape)}) -> {t((3, 1, 7))}\n"
        f"  %s2 = tosa.reduce_sum %s1 {{axis = 2 : i32}} : ({t((3, 1, 7))}) -> {t((3, 1, 1))}\n"
        f'  %k = "tosa.const"() {{value = dense<{1.0 / 35}> : {t((1, 1, 1))}}} : () -> {t((1, 1, 1))}\n'
        f"  %r = tosa.mul %s2, %k {{shift = 0 : i8}} : ({t((3, 1, 1))}, {t((1, 1, 1))}) -> {t((3, 1, 1))}\n",
        t(out.shape)), [x], out)

    x = RNG.uniform(-5, 5, (1, 4, 4, 8)).astype(np.float32)
    xd = x.astype(np.float64)
    s = t((1, 1, 1, 1))
    hs = xd * np.clip(xd / 6 + 0.5, 0, 1)
    m["hard_swish"] = (func([t(x.shape)],
        f'  %c6 = "tosa.const"() {{value = dense<0.166666672> : {s}}} : () -> {s}\n'
        f'  %c5 = "tosa.const"() {{value = dense<0.5> : {s}}} : () -> {s}\n'
        f"  %0 = tosa.mul %a0, %c6 {{shift = 0 : i8}} : ({t(x.shape)}, {s}) -> {t(x.shape)}\n"
        f"  %1 = tosa.add %0, %c5 : ({t(x.shape)}, {s}) -> {t(x.shape)}\n"
        f"  %2 = tosa.clamp %1 {{min_fp = 0.0 : f32, max_fp = 1.0 : f32, min_int = 0 : i64, max_int = 1 : i64}} : ({t(x.shape)}) -> {t(x.shape)}\n"
        f"  %r = tosa.mul %a0, %2 {{shift = 0 : i8}} : ({t(x.shape)}, {t(x.shape)}) -> {t(x.shape)}\n",
        t(x.shape)), [x], hs)
    m["hard_sigmoid"] = (func([t(x.shape)],
        f'  %c = "tosa.const"() {{value = dense<0.2> : {s}}} : () -> {s}\n'
        f'  %c5 = "tosa.const"() {{value = dense<0.5> : {s}}} : () -> {s}\n'
        f"  %0 = tosa.mul %a0, %c {{shift = 0 : i8}} : ({t(x.shape)}, {s}) -> {t(x.shape)}\n"
        f"  %1 = tosa.add %0, %c5 : ({t(x.shape)}, {s}) -> {t(x.shape)}\n"
        f"  %r = tosa.clamp %1 {{min_fp = 0.0 : f32, max_fp = 1.0 : f32, min_int = 0 : i64, max_int = 1 : i64}} : ({t(x.shape)}) -> {t(x.shape)}\n",
        t(x.shape)), [x], np.clip(0.2 * xd + 0.5, 0, 1))

    a = RNG.standard_normal((1, 6, 5)).astype(np.float32)
    w = RNG.standard_normal((1, 5, 4)).astype(np.float32)
    out = a.astype(np.float64) @ w.astype(np.float64)
    m["matmul_constant"] = (func([t(a.shape)],
        f'  %w = "tosa.const"() {{value = dense<{nested(w)}> : {t(w.shape)}}} : () -> {t(w.shape)}\n'
        f"  %r = tosa.matmul %a0, %w : ({t(a.shape)}, {t(w.shape)}) -> {t(out.shape)}\n",
        t(out.shape)), [a], out)
    a = RNG.standard_normal((3, 4, 5)).astype(np.float32)
    b = RNG.standard_normal((3, 5, 6)).astype(np.float32)
    out = a.astype(np.float64) @ b.astype(np.float64)
    m["batch_matmul"] = (func([t(a.shape), t(b.shape)],
        f"  %r = tosa.matmul %a0, %a1 : ({t(a.shape)}, {t(b.shape)}) -> {t(out.shape)}\n",
        t(out.shape)), [a, b], out)

    # PRelu (per-channel slope), LeakyRelu, Elu and Selu as the ONNX
    # importer writes them: add(clamp(x, 0, max), mul(...clamp(x, -max, 0)...)).
    x = RNG.uniform(-3, 3, (1, 3, 4, 5)).astype(np.float32)
    xd = x.astype(np.float64)
    T = t(x.shape)
    pos = (f"  %p = tosa.clamp %a0 {{min_fp = 0.0 : f32, max_fp = 3.40282347e+38 : f32, "
           f"min_int = 0 : i64, max_int = 2147483647 : i64}} : ({T}) -> {T}\n")
    neg = (f"  %n = tosa.clamp %a0 {{min_fp = -3.40282347e+38 : f32, max_fp = 0.0 : f32, "
           f"min_int = -2147483648 : i64, max_int = 0 : i64}} : ({T}) -> {T}\n")
    slope = RNG.uniform(0.05, 0.5, (1, 3, 1, 1)).astype(np.float32)
    for name, k in (("prelu", slope), ("leaky_relu", np.full((1, 1, 1, 1), 0.01, np.float32))):
        S = t(k.shape)
        m[name] = (func([T], pos + neg +
            f'  %k = "tosa.const"() {{value = dense<{nested(k)}> : {S}}} : () -> {S}\n'
            f"  %m = tosa.mul %n, %k {{shift = 0 : i8}} : ({T}, {S}) -> {T}\n"
            f"  %r = tosa.add %p, %m : ({T}, {T}) -> {T}\n", T),
            [x], np.where(xd >= 0, xd, xd * k.astype(np.float64)))
    s1 = t((1, 1, 1, 1))
    for name, alpha, gamma in (("elu", 0.7, None), ("selu", 1.6732632, 1.050701)):
        body = (pos + neg +
            f"  %e = tosa.exp %n : ({T}) -> {T}\n"
            f'  %one = "tosa.const"() {{value = dense<1.0> : {s1}}} : () -> {s1}\n'
            f"  %em1 = tosa.sub %e, %one : ({T}, {s1}) -> {T}\n"
            f'  %al = "tosa.const"() {{value = dense<{alpha}> : {s1}}} : () -> {s1}\n'
            f"  %m = tosa.mul %em1, %al {{shift = 0 : i8}} : ({T}, {s1}) -> {T}\n")
        ref = np.where(xd > 0, xd, alpha * np.expm1(xd))
        if gamma is None:
            body += f"  %r = tosa.add %p, %m : ({T}, {T}) -> {T}\n"
        else:
            body += (f"  %u = tosa.add %p, %m : ({T}, {T}) -> {T}\n"
                     f'  %g = "tosa.const"() {{value = dense<{gamma}> : {s1}}} : () -> {s1}\n'
                     f"  %r = tosa.mul %u, %g {{shift = 0 : i8}} : ({T}, {s1}) -> {T}\n")
            ref = ref * gamma
        m[name] = (func([T], body, T), [x], ref)

    # LogSoftmax over axis 1, as the importer writes it.
    x = (RNG.standard_normal((2, 7, 3)) * 4).astype(np.float32)
    xd = x.astype(np.float64)
    T, R = t(x.shape), t((2, 1, 3))
    lse = np.log(np.exp(xd - xd.max(1, keepdims=True)).sum(1, keepdims=True))
    m["log_softmax"] = (func([T],
        f"  %mx = tosa.reduce_max %a0 {{axis = 1 : i32}} : ({T}) -> {R}\n"
        f"  %s = tosa.sub %a0, %mx : ({T}, {R}) -> {T}\n"
        f"  %e = tosa.exp %s : ({T}) -> {T}\n"
        f"  %sum = tosa.reduce_sum %e {{axis = 1 : i32}} : ({T}) -> {R}\n"
        f"  %l = tosa.log %sum : ({R}) -> {R}\n"
        f"  %r = tosa.sub %s, %l : ({T}, {R}) -> {T}\n", T),
        [x], xd - xd.max(1, keepdims=True) - lse)

    # InstanceNormalization as the importer writes it (NCHW, means over
    # axes 2 and 3), then its per-channel scale and bias.
    x = (RNG.standard_normal((2, 3, 4, 5)) * 3 + 1).astype(np.float32)
    xd = x.astype(np.float64)
    T, R, C = t(x.shape), t((2, 3, 1, 1)), t((1, 3, 1, 1))
    scale = RNG.uniform(0.5, 2, (1, 3, 1, 1)).astype(np.float32)
    bias = RNG.standard_normal((1, 3, 1, 1)).astype(np.float32)

    def mean(v, out):
        return (f"  %{out}1 = tosa.reduce_sum %{v} {{axis = 2 : i32}} : ({T}) -> {t((2, 3, 1, 5))}\n"
                f"  %{out}2 = tosa.reduce_sum %{out}1 {{axis = 3 : i32}} : ({t((2, 3, 1, 5))}) -> {R}\n"
                f"  %{out} = tosa.mul %{out}2, %k {{shift = 0 : i8}} : ({R}, {t((1, 1, 1, 1))}) -> {R}\n")
    mu = xd.mean((2, 3), keepdims=True)
    var = ((xd - mu) ** 2).mean((2, 3), keepdims=True)
    m["instance_norm"] = (func([T],
        f'  %k = "tosa.const"() {{value = dense<{1.0 / 20}> : {t((1, 1, 1, 1))}}} : () -> {t((1, 1, 1, 1))}\n'
        f'  %eps = "tosa.const"() {{value = dense<1.0e-05> : {t((1, 1, 1, 1))}}} : () -> {t((1, 1, 1, 1))}\n'
        f'  %g = "tosa.const"() {{value = dense<{nested(scale)}> : {C}}} : () -> {C}\n'
        f'  %b = "tosa.const"() {{value = dense<{nested(bias)}> : {C}}} : () -> {C}\n'
        + mean("a0", "mu") +
        f"  %c = tosa.sub %a0, %mu : ({T}, {R}) -> {T}\n"
        f"  %sq = tosa.mul %c, %c {{shift = 0 : i8}} : ({T}, {T}) -> {T}\n"
        + mean("sq", "var") +
        f"  %ve = tosa.add %var, %eps : ({R}, {t((1, 1, 1, 1))}) -> {R}\n"
        f"  %inv = tosa.rsqrt %ve : ({R}) -> {R}\n"
        f"  %n = tosa.mul %c, %inv {{shift = 0 : i8}} : ({T}, {R}) -> {T}\n"
        f"  %s = tosa.mul %n, %g {{shift = 0 : i8}} : ({T}, {C}) -> {T}\n"
        f"  %r = tosa.add %s, %b : ({T}, {C}) -> {T}\n", T),
        [x], (xd - mu) / np.sqrt(var + 1e-5) * scale + bias)

    x = RNG.standard_normal((3, 4, 5)).astype(np.float32)
    T = t(x.shape)
    m["reverse"] = (func([T], f"  %r = tosa.reverse %a0 {{axis = 1 : i32}} : ({T}) -> {T}\n", T),
                    [x], np.flip(x.astype(np.float64), 1))

    # Mirror padding as the importer writes Pad "reflect": per axis, a
    # concat of reversed slices around x (axis 2 both sides, then axis 1
    # after only); and a symmetric one (the edge included) for axis 0.
    def mirror(v, shape, axis, before, after, skip, name):
        n = shape[axis]
        lines, parts = [], []
        def sl(start, size, tag):
            st = [0] * len(shape)
            sz = list(shape)
            st[axis], sz[axis] = start, size
            ty = t(sz)
            lines.append(f"  %{name}{tag}s = tosa.slice %{v} {{start = array<i64: {', '.join(map(str, st))}>, size = array<i64: {', '.join(map(str, sz))}>}} : ({t(shape)}) -> {ty}\n")
            lines.append(f"  %{name}{tag} = tosa.reverse %{name}{tag}s {{axis = {axis} : i32}} : ({ty}) -> {ty}\n")
            return f"%{name}{tag}", ty
        if before:
            parts.append(sl(skip, before, "b"))
        parts.append((f"%{v}", t(shape)))
        if after:
            parts.append(sl(n - skip - after, after, "a"))
        out = list(shape)
        out[axis] += before + after
        lines.append(f"  %{name} = tosa.concat {', '.join(p[0] for p in parts)} {{axis = {axis} : i32}} : "
                     f"({', '.join(p[1] for p in parts)}) -> {t(out)}\n")
        return "".join(lines), out
    b1, s1 = mirror("a0", list(x.shape), 2, 2, 3, 1, "p")
    b2, s2 = mirror("p", s1, 1, 0, 2, 1, "r")
    ref = np.pad(x.astype(np.float64), ((0, 0), (0, 2), (2, 3)), mode="reflect")
    m["mirror_pad"] = (func([T], b1 + b2, t(s2)), [x], ref)
    b3, s3 = mirror("a0", list(x.shape), 0, 3, 1, 0, "r")
    m["mirror_pad_symmetric"] = (func([T], b3, t(s3)), [x],
        np.pad(x.astype(np.float64), ((3, 1), (0, 0), (0, 0)), mode="symmetric"))

    # Gather with constant indices, as the importer writes ONNX Gather on
    # axis 1 of [2, 5, 3]: values [2, 5, 3], the same indices for each batch.
    x = RNG.standard_normal((2, 5, 3)).astype(np.float32)
    idx = [4, 0, 0, 2]
    I = "tensor<2x4xi32>"
    m["gather"] = (func([t(x.shape)],
        f'  %i = "tosa.const"() {{value = dense<{[idx, idx]}> : {I}}} : () -> {I}\n'
        f"  %r = tosa.gather %a0, %i : ({t(x.shape)}, {I}) -> {t((2, 4, 3))}\n",
        t((2, 4, 3))), [x], np.take(x.astype(np.float64), idx, axis=1))

    # An embedding lookup: token ids given at run time (int32, as the
    # importer's Gather passes them after wrapping negatives) pick rows of a
    # constant table; repeated ids and the first and last row.
    table = RNG.standard_normal((1, 10, 4)).astype(np.float32)
    ids = np.array([[9, 0, 3, 3, 7, 0]], dtype=np.int32)
    TT, IT = t(table.shape), "tensor<1x6xi32>"
    m["embedding"] = (func([IT],
        f'  %t = "tosa.const"() {{value = dense<{nested(table)}> : {TT}}} : () -> {TT}\n'
        f"  %r = tosa.gather %t, %a0 : ({TT}, {IT}) -> {t((1, 6, 4))}\n",
        t((1, 6, 4))), [ids], table.astype(np.float64)[:, ids[0], :])

    # DepthToSpace (DCR) and SpaceToDepth of NCHW tensors as the importer
    # writes them; the references index elements one by one (ONNX's
    # definition: depth channel (i * b + j) * C + c of block element (i, j)).
    b = 2
    x = RNG.standard_normal((1, 8, 3, 2)).astype(np.float32)
    d2s = np.zeros((1, 2, 6, 4))
    for c in range(2):
        for y in range(6):
            for z in range(4):
                d2s[0, c, y, z] = x[0, ((y % b) * b + z % b) * 2 + c, y // b, z // b]
    P = "tensor<6xi32>"
    m["depth_to_space"] = (func([t(x.shape)],
        f'  %p = "tosa.const"() {{value = dense<[0, 3, 4, 1, 5, 2]> : {P}}} : () -> {P}\n'
        f"  %0 = tosa.reshape %a0 {{new_shape = array<i64: 1, 2, 2, 2, 3, 2>}} : ({t(x.shape)}) -> {t((1, 2, 2, 2, 3, 2))}\n"
        f"  %1 = tosa.transpose %0, %p : ({t((1, 2, 2, 2, 3, 2))}, {P}) -> {t((1, 2, 3, 2, 2, 2))}\n"
        f"  %r = tosa.reshape %1 {{new_shape = array<i64: 1, 2, 6, 4>}} : ({t((1, 2, 3, 2, 2, 2))}) -> {t((1, 2, 6, 4))}\n",
        t((1, 2, 6, 4))), [x], d2s)
    x = RNG.standard_normal((1, 3, 4, 6)).astype(np.float32)
    s2d = np.zeros((1, 12, 2, 3))
    for c in range(3):
        for y in range(4):
            for z in range(6):
                s2d[0, ((y % b) * b + z % b) * 3 + c, y // b, z // b] = x[0, c, y, z]
    m["space_to_depth"] = (func([t(x.shape)],
        f'  %p = "tosa.const"() {{value = dense<[0, 3, 5, 1, 2, 4]> : {P}}} : () -> {P}\n'
        f"  %0 = tosa.reshape %a0 {{new_shape = array<i64: 1, 3, 2, 2, 3, 2>}} : ({t(x.shape)}) -> {t((1, 3, 2, 2, 3, 2))}\n"
        f"  %1 = tosa.transpose %0, %p : ({t((1, 3, 2, 2, 3, 2))}, {P}) -> {t((1, 2, 2, 3, 2, 3))}\n"
        f"  %r = tosa.reshape %1 {{new_shape = array<i64: 1, 12, 2, 3>}} : ({t((1, 2, 2, 3, 2, 3))}) -> {t((1, 12, 2, 3))}\n",
        t((1, 12, 2, 3))), [x], s2d)

    # A grouped convolution as the importer writes ONNX Conv with group 3:
    # per group, a conv2d of a channel slice with sliced constant weights
    # and bias, concatenated (NHWC, 3x3, pad 1, stride 2).
    G, ICG, OCG = 3, 2, 4
    x = RNG.standard_normal((1, 7, 7, G * ICG)).astype(np.float32)
    w = (RNG.standard_normal((G * OCG, 3, 3, ICG)) * 0.3).astype(np.float32)
    bias = RNG.standard_normal(G * OCG).astype(np.float32)
    xd, wd = x.astype(np.float64), w.astype(np.float64)
    xp = np.pad(xd, ((0, 0), (1, 1), (1, 1), (0, 0)))
    ref = np.zeros((1, 4, 4, G * OCG))
    for oc in range(G * OCG):
        g = oc // OCG
        for y in range(4):
            for z in range(4):
                win = xp[0, 2 * y:2 * y + 3, 2 * z:2 * z + 3, g * ICG:(g + 1) * ICG]
                ref[0, y, z, oc] = (win * wd[oc]).sum() + bias[oc]
    W, B = t(w.shape), t(bias.shape)
    body = (f'  %w = "tosa.const"() {{value = dense<{nested(w)}> : {W}}} : () -> {W}\n'
            f'  %b = "tosa.const"() {{value = dense<{nested(bias)}> : {B}}} : () -> {B}\n')
    parts = []
    for g in range(G):
        XS, WS, BS = t((1, 7, 7, ICG)), t((OCG, 3, 3, ICG)), t((OCG,))
        body += (f"  %x{g} = tosa.slice %a0 {{start = array<i64: 0, 0, 0, {g * ICG}>, size = array<i64: 1, 7, 7, {ICG}>}} : ({t(x.shape)}) -> {XS}\n"
                 f"  %w{g} = tosa.slice %w {{start = array<i64: {g * OCG}, 0, 0, 0>, size = array<i64: {OCG}, 3, 3, {ICG}>}} : ({W}) -> {WS}\n"
                 f"  %b{g} = tosa.slice %b {{start = array<i64: {g * OCG}>, size = array<i64: {OCG}>}} : ({B}) -> {BS}\n"
                 f"  %c{g} = tosa.conv2d %x{g}, %w{g}, %b{g} {{dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}} : ({XS}, {WS}, {BS}) -> {t((1, 4, 4, OCG))}\n")
        parts.append(f"%c{g}")
    body += (f"  %r = tosa.concat {', '.join(parts)} {{axis = 3 : i32}} : "
             f"({', '.join([t((1, 4, 4, OCG))] * G)}) -> {t(ref.shape)}\n")
    m["grouped_conv"] = (func([t(x.shape)], body, t(ref.shape)), [x], ref)

    # ShuffleNet's channel shuffle of NCHW [1, 6, 2, 3] with 3 groups:
    # reshape to [1, 3, 2, 2, 3], swap the group dimensions, reshape back.
    x = RNG.standard_normal((1, 6, 2, 3)).astype(np.float32)
    ref = np.zeros((1, 6, 2, 3))
    for g in range(3):
        for i in range(2):
            ref[0, i * 3 + g] = x[0, g * 2 + i]
    P = "tensor<5xi32>"
    m["channel_shuffle"] = (func([t(x.shape)],
        f'  %p = "tosa.const"() {{value = dense<[0, 2, 1, 3, 4]> : {P}}} : () -> {P}\n'
        f"  %0 = tosa.reshape %a0 {{new_shape = array<i64: 1, 3, 2, 2, 3>}} : ({t(x.shape)}) -> {t((1, 3, 2, 2, 3))}\n"
        f"  %1 = tosa.transpose %0, %p : ({t((1, 3, 2, 2, 3))}, {P}) -> {t((1, 2, 3, 2, 3))}\n"
        f"  %r = tosa.reshape %1 {{new_shape = array<i64: 1, 6, 2, 3>}} : ({t((1, 2, 3, 2, 3))}) -> {t(x.shape)}\n",
        t(x.shape)), [x], ref)

    # ONNX Split into 3 equal pieces along axis 1 (the importer's slices),
    # put back together in another order.
    x = RNG.standard_normal((2, 6, 3)).astype(np.float32)
    ref = np.concatenate([x[:, 4:6], x[:, 0:2], x[:, 2:4]], axis=1)
    piece = t((2, 2, 3))
    body = "".join(
        f"  %s{k} = tosa.slice %a0 {{start = array<i64: 0, {2 * k}, 0>, "
        f"size = array<i64: 2, 2, 3>}} : ({t(x.shape)}) -> {piece}\n"
        for k in range(3))
    body += (f"  %r = tosa.concat %s2, %s0, %s1 {{axis = 1 : i32}} : "
             f"({piece}, {piece}, {piece}) -> {t(ref.shape)}\n")
    m["split"] = (func([t(x.shape)], body, t(ref.shape)), [x],
                  ref.astype(np.float64))

    # LRN (size 3) as the importer writes it: the square padded along the
    # channels, the sum of its 3 shifted slices, x * (bias + alpha / size *
    # sum)^-beta. The reference sums the window directly.
    x = RNG.standard_normal((1, 5, 2, 3)).astype(np.float32) * 2
    xd = x.astype(np.float64)
    alpha, beta, bias, size = 1e-2, 0.75, 1.5, 3
    sq = np.pad(xd * xd, ((0, 0), (1, 1), (0, 0), (0, 0)))
    ssum = sum(sq[:, k:k + 5] for k in range(size))
    T, Pd, s1 = t(x.shape), t((1, 7, 2, 3)), t((1, 1, 1, 1))
    body = (f"  %sq = tosa.mul %a0, %a0 {{shift = 0 : i8}} : ({T}, {T}) -> {T}\n"
            '  %pads = "tosa.const"() {value = dense<[[0, 0], [1, 1], [0, 0], [0, 0]]> : tensor<4x2xi64>} : () -> tensor<4x2xi64>\n'
            f"  %p = tosa.pad %sq, %pads : ({T}, tensor<4x2xi64>) -> {Pd}\n")
    for k in range(size):
        body += (f"  %s{k} = tosa.slice %p {{start = array<i64: 0, {k}, 0, 0>, size = array<i64: 1, 5, 2, 3>}} : ({Pd}) -> {T}\n")
    body += (f"  %u1 = tosa.add %s0, %s1 : ({T}, {T}) -> {T}\n"
             f"  %u2 = tosa.add %u1, %s2 : ({T}, {T}) -> {T}\n"
             f'  %k = "tosa.const"() {{value = dense<{alpha / size}> : {s1}}} : () -> {s1}\n'
             f'  %b = "tosa.const"() {{value = dense<{bias}> : {s1}}} : () -> {s1}\n'
             f'  %e = "tosa.const"() {{value = dense<{-beta}> : {s1}}} : () -> {s1}\n'
             f"  %sc = tosa.mul %u2, %k {{shift = 0 : i8}} : ({T}, {s1}) -> {T}\n"
             f"  %d = tosa.add %sc, %b : ({T}, {s1}) -> {T}\n"
             f"  %pw = tosa.pow %d, %e : ({T}, {s1}) -> {T}\n"
             f"  %r = tosa.mul %a0, %pw {{shift = 0 : i8}} : ({T}, {T}) -> {T}\n")
    m["local_response_norm"] = (func([T], body, T), [x],
                                xd / (bias + alpha / size * ssum) ** beta)

    n = 1 << 20
    small = np.float32(10.0) ** RNG.uniform(-37, 0, n // 4)
    x = np.concatenate([np.linspace(-8, 8, n - 2 * (n // 4)),
                        small, -small]).astype(np.float32)
    m["erf_dense"] = (func([t(x.shape)],
        f"  %r = tosa.erf %a0 : ({t(x.shape)}) -> {t(x.shape)}\n", t(x.shape)),
        [x], np.vectorize(math.erf)(x.astype(np.float64)))
    return m


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out-dir", required=True)
    p.add_argument("--f16", action="store_true",
                   help="float16 tensors (the models' float32 types and "
                        "inputs rounded to float16; tolerance 1e-2)")
    args = p.parse_args()
    d = args.out_dir
    os.makedirs(d, exist_ok=True)
    for name, (src, inputs, expected) in models().items():
        if args.f16:
            # erf's rational fit and the dense sweep are float32 claims.
            if name == "erf_dense":
                continue
            src = src.replace("xf32>", "xf16>").replace("tensor<f32>",
                                                        "tensor<f16>")
            inputs = [v.astype(np.float16) if v.dtype.kind == "f" else v
                      for v in inputs]
        # float64 expected values: rounding them to float32 would add up to
        # half an ulp to the error the tolerance bounds. (With --f16 they
        # stay those of the float32 inputs: rounding the inputs to float16
        # moves the results by about 1e-3 relative, within the tolerance.)
        tolerance = ({"rtol": 1e-2, "atol": 1e-2} if args.f16 else
                     {"rtol": 0.0, "atol": 1e-6} if name == "erf_dense" else
                     None)
        model_files.save_case(d, name, inputs, expected, src, tolerance)
        print(name)


if __name__ == "__main__":
    main()
