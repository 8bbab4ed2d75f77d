#!/usr/bin/env python3
"""Is a player's error on the decision benchmark real, or its judge's noise? Takes the largest
errors of a `cubeful-cli bench decisions --errors` file (optionally of one pip-count group, as
tools/paired-errors.py groups them), rolls each decision out again with many more games
(`cubeful-cli rollout ID --dice R --cubeless`: variance-reduced, every candidate on the same dice)
and sets the player's choice (World Class's, `hint` at 2 plies, unless --plies says otherwise)
beside the best play of the longer rollout. With --choices (a file of decision numbers and plays,
as tools/gnubg-decision-choices.py writes them) the choices are that file's instead.

    tools/judge-recheck.py ERRORS.tsv OUT.jsonl [--group pips280+] [--top 12] [--min-error 5]
        [--trials 1296] [--candidates 6] [--seed 7] [--plies 2 | --choices FILE]
        [--cli target/release/cubeful-cli]

One JSON line per decision goes to OUT.jsonl as soon as it is rolled out (a rerun skips the
decisions OUT already holds); at the end a summary: the errors the judge charged and the ones
the longer rollouts charge (0 where the choice is their best, the longer rollouts' best minus
the choice otherwise), and how often the choice is their best. The rollout takes the best
--candidates plays at 0 plies, and more when the choice ranks lower there.
The longer rollouts use the embedded nets, so the ERRORS file should come from a judge with the
same nets (training/bench/judge-a46p-seed1-2/ and adam46p, docs/BENCHMARKS.md)."""
import argparse
import importlib.util
import json
import os
import subprocess
import sys

_spec = importlib.util.spec_from_file_location(
    "paired_errors",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "paired-errors.py"))
paired_errors = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(paired_errors)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("errors")
    ap.add_argument("out")
    ap.add_argument("--group", help="only decisions of this pip-count group (pips<220, pips220-279, pips280+)")
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--min-error", type=float, default=5.0, help="mppd")
    ap.add_argument("--trials", type=int, default=1296)
    ap.add_argument("--candidates", type=int, default=6)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--plies", type=int, default=2)
    ap.add_argument("--choices", help="the player's plays, one 'NUMBER<TAB>PLAY' line per decision")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--cli", default="target/release/cubeful-cli")
    args = ap.parse_args()

    rows = paired_errors.read(args.errors, by_pips=args.group is not None)
    if args.group:
        rows = [r for r in rows if r[3] == args.group]
    picked = sorted((r for r in rows if r[4] >= args.min_error), key=lambda r: -r[4])[:args.top]
    print(f"{len(rows)} decisions, {sum(r[4] for r in rows) / max(len(rows), 1):.2f} mppd; "
          f"rechecking the {len(picked)} largest errors", flush=True)

    choices = None
    if args.choices:
        with open(args.choices) as f:
            choices = dict(line.rstrip("\n").split("\t")[:2] for line in f if line.strip())
    done = {}
    if os.path.exists(args.out):
        with open(args.out) as f:
            for line in f:
                rec = json.loads(line)
                done[rec["decision"]] = rec
    for number, position, roll, _group, error in picked:
        if number in done:
            continue
        if choices is not None:
            if number not in choices:
                sys.exit(f"{args.choices} has no play for decision {number}")
            choice = choices[number]
        else:
            hint = json.loads(subprocess.check_output(
                [args.cli, "hint", position, "--dice", roll, "--plies", str(args.plies), "--json", "--top", "1"]))
            choice = hint["moves"][0]["move"]
        # The rollout's candidates are the best at 0-ply: reach down to the choice if it ranks lower.
        ranked = json.loads(subprocess.check_output(
            [args.cli, "hint", position, "--dice", roll, "--plies", "0", "--json", "--top", "1000"]))
        names = [m["move"] for m in ranked["moves"]]
        candidates = max(args.candidates, names.index(choice) + 1 if choice in names else 0)
        rolled = json.loads(subprocess.check_output(
            [args.cli, "rollout", position, "--dice", roll, "--cubeless", "--trials", str(args.trials),
             "--candidates", str(candidates), "--seed", str(args.seed),
             "--threads", str(args.threads), "--json"]))
        rec = {"decision": number, "position": position, "roll": roll,
               "judge_error_mppd": error, "choice": choice,
               "trials": args.trials, "candidates": candidates,
               "rollout": [[a["name"], round(a["cubeless"], 4), round(a["cubeless_std_error"], 4)]
                           for a in rolled["alternatives"]]}
        with open(args.out, "a") as f:
            f.write(json.dumps(rec) + "\n")
        done[number] = rec
        print(json.dumps(rec), flush=True)

    judged, rechecked, best, outside = 0.0, 0.0, 0, 0
    for number, *_ in picked:
        rec = done[number]
        scores = {name: equity for name, equity, _se in rec["rollout"]}
        judged += rec["judge_error_mppd"]
        if rec["choice"] not in scores:
            outside += 1
            continue
        loss = max(scores.values()) - scores[rec["choice"]]
        rechecked += 1000 * loss
        best += loss == 0
    print(f"{len(picked)} decisions: the judge charged {judged:.1f} thousandths, "
          f"the longer rollouts charge {rechecked:.1f}; the choice is their best play in {best}"
          + (f" ({outside} of the choices outside the candidates, not scored)" if outside else ""))


if __name__ == "__main__":
    main()
