#!/usr/bin/python3
"""Checks the per-step lines `step K prob P` that stream-vad prints against
the expected probabilities of make_models.py (rtol 1e-3, atol 1e-5).

Usage: check_steps.py LOG vad_stream_RATE.npz
"""
import re
import sys

import numpy as np


def main():
    got = {int(k): float(p) for k, p in
           re.findall(r"^step (\d+) prob (\S+)$", open(sys.argv[1]).read(),
                      re.M)}
    expected = np.load(sys.argv[2])["prob"].reshape(-1)
    if sorted(got) != list(range(len(expected))):
        sys.exit("check_steps: %d steps printed, %d expected"
                 % (len(got), len(expected)))
    worst = max(abs(got[k] - e) for k, e in enumerate(expected))
    bad = [k for k, e in enumerate(expected)
           if abs(got[k] - e) > 1e-5 + 1e-3 * abs(e)]
    print("%d steps, max_abs_err=%.3g, %d mismatches" %
          (len(expected), worst, len(bad)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
