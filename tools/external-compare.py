#!/usr/bin/env python3
"""Compares runs of tools/vs-gnubg-external.sh: for each OUT_DIR, Cubeful's luck-adjusted
points per game against gnubg with its 95% confidence interval, and each run's difference from
the first with the interval of the difference (the runs taken as independent: games on the same
dice seeds part at the first play that differs, so pairing them gains little).

    tools/external-compare.py DIR_A DIR_B [DIR_C ...]
"""
import math
import sys

from external_chunks import games, mean_ci


def luck_adjusted(d):
    xs = [g["cubeful"]["luck_adjusted"] for g in games(d)]
    if len(xs) < 2:
        sys.exit("fewer than two games in " + d)
    return (len(xs), *mean_ci(xs))


if len(sys.argv) < 3:
    sys.exit(__doc__)
runs = [(d, *luck_adjusted(d)) for d in sys.argv[1:]]
_, _, m0, ci0 = runs[0]
for d, n, m, ci in runs:
    line = f"{d}: {n} games, luck-adjusted {m:+.4f} ± {ci:.4f} ppg"
    if d != runs[0][0]:
        line += f"; minus the first {m - m0:+.4f} ± {math.hypot(ci, ci0):.4f}"
    print(line)
