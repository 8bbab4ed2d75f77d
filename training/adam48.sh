#!/bin/bash
# Round adam48 (docs/TRAINING.md): round adam47's run (adam46d, EPOCHS more epochs of the contact
# net on the mix of adam41w's 2-ply labels) with the long job's 3-ply labels as extra data: the
# 105,722 examples of training/label3-hard-a46w (adam46w's pruned 3-ply where its 0-ply is 0.05 or
# more from adam41w's 2-ply), REPEAT times each (default 6, the weight of the rollout labels).
# Their files are hard-linked under names of their own (chunk-SET-N.bin: every set of the long
# job has a chunk-00000.bin) into one folder that training/adam20.sh takes as MORE_ROLLOUTS.
# The mix must be built first (training/relabel-mix.sh training/relabel2-a41w
# training/relabel2-a37a training/relabel2c-a39c training/relabel-mix).
# Usage: training/adam48.sh [OUT]   (default training/adam48d; START, default training/adam46d;
#   EPOCHS, default 4; ALPHA, default 0.0002; REPEAT; THREADS; CLI)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-training/adam48d}
WORK=$(mktemp -d training/.adam48.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir "$WORK/label3-hard-a46w"
for dir in training/label3-hard-a46w/*/; do
    set=$(basename "$dir")
    for f in "$dir"chunk-*.bin; do
        ln "$f" "$WORK/label3-hard-a46w/chunk-$set-$(basename "$f" .bin | sed 's/^chunk-//').bin"
    done
done
echo "adam48: $(ls "$WORK/label3-hard-a46w" | wc -l) files of 3-ply labels, each ${REPEAT:-6} times"
RELABEL=training/relabel-mix START=${START:-training/adam46d} EPOCHS=${EPOCHS:-4} \
ALPHA=${ALPHA:-0.0002} HIDDEN=384 SECOND=64 CLASSES=contact PRUNE=0 \
MORE_ROLLOUTS="$WORK/label3-hard-a46w" ROLLOUT_REPEAT=${REPEAT:-6} \
    training/adam20.sh "$OUT"
