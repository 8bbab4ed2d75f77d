#!/usr/bin/env python3
"""GNU Backgammon's own cubeless rollouts of the positions of a Cubeful data set: a judge of the
contact yardstick that does not share our nets' view (docs/TRAINING.md, round adam48). A
measuring stick only: never train on what it writes.

    python3 tools/gnubg-rollout-set.py SET OUT   (TRIALS, default 144; SEED, default 1; GNUBG)
    e.g. SEED=1 python3 tools/gnubg-rollout-set.py training/rollout-contact-test \\
             training/gnubg-judge/rollout-contact-test-s1

For each chunk of SET (in the data set format of crates/train/src/dataset.rs) it starts gnubg
in a pseudo-terminal (gnubg prints its rollout figures only to a terminal), sets up each
position before the roll with the player on roll to move (`set board` with the position's
gnubg ID), rolls it out (`set rollout trials TRIALS`, variance reduction, quasi-random dice,
0-ply play, cubeless, no truncation, seed SEED) and writes gnubg's five cubeless chances to
OUT/CHUNK in the same format, so that `cubeful-cli train compare --reference OUT --data-dir
…` and `tools/crossed-by-group.py` read it. Resumable: chunks already written are skipped,
and a chunk's finished positions (kept in OUT/.CHUNK.progress until the chunk is whole) are not
rolled out again.
One gnubg thread; about 5 s a position at 144 games."""
import glob
import importlib.util
import os
import pty
import re
import select
import struct
import sys
import zlib

MAGIC = b"CFDATA1\0"

# The data set reader and gnubg's position ID are plies-vs-rollouts.py's.
spec = importlib.util.spec_from_file_location(
    "plies", os.path.join(os.path.dirname(os.path.abspath(__file__)), "plies-vs-rollouts.py"))
plies = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plies)


def records(path):
    """The (board, chances) records of a data file, read by plies-vs-rollouts.py's reader."""
    with open(path, "rb") as f:
        if f.read(8) != MAGIC:
            sys.exit("%s is not a Cubeful data file" % path)
    return list(plies.records(path))


# Positions rolled out by one gnubg process.
BATCH = 10


def settings(trials, seed):
    """gnubg's rollout settings: cubeless, 0-ply play, variance reduction, quasi-random dice."""
    return [
        "set threads 1",
        "set output digits 5",
        "set rollout trials %d" % trials,
        "set rollout seed %d" % seed,
        "set rollout cubeful off",
        "set rollout chequerplay plies 0",
        "set rollout varredn on",
        "set rollout quasirandom on",
        "set rollout truncation enable off",
        "set rollout late enable off",
    ]


RESULT = re.compile(
    r"Current Position:\s*\r?\n\s*([0-9.]+) ([0-9.]+) ([0-9.]+) - ([0-9.]+) ([0-9.]+) ([0-9.]+) CL"
)


def run_gnubg(gnubg, commands):
    """Everything gnubg prints to its terminal while it runs `commands` and quits."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(gnubg, [gnubg, "-t", "-q", "-r"])
    script = "".join(c + "\n" for c in commands + ["quit", "y"]).encode()
    out = bytearray()
    while True:
        readable, writable, _ = select.select([fd], [fd] if script else [], [], 60)
        if fd in writable and script:
            sent = os.write(fd, script[:512])
            script = script[sent:]
        if fd in readable:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    os.waitpid(pid, 0)
    return out.decode("utf-8", "replace")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source, out = sys.argv[1], sys.argv[2]
    trials = int(os.environ.get("TRIALS", "144"))
    seed = int(os.environ.get("SEED", "1"))
    gnubg = os.environ.get("GNUBG", "/usr/games/gnubg")
    os.makedirs(out, exist_ok=True)
    for path in sorted(glob.glob(os.path.join(source, "chunk-*.bin"))):
        target = os.path.join(out, os.path.basename(path))
        if os.path.exists(target):
            continue
        examples = records(path)
        # Finished positions, one line each (index and five chances), so that a stopped run
        # resumes within a chunk; the data reader skips names starting with a dot.
        progress = os.path.join(out, "." + os.path.basename(path) + ".progress")
        done = {}
        if os.path.exists(progress):
            with open(progress) as f:
                for line in f:
                    fields = line.split()
                    if len(fields) == 6:
                        done[int(fields[0])] = tuple(float(x) for x in fields[1:])
        todo = [i for i in range(len(examples)) if i not in done]
        for start in range(0, len(todo), BATCH):
            batch = todo[start:start + BATCH]
            commands = settings(trials, seed) + ["new game"]
            for i in batch:
                commands += ["set board %s" % plies.position_id(examples[i][0]), "rollout"]
            text = run_gnubg(gnubg, commands)
            # gnubg redraws the figures as the rollout goes; the final ones follow this line.
            found = [RESULT.search(part) for part in text.split("Printing final results.")[1:]]
            found = [m.groups() for m in found if m]
            if len(found) != len(batch):
                sys.exit("%s: %d rollouts read for %d positions" % (path, len(found), len(batch)))
            with open(progress, "a") as f:
                for i, chances in zip(batch, found):
                    five = tuple(float(x) for x in chances[:3] + chances[4:])
                    done[i] = five
                    f.write("%d %s\n" % (i, " ".join("%.6f" % x for x in five)))
            print("%s: %d of %d positions" % (target, len(done), len(examples)), flush=True)
        body = MAGIC + struct.pack("<Q", len(examples))
        for i, (board, _) in enumerate(examples):
            body += struct.pack("<26b", *board) + struct.pack("<5f", *done[i])
        body += struct.pack("<I", zlib.crc32(body))
        with open(target + ".tmp", "wb") as f:
            f.write(body)
        os.replace(target + ".tmp", target)
        os.remove(progress)
        print("%s: %d positions, done" % (target, len(examples)), flush=True)


main()
