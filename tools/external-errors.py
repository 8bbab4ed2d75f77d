#!/usr/bin/env python3
"""Where the checker-play errors of a tools/vs-gnubg-external.sh run are: reads the analysed
SGF of every chunk in DIR (GNU Backgammon's own 2-ply analysis, `A[...]` of each move) and the
actions with their Position IDs (`cubeful-cli match show --json`), and prints each side's error
per move (mEMG, all moves, forced ones included) by kind of position, then Cubeful's costliest
moves.

    tools/external-errors.py DIR [--cli target/release/cubeful-cli] [--top 25]

Kinds: the engine's position classes, GNU Backgammon's (contact, crashed, race, bearoff); the mover's checkers in the opponent's home board or on
the bar ("back"), the opponent's back checkers, and the pip difference (mover minus opponent,
buckets of 20), and how far into the game the move is (the mover's n-th checker play). Then the
cube decisions gnubg analysed, by the action taken: how many, how many it judges wrong, and the
error by the equities of the SGF's `DA[...]` (no double and double/take against pass = +1). Those
totals are larger than the cube errors of gnubg's own statistics (`summary.json`), which weigh
each error otherwise (2 to 5 times less in the games compared); the counts are what to read."""
import argparse
import base64
import collections
import glob
import json
import os
import re
import subprocess
import sys


def sgf_nodes(text):
    """The nodes of one SGF game tree, split at ';' outside property values."""
    nodes, cur, in_value, escaped = [], [], False, False
    for ch in text:
        if in_value:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == "]":
                in_value = False
        elif ch == "[":
            in_value = True
        elif ch == ";":
            nodes.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    nodes.append("".join(cur))
    return nodes


MOVE = re.compile(r"^\s*[WB]\[(?!double\]|take\]|drop\]|beaver\]|raccoon\])")
ANALYSIS = re.compile(r"A\[(\d+)\]((?:\[[^\]]*\])+)")


def move_errors(nodes):
    """Per checker move (in order): the error of the move made by the analysis' equities, or
    None where the move was not analysed."""
    out = []
    for node in nodes:
        if not MOVE.match(node):
            continue
        m = ANALYSIS.search(node)
        if not m:
            out.append(None)
            continue
        played = int(m.group(1))
        # Each candidate: letters E ver 3 w wg wbg lg lbg equity ...
        equities = [float(c.split()[9]) for c in re.findall(r"\[([^\]]*)\]", m.group(2))]
        out.append(equities[0] - equities[played] if played < len(equities) else None)
    return out


CUBE_ANALYSIS = re.compile(r"DA\[E ver 3 2C ([^\]]*)\]")
PLAYERS = re.compile(r"P([WB])\[([^\]]*)\]")


def id_bits(key):
    """The bits of a Position or Match ID, least significant bit of each byte first."""
    return [(byte >> i) & 1 for byte in base64.b64decode(key + "==") for i in range(8)]


def may_double(match_id):
    """Whether the player on turn in a Match ID owns the cube or it is centred."""
    bits = id_bits(match_id)
    owner = bits[4] | bits[5] << 1
    return owner == 3 or owner == bits[11]


def cube_errors(tree, nodes, moves):
    """Per cube decision gnubg analysed: (player name, action, error), from the equities of each
    `DA[...]` (no double and double/take, cubeful, from the doubler's side; pass is +1). A
    checker play with an analysis is "no double" where its player had the cube (`moves`: the
    checker plays' actions, in order, with their Match IDs; `nodes`: the tree's nodes)."""
    names = dict(PLAYERS.findall(tree.split(";", 1)[0]))
    out = []
    plays = iter(moves)
    for node in nodes:
        a = re.match(r"^\s*([WB])\[(\w+)\]", node)
        if not a:
            continue
        who, action = a.groups()
        play = next(plays, None) if MOVE.match(node) else None
        m = CUBE_ANALYSIS.search(node)
        if not m:
            continue
        values = [float(v) for v in m.group(1).split()]
        nd, dt = values[9], values[16]
        best = max(nd, min(dt, 1.0))
        if action == "double":
            out.append((names.get(who), "double", best - min(dt, 1.0)))
        elif action == "take":
            out.append((names.get(who), "take", max(0.0, dt - 1.0)))
        elif action in ("drop", "pass"):
            out.append((names.get(who), "pass", max(0.0, 1.0 - dt)))
        elif play is not None and may_double(play["match_id"]):
            out.append((names.get(who), "no double", best - nd))
    return out


