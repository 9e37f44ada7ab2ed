#!/usr/bin/python3
"""check_models.py DIR [nnapi-compile flags...]

For every DIR/<name>.mlir written by make_awkward_ops.py: compiles it with
nnapi-compile (PATH) and the given flags, runs it with nnapi-run on
DIR/<name>_input<k>.npy, and compares the output with DIR/<name>_expected.npy
(numpy.allclose, rtol 1e-4, atol 1e-5). Prints '<name>: OK ...' or
'<name>: MISMATCH ...' per model; exits 1 if any failed.
"""
import glob
import os
import subprocess
import sys

import numpy as np


def run_model(d, name, flags):
    """Compiles DIR/<name>.mlir with `flags`, runs it on its inputs and
    returns output 0."""
    src = os.path.join(d, name + ".mlir")
    so = os.path.join(d, name + ".so")
    out = os.path.join(d, "out_" + name)
    subprocess.run(["nnapi-compile", src, "-o", so] + flags, check=True)
    inputs = sorted(glob.glob(os.path.join(d, f"{name}_input*.npy")))
    cmd = ["nnapi-run", so, "--output-dir", out]
    for i in inputs:
        cmd += ["--input", i]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return np.load(os.path.join(out, "output0.npy"))


def main():
    d, flags = sys.argv[1], sys.argv[2:]
    failed = 0
    for src in sorted(glob.glob(os.path.join(d, "*.mlir"))):
        name = os.path.basename(src)[:-5]
        got = run_model(d, name, flags).astype(np.float64)
        want = np.load(os.path.join(d, name + "_expected.npy")).astype(np.float64)
        ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-4, atol=1e-5)
        err = np.abs(got - want).max() if got.shape == want.shape else float("inf")
        print(f"{name}: {'OK' if ok else 'MISMATCH'} max_abs_err={err:.3g}")
        failed += not ok
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
