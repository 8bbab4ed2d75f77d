#!/bin/sh
# Crashed candidate positions (docs/TRAINING.md, round adam11): the results of the five best 0-ply
# plays of a random roll in crashed positions of adam11c's self-play, labelled by adam11c's
# pruned cubeless 2-ply (with the bearoff databases, so race backgammons are exact at the
# leaves). Resumable: chunks already written are skipped.
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/label2p-crashcand-a11c
$CLI train label --nets training/adam11c --source candidates --class crashed --dir training/label2p-crashcand-a11c \
    --chunks 60 --chunk-positions 5000 --plies 2 --prune --seed 81 --threads "${THREADS:-1}"
