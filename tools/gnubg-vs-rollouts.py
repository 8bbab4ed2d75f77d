#!/usr/bin/env python3
"""How far GNU Backgammon's n-ply cubeless chances are from the targets of a Cubeful data set
(rollout labels, say), by the Cubeful net that judges each position: the measuring stick beside
`cubeful-cli train label --from SET --plies 0 --nets DIR` and `train compare` for our own nets.

    /usr/games/gnubg -t -q -r -p tools/gnubg-vs-rollouts.py   (arguments in the environment:)
    SET=training/rollout-holding-r2 PLIES=0 CLI=target/release/cubeful-cli
    SECOND=training/rollout-contact-test2   (optional: a second rollout of SET's positions,
                                             `train compare --second-reference`)
    KEEP=/tmp/gnubg2   (optional: write gnubg's chances to this new folder and keep them, for
                        tools/crossed-by-group.py; never commit them)

gnubg's chances are written, in the data set format (crates/train/src/dataset.rs), to a
temporary folder that `cubeful-cli train compare --reference SET` reads and that is deleted
before the script ends (unless KEEP names a folder outside the repository for them): they are a
yardstick, never training data (gnubg is only a measuring stick)."""
import glob
import importlib.util
import os
import shutil
import struct
import subprocess
import tempfile
import zlib

import gnubg

# gnubg runs the script without __file__: run it from the repository's root.
HERE = os.path.join(os.getcwd(), "tools")
spec = importlib.util.spec_from_file_location("plies", os.path.join(HERE, "plies-vs-rollouts.py"))
nets_tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(nets_tool)

MAGIC = b"CFDATA1\0"


def main():
    data_set = os.environ["SET"]
    plies = int(os.environ.get("PLIES", "0"))
    cli = os.environ.get("CLI", "target/release/cubeful-cli")
    context = gnubg.evalcontext(0, plies, 0, 1, 0.0)
    cube = gnubg.cubeinfo(1, -1, 0, 0, (0, 0))
    keep = os.environ.get("KEEP")
    if keep:
        os.makedirs(keep)
    out = keep or tempfile.mkdtemp(prefix="gnubg-%d-ply." % plies)
    try:
        for path in sorted(glob.glob(os.path.join(data_set, "chunk-*.bin"))):
            records = []
            for board, _ in nets_tool.records(path):
                opp, me = nets_tool.sides(board)
                p = gnubg.evaluate((tuple(opp), tuple(me)), cube, context)
                records.append(struct.pack("<26b", *board) + struct.pack("<5f", *p[:5]))
            with open(os.path.join(out, os.path.basename(path)), "wb") as f:
                body = MAGIC + struct.pack("<Q", len(records)) + b"".join(records)
                f.write(body + struct.pack("<I", zlib.crc32(body)))
        print("gnubg %d-ply (%s)" % (plies, out))
        second = os.environ.get("SECOND")
        extra = ["--second-reference", second] if second else []
        subprocess.run([cli, "train", "compare", "--reference", data_set, "--data-dir", out]
                       + extra, check=True)
    finally:
        if not keep:
            shutil.rmtree(out)


main()
