#!/usr/bin/python3
"""Inputs and the numpy results of Inputs/bool_ops.mlir,
select(((a > 0) & (b != 1) | (a >= b)) & [1, 0, 1, 1], a, b), and of
Inputs/bool_reductions.mlir, Inputs/argmax.mlir and Inputs/cast.mlir.

Usage: bool_ops_reference.py DIR  (writes DIR/{a,b,expected}.npy and
DIR/{ra,rb,any,all,x,argmax,argmin,ids,cx,cast_sum,cast_half}.npy)
"""
import os
import sys

import numpy as np

d = sys.argv[1]
rng = np.random.default_rng(5)
a = rng.standard_normal((2, 4)).astype(np.float32)
b = rng.standard_normal((2, 4)).astype(np.float32)
b[0, 1] = b[1, 2] = 1.0  # exercise the not-equal
a[1, 3] = b[1, 3]        # and the greater-or-equal's equality
cond = ((a > 0) & (b != 1) | (a >= b)) & np.array([[1, 0, 1, 1]], bool)
np.save(os.path.join(d, "a.npy"), a)
np.save(os.path.join(d, "b.npy"), b)
np.save(os.path.join(d, "expected.npy"), np.where(cond, a, b))

# Inputs/bool_reductions.mlir: rows where some a > b, columns where all are.
a = np.array([[1, 2, 3, 4], [0, 0, 0, 0], [5, 6, 7, 8]], np.float32)
b = np.array([[0, 9, 9, 9], [1, 1, 1, 1], [0, 0, 0, 7]], np.float32)
g = a > b
np.save(os.path.join(d, "ra.npy"), a)
np.save(os.path.join(d, "rb.npy"), b)
np.save(os.path.join(d, "any.npy"), np.where(g.any(1, keepdims=True), 1.0, 0.0))
np.save(os.path.join(d, "all.npy"), np.where(g.all(0, keepdims=True), 2.0, -2.0))

# Inputs/argmax.mlir: first maximum / minimum, NaN never chosen (ties and a
# NaN are in the input).
x = np.array([[1, 5, 5, 2, 0], [np.nan, -1, 3, 3, -7], [0, 0, 0, 0, 0]],
             np.float32)
np.save(os.path.join(d, "x.npy"), x)
np.save(os.path.join(d, "argmax.npy"),
        np.nanargmax(x, axis=1).astype(np.int32))
np.save(os.path.join(d, "argmin.npy"),
        np.nanargmin(x, axis=0).astype(np.int32))

# Inputs/cast.mlir: int32 beyond float32's 24-bit mantissa, zeros of both
# signs, NaN (true as a bool), values float16 rounds to even or overflows.
ids = np.array([[0, 1, -7, 16777217, -2147483648, 101],
                [5, 0, 0, 2, 3, 4]], np.int32)
cx = np.array([[0.0, -0.0, np.nan, 1e-30, 1 + 2.0**-11, 70000.0],
               [-2.5, 1 + 3 * 2.0**-11, 0.0, 1.0, -1.0, 65504.0]], np.float32)
np.save(os.path.join(d, "ids.npy"), ids)
np.save(os.path.join(d, "cx.npy"), cx)
np.save(os.path.join(d, "cast_sum.npy"),
        ids.astype(np.float32) + (cx != 0).astype(np.float32))
with np.errstate(over="ignore"):
    np.save(os.path.join(d, "cast_half.npy"), cx.astype(np.float16))
