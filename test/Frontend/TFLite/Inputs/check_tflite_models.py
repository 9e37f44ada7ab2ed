#!/usr/bin/python3
"""check_tflite_models.py CASES REFS [--expect-nnapi] [nnapi-compile flags...]

For every CASES/<case>/ written by make_tflite_models.py: compiles
model.tflite with nnapi-compile (PATH) and the given flags, runs it with
nnapi-run on input_K.npy and compares every output K twice:

- with numpy_K.npy, the float64 numpy reference of tflite_reference.py;
- with REFS/<case>/output_K.npy, the output of TensorFlow Lite itself
  (written by scripts/tflite_refs.sh; REFS/<case>/model.sha256 names the
  model it ran, so a changed generator cannot be checked against stale
  outputs), unless case.json says "tflite": false (a custom operator
  TensorFlow Lite's interpreter lacks: numpy only).

Float outputs pass when max |got - want| <= tol * max(1, max |want|) (tol
from case.json); quantized cases ("quanta" in case.json) compare integer
outputs in quanta and float outputs of quantized models within
quanta * the output's step (case.json "step", default 1/256).

--expect-nnapi also runs with nnapi-run --expect-nnapi for the cases whose
case.json says "nnapi": every partition execution must run on NNAPI.

Prints '<case>: OK ...' or '<case>: MISMATCH/ERROR ...' per case and
'N passed, N failed'; exits 1 if any failed.
"""
import glob
import hashlib
import json
import os
import subprocess
import sys

import numpy as np


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def compare(got, want, meta):
    """(ok, error, bound) of one output."""
    if got.shape != want.shape:
        return False, f"shape {list(got.shape)} != {list(want.shape)}", 0
    if got.dtype == np.bool_ or want.dtype == np.bool_:
        err = int((got != want).sum())
        return err == 0, err, 0
    g, w = got.astype(np.float64), want.astype(np.float64)
    err = float(np.abs(g - w).max()) if g.size else 0.0
    quanta = meta.get("quanta")
    if quanta is not None and np.issubdtype(got.dtype, np.integer):
        bound = float(quanta)
    elif quanta is not None:
        bound = quanta * meta.get("step", 1.0 / 256)
    elif np.issubdtype(got.dtype, np.integer):
        bound = 0.0
    else:
        bound = meta["tol"] * max(1.0, float(np.abs(w).max()) if w.size else 0)
    return err <= bound, err, bound


def check_case(d, refs, flags, expect_nnapi):
    name = os.path.basename(d)
    with open(os.path.join(d, "case.json")) as f:
        meta = json.load(f)
    model = os.path.join(d, "model.tflite")
    if sha256(model) != meta["sha256"]:
        return f"ERROR model.tflite is not the model case.json describes"
    ref_dir = os.path.join(refs, name)
    with_tflite = meta.get("tflite", True)
    if with_tflite:
        try:
            with open(os.path.join(ref_dir, "model.sha256")) as f:
                ref_hash = f.read().split()[0]
        except OSError:
            return f"ERROR no TensorFlow Lite outputs in {ref_dir}"
        if ref_hash != meta["sha256"]:
            return ("ERROR TensorFlow Lite's outputs are for another model; "
                    "run scripts/tflite_refs.sh")
    so = os.path.join(d, "model.so")
    out = os.path.join(d, "out")
    r = subprocess.run(["nnapi-compile", model, "-o", so] + flags,
                       capture_output=True, text=True)
    if r.returncode:
        return "ERROR nnapi-compile: " + r.stderr.strip()
    cmd = ["nnapi-run", so, "--output-dir", out]
    for i in sorted(glob.glob(os.path.join(d, "input_*.npy")),
                    key=lambda p: int(p.rsplit("_", 1)[1][:-4])):
        cmd += ["--input", i]
    if expect_nnapi and meta.get("nnapi"):
        cmd.append("--expect-nnapi")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        return "ERROR nnapi-run: " + r.stderr.strip()
    worst = []
    k = 0
    while os.path.exists(os.path.join(d, f"numpy_{k}.npy")):
        got = np.load(os.path.join(out, f"output{k}.npy"))
        references = [("numpy", os.path.join(d, f"numpy_{k}.npy"))]
        if with_tflite:
            references.append(("tflite",
                               os.path.join(ref_dir, f"output_{k}.npy")))
        for label, path in references:
            want = np.load(path)
            # The numpy references of float outputs are float64.
            if want.dtype != got.dtype and not (
                    label == "numpy" and want.dtype == np.float64 and
                    got.dtype.kind == "f"):
                return (f"MISMATCH output {k}: {got.dtype}, "
                        f"{label} says {want.dtype}")
            ok, err, bound = compare(got, want, meta)
            if not ok:
                return f"MISMATCH output {k} vs {label}: {err} > {bound:.3g}"
            worst.append((label, err))
        k += 1
    if k == 0:
        return "ERROR no reference outputs"
    if os.path.exists(os.path.join(out, f"output{k}.npy")):
        return f"ERROR more than the {k} outputs the references have"
    errs = {label: max(e for l, e in worst if l == label)
            for label in ("numpy", "tflite") if with_tflite or label == "numpy"}
    return (f"OK {k} outputs, max error vs numpy {errs['numpy']:.3g}, " +
            (f"vs TensorFlow Lite {errs['tflite']:.3g}" if with_tflite else
             "TensorFlow Lite cannot run it"))


def main():
    cases, refs, flags = sys.argv[1], sys.argv[2], sys.argv[3:]
    expect_nnapi = "--expect-nnapi" in flags
    flags = [f for f in flags if f != "--expect-nnapi"]
    passed = failed = 0
    for d in sorted(glob.glob(os.path.join(cases, "*", ""))):
        d = d.rstrip("/")
        result = check_case(d, refs, flags, expect_nnapi)
        print(f"{os.path.basename(d)}: {result}", flush=True)
        if result.startswith("OK"):
            passed += 1
        else:
            failed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()
