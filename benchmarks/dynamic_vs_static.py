#!/usr/bin/python3
"""One library for every length against one library per length, and
against ONNX Runtime (CPU), side by side.

    dynamic_vs_static.py --build BUILD [--work DIR] [--lengths 8,16,...]
                         [--runs N] [--rounds R] [--threads T]
                         [--max-ratio X]

The model: an attention-like encoder block over a [1, S, 64] sequence
(projection and bias, scores Q Q^T / 8 over the sequence, softmax over keys,
the weighted sum, a residual ReLU), exported with a symbolic length "seq".
nnapi-compile builds it once with the length kept dynamic
(--input-shape x=1x[1..512]x64; its ops stay on the host, as every
dynamically shaped op does for now) and once per length (x=1xSx64), both
host-only (the like-for-like comparison) and in the default mode (NNAPI
partitions on the host NNAPI device, as a user gets it). For each length:
  1. ONNX Runtime writes the reference outputs (ort_run.js --write), and
     every library must match them (nnapi-run --test-data: PASS);
  2. R rounds time ONNX Runtime, the per-length libraries and the dynamic
     one back to back (ort_run.js / nnapi-run --bench N, T threads;
     medians).
Prints the times and the ratios dynamic / per-length host-only and
dynamic / ONNX Runtime; fails when a result differs or when dynamic /
per-length host-only exceeds --max-ratio (default 3.0, a regression guard;
the goal is 1.1).

ONNX Runtime: `bash ../shared/tools/ort/setup.sh` (npm, outside the repo).
"""
import argparse
import os
import statistics
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from ort_compare import median_ms, run  # the same runner and bench parsing

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ORT_RUN = os.path.join(ROOT, "..", "shared", "tools", "ort", "ort_run.js")
D = 64


def encoder_block(path):
    rng = np.random.default_rng(0)
    w = (rng.standard_normal((D, D)) / 8).astype(np.float32)
    b = (rng.standard_normal((D,)) / 8).astype(np.float32)
    scale = np.array(1 / 8, np.float32)
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["p"]),
        helper.make_node("Add", ["p", "b"], ["q"]),
        helper.make_node("Transpose", ["q"], ["k"], perm=[0, 2, 1]),
        helper.make_node("MatMul", ["q", "k"], ["s"]),
        helper.make_node("Mul", ["s", "scale"], ["ss"]),
        helper.make_node("Softmax", ["ss"], ["a"], axis=-1),
        helper.make_node("MatMul", ["a", "q"], ["o"]),
        helper.make_node("Add", ["o", "x"], ["r"]),
        helper.make_node("Relu", ["r"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, "encoder_block",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, "seq", D])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, "seq", D])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b"),
         numpy_helper.from_array(scale, "scale")])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True)
    p.add_argument("--work", default="/tmp/nnapi-dynamic-bench")
    p.add_argument("--lengths", default="8,16,32,64,128")
    p.add_argument("--runs", type=int, default=200)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--max-ratio", type=float, default=3.0)
    args = p.parse_args()
    bin_dir = os.path.join(os.path.abspath(args.build), "bin")
    os.makedirs(args.work, exist_ok=True)
    model = os.path.join(args.work, "encoder_block.onnx")
    encoder_block(model)
    compile_ = os.path.join(bin_dir, "nnapi-compile")
    nnapi_run = os.path.join(bin_dir, "nnapi-run")
    dynamic = os.path.join(args.work, "dynamic.so")
    run([compile_, model, "-o", dynamic, "--input-shape=x=1x[1..512]x64"])
    env = dict(os.environ, NNAPI_MLIR_THREADS=str(args.threads))
    print(f"{'length':>6} {'ORT ms':>8} {'fixed ms':>9} {'fixed host':>10} "
          f"{'dynamic ms':>10} {'dyn/fixed host':>14} {'dyn/ORT':>8}")
    worst = 0.0
    for length in map(int, args.lengths.split(",")):
        data = os.path.join(args.work, f"len{length}")
        os.makedirs(data, exist_ok=True)
        x = np.random.default_rng(length).uniform(
            -1, 1, (1, length, D)).astype(np.float32)
        with open(os.path.join(data, "input_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(x, "x").SerializeToString())
        run(["node", ORT_RUN, model, data, "--write"])
        fixed = os.path.join(args.work, f"fixed{length}.so")
        run([compile_, model, "-o", fixed, f"--input-shape=x=1x{length}x64"])
        fixed_host = os.path.join(args.work, f"fixed{length}-host.so")
        run([compile_, model, "-o", fixed_host, "--host-only",
             f"--input-shape=x=1x{length}x64"])
        for so in (fixed, fixed_host, dynamic):
            out = run([nnapi_run, so, "--test-data", data, "--threads",
                       str(args.threads)], env=env)
            if "test-data: PASS" not in out:
                sys.exit(f"dynamic_vs_static: {so} at length {length} does "
                         f"not match ONNX Runtime:\n{out}")
        times = {"ort": [], "fixed": [], "host": [], "dynamic": []}
        for _ in range(args.rounds):
            times["ort"].append(median_ms(run(
                ["node", ORT_RUN, model, data, "--threads", str(args.threads),
                 "--bench", str(args.runs)])))
            for key, so in (("fixed", fixed), ("host", fixed_host),
                            ("dynamic", dynamic)):
                times[key].append(median_ms(run(
                    [nnapi_run, so, "--test-data", data, "--threads",
                     str(args.threads), "--bench", str(args.runs)], env=env)))
        t = {k: statistics.median(v) for k, v in times.items()}
        ratio = t["dynamic"] / t["host"]
        worst = max(worst, ratio)
        print(f"{length:>6} {t['ort']:>8.4f} {t['fixed']:>9.4f} "
              f"{t['host']:>10.4f} {t['dynamic']:>10.4f} {ratio:>14.2f} "
              f"{t['dynamic'] / t['ort']:>8.2f}")
    if worst > args.max_ratio:
        sys.exit(f"dynamic_vs_static: the dynamic library is {worst:.2f}x the "
                 f"per-length one at some length (limit {args.max_ratio})")
    print(f"worst dynamic / per-length: {worst:.2f}")


if __name__ == "__main__":
    main()
