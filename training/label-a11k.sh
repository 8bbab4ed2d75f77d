#!/bin/sh
# Round adam12's new data (docs/TRAINING.md): contact candidate positions (the results of the
# five best 0-ply plays of a random roll in contact positions of adam11k's self-play, the
# rejected plays included), labelled by adam11k's pruned cubeless 2-ply with the bearoff
# databases. Candidates labelled by the current nets are the lever that has kept paying
# (rounds adam9 to adam11). Resumable: chunks already written are skipped.
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/label2p-contactcand-a11k
$CLI train label --nets training/adam11k --source candidates --class contact --dir training/label2p-contactcand-a11k \
    --chunks 200 --chunk-positions 5000 --plies 2 --prune --seed 91 --threads "${THREADS:-2}"
