#!/usr/bin/python3
"""Conditionals and loops of run-time length against ONNX Runtime.

    control_flow_vs_ort.py --build BUILD [--work DIR] [--runs N]
                           [--rounds R] [--threads T] [--ort-runner PATH]

Models are the ONNX tests' (test/Frontend/ONNX/Inputs/make_loop_models.py and
make_if_models.py, python3-onnx): `loop_long` (a Loop of 100,000 iterations,
too long to unroll: tosa.while_loop), `loop_while` (a while loop on [1]
tensors whose first condition is an input: its second test set runs one
iteration) and `if_large` (an If on data with branches of ten matmul+tanh
layers: tosa.cond_if, the then branch taken). Each is checked against its
numpy outputs (nnapi-run --test-data, every mode), then timed: R rounds of
ONNX Runtime (ort_run.js --bench) and each mode (nnapi-run --bench) back to
back, medians in microseconds, at T threads (default 1). Modes: host-only; nnapi (no profile:
the generic profile decides); all-nnapi (the eager test profile: NNAPI's IF
and WHILE on the host NNAPI device).

ONNX Runtime is not part of this repository: `bash ../shared/tools/ort/setup.sh`.
"""
import argparse
import os
import statistics
import sys

from ort_compare import median_ms, run  # the same runner and parser

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
INPUTS = os.path.join(ROOT, "test", "Frontend", "ONNX", "Inputs")

MODES = {
    "host-only": ["--host-only"],
    "nnapi": [],
    "all-nnapi": ["--device-profile", os.path.join(ROOT, "test", "Inputs", "eager.json")],
}
# model -> test set timed
MODELS = {"loop_long": "test_data_set_0", "loop_while": "test_data_set_1",
          "if_large": "test_data_set_0"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", default="/tmp/nnapi-control-flow-bench")
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--ort-runner", default=os.path.join(
        ROOT, "..", "shared", "tools", "ort", "ort_run.js"))
    a = ap.parse_args()
    bin_dir = os.path.join(os.path.abspath(a.build), "bin")
    os.makedirs(a.work, exist_ok=True)
    for script in ("make_loop_models.py", "make_if_models.py"):
        run([sys.executable, os.path.join(INPUTS, script), a.work])
    threads = str(a.threads)
    print(f"{'model':<12} {'ORT us':>9}" +
          "".join(f" {m:>18}" for m in MODES))
    for name, case in MODELS.items():
        model = os.path.join(a.work, name + ".onnx")
        data = os.path.join(a.work, name, case)
        libs = {}
        for mode, flags in MODES.items():
            lib = os.path.join(a.work, f"{name}-{mode}.so")
            run([os.path.join(bin_dir, "nnapi-compile"), model, "-o", lib] + flags)
            out = run([os.path.join(bin_dir, "nnapi-run"), lib, "--test-data", data])
            if "test-data: PASS" not in out:
                sys.exit(f"{name} ({mode}) does not match numpy:\n{out}")
            libs[mode] = lib
        ort, ours = [], {m: [] for m in MODES}
        for _ in range(a.rounds):
            ort.append(median_ms(run(["node", a.ort_runner, model, data,
                                      "--threads", threads, "--bench",
                                      str(a.runs)])))
            for mode, lib in libs.items():
                ours[mode].append(median_ms(run(
                    [os.path.join(bin_dir, "nnapi-run"), lib, "--test-data",
                     data, "--threads", threads, "--bench", str(a.runs)])))
        base = statistics.median(ort)
        cells = ""
        for mode in MODES:
            t = statistics.median(ours[mode])
            cells += f" {t * 1e3:>10.1f} ({t / base:5.2f})"
        print(f"{name:<12} {base * 1e3:>9.1f}{cells}")


if __name__ == "__main__":
    main()
