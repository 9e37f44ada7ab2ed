#!/usr/bin/python3
"""Fits a device profile's cost tables to measured operation times.

    fit_profile.py OPS.json [OPS.json...] --out profiles/host-xnnpack.json
                   [--name NAME] [--description TEXT]

OPS.json files come from op_speed.py: one record per (operation, side) with
the median time and the work the partitioner charges for (MACs, elements).
For each side (nnapi -> device_cost, host -> host_cost) and each NNAPI
operation with measurements, the model

    time_us = fixed_us + (MACs * ns_per_mac + elements * ns_per_element) / 1000

is fitted by least squares on relative error with non-negative coefficients
(every subset of the three coefficients is tried; the best feasible one
wins). Operations without measurements use `default`: the fit over the
element-wise operations (ADD, LOGISTIC), with the per-MAC cost of
FULLY_CONNECTED so that MAC-heavy operations without a table of their own
(e.g. a host matmul) are not priced as free. float16 costs are the float32
ones (the host device computes float16 in float32); the profile lists no
int8 support, and int8 costs are copies of float32 so that the file is
complete. Prints each fit with its worst relative error.
"""
import argparse
import itertools
import json

import numpy as np

ELEMENTWISE = {"ADD", "LOGISTIC"}


def fit(records):
    """(fixed_us, ns_per_mac, ns_per_element), worst relative error."""
    a = np.array([[1.0, r["macs"] / 1000.0, r["elements"] / 1000.0] for r in records])
    t = np.array([r["ms"] * 1000.0 for r in records])
    w = a / t[:, None]
    best = None
    for keep in itertools.product([False, True], repeat=3):
        cols = [i for i in range(3) if keep[i]]
        if not cols:
            continue
        x, *_ = np.linalg.lstsq(w[:, cols], np.ones(len(t)), rcond=None)
        if np.any(x < 0):
            continue
        coef = np.zeros(3)
        coef[cols] = x
        err = np.max(np.abs(a @ coef - t) / t)
        if best is None or err < best[1]:
            best = (coef, err)
    return best


def table(coef):
    fixed, mac, elem = (float(f"{v:.4g}") for v in coef)
    return {"fixed_us": fixed, "ns_per_mac": mac, "ns_per_element": elem}


def side_costs(records, label):
    by_op = {}
    for r in records:
        if r["nnapi"]:
            by_op.setdefault(r["nnapi"], []).append(r)
    costs = {}
    for op, rs in sorted(by_op.items()):
        coef, err = fit(rs)
        costs[op] = coef
        print(f"{label:6s} {op:20s} {len(rs)} points: fixed {coef[0]:.3g} us, "
              f"{coef[1]:.4g} ns/MAC, {coef[2]:.4g} ns/element; worst error {err:.0%}")
    elementwise = [r for op in ELEMENTWISE for r in by_op.get(op, [])]
    default, err = fit(elementwise)
    if "FULLY_CONNECTED" in costs:
        default[1] = costs["FULLY_CONNECTED"][1]
    print(f"{label:6s} {'default':20s} fixed {default[0]:.3g} us, {default[1]:.4g} ns/MAC, "
          f"{default[2]:.4g} ns/element")
    out = {"default": {ty: table(default) for ty in ("float32", "float16", "int8")}}
    for op, coef in costs.items():
        if op not in ELEMENTWISE:
            out[op] = {ty: table(coef) for ty in ("float32", "float16")}
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ops", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--name", default="host-xnnpack")
    ap.add_argument("--description", default=(
        "The host NNAPI device (libnnapi_host.so: XNNPACK operators, reference "
        "kernels where XNNPACK has none) and the LLVM-compiled host code on the "
        "machine that ran benchmarks/op_speed.py; costs fitted by "
        "benchmarks/fit_profile.py (docs/device-profiles.md)."))
    args = ap.parse_args()
    records = []
    for path in args.ops:
        with open(path) as f:
            records += json.load(f)
    profile = {
        "format": "nnapi-mlir-device-profile-1",
        "name": args.name,
        "description": args.description,
        "feature_level": 7,
        "device_type": "cpu",
        "operations": {"*": ["float32", "float16"]},
        "device_cost": side_costs([r for r in records if r["side"] == "nnapi"], "nnapi"),
        "host_cost": side_costs([r for r in records if r["side"] == "host"], "host"),
        # The runtime binds the caller's buffers: nothing is copied.
        "transfer": {"fixed_us": 0.05, "ns_per_byte": 0},
        "partition_overhead_us": 0.2,
    }
    with open(args.out, "w") as f:
        json.dump(profile, f, indent=2)
        f.write("\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
