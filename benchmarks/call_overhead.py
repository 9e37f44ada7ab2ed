#!/usr/bin/python3
"""Per-call overhead of one NNAPI partition, with and without bursts, next to
ONNX Runtime (CPU, 1 thread) on the same model in the same run.

    call_overhead.py --build BUILD [--work DIR] [--runs N] [--rounds R]
                     [--ort-runner PATH/ort_run.js]

The model is as small as a partition gets (relu(x + b) on 2x3 floats), so
its latency is nearly all per-call cost: the compiled model's entry point,
the runtime (partition lookup, execution reuse, burst), and the host NNAPI
device's compute call. Each round times, back to back: ONNX Runtime, the
partition on the host NNAPI device with bursts (the default on feature
level 3+ devices), without (--no-bursts), on a feature level 2 device (no
burst), and host-only (the compiled host copy, no NNAPI). Medians of rounds; prints a Markdown table with the
ratio to ONNX Runtime.

ONNX Runtime is not part of this repository: install it with
`bash ../shared/tools/ort/setup.sh` (npm, outside the repository).
"""
import argparse
import os
import statistics

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from ort_compare import HERE, ROOT, median_ms, run


def write_model(work):
    b = np.array([1.0, -2.0, 0.5], dtype=np.float32)
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "b"], ["s"]),
         helper.make_node("Relu", ["s"], ["y"])], "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        [numpy_helper.from_array(b, "b")])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    path = os.path.join(work, "tiny.onnx")
    onnx.save(model, path)
    data = os.path.join(work, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    x = np.linspace(-3, 3, 6, dtype=np.float32).reshape(2, 3)
    with open(os.path.join(data, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "x").SerializeToString())
    with open(os.path.join(data, "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(np.maximum(x + b, 0),
                                        "y").SerializeToString())
    return path, data


def main():
    # One thread: the figures are one core's, like ONNX Runtime's at 1 thread.
    os.environ["NNAPI_MLIR_THREADS"] = "1"
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True)
    p.add_argument("--work", default="/tmp/nnapi-call-overhead")
    p.add_argument("--runs", type=int, default=20000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--ort-runner",
                   default=os.path.join(ROOT, "..", "shared", "tools", "ort",
                                        "ort_run.js"))
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    bin_dir = os.path.join(args.build, "bin")
    model, data = write_model(args.work)
    so = os.path.join(args.work, "tiny.so")
    run([os.path.join(bin_dir, "nnapi-compile"), model, "-o", so,
         "--device-profile=" + os.path.join(ROOT, "test", "Inputs",
                                            "eager.json")])
    nnapi_run = os.path.join(bin_dir, "nnapi-run")
    devices = os.path.join(ROOT, "test", "Inputs", "devices")
    modes = {
        "burst (level 5 device)": ["--host-devices",
                            os.path.join(devices, "gpu-sim.json")],
        "--no-bursts (level 5 device)": ["--host-devices",
                               os.path.join(devices, "gpu-sim.json"),
                               "--no-bursts"],
        "level 2 device (no burst)": ["--host-devices",
                                      os.path.join(devices, "old-npu.json")],
        "host-only": ["--host-only"],
    }
    # Every mode must give the right answer before it is timed.
    for flags in modes.values():
        run([nnapi_run, so, "--test-data", data] + flags)
    run(["node", args.ort_runner, model, data])
    times = {name: [] for name in ["ORT"] + list(modes)}
    for _ in range(args.rounds):
        times["ORT"].append(median_ms(run(
            ["node", args.ort_runner, model, data, "--threads", "1",
             "--bench", str(args.runs)])))
        for name, flags in modes.items():
            out = run([nnapi_run, so, "--test-data", data, "--bench",
                       str(args.runs)] + flags)
            times[name].append(median_ms(out))
    ort = statistics.median(times["ORT"])
    print("| mode | median us per call | ratio to ONNX Runtime |")
    print("|---|---|---|")
    print(f"| ONNX Runtime 1.30, 1 thread | {ort * 1000:.2f} | 1.00 |")
    for name in modes:
        t = statistics.median(times[name])
        print(f"| {name} | {t * 1000:.2f} | {t / ort:.2f} |")


if __name__ == "__main__":
    main()
