#!/usr/bin/env python3
"""How far the nets' 0-, 1- and 2-ply cubeless equities are from the rollout labels of a
`train label --rollout` data set: RMSE and mean difference over a random sample of its positions
(one `cubeful-cli eval` per position and depth, so keep the sample small).

    tools/plies-vs-rollouts.py DATA_DIR SAMPLE NETS_DIR [--cli training/bin/cubeful-cli] [--seed 1]

Data format: crates/train/src/dataset.rs (26 signed bytes of the board from the mover's side,
then the five target chances as f32)."""
import argparse
import base64
import glob
import json
import math
import os
import random
import struct
import subprocess

RECORD = 26 + 5 * 4


def records(path):
    with open(path, "rb") as f:
        data = f.read()
    (count,) = struct.unpack("<Q", data[8:16])
    for k in range(count):
        r = data[16 + k * RECORD : 16 + (k + 1) * RECORD]
        yield struct.unpack("<26b", r[:26]), struct.unpack("<5f", r[26:])


def sides(board):
    """GNU Backgammon's board (opponent's side first, each from its own side: index 0..23 its
    points from its one point, 24 its bar) of a signed board (index 1..24 the mover's points,
    positive the mover's checkers; 25 the mover's bar, 0 the opponent's, negative)."""
    me, opp = [0] * 25, [0] * 25
    for i in range(1, 25):
        if board[i] > 0:
            me[i - 1] = board[i]
        elif board[i] < 0:
            opp[24 - i] = -board[i]
    me[24], opp[24] = board[25], -board[0]
    return opp, me


def position_id(board):
    """GNU Backgammon's Position ID of a signed board (see `sides`)."""
    opp, me = sides(board)
    bits = []
    for side in (opp, me):
        for n in side:
            bits += [1] * n + [0]
    bits += [0] * (80 - len(bits))
    raw = bytes(sum(bits[8 * j + i] << i for i in range(8)) for j in range(10))
    return base64.b64encode(raw).decode()[:14]


def equity(t):
    w, wg, wb, lg, lb = t
    return 2 * w - 1 + wg - lg + wb - lb


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("sample", type=int)
    ap.add_argument("nets")
    ap.add_argument("--cli", default="training/bin/cubeful-cli")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    recs = [r for f in sorted(glob.glob(os.path.join(args.data, "*.bin"))) for r in records(f)]
    random.seed(args.seed)
    sample = random.sample(recs, min(args.sample, len(recs)))
    diffs = {0: [], 1: [], 2: []}
    for board, target in sample:
        pid = position_id(board)
        for plies in diffs:
            out = subprocess.check_output([args.cli, "eval", pid, "--plies", str(plies),
                                           "--json", "--nets", args.nets])
            diffs[plies].append(json.loads(out)["cubeless_equity"] - equity(target))
    for plies, d in diffs.items():
        rmse = math.sqrt(sum(x * x for x in d) / len(d))
        print(f"{args.data} {args.nets} {plies}-ply: {len(d)} positions, RMSE {rmse:.3f}, "
              f"mean {sum(d) / len(d):+.3f}")


if __name__ == "__main__":
    main()
