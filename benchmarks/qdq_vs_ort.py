#!/usr/bin/python3
"""Quantized models against ONNX Runtime (CPU, 1 or N threads), side by side.

    qdq_vs_ort.py --build BUILD [--work DIR] [--runs N] [--rounds R] [--threads T]

Models: make_bench_models.py's mobilenetv2_qdq (MobileNetV2 stages in
ONNX's QDQ format at 224x224), one QDQ convolution (3x3, 64 -> 64
channels, 56x56, int8 per-channel weights, uint8 activations), the same
convolution as one QLinearConv (QOperator format: integer arithmetic) and
an attention's scores as one QLinearMatMul of two computed uint8 tensors
(12 heads, 128 x 64 by 64 x 128), each with a seeded random input. For each:
  1. ONNX Runtime writes the reference outputs (ort_run.js --write,
     graph optimization "all": its int8 kernels), and ort_spread.js
     measures ONNX Runtime's own spread (optimized against unoptimized
     sessions);
  2. modes host-only (the LLVM-compiled code) and npu (profiles/npu.json:
     the convolutions and adds as int8 NNAPI operations on the host NNAPI
     device, which runs them with XNNPACK's qc8 / qs8 operators)
     run the test data; the largest difference from ONNX Runtime is
     printed beside the spread;
  3. R rounds time ONNX Runtime and each mode back to back (ort_run.js
     --bench N, nnapi-run --bench N, T threads, default 1; the libraries
     placed for T threads; medians), ratio to ONNX
     Runtime printed per mode.

The differences are printed, not asserted: test/models/qdq-ort.test
checks the same models (write_models) against ONNX Runtime's committed
outputs within a tolerance in quanta. The two QOperator models also have an
exact reference (numpy: the integer sums in int64, then ONNX's float32
requantization), against which both runtimes' largest differences are
printed: on x86 CPUs without VNNI, ONNX Runtime's u8s8 kernels add pairs of
products in 16 bits with saturation (vpmaddubsw) and are not exact.

ONNX Runtime: `bash ../shared/tools/ort/setup.sh` (npm, outside the repo).
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

import make_bench_models

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ORT_RUN = os.path.join(ROOT, "..", "shared", "tools", "ort", "ort_run.js")


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return p.stdout + p.stderr


def median_ms(text):
    m = re.search(r"median_ms=([0-9.]+)", text)
    if not m:
        sys.exit("no median_ms in:\n" + text)
    return float(m.group(1))


def save(d, name, nodes, inits, elem, x, y_shape=None):
    """DIR/model.onnx of `nodes` (input x, output y: `elem` tensors of x's
    shape, or of y_shape) and its input x as DIR/test_data_set_0/input_0.pb."""
    shape = list(x.shape)
    g = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("x", elem, shape)],
        [helper.make_tensor_value_info("y", elem, y_shape or shape)], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    onnx.save(m, os.path.join(d, "model.onnx"))
    with open(os.path.join(d, "test_data_set_0", "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "x").SerializeToString())


def write_conv(d, rng, hw=56):
    """One QDQ convolution layer, 3x3 64 -> 64 channels at hw x hw: Q/DQ
    input, int8 per-channel weights, int32 bias, ReLU, Q/DQ output."""
    c = 64
    w = rng.standard_normal((c, c, 3, 3)) * np.sqrt(2.0 / (9 * c))
    ws = np.abs(w).reshape(c, -1).max(axis=1) / 127.0
    wq = np.round(w / ws.reshape(-1, 1, 1, 1)).astype(np.int8)
    xs, ys = 8.0 / 255, 6.0 / 255
    bq = np.round(rng.standard_normal(c) * 0.01 / (xs * ws)).astype(np.int32)
    inits = [
        numpy_helper.from_array(np.array(xs, np.float32), "xs"),
        numpy_helper.from_array(np.array(128, np.uint8), "xz"),
        numpy_helper.from_array(wq, "wq"),
        numpy_helper.from_array(ws.astype(np.float32), "ws"),
        numpy_helper.from_array(np.zeros(c, np.int8), "wz"),
        numpy_helper.from_array(bq, "bq"),
        numpy_helper.from_array((xs * ws).astype(np.float32), "bs"),
        numpy_helper.from_array(np.array(ys, np.float32), "ys"),
        numpy_helper.from_array(np.array(0, np.uint8), "yz"),
    ]
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
        helper.make_node("DequantizeLinear", ["wq", "ws", "wz"], ["wd"], axis=0),
        helper.make_node("DequantizeLinear", ["bq", "bs"], ["bd"], axis=0),
        helper.make_node("Conv", ["xd", "wd", "bd"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("QuantizeLinear", ["r", "ys", "yz"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "ys", "yz"], ["y"]),
    ]
    save(d, "qdq_conv", nodes, inits, TensorProto.FLOAT,
         rng.standard_normal((1, c, hw, hw)).astype(np.float32))


def write_qlinear_conv(d, rng, hw=56):
    """The same convolution in ONNX's QOperator format: one QLinearConv on
    uint8 data with int8 per-channel weights and an int32 bias, uint8 out
    (integer arithmetic, float32 requantization)."""
    c = 64
    wq = rng.integers(-127, 128, (c, c, 3, 3)).astype(np.int8)
    ws = rng.uniform(0.001, 0.003, c).astype(np.float32)
    bq = rng.integers(-1000, 1000, c).astype(np.int32)
    inits = [
        numpy_helper.from_array(np.array(0.02, np.float32), "xs"),
        numpy_helper.from_array(np.array(128, np.uint8), "xz"),
        numpy_helper.from_array(wq, "wq"),
        numpy_helper.from_array(ws, "ws"),
        numpy_helper.from_array(np.zeros(c, np.int8), "wz"),
        numpy_helper.from_array(np.array(0.05, np.float32), "ys"),
        numpy_helper.from_array(np.array(100, np.uint8), "yz"),
        numpy_helper.from_array(bq, "bq"),
    ]
    node = helper.make_node(
        "QLinearConv", ["x", "xs", "xz", "wq", "ws", "wz", "ys", "yz", "bq"],
        ["y"], pads=[1, 1, 1, 1])
    save(d, "qlinear_conv", [node], inits, TensorProto.UINT8,
         rng.integers(0, 256, (1, c, hw, hw)).astype(np.uint8))


def write_qlinear_matmul(d, rng, heads=12, seq=128, depth=64):
    """An attention's scores in ONNX's QOperator format: one QLinearMatMul of
    two computed uint8 tensors, the input x [heads, seq, depth] and its
    transpose (Q K^T with Q = K: no constant operand to pack), uint8 out."""
    inits = [
        numpy_helper.from_array(np.array(0.02, np.float32), "xs"),
        numpy_helper.from_array(np.array(128, np.uint8), "xz"),
        numpy_helper.from_array(np.array(0.8, np.float32), "ys"),
        numpy_helper.from_array(np.array(120, np.uint8), "yz"),
    ]
    nodes = [
        helper.make_node("Transpose", ["x"], ["xt"], perm=[0, 2, 1]),
        helper.make_node("QLinearMatMul",
                         ["x", "xs", "xz", "xt", "xs", "xz", "ys", "yz"], ["y"]),
    ]
    save(d, "qlinear_matmul", nodes, inits, TensorProto.UINT8,
         rng.integers(0, 256, (heads, seq, depth)).astype(np.uint8),
         [heads, seq, seq])


def write_models(out_dir, conv_size=56, scores=(12, 128, 64)):
    """The four models as OUT_DIR/NAME/model.onnx with a seeded random
    input in OUT_DIR/NAME/test_data_set_0/input_0.pb; returns the names.
    test/models/qdq-ort.test checks the same models (the convolutions at
    conv_size 14, the scores at smaller `scores`: heads, sequence, depth)
    against ONNX Runtime's committed outputs."""
    make_bench_models.write_model(out_dir, "mobilenetv2_qdq")
    write_conv(os.path.join(out_dir, "qdq_conv"), np.random.default_rng(11),
               conv_size)
    write_qlinear_conv(os.path.join(out_dir, "qlinear_conv"),
                       np.random.default_rng(12), conv_size)
    write_qlinear_matmul(os.path.join(out_dir, "qlinear_matmul"),
                         np.random.default_rng(13), *scores)
    return ["mobilenetv2_qdq", "qdq_conv", "qlinear_conv", "qlinear_matmul"]


