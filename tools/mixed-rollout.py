#!/usr/bin/env python3
"""Mixed-play cubeless rollouts: Cubeful's 0-ply and GNU Backgammon's 0-ply on either side of a
position, to learn which program plays a kind of position better where the two programs' own
rollouts disagree (docs/TRAINING.md, "Who plays the blitz better"). A measuring stick only:
never train on what it writes.

    POSITIONS=FILE OUT=FILE [TRIALS=6] [PAIRINGS="OO GG OG GO"] [CLI=target/release/cubeful-cli] \
        /usr/games/gnubg -t -q -r -p tools/mixed-rollout.py

FILE lists positions, one `NAME POSITION-ID` a line (the player on roll to move, before the
roll). Each position is played TRIALS times in each pairing, a pairing being two letters: who
plays the player on roll at the start (the root), then who plays the other side; O is Cubeful
(`cubeful-cli ubgi`, Expert: 0-ply, cubeless), G is gnubg (`gnubg.findbestmove` at 0-ply,
cubeless). Trial t of a position has the same dice in every pairing. Every game is corrected by
lookahead variance reduction with Cubeful's 0-ply: at each ply the mean over the 21 rolls of the
mover's equity after Cubeful's best play, minus that of the roll made, which has mean zero over
the dice whoever plays, so the correction removes luck without bias. OUT gets a line per position
and pairing: NAME ID PAIRING MEAN SD TRIALS SECONDS, the mean in points for the root (cubeless:
1, 2 or 3 a game). gnubg answers in about 10 ms a call, so a game takes about 0.15 s with
Cubeful on both sides and about 1.5 s with gnubg on both.

gnubg's Python API as used here: `findbestmove(board, cubeinfo, evalcontext)` wants a game in
progress (`new game`) and takes its dice from `set dice A B`; `evalcontext(cubeful, plies,
deterministic, prune, noise)`; the board is (the other side's 25 counts, the mover's 25 counts),
index 24 the bar; the move a tuple of 1-based (from, to) pairs, 25 the bar and 0 off."""
import os
import random
import subprocess
import time

import gnubg

CLI = os.environ.get("CLI", "target/release/cubeful-cli")
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]

class Ours:
    def __init__(self):
        self.p = subprocess.Popen([CLI, "ubgi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("ubgi", "ubgiok")
        self.send("setoption name Level value expert")
        self.send("setoption name EvalMode value cubeless")
        self.send("isready", "readyok")
        self.send("newgame")
    def send(self, cmd, until=None):
        self.p.stdin.write(cmd + "\n"); self.p.stdin.flush()
        out = []
        while until:
            l = self.p.stdout.readline()
            if not l:
                raise RuntimeError("engine ended")
            l = l.strip(); out.append(l)
            if l.split(" ")[0] == until or l.startswith("error"):
                break
        return out
    def best(self, pid, dice):
        """(equity after the best play for the mover, position ID after it from the mover's view)."""
        self.send("position gnubgid " + pid)
        self.send("dice %d %d" % dice)
        out = self.send("go role chequer", "bestmove")
        eq, after = None, None
        for l in out:
            f = l.split()
            if f[0] == "info" and "eq" in f:
                eq = float(f[f.index("eq") + 1])
            if f[0] == "bestmoveid":
                after = f[1]
            if f[0] == "error":
                raise RuntimeError(l)
        return eq, after

def apply_gnubg(board, move):
    opp, me = list(board[0]), list(board[1])
    for i in range(0, len(move), 2):
        f, t = move[i], move[i + 1]
        me[f - 1] -= 1
        if t > 0:
            me[t - 1] += 1
            if opp[24 - t] == 1:
                opp[24 - t] = 0
                opp[24] += 1
    return (opp, me)

def result(board):
    """Points the mover (index 1) has won if it has borne off everything, else None."""
    opp, me = board
    if sum(me) > 0:
        return None
    if sum(opp) < 15:
        return 1
    if opp[24] > 0 or sum(opp[18:24]) > 0:
        return 3
    return 2

def main():
    ours = Ours()
    gnubg.command("set player 0 human"); gnubg.command("set player 1 human")
    gnubg.command("new game")
    ci = gnubg.cubeinfo()
    ec = gnubg.evalcontext(0, 0, 0, 1, 0.0)
    positions = [l.split() for l in open(os.environ["POSITIONS"]) if l.strip()]
    trials = int(os.environ.get("TRIALS", "6"))
    pairings = os.environ.get("PAIRINGS", "OO GG OG GO").split()
    out = open(os.environ["OUT"], "a")
    for name, pid in positions:
        for pairing in pairings:
            total = 0.0; sq = 0.0; t0 = time.time()
            for trial in range(trials):
                rng = random.Random("%s-%d" % (pid, trial))
                board = gnubg.positionfromid(pid)
                ply = 0; corr = 0.0
                while True:
                    sign = 1.0 if ply % 2 == 0 else -1.0
                    mover = pairing[ply % 2]
                    cur = gnubg.positionid(board)
                    vals = {}
                    for r in ROLLS:
                        vals[r] = ours.best(cur, r)
                    expected = sum((1 if a == b else 2) * vals[(a, b)][0] for a, b in ROLLS) / 36.0
                    d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
                    key = (min(d1, d2), max(d1, d2))
                    corr += sign * (expected - vals[key][0])
                    if mover == "O":
                        board = gnubg.positionfromid(vals[key][1])
                    else:
                        gnubg.command("set dice %d %d" % (d1, d2))
                        mv = gnubg.findbestmove(board, ci, ec)
                        board = apply_gnubg(board, mv)
                    pts = result(board)
                    if pts is not None:
                        x = sign * pts + corr
                        break
                    board = (board[1], board[0])
                    ply += 1
                total += x; sq += x * x
            mean = total / trials
            sd = ((sq / trials - mean * mean) * trials / max(trials - 1, 1)) ** 0.5
            out.write("%s %s %s %.5f %.5f %d %.1f\n" % (name, pid, pairing, mean, sd, trials, time.time() - t0)); out.flush()
    ours.send("quit")

main()
