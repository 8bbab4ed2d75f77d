#!/bin/sh
# Round adam11's new data (docs/TRAINING.md): a million positions from adam10's self-play (one
# move in ten among the five best), labelled by adam10's pruned cubeless 2-ply. Resumable:
# chunks already written are skipped.
set -e
cd "$(dirname "$0")/.."
mkdir -p training/label2p-r4
training/bin/cubeful-cli train label --nets training/adam10 --dir training/label2p-r4 \
    --chunks 200 --chunk-positions 5000 --plies 2 --prune --seed 41 --threads "${THREADS:-2}"
