#!/bin/sh
# Round adam11's new data (docs/TRAINING.md), labelled by adam10's pruned cubeless 2-ply:
# 300,000 crashed positions from adam10's self-play (crashed is where our 0-ply trails gnubg's
# most), then a million candidate positions (the results of the five best 0-ply plays of a
# random roll in adam10's self-play: what a choice weighs), then a million self-play positions
# (one move in ten among the five best). Resumable: chunks already written are skipped.
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/label2p-crashed-a10 training/label2p-candidates-a10 training/label2p-r4
$CLI train label --nets training/adam10 --class crashed --dir training/label2p-crashed-a10 \
    --chunks 60 --chunk-positions 5000 --plies 2 --prune --seed 61 --threads "${THREADS:-2}"
$CLI train label --nets training/adam10 --source candidates --dir training/label2p-candidates-a10 \
    --chunks 200 --chunk-positions 5000 --plies 2 --prune --seed 51 --threads "${THREADS:-2}"
$CLI train label --nets training/adam10 --dir training/label2p-r4 \
    --chunks 200 --chunk-positions 5000 --plies 2 --prune --seed 41 --threads "${THREADS:-2}"
