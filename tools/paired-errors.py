#!/usr/bin/env python3
"""Paired comparison of per-decision errors written by `cubeful-cli bench decisions --errors`.

    tools/paired-errors.py [--by pips] BASE.tsv OTHER.tsv [OTHER.tsv ...]

For each OTHER file: its mean error (mppd) by class (with `--by pips`, by the total pip count
of the position instead: under 220, 220 to 279, 280 or more) and overall, the number of decisions whose
error differs from BASE's (a different choice, or an equally good one), and BASE minus OTHER
paired by decision with its 95% interval (positive: OTHER chooses better). The files must list
the same decisions in the same order (the same set and judge)."""
import importlib.util
import math
import os
import sys

# Position IDs are decoded as tools/external-errors.py does.
_spec = importlib.util.spec_from_file_location(
    "external_errors",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "external-errors.py"))
external_errors = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(external_errors)


def pip_group(position_id):
    """The total pip count of both sides, bucketed."""
    total = sum(sum((i + 1) * n for i, n in enumerate(side))
                for side in external_errors.board(position_id))
    return "pips<220" if total < 220 else "pips220-279" if total < 280 else "pips280+"


def read(path, by_pips=False):
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            group = pip_group(fields[1]) if by_pips else fields[3]
            rows.append((fields[0], fields[1], fields[2], group, float(fields[4])))
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
    by_pips = len(argv) > 2 and argv[1:3] == ["--by", "pips"]
    if by_pips:
        argv = argv[:1] + argv[3:]
    if len(argv) < 3:
        sys.exit(__doc__)
    base = read(argv[1], by_pips)
    order = ["pips<220", "pips220-279", "pips280+", "contact", "crashed", "race"]
    classes = sorted({r[3] for r in base}, key=lambda c: (order.index(c) if c in order else 99, c))
    print(f"base {argv[1]}: {len(base)} decisions, {mean_ci([r[4] for r in base])[0]:.2f} mppd")
    for path in argv[2:]:
        other = read(path, by_pips)
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
