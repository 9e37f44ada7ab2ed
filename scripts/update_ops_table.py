#!/usr/bin/python3
"""Rewrites docs/ops.md's ONNX operator table with `nnapi-compile
--onnx-ops-table` (the importer's registry); test/Frontend/ONNX/ops-table.test
fails until this is run after a registry change.

Usage: update_ops_table.py BUILD_DIR
"""
import os
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
table = subprocess.run(
    [os.path.join(sys.argv[1], "bin", "nnapi-compile"), "--onnx-ops-table"],
    check=True, capture_output=True, text=True).stdout
path = os.path.join(root, "docs", "ops.md")
lines = open(path).read().split("\n")
start = lines.index("## ONNX operators")
first = next(i for i in range(start, len(lines)) if lines[i].startswith("|"))
last = next(i for i in range(first, len(lines)) if not lines[i].startswith("|"))
lines[first:last] = table.rstrip("\n").split("\n")
open(path, "w").write("\n".join(lines))
