#!/usr/bin/env python3
"""Is GNU Backgammon's judge fair to us? For Cubeful's costliest checker plays of a
tools/vs-gnubg-external.sh run (by gnubg's 2-ply analysis, contact positions, the mover's
LO-th to HI-th play of the game), roll out our best eight plays of the roll with our own nets
and compare the play gnubg's analysis ranks first with the play we made (cubeless equities).

    tools/external-rollout-check.py DIR [--from 4] [--to 10] [--top 24] [--nets DIR]
        [--trials 324] [--cli target/release/cubeful-cli]

One line per play, then how often the rollout puts gnubg's choice ahead and by how much on
average (docs/BENCHMARKS.md, "How far into the game")."""
import argparse
import collections
import glob
import importlib.util
import json
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("errors", os.path.join(HERE, "external-errors.py"))
errors = importlib.util.module_from_spec(spec)
spec.loader.exec_module(errors)


def after_letters(board, letters, white):
    """The mover's checkers after a play written as gnubg's SGF writes it (pairs of letters:
    a–x points 1–24 of White's numbering, y the bar, z off)."""
    b = list(board)
    for i in range(0, len(letters), 2):
        def point(c):
            if c == "y":
                return 25
            if c == "z":
                return 0
            n = ord(c) - ord("a") + 1
            return n if white else 25 - n
        src, dst = point(letters[i]), point(letters[i + 1])
        b[min(src, 25) - 1] -= 1
        if dst > 0:
            b[dst - 1] += 1
    return tuple(b)


def after_text(board, text):
    """The mover's checkers after a play in our notation (`13/7 8/7`, `24/20*/16`, `6/4(2)`)."""
    b = list(board)
    for token in text.split():
        m = re.match(r"^(.*?)(?:\((\d)\))?$", token)
        hops = [p.rstrip("*") for p in m.group(1).split("/")]
        point = lambda p: 25 if p == "bar" else 0 if p == "off" else int(p)
        src, dst = point(hops[0]), point(hops[-1])
        for _ in range(int(m.group(2) or 1)):
            b[src - 1] -= 1
            if dst > 0:
                b[dst - 1] += 1
    return tuple(b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--from", dest="lo", type=int, default=4)
    ap.add_argument("--to", dest="hi", type=int, default=10)
    ap.add_argument("--top", type=int, default=24)
    ap.add_argument("--nets", default="data/nets")
    ap.add_argument("--trials", default="324")
    ap.add_argument("--cli", default="target/release/cubeful-cli")
    args = ap.parse_args()
    plays = []
    for path in sorted(glob.glob(os.path.join(args.dir, "chunk-*.sgf"))):
        shown = json.loads(subprocess.check_output([args.cli, "match", "show", "--json", path]))
        with open(path, encoding="utf-8") as f:
            trees = f.read().split("(;FF[")[1:]
        for tree, game in zip(trees, shown["games"]):
            all_nodes = errors.sgf_nodes(tree)
            nodes = [n for n in all_nodes if errors.MOVE.match(n)]
            errs = errors.move_errors(all_nodes)
            moves = [a for a in game["actions"] if a["action"] == "move"]
            if not (len(errs) == len(moves) == len(nodes)):
                continue
            turns = collections.Counter()
            for node, error, a in zip(nodes, errs, moves):
                turns[a["name"]] += 1
                if (a["name"] != "cubeful" or error is None or error < 0.02
                        or not args.lo <= turns[a["name"]] <= args.hi
                        or errors.kind(a["position_id"])["class"] != "contact"):
                    continue
                analysis = errors.ANALYSIS.search(node)
                best = re.findall(r"\[([^\]]*)\]", analysis.group(2))[0].split()[0]
                plays.append((error, a["position_id"], a["dice"], a["move"], best,
                              node.lstrip().startswith("W")))
    plays.sort(key=lambda p: -p[0])
    n = ahead = 0
    total = 0.0
    for error, pid, dice, ours, best, white in plays[: args.top]:
        board, _ = errors.board(pid)
        out = json.loads(subprocess.check_output(
            [args.cli, "rollout", pid, "--dice", dice, "--candidates", "8", "--trials",
             args.trials, "--threads", "1", "--json", "--nets", args.nets, "--seed", "1"],
            stderr=subprocess.DEVNULL))
        equity = {after_text(board, alt["name"]): (alt["cubeless"], alt["name"])
                  for alt in out["alternatives"]}
        theirs, mine = equity.get(after_letters(board, best, white)), equity.get(after_text(board, ours))
        if not theirs or not mine:
            print(f"{pid} {dice}: gnubg's play or ours is not among our best eight", flush=True)
            continue
        diff = theirs[0] - mine[0]
        n, ahead, total = n + 1, ahead + (diff > 0), total + diff
        print(f"{pid} {dice}: gnubg-judged error {error:.3f}; ours {ours} {mine[0]:+.3f}, "
              f"gnubg's {theirs[1]} {theirs[0]:+.3f}: gnubg's ahead by {diff:+.3f}", flush=True)
    if n:
        print(f"{n} plays: the rollouts put gnubg's choice ahead in {ahead}, by {total / n:+.3f} "
              "on average")


if __name__ == "__main__":
    main()
