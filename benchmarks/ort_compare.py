#!/usr/bin/python3
"""End-to-end latency against ONNX Runtime (CPU, 1 thread), side by side.

    ort_compare.py --build BUILD [--work DIR] [--runs N] [--rounds R]
                   [--profile PROFILE.json] [--modes nnapi,host-only]
                   [--ort-runner PATH/ort_run.js] [--models a,b]
                   [--measure-models]

For each model (the example CNN, MobileNetV2- and ResNet-18-like stages at
224x224 and a DB-style text detector at 320x320 written by
make_bench_models.py; with --models also the e2e
tests' U-Net, MobileNetV3, BERT layer and layout models):
  1. ONNX Runtime writes the reference outputs (ort_run.js --write) and
     nnapi-run --test-data checks every mode against them;
  2. each mode is compiled (default: no profile; all-nnapi: every op NNAPI
     can run on the host NNAPI device; nnapi: partitions under PROFILE, default
     profiles/host-xnnpack.json, or with --measure-models one that
     nnapi-profile-device measures first on this machine, the models' own
     ops included; host-only: the LLVM-compiled code only);
  3. R rounds, each timing ONNX Runtime and every mode back to back
     (nnapi-run --bench N, ort_run.js --bench N, both at --threads T, default
     1; medians), so
     that machine noise hits all of them alike; the per-model figure is the
     median over rounds.
Prints the ratio to ONNX Runtime per model and mode and the geometric mean,
and the peak resident memory of nnapi-run per model (VmHWM), next to the
model's weights and its largest set of simultaneously live activations.

ONNX Runtime is not part of this repository: install it with
`bash ../shared/tools/ort/setup.sh` (npm, outside the repository).
"""
import argparse
import math
import os
import re
import shutil
import statistics
import subprocess
import sys

import numpy as np
import onnx
from onnx import shape_inference

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode:
        sys.exit(f"ort_compare: {' '.join(cmd)} failed:\n{r.stdout}{r.stderr}")
    return r.stdout


def median_ms(text):
    return float(text.split("median_ms=")[1].split()[0])


def peak_rss_mb(out):
    """nnapi-run's own peak resident set (VmHWM), from its bench line."""
    return float(out.split("peak_rss_mb=")[1].split()[0])


def memory_needs_mb(path):
    """Weights, and the largest set of activations alive at once when the
    nodes run in file order (a tensor lives from its producer to its last
    consumer), in MiB."""
    m = shape_inference.infer_shapes(onnx.load(path))
    g = m.graph
    weights = sum(np.prod(t.dims) * 4 for t in g.initializer)
    sizes = {}
    for vi in list(g.input) + list(g.value_info) + list(g.output):
        dims = [d.dim_value for d in vi.type.tensor_type.shape.dim]
        sizes[vi.name] = int(np.prod(dims)) * 4 if dims else 4
    inits = {t.name for t in g.initializer}
    last_use = {}
    for i, n in enumerate(g.node):
        for x in n.input:
            last_use[x] = i
    for o in g.output:
        last_use[o.name] = len(g.node)
    live = {x.name for x in g.input if x.name not in inits}
    peak = 0
    for i, n in enumerate(g.node):
        live |= {o for o in n.output}
        peak = max(peak, sum(sizes.get(x, 0) for x in live))
        live = {x for x in live if last_use.get(x, -1) > i}
    return weights / 2**20, peak / 2**20


# The e2e tests' models (test/e2e/Inputs), each written to WORK/<name>.
E2E_MODELS = {
    "unet": "make_unet.py",            # skips, ConvTranspose, Resize
    "mobilenetv3": "make_mobilenet_v3.py",  # HardSwish, squeeze-excite
    "bert": "make_bert_layer.py",      # one encoder layer
    "layout": "make_layout.py",        # residual of the input, patch embedding
}

