#!/usr/bin/env python3
"""Who is right where two programs' cube decisions disagree: the cube decisions of one player
that an analysed match file's stored analysis marks (doubtful or worse), each rolled out
cubefully by Cubeful (`cubeful-cli rollout ID --cube`), and the cost of the play made and of
the analysis's choice by those rollouts.

  tools/cube-disputes.py extract CLI PLAYER SET FILE.sgf...  > DISPUTES.tsv
      One line per marked cube decision of PLAYER (a name in the files): SET:FILE:GAME:ACTION,
      Position ID:Match ID before it, the action made, the analysis's best action, its error.
      `cubeful-cli analyse --existing keep` reads the marks from the files' own analysis
      (GNU Backgammon's in the external-player games; ours after `cubeful-cli analyse --out`).
  tools/cube-disputes.py rollout CLI DISPUTES.tsv OUT.jsonl TRIALS
      Rolls out each decision (one thread, seed 1, variance reduction, 0-ply play and cube);
      one JSON line each, resumable (decisions already in OUT are skipped).
  tools/cube-disputes.py score OUT.jsonl
      By SET and by (action made, analysis's action): how many, what each costs a decision in
      cubeful equity per unit of cube by the rollouts, and how often each was the worse.
  tools/cube-disputes.py builds OUT.jsonl CLI...
      Each build's World Class answer (`hint`, the Match ID's dice dropped) to every decision
      rolled out, and what the rollouts charge it, by SET: builds that differ in their cube
      (docs/BENCHMARKS.md, "The World Class cube").

Costs as tools/external-cube-2ply.py charges them (its `cost`): a double costs
max(ND, min(DT, 1)) − min(DT, 1), no double the same less ND, from the doubler's side; a take
DT − min(DT, 1) and a pass 1 − min(DT, 1), from the taker's. That tool compares our decisions
with gnubg's 2-ply analysis (a gnubg run per chunk first); this one takes whatever analysis a
file holds, so also gnubg's decisions judged by our own analysis (`cubeful-cli analyse --out`).
"""
import base64
import collections
import importlib.util
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("cube2ply", os.path.join(HERE, "external-cube-2ply.py"))
cube2ply = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cube2ply)


def run(cli, *args):
    return subprocess.run([cli, *args], capture_output=True, text=True, check=True).stdout


def extract(cli, player, label, files):
    for f in files:
        report = json.loads(run(cli, "analyse", "--existing", "keep", "--no-luck", "--no-moves",
                                "--threads", "1", "--report", "json", f))
        ids, game = {}, 0
        for line in run(cli, "match", "show", f).splitlines():
            m = re.match(r"Game (\d+):", line)
            if m:
                game = int(m.group(1))
                continue
            m = re.match(r"\s+(\d+)\.\s.*\s(\S+:\S+)\s*$", line)
            if m:
                ids[(game, int(m.group(1)))] = m.group(2)
        for x in report["marked"]:
            if x["kind"] != "cube" or report["players"][x["player"]] != player:
                continue
            position = ids[(x["game"], x["action"])]
            name = f'{label}:{os.path.basename(f)}:{x["game"]}:{x["action"]}'
            print(f'{name}\t{position}\t{x["played"]}\t{x["best"]}\t{x["error"]:.4f}')


def rollout(cli, disputes, out, trials):
    done = set()
    if os.path.exists(out):
        done = {json.loads(line)["name"] for line in open(out)}
    for line in open(disputes):
        name, position, played, best, error = line.rstrip("\n").split("\t")
        if name in done:
            continue
        result = json.loads(run(cli, "rollout", position, "--cube", "--trials", trials,
                                "--seed", "1", "--threads", "1", "--json"))
        cube = result["cube"]
        with open(out, "a") as f:
            f.write(json.dumps({"name": name, "id": position, "played": played, "best": best,
                                "error": float(error), "nd": cube["no_double"],
                                "dt": cube["double_take"], "action": cube["action"],
                                "seconds": result["seconds"]}) + "\n")


def simple(action, taker):
    """An action label as `double` / `no double` (the doubler's) or `take` / `drop` (the
    taker's), as tools/external-cube-2ply.py names them."""
    a = action.lower()
    if taker:
        return "drop" if "pass" in a else "take"
    return "no double" if a.startswith(("no ", "too good")) else "double"


def is_answer(row):
    return row["played"] in ("Take", "Pass")


def score(out):
    rows = collections.defaultdict(list)
    for line in open(out):
        d = json.loads(line)
        made, judge = simple(d["played"], is_answer(d)), simple(d["best"], is_answer(d))
        rows[(d["name"].split(":")[0], made, judge)].append(
            (cube2ply.cost(d["nd"], d["dt"], made), cube2ply.cost(d["nd"], d["dt"], judge)))
    for label in sorted({k[0] for k in rows}):
        total = [0, 0.0, 0.0]
        print(f"{label}:")
        for key in sorted(k for k in rows if k[0] == label):
            costs = rows[key]
            n = len(costs)
            made = sum(c[0] for c in costs)
            judged = sum(c[1] for c in costs)
            worse = sum(c[0] > c[1] for c in costs)
            total = [total[0] + n, total[1] + made, total[2] + judged]
            print(f"  made {key[1]:9s} judge {key[2]:9s} {n:4d}: made costs {made / n:.4f}, "
                  f"the judge's choice {judged / n:.4f}; made the worse {worse}, "
                  f"the better {sum(c[1] > c[0] for c in costs)}")
        print(f"  all {total[0]:4d}: made costs {total[1] / total[0]:.4f} a decision, "
              f"the judge's choice {total[2] / total[0]:.4f}")


def without_dice(position):
    """`POSITION:MATCH` with the Match ID's dice (bits 15–20) cleared: the decision before the
    roll."""
    pid, mid = position.split(":")
    key = int.from_bytes(base64.b64decode(mid), "little") & ~(0x3F << 15)
    return pid + ":" + base64.b64encode(key.to_bytes(9, "little")).decode()


def builds(out, clis):
    rows = [json.loads(line) for line in open(out)]
    for label in sorted({d["name"].split(":")[0] for d in rows}):
        print(f"{label}:")
        chosen = [d for d in rows if d["name"].split(":")[0] == label]
        for cli in clis:
            total, differ = 0.0, 0
            for d in chosen:
                hint = json.loads(run(cli, "hint", without_dice(d["id"]), "--json"))
                action = simple(hint["cube"]["action"], is_answer(d))
                total += cube2ply.cost(d["nd"], d["dt"], action)
                differ += action != simple(d["played"], is_answer(d))
            print(f"  {cli}: {len(chosen)} decisions, charged {total / len(chosen):.4f} a "
                  f"decision; {differ} differ from the action made")


if __name__ == "__main__":
    mode, args = sys.argv[1] if len(sys.argv) > 1 else "", sys.argv[2:]
    if mode == "extract" and len(args) >= 4:
        extract(args[0], args[1], args[2], args[3:])
    elif mode == "rollout" and len(args) == 4:
        rollout(*args)
    elif mode == "score" and len(args) == 1:
        score(args[0])
    elif mode == "builds" and len(args) >= 2:
        builds(args[0], args[1:])
    else:
        sys.exit(__doc__)
