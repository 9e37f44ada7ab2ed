#!/usr/bin/python3
"""Dynamically quantized models against ONNX Runtime (CPU), side by side.

    dynquant_vs_ort.py --build BUILD [--work DIR] [--runs N] [--rounds R]
                       [--threads T] [--max-diff D]

Models: make_bench_models.py's mobilenetv2 (224x224) and the e2e tests' BERT
encoder layer (test/e2e/Inputs/make_bert_layer.py), each rewritten with the
recipe of ONNX Runtime's quantize_dynamic (below: per-tensor uint8 weights
with a zero point, every Conv and MatMul by a constant fed by a
DynamicQuantizeLinear of its input, the int32 result cast to float and
scaled, the bias added in float). For each:
  1. ONNX Runtime writes the reference outputs (ort_run.js --write);
  2. modes host-only and default (no profile: the generic accelerator,
     partitions on the host NNAPI device) run the test data; the largest
     difference from ONNX Runtime is printed, and the script fails when it
     exceeds --max-diff (default 1e-4: the integer arithmetic is exact, the
     float scaling rounds once);
  3. R rounds time ONNX Runtime and each mode back to back (ort_run.js
     --bench N, nnapi-run --bench N, T threads; medians), ratio to ONNX
     Runtime printed per mode.

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


def uint8_per_tensor(w):
    """ONNX Runtime's asymmetric uint8 weight quantization: the range
    widened to hold 0, scale = range / 255, zero point rounded."""
    lo, hi = min(0.0, float(w.min())), max(0.0, float(w.max()))
    scale = np.float32((hi - lo) / 255.0 if hi > lo else 1.0)
    zp = np.uint8(np.clip(np.round(-lo / scale), 0, 255))
    q = np.clip(np.round(w / scale) + float(zp), 0, 255).astype(np.uint8)
    return q, scale, zp


def quantize_dynamic(m):
    """Rewrites every Conv and every MatMul whose second input is a constant
    as ONNX Runtime's dynamic quantization does; other nodes stay float."""
    g = m.graph
    inits = {t.name: t for t in g.initializer}
    nodes, quantized = [], {}
    count = [0]

    def fresh(base):
        count[0] += 1
        return "%s_dq%d" % (base, count[0])

    def dynamic(x):
        if x not in quantized:
            names = (fresh(x + "_q"), fresh(x + "_s"), fresh(x + "_z"))
            nodes.append(helper.make_node("DynamicQuantizeLinear", [x],
                                          list(names)))
            quantized[x] = names
        return quantized[x]

    for n in g.node:
        is_conv = n.op_type == "Conv" and n.input[1] in inits
        is_matmul = (n.op_type == "MatMul" and n.input[1] in inits and
                     len(inits[n.input[1]].dims) == 2)
        if not (is_conv or is_matmul):
            nodes.append(n)
            continue
        w = numpy_helper.to_array(inits[n.input[1]])
        wq, ws, wz = uint8_per_tensor(w)
        wname = fresh(n.input[1])
        g.initializer.extend([
            numpy_helper.from_array(wq, wname + "_q"),
            numpy_helper.from_array(np.array(ws, np.float32), wname + "_s"),
            numpy_helper.from_array(np.array(wz, np.uint8), wname + "_z")])
        xq, xs, xz = dynamic(n.input[0])
        acc, accf, scale, scaled = (fresh(n.output[0]) for _ in range(4))
        op = "ConvInteger" if is_conv else "MatMulInteger"
        attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
        nodes.append(helper.make_node(op, [xq, wname + "_q", xz, wname + "_z"],
                                      [acc], **(attrs if is_conv else {})))
        nodes.append(helper.make_node("Cast", [acc], [accf],
                                      to=TensorProto.FLOAT))
        nodes.append(helper.make_node("Mul", [xs, wname + "_s"], [scale]))
        has_bias = is_conv and len(n.input) > 2 and n.input[2]
        out = scaled if has_bias else n.output[0]
        nodes.append(helper.make_node("Mul", [accf, scale], [out]))
        if has_bias:
            b = numpy_helper.to_array(inits[n.input[2]])
            bname = fresh(n.input[2])
            g.initializer.append(numpy_helper.from_array(
                b.reshape(1, -1, 1, 1), bname))
            nodes.append(helper.make_node("Add", [scaled, bname], [n.output[0]]))
    del g.node[:]
    g.node.extend(nodes)
    used = {i for n in g.node for i in n.input}
    keep = [t for t in g.initializer if t.name in used]
    del g.initializer[:]
    g.initializer.extend(keep)
    onnx.checker.check_model(m)
    return m