def board(position_id):
    """(mover, opponent): checkers on points 1..24 and the bar (index 24), each from its own side."""
    bits = id_bits(position_id)
    sides, side, point = [[0] * 25, [0] * 25], 0, 0
    for bit in bits:
        if side == 2:
            break
        if bit:
            sides[side][point] += 1
        else:
            point += 1
            if point == 25:
                side, point = side + 1, 0
    return sides[1], sides[0]


def kind(action):
    """The kinds of a move's position; its class is the engine's (`match show --json`)."""
    me, opp = board(action["position_id"])
    pips = lambda s: sum((i + 1) * n for i, n in enumerate(s))
    return {
        "class": action["class"],
        "back": min(sum(me[18:25]), 4),
        "opp_back": min(sum(opp[18:25]), 4),
        "pips": max(-3, min(3, (pips(me) - pips(opp)) // 20)),
    }


def phase(turn):
    """The mover's n-th checker play of the game, bucketed: 1, 2, 3, 4-6, 7-10, 11-20, 21+."""
    for bucket, last in (("01", 1), ("02", 2), ("03", 3), ("04-06", 6), ("07-10", 10),
                         ("11-20", 20)):
        if turn <= last:
            return bucket
    return "21+"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--cli", default="target/release/cubeful-cli")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    rows, cube_rows = [], []
    for path in sorted(glob.glob(os.path.join(args.dir, "chunk-*.sgf"))):
        shown = json.loads(subprocess.check_output([args.cli, "match", "show", "--json", path]))
        with open(path, encoding="utf-8") as f:
            trees = f.read().split("(;FF[")[1:]
        for tree, game in zip(trees, shown["games"]):
            nodes = sgf_nodes(tree)
            errors = move_errors(nodes)
            moves = [a for a in game["actions"] if a["action"] == "move"]
            if len(errors) != len(moves):
                print(f"{path} game {game['number']}: {len(errors)} analysed moves for "
                      f"{len(moves)} moves, skipped", file=sys.stderr)
                continue
            cube_rows.extend(cube_errors(tree, nodes, moves))
            turns = collections.Counter()
            for error, a in zip(errors, moves):
                turns[a["name"]] += 1
                if error is not None:
                    rows.append(dict(kind(a), who=a["name"], error=error,
                                     turn=phase(turns[a["name"]]),
                                     id=f"{a['position_id']}:{a['match_id']}", dice=a["dice"],
                                     move=a["move"]))
    if not rows:
        sys.exit("no analysed moves in " + args.dir)

    def table(title, key):
        sums = collections.defaultdict(lambda: {"cubeful": [0, 0.0], "gnubg": [0, 0.0]})
        for r in rows:
            cell = sums[key(r)][r["who"]]
            cell[0] += 1
            cell[1] += r["error"]
        print(f"\n{title}\n| kind | Cubeful: moves, total error, mEMG/move "
              f"| gnubg: moves, total error, mEMG/move |\n|---|---|---|")
        for k in sorted(sums):
            cells = []
            for who in ("cubeful", "gnubg"):
                n, e = sums[k][who]
                cells.append(f"{n}, {e:.2f}, {1000 * e / n:.2f}" if n else "0")
            print(f"| {k} | {cells[0]} | {cells[1]} |")

    table("By class", lambda r: r["class"])
    table("By class and the mover's back checkers", lambda r: (r["class"], r["back"]))
    table("By class and the opponent's back checkers", lambda r: (r["class"], r["opp_back"]))
    table("By the mover's n-th checker play of the game", lambda r: (r["class"], r["turn"]))
    table("By pip difference (mover minus opponent, /20)", lambda r: (r["class"], r["pips"]))
    print("\nCube decisions gnubg analysed, by the action taken (decisions, those in error, "
          "total error, mEMG per decision)\n| action | Cubeful | gnubg |\n|---|---|---|")
    for action in ("no double", "double", "take", "pass"):
        cells = []
        for who in ("cubeful", "gnubg"):
            es = [e for w, k, e in cube_rows if w == who and k == action]
            wrong = sum(1 for e in es if e > 1e-6)
            cells.append(f"{len(es)}, {wrong}, {sum(es):.2f}, {1000 * sum(es) / max(len(es), 1):.2f}")
        print(f"| {action} | {cells[0]} | {cells[1]} |")
    print(f"\nCubeful's {args.top} costliest moves (error, position, dice, move, kind)")
    ours = sorted((r for r in rows if r["who"] == "cubeful"), key=lambda r: -r["error"])
    for r in ours[: args.top]:
        print(f"{r['error']:.3f} {r['id']} {r['dice']} {r['move']} "
              f"{r['class']} back {r['back']} opp_back {r['opp_back']}")


if __name__ == "__main__":
    main()
