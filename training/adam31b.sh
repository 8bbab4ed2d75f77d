#!/bin/bash
# Round adam31 (docs/TRAINING.md): round adam23's contact fine-tune with targets blended half
# and half with adam30r's own 1-ply, to cancel the contact net's lean against the player on roll
# (its 0-ply and 1-ply means differ by 0.0098 on training/rollout-contact-test, gnubg's by
# 0.0009). The first CHUNKS (default 60) chunks of training/rollout-contact-a22c and of
# training/rollout-contactcand-a22c (72-game rollouts) are labelled again by adam30r at 1-ply
# with `--blend 0.5` (each target half the rollout, half the 1-ply), and adam22c's contact net
# is fine-tuned on them as adam23a's was (3 epochs, α 0.0003, cosine, squared error); then its
# own pruning contact net unless PRUNE=0. The other nets are adam31r's.
# Usage: training/adam31b.sh [OUT]   (default training/adam31b; CHUNKS; THREADS; PRUNE; CLI)
set -e
cd "$(dirname "$0")/.."
OUT=${1:-training/adam31b}
CLI=${CLI:-training/bin/cubeful-cli}
CHUNKS=${CHUNKS:-60}
WORK=$(mktemp -d training/.adam31b.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir "$WORK/data" "$WORK/nets"
for set in rollout-contact-a22c rollout-contactcand-a22c; do
    mkdir "$WORK/$set"
    "$CLI" train label --nets training/adam30r --from training/$set --plies 1 --blend 0.5 \
        --chunks "$CHUNKS" --dir "$WORK/$set" --threads "${THREADS:-1}" > /dev/null
    for f in "$WORK/$set"/chunk-*.bin; do ln "$f" "$WORK/data/$set-$(basename "$f")"; done
done
CLI=$CLI PRUNE=0 training/fine-tune.sh contact training/adam22c "$WORK/data" "$WORK/nets"
CLI=$CLI training/assemble-contact.sh "$WORK/nets" "$OUT"
