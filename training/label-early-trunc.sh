#!/bin/sh
# Early-game candidates with truncated rollout labels (docs/TRAINING.md, round adam17): the
# positions after the five best 0-ply plays of a random roll in positions of the first ten plays
# of each side of adam16ex's self-play (exploration 0.2), each rolled out 216 times by adam16ex's
# pruned 0-ply for ten plies and judged there by its 0-ply. Resumable: chunks already written are
# skipped.
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/rollout-early-t10-a16ex
$CLI train label --nets training/adam16ex --source candidates --first-plays 10 --explore 0.2 \
    --dir training/rollout-early-t10-a16ex --chunks 100 --chunk-positions 2000 --rollout 216 \
    --probe 216 --threshold 0 --truncate 10 --seed 131 --threads "${THREADS:-1}"
