#!/usr/bin/env python3
"""Writes a TOSA model of about N ops for timing nnapi-partition.

The graph is CNN-shaped: residual blocks of conv2d/clamp/sigmoid/add on a
1x16x16x16 tensor, with an op NNAPI cannot run (tosa.erf) every 7th op, so the
partitioner sees many clusters and real placement decisions. All convolutions
share one weight constant to keep the file small.

Usage: make_large_model.py N OUT.mlir
"""
import sys


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    t = "tensor<1x16x16x16xf32>"
    lines = [
        f"func.func @main(%x: {t}) -> {t} {{",
        '  %w = "tosa.const"() {value = dense<0.01> : tensor<16x3x3x16xf32>} : () -> tensor<16x3x3x16xf32>',
        '  %b = "tosa.const"() {value = dense<0.0> : tensor<16xf32>} : () -> tensor<16xf32>',
    ]
    cur, skip, count = "%x", "%x", 0
    while count < n:
        name = f"%v{count}"
        kind = count % 7
        if kind == 6:
            lines.append(f"  {name} = tosa.erf {cur} : ({t}) -> {t}")
        elif kind in (0, 3):
            lines.append(
                f"  {name} = tosa.conv2d {cur}, %w, %b {{dilation = array<i64: 1, 1>, "
                f"pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}} : "
                f"({t}, tensor<16x3x3x16xf32>, tensor<16xf32>) -> {t}")
        elif kind in (1, 4):
            lines.append(
                f"  {name} = tosa.clamp {cur} {{min_fp = 0.0 : f32, max_fp = 6.0 : f32, "
                f"min_int = 0 : i64, max_int = 6 : i64}} : ({t}) -> {t}")
        elif kind == 2:
            lines.append(f"  {name} = tosa.sigmoid {cur} : ({t}) -> {t}")
        else:  # kind == 5: close the residual block
            lines.append(f"  {name} = tosa.add {cur}, {skip} : ({t}, {t}) -> {t}")
            skip = name
        cur = name
        count += 1
    lines.append(f"  return {cur} : {t}")
    lines.append("}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
