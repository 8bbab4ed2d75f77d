#!/bin/sh
# Round adam19 (docs/TRAINING.md): adam18b's recipe (half 1-ply, half 2-ply targets by
# adam17wx, training/blend-a17wx.sh) with every rollout label where adam16ex misjudges that
# the labelling job (training/label-miss.sh) has written when the run starts, ×6; as adam10's
# and every later round: squared error, the candidates ×4, the 2-ply examples adam5's 0-ply
# misjudges by 0.03 or more ×3.
# Usage: training/adam19.sh [OUT]   (default training/adam19)
set -e
cd "$(dirname "$0")/.."
LOSS=mse HARD=0.03 HARD_REPEAT=3 CANDIDATES=4 BLEND_DIR=training/blend-a17wx \
MORE_DATA=training/label2p-crashed-a10 \
MORE_CANDIDATES="training/label2p-candidates-a10 training/label2p-racecand-a10r training/label2p-crashcand-a11c training/label2p-contactcand-a11k training/label2p-crashcand-a12x training/label2p-contactcand-a12x training/label2p-early-a13x training/rollout-early-t10-a16ex" \
ROLLOUT_DATA=training/rollout-miss-a16ex \
EXTRA="--race-loss ce --hidden 256 --hidden-crashed 192" \
    exec training/adam9.sh "${1:-training/adam19}" training/adam5 16 0.0007
