#!/bin/bash
# Round adam23 (docs/TRAINING.md): adam22c's contact net fine-tuned on contact rollouts alone
# (as round adam22's crashed net): the first CHUNKS chunks of training/rollout-contact-a22c
# (positions of adam22c's self-play) and of training/rollout-contactcand-a22c (the positions
# after the five best plays of a roll), 72-game cubeless rollouts with adam22c; contact
# examples only. EPOCHS (default 3) of Adam, α ALPHA (default 0.0003) with a cosine schedule,
# squared error; then a pruning contact net distilled from it (train prune; PRUNE=0 skips it
# and keeps adam22c's), with adam22c's crashed and race nets.
# Usage: training/adam23.sh [OUT]   (default training/adam23; CHUNKS, default 100;
# CAND_CHUNKS, the chunks of the candidates' set, default CHUNKS; EPOCHS; ALPHA; THREADS; CLI)
set -e
cd "$(dirname "$0")/.."
OUT=${1:-training/adam23}
CLI=${CLI:-training/bin/cubeful-cli}
CHUNKS=${CHUNKS:-100}
WORK=$(mktemp -d training/.adam23.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir "$WORK/rollouts" "$WORK/nets"
for set in rollout-contact-a22c rollout-contactcand-a22c; do
    n=$CHUNKS
    [ "$set" = rollout-contactcand-a22c ] && n=${CAND_CHUNKS:-$CHUNKS}
    for i in $(seq 0 $((n - 1))); do
        f=training/$set/$(printf 'chunk-%05d.bin' "$i")
        [ -f "$f" ] || { echo "adam23: $f is not labelled yet"; exit 1; }
        ln "$f" "$WORK/rollouts/$set-$(basename "$f")"
    done
done
CLI=$CLI training/fine-tune.sh contact training/adam22c "$WORK/rollouts" "$WORK/nets"
[ "${PRUNE:-1}" = 1 ] || cp training/adam22c/prune-contact.net "$WORK/nets/"
mkdir -p "$OUT"
cp training/adam22c/crashed.net training/adam22c/race.net training/adam22c/prune-crashed.net \
    training/adam22c/prune-race.net "$WORK/nets/contact.net" "$WORK/nets/prune-contact.net" "$OUT/"
