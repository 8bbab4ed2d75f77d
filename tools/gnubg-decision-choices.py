# Run by GNU Backgammon (gnubg -t -q -r -p this-file): GNU Backgammon's choices on the decisions
# of a decision benchmark set, for `cubeful-cli bench decisions --choices` (docs/TRAINING.md,
# "The decision benchmark"). Settings come from the environment:
#   DECISIONS  the set's decisions, as `cubeful-cli bench decisions ... --list` prints them
#   CHOICES    the file to write (atomically): one line per decision, its number and the play
#   PLIES      gnubg's lookahead (default 0); cubeless, deterministic, with its pruning nets
# Example:
#   cubeful-cli bench decisions --positions 1000 --reference-rollout 144 --reference-nets training/adam6 --list > /tmp/d.txt
#   DECISIONS=/tmp/d.txt CHOICES=/tmp/gnubg-0ply.txt gnubg -t -q -r -p tools/gnubg-decision-choices.py
#   cubeful-cli bench decisions --positions 1000 --reference-rollout 144 --reference-nets training/adam6 \
#       --choices /tmp/gnubg-0ply.txt --against data/nets
import os

import gnubg

decisions = os.environ["DECISIONS"]
out = os.environ["CHOICES"]
plies = int(os.environ.get("PLIES", "0"))

for c in ["set display off", "set automatic game off", "set automatic roll off", "new game"]:
    gnubg.command(c)
# cubeful, plies, deterministic, prune, noise
context = gnubg.evalcontext(0, plies, 1, 1, 0.0)

lines = []
with open(decisions) as f:
    for line in f:
        if line.startswith("#") or not line.strip():
            continue
        index, position_id, roll = line.split("\t")[:3]
        gnubg.command("set board " + position_id)
        gnubg.command("set dice %s %s" % (roll[0], roll[1]))
        if gnubg.positionid() != position_id:
            raise SystemExit("decision %s: gnubg set up %s, not %s" % (index, gnubg.positionid(), position_id))
        board = gnubg.board()
        move = gnubg.findbestmove(board, gnubg.cubeinfo(), context)
        lines.append("%s\t%s\n" % (index, gnubg.movetupletostring(move, board)))

tmp = out + ".tmp"
with open(tmp, "x") as f:
    f.writelines(lines)
os.rename(tmp, out)
print("%d choices at %d-ply written to %s" % (len(lines), plies, out))
