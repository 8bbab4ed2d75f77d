#!/bin/bash
# Round adam32 (docs/TRAINING.md): round adam23's contact fine-tune (adam22c's contact net,
# EPOCHS of Adam at α ALPHA on a cosine schedule, squared error, contact examples only) on every
# chunk of the contact rollout sets in SETS (72-game cubeless rollouts), then its own pruning
# contact net (PRUNE=0 skips it and keeps adam31r's), with adam31r's crashed and race nets.
# Round adam32's candidate adam32b: the default SETS, all 271 chunks of round adam23's two sets.
# As the long job's sets by adam31r grow: SETS="rollout-contact-a22c rollout-contactcand-a22c
# rollout-contact-a31r rollout-contactcand-a31r". A set named SET:N takes its first N chunks
# only, so that a round reruns as recorded while the long job adds chunks.
# BASE (default training/adam22c) is the net fine-tuned: round adam33's wider contact net is
# BASE=training/adam21x (384 hidden units).
# Usage: training/adam32.sh [OUT]   (default training/adam32; SETS; BASE; EPOCHS, default 3;
#   ALPHA, default 0.0003; PRUNE; THREADS; CLI)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-training/adam32}
CLI=${CLI:-training/bin/cubeful-cli}
SETS=${SETS:-rollout-contact-a22c rollout-contactcand-a22c}
WORK=$(mktemp -d training/.adam32.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir "$WORK/rollouts" "$WORK/nets"
for spec in $SETS; do
    set=${spec%%:*}
    if [ "$spec" = "$set" ]; then
        files=(training/"$set"/chunk-*.bin)
    else  # SET:N, as training/adam24.sh's EXTRA: chunks 0 to N - 1, each of them labelled
        files=()
        for i in $(seq 0 $((${spec#*:} - 1))); do files+=(training/"$set"/$(printf 'chunk-%05d.bin' "$i")); done
    fi
    for f in "${files[@]}"; do
        [ -f "$f" ] || { echo "adam32: $f is not labelled yet"; exit 1; }
        ln "$f" "$WORK/rollouts/$set-$(basename "$f")"
    done
done
echo "adam32: $(ls "$WORK/rollouts" | wc -l) chunks of $SETS"
CLI=$CLI PRUNE=0 EPOCHS=${EPOCHS:-3} ALPHA=${ALPHA:-0.0003} \
    training/fine-tune.sh contact "${BASE:-training/adam22c}" "$WORK/rollouts" "$WORK/nets"
CLI=$CLI training/assemble-contact.sh "$WORK/nets" "$OUT"
