#!/usr/bin/env python3
"""Fails every NNAPI call a compiled model makes, one at a time, and checks
that each run still returns the right result through host fallback.

A clean run through libnnapi_faulty.so logs the calls that can fail; then
for each call k, nnapi-run runs the model with NNAPI_MLIR_FAULT='*@k' and
must exit 0 with outputs within tolerance of an independent reference, and
must have fallen back to the host copy, unless the failed call is one the
runtime absorbs (no burst, a one-time execution), in which case it must not. The
calls that finish an execution are then also failed after corrupting their
outputs ('*@k=corrupt'), as a driver dying midway would. Prints one line per
failing run and ends with 'N passed, M failed'.

Usage: fault_sweep.py NNAPI_RUN FAULTY_LIB MODEL INPUT.npy EXPECTED.npy
       [--rtol R] [--atol A] [--nnapi-compile PATH [--compile-arg ARG]...]
MODEL is a compiled .so, or a model that --nnapi-compile compiles first.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("nnapi_run")
    parser.add_argument("faulty")
    parser.add_argument("model")
    parser.add_argument("input")
    parser.add_argument("expected")
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--atol", type=float, default=1e-5)
    parser.add_argument("--nnapi-compile")
    parser.add_argument("--compile-arg", action="append", default=[])
    args = parser.parse_args()
    expected = np.load(args.expected)

    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "calls.log")
        if args.nnapi_compile:
            model = os.path.join(tmp, "model.so")
            subprocess.run([args.nnapi_compile, args.model, "-o", model] +
                           args.compile_arg, check=True)
            args.model = model

        def run(fault, logged=False):
            env = dict(os.environ, NNAPI_MLIR_QUIET="1")
            env.pop("NNAPI_MLIR_FAULT_LOG", None)
            env["NNAPI_MLIR_FAULT"] = fault
            if logged:
                env["NNAPI_MLIR_FAULT_LOG"] = log
            out = os.path.join(tmp, "out")
            proc = subprocess.run(
                [args.nnapi_run, args.model, "--nnapi-library", args.faulty,
                 "--input", args.input, "--output-dir", out],
                env=env, capture_output=True, text=True)
            if proc.returncode != 0:
                return "exit %d: %s" % (proc.returncode,
                                        (proc.stderr or proc.stdout)[-400:])
            got = np.load(os.path.join(out, "output0.npy"))
            if got.shape != expected.shape:
                return "shape %s, expected %s" % (got.shape, expected.shape)
            if not np.allclose(got, expected, rtol=args.rtol, atol=args.atol):
                return "max abs error %g" % np.max(np.abs(got - expected))
            fallbacks = [w for w in proc.stdout.split()
                         if w.startswith("host_fallbacks=")]
            return fallbacks[0] if fallbacks else "no summary line"

        clean = run("", logged=True)
        if clean != "host_fallbacks=0":
            print("clean run through the faulty library failed: " + clean)
            print("0 passed, 1 failed")
            return 1
        calls = [line.split()[1] for line in open(log)]
        if not calls:
            print("the model made no NNAPI calls")
            print("0 passed, 1 failed")
            return 1

        # Calls whose failure the runtime absorbs (it computes without a
        # burst, or uses the execution once): the run stays on NNAPI. Every
        # other injected failure must send the run to the host copy, so a
        # fault that was silently not injected fails the sweep.
        tolerated = {"ANeuralNetworksBurst_create",
                     "ANeuralNetworksExecution_setReusable"}
        passed = failed = fellback = 0
        cases = [("*@%d" % k, name) for k, name in enumerate(calls, 1)]
        cases += [("*@%d=corrupt" % k, name) for k, name in enumerate(calls, 1)
                  if name in ("ANeuralNetworksExecution_compute",
                              "ANeuralNetworksExecution_burstCompute",
                              "ANeuralNetworksEvent_wait")]
        for fault, name in cases:
            result = run(fault)
            fell = result.startswith("host_fallbacks=") and \
                result != "host_fallbacks=0"
            if not result.startswith("host_fallbacks="):
                failed += 1
                print("FAIL %s (%s): %s" % (fault, name, result))
            elif fell == (name in tolerated and "=corrupt" not in fault):
                failed += 1
                print("FAIL %s (%s): %s" % (
                    fault, name, "fell back although the runtime absorbs "
                    "this failure" if fell else "did not fall back"))
            else:
                passed += 1
                fellback += fell
        print("%d NNAPI calls failed in turn (%d runs fell back to the host)"
              % (len(cases), fellback))
        print("%d passed, %d failed" % (passed, failed))
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