def load_pb(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def max_diff(ours, ref):
    return float(np.abs(ours.ravel().astype(np.float64) -
                        ref.ravel().astype(np.float64)).max())


def requantize(acc, scale, zero):
    """ONNX's QLinear requantization: float32 multiplier, round half to
    even, plus the zero point, saturated to uint8."""
    y = np.round(acc.astype(np.float32) * scale.astype(np.float32)) + zero
    return np.clip(y, 0, 255).astype(np.uint8)


def exact_output(model_path, x):
    """The exact output of the QOperator models (None for the QDQ ones)."""
    m = onnx.load(model_path)
    init = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    op = m.graph.node[-1].op_type
    if op not in ("QLinearConv", "QLinearMatMul"):
        return None
    xi = x.astype(np.int64) - int(init["xz"])
    if op == "QLinearConv":
        w, b = init["wq"].astype(np.int64), init["bq"].astype(np.int64)
        n, c, h, wd = xi.shape
        xp = np.pad(xi, ((0, 0), (0, 0), (1, 1), (1, 1)))
        acc = np.zeros((n, w.shape[0], h, wd), np.int64)
        for i in range(3):
            for j in range(3):
                acc += np.einsum("nchw,oc->nohw", xp[:, :, i:i + h, j:j + wd],
                                 w[:, :, i, j])
        acc += b.reshape(1, -1, 1, 1)
        scale = (init["xs"] * init["ws"] / init["ys"]).astype(np.float32)
        return requantize(acc, scale.reshape(1, -1, 1, 1), int(init["yz"]))
    acc = xi @ xi.transpose(0, 2, 1)
    scale = np.float32(init["xs"] * init["xs"] / init["ys"])
    return requantize(acc, scale, int(init["yz"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", default="/tmp/nnapi-mlir-qdq")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1,
                    help="threads of both runtimes (the libraries are placed "
                         "for this count too)")
    args = ap.parse_args()
    threads = str(args.threads)
    bindir = os.path.join(args.build, "bin")
    env_threads = dict(os.environ, NNAPI_MLIR_QUIET="1",
                       NNAPI_MLIR_THREADS=threads)
    os.environ.update(env_threads)
    os.makedirs(args.work, exist_ok=True)
    names = write_models(args.work)
    modes = {"host-only": ["--host-only"],
             "npu": ["--device-profile=" +
                     os.path.join(ROOT, "profiles", "npu.json")]}
    print("| model | ORT ms | ORT spread | mode | max abs diff | exact: ours / ORT"
          " | ratio to ORT |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        d = os.path.join(args.work, name)
        model, data = os.path.join(d, "model.onnx"), os.path.join(d, "test_data_set_0")
        run(["node", ORT_RUN, model, data, "--write"])
        spread = float(re.search(r"max_abs=([0-9.e+-]+)", run(
            ["node", os.path.join(HERE, "ort_spread.js"), model, data])).group(1))
        ort_out = load_pb(os.path.join(data, "output_0.pb"))
        exact = exact_output(model, load_pb(os.path.join(data, "input_0.pb")))
        libs, diffs, exact_diffs = {}, {}, {}
        for mode, flags in modes.items():
            lib = os.path.join(d, mode + ".so")
            run([os.path.join(bindir, "nnapi-compile"), model, "-o", lib,
                 "--placement-threads=" + threads] + flags)
            out = os.path.join(d, "out-" + mode)
            # --test-data feeds the inputs; max_diff compares (integer
            # outputs that differ from ONNX Runtime's fail nnapi-run's own
            # exact check, which is not the one made here).
            shutil.rmtree(out, ignore_errors=True)
            subprocess.run([os.path.join(bindir, "nnapi-run"), lib,
                            "--test-data", data, "--output-dir", out],
                           capture_output=True)
            ours = np.load(os.path.join(out, "output0.npy"))
            libs[mode], diffs[mode] = lib, max_diff(ours, ort_out)
            if exact is not None:
                exact_diffs[mode] = "%.2g / %.2g" % (max_diff(ours, exact),
                                                     max_diff(ort_out, exact))
        ort_ms, ms = [], {m: [] for m in modes}
        for _ in range(args.rounds):
            ort_ms.append(median_ms(run(["node", ORT_RUN, model, data, "--threads", threads,
                                         "--bench", str(args.runs)])))
            for mode, lib in libs.items():
                ms[mode].append(median_ms(run([os.path.join(bindir, "nnapi-run"), lib,
                                               "--threads", threads, "--bench",
                                               str(args.runs)])))
        base = statistics.median(ort_ms)
        for mode in modes:
            print("| %s | %.2f | %.4f | %s | %.2g | %s | %.2f |" % (
                name, base, spread, mode, diffs[mode],
                exact_diffs.get(mode, "-"), statistics.median(ms[mode]) / base))


if __name__ == "__main__":
    main()
