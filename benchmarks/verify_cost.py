#!/usr/bin/python3
"""What checking partitions against their host copies costs (the runtime's
verify option, docs/validation.md), and how long --validate takes.

    verify_cost.py --build BUILD [--work DIR] [--runs N] [--rounds R]

Each benchmark model (make_bench_models.py: mobilenetv2, resnet18) and the
example CNN is compiled with every op on NNAPI (test/Inputs/eager.json) and
timed with nnapi-run --bench on the host NNAPI device at one thread: verify
off, every 100th, every 10th and every execution checked, and host-only
(the host copy alone). A checked execution runs the partition on the device,
then the host copy, then compares: at verify=1 it should cost about the
device's time plus the host copy's. Medians of rounds; prints a Markdown
table, and fails when

  - verify=100 is more than 10% slower than verify off (a check in a
    hundred executions must be noise), or
  - verify=1 takes more than 1.25 x (off + host-only): the comparison
    itself must stay small next to running both sides.

--validate's time (one device, the inputs and two random sets, the model
loaded and compiled for the device) is given as context.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

from ort_compare import HERE, ROOT, median_ms, run


def main():
    os.environ["NNAPI_MLIR_THREADS"] = "1"
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True)
    p.add_argument("--work", default="/tmp/nnapi-verify-cost")
    p.add_argument("--runs", type=int, default=100)
    p.add_argument("--rounds", type=int, default=3)
    a = p.parse_args()
    bin_dir = os.path.join(os.path.abspath(a.build), "bin")
    compile_, nnapi_run = (os.path.join(bin_dir, t)
                           for t in ("nnapi-compile", "nnapi-run"))
    os.makedirs(a.work, exist_ok=True)
    run([sys.executable, os.path.join(HERE, "make_bench_models.py"),
         "--out-dir", a.work])
    eager = os.path.join(ROOT, "test", "Inputs", "eager.json")
    models = {"cnn": os.path.join(ROOT, "examples", "onnx", "cnn.onnx")}
    for name in ("mobilenetv2", "resnet18"):
        models[name] = os.path.join(a.work, name, "model.onnx")
    modes = [("off", ["--verify", "0"]), ("100", ["--verify", "100"]),
             ("10", ["--verify", "10"]), ("1", ["--verify", "1"]),
             ("host", ["--host-only"])]
    rows, failures = [], []
    for name, onnx_path in models.items():
        so = os.path.join(a.work, name + ".so")
        run([compile_, onnx_path, "-o", so, "--device-profile=" + eager])
        times = {m: [] for m, _ in modes}
        for _ in range(a.rounds):
            for mode, flags in modes:
                out = run([nnapi_run, so, "--bench", str(a.runs)] + flags)
                times[mode].append(median_ms(out))
        ms = {m: statistics.median(v) for m, v in times.items()}
        start = time.monotonic()
        r = subprocess.run([nnapi_run, so, "--validate"],
                           capture_output=True, text=True)
        validate_s = time.monotonic() - start
        if r.returncode:
            failures.append(f"{name}: --validate failed:\n{r.stdout}{r.stderr}")
        rows.append((name, ms, validate_s))
        if ms["100"] > 1.10 * ms["off"]:
            failures.append(f"{name}: verify=100 {ms['100']:.3f} ms against "
                            f"{ms['off']:.3f} ms off")
        if ms["1"] > 1.25 * (ms["off"] + ms["host"]):
            failures.append(f"{name}: verify=1 {ms['1']:.3f} ms against "
                            f"{ms['off']:.3f} + {ms['host']:.3f} ms")
    print("| model | verify off (ms) | verify=100 | verify=10 | verify=1 "
          "| host copy alone (ms) | --validate (s) |")
    print("|---|---|---|---|---|---|---|")
    for name, ms, validate_s in rows:
        def cell(m):
            return f"{ms[m]:.3f} ({ms[m] / ms['off']:.2f}x)"
        print(f"| {name} | {ms['off']:.3f} | {cell('100')} | {cell('10')} | "
              f"{cell('1')} | {ms['host']:.3f} | {validate_s:.2f} |")
    if failures:
        sys.exit("verify_cost: " + "\n".join(failures))
    print(f"verify_cost: {len(rows)} passed, 0 failed")


if __name__ == "__main__":
    main()
