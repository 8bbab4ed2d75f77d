#!/bin/bash
# Round adam32 (docs/TRAINING.md): round adam23's contact fine-tune (adam22c's contact net,
# EPOCHS of Adam at α ALPHA on a cosine schedule, squared error, contact examples only) on every
# chunk of the contact rollout sets in SETS (72-game cubeless rollouts), then its own pruning
# contact net (PRUNE=0 skips it and keeps adam31r's), with adam31r's crashed and race nets.
# Round adam32's candidate adam32b: the default SETS, all 271 chunks of round adam23's two sets.
# As the long job's sets by adam31r grow: SETS="rollout-contact-a22c rollout-contactcand-a22c
# rollout-contact-a31r rollout-contactcand-a31r".
# Usage: training/adam32.sh [OUT]   (default training/adam32; SETS; EPOCHS, default 3; ALPHA,
#   default 0.0003; PRUNE; THREADS; CLI)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-training/adam32}
CLI=${CLI:-training/bin/cubeful-cli}
SETS=${SETS:-rollout-contact-a22c rollout-contactcand-a22c}
WORK=$(mktemp -d training/.adam32.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir "$WORK/rollouts" "$WORK/nets"
for set in $SETS; do
    for f in training/"$set"/chunk-*.bin; do
        ln "$f" "$WORK/rollouts/$set-$(basename "$f")"
    done
done
echo "adam32: $(ls "$WORK/rollouts" | wc -l) chunks of $SETS"
CLI=$CLI PRUNE=0 EPOCHS=${EPOCHS:-3} ALPHA=${ALPHA:-0.0003} \
    training/fine-tune.sh contact training/adam22c "$WORK/rollouts" "$WORK/nets"
for n in crashed race; do cp training/adam31r/$n.net "$WORK/nets/"; done  # for train prune
if [ "${PRUNE:-1}" = 1 ]; then
    "$CLI" train prune --nets "$WORK/nets" --data-dir training/label2p --out "$WORK/pruned" \
        --threads "${THREADS:-1}" > "$WORK/prune.log"
    cp "$WORK/pruned/prune-contact.net" "$WORK/nets/"
else
    cp training/adam31r/prune-contact.net "$WORK/nets/"
fi
mkdir -p "$OUT"
cp training/adam31r/crashed.net training/adam31r/race.net training/adam31r/prune-crashed.net \
    training/adam31r/prune-race.net "$WORK/nets/contact.net" "$WORK/nets/prune-contact.net" "$OUT/"
