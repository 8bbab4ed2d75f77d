#!/bin/sh
# A low-noise yardstick for race nets in close races (docs/TRAINING.md, round adam28): the
# precise set (training/rollout-race-precise.sh) holds only 175 races within 8 pips, where the
# race nets err most. 4,000 races (not pure bearoffs) of adam27a's self-play whose pip counts are
# at most 8 apart (`--close-races 8`, seed 77: other games than the close races trained on, seed
# 40), labelled by cubeless 1296-game quasi-random-dice rollouts with adam24a (bearoff databases at
# the end), as the precise set. Compare nets with `BY_LEAD=1 tools/nets-vs-rollouts.sh NETS
# training/rollout-closerace-precise`.
# Usage: training/rollout-closerace-precise.sh   (THREADS, default 1; CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
SRC=$(mktemp -d training/.closeprecise.XXXXXX)
trap 'rm -rf "$SRC"' EXIT
"$CLI" train label --nets training/adam27a --source self-play --class race --close-races 8 \
    --plies 0 --chunks 2 --chunk-positions 2000 --seed 77 --threads "${THREADS:-1}" --dir "$SRC"
mkdir -p training/rollout-closerace-precise
"$CLI" train label --nets training/adam24a --from "$SRC" --rollout 1296 --probe 1 \
    --threshold 0 --seed 99 --threads "${THREADS:-1}" --dir training/rollout-closerace-precise
