#!/usr/bin/python3
"""Streaming models against ONNX Runtime: results over consecutive steps with
the state fed back, and the latency of one step.

    streaming_vs_ort.py --build BUILD [--work DIR] [--steps N] [--runs N]
                        [--rounds R] [--threads T] [--ort-runner PATH]

The models are examples/streaming/make_models.py's: the VAD-like model at
16 and 8 kHz (compiled for its rate: --input-value sr), the keyword spotter
and the bidirectional GRU tagger.
  1. Results: each model runs N steps (default 20) in ONNX Runtime
     (ort_run.js --write, one process per step) and in nnapi-mlir (the
     Python package, the state of each fed back to itself); the script
     prints the largest difference per output over all steps, and fails if
     one is above 1e-5 + 1e-3 * |ONNX Runtime's value|.
  2. Latency of one step (the first step's inputs): R rounds of ONNX
     Runtime (ort_run.js --bench) and each mode (nnapi-run --bench) back to
     back, medians, at T threads (default 1).
Modes: host-only; nnapi (profiles/host-xnnpack.json, as ort_compare.py);
all-nnapi (the eager test profile: every op NNAPI can run, on the host
NNAPI device).

ONNX Runtime is not part of this repository: `bash ../shared/tools/ort/setup.sh`.
"""
import argparse
import os
import shutil
import statistics
import sys

import numpy as np
import onnx
from onnx import numpy_helper

from ort_compare import median_ms, run  # the same runner and parser

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

MODES = {
    "host-only": ["--host-only"],
    "nnapi": ["--device-profile", os.path.join(ROOT, "profiles", "host-xnnpack.json")],
    "all-nnapi": ["--device-profile", os.path.join(ROOT, "test", "Inputs", "eager.json")],
}


