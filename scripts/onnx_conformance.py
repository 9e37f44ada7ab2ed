#!/usr/bin/python3
"""Runs ONNX's own node conformance tests (Debian libonnx-testdata) through
nnapi-mlir and writes docs/onnx-conformance.md.

Every test whose operators the importer claims (nnapi-compile
--list-onnx-ops) runs twice with `nnapi-run model.onnx --test-data DIR`:
compiled with NNAPI partitions (the "eager" test profile, so whatever NNAPI
can run is offloaded) and compiled host-only. A test passes when both runs
match the expected outputs (rtol 1e-3, atol 1e-5, as nnapi-run states).
nnapi-run compiles an input that decides a shape for the test's value
(--specialize-value); the report names those inputs.

Tests listed in test/onnx/expected-failures.txt (name, tab, reason) are
expected to fail; the run fails if any other selected test fails, or if a
listed one passes (so the list stays true). Prints "N passed, N failed".

Usage: onnx_conformance.py BUILD_DIR [--data DIR] [--doc PATH] [--jobs N]
                           [--filter SUBSTRING]
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

import onnx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd, timeout=300):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return -1, "timeout"


def summarize(rc, out):
    """PASS / FAIL / ERROR with the largest error or the first error line."""
    errs = [float(x) for x in re.findall(r"max_abs_err=([0-9.e+\-na]+)", out)
            if x not in ("nan", "-nan")]
    worst = max(errs) if errs else None
    if rc == 0 and "test-data: PASS" in out:
        return "PASS", worst, ""
    if "test-data: FAIL" in out:
        return "FAIL", worst, "outputs differ"
    lines = [l for l in out.splitlines() if "error" in l]
    reason = lines[0] if lines else out.strip().splitlines()[-1:] or ["?"]
    if isinstance(reason, list):
        reason = reason[0] if reason else "?"
    reason = re.sub(r"^.*?error: ", "", reason)
    return "ERROR", worst, reason[:200]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--data", default="/usr/share/libonnx-testdata/data/node")
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "onnx-conformance.md"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--filter", default="")
    args = ap.parse_args()
    bin_dir = os.path.join(os.path.abspath(args.build), "bin")
    rc, out = run([os.path.join(bin_dir, "nnapi-compile"), "--list-onnx-ops"])
    if rc != 0:
        print(out)
        print("0 passed, 1 failed")
        return 1
    supported = set(out.split())
    expected = {}
    with open(os.path.join(ROOT, "test", "onnx", "expected-failures.txt")) as f:
        for line in f:
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                name, _, reason = line.partition("\t")
                expected[name] = reason.strip()

    selected, skipped = [], {}
    for name in sorted(os.listdir(args.data)):
        if args.filter and args.filter not in name:
            continue
        path = os.path.join(args.data, name, "model.onnx")
        if not os.path.exists(path):
            continue
        try:
            model = onnx.load(path)
        except Exception as e:  # a model the onnx package itself cannot read
            skipped[name] = f"unreadable: {e}"
            continue
        ops = sorted({n.op_type for n in model.graph.node})
        missing = [o for o in ops if o not in supported]
        if missing:
            for o in missing:
                skipped.setdefault(o, 0)
                skipped[o] += 1
            continue
        sets = sorted(d for d in os.listdir(os.path.join(args.data, name))
                      if d.startswith("test_data_set"))
        selected.append((name, ops, path, sets))

    eager = os.path.join(ROOT, "test", "Inputs", "eager.json")
    nnapi_run = os.path.join(bin_dir, "nnapi-run")

    executions = {}
    # Inputs nnapi-run had compiled for the test's values because they
    # decide shapes (--specialize-value; nnapi-compile's remark names them).
    specialized = {}

    def one(item):
        name, ops, path, sets = item
        results = {}
        for mode, extra in (("nnapi", ["--compile-arg", "--device-profile=" + eager,
                                       "--expect-nnapi"]),
                            ("host", ["--compile-arg", "--host-only"])):
            status, worst, reason = "PASS", None, ""
            for s in sets:
                rc, out = run([nnapi_run, path, "--test-data",
                               os.path.join(args.data, name, s)] + extra)
                for input_name in re.findall(r"remark: input '([^']*)' is needed at compile time", out):
                    specialized.setdefault(name, set()).add(input_name)
                m = re.search(r"nnapi_executions=(\d+)", out)
                if mode == "nnapi" and m:
                    executions[name] = max(executions.get(name, 0), int(m.group(1)))
                st, w, r = summarize(rc, out)
                if w is not None:
                    worst = w if worst is None else max(worst, w)
                if st != "PASS":
                    status, reason = st, r
                    break
            results[mode] = (status, worst, reason)
        return name, ops, results

    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for r in pool.map(one, selected):
            rows.append(r)

    passed = failed = xfail = xpass = 0
    unexpected = []
    for name, ops, res in rows:
        ok = all(res[m][0] == "PASS" for m in res)
        if ok and name in expected:
            xpass += 1
            unexpected.append(f"{name}: listed as failing but passes")
        elif ok:
            passed += 1
        elif name in expected:
            xfail += 1
        else:
            failed += 1
            unexpected.append(f"{name}: nnapi {res['nnapi'][0]} ({res['nnapi'][2]}), "
                              f"host {res['host'][0]} ({res['host'][2]})")

    def fmt(res):
        st, w, r = res
        return st + ("" if w is None else f" ({w:.2g})")

    with open(args.doc, "w") as f:
        f.write("# ONNX node conformance\n\n")
        f.write("Generated by `/usr/bin/python3 scripts/onnx_conformance.py build` over Debian's\n"
                f"`libonnx-testdata` ({args.data}). Every test whose operators the importer\n"
                "supports runs twice through `nnapi-run model.onnx --test-data DIR`: compiled\n"
                "with NNAPI partitions (test profile `eager`: everything NNAPI can run is\n"
                "offloaded, executed by the host NNAPI implementation) and compiled host-only.\n"
                "Tolerance: |actual - expected| <= 1e-5 + 1e-3 * |expected|. The number in\n"
                "brackets is the largest absolute error.\n\n")
        total = len(rows)
        ran = sum(1 for n, _, r in rows if executions.get(n, 0) > 0)
        f.write(f"**{passed + xfail + failed + xpass} tests selected: {passed} pass in both modes, "
                f"{xfail} are known failures (listed below with the reason), "
                f"{failed} unexpected failures, {xpass} unexpected passes. "
                f"{sum(1 for n in os.listdir(args.data) if os.path.isdir(os.path.join(args.data, n)))} "
                f"node tests in all; the others use operators the importer does not claim. "
                f"In {ran} of the selected tests at least one partition ran on NNAPI.**\n\n")
        n_spec = sum(1 for n, _, r in rows
                     if n in specialized and all(r[m][0] == "PASS" for m in r))
        f.write(f"In {n_spec} of the passing tests a node needs an input's value at compile "
                "time (a Reshape's shape, Slice's starts, TopK's K, Resize's scales, CumSum's "
                "axis, ScatterND's indices, a window's size, an If's condition, a Loop's trip count): `nnapi-run --test-data` gives "
                "nnapi-compile every test input with `--specialize-value`, the importer binds "
                "those it needs (column \"specialized\"), the other inputs stay runtime data, "
                "and the compiled model checks on every run that a specialized input holds the "
                "value it was compiled for. Without them, "
                f"{passed - n_spec} of {passed + xfail + failed + xpass} pass.\n\n")
        f.write("## Known failures\n\n| test | reason |\n|---|---|\n")
        for name, ops, res in rows:
            if name in expected:
                f.write(f"| {name} | {expected[name]} |\n")
        f.write("\n## Results\n\nNNAPI partitions: how many partition executions ran on NNAPI "
                "in the NNAPI run (0: nothing in the model is NNAPI-legal, e.g. integer or float64 ops "
                "or non-constant weights; the host copy ran).\n\n"
                "| test | ops | NNAPI partitions | NNAPI run | host-only run | specialized |\n"
                "|---|---|---|---|---|---|\n")
        for name, ops, res in rows:
            spec = ", ".join(sorted(specialized.get(name, ())))
            f.write(f"| {name} | {', '.join(ops)} | {executions.get(name, 0)} | "
                    f"{fmt(res['nnapi'])} | {fmt(res['host'])} | {spec} |\n")
        f.write("\n## Tests not selected, by unsupported operator\n\n")
        by_op = sorted((k, v) for k, v in skipped.items() if isinstance(v, int))
        f.write(", ".join(f"{k} ({v})" for k, v in by_op) + "\n")

    for line in unexpected:
        print(line)
    print(f"{passed} passed, {failed + xpass} failed "
          f"({xfail} known failures listed in test/onnx/expected-failures.txt)")
    return 1 if failed or xpass else 0


if __name__ == "__main__":
    sys.exit(main())
