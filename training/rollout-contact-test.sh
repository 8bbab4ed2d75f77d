#!/bin/sh
# Round adam31 (docs/TRAINING.md): a precise yardstick for contact positions, as
# training/rollout-race-precise and rollout-crashed-test are for races and crashed ones:
# 1,000 contact positions of adam30r's self-play (10% exploring plays, seed 80, other games than
# every training set's), each labelled by a cubeless 1296-game variance-reduced rollout with
# adam30r (bearoff databases at the end). Held out of every training set. Resumable (chunks
# written are skipped).
# Usage: training/rollout-contact-test.sh   (THREADS, default 1; CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/rollout-contact-test
exec "$CLI" train label --nets training/adam30r --source self-play --class contact \
    --rollout 1296 --probe 1 --threshold 0 --chunks 4 \
    --chunk-positions 250 --seed 80 --threads "${THREADS:-1}" --dir training/rollout-contact-test
