"""A float64 numpy reference of ONNX's RNN, GRU and LSTM, written from the
operators' documentation: one batch entry at a time over its own length
(sequence_lens), each direction from its own end. The streaming examples and
the importer's recurrent tests (test/Frontend/ONNX/Inputs/
make_recurrent_models.py) compute their expected outputs with it; ONNX
Runtime 1.30 agrees with it on every model they build (layout 0: ONNX
Runtime has no layout 1).
"""
import numpy as np

DEFAULTS = {  # name: (alpha, beta) defaults
    "affine": (1.0, 0.0), "leakyrelu": (0.01, None),
    "thresholdedrelu": (1.0, None), "scaledtanh": (1.0, 1.0),
    "hardsigmoid": (0.2, 0.5), "elu": (1.0, None),
}


def activation(name, x, alpha, beta):
    name = name.lower()
    a, b = DEFAULTS.get(name, (None, None))
    a = a if alpha is None else alpha
    b = b if beta is None else beta
    if name == "relu":
        return np.maximum(x, 0)
    if name == "tanh":
        return np.tanh(x)
    if name == "sigmoid":
        return 1 / (1 + np.exp(-x))
    if name == "affine":
        return a * x + b
    if name == "leakyrelu":
        return np.where(x >= 0, x, a * x)
    if name == "thresholdedrelu":
        return np.where(x > a, x, 0)
    if name == "scaledtanh":
        return a * np.tanh(b * x)
    if name == "hardsigmoid":
        return np.clip(a * x + b, 0, 1)
    if name == "elu":
        return np.where(x >= 0, x, a * (np.exp(x) - 1))
    if name == "softsign":
        return x / (1 + np.abs(x))
    if name == "softplus":
        return np.log(1 + np.exp(x))
    raise ValueError(name)


def functions(kind, directions, names, alphas, betas):
    """Per direction, the list of (name, alpha, beta): alphas and betas go,
    in order, to the functions that read them."""
    per = {"RNN": 1, "GRU": 2, "LSTM": 3}[kind]
    if names is None:
        names = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"],
                 "LSTM": ["Sigmoid", "Tanh", "Tanh"]}[kind] * directions
    alphas, betas = list(alphas or []), list(betas or [])
    out = []
    for n in names:
        a = b = None
        key = n.lower()
        if key in ("affine", "leakyrelu", "thresholdedrelu", "scaledtanh",
                   "hardsigmoid", "elu") and alphas:
            a = alphas.pop(0)
        if key in ("affine", "scaledtanh", "hardsigmoid") and betas:
            b = betas.pop(0)
        out.append((n, a, b))
    return [out[d * per:(d + 1) * per] for d in range(directions)]


def reference(kind, X, W, R, B=None, lens=None, h0=None, c0=None, P=None,
              direction="forward", names=None, alphas=None, betas=None,
              clip=None, lbr=0, input_forget=0, layout=0):
    X = X.astype(np.float64)
    if layout:
        X = X.transpose(1, 0, 2)
        h0 = None if h0 is None else h0.transpose(1, 0, 2)
        c0 = None if c0 is None else c0.transpose(1, 0, 2)
    T, N, _ = X.shape
    D = 2 if direction == "bidirectional" else 1
    H = R.shape[2]
    acts = functions(kind, D, names, alphas, betas)
    Y = np.zeros((T, D, N, H))
    Yh = np.zeros((D, N, H))
    Yc = np.zeros((D, N, H))

    def f(d, i, v):
        if clip is not None:
            v = np.clip(v, -clip, clip)
        n, a, b = acts[d][i]
        return activation(n, v, a, b)

    for d in range(D):
        rev = direction == "reverse" or d == 1
        w, r = W[d].astype(np.float64), R[d].astype(np.float64)
        g = w.shape[0]
        wb = np.zeros(g) if B is None else B[d, :g].astype(np.float64)
        rb = np.zeros(g) if B is None else B[d, g:].astype(np.float64)
        for n in range(N):
            length = T if lens is None else int(lens[n])
            h = np.zeros(H) if h0 is None else h0[d, n].astype(np.float64)
            c = np.zeros(H) if c0 is None else c0[d, n].astype(np.float64)
            steps = range(length - 1, -1, -1) if rev else range(length)
            for t in steps:
                x = X[t, n]
                if kind == "RNN":
                    h = f(d, 0, w @ x + r @ h + wb + rb)
                elif kind == "GRU":
                    xz, xr, xh = np.split(w @ x + wb, 3)
                    rz, rr, rh = np.split(r, 3)
                    bz, br, bh = np.split(rb, 3)
                    z = f(d, 0, xz + rz @ h + bz)
                    rg = f(d, 0, xr + rr @ h + br)
                    if lbr:
                        cand = f(d, 1, xh + rg * (rh @ h + bh))
                    else:
                        cand = f(d, 1, xh + rh @ (rg * h) + bh)
                    h = (1 - z) * cand + z * h
                else:
                    gi, go, gf, gc = np.split(w @ x + r @ h + wb + rb, 4)
                    p = np.zeros(3 * H) if P is None else P[d].astype(np.float64)
                    pi, po, pf = np.split(p, 3)
                    i = f(d, 0, gi + pi * c)
                    fg = 1 - i if input_forget else f(d, 0, gf + pf * c)
                    c = fg * c + i * f(d, 1, gc)
                    o = f(d, 0, go + po * c)
                    h = o * f(d, 2, c)
                Y[t, d, n] = h
            Yh[d, n] = h
            Yc[d, n] = c
    if layout:
        return Y.transpose(2, 0, 1, 3), Yh.transpose(1, 0, 2), Yc.transpose(1, 0, 2)
    return Y, Yh, Yc
