#!/usr/bin/env python3
"""Who is right where Cubeful's World Class cube and GNU Backgammon's 2-ply cube disagree? Reads
the game records of a `PLIES=2 training/external0.sh` run whose cube decisions GNU Backgammon
has analysed at 2 plies (tools/gnubg-reanalyse-cube.py), takes every cube decision Cubeful made
(double or not where it may double; take or pass), and compares its action with what gnubg's
2-ply analysis (the `DA[...]` of the record) prefers. The decisions where the two differ are
rolled out, cube and all, with our own nets (`cubeful-cli rollout --cube`: no double and
double/take, variance-reduced, the same dice for both), as a third judge of both actions.

    tools/external-cube-2ply.py DIR [--trials 1296] [--limit N] [--seed 1] [--nets DIR]
        [--cli training/bin/cubeful-cli] [--cache FILE] [--against CLI [--level worldclass]]

Prints, per kind of decision (initial doubles, redoubles, answers), how often the two actions
differ, what gnubg's 2-ply charges Cubeful's, and what our rollouts charge each side's action
there (docs/BENCHMARKS.md, "The World Class cube"). The rollouts are kept in DIR/cube-2ply.json
(or --cache), so a second call only prints.

With `--against CLI`, two builds are compared instead: each decision Cubeful met in the doubling
window (gnubg's 2-ply no double 0.3 or more, or an answer) is asked of `--cli` and of CLI
(`hint --level LEVEL`), and where their actions differ the decision is rolled out as above; it
prints what the rollouts and gnubg's 2-ply charge each build's actions there (about 2 minutes of
hints for 500 games, then the rollouts). The hints are kept beside the cache.
"""
import argparse
import importlib.util
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("sweep", os.path.join(HERE, "external-cube-sweep.py"))
sweep = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sweep)


def key(row):
    """The decision's position and match, as `cubeful-cli` takes them."""
    return row["pid"] + ":" + row["mid"]


def kind(row):
    if row["action"] in ("take", "drop"):
        return "answers"
    return "initial doubles" if row["centred"] else "redoubles"


def prefers(nd, dt, answer):
    """The action a judge with no double `nd` and double/take `dt` (the doubler's equities,
    normalised to the cube before the double; double/pass is 1) prefers."""
    if answer:
        return "take" if dt <= 1.0 else "drop"
    return "double" if min(dt, 1.0) > nd else "no double"


def cost(nd, dt, action):
    """What a judge with `nd` and `dt` charges `action`, from the acting side."""
    if action in ("take", "drop"):
        return (dt if action == "take" else 1.0) - min(dt, 1.0)
    best = max(nd, min(dt, 1.0))
    return best - (min(dt, 1.0) if action == "double" else nd)


def rollout(row, args):
    nets = ["--nets", args.nets] if args.nets else []
    out = subprocess.check_output(
        [args.cli, "rollout", "--cube", "--json", "--trials", str(args.trials),
         "--seed", str(args.seed), *nets, key(row)])
    alts = {a["name"]: a for a in json.loads(out)["alternatives"]}
    nd, dt = alts["No double"], alts["Double, take"]
    return dict(nd=nd["equity"], dt=dt["equity"], nd_se=nd["equity_std_error"],
                dt_se=dt["equity_std_error"])


def hint(cli, key, level):
    """A build's no double and double/take at `level`, or None where it sees no cube decision."""
    j = json.loads(subprocess.check_output([cli, "hint", "--json", "--level", level, key]))
    if "cube" not in j:
        return None
    return j["cube"]["no_double"], j["cube"]["double_take"]


def save(cache, rows, rollouts):
    tmp = cache + ".tmp"
    with open(tmp, "w") as f:
        json.dump(dict(rows=rows, rollouts=rollouts), f)
    os.replace(tmp, cache)


