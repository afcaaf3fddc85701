#!/usr/bin/env python3
"""Pentanomial figures and SPRT length estimates from a Ptnml(0-2) list.

usage: sprt-estimate.py NAME P0 P1 P2 P3 P4 [...NAME P0..P4]
For each: pair score mean and variance, Elo with 95% interval, the pair t-value, and the
expected number of games for an SPRT [0, 5] (logistic Elo, alpha = beta = 0.05) to accept
H1 when the change is worth +5 Elo *on that book*: pairs = ln(19) * 2 var / d^2 (Wald's
approximation, no overshoot), with d the pair-score gain of +5 Elo."""
import math, sys

def elo(s):
    s = min(max(s, 1e-9), 1 - 1e-9)
    return -400 * math.log10(1 / s - 1)

args = sys.argv[1:]
if not args or len(args) % 6:
    sys.exit("usage: sprt-estimate.py NAME P0 P1 P2 P3 P4 [...NAME P0..P4] (six words each)")
while args:
    name, words = args[0], args[1:6]
    args = args[6:]
    if not all(w.isdigit() for w in words):
        sys.exit(f"error: {name}: a Ptnml is five whole numbers, got {' '.join(words)}")
    counts = list(map(int, words))
    n = sum(counts)
    if n == 0:
        sys.exit(f"error: {name}: a Ptnml of no pairs")
    xs = [0, 0.25, 0.5, 0.75, 1]
    m = sum(c * x for c, x in zip(counts, xs)) / n
    var = sum(c * (x - m) ** 2 for c, x in zip(counts, xs)) / n
    se = math.sqrt(var / n)
    lo, hi = elo(m - 1.96 * se), elo(m + 1.96 * se)
    d = 1 / (1 + 10 ** (-5 / 400)) - 0.5
    pairs = math.log(19) * 2 * var / d ** 2 if var > 0 else float("nan")
    t = (m - 0.5) / math.sqrt(var) if var > 0 else float("nan")
    decisive = (n - counts[2]) / n
    print(f"{name}: {n} pairs, Ptnml {counts}, score {100*m:.1f}%, Elo {elo(m):+.1f} "
          f"[{lo:+.1f}, {hi:+.1f}], pair var {var:.4f}, not 1-1 {100*decisive:.0f}%, "
          f"t per pair {t:.3f}, SPRT[0,5] at +5: ~{2*pairs:.0f} games")
