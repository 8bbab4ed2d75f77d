# Run by GNU Backgammon (gnubg -t -q -r -p this-file) for tools/vs-gnubg-external.sh:
# plays one chunk of a money session, or of matches, between gnubg (player 0, "gnubg") and an
# external player (player 1, "cubeful") listening on EXT_PORT, analyses it, and writes per-game
# (per-match) statistics as JSON to EXT_OUT (atomically). Settings come from the environment:
#   EXT_PORT, EXT_GAMES, EXT_SEED, EXT_OUT, EXT_SGF (optional), EXT_PLIES (gnubg's playing
#   plies, default 0), EXT_ANALYSIS_PLIES (default 2), EXT_THREADS (default 2), EXT_MATCH
#   (default 0: a money session of EXT_GAMES games; N > 0: EXT_GAMES matches to N points,
#   Crawford rule, each analysed on its own, its SGF saved as EXT_SGF with -MM before .sgf).
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
match_length = int(os.environ.get("EXT_MATCH", "0"))
sgf = os.environ.get("EXT_SGF")

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


def side_stats(s, match):
    """One side's statistics of a game (money) or of a whole match (match play)."""
    row = {
        "result": s["dice"]["actual-result"],
        "luck_adjusted": s["dice"]["luck-adjusted-result"],
        "luck": s["dice"]["luck"],
        "moves": s["moves"]["total-moves"],
        "unforced": s["moves"]["unforced-moves"],
        "checker_error": s["moves"]["error-skill"],
        "close_cube": s["cube"]["close-cube"],
        "cube_error": s["cube"]["error-skill"],
    }
    if match:
        # In match play the results, the luck and the errors' cost are in match winning
        # chances; the errors' skill stays in EMG.
        row["checker_cost"] = s["moves"]["error-cost"]
        row["cube_cost"] = s["cube"]["error-cost"]
    return row


def match_score(m):
    """The points each side has won in the games of match m that have ended."""
    score = {"X": 0, "O": 0}
    for g in m["games"]:
        if g["info"].get("winner") in score:
            score[g["info"]["winner"]] += g["info"]["points-won"]
    return score


def write(record):
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(record, f)
    os.rename(tmp, out)


record = {"seed": seed, "gnubg_plies": int(plies), "analysis_plies": int(aplies)}
if match_length == 0:
    t0 = time.time()
    gnubg.command("new session")
    for _ in range(games - 1):
        gnubg.command("new game")
    played = time.time() - t0
    t0 = time.time()
    gnubg.command("analyse session")
    analysed = time.time() - t0
    if sgf:
        gnubg.command("save match " + sgf)

    m = gnubg.match(analysis=1, boards=0, statistics=1)
    rows = []
    for g in m["games"]:
        info, stats = g["info"], g["stats"]
        row = {"winner": info["winner"], "points": info["points-won"]}
        for side, name in (("X", "gnubg"), ("O", "cubeful")):
            row[name] = side_stats(stats[side], False)
        rows.append(row)
    record["games"] = rows
else:
    played = analysed = 0.0
    rows = []
    for k in range(games):
        t0 = time.time()
        gnubg.command("new match %d" % match_length)
        # With automatic games off, each `new game` plays the next game of the match; a match
        # to N points cannot last more than 2N - 1 games.
        for _ in range(2 * match_length):
            if max(match_score(gnubg.match(analysis=0, boards=0, statistics=0)).values()) \
                    >= match_length:
                break
            gnubg.command("new game")
        played += time.time() - t0
        # `new match` gives player 1 gnubg's default name (the login's) again, which the
        # saved match would carry.
        gnubg.command("set player 1 name cubeful")
        t0 = time.time()
        gnubg.command("analyse match")
        analysed += time.time() - t0
        if sgf:
            gnubg.command("save match %s-%02d.sgf" % (sgf[:-4] if sgf.endswith(".sgf") else sgf, k))
        m = gnubg.match(analysis=1, boards=0, statistics=1)
        score = match_score(m)
        if max(score.values()) < match_length:
            raise SystemExit("match %d of the chunk did not finish" % k)
        row = {
            "winner": "O" if score["O"] >= match_length else "X",
            "games": len(m["games"]),
            "score": {"gnubg": score["X"], "cubeful": score["O"]},
        }
        for side, name in (("X", "gnubg"), ("O", "cubeful")):
            row[name] = side_stats(m["stats"][side], True)
        # Each game's score before it, its result and Cubeful's luck-adjusted share of the
        # match winning chances, to see at which scores the match is won or lost.
        row["game_rows"] = [
            {
                "score": {"gnubg": g["info"]["score-X"], "cubeful": g["info"]["score-O"]},
                "crawford": bool(g["info"].get("crawford")),
                "winner": g["info"]["winner"],
                "points": g["info"]["points-won"],
                "cubeful_luck_adjusted": g["stats"]["O"]["dice"]["luck-adjusted-result"],
            }
            for g in m["games"]
        ]
        rows.append(row)
    record["match_length"] = match_length
    record["matches"] = rows

record["seconds_played"] = played
record["seconds_analysed"] = analysed
write(record)
