#!/usr/bin/python3
"""make_qdq_models.py OUT_DIR

The quantized ONNX models that qdq-ort.test checks against ONNX Runtime's
outputs (ort_refs/, written by scripts/ort_refs.sh), written by the
benchmark's own generators (benchmarks/qdq_vs_ort.py's write_models, which
takes make_bench_models.py's mobilenetv2_qdq), so that the test and the
benchmark run the same models:

  mobilenetv2_qdq  MobileNetV2's stem and first three stages at 224x224 in
                   QDQ format (int8 per-channel weights, uint8 activations,
                   quantized residual adds and global average pool) and a
                   float Gemm to 1000 logits;
  qdq_conv         one QDQ 3x3 convolution, 64 -> 64 channels, ReLU, at
                   14x14 (the benchmark's is 56x56: ONNX Runtime's float
                   outputs at 14x14 are 50 KB);
  qlinear_conv     the same convolution as one QLinearConv (QOperator
                   format: uint8 in and out, integer arithmetic);
  qlinear_matmul   an attention's scores, one QLinearMatMul of two computed
                   uint8 tensors (x and its transpose), 2 heads of 12 x 20
                   by 20 x 12 (the benchmark's: 12 heads, 128 and 64).

Writes OUT_DIR/<case>/model.onnx, test_data_set_0/input_0.pb (what
ONNX Runtime reads), input_0.npy (what nnapi-run reads) and case.json:
{"sha256": the model's, "steps": [one quantum of each output], "quanta":
the largest difference allowed, "rms": the largest root mean square
difference allowed, both in quanta, "nnapi": whether profiles/npu.json puts
a partition on NNAPI}. The step of an output is what check_ort_refs.py
counts quanta in:

  - DequantizeLinear's output: its scale (a float output of a quantized
    tensor moves in steps of it);
  - an integer output: 1;
  - a Gemm of dequantized operands (float logits): the scale s of its input
    times the largest L2 norm of a weight row, s * max_j |w_j|. If every
    input element were one quantum off, with independent signs, logit j
    would be off by s * |w_j| (one standard deviation): one step is what
    one requantization flip in every element of the last quantized tensor
    makes.
"""
import hashlib
import json
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper

# The benchmarks' modules are imported from the source tree: no bytecode
# written there.
sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import qdq_vs_ort  # noqa: E402

# The convolutions' height and width; the scores' heads, sequence, depth.
CONV_SIZE = 14
SCORES = (2, 12, 20)

# Tolerances in quanta (docs/design.md, issue 52). Integer sums are exact
# on both sides; what differs is how a sum is requantized (ONNX Runtime:
# float32, rounded to nearest even; the host code: ONNX's float formula;
# NNAPI: fixed point), so a near-tie can land one quantum apart, on few
# elements. Both bounds hold for the host device's float32 and fixed-point
# requantizing int8 kernels.
# - One requantization (the convolutions): at most 1 quantum anywhere, and
#   at most 1% of the elements one quantum off (rms 0.1; measured: 0.06%).
#   A wrong output zero point moves every element by one (rms 0.9 to 1), a
#   dropped bias a sixth to a third of them (rms 0.41 to 0.56).
# - 23 requantizations (19 convolutions, 3 adds, the pool), then the float
#   Gemm (MobileNetV2): flips compound; measured up to 11% of the Gemm's
#   inputs one quantum off (rms 0.31 in the logits' step). Up to a quarter
#   may be (rms 0.5), and the largest of 1000 logits then stays under 2 (4
#   standard deviations). A zero point one off or a bias dropped in any
#   layer tried gives rms 0.88 and more, max 2.9 and more.
TOLERANCE = {"mobilenetv2_qdq": (2, 0.5), "qdq_conv": (1, 0.1),
             "qlinear_conv": (1, 0.1), "qlinear_matmul": (1, 0.1)}
# profiles/npu.json puts the QDQ groups on NNAPI; QLinearConv stays host
# code there (NNAPI would requantize in fixed point where ONNX specifies
# float32: design.md).
ON_NNAPI = {"mobilenetv2_qdq": True, "qdq_conv": True, "qlinear_conv": False,
            "qlinear_matmul": False}


def output_steps(model):
    """One quantum of each graph output (see the module's comment)."""
    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    producer = {o: n for n in model.graph.node for o in n.output}

    def dequantized(name):
        """The DequantizeLinear behind `name` (through Flatten / Reshape)."""
        n = producer.get(name)
        while n is not None and n.op_type in ("Flatten", "Reshape"):
            n = producer.get(n.input[0])
        if n is None or n.op_type != "DequantizeLinear":
            sys.exit(f"{name}: not a dequantized tensor")
        return n

    steps = []
    for out in model.graph.output:
        elem = out.type.tensor_type.elem_type
        n = producer[out.name]
        if elem != onnx.TensorProto.FLOAT:
            steps.append(1.0)
        elif n.op_type == "DequantizeLinear":
            steps.append(float(inits[n.input[1]]))
        elif n.op_type == "Gemm":
            a, b = dequantized(n.input[0]), dequantized(n.input[1])
            attrs = {x.name: x for x in n.attribute}
            if "transA" in attrs and attrs["transA"].i:
                sys.exit(f"{out.name}: Gemm with transA")
            w = inits[b.input[0]].astype(np.float64)
            if len(b.input) > 2:
                w = w - inits[b.input[2]].reshape(-1, 1)
            w *= inits[b.input[1]].astype(np.float64).reshape(-1, 1)
            rows = w if "transB" in attrs and attrs["transB"].i else w.T
            steps.append(float(inits[a.input[1]]) *
                         float(np.linalg.norm(rows, axis=1).max()))
        else:
            sys.exit(f"{out.name}: no quantum for a {n.op_type} output")
    return steps


def main():
    out = sys.argv[1]
    for name in qdq_vs_ort.write_models(out, conv_size=CONV_SIZE,
                                        scores=SCORES):
        d = os.path.join(out, name)
        path = os.path.join(d, "model.onnx")
        t = onnx.TensorProto()
        with open(os.path.join(d, "test_data_set_0", "input_0.pb"), "rb") as f:
            t.ParseFromString(f.read())
        np.save(os.path.join(d, "input_0.npy"), numpy_helper.to_array(t))
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        quanta, rms = TOLERANCE[name]
        case = {"sha256": digest, "steps": output_steps(onnx.load(path)),
                "quanta": quanta, "rms": rms, "nnapi": ON_NNAPI[name]}
        with open(os.path.join(d, "case.json"), "w") as f:
            json.dump(case, f, indent=1)
        print(f"{name}: steps {', '.join('%.4g' % s for s in case['steps'])}")


if __name__ == "__main__":
    main()
