#!/bin/sh
# A low-noise yardstick for race nets (docs/TRAINING.md, round adam25): the 4,000 positions of
# training/rollout-race-a22c's chunks 198 and 199 (held out of every race fine-tune, which
# takes at most the first 190), labelled again by cubeless 1296-game quasi-random-dice rollouts
# with adam24a (bearoff databases at the end) into training/rollout-race-precise. A 72-game
# label is 0.0169 in equity from these outside pure bearoffs. About 2 minutes a chunk on one
# thread. Compare nets with `tools/nets-vs-rollouts.sh NETS training/rollout-race-precise` (the
# `race` column: races that are not pure bearoffs).
# Usage: training/rollout-race-precise.sh   (THREADS, default 1; CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
SRC=$(mktemp -d training/.precise.XXXXXX)
trap 'rm -rf "$SRC"' EXIT
for i in 198 199; do ln training/rollout-race-a22c/chunk-00$i.bin "$SRC/"; done
mkdir -p training/rollout-race-precise
"$CLI" train label --nets training/adam24a --from "$SRC" --rollout 1296 --probe 1 \
    --threshold 0 --seed 99 --threads "${THREADS:-1}" --dir training/rollout-race-precise
