#!/bin/sh
# Round adam31 (docs/TRAINING.md): a precise yardstick for contact positions, as
# training/rollout-race-precise and rollout-crashed-test are for races and crashed ones:
# 1,000 contact positions of adam30r's self-play (10% exploring plays, seed 80, other games than
# every training set's), each labelled by a cubeless 1296-game quasi-random-dice rollout with
# adam30r (bearoff databases at the end). Held out of every training set. Resumable (chunks
# written are skipped).
# SECOND=1 (round adam32) rolls the same positions out again with another seed (81) into
# training/rollout-contact-test2: two independent rollouts of each position let `train compare
# --second-reference` take the rollouts' own noise out of an evaluator's error.
# Usage: training/rollout-contact-test.sh   (SECOND; THREADS, default 1; CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
if [ "${SECOND:-0}" = 1 ]; then
    mkdir -p training/rollout-contact-test2
    exec "$CLI" train label --nets training/adam30r --from training/rollout-contact-test \
        --rollout 1296 --probe 1 --threshold 0 --chunks 4 --seed 81 \
        --threads "${THREADS:-1}" --dir training/rollout-contact-test2
fi
mkdir -p training/rollout-contact-test
exec "$CLI" train label --nets training/adam30r --source self-play --class contact \
    --rollout 1296 --probe 1 --threshold 0 --chunks 4 \
    --chunk-positions 250 --seed 80 --threads "${THREADS:-1}" --dir training/rollout-contact-test
