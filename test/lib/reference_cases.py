"""What the checkers of committed reference outputs share.

A case is a directory CASES/<case>/ that a generator wrote: the model, its
inputs input_K.npy and case.json (the model's "sha256", whether it should
run on NNAPI, the tolerances); REFS/<case>/ holds another runtime's outputs
(TensorFlow Lite's, ONNX Runtime's) and model.sha256, the model they belong
to. check_tflite_models.py and check_ort_refs.py compare differently; the
rest is here: reading a case and its checks, compiling and running with
the tools on PATH, and the loop over the cases that ends with 'N passed, N
failed'.
"""
import glob
import hashlib
import json
import os
import subprocess
import sys


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def open_case(d, refs, model_file):
    """(case.json's contents, d/model_file, refs/<case>, None), or an error
    in the last place when the model is not the one case.json describes."""
    with open(os.path.join(d, "case.json")) as f:
        meta = json.load(f)
    model = os.path.join(d, model_file)
    error = None
    if sha256(model) != meta["sha256"]:
        error = f"ERROR {model_file} is not the model case.json describes"
    return meta, model, os.path.join(refs, os.path.basename(d)), error


def refs_error(ref_dir, model_hash, runtime, script):
    """None when ref_dir holds `runtime`'s outputs of the model of hash
    `model_hash`, else the error to report."""
    try:
        with open(os.path.join(ref_dir, "model.sha256")) as f:
            ref_hash = f.read().split()[0]
    except OSError:
        return f"ERROR no {runtime} outputs in {ref_dir}"
    if ref_hash != model_hash:
        return (f"ERROR {runtime}'s outputs are for another model; "
                f"run scripts/{script}")
    return None


def compile_and_run(d, model, flags, expect_nnapi):
    """Compiles `model` with nnapi-compile and `flags`, runs it with
    nnapi-run on d/input_K.npy (with --expect-nnapi when asked) into
    d/out. Returns (out directory, nnapi-run's stdout), or (None, error)."""
    so = os.path.join(d, "model.so")
    out = os.path.join(d, "out")
    r = subprocess.run(["nnapi-compile", model, "-o", so] + flags,
                       capture_output=True, text=True)
    if r.returncode:
        return None, "ERROR nnapi-compile: " + r.stderr.strip()
    cmd = ["nnapi-run", so, "--output-dir", out]
    for i in sorted(glob.glob(os.path.join(d, "input_*.npy")),
                    key=lambda p: int(p.rsplit("_", 1)[1][:-4])):
        cmd += ["--input", i]
    if expect_nnapi:
        cmd.append("--expect-nnapi")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        return None, "ERROR nnapi-run: " + r.stderr.strip()
    return out, r.stdout


def main(check_case):
    """CASES REFS [--expect-nnapi] [nnapi-compile flags...]: check_case(d,
    refs, flags, expect_nnapi) for every case directory, 'OK ...' or an
    error per case; exits 1 if any failed or none passed."""
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
