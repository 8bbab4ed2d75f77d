#!/usr/bin/env python3
"""The table of a tools/mixed-rollout.py run (docs/TRAINING.md, "Who plays the blitz better"):
mean differences in points for the root over the positions played in all four pairings, with
95% intervals over positions.

    tools/mixed-rollout-summary.py RESULTS [--by-sign]

Columns: our bot on both sides minus gnubg on both (OO − GG); our root player instead of
gnubg's, against gnubg's other side (OG − GG) and against ours (OO − GO); our other side instead
of gnubg's, signed for the other side, against gnubg's root (GG − GO) and against ours (OG − OO).
`--by-sign` splits the positions by the sign of the number after `d` in their names, as
tools/judges-disagree.py names them (A's rollouts higher, B's higher)."""
import collections
import math
import sys

COLUMNS = [
    ("OO − GG", lambda v: v["OO"] - v["GG"]),
    ("our root, gnubg's other side", lambda v: v["OG"] - v["GG"]),
    ("our root, our other side", lambda v: v["OO"] - v["GO"]),
    ("our other side, gnubg's root", lambda v: v["GG"] - v["GO"]),
    ("our other side, our root", lambda v: v["OG"] - v["OO"]),
]


def interval(xs):
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return f"{m:+.3f}"
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    return f"{m:+.3f} ± {1.96 * sd / math.sqrt(len(xs)):.3f}"


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    played = collections.defaultdict(dict)
    for line in open(sys.argv[1]):
        name, pid, pairing, mean = line.split()[:4]
        played[(name, pid)][pairing] = float(mean)
    full = {k: v for k, v in played.items() if len(v) == 4}
    groups = {"all": list(full)}
    if "--by-sign" in sys.argv[2:]:
        sign = lambda k: float(k[0][1:].split("#")[0])
        groups["A's rollouts higher"] = [k for k in full if sign(k) > 0]
        groups["B's rollouts higher"] = [k for k in full if sign(k) < 0]
    print("| positions | " + " | ".join(c[0] for c in COLUMNS) + " |")
    print("|---" * (len(COLUMNS) + 1) + "|")
    for label, keys in groups.items():
        if keys:
            cells = [interval([f(full[k]) for k in keys]) for _, f in COLUMNS]
            print(f"| {label} ({len(keys)}) | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
