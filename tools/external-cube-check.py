#!/usr/bin/env python3
"""Who is right about Cubeful's answers to doubles? For every take and pass of Cubeful in a
tools/vs-gnubg-external.sh run that GNU Backgammon's analysis judges wrong, and as many other
answers picked at random, roll the position out cubeless with our own nets and compare the
doubler's cubeless equity by our 0-ply and by gnubg's 2-ply (the `DA[...]` of the game record)
with the rollout's.

    tools/external-cube-check.py DIR [--others 60] [--nets DIR] [--trials 648] [--seed 1]
        [--cli target/release/cubeful-cli]

Prints, for the wrong answers and for the others, the mean and RMSE of each judge's distance
from the rollout and how often our 0-ply is the closer (docs/BENCHMARKS.md, "adam16ex's cube
decisions")."""
import argparse
import glob
import importlib.util
import json
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("errors", os.path.join(HERE, "external-errors.py"))
errors = importlib.util.module_from_spec(spec)
spec.loader.exec_module(errors)

CUBE_NODE = re.compile(r"^\s*([WB])\[(double|take|drop)\]")
CHANCES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


def equity(p):
    """Cubeless money equity of five chances."""
    w, wg, wb, lg, lb = p
    return 2 * w - 1 + wg - lg + wb - lb


def answers(path, cli):
    """Cubeful's answers to doubles in one SGF file: action, Position ID, gnubg's 2-ply chances
    of the doubler and its double/take equity (per cube), in order."""
    shown = json.loads(subprocess.check_output([cli, "match", "show", "--json", path]))
    with open(path, encoding="utf-8") as f:
        trees = f.read().split("(;FF[")[1:]
    out = []
    for tree, game in zip(trees, shown["games"]):
        actions = iter(a for a in game["actions"] if a["action"] in ("double", "take", "drop"))
        for node in errors.sgf_nodes(tree):
            m = CUBE_NODE.match(node)
            if not m:
                continue
            action = next(actions, None)
            if action is None or action["action"] != m.group(2):
                print(f"{path} game {game['number']}: cube actions do not match, skipped",
                      file=sys.stderr)
                break
            da = errors.CUBE_ANALYSIS.search(node)
            if not da or m.group(2) == "double" or action["name"] != "cubeful":
                continue
            v = [float(x) for x in da.group(1).split()]
            out.append({"action": m.group(2), "id": action["position_id"],
                        "gnubg": v[3:8], "double_take": v[16]})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--others", type=int, default=60)
    ap.add_argument("--nets", default="data/nets")
    ap.add_argument("--trials", type=int, default=648)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cli", default="target/release/cubeful-cli")
    args = ap.parse_args()
    rows = []
    for path in sorted(glob.glob(os.path.join(args.dir, "chunk-*.sgf"))):
        rows.extend(answers(path, args.cli))
    if not rows:
        sys.exit("no analysed answers to doubles in " + args.dir)
    for r in rows:
        r["wrong"] = (r["action"] == "take") == (r["double_take"] > 1.0)
    wrong = [r for r in rows if r["wrong"]]
    rest = [r for r in rows if not r["wrong"]]
    random.seed(args.seed)
    groups = (("wrong answers", wrong),
              ("other answers", random.sample(rest, min(args.others, len(rest)))))
    for name, group in groups:
        ours_d, gnubg_d = [], []
        for i, r in enumerate(group):
            ours = json.loads(subprocess.check_output(
                [args.cli, "eval", "--json", "--nets", args.nets, r["id"]]))
            rolled = json.loads(subprocess.check_output(
                [args.cli, "rollout", r["id"], "--cubeless", "--json", "--threads", "1",
                 "--trials", str(args.trials), "--seed", str(args.seed + i), "--nets",
                 args.nets]))
            truth = equity(rolled["alternatives"][0]["mean"][:5])
            ours_d.append(equity([ours[k] for k in CHANCES]) - truth)
            gnubg_d.append(equity(r["gnubg"]) - truth)
        n = len(group)
        if not n:
            continue
        rmse = lambda d: (sum(x * x for x in d) / n) ** 0.5
        closer = sum(abs(a) < abs(b) for a, b in zip(ours_d, gnubg_d))
        print(f"{name} ({n} of {len(rows)}): our 0-ply − rollout mean {sum(ours_d) / n:+.3f} "
              f"RMSE {rmse(ours_d):.3f}; gnubg's 2-ply − rollout mean {sum(gnubg_d) / n:+.3f} "
              f"RMSE {rmse(gnubg_d):.3f}; our 0-ply the closer in {closer}")


if __name__ == "__main__":
    main()
