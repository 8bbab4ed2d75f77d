#!/usr/bin/env python3
"""Paired comparison of per-decision errors written by `cubeful-cli bench decisions --errors`.

    tools/paired-errors.py BASE.tsv OTHER.tsv [OTHER.tsv ...]

For each OTHER file: its mean error (mppd) by class and overall, the number of decisions whose
error differs from BASE's (a different choice, or an equally good one), and BASE minus OTHER
paired by decision with its 95% interval (positive: OTHER chooses better). The files must list
the same decisions in the same order (the same set and judge)."""
import math
import sys


def read(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            rows.append((fields[0], fields[1], fields[2], fields[3], float(fields[4])))
    return rows


def mean_ci(values):
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    m = sum(values) / n
    if n < 2:
        return m, 0.0
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    base = read(argv[1])
    classes = sorted({r[3] for r in base})
    print(f"base {argv[1]}: {len(base)} decisions, {mean_ci([r[4] for r in base])[0]:.2f} mppd")
    for path in argv[2:]:
        other = read(path)
        if [r[:4] for r in other] != [r[:4] for r in base]:
            sys.exit(f"{path}: not the same decisions as {argv[1]}")
        differ = sum(1 for a, b in zip(base, other) if a[4] != b[4])
        parts = []
        for cls in classes + ["overall"]:
            pairs = [(a[4], b[4]) for a, b in zip(base, other) if cls in ("overall", a[3])]
            m, _ = mean_ci([b for _, b in pairs])
            d, ci = mean_ci([a - b for a, b in pairs])
            parts.append(f"{cls} {m:.2f} ({d:+.2f} ± {ci:.2f})")
        print(f"{path}: {differ} differ; " + "; ".join(parts))


if __name__ == "__main__":
    main(sys.argv)
