#!/usr/bin/python3
"""Integer matmuls of two computed tensors, for the 8-bit dot-product tiles.

    make_int8_matmul_models.py OUT_DIR

Each model is one MatMulInteger (or QLinearMatMul) whose two operands are
graph inputs (no constant to pack at compile time: an attention's scores
Q K^T or its weighted values), with ONNX test data whose expected output is
numpy's: the products summed in int64 (MatMulInteger's exact i32 result),
or, for QLinearMatMul, those sums requantized as ONNX Runtime does (one
float32 multiplier, round half to even). The shapes exercise what the tiles
must get right: K not a multiple of 4 (7, 37, 130), N not a multiple of a
vector (3, 21, 35), M not a multiple of the rows of a tile, one row, a
batch of one, of several and of two dimensions, rank 2, int8 and uint8
operands, zero points of 0, absent, and on either side.
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testdata import const, model, save, vi  # noqa: E402

F32 = np.float32

# name: A's shape, B's shape, A unsigned, B unsigned, A's zero point, B's
# zero point (None: the input absent), QLinearMatMul
CASES = {
    "b3_m13_k37_n21": ((3, 13, 37), (3, 37, 21), False, False, -5, 7, False),
    "b2_m17_k130_n35_u8": ((2, 17, 130), (2, 130, 35), True, True, 128, 3,
                           False),
    "m5_k7_n3": ((5, 7), (7, 3), False, False, None, None, False),
    "b12_m32_k64_n32": ((12, 32, 64), (12, 64, 32), True, False, 131, 0,
                        False),
    "b4_m1_k4_n16": ((4, 1, 4), (4, 4, 16), False, True, 0, 200, False),
    "b2x3_m8_k12_n5": ((2, 3, 8, 12), (2, 3, 12, 5), False, False, 1, -1,
                       False),
    "q_b2_m9_k20_n18": ((2, 9, 20), (2, 20, 18), True, True, 120, 135, True),
}


def data(rng, shape, unsigned):
    lo, hi, t = (0, 255, np.uint8) if unsigned else (-128, 127, np.int8)
    return rng.integers(lo, hi + 1, shape).astype(t)


def write(out, name, case, seed):
    a_shape, b_shape, au, bu, za, zb, qlinear = case
    rng = np.random.default_rng(seed)
    a, b = data(rng, a_shape, au), data(rng, b_shape, bu)
    at, bt = (np.uint8 if au else np.int8), (np.uint8 if bu else np.int8)
    acc = np.matmul(a.astype(np.int64) - (za or 0),
                    b.astype(np.int64) - (zb or 0))
    elem = {np.uint8: TensorProto.UINT8, np.int8: TensorProto.INT8}
    inits = []
    if qlinear:
        as_, bs, ys, yz = F32(0.03), F32(0.02), F32(2.5), 7
        m = F32(as_ * bs / ys)
        y = np.clip(np.round(acc.astype(F32) * m) + yz, 0, 255).astype(np.uint8)
        inits = [const("as", as_), const("az", np.array(za, at)),
                 const("bs", bs), const("bz", np.array(zb, bt)),
                 const("ys", ys), const("yz", np.array(yz, np.uint8))]
        node = helper.make_node("QLinearMatMul", ["a", "as", "az", "b", "bs",
                                                  "bz", "ys", "yz"], ["y"])
        out_elem = TensorProto.UINT8
    else:
        names = ["a", "b"]
        if za is not None or zb is not None:
            names.append("az" if za is not None else "")
            inits += [const("az", np.array(za, at))] if za is not None else []
        if zb is not None:
            names.append("bz")
            inits.append(const("bz", np.array(zb, bt)))
        node = helper.make_node("MatMulInteger", names, ["y"])
        y = acc.astype(np.int32)
        assert np.array_equal(y.astype(np.int64), acc)
        out_elem = TensorProto.INT32
    mdl = model(name, [node], [vi("a", list(a.shape), elem[at]),
                               vi("b", list(b.shape), elem[bt])],
                [vi("y", list(y.shape), out_elem)], inits, opset=13)
    save(out, name, mdl, [("a", a), ("b", b)], [("y", y)])


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for seed, (name, case) in enumerate(CASES.items()):
        write(out, name, case, 200 + seed)


if __name__ == "__main__":
    main()
