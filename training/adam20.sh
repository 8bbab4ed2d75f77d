#!/bin/sh
# Round adam20 (docs/TRAINING.md): adam19's recipe with every 2-ply target from adam18bx's
# pruned 2-ply (training/relabel-a18bx.sh) instead of the old teachers' 2-ply mixed with
# adam17wx's 1-ply: squared error, the candidates ×4, the 2-ply examples adam5's 0-ply misjudges
# by 0.03 or more ×3, the rollout labels where adam16ex misjudges ×6, a 256-unit contact net.
# Refuses to start before every set is labelled again (adam9.sh would take a half-done folder).
# Usage: training/adam20.sh [OUT]   (default training/adam20)
set -e
cd "$(dirname "$0")/.."
for dir in training/relabel-a18bx/*/; do
    set=$(basename "$dir")
    have=$(ls "$dir" | grep -c '^chunk-.*\.bin$' || true)
    want=$(ls "training/$set" | grep -c '^chunk-.*\.bin$')
    [ "$have" = "$want" ] || { echo "adam20: $set: $have of $want chunks labelled again; run training/relabel-a18bx.sh first"; exit 1; }
done
[ "$(ls training/relabel-a18bx | wc -l)" = 13 ] || { echo "adam20: training/relabel-a18bx.sh has not reached every set"; exit 1; }
LOSS=mse HARD=0.03 HARD_REPEAT=3 CANDIDATES=4 BLEND_DIR=training/relabel-a18bx \
MORE_DATA=training/label2p-crashed-a10 \
MORE_CANDIDATES="training/label2p-candidates-a10 training/label2p-racecand-a10r training/label2p-crashcand-a11c training/label2p-contactcand-a11k training/label2p-crashcand-a12x training/label2p-contactcand-a12x training/label2p-early-a13x training/rollout-early-t10-a16ex" \
ROLLOUT_DATA=training/rollout-miss-a16ex \
EXTRA="--race-loss ce --hidden 256 --hidden-crashed 192" \
    exec training/adam9.sh "${1:-training/adam20}" training/adam5 16 0.0007
