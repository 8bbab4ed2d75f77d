#!/bin/sh
# Early-game candidates (docs/TRAINING.md, round adam16): the positions after the five best 0-ply
# plays of a random roll in positions of the first ten plays of each side of adam13x's
# self-play (more exploration than usual: 0.2), labelled by adam13x's pruned cubeless 2-ply.
# Resumable: chunks already written are skipped.
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/label2p-early-a13x
$CLI train label --nets training/adam13x --source candidates --first-plays 10 --explore 0.2 \
    --dir training/label2p-early-a13x --chunks 40 --chunk-positions 5000 --plies 2 --prune \
    --seed 121 --threads "${THREADS:-2}"
