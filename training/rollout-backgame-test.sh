#!/bin/sh
# Round adam29 (docs/TRAINING.md): the yardstick for back games: 1,000 crashed positions of
# adam28a's self-play with a side three or more checkers back (seed 78, other games than the
# training sets' seeds 29 and 30), each labelled by a cubeless 1296-game quasi-random-dice
# rollout with adam28a (bearoff databases at the end). Held out of every training set.
# Usage: training/rollout-backgame-test.sh   (THREADS, default 1; CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/rollout-backgame-test
exec "$CLI" train label --nets training/adam28a --source self-play --class crashed \
    --back-checkers 3 --rollout 1296 --probe 1 --threshold 0 --chunks 2 \
    --chunk-positions 500 --seed 78 --threads "${THREADS:-1}" --dir training/rollout-backgame-test
