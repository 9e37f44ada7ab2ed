#!/usr/bin/python3
"""Inputs and the numpy result of Inputs/bool_ops.mlir:
select(((a > 0) & (b != 1) | (a >= b)) & [1, 0, 1, 1], a, b).

Usage: bool_ops_reference.py DIR  (writes DIR/{a,b,expected}.npy)
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
