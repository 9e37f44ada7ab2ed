#!/usr/bin/python3
"""Rewrites docs/ops.md's generated operator tables: the ONNX operators
(`nnapi-compile --onnx-ops-table`), ONNX opsets 18 to 21
(`--onnx-new-opsets-table`) and the TFLite operators (`--tflite-ops-table`),
each from the importer's registry. test/Frontend/ONNX/ops-table.test and
test/Frontend/TFLite/ops-table.test fail until this is run after a registry
change.

Usage: update_ops_table.py BUILD_DIR
"""
import os
import subprocess
import sys

TABLES = [("## ONNX operators", "--onnx-ops-table"),
          ("## ONNX opsets 18 to 21", "--onnx-new-opsets-table"),
          ("## TFLite operators", "--tflite-ops-table")]

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
path = os.path.join(root, "docs", "ops.md")
lines = open(path).read().split("\n")
for heading, flag in TABLES:
    table = subprocess.run(
        [os.path.join(sys.argv[1], "bin", "nnapi-compile"), flag],
        check=True, capture_output=True, text=True).stdout
    start = lines.index(heading)
    first = next(i for i in range(start, len(lines))
                 if lines[i].startswith("|"))
    last = next((i for i in range(first, len(lines))
                 if not lines[i].startswith("|")), len(lines))
    lines[first:last] = table.rstrip("\n").split("\n")
open(path, "w").write("\n".join(lines))
