#!/usr/bin/python3
"""Times single operations compiled by nnapi-compile, on the host (the
LLVM-compiled code, --host-only) and on NNAPI (the host NNAPI device, forced
with a placement override), through nnapi-run --bench.

Each operation is a one-op TOSA model with random (non-uniform) constant
weights written as hex dense attributes, so that neither MLIR nor LLVM can
fold them. The work the partitioner's cost model charges for (MACs and the
elements of all operands and results) comes from the compiler's own
placement report and is what fit_profile.py fits; the GFLOP/s printed are
counted here, from the operation's shapes, the way the host device's Google
Benchmark counts them: 2 per multiply-accumulate (convolutions, fully
connected, matmul), 1 per window tap for pools, 1 per output element for
element-wise ops (an add of two tensors is one FLOP per output, not three).

    op_speed.py --build BUILD [--side host|nnapi|both] [--only NAME,...]
                [--json OUT.json] [--seconds S]

Prints one line per (op, side): median time and GFLOP/s, and writes all
records to --json for fit_profile.py. docs/benchmarks.md has the results and
commands, with the CPU they ran on (lscpu's model name, printed first).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

RNG = np.random.default_rng(11)


def hexdense(shape, scale=0.1):
    data = (RNG.standard_normal(shape) * scale).astype("<f4")
    dims = "x".join(str(d) for d in shape)
    return f'dense<"0x{data.tobytes().hex().upper()}"> : tensor<{dims}xf32>'


def t(shape):
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


def const(name, shape):
    return f'  %{name} = "tosa.const"() {{value = {hexdense(shape)}}} : () -> {t(shape)}\n'


def model(inputs, body, result, flops):
    """The TOSA text of a one-op model, and the FLOPs of one run."""
    args = ", ".join(f"%a{i}: {t(s)}" for i, s in enumerate(inputs))
    return (f"func.func @main({args}) -> {t(result)} {{\n{body}"
            f"  return %r : {t(result)}\n}}\n"), flops


def out_size(size, k, stride, pad):
    return (size + 2 * pad - k) // stride + 1


def conv(h, w, c, oc, k, stride=1, pad=None):
    pad = k // 2 if pad is None else pad
    oh, ow = out_size(h, k, stride, pad), out_size(w, k, stride, pad)
    body = const("w", [oc, k, k, c]) + const("b", [oc])
    body += (f"  %r = tosa.conv2d %a0, %w, %b {{dilation = array<i64: 1, 1>, "
             f"pad = array<i64: {pad}, {pad}, {pad}, {pad}>, stride = array<i64: {stride}, {stride}>}}"
             f" : ({t([1, h, w, c])}, {t([oc, k, k, c])}, {t([oc])}) -> {t([1, oh, ow, oc])}\n")
    return model([[1, h, w, c]], body, [1, oh, ow, oc], 2 * oh * ow * oc * k * k * c)


def depthwise(h, w, c, k, stride=1):
    pad = k // 2
    oh, ow = out_size(h, k, stride, pad), out_size(w, k, stride, pad)
    body = const("w", [k, k, c, 1]) + const("b", [c])
    body += (f"  %r = tosa.depthwise_conv2d %a0, %w, %b {{dilation = array<i64: 1, 1>, "
             f"pad = array<i64: {pad}, {pad}, {pad}, {pad}>, stride = array<i64: {stride}, {stride}>}}"
             f" : ({t([1, h, w, c])}, {t([k, k, c, 1])}, {t([c])}) -> {t([1, oh, ow, c])}\n")
    return model([[1, h, w, c]], body, [1, oh, ow, c], 2 * oh * ow * c * k * k)


def fully_connected(m, k, n):
    body = const("w", [n, k]) + const("b", [n])
    body += (f"  %r = tosa.fully_connected %a0, %w, %b : ({t([m, k])}, {t([n, k])}, "
             f"{t([n])}) -> {t([m, n])}\n")
    return model([[m, k]], body, [m, n], 2 * m * k * n)


def matmul(m, k, n):
    body = const("w", [1, k, n])
    body += f"  %r = tosa.matmul %a0, %w : ({t([1, m, k])}, {t([1, k, n])}) -> {t([1, m, n])}\n"
    return model([[1, m, k]], body, [1, m, n], 2 * m * k * n)


def pool(kind, h, c, k, stride):
    pad = k // 2
    oh = out_size(h, k, stride, pad)
    extra = ", acc_type = f32" if kind == "avg" else ""
    body = (f"  %r = tosa.{kind}_pool2d %a0 {{kernel = array<i64: {k}, {k}>, "
            f"pad = array<i64: {pad}, {pad}, {pad}, {pad}>, stride = array<i64: {stride}, {stride}>{extra}}}"
            f" : ({t([1, h, h, c])}) -> {t([1, oh, oh, c])}\n")
    return model([[1, h, h, c]], body, [1, oh, oh, c], oh * oh * c * k * k)


def add_broadcast(h, c):
    body = const("b", [1, 1, 1, c])
    body += f"  %r = tosa.add %a0, %b : ({t([1, h, h, c])}, {t([1, 1, 1, c])}) -> {t([1, h, h, c])}\n"
    return model([[1, h, h, c]], body, [1, h, h, c], h * h * c)


def add_same(h, c):
    body = f"  %r = tosa.add %a0, %a1 : ({t([1, h, h, c])}, {t([1, h, h, c])}) -> {t([1, h, h, c])}\n"
    return model([[1, h, h, c], [1, h, h, c]], body, [1, h, h, c], h * h * c)


def sigmoid(n):
    body = f"  %r = tosa.sigmoid %a0 : ({t([1, n])}) -> {t([1, n])}\n"
    return model([[1, n]], body, [1, n], n)


# name -> (TOSA text, whether NNAPI can run it). The first block is the issue
# list of shapes; "awkward" twins have sizes that divide no tile size.
OPS = {
    "conv3x3_64to64_56": (lambda: conv(56, 56, 64, 64, 3), True),
    "conv3x3_24to40_37_s2": (lambda: conv(37, 37, 24, 40, 3, stride=2), True),
    "conv1x1_64to256_56": (lambda: conv(56, 56, 64, 256, 1), True),
    "conv1x1_20to52_37": (lambda: conv(37, 37, 20, 52, 1), True),
    "conv7x7_3to64_224_s2": (lambda: conv(224, 224, 3, 64, 7, stride=2), True),
    "depthwise3x3_56x56x144": (lambda: depthwise(56, 56, 144, 3), True),
    "depthwise3x3_37x37x44_s2": (lambda: depthwise(37, 37, 44, 3, stride=2), True),
    "fc_1x1024x1024": (lambda: fully_connected(1, 1024, 1024), True),
    "fc_64x1024x1024": (lambda: fully_connected(64, 1024, 1024), True),
    "fc_61x1000x1000": (lambda: fully_connected(61, 1000, 1000), True),
    "matmul_64x1024x1024": (lambda: matmul(64, 1024, 1024), False),
    "matmul_61x1000x1000": (lambda: matmul(61, 1000, 1000), False),
    "avgpool3x3s2_112x112x64": (lambda: pool("avg", 112, 64, 3, 2), True),
    "maxpool3x3s2_112x112x64": (lambda: pool("max", 112, 64, 3, 2), True),
    "add_bcast_56x56x64": (lambda: add_broadcast(56, 64), True),
    "add_56x56x64": (lambda: add_same(56, 64), True),
    "sigmoid_100000": (lambda: sigmoid(100000), True),
    # Small shapes, for the fixed cost per op.
    "conv3x3_8to8_8": (lambda: conv(8, 8, 8, 8, 3), True),
    "depthwise3x3_8x8x8": (lambda: depthwise(8, 8, 8, 3), True),
    "fc_1x64x64": (lambda: fully_connected(1, 64, 64), True),
    "maxpool3x3s2_8x8x8": (lambda: pool("max", 8, 8, 3, 2), True),
    "avgpool3x3s2_8x8x8": (lambda: pool("avg", 8, 8, 3, 2), True),
    "add_bcast_4x4x8": (lambda: add_broadcast(4, 8), True),
    "add_4x4x8": (lambda: add_same(4, 8), True),
    "sigmoid_64": (lambda: sigmoid(64), True),
}


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode:
        sys.exit(f"op_speed: {' '.join(cmd)} failed:\n{r.stdout}{r.stderr}")
    return r.stdout


def bench(build, so, seconds, env):
    nnapi_run = os.path.join(build, "bin", "nnapi-run")
    probe = run([nnapi_run, so, "--bench", "3"], env=env)
    ms = float(probe.split("median_ms=")[1].split()[0])
    runs = int(min(3000, max(10, seconds * 1000 / max(ms, 1e-3))))
    out = run([nnapi_run, so, "--bench", str(runs)], env=env)
    return float(out.split("median_ms=")[1].split()[0]), runs


def cpu_name():
    """lscpu's model name, core count and the vector flags that matter."""
    try:
        info = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    except OSError:
        return "unknown CPU (no lscpu)"
    fields = dict(line.split(":", 1) for line in info.splitlines() if ":" in line)
    flags = set(fields.get("Flags", "").split())
    vector = [f for f in ("avx512f", "avx2", "fma", "f16c", "asimd") if f in flags]
    return (f"{fields.get('Model name', '?').strip()}, "
            f"{fields.get('CPU(s)', '?').strip()} cores, {' '.join(vector)}")


