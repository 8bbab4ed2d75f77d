#!/usr/bin/env python3
"""A decision list for `cubeful-cli bench decisions --decisions-from` from the positions of a
data set (`train label` chunks): the first COUNT positions, in file order, each with a roll drawn
from the seed (doubles as often as at the table). The positions stay on roll as stored.

    tools/decisions-from-data.py DATA_DIR COUNT [--seed 1] > training/bench/NAME.txt

Data format: crates/train/src/dataset.rs (see tools/plies-vs-rollouts.py)."""
import argparse
import glob
import importlib.util
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("plies", os.path.join(HERE, "plies-vs-rollouts.py"))
data = importlib.util.module_from_spec(spec)
spec.loader.exec_module(data)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("count", type=int)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    written = 0
    for path in sorted(glob.glob(os.path.join(args.dir, "*.bin"))):
        for board, _ in data.records(path):
            if written == args.count:
                return
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            print(data.position_id(board), "%d%d" % (max(a, b), min(a, b)))
            written += 1


if __name__ == "__main__":
    main()
