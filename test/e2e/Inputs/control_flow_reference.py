#!/usr/bin/python3
"""Inputs and numpy results of Inputs/control_flow.mlir: a conditional whose
then branch runs a loop (acc = acc * 0.5 + x, starting from x, n times) and
returns tanh(acc), and whose else branch returns sigmoid(x).

Usage: control_flow_reference.py DIR  (writes DIR/{yes,no,n,zero,x}.npy and
DIR/{then,then0,else}.npy)
"""
import os
import sys

import numpy as np

d = sys.argv[1]
x = np.array([1.0, -2.0, 0.5, 4.0], np.float32)
np.save(os.path.join(d, "x.npy"), x)
np.save(os.path.join(d, "yes.npy"), np.array(True))
np.save(os.path.join(d, "no.npy"), np.array(False))
for name, n in (("n", 3), ("zero", 0)):
    np.save(os.path.join(d, name + ".npy"), np.array([n], np.float32))


def then(n):
    acc = x.astype(np.float64)
    for _ in range(n):
        acc = acc * 0.5 + x
    return np.tanh(acc).astype(np.float32)


np.save(os.path.join(d, "then.npy"), then(3))
np.save(os.path.join(d, "then0.npy"), then(0))
np.save(os.path.join(d, "else.npy"),
        (1 / (1 + np.exp(-x.astype(np.float64)))).astype(np.float32))