def main():
    # One thread: the figures are one core's, like ONNX Runtime's at 1 thread.
    os.environ["NNAPI_MLIR_THREADS"] = "1"
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--side", choices=["host", "nnapi", "both"], default="both")
    ap.add_argument("--only", default="")
    ap.add_argument("--json")
    ap.add_argument("--seconds", type=float, default=0.5)
    ap.add_argument("--compile-arg", action="append", default=[],
                    help="extra nnapi-compile flag (e.g. --mcpu=x86-64)")
    args = ap.parse_args()
    compile_ = os.path.join(args.build, "bin", "nnapi-compile")
    names = [n for n in OPS if not args.only or n in args.only.split(",")]
    sides = ["host", "nnapi"] if args.side == "both" else [args.side]
    env = dict(os.environ, NNAPI_MLIR_QUIET="1")
    records = []
    cpu = cpu_name()
    print(f"CPU: {cpu}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        placement = os.path.join(tmp, "nnapi.json")
        with open(placement, "w") as f:
            json.dump({"nnapi": ["tosa." + k for k in (
                "conv2d", "depthwise_conv2d", "fully_connected", "avg_pool2d",
                "max_pool2d", "add", "sigmoid")]}, f)
        for name in names:
            make, nnapi_ok = OPS[name]
            src = os.path.join(tmp, name + ".mlir")
            text, flops = make()
            with open(src, "w") as f:
                f.write(text)
            for side in sides:
                if side == "nnapi" and not nnapi_ok:
                    continue
                so = os.path.join(tmp, f"{name}.{side}.so")
                report = os.path.join(tmp, f"{name}.{side}")
                flags = ["--host-only"] if side == "host" else [
                    "--placement=" + placement, "--report=" + report]
                run([compile_, src, "-o", so] + flags + args.compile_arg)
                if side == "host":  # the report of a placement run gives the work
                    run([compile_, src, "-o", os.devnull, "--emit=mlir",
                         "--report=" + report])
                with open(report + ".json") as f:
                    op = json.load(f)["functions"][0]["ops"][0]
                ms, runs = bench(args.build, so, args.seconds, env)
                rec = {"op": name, "side": side, "nnapi": op["nnapi"],
                       "ms": ms, "runs": runs, "macs": op["macs"],
                       "elements": op["elements"], "flops": flops,
                       "gflops": flops / ms * 1e-6, "cpu": cpu}
                records.append(rec)
                print(f"{name:28s} {side:5s} {ms:10.4f} ms {rec['gflops']:8.2f} GFLOP/s",
                      flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=1)


if __name__ == "__main__":
    main()
