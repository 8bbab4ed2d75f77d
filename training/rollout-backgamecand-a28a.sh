#!/bin/sh
# Round adam29 (docs/TRAINING.md): what a checker choice in a back game weighs: for crashed
# positions of adam28a's self-play with a side three or more checkers back (as
# training/rollout-backgame-a28a.sh samples them, other games: seed 30), a random roll and the
# positions after its five best plays at 0-ply, each labelled by a cubeless 72-game
# quasi-random-dice rollout with adam28a (bearoff databases at the end). Resumable.
# Usage: training/rollout-backgamecand-a28a.sh   (THREADS, default 1; CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/rollout-backgamecand-a28a
exec "$CLI" train label --nets training/adam28a --source candidates --class crashed \
    --back-checkers 3 --rollout 72 --probe 1 --threshold 0 --chunks 1000 \
    --chunk-positions 1000 --seed 30 --threads "${THREADS:-1}" \
    --dir training/rollout-backgamecand-a28a
