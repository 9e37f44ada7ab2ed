#!/usr/bin/python3
"""One library for every length against one library per length, and
against ONNX Runtime (CPU), side by side.

    dynamic_vs_static.py --build BUILD [--model encoder|recognizer]
                         [--work DIR] [--lengths 8,16,...] [--runs N]
                         [--rounds R] [--threads T] [--max-ratio X]

The models: "encoder", an attention-like block over a [1, S, 64] sequence
(projection and bias, scores Q Q^T / 8 over the sequence, softmax over keys,
the weighted sum, a residual ReLU), exported with a symbolic length "seq";
"recognizer", a text-recognizer-like network over a [1, 1, 32, W] line
image of any width (four 3x3 convolutions with ReLU and 2x2 max pools down
to one row, then per column a projection to 40 classes and softmax),
exported with a symbolic width. nnapi-compile builds each once with the
size kept dynamic (--input-shape x=1x[1..512]x64 or 1x1x32x[32..2048]) and
once per length (x=1xSx64), each host-only (the like-for-like comparison of
host code) and in the default mode (NNAPI partitions on the host NNAPI
device, as a user gets it; the dynamic library's partitions are
specialized by the runtime to each length). For each length:
  1. ONNX Runtime writes the reference outputs (ort_run.js --write), and
     every library must match them (nnapi-run --test-data: PASS);
  2. R rounds time ONNX Runtime, the per-length libraries and the dynamic
     ones back to back (ort_run.js / nnapi-run --bench N, T threads;
     medians);
  3. in one process (the Python package of --build), the dynamic default
     library's first call at the length (the runtime specializes and
     compiles its partitions) against the median of the calls after it.
With --buckets 8,16,... the dynamic libraries are compiled with those sizes
as --shape-buckets: a static copy of the model for each, which calls at
that size run. Prints the times and the ratios dynamic / per-length (default mode, and
host-only), dynamic / ONNX Runtime and first call / later calls; fails when
a result differs or when a dynamic / per-length ratio exceeds --max-ratio
(default 3.0, a regression guard; the goal is 1.1).

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


def recognizer(path):
    rng = np.random.default_rng(0)
    nodes, inits = [], []
    channels, name = [1, 16, 32, 64, 64], "x"
    for i in range(4):
        w = (rng.standard_normal((channels[i + 1], channels[i], 3, 3))
             / np.sqrt(9 * channels[i])).astype(np.float32)
        b = (rng.standard_normal((channels[i + 1],)) / 8).astype(np.float32)
        inits += [numpy_helper.from_array(w, f"w{i}"),
                  numpy_helper.from_array(b, f"b{i}")]
        nodes += [
            helper.make_node("Conv", [name, f"w{i}", f"b{i}"], [f"c{i}"],
                             pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
            helper.make_node("Relu", [f"c{i}"], [f"r{i}"]),
            # Height halves every time (32 -> 2), width every other time.
            helper.make_node("MaxPool", [f"r{i}"], [f"p{i}"],
                             kernel_shape=[2, 2 if i % 2 == 0 else 1],
                             strides=[2, 2 if i % 2 == 0 else 1])]
        name = f"p{i}"
    wc = (rng.standard_normal((64, 40)) / 8).astype(np.float32)
    inits.append(numpy_helper.from_array(wc, "wc"))
    nodes += [
        # [1, 64, 2, W/4] -> [1, 2, W/4, 64]: per column, a projection.
        helper.make_node("Transpose", [name], ["t"], perm=[0, 2, 3, 1]),
        helper.make_node("MatMul", ["t", "wc"], ["logits"]),
        helper.make_node("Softmax", ["logits"], ["y"], axis=-1)]
    graph = helper.make_graph(
        nodes, "recognizer",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       [1, 1, 32, "width"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)


def first_call_ms(build, library, shapes, threads, calls=50):
    """{length: (first call ms, median of the next `calls` ms)} of one
    process running `library` at each shape in turn (Python package of
    `build`)."""
    import time
    sys.path.insert(0, os.path.join(os.path.abspath(build), "python"))
    import nnapi_mlir
    nnapi_mlir.configure(threads=threads)
    model = nnapi_mlir.load(library)
    result = {}
    for shape in shapes:
        x = np.random.default_rng(1).uniform(-1, 1, shape).astype(np.float32)
        start = time.perf_counter()
        model.run(x)
        first = (time.perf_counter() - start) * 1e3
        later = []
        for _ in range(calls):
            start = time.perf_counter()
            model.run(x)
            later.append((time.perf_counter() - start) * 1e3)
        length = shape[1] if len(shape) == 3 else shape[3]
        result[length] = (first, statistics.median(later))
    return result


MODELS = {
    # builder, dynamic --input-shape, fixed one for size S, input shape
    "encoder": (encoder_block, "x=1x[1..512]x64", "x=1x{}x64",
                lambda s: (1, s, D)),
    "recognizer": (recognizer, "x=1x1x32x[32..2048]", "x=1x1x32x{}",
                   lambda s: (1, 1, 32, s)),
}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True)
    p.add_argument("--model", choices=sorted(MODELS), default="encoder")
    p.add_argument("--work", default="/tmp/nnapi-dynamic-bench")
    p.add_argument("--lengths", default=None,
                   help="default 8,16,32,64,128 (encoder), "
                        "100,200,400,800 (recognizer)")
    p.add_argument("--runs", type=int, default=200)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--max-ratio", type=float, default=3.0)
    p.add_argument("--buckets", default="",
                   help="sizes given to the dynamic libraries as "
                        "--shape-buckets (static host code and partitions "
                        "for those sizes); marked '*' in the table")
    args = p.parse_args()
    bin_dir = os.path.join(os.path.abspath(args.build), "bin")
    os.makedirs(args.work, exist_ok=True)
    build_model, dynamic_shape, fixed_shape, input_shape = MODELS[args.model]
    lengths = args.lengths or ("8,16,32,64,128" if args.model == "encoder"
                               else "100,200,400,800")
    model = os.path.join(args.work, args.model + ".onnx")
    build_model(model)
    # Placed for the thread count the libraries run at (as ort_compare.py).
    compile_ = [os.path.join(bin_dir, "nnapi-compile"),
                f"--placement-threads={args.threads}"]
    nnapi_run = os.path.join(bin_dir, "nnapi-run")
    buckets = [int(n) for n in args.buckets.split(",") if n]
    dynamic_flags = ["--input-shape=" + dynamic_shape]
    if buckets:
        dynamic_flags.append("--shape-buckets=" + ";".join(
            "x".join(map(str, input_shape(n))) for n in buckets))
    dynamic = os.path.join(args.work, args.model + "-dynamic.so")
    run(compile_ + [model, "-o", dynamic] + dynamic_flags)
    dynamic_host = os.path.join(args.work, args.model + "-dynamic-host.so")
    run(compile_ + [model, "-o", dynamic_host, "--host-only"] + dynamic_flags)
    env = dict(os.environ, NNAPI_MLIR_THREADS=str(args.threads))
    print(f"{'length':>6} {'ORT ms':>8} {'fixed':>8} {'dynamic':>8} "
          f"{'dyn/fixed':>9} {'fixed host':>10} {'dyn host':>9} "
          f"{'dyn/fixed host':>14} {'dyn/ORT':>8} {'1st call':>9} "
          f"{'1st/later':>9}")
    first_calls = first_call_ms(args.build, dynamic, [
        input_shape(n) for n in map(int, lengths.split(","))], args.threads)
    worst = 0.0
    for length in map(int, lengths.split(",")):
        data = os.path.join(args.work, f"{args.model}{length}")
        os.makedirs(data, exist_ok=True)
        x = np.random.default_rng(length).uniform(
            -1, 1, input_shape(length)).astype(np.float32)
        with open(os.path.join(data, "input_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(x, "x").SerializeToString())
        run(["node", ORT_RUN, model, data, "--write"])
        fixed = os.path.join(args.work, f"{args.model}{length}.so")
        run(compile_ + [model, "-o", fixed,
             "--input-shape=" + fixed_shape.format(length)])
        fixed_host = os.path.join(args.work, f"{args.model}{length}-host.so")
        run(compile_ + [model, "-o", fixed_host, "--host-only",
             "--input-shape=" + fixed_shape.format(length)])
        for so in (fixed, fixed_host, dynamic, dynamic_host):
            out = run([nnapi_run, so, "--test-data", data, "--threads",
                       str(args.threads)], env=env)
            if "test-data: PASS" not in out:
                sys.exit(f"dynamic_vs_static: {so} at length {length} does "
                         f"not match ONNX Runtime:\n{out}")
        times = {"ort": [], "fixed": [], "host": [], "dynamic": [],
                 "dynhost": []}
        for _ in range(args.rounds):
            times["ort"].append(median_ms(run(
                ["node", ORT_RUN, model, data, "--threads", str(args.threads),
                 "--bench", str(args.runs)])))
            for key, so in (("fixed", fixed), ("host", fixed_host),
                            ("dynamic", dynamic), ("dynhost", dynamic_host)):
                times[key].append(median_ms(run(
                    [nnapi_run, so, "--test-data", data, "--threads",
                     str(args.threads), "--bench", str(args.runs)], env=env)))
        t = {k: statistics.median(v) for k, v in times.items()}
        ratio, host_ratio = t["dynamic"] / t["fixed"], t["dynhost"] / t["host"]
        worst = max(worst, ratio, host_ratio)
        first, later = first_calls[length]
        mark = "*" if length in buckets else " "
        print(f"{mark}{length:>5} {t['ort']:>8.4f} {t['fixed']:>8.4f} "
              f"{t['dynamic']:>8.4f} {ratio:>9.2f} {t['host']:>10.4f} "
              f"{t['dynhost']:>9.4f} {host_ratio:>14.2f} "
              f"{t['dynamic'] / t['ort']:>8.2f} {first:>9.3f} "
              f"{first / later:>9.1f}")
    if buckets:
        print("* a --shape-buckets size of the dynamic libraries")
    if worst > args.max_ratio:
        sys.exit(f"dynamic_vs_static: the dynamic library is {worst:.2f}x the "
                 f"per-length one at some length (limit {args.max_ratio})")
    print(f"worst dynamic / per-length: {worst:.2f}")


if __name__ == "__main__":
    main()