def models(work, steps):
    """name -> (onnx path, compile flags, first inputs {name: array}, the
    state map {output: input} and the per-step inputs {name: [arrays]})."""
    vad16 = np.load(os.path.join(work, "vad_stream_16k.npz"))
    kws = np.load(os.path.join(work, "kws_stream.npz"))
    tagger = np.load(os.path.join(work, "tagger_data.npz"))
    zeros = np.zeros((2, 1, 64), np.float32)
    out = {}
    for rate in (16000, 8000):
        out["vad%dk" % (rate // 1000)] = (
            os.path.join(work, "vad.onnx"),
            ["--input-value", "sr=" + os.path.join(work, "sr_%d.pb" % rate)],
            {"audio": vad16["audio"][0], "sr": np.array(rate, np.int64),
             "h": zeros, "c": zeros},
            {"hn": "h", "cn": "c"},
            {"audio": list(vad16["audio"][:steps])})
    out["kws"] = (os.path.join(work, "kws.onnx"), [],
                  {"feats": kws["feats"][0],
                   "scores": np.zeros((1, 12), np.float32)},
                  {"scores_out": "scores"},
                  {"feats": list(kws["feats"][:steps])})
    out["tagger"] = (os.path.join(work, "tagger.onnx"), [],
                     {"x": tagger["x"]}, {}, {})
    return out


def input_names(path):
    g = onnx.load(path).graph
    inits = {i.name for i in g.initializer}
    return [i.name for i in g.input if i.name not in inits], [o.name for o in g.output]


def write_inputs(d, names, values):
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    for i, n in enumerate(names):
        with open(os.path.join(d, "input_%d.pb" % i), "wb") as f:
            f.write(numpy_helper.from_array(np.asarray(values[n]), n).SerializeToString())


def read_outputs(d, names):
    out = {}
    for i, n in enumerate(names):
        t = onnx.TensorProto()
        with open(os.path.join(d, "output_%d.pb" % i), "rb") as f:
            t.ParseFromString(f.read())
        out[n] = numpy_helper.to_array(t)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", default="/tmp/nnapi-mlir-streaming")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--ort-runner", default=os.path.join(ROOT, "..", "shared", "tools",
                                                         "ort", "ort_run.js"))
    args = ap.parse_args()
    if not shutil.which("node") or not os.path.exists(args.ort_runner):
        sys.exit("streaming_vs_ort: needs node and ort_run.js (bash ../shared/tools/ort/setup.sh)")
    sys.path.insert(0, os.path.join(args.build, "python"))
    import nnapi_mlir

    bindir = os.path.join(args.build, "bin")
    env = dict(os.environ, NNAPI_MLIR_QUIET="1", NNAPI_MLIR_THREADS=str(args.threads))
    os.environ.update(env)
    os.makedirs(args.work, exist_ok=True)
    run([sys.executable, os.path.join(ROOT, "examples", "streaming", "make_models.py"),
         args.work, str(args.steps)])

    failed = False
    libs = {}
    print(f"results over {args.steps} steps, state fed back: largest |nnapi-mlir - ORT| "
          "per output (host-only, and all-nnapi)")
    for name, (path, flags, first, state, per_step) in models(args.work, args.steps).items():
        ins, outs = input_names(path)
        for mode, mode_flags in MODES.items():
            so = os.path.join(args.work, f"{name}-{mode}.so")
            run([os.path.join(bindir, "nnapi-compile"), path, "-o", so] + flags + mode_flags)
            libs[name, mode] = so
        steps = args.steps if per_step else 1
        worst = {}
        for mode in ("host-only", "all-nnapi"):
            model = nnapi_mlir.load(libs[name, mode])
            ours, theirs = dict(first), dict(first)
            d = os.path.join(args.work, f"{name}-ort-step")
            for k in range(steps):
                for n, seq in per_step.items():
                    ours[n] = theirs[n] = seq[k]
                got = dict(zip(outs, model.run(**{n: ours[n] for n in ins})))
                write_inputs(d, ins, theirs)
                run(["node", args.ort_runner, path, d, "--write"])
                want = read_outputs(d, outs)
                for n in outs:
                    err = np.abs(got[n].astype(np.float64) - want[n])
                    bound = 1e-5 + 1e-3 * np.abs(want[n].astype(np.float64))
                    failed |= bool((err > bound).any())
                    worst[n] = max(worst.get(n, 0.0), float(err.max()))
                for o, i in state.items():
                    ours[i], theirs[i] = got[o], want[o]
            model.close()
        print(f"  {name:8s} " + "  ".join(f"{n} {e:.2g}" for n, e in worst.items()), flush=True)

    times = {}
    for _ in range(args.rounds):
        for name, (path, flags, first, _, _) in models(args.work, args.steps).items():
            ins, _ = input_names(path)
            d = os.path.join(args.work, f"{name}-bench")
            write_inputs(d, ins, first)
            npys = []
            for n in ins:
                p = os.path.join(args.work, f"{name}-{n}.npy")
                np.save(p, np.asarray(first[n]))
                npys += ["--input", p]
            run(["node", args.ort_runner, path, d, "--write"])
            out = run(["node", args.ort_runner, path, d, "--threads", str(args.threads),
                       "--bench", str(args.runs)])
            times.setdefault((name, "ort"), []).append(median_ms(out))
            for mode in MODES:
                out = run([os.path.join(bindir, "nnapi-run"), libs[name, mode]] + npys +
                          ["--bench", str(args.runs)], env=env)
                times.setdefault((name, mode), []).append(median_ms(out))
    print()
    print(f"one step, median ms over {args.rounds} rounds of {args.runs} runs, "
          f"{args.threads} thread(s); ratio to ONNX Runtime")
    print(f"{'model':8s} {'ORT ms':>8s}" + "".join(f" {m + ' ms':>14s} {'ratio':>6s}" for m in MODES))
    for name in models(args.work, args.steps):
        ort = statistics.median(times[name, "ort"])
        line = f"{name:8s} {ort:8.3f}"
        for m in MODES:
            ms = statistics.median(times[name, m])
            line += f" {ms:14.3f} {ms / ort:6.2f}"
        print(line)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
