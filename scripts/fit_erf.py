#!/usr/bin/python3
"""Fits the rational approximation of erf that TOSA-to-NNAPI builds from NNAPI
operations (NNAPI has no ERF): erf(x) = x * P(x^2) / Q(x^2) for x clamped to
[-4, 4] (float32's erf is 1 beyond), P of degree 6 and Q of degree 4 with
Q(0) = 1, minimizing the relative error by iteratively reweighted linear
least squares. Prints the coefficients and the error of the float32
evaluation (Horner, coefficients rounded to float32) over a dense sweep.

Usage: /usr/bin/python3 scripts/fit_erf.py
"""
import math

import numpy as np

P_DEGREE, Q_DEGREE, CLAMP = 6, 4, 4.0


def fit(iterations=60):
    ymax = CLAMP * CLAMP
    y = np.unique(np.concatenate([np.linspace(0, ymax, 6000),
                                  np.linspace(0, CLAMP, 3000) ** 2]))
    x = np.sqrt(y)
    f = np.array([math.erf(v) / v if v > 0 else 2 / math.sqrt(math.pi)
                  for v in x])
    q_values, weights, best = np.ones_like(y), np.ones_like(y), None
    for _ in range(iterations):
        # P(y) - f (Q(y) - 1) = f, weighted towards relative error.
        a = np.hstack([np.vstack([y ** i for i in range(P_DEGREE + 1)]).T,
                       -np.vstack([f * y ** i
                                   for i in range(1, Q_DEGREE + 1)]).T])
        w = weights / (q_values * f)
        c, *_ = np.linalg.lstsq(a * w[:, None], f * w, rcond=None)
        p, q = c[:P_DEGREE + 1], np.concatenate([[1.0], c[P_DEGREE + 1:]])
        q_values = np.polyval(q[::-1], y)
        err = np.abs(np.polyval(p[::-1], y) / q_values - f) / f
        if best is None or err.max() < best[0]:
            best = (err.max(), p, q)
        weights = weights * (err / err.mean()) ** 0.3 + 1e-12
        weights /= weights.mean()
    return best[1], best[2]


def evaluate_float32(x, p, q):
    f32 = np.float32
    x = np.minimum(np.maximum(x.astype(f32), f32(-CLAMP)), f32(CLAMP))
    y = x * x
    num, den = f32(p[-1]), f32(q[-1])
    for c in p[-2::-1]:
        num = num * y + f32(c)
    for c in q[-2::-1]:
        den = den * y + f32(c)
    return x * (num / den)


def main():
    p, q = fit()
    print("P:", ", ".join(repr(float(c)) for c in p))
    print("Q:", ", ".join(repr(float(c)) for c in q))
    x = np.concatenate([np.linspace(-8, 8, 2000001),
                        np.float32(10.0) ** np.linspace(-37, 1, 100000)])
    x = x.astype(np.float32)
    got = evaluate_float32(x, p, q).astype(np.float64)
    want = np.array([math.erf(float(v)) for v in x])
    normal = np.abs(want) >= np.finfo(np.float32).tiny
    print("float32 max abs error %.3g, max relative error %.3g" % (
        np.abs(got - want).max(),
        (np.abs(got - want)[normal] / np.abs(want[normal])).max()))


if __name__ == "__main__":
    main()
