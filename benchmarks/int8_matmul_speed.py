#!/usr/bin/python3
"""8-bit matmuls of two computed tensors in the host code: GMAC/s.

    int8_matmul_speed.py --build BUILD [--baseline OTHER_BUILD] [--work DIR]
                         [--runs N] [--rounds R]

Writes TOSA matmuls of two i8 function arguments into i32 (an attention's
Q K^T and its weighted values: no constant operand to pack), with zero
points (3 and -2) and without, compiles each host-only for this machine and
times it (nnapi-run --bench N, 1 thread, the best min_ms of R rounds); with
--baseline, the same with another build's nnapi-compile, alternating, so
that a change is measured in one run. Prints GMAC/s (multiply-adds per
second) per shape, variant and build. Correctness is tested elsewhere
(test/Frontend/ONNX/int8-matmul.test, exact against numpy).
"""
import argparse
import os
import re
import subprocess
import sys

SHAPES = [(12, 128, 64, 128), (12, 128, 128, 64), (1, 128, 256, 128),
          (4, 64, 64, 64)]


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return p.stdout + p.stderr


def write(path, b, m, k, n, zero_points):
    q = (" {quantization_info = #tosa.matmul_quant<a_zp = 3, b_zp = -2>}"
         if zero_points else "")
    a, bt, c = (f"tensor<{b}x{m}x{k}xi8>", f"tensor<{b}x{k}x{n}xi8>",
                f"tensor<{b}x{m}x{n}xi32>")
    with open(path, "w") as f:
        f.write(f"func.func @main(%a: {a}, %b: {bt}) -> {c} {{\n"
                f"  %0 = tosa.matmul %a, %b{q} : ({a}, {bt}) -> {c}\n"
                f"  return %0 : {c}\n}}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--baseline", help="another build directory to compare")
    ap.add_argument("--work", default="/tmp/nnapi-mlir-int8-matmul")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    builds = {"this": args.build}
    if args.baseline:
        builds["baseline"] = args.baseline
    run_tool = os.path.join(args.build, "bin", "nnapi-run")
    print("| shape B x M x K x N | zero points | " +
          " | ".join(f"{b} GMAC/s" for b in builds) + " |")
    print("|---|---|" + "---|" * len(builds))
    for shape in SHAPES:
        macs = shape[0] * shape[1] * shape[2] * shape[3]
        for zp in (True, False):
            name = "x".join(map(str, shape)) + ("_zp" if zp else "")
            src = os.path.join(args.work, name + ".mlir")
            write(src, *shape, zp)
            libs = {}
            for label, build in builds.items():
                libs[label] = os.path.join(args.work, f"{name}.{label}.so")
                run([os.path.join(build, "bin", "nnapi-compile"), src,
                     "--host-only", "-o", libs[label]])
            best = {label: float("inf") for label in builds}
            for _ in range(args.rounds):
                for label, lib in libs.items():
                    out = run([run_tool, lib, "--threads", "1", "--bench",
                               str(args.runs)])
                    ms = float(re.search(r"min_ms=([0-9.]+)", out).group(1))
                    best[label] = min(best[label], ms)
            print("| %s | %s | %s |" % (
                " x ".join(map(str, shape)), "3, -2" if zp else "none",
                " | ".join("%.0f" % (macs / (best[b] * 1e6)) for b in builds)))


if __name__ == "__main__":
    main()
