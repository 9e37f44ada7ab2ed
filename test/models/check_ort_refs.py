#!/usr/bin/python3
"""check_ort_refs.py CASES REFS [--expect-nnapi] [nnapi-compile flags...]

For every CASES/<case>/ written by make_qdq_models.py: compiles model.onnx
with nnapi-compile (PATH) and the given flags, runs it with nnapi-run on
input_K.npy and compares every output K with REFS/<case>/output_K.pb, the
output of ONNX Runtime itself (written by scripts/ort_refs.sh;
REFS/<case>/model.sha256 names the model it ran, so a changed generator
cannot be checked against stale outputs).

Differences are counted in quanta: the output's step from case.json (its
quantization scale, 1 for integers, or for float logits the step
make_qdq_models.py derives). An output passes when its largest difference
is at most case.json's "quanta" and its root mean square difference at
most "rms": a requantization may land one quantum apart on a near-tie, but
only on a few elements; a wrong zero point or a dropped bias moves many.

--expect-nnapi also runs with nnapi-run --expect-nnapi for the cases whose
case.json says "nnapi", and requires that a partition ran there.

Prints '<case>: OK ...' or '<case>: MISMATCH/ERROR ...' per case, with
the largest and the root mean square difference in quanta, and
'N passed, N failed'; exits 1 if any failed.
"""
import glob
import hashlib
import json
import os
import re
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def read_pb(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def check_case(d, refs, flags, expect_nnapi):
    name = os.path.basename(d)
    with open(os.path.join(d, "case.json")) as f:
        meta = json.load(f)
    model = os.path.join(d, "model.onnx")
    if sha256(model) != meta["sha256"]:
        return "ERROR model.onnx is not the model case.json describes"
    ref_dir = os.path.join(refs, name)
    try:
        with open(os.path.join(ref_dir, "model.sha256")) as f:
            ref_hash = f.read().split()[0]
    except OSError:
        return f"ERROR no ONNX Runtime outputs in {ref_dir}"
    if ref_hash != meta["sha256"]:
        return ("ERROR ONNX Runtime's outputs are for another model; "
                "run scripts/ort_refs.sh")
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
    on_nnapi = expect_nnapi and meta["nnapi"]
    if on_nnapi:
        cmd.append("--expect-nnapi")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        return "ERROR nnapi-run: " + r.stderr.strip()
    ran = re.search(r"nnapi_executions=(\d+)", r.stdout)
    if on_nnapi and not (ran and int(ran.group(1)) > 0):
        return "ERROR no partition ran on NNAPI"
    steps = meta["steps"]
    worst_max = worst_rms = worst_abs = 0.0
    for k, step in enumerate(steps):
        got = np.load(os.path.join(out, f"output{k}.npy"))
        want = read_pb(os.path.join(ref_dir, f"output_{k}.pb"))
        if got.dtype != want.dtype or got.shape != want.shape:
            return (f"MISMATCH output {k}: {got.dtype} {list(got.shape)}, "
                    f"ONNX Runtime's is {want.dtype} {list(want.shape)}")
        diff = got.astype(np.float64) - want.astype(np.float64)
        if not np.isfinite(diff).all():
            return f"MISMATCH output {k}: not finite where ONNX Runtime's is"
        quanta = np.abs(diff) / step
        big, rms = float(quanta.max()), float(np.sqrt((quanta ** 2).mean()))
        # A dequantized float32 value is (q - z) x scale rounded: one
        # quantum apart is 1 within float32's precision, not exactly 1.
        if big > meta["quanta"] + 1e-3 or rms > meta["rms"]:
            return (f"MISMATCH output {k}: max {big:.3g} quanta "
                    f"(allowed {meta['quanta']}), rms {rms:.3g} quanta "
                    f"(allowed {meta['rms']}), one quantum {step:.4g}")
        worst_max, worst_rms = max(worst_max, big), max(worst_rms, rms)
        worst_abs = max(worst_abs, float(np.abs(diff).max()))
    if os.path.exists(os.path.join(out, f"output{len(steps)}.npy")):
        return f"ERROR more than the {len(steps)} outputs the references have"
    return (f"OK {len(steps)} outputs, vs ONNX Runtime max {worst_max:.3g} "
            f"quanta ({worst_abs:.3g}), rms {worst_rms:.3g} quanta" +
            (f", nnapi_executions={ran.group(1)}" if on_nnapi else ""))


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
