# Run by GNU Backgammon (gnubg -t -q -r -p this-file) for tools/vs-gnubg-external.sh:
# plays one chunk of a money session between gnubg (player 0, "gnubg") and an external
# player (player 1, "cubeful") listening on EXT_PORT, analyses it, and writes per-game
# statistics as JSON to EXT_OUT (atomically). Settings come from the environment:
#   EXT_PORT, EXT_GAMES, EXT_SEED, EXT_OUT, EXT_SGF (optional), EXT_PLIES (gnubg's playing
#   plies, default 0), EXT_ANALYSIS_PLIES (default 2), EXT_THREADS (default 2).
import json
import os
import time

import gnubg

port = os.environ["EXT_PORT"]
games = int(os.environ["EXT_GAMES"])
seed = int(os.environ["EXT_SEED"])
out = os.environ["EXT_OUT"]
plies = os.environ.get("EXT_PLIES", "0")
aplies = os.environ.get("EXT_ANALYSIS_PLIES", "2")
threads = os.environ.get("EXT_THREADS", "2")

for c in [
    "set display off",
    "set threads " + threads,
    "set rng mersenne",
    "set seed %d" % seed,
    "set automatic game off",
    "set player 0 gnubg",
    "set player 0 name gnubg",
    "set player 0 chequerplay evaluation plies " + plies,
    "set player 0 cubedecision evaluation plies " + plies,
    "set player 1 external localhost:" + port,
    "set player 1 name cubeful",
    "set analysis chequerplay evaluation plies " + aplies,
    "set analysis cubedecision evaluation plies " + aplies,
]:
    gnubg.command(c)

t0 = time.time()
gnubg.command("new session")
for _ in range(games - 1):
    gnubg.command("new game")
played = time.time() - t0
t0 = time.time()
gnubg.command("analyse session")
analysed = time.time() - t0
if os.environ.get("EXT_SGF"):
    gnubg.command("save match " + os.environ["EXT_SGF"])

m = gnubg.match(analysis=1, boards=0, statistics=1)
rows = []
for g in m["games"]:
    info, stats = g["info"], g["stats"]
    row = {"winner": info["winner"], "points": info["points-won"]}
    for side, name in (("X", "gnubg"), ("O", "cubeful")):
        s = stats[side]
        row[name] = {
            "result": s["dice"]["actual-result"],
            "luck_adjusted": s["dice"]["luck-adjusted-result"],
            "luck": s["dice"]["luck"],
            "moves": s["moves"]["total-moves"],
            "unforced": s["moves"]["unforced-moves"],
            "checker_error": s["moves"]["error-skill"],
            "close_cube": s["cube"]["close-cube"],
            "cube_error": s["cube"]["error-skill"],
        }
    rows.append(row)

tmp = out + ".tmp"
with open(tmp, "w") as f:
    json.dump(
        {
            "seed": seed,
            "games": rows,
            "gnubg_plies": int(plies),
            "analysis_plies": int(aplies),
            "seconds_played": played,
            "seconds_analysed": analysed,
        },
        f,
    )
os.rename(tmp, out)
