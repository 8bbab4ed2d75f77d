#!/bin/bash
# Round adam22 (docs/TRAINING.md): adam22c = adam20x with a crashed net fine-tuned on crashed
# rollouts. adam20b's crashed net (in training/adam20y), 3 epochs of Adam (α 0.0003, cosine,
# squared error) on the first 400 chunks of training/rollout-crashed-a20x (400,000 crashed
# positions of adam20x's self-play, 72-game rollouts) and nothing else; then a pruning crashed
# net distilled from it (train prune); adam20x's contact and race nets and their pruning nets.
# BASE (default training/adam20y) is the net whose crashed net is fine-tuned and NETS (default
# training/adam20x) gives the other nets: round adam38's training/adam38c.sh sets both.
# Usage: training/adam22c.sh [OUT]   (default training/adam22c; BASE; NETS; THREADS, CLI)
set -e
cd "$(dirname "$0")/.."
OUT=${1:-training/adam22c}
BASE=${BASE:-training/adam20y}
NETS=${NETS:-training/adam20x}
CLI=${CLI:-training/bin/cubeful-cli}
WORK=$(mktemp -d training/.adam22c.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir "$WORK/rollouts" "$WORK/nets"
for i in $(seq 0 399); do ln "training/rollout-crashed-a20x/$(printf 'chunk-%05d.bin' "$i")" "$WORK/rollouts/"; done
EPOCHS=3 ALPHA=0.0003 PRUNE=1 CLI=$CLI training/fine-tune.sh crashed "$BASE" \
    "$WORK/rollouts" "$WORK/nets"
mkdir -p "$OUT"
cp "$NETS"/contact.net "$NETS"/race.net "$NETS"/prune-contact.net \
    "$NETS"/prune-race.net "$WORK/nets/crashed.net" "$WORK/nets/prune-crashed.net" "$OUT/"