def compare(rows, rollouts, args, cache):
    """--against: the decisions where two builds differ, judged by rollouts and gnubg's 2-ply."""
    window = [r for r in rows if r["action"] in ("take", "drop") or r["nd"] >= 0.3]
    hints_file = f"{cache}.{os.path.basename(args.against)}.{args.level}.json"
    hints = json.load(open(hints_file)) if os.path.exists(hints_file) else {}
    out = {}
    for r in window:
        k = key(r)
        if k + "|A" not in hints:
            hints[k + "|A"] = hint(args.cli, k, args.level)
            hints[k + "|B"] = hint(args.against, k, args.level)
        a, b = hints[k + "|A"], hints[k + "|B"]
        if a is None or b is None:
            continue
        answer = r["action"] in ("take", "drop")
        a, b = prefers(*a, answer), prefers(*b, answer)
        o = out.setdefault(kind(r), dict(n=0, differ=0, ra=0.0, rb=0.0, ga=0.0, gb=0.0))
        o["n"] += 1
        if a == b:
            continue
        if k not in rollouts:
            rollouts[k] = rollout(r, args)
            save(cache, rows, rollouts)
        x = rollouts[k]
        o["differ"] += 1
        o["ra"] += cost(x["nd"], x["dt"], a)
        o["rb"] += cost(x["nd"], x["dt"], b)
        o["ga"] += cost(r["nd"], r["dt"], a)
        o["gb"] += cost(r["nd"], r["dt"], b)
    with open(hints_file + ".tmp", "w") as f:
        json.dump(hints, f)
    os.replace(hints_file + ".tmp", hints_file)
    print(f"{args.cli} (A) against {args.against} (B) at {args.level}, {len(window)} decisions "
          "in the doubling window")
    print(f"{'':18}{'decisions':>10}{'differ':>8}{'rollout: A':>12}{'B':>8}{'gnubg2: A':>11}{'B':>8}")
    for name in ("initial doubles", "redoubles", "answers"):
        if name in out:
            o = out[name]
            print(f"{name:18}{o['n']:>10}{o['differ']:>8}{o['ra']:>12.3f}{o['rb']:>8.3f}"
                  f"{o['ga']:>11.3f}{o['gb']:>8.3f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--trials", type=int, default=1296)
    ap.add_argument("--limit", type=int, default=0, help="roll out at most N disagreements")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nets")
    ap.add_argument("--cli", default="training/bin/cubeful-cli")
    ap.add_argument("--cache")
    ap.add_argument("--against", help="another cubeful-cli build to compare --cli with")
    ap.add_argument("--level", default="worldclass")
    args = ap.parse_args()
    cache = args.cache or os.path.join(args.dir, "cube-2ply.json")
    state = json.load(open(cache)) if os.path.exists(cache) else {}
    rows = state.get("rows") or sweep.decisions(args.dir, args.cli)
    rollouts = state.get("rollouts", {})
    for r in rows:
        r["gnubg"] = prefers(r["nd"], r["dt"], r["action"] in ("take", "drop"))
    if args.against:
        compare(rows, rollouts, args, cache)
        return 0
    differ = [r for r in rows if r["gnubg"] != r["action"]]
    todo = [r for r in differ if key(r) not in rollouts]
    random.Random(args.seed).shuffle(todo)
    if args.limit:
        todo = todo[: max(0, args.limit - (len(differ) - len(todo)))]
    for i, r in enumerate(todo):
        rollouts[key(r)] = rollout(r, args)
        if i % 10 == 9:
            save(cache, rows, rollouts)
            print(f"rolled out {i + 1} of {len(todo)}", file=sys.stderr)
    save(cache, rows, rollouts)
    print(f"{len(rows)} cube decisions of Cubeful; {len(differ)} where gnubg's 2-ply prefers "
          f"the other action; {sum(1 for r in differ if key(r) in rollouts)} "
          f"of them rolled out ({args.trials} trials)")
    print(f"{'':28}{'decisions':>10}{'differ':>8}{'gnubg2 charges':>16}"
          f"{'rolled':>8}{'rollout: ours':>15}{'gnubg':>8}{'ours right':>12}")
    for name in ("initial doubles", "redoubles", "answers"):
        for act in (None, "double", "no double", "take", "drop"):
            sel = [r for r in rows if kind(r) == name and (act is None or r["action"] == act)]
            if not sel or (act is not None and not any(r["gnubg"] != r["action"] for r in sel)):
                continue
            d = [r for r in sel if r["gnubg"] != r["action"]]
            charged = sum(cost(r["nd"], r["dt"], r["action"]) for r in d)
            ro = [(r, rollouts[key(r)]) for r in d if key(r) in rollouts]
            ours = sum(cost(x["nd"], x["dt"], r["action"]) for r, x in ro)
            theirs = sum(cost(x["nd"], x["dt"], r["gnubg"]) for r, x in ro)
            right = sum(1 for r, x in ro
                        if cost(x["nd"], x["dt"], r["action"]) < cost(x["nd"], x["dt"], r["gnubg"]))
            label = name if act is None else f"  Cubeful: {act}"
            print(f"{label:28}{len(sel):>10}{len(d):>8}{charged:>16.3f}{len(ro):>8}"
                  f"{ours:>15.3f}{theirs:>8.3f}{right:>12}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
