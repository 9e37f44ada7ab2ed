#!/usr/bin/python3
"""Compiles every model of rank_models.py (one node of every operator schema
version libonnx knows, with rank-0, rank-1 and mixed-rank inputs) with the
compiler in this process (nnapi_mlir.compile, the library nnapi-compile
calls): nothing may crash it, and every refusal must name the node.

    PYTHONPATH=build/python check_rank_screen.py [--emit so|mlir] [--every N]

Prints the model before each compile (so that a crash shows which), then
"N models: A compiled, B refused naming the node, C refused without", and
exits 1 if C > 0. --emit (default mlir: import, preparation and
partitioning, where the models' odd ranks are handled) and --every N (only
every Nth model) trade coverage for time.
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nnapi_mlir  # noqa: E402
import rank_models  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--emit", default="mlir", choices=["mlir", "so"])
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    compiled = named = unnamed = 0
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out." + args.emit)
        for i, (name, model) in enumerate(rank_models.models()):
            if i % args.every:
                continue
            node = model.graph.node[0].name
            if args.verbose:
                print("compiling", name, flush=True)
            try:
                nnapi_mlir.compile(model.SerializeToString(), out,
                                   emit=args.emit)
                compiled += 1
            except nnapi_mlir.CompileError as e:
                if node in str(e):
                    named += 1
                else:
                    unnamed += 1
                    print("%s: refused without naming %s: %s"
                          % (name, node, str(e).strip()[:400]), flush=True)
    total = compiled + named + unnamed
    print("%d models: %d compiled, %d refused naming the node, %d refused "
          "without" % (total, compiled, named, unnamed))
    return 1 if unnamed else 0


if __name__ == "__main__":
    sys.exit(main())
