#!/usr/bin/env python3
"""Compares runs of tools/vs-gnubg-external.sh: for each OUT_DIR, Cubeful's luck-adjusted
points per game against gnubg with its 95% confidence interval, and each run's difference from
the first with the interval of the difference (the runs taken as independent: games on the same
dice seeds part at the first play that differs, so pairing them gains little).

    tools/external-compare.py DIR_A DIR_B [DIR_C ...]
"""
import glob
import json
import math
import os
import sys


def luck_adjusted(d):
    xs = []
    for path in sorted(glob.glob(os.path.join(d, "chunk-*.json"))):
        with open(path) as f:
            xs += [g["cubeful"]["luck_adjusted"] for g in json.load(f)["games"]]
    if len(xs) < 2:
        sys.exit("fewer than two games in " + d)
    m = sum(xs) / len(xs)
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return len(xs), m, math.sqrt(var / len(xs))


if len(sys.argv) < 3:
    sys.exit(__doc__)
runs = [(d, *luck_adjusted(d)) for d in sys.argv[1:]]
_, _, m0, se0 = runs[0]
for d, n, m, se in runs:
    line = f"{d}: {n} games, luck-adjusted {m:+.4f} ± {1.96 * se:.4f} ppg"
    if d != runs[0][0]:
        line += f"; minus the first {m - m0:+.4f} ± {1.96 * math.hypot(se, se0):.4f}"
    print(line)
