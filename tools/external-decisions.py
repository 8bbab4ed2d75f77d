#!/usr/bin/env python3
"""The checker-play decisions a side met in the games of a tools/vs-gnubg-external.sh run, as a
list for `cubeful-cli bench decisions --decisions-from FILE`: one line per decision, the position
ID (the player on roll) and the roll, in game order. Only the positions and rolls are taken,
never GNU Backgammon's plays or analysis: the set is scored by our own judge.

    tools/external-decisions.py DIR [--side cubeful] [--first-plays N] [--cli CLI] > LIST

--first-plays N keeps the side's first N checker plays of each game (the early game, where our
0-ply errs most by gnubg's analysis, docs/BENCHMARKS.md); forced plays are listed too (the
benchmark leaves them out)."""
import argparse
import collections
import glob
import json
import os
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--side", default="cubeful", help="player name (cubeful, gnubg) or 'both'")
    parser.add_argument("--first-plays", type=int, default=None, metavar="N")
    parser.add_argument("--cli", default="target/release/cubeful-cli")
    args = parser.parse_args()
    files = sorted(glob.glob(os.path.join(args.dir, "chunk-*.sgf")))
    if not files:
        sys.exit(f"{args.dir}: no chunk-*.sgf files")
    print(f"# decisions of {args.side} in {args.dir}"
          + (f", first {args.first_plays} plays of each game" if args.first_plays else ""))
    count = 0
    for path in files:
        shown = json.loads(subprocess.check_output([args.cli, "match", "show", "--json", path]))
        for game in shown["games"]:
            plays = collections.Counter()
            for action in game["actions"]:
                if action["action"] != "move":
                    continue
                name = action["name"]
                plays[name] += 1
                if args.side != "both" and name != args.side:
                    continue
                if args.first_plays and plays[name] > args.first_plays:
                    continue
                print(f"{action['position_id']} {action['dice']}")
                count += 1
    print(f"{count} decisions", file=sys.stderr)


if __name__ == "__main__":
    main()
