#!/usr/bin/python3
"""check_models.py DIR [nnapi-compile flags...]

For every DIR/<name>.mlir or DIR/<name>.onnx written by one of the make_*.py
scripts (make_awkward_ops.py, make_float64.py, ...): compiles it with
nnapi-compile (PATH) and the given flags, runs it with nnapi-run on
DIR/<name>_input<k>.npy, and compares the output with DIR/<name>_expected.npy
(numpy.allclose, rtol 1e-4, atol 1e-5, or the "rtol" and "atol" of
DIR/<name>_tolerance.json). Unless the flags say --host-only, also runs
`nnapi-run --validate=1` on it: every partition on every device must agree
with its host copy (docs/validation.md). Prints '<name>: OK ...' or
'<name>: MISMATCH ...' per model; exits 1 if any failed.

--all-on-nnapi (not passed on): also checks that nnapi-compile leaves no TOSA
op in @main, i.e. that NNAPI runs every op; prints '<name>: HOST OPS ...'
otherwise.
"""
import json
import glob
import os
import subprocess
import sys

import numpy as np


def run_model(d, name, flags, src=None):
    """Compiles `src` (default DIR/<name>.mlir; or DIR/<name>.onnx) with
    `flags`, runs it on its inputs and returns output 0."""
    src = src or os.path.join(d, name + ".mlir")
    so = os.path.join(d, name + ".so")
    out = os.path.join(d, "out_" + name)
    subprocess.run(["nnapi-compile", src, "-o", so] + flags, check=True)
    inputs = sorted(glob.glob(os.path.join(d, f"{name}_input*.npy")))
    cmd = ["nnapi-run", so, "--output-dir", out]
    for i in inputs:
        cmd += ["--input", i]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return np.load(os.path.join(out, "output0.npy"))


def validate(d, name):
    """nnapi-run --validate=1 on DIR/<name>.so: None if every partition
    agrees with its host copy on every device, else nnapi-run's report."""
    cmd = ["nnapi-run", os.path.join(d, name + ".so"), "--validate=1"]
    for i in sorted(glob.glob(os.path.join(d, f"{name}_input*.npy"))):
        cmd += ["--input", i]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode == 0:
        return None
    if result.returncode != 1:
        raise RuntimeError(f"{name}: nnapi-run --validate failed: "
                           f"{result.stderr.strip()}")
    return " | ".join(line for line in result.stdout.splitlines()
                      if "FAIL" in line or "wrong operation" in line)


def host_ops(src, flags):
    """The TOSA ops nnapi-compile leaves in @main."""
    mlir = subprocess.run(["nnapi-compile", src, "--emit=mlir", "-o", "-"] +
                          flags, check=True, capture_output=True,
                          text=True).stdout
    main = mlir[mlir.index("func.func @main"):]
    main = main[:main.index("\n  }")]
    return [line.split("=", 1)[-1].split()[0] for line in main.splitlines()
            if "tosa." in line and '"tosa.const"' not in line]


def main():
    d, flags = sys.argv[1], sys.argv[2:]
    all_on_nnapi = "--all-on-nnapi" in flags
    flags = [f for f in flags if f != "--all-on-nnapi"]
    failed = 0
    models = glob.glob(os.path.join(d, "*.mlir")) + \
        glob.glob(os.path.join(d, "*.onnx"))
    for src in sorted(models):
        name = os.path.splitext(os.path.basename(src))[0]
        if all_on_nnapi:
            left = host_ops(src, flags)
            if left:
                print(f"{name}: HOST OPS {' '.join(left)}")
                failed += 1
        tolerance = {"rtol": 1e-4, "atol": 1e-5}
        tolerance_file = os.path.join(d, name + "_tolerance.json")
        if os.path.exists(tolerance_file):
            with open(tolerance_file) as f:
                tolerance = json.load(f)
        got = run_model(d, name, flags, src).astype(np.float64)
        want = np.load(os.path.join(d, name + "_expected.npy")).astype(np.float64)
        ok = got.shape == want.shape and np.allclose(
            got, want, rtol=tolerance["rtol"], atol=tolerance["atol"])
        err = np.abs(got - want).max() if got.shape == want.shape else float("inf")
        print(f"{name}: {'OK' if ok else 'MISMATCH'} max_abs_err={err:.3g}")
        failed += not ok
        if "--host-only" not in flags:
            wrong = validate(d, name)
            if wrong:
                print(f"{name}: MISMATCH with the host copy: {wrong}")
                failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
