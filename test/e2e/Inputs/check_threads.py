#!/usr/bin/python3
"""check_threads.py PROFILE DIR...

For every DIR holding model.onnx and test_data_set_0/input_<i>.pb (the
e2e generators' layout): compiles the model host-only and with NNAPI
partitions (the device profile PROFILE, run by the host NNAPI device), runs
each with nnapi-run (PATH) at --threads 1, 2 and 3, and compares the output
files byte for byte with the 1-thread run's. Prints, per model and mode,
'<model> <mode>: IDENTICAL at 1, 2, 3 threads; loops on several threads:
A/N, B/N, C/N' (the runtime's parallel loops that ran chunks on more than
one thread, of all, at each count) or '<model> <mode>: DIFFERENT at N
threads (<file>)'; exits 1 if any differ.
"""
import filecmp
import glob
import os
import re
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def main():
    profile, dirs = sys.argv[1], sys.argv[2:]
    failed = 0
    for d in dirs:
        name = os.path.basename(os.path.normpath(d))
        inputs = []
        for pb in sorted(glob.glob(os.path.join(d, "test_data_set_0", "input_*.pb"))):
            npy = pb[:-3] + ".npy"
            np.save(npy, numpy_helper.to_array(onnx.load_tensor(pb)))
            inputs += ["--input", npy]
        for mode, flags, run_flags in [
                ("host-only", ["--host-only"], []),
                ("nnapi", ["--device-profile", profile], ["--expect-nnapi"])]:
            so = os.path.join(d, f"threads-{mode}.so")
            subprocess.run(["nnapi-compile", os.path.join(d, "model.onnx"), "-o", so]
                           + flags, check=True)
            outs, split = {}, {}
            for n in (1, 2, 3):
                out = os.path.join(d, f"threads-{mode}-{n}")
                # A machine busy with other tests can leave a worker asleep
                # for a whole run: up to 3 runs to see the pool split work.
                for _ in range(3 if n > 1 else 1):
                    text = subprocess.run(
                        ["nnapi-run", so, "--threads", str(n),
                         "--threads-force", "--output-dir", out]
                        + inputs + run_flags, check=True, capture_output=True,
                        text=True).stdout
                    # The runtime's count of parallel loops whose chunks ran
                    # on more than one thread, of all its parallel loops.
                    m = re.search(r"parallel_loops=(\d+) on_several_threads=(\d+)",
                                  text)
                    split[n] = f"{m.group(2)}/{m.group(1)}" if m else "?"
                    if m and (m.group(2) != "0" or m.group(1) == "0"):
                        break
                outs[n] = out
            files = sorted(os.listdir(outs[1]))
            different = [(n, f) for n in (2, 3) for f in files
                         if not filecmp.cmp(os.path.join(outs[1], f),
                                            os.path.join(outs[n], f), shallow=False)]
            if not files or different:
                n, f = different[0] if different else (1, "no outputs")
                print(f"{name} {mode}: DIFFERENT at {n} threads ({f})")
                failed += 1
            else:
                print(f"{name} {mode}: IDENTICAL at 1, 2, 3 threads; loops on "
                      f"several threads: {split[1]}, {split[2]}, {split[3]}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
