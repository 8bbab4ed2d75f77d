#!/usr/bin/env python3
"""How far GNU Backgammon's n-ply cubeless chances are from the targets of a Cubeful data set
(rollout labels, say), by the Cubeful net that judges each position: the measuring stick beside
`cubeful-cli train label --from SET --plies 0 --nets DIR` and `train compare` for our own nets.

    /usr/games/gnubg -t -q -r -p tools/gnubg-vs-rollouts.py   (arguments in the environment:)
    SET=training/rollout-holding-r2 PLIES=0 CLI=target/release/cubeful-cli

gnubg's chances are written, in the data set format (crates/train/src/dataset.rs), to a
temporary folder that `cubeful-cli train compare --reference SET` reads and that is deleted
before the script ends: they are a yardstick, never training data (gnubg is only a measuring
stick)."""
import glob
import os
import shutil
import struct
import subprocess
import tempfile
import zlib

import gnubg

MAGIC = b"CFDATA1\0"
RECORD = 26 + 5 * 4


def examples(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == MAGIC, path
    (count,) = struct.unpack("<Q", data[8:16])
    for k in range(count):
        r = data[16 + k * RECORD : 16 + (k + 1) * RECORD]
        yield struct.unpack("<26b", r[:26]), r[:26]


def gnubg_board(board):
    """gnubg's board (opponent's side first, each from its own side: index 0..23 its points from
    its one point, 24 its bar) of a signed Cubeful board (1..24 the mover's points, positive the
    mover's checkers; 25 the mover's bar, 0 the opponent's, negative)."""
    me, opp = [0] * 25, [0] * 25
    for i in range(1, 25):
        if board[i] > 0:
            me[i - 1] = board[i]
        elif board[i] < 0:
            opp[24 - i] = -board[i]
    me[24], opp[24] = board[25], -board[0]
    return (tuple(opp), tuple(me))


def main():
    data_set = os.environ["SET"]
    plies = int(os.environ.get("PLIES", "0"))
    cli = os.environ.get("CLI", "target/release/cubeful-cli")
    context = gnubg.evalcontext(0, plies, 0, 1, 0.0)
    cube = gnubg.cubeinfo(1, -1, 0, 0, (0, 0))
    out = tempfile.mkdtemp(prefix="gnubg-%d-ply." % plies)
    try:
        for path in sorted(glob.glob(os.path.join(data_set, "chunk-*.bin"))):
            records = []
            for board, raw in examples(path):
                p = gnubg.evaluate(gnubg_board(board), cube, context)
                records.append(raw + struct.pack("<5f", *p[:5]))
            with open(os.path.join(out, os.path.basename(path)), "wb") as f:
                body = MAGIC + struct.pack("<Q", len(records)) + b"".join(records)
                f.write(body + struct.pack("<I", zlib.crc32(body)))
        print("gnubg %d-ply (%s)" % (plies, out))
        subprocess.run([cli, "train", "compare", "--reference", data_set, "--data-dir", out],
                       check=True)
    finally:
        shutil.rmtree(out)


main()