# Modes: nnapi (partitions under --profile), and these.
MODE_FLAGS = {
    "host-only": ["--host-only"],
    "default": [],  # no profile: the generic accelerator at the feature level
    "all-nnapi": ["--device-profile", os.path.join(ROOT, "test", "Inputs", "eager.json")],
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", default="/tmp/nnapi-mlir-bench")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--profile", default=os.path.join(ROOT, "profiles", "host-xnnpack.json"))
    ap.add_argument("--modes", default="nnapi,host-only",
                    help="of nnapi (--profile), " + ", ".join(MODE_FLAGS))
    ap.add_argument("--models", default="cnn,mobilenetv2,resnet18",
                    help="of cnn, mobilenetv2, resnet18, detection and " +
                    ", ".join(E2E_MODELS))
    ap.add_argument("--ort-runner", default=os.path.join(ROOT, "..", "shared", "tools",
                                                         "ort", "ort_run.js"))
    ap.add_argument("--measure-models", action="store_true",
                    help="measure this machine's profile with nnapi-profile-device, the models' "
                         "own ops included (--model), and place with it (about 8 minutes)")
    ap.add_argument("--threads", type=int, default=1,
                    help="threads of ONNX Runtime (intra-op) and of our runtime's pool")
    ap.add_argument("--compile-arg", action="append", default=[],
                    help="extra nnapi-compile flag for every mode")
    args = ap.parse_args()
    if not shutil.which("node") or not os.path.exists(args.ort_runner):
        sys.exit("ort_compare: needs node and ort_run.js (bash ../shared/tools/ort/setup.sh)")
    bindir = os.path.join(args.build, "bin")
    modes = args.modes.split(",")
    # Both sides at the same thread count (the runtime's threads option).
    env = dict(os.environ, NNAPI_MLIR_QUIET="1", NNAPI_MLIR_THREADS=str(args.threads))

    os.makedirs(args.work, exist_ok=True)
    run([sys.executable, os.path.join(HERE, "make_bench_models.py"), "--out-dir", args.work])
    for name in args.models.split(","):
        if name in E2E_MODELS:
            run([sys.executable, os.path.join(ROOT, "test", "e2e", "Inputs", E2E_MODELS[name]),
                 os.path.join(args.work, name)])
    cnn = os.path.join(args.work, "cnn")
    os.makedirs(os.path.join(cnn, "test_data_set_0"), exist_ok=True)
    shutil.copy(os.path.join(ROOT, "examples", "onnx", "cnn.onnx"), os.path.join(cnn, "model.onnx"))
    shutil.copy(os.path.join(ROOT, "examples", "onnx", "test_data_set_0", "input_0.pb"),
                os.path.join(cnn, "test_data_set_0", "input_0.pb"))

    models = args.models.split(",")
    if args.measure_models:
        args.profile = os.path.join(args.work, "measured-profile.json")
        tool = [os.path.join(bindir, "nnapi-profile-device"), "-o", args.profile,
                "--samples", os.path.join(args.work, "measured-samples.json"),
                "--name", "this-machine"]
        for name in models:
            tool += ["--model", os.path.join(args.work, name, "model.onnx")]
        run(tool)
        print(f"measured {args.profile}", flush=True)
    libs, estimates = {}, {}
    for name in models:
        d = os.path.join(args.work, name)
        onnx_path, data = os.path.join(d, "model.onnx"), os.path.join(d, "test_data_set_0")
        run(["node", args.ort_runner, onnx_path, data, "--write"])
        for mode in modes:
            so = os.path.join(d, f"{mode}.so")
            flags = MODE_FLAGS.get(mode, ["--device-profile", args.profile])
            # Placed for the thread count it runs at (the profile's
            # thread_scaling).
            summary = run([os.path.join(bindir, "nnapi-compile"), onnx_path, "-o", so,
                           "--partition-summary",
                           "--placement-threads", str(args.threads)]
                          + flags + args.compile_arg)
            # "estimated latency @main: X us as placed, Y us all on host (profile P)"
            est = re.search(r"estimated latency @\S+: ([0-9.]+) us as placed, "
                            r"([0-9.]+) us all on host \(profile (\S+)\)", summary)
            if est:
                estimates[name, mode] = (float(est.group(1)), float(est.group(2)),
                                         est.group(3))
            check = run([os.path.join(bindir, "nnapi-run"), so, "--test-data", data], env=env)
            print(f"{name:12s} {mode:10s} {check.strip().splitlines()[-1]}", flush=True)
            libs[name, mode] = so

    times = {}
    for r in range(args.rounds):
        for name in models:
            d = os.path.join(args.work, name)
            out = run(["node", args.ort_runner, os.path.join(d, "model.onnx"),
                       os.path.join(d, "test_data_set_0"), "--threads", str(args.threads),
                       "--bench", str(args.runs)])
            times.setdefault((name, "ort"), []).append(median_ms(out))
            for mode in modes:
                out = run([os.path.join(bindir, "nnapi-run"), libs[name, mode],
                           "--bench", str(args.runs)], env=env)
                times.setdefault((name, mode), []).append(median_ms(out))

    print()
    header = f"{'model':12s} {'ORT ms':>9s}" + "".join(f" {m + ' ms':>13s} {'ratio':>6s}" for m in modes)
    print(header)
    logs = {m: [] for m in modes}
    for name in models:
        ort = statistics.median(times[name, "ort"])
        line = f"{name:12s} {ort:9.3f}"
        for m in modes:
            ms = statistics.median(times[name, m])
            logs[m].append(math.log(ms / ort))
            line += f" {ms:13.3f} {ms / ort:6.2f}"
        print(line)
    print(f"{'geomean':12s} {'':9s}" + "".join(
        f" {'':13s} {math.exp(sum(v) / len(v)):6.2f}" for v in logs.values()))

    # The partitioner's estimates against the measurements: the placement's
    # (against that mode), and all-on-host's (against host-only).
    if estimates:
        print()
        print("estimated / measured latency, us (error): the placement, and all on host "
              "against host-only")
        for name in models:
            line = f"{name:12s}"
            for m in modes:
                if (name, m) not in estimates:
                    continue
                placed, host, profile = estimates[name, m]
                ms = statistics.median(times[name, m]) * 1000
                line += f"  {m} ({profile}): {placed:.1f} / {ms:.1f} ({placed / ms - 1:+.0%})"
                if "host-only" in modes:
                    hs = statistics.median(times[name, "host-only"]) * 1000
                    line += f", host {host:.1f} / {hs:.1f} ({host / hs - 1:+.0%})"
            print(line)

    print()
    print("peak resident memory of nnapi-run (MiB, VmHWM); the one-op CNN shows the fixed part")
    for name in models:
        weights, acts = memory_needs_mb(os.path.join(args.work, name, "model.onnx"))
        line = f"{name:12s} weights {weights:6.2f} + largest live activations {acts:6.2f}"
        for m in modes:
            out = run([os.path.join(bindir, "nnapi-run"), libs[name, m], "--bench", "3"], env=env)
            line += f"  {m}: {peak_rss_mb(out):6.1f}"
        print(line)


if __name__ == "__main__":
    main()
