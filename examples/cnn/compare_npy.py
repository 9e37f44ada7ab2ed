#!/usr/bin/env python3
"""compare_npy.py ACTUAL.npy EXPECTED.npy [--rtol R] [--atol A]

Exits 0 when |actual - expected| <= atol + rtol * |expected| everywhere
(numpy.allclose; NaN matches NaN and an infinity the same infinity),
printing the max absolute and relative error either way.
"""
import argparse
import sys

import numpy as np

p = argparse.ArgumentParser()
p.add_argument("actual")
p.add_argument("expected")
p.add_argument("--rtol", type=float, default=1e-5)
p.add_argument("--atol", type=float, default=1e-6)
a = p.parse_args()
x = np.load(a.actual).astype(np.float64)
y = np.load(a.expected).astype(np.float64)
if x.shape != y.shape:
    print("shape mismatch: %s vs %s" % (x.shape, y.shape))
    sys.exit(1)
same = (x == y) | (np.isnan(x) & np.isnan(y))
with np.errstate(invalid="ignore"):
    diff = np.where(same, 0.0, np.abs(x - y))
    rel = np.where(same, 0.0,
                   diff / np.maximum(np.abs(y), np.finfo(np.float64).tiny))
ok = np.allclose(x, y, rtol=a.rtol, atol=a.atol, equal_nan=True)
print("max_abs_err=%.3g max_rel_err=%.3g %s" % (diff.max(), rel.max(),
                                                 "OK" if ok else "MISMATCH"))
sys.exit(0 if ok else 1)
