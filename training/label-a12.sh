#!/bin/sh
# Round adam13's new data (docs/TRAINING.md, round adam12): crashed candidate positions (the
# results of the five best 0-ply plays of a random roll in crashed positions of adam12x's
# self-play, the rejected plays included), labelled by adam12x's pruned cubeless 2-ply with the
# bearoff databases; then more contact candidates by the same teacher. Resumable: chunks
# already written are skipped.
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/label2p-crashcand-a12x training/label2p-contactcand-a12x
$CLI train label --nets training/adam12x --source candidates --class crashed --dir training/label2p-crashcand-a12x \
    --chunks 60 --chunk-positions 5000 --plies 2 --prune --seed 101 --threads "${THREADS:-2}"
$CLI train label --nets training/adam12x --source candidates --class contact --dir training/label2p-contactcand-a12x \
    --chunks 200 --chunk-positions 5000 --plies 2 --prune --seed 111 --threads "${THREADS:-2}"
