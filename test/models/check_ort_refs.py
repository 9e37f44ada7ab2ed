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
import os
import re
import sys

import numpy as np
import onnx
from onnx import numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
import reference_cases  # noqa: E402


def read_pb(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def check_case(d, refs, flags, expect_nnapi):
    meta, model, ref_dir, error = reference_cases.open_case(d, refs,
                                                           "model.onnx")
    if error:
        return error
    error = reference_cases.refs_error(ref_dir, meta["sha256"], "ONNX Runtime",
                                       "ort_refs.sh")
    if error:
        return error
    on_nnapi = expect_nnapi and meta["nnapi"]
    out, stdout = reference_cases.compile_and_run(d, model, flags, on_nnapi)
    if out is None:
        return stdout
    ran = re.search(r"nnapi_executions=(\d+)", stdout)
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


if __name__ == "__main__":
    reference_cases.main(check_case)
