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
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "lib"))
import reference_cases  # noqa: E402


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
    meta, model, ref_dir, error = reference_cases.open_case(d, refs,
                                                           "model.tflite")
    if error:
        return error
    with_tflite = meta.get("tflite", True)
    if with_tflite:
        error = reference_cases.refs_error(ref_dir, meta["sha256"],
                                           "TensorFlow Lite", "tflite_refs.sh")
        if error:
            return error
    out, error = reference_cases.compile_and_run(
        d, model, flags, expect_nnapi and meta.get("nnapi"))
    if out is None:
        return error
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


if __name__ == "__main__":
    reference_cases.main(check_case)