def outputs(d):
    """The .pb outputs of test directory d, in order."""
    result = []
    for f in sorted(x for x in os.listdir(d) if x.startswith("output_")):
        t = onnx.TensorProto()
        with open(os.path.join(d, f), "rb") as fh:
            t.ParseFromString(fh.read())
        result.append(numpy_helper.to_array(t).astype(np.float64))
    return result


def max_diff(out_dir, data):
    ref = outputs(data)
    worst = 0.0
    for i, r in enumerate(ref):
        ours = np.load(os.path.join(out_dir, "output%d.npy" % i)).astype(np.float64)
        worst = max(worst, float(np.abs(ours.ravel() - r.ravel()).max()))
    return worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", default="/tmp/nnapi-mlir-dynquant")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--max-diff", type=float, default=1e-4)
    args = ap.parse_args()
    bindir = os.path.join(args.build, "bin")
    env = dict(os.environ, NNAPI_MLIR_QUIET="1",
               NNAPI_MLIR_THREADS=str(args.threads))
    os.makedirs(args.work, exist_ok=True)
    run([sys.executable, os.path.join(HERE, "make_bench_models.py"),
         "--out-dir", args.work])
    run([sys.executable, os.path.join(ROOT, "test", "e2e", "Inputs",
                                      "make_bert_layer.py"),
         os.path.join(args.work, "bert")])
    modes = {"host-only": ["--host-only"], "default": []}
    print("| model | ORT ms | mode | max abs diff | ratio to ORT |")
    print("|---|---|---|---|---|")
    failed = []
    for name in ["mobilenetv2", "bert"]:
        src = os.path.join(args.work, name)
        d = os.path.join(args.work, name + "_dynquant")
        data = os.path.join(d, "test_data_set_0")
        os.makedirs(data, exist_ok=True)
        m = quantize_dynamic(onnx.load(os.path.join(src, "model.onnx")))
        model = os.path.join(d, "model.onnx")
        onnx.save(m, model)
        for f in os.listdir(os.path.join(src, "test_data_set_0")):
            if f.startswith("input_"):
                with open(os.path.join(src, "test_data_set_0", f), "rb") as i, \
                        open(os.path.join(data, f), "wb") as o:
                    o.write(i.read())
        run(["node", ORT_RUN, model, data, "--write"])
        libs, diffs = {}, {}
        for mode, flags in modes.items():
            lib = os.path.join(d, mode + ".so")
            run([os.path.join(bindir, "nnapi-compile"), model, "-o", lib] + flags)
            out = os.path.join(d, "out-" + mode)
            run([os.path.join(bindir, "nnapi-run"), lib, "--test-data", data,
                 "--output-dir", out, "--rtol", "1", "--atol", "1e9"], env=env)
            libs[mode], diffs[mode] = lib, max_diff(out, data)
            if diffs[mode] > args.max_diff:
                failed.append("%s %s: %.3g" % (name, mode, diffs[mode]))
        ort_ms, ms = [], {m: [] for m in modes}
        for _ in range(args.rounds):
            ort_ms.append(median_ms(run(["node", ORT_RUN, model, data, "--threads",
                                         str(args.threads), "--bench",
                                         str(args.runs)])))
            for mode, lib in libs.items():
                ms[mode].append(median_ms(run(
                    [os.path.join(bindir, "nnapi-run"), lib, "--threads",
                     str(args.threads), "--bench", str(args.runs)], env=env)))
        base = statistics.median(ort_ms)
        for mode in modes:
            print("| %s | %.3f | %s | %.2g | %.2f |" % (
                name + "_dynquant", base, mode, diffs[mode],
                statistics.median(ms[mode]) / base), flush=True)
    if failed:
        sys.exit("differs from ONNX Runtime beyond --max-diff: " + ", ".join(failed))
    print("all outputs within %g of ONNX Runtime" % args.max_diff)


if __name__ == "__main__":
    main()
