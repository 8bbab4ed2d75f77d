#!/bin/bash
# Round adam38 (docs/TRAINING.md): round adam22's crashed fine-tune (3 epochs of Adam, α 0.0003,
# cosine, squared error, on the first 400 chunks of training/rollout-crashed-a20x: 400,000
# crashed positions, 72-game rollouts) given to BASE's crashed net, then its own pruning crashed
# net; the contact and race nets (and their pruning nets) are NETS'. BASE by default is
# training/adam38cd: adam37a's crashed net (adam22c's) trained again on the crashed sets
# labelled by adam37a's pruned 1-ply (see docs/TRAINING.md for the commands).
# Usage: training/adam38c.sh [OUT]   (default training/adam38c; BASE; NETS, default
#   training/adam37a; THREADS; CLI)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-training/adam38c}
BASE=${BASE:-training/adam38cd}
NETS=${NETS:-training/adam37a}
CLI=${CLI:-training/bin/cubeful-cli}
WORK=$(mktemp -d training/.adam38c.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir "$WORK/rollouts" "$WORK/nets"
for i in $(seq 0 399); do ln "training/rollout-crashed-a20x/$(printf 'chunk-%05d.bin' "$i")" "$WORK/rollouts/"; done
EPOCHS=3 ALPHA=0.0003 PRUNE=1 CLI=$CLI training/fine-tune.sh crashed "$BASE" "$WORK/rollouts" "$WORK/nets"
mkdir -p "$OUT"
cp "$NETS"/contact.net "$NETS"/race.net "$NETS"/prune-contact.net "$NETS"/prune-race.net \
    "$WORK/nets/crashed.net" "$WORK/nets/prune-crashed.net" "$OUT/"
