#!/usr/bin/env python3
"""Where the error beyond the rollouts' noise lies: the RMSE of each labelled set's cubeless
equity against two independent rollouts of the same positions (the square root of the mean of
(t - r1)(t - r2), as `train compare --second-reference` computes it), by kind of position: the
total pip count (early, middle, late game), the pip lead of the side on roll, the gammon
chances of the first rollout and the checkers back (the most either side has in the other's
home board or on the bar).

    tools/crossed-by-group.py REFERENCE SECOND NAME=DIR...
    e.g. tools/crossed-by-group.py training/rollout-contact-test training/rollout-contact-test2 \\
             ours-2ply=/tmp/ours2 gnubg-2ply=/tmp/gnubg2

Each DIR holds the reference's files labelled again (`train label --from REFERENCE --dir DIR
--plies P`, or tools/gnubg-vs-rollouts.py's labels), in the data set format of
crates/train/src/dataset.rs."""
import glob
import importlib.util
import math
import os
import sys

# The data set reader and the cubeless equity are plies-vs-rollouts.py's.
spec = importlib.util.spec_from_file_location(
    "plies", os.path.join(os.path.dirname(os.path.abspath(__file__)), "plies-vs-rollouts.py"))
plies = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plies)


def load(folder):
    """(board, cubeless equity, chances) of every example of a folder's chunks, in name order."""
    out = []
    for path in sorted(glob.glob(os.path.join(folder, "chunk-*.bin"))):
        with open(path, "rb") as f:
            if f.read(8) != b"CFDATA1\0":
                sys.exit("%s is not a Cubeful data file" % path)
        out.extend((board, plies.equity(chances), chances) for board, chances in plies.records(path))
    return out


def groups_of(board, chances):
    """The groups a position belongs to (board: index 1..24 the mover's points, positive the
    mover's checkers; 25 the mover's bar, 0 the opponent's)."""
    mine = sum(i * board[i] for i in range(1, 25) if board[i] > 0) + 25 * board[25]
    theirs = sum((25 - i) * -board[i] for i in range(1, 25) if board[i] < 0) + 25 * -board[0]
    total, lead = mine + theirs, theirs - mine
    gammons = chances[1] + chances[3]
    back_mine = sum(board[i] for i in range(19, 25) if board[i] > 0) + board[25]
    back_theirs = sum(-board[i] for i in range(1, 7) if board[i] < 0) - board[0]
    back = max(back_mine, back_theirs)
    return [
        ("pips", "< 220" if total < 220 else "220-279" if total < 280 else ">= 280"),
        ("lead", "behind > 20" if lead < -20 else "ahead > 20" if lead > 20 else "within 20"),
        ("gammons", "< 0.15" if gammons < 0.15 else "0.15-0.35" if gammons < 0.35 else ">= 0.35"),
        ("back", "< 2" if back < 2 else "2-3" if back < 4 else ">= 4"),
    ]


def main():
    if len(sys.argv) < 4 or any("=" not in a for a in sys.argv[3:]):
        sys.exit(__doc__)
    first, second = load(sys.argv[1]), load(sys.argv[2])
    sets = [a.split("=", 1) for a in sys.argv[3:]]
    labels = {name: load(folder) for name, folder in sets}
    for name, examples in [("second", second)] + list(labels.items()):
        if len(examples) != len(first) or any(
            e[0] != r[0] for e, r in zip(examples, first)
        ):
            sys.exit("%s does not hold the reference's positions in order" % name)
    groups = {("all", ""): list(range(len(first)))}
    for i, (board, _, chances) in enumerate(first):
        for key in groups_of(board, chances):
            groups.setdefault(key, []).append(i)

    def crossed(examples, members):
        s = sum((examples[i][1] - first[i][1]) * (examples[i][1] - second[i][1]) for i in members)
        return math.sqrt(max(s / len(members), 0.0))

    print("%-8s %-12s %5s" % ("group", "", "n") + "".join(" %12s" % n for n, _ in sets))
    for key in sorted(groups):
        members = groups[key]
        cells = "".join(" %12.4f" % crossed(labels[n], members) for n, _ in sets)
        print("%-8s %-12s %5d%s" % (key[0], key[1], len(members), cells))


if __name__ == "__main__":
    main()
