#!/usr/bin/env python3
"""World Class choices of several sets of nets, averaged: for `bench decisions --choices`.

  cubeful-cli bench decisions ... --list > LIST
  tools/choices-by-mean.py CLI LIST NETS:WEIGHT... > CHOICES
  cubeful-cli bench decisions ... --choices CHOICES

Each decision of LIST (its number, position ID, roll) is asked of every NETS folder with
`hint --level worldclass --json` (two processes at a time); among the plays every one of them
scored at 2 plies, the play with the best weighted mean of their cubeless money equities is
chosen (a weight of 0 leaves a set's opinion out but still asks it). docs/BENCHMARKS.md
("Nor does a second opinion …") has the measurement this made.
"""
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def cubeless(m):
    return (2 * m["win"] - 1 + m["win_gammon"] - m["lose_gammon"]
            + m["win_backgammon"] - m["lose_backgammon"])


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    cli, listing = sys.argv[1], sys.argv[2]
    sets = []
    for arg in sys.argv[3:]:
        nets, _, weight = arg.partition(":")
        sets.append((nets, float(weight or 1)))
    rows = [line.split("\t") for line in open(listing) if not line.startswith("#")]

    def plays(job):
        position, roll, nets = job
        out = subprocess.run(
            [cli, "hint", position, "--dice", roll, "--level", "worldclass", "--json",
             "--nets", nets],
            capture_output=True, text=True, check=True)
        moves = json.loads(out.stdout)["moves"]
        deep = {m["move"]: cubeless(m) for m in moves if m["plies"] == 2}
        return deep or {moves[0]["move"]: cubeless(moves[0])}

    jobs = [(r[1], r[2], nets) for r in rows for nets, _ in sets]
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(plays, jobs))
    for i, row in enumerate(rows):
        opinions = answers[i * len(sets):(i + 1) * len(sets)]
        common = set.intersection(*(set(o) for o in opinions))
        if not common:
            best = max(opinions[0], key=opinions[0].get)
        else:
            best = max(common, key=lambda m: sum(
                w * o[m] for (_, w), o in zip(sets, opinions) if w))
        print(row[0], best)


if __name__ == "__main__":
    main()
