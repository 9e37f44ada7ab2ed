#!/usr/bin/python3
"""The same network from .tflite and from .onnx, and ONNX Runtime on the
.onnx, side by side at 1 and 2 threads.

    tflite_vs_onnx.py --build BUILD [--work DIR] [--size 224] [--width 32]
                      [--runs N] [--rounds R] [--threads 1,2]

The network is test/Frontend/TFLite/Inputs/networks.py's MobileNet-like
classifier, written by the same generator as TFLite (NHWC, OHWI filters) and
as ONNX (NCHW, OIHW filters, as an NCHW framework exports it). For each
thread count:
  1. ONNX Runtime writes its output (ort_run.js --write); ours from both
     files (host-only, and nnapi: `--device-profile test/Inputs/eager.json`,
     every operator on NNAPI, here the host NNAPI device) must match it
     within 1e-4 (relative to the largest score);
  2. R rounds time ONNX Runtime, then each of ours, back to back (medians of
     N runs), and print each one's ratio to ONNX Runtime and the ratio of
     ours from .tflite to ours from .onnx.
The script fails (exit 1) when a result differs, or when ours from .tflite
is slower than ours from .onnx by more than --tax-limit (default 1.10: the
TFLite path must add no layout tax; runs on this 2-core machine vary by a
few percent).

ONNX Runtime: `bash ../shared/tools/ort/setup.sh` (npm, outside the repo).
"""
import argparse
import os
import re
import statistics
import sys

import numpy as np
import onnx
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ORT_RUN = os.path.join(ROOT, "..", "shared", "tools", "ort", "ort_run.js")
sys.path.insert(0, os.path.join(ROOT, "test", "Frontend", "TFLite", "Inputs"))
sys.path.insert(0, HERE)
from ort_compare import median_ms, run  # noqa: E402  (the same runner and parser)




def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", default="/tmp/tflite-vs-onnx")
    ap.add_argument("--size", type=int, default=224)
    ap.add_argument("--width", type=int, default=32)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--tax-limit", type=float, default=1.10)
    args = ap.parse_args()
    bindir = os.path.join(os.path.abspath(args.build), "bin")
    os.environ["NNAPI_TFLITE_SCHEMA_PY"] = os.path.join(
        os.path.abspath(args.build), "tflite-schema-python")
    import networks  # needs the schema's Python (the build makes it)

    os.makedirs(args.work, exist_ok=True)
    net = networks.classifier(size=args.size, width=args.width, classes=1000,
                              seed=11)
    tfl = os.path.join(args.work, "net.tflite")
    onx = os.path.join(args.work, "net.onnx")
    with open(tfl, "wb") as f:
        f.write(net.tflite("float32"))
    onnx.save(net.onnx(), onx)
    x_nhwc = net.inputs[0].array
    np.save(os.path.join(args.work, "x_nhwc.npy"), x_nhwc)
    np.save(os.path.join(args.work, "x_nchw.npy"), net.onnx_inputs()[0])
    data = os.path.join(args.work, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    with open(os.path.join(data, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(net.onnx_inputs()[0],
                                        "image").SerializeToString())
    run(["node", ORT_RUN, onx, data, "--write"])
    want = numpy_helper.to_array(onnx.load_tensor(
        os.path.join(data, "output_0.pb"))).astype(np.float64)
    ref = net.reference("float32")[0]
    print("ONNX Runtime vs numpy (float64): max abs diff %.3g"
          % np.abs(want - ref).max())

    modes = {"host-only": ["--host-only"],
             "nnapi": ["--device-profile",
                       os.path.join(ROOT, "test", "Inputs", "eager.json")]}
    libs = {}
    failed = False
    for mode, flags in modes.items():
        for fmt, src, x in (("tflite", tfl, "x_nhwc.npy"),
                            ("onnx", onx, "x_nchw.npy")):
            lib = os.path.join(args.work, "%s-%s.so" % (fmt, mode))
            run([os.path.join(bindir, "nnapi-compile"), src, "-o", lib] +
                flags)
            out = os.path.join(args.work, "out-%s-%s" % (fmt, mode))
            run([os.path.join(bindir, "nnapi-run"), lib, "--input",
                 os.path.join(args.work, x), "--output-dir", out])
            got = np.load(os.path.join(out, "output0.npy")).astype(np.float64)
            err = np.abs(got - want).max() / np.abs(want).max()
            ok = err <= 1e-4
            failed |= not ok
            print("%s from .%s: relative difference from ONNX Runtime %.3g %s"
                  % (mode, fmt, err, "OK" if ok else "MISMATCH"))
            libs[(fmt, mode)] = (lib, os.path.join(args.work, x))

    lscpu = run(["lscpu"])
    cpu = re.search(r"Model name:\s*(.*)", lscpu).group(1).strip()
    print("\nCPU: %s; %dx%d input, width %d; median of %d rounds x %d runs"
          % (cpu, args.size, args.size, args.width, args.rounds, args.runs))
    print("| threads | ORT ms | mode | from .onnx | from .tflite | "
          ".tflite / .onnx |")
    print("|---|---|---|---|---|---|")
    env = dict(os.environ, NNAPI_MLIR_QUIET="1")
    for threads in [int(t) for t in args.threads.split(",")]:
        ort, ours = [], {k: [] for k in libs}
        for _ in range(args.rounds):
            ort.append(median_ms(run(["node", ORT_RUN, onx, data, "--threads",
                                      str(threads), "--bench",
                                      str(args.runs)])))
            for k, (lib, x) in libs.items():
                ours[k].append(median_ms(run(
                    [os.path.join(bindir, "nnapi-run"), lib, "--input", x,
                     "--threads", str(threads), "--bench", str(args.runs)],
                    env=env)))
        base = statistics.median(ort)
        for mode in modes:
            o = statistics.median(ours[("onnx", mode)])
            t = statistics.median(ours[("tflite", mode)])
            tax = t / o
            ok = tax <= args.tax_limit
            failed |= not ok
            print("| %d | %.2f | %s | %.2f ms (%.2fx) | %.2f ms (%.2fx) | "
                  "%.2f %s |" % (threads, base, mode, o, o / base, t,
                                 t / base, tax, "" if ok else "TAX"))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
