#!/usr/bin/env python3
"""Which money cube efficiency x would have served Cubeful best in a tools/vs-gnubg-external.sh
run, judged by GNU Backgammon's analysis of the same decisions? Every cube decision Cubeful
made in contact and crashed positions (no double, double; take, pass) is decided again from
our 0-ply chances with Janowski's money model (Jacoby rule, cube centred or owned, as
`cube::cubeful_equity`) for a range of x, and charged what gnubg's analysis (`DA[...]`: no
double and double/take, pass +1) says the chosen action loses.

    tools/external-cube-sweep.py DIR [--nets DIR] [--cli target/release/cubeful-cli]
        [--x 0.60,0.64,...] [--cache FILE]

Our chances come from `cubeful-cli eval --json` (one call per decision; about ten minutes for
800 games), kept in DIR/cube-sweep.json (or --cache) for the next call.

A counterfactual on the positions of one run: where a lower x doubled, the run has no later
decisions of the game a higher x would have played on, so the doubling side of the sweep leans
toward higher x (its missed doubles are counted once, not at every later turn). The answers
(take or pass) end the decision and have no such lean. docs/BENCHMARKS.md, "x at 0 ply, again".
"""
import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("errors", os.path.join(HERE, "external-errors.py"))
errors = importlib.util.module_from_spec(spec)
spec.loader.exec_module(errors)

CHANCES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


def decisions(run_dir, cli):
    """Cubeful's cube decisions in a run: action, Position and Match ID of the doubler on roll,
    gnubg's no double and double/take."""
    out = []
    for path in sorted(p for p in os.listdir(run_dir) if re.match(r"chunk-\d+\.sgf$", p)):
        path = os.path.join(run_dir, path)
        shown = json.loads(subprocess.check_output([cli, "match", "show", "--json", path]))
        trees = open(path).read().split("(;FF[")[1:]
        for tree, game in zip(trees, shown["games"]):
            names = dict(errors.PLAYERS.findall(tree.split(";", 1)[0]))
            acts = iter(a for a in game["actions"] if a["action"] in ("move", "double"))
            last_double = None
            for node in errors.sgf_nodes(tree):
                a = re.match(r"^\s*([WB])\[(\w+)\]", node)
                if not a:
                    continue
                who, action = a.groups()
                act = None
                if errors.MOVE.match(node) or action == "double":
                    act = next(acts, None)
                if action == "double":
                    last_double = act
                m = errors.CUBE_ANALYSIS.search(node)
                if not m or names.get(who) != "cubeful":
                    continue
                values = [float(v) for v in m.group(1).split()]
                row = dict(nd=values[9], dt=values[16])
                if action in ("take", "drop") and last_double is not None:
                    row.update(action=action, at=last_double)
                elif action == "double" and act is not None:
                    row.update(action="double", at=act)
                elif act is not None and act["action"] == "move" and errors.may_double(act["match_id"]):
                    row.update(action="no double", at=act)
                else:
                    continue
                at = row.pop("at")
                row.update(pid=at["position_id"], mid=at["match_id"])
                bits = errors.id_bits(at["match_id"])
                row["centred"] = (bits[4] | bits[5] << 1) == 3
                out.append(row)
    return out


def live(win, w, l, owner):
    """Janowski's fully live money equity under the Jacoby rule (`cube::money_live_equity`)."""
    tp = (l - 0.5) / (w + l + 0.5)
    cp = (l + 1.0) / (w + l + 0.5)
    if owner == "centred":
        if win < tp:
            return -1.0
        if win < cp:
            return -1.0 + 2.0 * (win - tp) / (cp - tp)
        return 1.0
    if owner == "on roll":
        return -l + (1.0 + l) * win / cp if win < cp else 1.0 + (w - 1.0) * (win - cp) / (1.0 - cp)
    return -l + (l - 1.0) * win / tp if win < tp else -1.0 + (w + 1.0) * (win - tp) / (1.0 - tp)


def janowski(p, owner, x):
    """Money cubeful equity normalised to the cube, Jacoby rule (`cube::cubeful_equity`)."""
    price = 0.0 if owner == "centred" else 1.0
    win = p["win"]
    dead = 2.0 * win - 1.0 + (p["win_gammon"] - p["lose_gammon"] + p["win_backgammon"] - p["lose_backgammon"]) * price
    if win <= 1e-7 or win >= 1.0 - 1e-7:
        return dead
    w = 1.0 + (p["win_gammon"] + p["win_backgammon"]) / win
    l = 1.0 + (p["lose_gammon"] + p["lose_backgammon"]) / (1.0 - win)
    return dead * (1.0 - x) + live(win, w, l, owner) * x


def cost(row, x):
    """What gnubg's analysis charges the action our 0-ply takes with efficiency x."""
    double_take = 2.0 * janowski(row, "opponent", x)
    if row["action"] in ("take", "drop"):
        take = double_take <= 1.0
        return max(0.0, row["dt"] - 1.0) if take else max(0.0, 1.0 - row["dt"])
    no_double = janowski(row, "centred" if row["centred"] else "on roll", x)
    double = double_take >= no_double and 1.0 >= no_double
    best = max(row["nd"], min(row["dt"], 1.0))
    return best - (min(row["dt"], 1.0) if double else row["nd"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--nets", help="our nets (default: the embedded ones)")
    ap.add_argument("--cli", default="target/release/cubeful-cli")
    ap.add_argument("--x", default="0.60,0.64,0.68,0.72,0.76,0.80,0.84,0.90")
    ap.add_argument("--cache")
    args = ap.parse_args()
    cache = args.cache or os.path.join(args.dir, "cube-sweep.json")
    if os.path.exists(cache):
        rows = json.load(open(cache))
    else:
        rows = decisions(args.dir, args.cli)
        nets = ["--nets", args.nets] if args.nets else []
        for row in rows:
            e = json.loads(subprocess.check_output(
                [args.cli, "eval", "--json", *nets, row["pid"] + ":" + row["mid"]]))
            row["class"] = e["class"]
            row.update({k: e[k] for k in CHANCES})
        json.dump(rows, open(cache, "w"))
    rows = [r for r in rows if r["class"] in ("contact", "crashed")]
    groups = [
        ("initial doubles", lambda r: r["action"] in ("double", "no double") and r["centred"]),
        ("redoubles", lambda r: r["action"] in ("double", "no double") and not r["centred"]),
        ("answers", lambda r: r["action"] in ("take", "drop")),
    ]
    xs = [float(v) for v in args.x.split(",")]
    print("contact and crashed decisions: " + ", ".join(
        f"{name} {sum(map(pred, rows))}" for name, pred in groups))
    print("x      " + "".join(f"{name:>17}" for name, _ in groups) + "            total")
    for x in xs:
        parts = [sum(cost(r, x) for r in rows if pred(r)) for _, pred in groups]
        print(f"{x:.2f}   " + "".join(f"{v:17.2f}" for v in parts) + f"{sum(parts):17.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
