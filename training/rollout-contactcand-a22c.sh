#!/bin/sh
# Round adam23 (docs/TRAINING.md): the positions after the five best plays (0-ply) of a random
# roll in contact positions of adam22c's self-play, each labelled by a cubeless 72-game
# quasi-random-dice rollout with adam22c (0-ply play, bearoff databases at the end): what a
# checker choice weighs, the rejected plays included, judged deeper than the contact net's own
# 2-ply. The companion of training/rollout-contact-a22c.sh (positions of play). About 15
# positions a second a thread. Resumable (chunks written are skipped).
# Usage: training/rollout-contactcand-a22c.sh   (THREADS, default 1; CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/rollout-contactcand-a22c
exec "$CLI" train label --nets training/adam22c --source candidates --class contact \
    --rollout 72 --probe 1 --threshold 0 --chunks 1000 --chunk-positions 1000 --seed 24 \
    --threads "${THREADS:-1}" --dir training/rollout-contactcand-a22c
