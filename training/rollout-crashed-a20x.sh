#!/bin/sh
# Round adam22 (docs/TRAINING.md): crashed positions of adam20x's self-play (10% exploring
# plays), each labelled by a cubeless 72-game quasi-random-dice rollout with adam20x (0-ply
# play, bearoff databases at the end), every position kept (no probe threshold): targets for
# the crashed net that its own 2-ply cannot give. Why: on the crashed positions of the rollout
# sets GNU Backgammon's 0-ply is far nearer our own rollouts than our crashed net (rollout-r1:
# 0.079 against 0.129 of equity, RMSE), and crashed games are short, so their rollouts are
# cheap (about 50 positions a second a thread). Resumable (chunks written are skipped).
# Usage: training/rollout-crashed-a20x.sh   (THREADS, default 1; CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/rollout-crashed-a20x
exec "$CLI" train label --nets training/adam20x --source self-play --class crashed \
    --rollout 72 --probe 1 --threshold 0 --chunks 1000 --chunk-positions 1000 --seed 22 \
    --threads "${THREADS:-1}" --dir training/rollout-crashed-a20x
