#!/usr/bin/env python3
"""Sums tools/vs-gnubg-external.sh's chunks: points per game for Cubeful (actual and luck
adjusted, with 95% confidence intervals from the games' spread) and both sides' error rates in
mEMG as GNU Backgammon reports them (checker: error per unforced move; overall: checker and
cube error per unforced move and close cube decision), and the luck-adjusted figure without the
games of 16 points or more; from the games' statistics in the chunks' SGF files (gnubg's `GS`
records), both sides' cube errors by kind: doubles missed (below the cash point, or too good to
double), wrong doubles (below the double point, or too good), wrong takes and wrong passes, each
with its count and total error in EMG (as the "EMG (Points)" lines of gnubg's statistics report),
and the number of games they cover (cube_errors_games: the SGF files are not kept in git).
Writes DIR/summary.json. Where the checker errors are: tools/external-errors.py. A run of
matches (EXT_MATCH=N) is summed by tools/external-match-summary.py instead."""
import glob
import re
import json
import os
import sys

import external_chunks
from external_chunks import mean_ci

d = sys.argv[1]
chunks = external_chunks.chunks(d)
if any("matches" in c for c in chunks):
    # A run of matches (EXT_MATCH=N) has its own summary.
    import runpy
    runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "external-match-summary.py"), run_name="__main__")
    sys.exit(0)
games = [g for c in chunks for g in c["games"]]
played = sum(c["seconds_played"] for c in chunks)
analysed = sum(c["seconds_analysed"] for c in chunks)
aplies = {c.get("analysis_plies", 2) for c in chunks}
n = len(games)
if n < 2:
    sys.exit("fewer than two games in " + d)

# Analysed at 0 plies (EXT_ANALYSIS_PLIES=0), gnubg judges with the net it plays with: its own
# error rates are zero and ours are its 0-ply's opinion, but the luck-adjusted result stays
# unbiased (each roll's luck averages zero over the dice whatever the evaluator) and costs a
# fortieth of the time, so long runs measure strength to a few thousandths of a point.
summary = {"games": n, "chunks": len(chunks), "analysis_plies": sorted(aplies),
           "seconds_played": round(played), "seconds_analysed": round(analysed)}
for key in ("result", "luck_adjusted"):
    m, ci = mean_ci([g["cubeful"][key] for g in games])
    summary["cubeful_ppg_" + key] = round(m, 4)
    summary["cubeful_ppg_" + key + "_ci95"] = round(ci, 4)
# The few games that grow to 16 points or more (beaver wars) swing the mean: the figure without
# them, and their number and luck-adjusted points, are reported beside it.
small = [g for g in games if g["points"] < 16]
big = [g for g in games if g["points"] >= 16]
if len(small) >= 2:
    m, ci = mean_ci([g["cubeful"]["luck_adjusted"] for g in small])
    summary["under_16_points"] = {"games": len(small), "cubeful_ppg_luck_adjusted": round(m, 4),
                                  "cubeful_ppg_luck_adjusted_ci95": round(ci, 4)}
summary["16_points_or_more"] = {
    "games": len(big),
    "cubeful_luck_adjusted_points": round(sum(g["cubeful"]["luck_adjusted"] for g in big), 2)}
for side in ("gnubg", "cubeful"):
    s = summary[side] = external_chunks.error_rates(games, side)
    errors = sum(g[side]["checker_error"] + g[side]["cube_error"] for g in games)
    s["overall_memg"] = round(1000 * errors / max(s["unforced"] + s["close_cube"], 1), 2)
# gnubg's per-game cube statistics (`GS[...][C:...]`): 20 counts, player 0's and player 1's
# interleaved (the last twelve: the six kinds below), then each player's six (equity, MWC) pairs.
# Player 0 is PW of the game's root node, player 1 PB.
KINDS = ("missed_double_below_cp", "missed_double_above_cp", "wrong_double_below_dp",
         "wrong_double_above_tg", "wrong_take", "wrong_pass")
cube_kinds = {side: {k: {"count": 0, "emg": 0.0} for k in KINDS} for side in ("gnubg", "cubeful")}
covered = 0  # the games the cube errors by kind cover
sgfs = sorted(glob.glob(os.path.join(d, "chunk-*.sgf")))
# The SGF files are gitignored: in a fresh checkout only the JSON chunks are there. The cube
# errors by kind then come from the summary written where the games were played, if it covers
# the same games; otherwise they cover only the chunks whose SGF files are here, and it says so.
if len(sgfs) < len(chunks):
    found = len(sgfs) or "no"
    kept = {}
    if os.path.exists(os.path.join(d, "summary.json")):
        with open(os.path.join(d, "summary.json")) as f:
            kept = json.load(f)
    if kept.get("games") == n and all("cube_errors" in kept.get(side, {}) for side in cube_kinds):
        cube_kinds = {side: kept[side]["cube_errors"] for side in cube_kinds}
        covered = kept.get("cube_errors_games", n)
        sgfs = []
        note = "kept from the earlier summary.json, which covers the same games"
    else:
        note = f"counted in the {len(sgfs)} chunks whose SGF files are here"
    print(f"external-summary: {found} SGF files for {len(chunks)} chunks: the cube "
          f"errors by kind are {note}", file=sys.stderr)
for path in sgfs:
    with open(path) as f:
        text = f.read()
    for game in text.split("(;")[1:]:
        names = [re.search(r"\b" + tag + r"\[([^\]]*)\]", game) for tag in ("PW", "PB")]
        stats = re.search(r"GS\[M:[^\]]*\]\[C:([^\]]*)\]", game)
        if not stats or not all(names):
            continue
        covered += 1
        v = stats.group(1).split()
        for player, name in enumerate(names):
            side = "cubeful" if name.group(1) == "cubeful" else "gnubg"
            for k, kind in enumerate(KINDS):
                cube_kinds[side][kind]["count"] += int(v[8 + 2 * k + player])
                cube_kinds[side][kind]["emg"] += float(v[20 + 12 * player + 2 * k])
summary["cube_errors_games"] = covered
for side in ("gnubg", "cubeful"):
    for kind in KINDS:
        cube_kinds[side][kind]["emg"] = round(cube_kinds[side][kind]["emg"], 3)
    summary[side]["cube_errors"] = cube_kinds[side]
    # The statistics report's cube error rate counts each error in EMG as the GS records hold it;
    # the games' `error-skill` from gnubg's Python module (cube_memg above) is smaller wherever
    # the cube had been turned. Both are kept: the earlier runs in docs/BENCHMARKS.md give the
    # module's.
    s = summary[side]
    cube_emg = sum(k["emg"] for k in cube_kinds[side].values())
    checker_emg = sum(g[side]["checker_error"] for g in games)
    s["cube_memg_report"] = round(1000 * cube_emg / max(s["close_cube"], 1), 2)
    s["overall_memg_report"] = round(1000 * (checker_emg + cube_emg)
                                     / max(s["unforced"] + s["close_cube"], 1), 2)

tmp = os.path.join(d, "summary.json.tmp")
with open(tmp, "w") as f:
    json.dump(summary, f, indent=1)
os.rename(tmp, os.path.join(d, "summary.json"))
print(json.dumps(summary, indent=1))
