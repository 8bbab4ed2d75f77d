#!/bin/sh
# Round adam23 (docs/TRAINING.md): contact positions of adam22c's self-play (10% exploring
# plays), each labelled by a cubeless 72-game quasi-random-dice rollout with adam22c (0-ply
# play, bearoff databases at the end), every position kept (no probe threshold): targets for
# the contact net deeper than its own 2-ply. Why: the crashed net fine-tuned on such rollouts
# (round adam22) came from twice GNU Backgammon's error to below it on held-out rollouts, and
# on contact positions gnubg's 0-ply is also nearer our rollouts than our contact net
# (rollout-selfplay-u1: 0.0733 against 0.0767; rollout-r1: 0.0668 against 0.0770). About 15
# positions a second a thread. Resumable (chunks written are skipped).
# Usage: training/rollout-contact-a22c.sh   (THREADS, default 1; CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/rollout-contact-a22c
exec "$CLI" train label --nets training/adam22c --source self-play --class contact \
    --rollout 72 --probe 1 --threshold 0 --chunks 1000 --chunk-positions 1000 --seed 23 \
    --threads "${THREADS:-1}" --dir training/rollout-contact-a22c
