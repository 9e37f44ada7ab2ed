#!/usr/bin/python3
"""Copies an ONNX model with its default-domain opset set to VERSION (and IR
version 7), so that a fuzzer's input of an opset newer than Debian's libonnx
knows still reaches the importer check it was kept for.

Usage: with_opset.py IN.onnx OUT.onnx VERSION
"""
import sys

import onnx

m = onnx.load(sys.argv[1])
for o in m.opset_import:
    if o.domain in ("", "ai.onnx"):
        o.version = int(sys.argv[3])
m.ir_version = 7
onnx.save(m, sys.argv[2])
