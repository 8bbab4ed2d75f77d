# Run by GNU Backgammon (gnubg -t -q -r -p this-file): analyses the cube decisions of a match
# file again, at PLIES (default 2), without the checker plays or luck, and saves the result, for
# tools/external-cube-2ply.py (the game records of external runs are analysed at 0 plies).
# About 25 s for 100 World Class games on one thread. Settings come from the environment:
#   SRC    the match file to read (SGF)
#   DST    the file to write (it must not exist: gnubg overwrites)
#   PLIES  the cube decisions' lookahead (default 2)
# Example, for each chunk of a run:
#   SRC=training/external0-2ply/adam41w/chunk-015.sgf DST=/tmp/wc2/chunk-015.sgf \
#       gnubg -t -q -r -p tools/gnubg-reanalyse-cube.py
import os
import time

import gnubg

src = os.environ["SRC"]
dst = os.environ["DST"]
if os.path.exists(dst):
    raise SystemExit("%s exists already" % dst)
for c in [
    "set display off",
    "set threads 1",
    "set analysis moves off",
    "set analysis luck off",
    "set analysis cube on",
    "set analysis cubedecision evaluation plies " + os.environ.get("PLIES", "2"),
    "load match " + src,
]:
    gnubg.command(c)
t0 = time.time()
gnubg.command("analyse match")
gnubg.command("save match " + dst)
print("%s: cube decisions analysed in %.0f s" % (dst, time.time() - t0))
