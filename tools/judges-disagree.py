#!/usr/bin/env python3
"""The positions where two judges' rollouts of the same set disagree most, for
tools/mixed-rollout.py (docs/TRAINING.md, "Who plays better where the judges disagree").

    tools/judges-disagree.py N A1[,A2...] B1[,B2...] [--no-bar] > POSITIONS

Each argument after N is one judge: one or more folders (comma-separated) of the same set's
positions labelled by `train label --rollout` (ours) or tools/gnubg-rollout-set.py (gnubg's),
files paired by name and examples by index. A judge's equity of a position is the mean of its
folders'. Prints the N positions with the largest |A − B|, one `NAME POSITION-ID` a line, NAME
`d±D#K`: the difference A − B and the example's index. `--no-bar` leaves out positions with a
checker on the bar (the blitz study's, training/mixed-rollout-blitz/). Also prints, to standard
error, how many positions there are and the disagreement's mean and RMS."""
import importlib.util
import math
import os
import sys

# The chunks are read by crossed-by-group.py's `load` (with plies-vs-rollouts.py's reader).
spec = importlib.util.spec_from_file_location(
    "crossed", os.path.join(os.path.dirname(os.path.abspath(__file__)), "crossed-by-group.py"))
crossed = importlib.util.module_from_spec(spec)
spec.loader.exec_module(crossed)


def judge(folders):
    """(board, equity) of every example, the equity the mean over the folders."""
    sets = [crossed.load(folder) for folder in folders.split(",")]
    n = min(map(len, sets))
    for s in sets:
        if any(s[k][0] != sets[0][k][0] for k in range(n)):
            sys.exit(f"{folders}: the folders hold different positions")
    return [(sets[0][k][0], sum(s[k][1] for s in sets) / len(sets)) for k in range(n)]


def main():
    args = [a for a in sys.argv[1:] if a != "--no-bar"]
    if len(args) != 3:
        sys.exit(__doc__)
    n, a, b = int(args[0]), judge(args[1]), judge(args[2])
    rows = []
    for k, ((board, ea), (board_b, eb)) in enumerate(zip(a, b)):
        if board != board_b:
            sys.exit(f"example {k}: the two judges' positions differ")
        if "--no-bar" in sys.argv and (board[25] > 0 or board[0] < 0):
            continue
        rows.append((ea - eb, k, crossed.plies.position_id(board)))
    mean = sum(r[0] for r in rows) / len(rows)
    rms = math.sqrt(sum(r[0] ** 2 for r in rows) / len(rows))
    print(f"{len(rows)} positions: A − B mean {mean:+.4f}, RMS {rms:.4f}", file=sys.stderr)
    for d, k, pid in sorted(rows, key=lambda r: -abs(r[0]))[:n]:
        print(f"d{d:+.3f}#{k} {pid}")


if __name__ == "__main__":
    main()
