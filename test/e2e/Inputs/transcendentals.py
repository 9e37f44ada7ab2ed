#!/usr/bin/python3
"""Accuracy of the host code's transcendental functions (vectorized as
polynomial approximations) against float64 references.

    transcendentals.py make DIR    writes DIR/<fn>.mlir and DIR/<fn>_input0.npy
    transcendentals.py check DIR [nnapi-compile flags...]
                                   compiles and runs each model (check_models.py)
                                   and compares its output with the float64
                                   reference of its input

Each input holds a dense sweep of the interesting range (including the points
where the result underflows or overflows), random values, and the special
values 0, -0, +-inf and NaN; its length (4099) divides no vector size, so
the remainder path is checked too. Pass: for every finite reference that is
a normal float32 the relative error is at most 1e-6 (float32 rounding of
the reference is 6e-8) or the absolute error 2e-38; a reference that is
subnormal or zero may come out as any value within 2e-38 of it
(approximations may flush, and start to a few ulps above FLT_MIN); an
infinite or
NaN reference must be matched exactly. Prints '<fn>: OK ...' or
'<fn>: MISMATCH ...' per function; exits 1 if any failed.
"""
import math
import os
import sys

import numpy as np

from check_models import run_model

N = 4099
RNG = np.random.default_rng(17)
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan], dtype=np.float32)

# name: (TOSA op, sweep range, float64 reference)
FUNCTIONS = {
    "exp": ("tosa.exp", (-104.0, 90.0), np.exp),
    "log": ("tosa.log", (-1.0, 40.0), None),  # sweep of the exponent, below
    "tanh": ("tosa.tanh", (-12.0, 12.0), np.tanh),
    "sigmoid": ("tosa.sigmoid", (-110.0, 110.0),
                lambda x: 1.0 / (1.0 + np.exp(-x))),
    "erf": ("tosa.erf", (-6.0, 6.0), np.vectorize(math.erf, otypes=[float])),
}


def make_input(name, lo, hi):
    count = N - len(SPECIAL)
    if name == "log":
        # Positive values over every exponent, subnormals to 1e38, a few
        # negatives (NaN results).
        sweep = np.float32(10.0) ** RNG.uniform(-44, 38, count - 8)
        extra = np.array([-1, -2.5, -1e-30, 1, 2, 0.5, 1e-45, 3.4e38])
        x = np.concatenate([sweep, extra])
    else:
        x = np.concatenate([np.linspace(lo, hi, count // 2),
                            RNG.uniform(lo, hi, count - count // 2)])
    return np.concatenate([x.astype(np.float32), SPECIAL])


def reference(name, x):
    x = x.astype(np.float64)
    with np.errstate(all="ignore"):
        if name == "log":
            return np.where(x < 0, np.nan, np.log(x))
        if name == "erf":
            out = np.full_like(x, np.nan)
            finite = ~np.isnan(x)
            out[finite] = FUNCTIONS[name][2](x[finite])
            return out
        return FUNCTIONS[name][2](x)


def make(d):
    os.makedirs(d, exist_ok=True)
    for name, (op, (lo, hi), _) in FUNCTIONS.items():
        ty = f"tensor<{N}xf32>"
        with open(os.path.join(d, name + ".mlir"), "w") as f:
            f.write(f"func.func @main(%x: {ty}) -> {ty} {{\n"
                    f"  %r = {op} %x : ({ty}) -> {ty}\n"
                    f"  return %r : {ty}\n}}\n")
        np.save(os.path.join(d, name + "_input0.npy"), make_input(name, lo, hi))


def check(d, flags):
    failed = 0
    tiny = np.finfo(np.float32).tiny
    for name in FUNCTIONS:
        x = np.load(os.path.join(d, name + "_input0.npy"))
        got = run_model(d, name, flags).astype(np.float64)
        want = reference(name, x)
        # The reference rounded to float32 decides overflow (exp(88.8) is
        # finite in float64 but inf in float32).
        with np.errstate(over="ignore"):
            want32 = want.astype(np.float32).astype(np.float64)
        special = ~np.isfinite(want32)
        normal = ~special & (np.abs(want32) >= tiny)
        small = ~special & ~normal
        bad_special = special & ~((got == want32) | (np.isnan(got) & np.isnan(want32)))
        rel = np.zeros_like(want)
        rel[normal] = np.abs(got[normal] - want[normal]) / np.abs(want[normal])
        # 2e-38 absolute suffices too: results a few ulps above the
        # smallest normal number are where a kernel's flush to zero or to
        # FLT_MIN begins (XNNPACK's AVX2 sigmoid gives FLT_MIN for
        # sigmoid(-87.3) = 1.2049e-38).
        bad_normal = normal & ~((rel <= 1e-6) |
                                (np.abs(got - want) <= 2e-38))
        with np.errstate(invalid="ignore"):
            bad_small = small & ~(np.abs(got - want) <= 2e-38)
        bad = bad_special | bad_normal | bad_small
        worst = rel.max() if normal.any() else 0.0
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            print(f"{name}: MISMATCH {int(bad.sum())} values, first x={x[i]!r} "
                  f"got={got[i]!r} want={want[i]!r}")
            failed += 1
        else:
            print(f"{name}: OK max_rel_err={worst:.3g} normal={int(normal.sum())} "
                  f"special={int(special.sum())} small={int(small.sum())}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        check(sys.argv[2], sys.argv[3:])
