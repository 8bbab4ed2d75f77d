#!/usr/bin/env python3
"""Sums the chunks of matches tools/vs-gnubg-external.sh plays with EXT_MATCH=N (match play
against GNU Backgammon, each match analysed on its own): Cubeful's share of the matches won and
its luck-adjusted result in match winning chances (a match is worth +50% to its winner and -50%
to its loser before the luck is taken out), both with 95% confidence intervals from the
matches' spread, the same by kind of game (before the Crawford game, the Crawford game, after
it), and both sides' error rates as GNU Backgammon reports them (in mEMG per
unforced move and per close cube decision, and in match winning chances lost per match).
Writes DIR/summary.json; tools/external-summary.py hands such a folder over to this script.

    tools/external-match-summary.py DIR"""
import json
import os
import sys

import external_chunks
from external_chunks import mean_ci

d = sys.argv[1]
chunks = external_chunks.chunks(d)
lengths = {c["match_length"] for c in chunks if "match_length" in c}
if len(lengths) != 1 or any("matches" not in c for c in chunks):
    sys.exit(d + ": not one run of matches of one length (EXT_MATCH)")
matches = [m for c in chunks for m in c["matches"]]
n = len(matches)
if n < 2:
    sys.exit("fewer than two matches in " + d)

summary = {
    "matches": n,
    "match_length": lengths.pop(),
    "chunks": len(chunks),
    "gnubg_plies": sorted({c["gnubg_plies"] for c in chunks}),
    "analysis_plies": sorted({c["analysis_plies"] for c in chunks}),
    "games": sum(m["games"] for m in matches),
    "seconds_played": round(sum(c["seconds_played"] for c in chunks)),
    "seconds_analysed": round(sum(c["seconds_analysed"] for c in chunks)),
}
won, ci = mean_ci([1.0 if m["winner"] == "O" else 0.0 for m in matches])
summary["cubeful_matches_won_percent"] = round(100 * won, 1)
summary["cubeful_matches_won_percent_ci95"] = round(100 * ci, 1)
m, ci = mean_ci([m["cubeful"]["luck_adjusted"] for m in matches])
summary["cubeful_luck_adjusted_mwc_percent"] = round(100 * m, 2)
summary["cubeful_luck_adjusted_mwc_percent_ci95"] = round(100 * ci, 2)
# Where the luck-adjusted result comes from: each match's games split into the Crawford game,
# the games after it, and the rest, each kind's share summed per match (so that the kinds add
# up to the match's figure); from the chunks that keep each game (game_rows).
with_rows = [m for m in matches if "game_rows" in m]
if len(with_rows) >= 2:
    length = summary["match_length"]

    def kind(g):
        if g["crawford"]:
            return "crawford_game"
        if max(g["score"].values()) == length - 1:
            return "post_crawford"
        return "before_crawford"

    by_kind = {"matches": len(with_rows)}
    for k in ("before_crawford", "crawford_game", "post_crawford"):
        share = [sum(g["cubeful_luck_adjusted"] for g in m["game_rows"] if kind(g) == k)
                 for m in with_rows]
        mean, ci = mean_ci(share)
        by_kind[k] = {"games": sum(kind(g) == k for m in with_rows for g in m["game_rows"]),
                      "cubeful_luck_adjusted_mwc_percent": round(100 * mean, 2),
                      "ci95": round(100 * ci, 2)}
    summary["by_kind_of_game"] = by_kind
for side in ("gnubg", "cubeful"):
    s = summary[side] = external_chunks.error_rates(matches, side)
    for kind in ("checker", "cube"):
        cost = sum(m[side][kind + "_cost"] for m in matches)
        s[kind + "_mwc_percent_per_match"] = round(100 * cost / n, 2)

tmp = os.path.join(d, "summary.json.tmp")
with open(tmp, "w") as f:
    json.dump(summary, f, indent=1)
os.rename(tmp, os.path.join(d, "summary.json"))
print(json.dumps(summary, indent=1))
