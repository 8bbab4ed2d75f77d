#!/usr/bin/env bash
# Stage 3 of docs/TRAINING.md: one round of supervised training with Adam and the cross-entropy
# loss on the 2-ply chances written by `train label` (training/label2p by default), then the
# decision benchmark before and after and a duel against the starting nets.
#   training/stage3.sh OUT [START] [EPOCHS]
# Environment: CLI (default target/release/cubeful-cli), DATA (default training/label2p; several
# folders separated by spaces are all read),
# THREADS (default 1), NICE (default 15), ALPHA (0.003), BATCH (64), GAMES (2000), REFERENCE (the
# nets that judge the decision benchmark: training/adam2, the fixed yardstick since round adam3),
# HIDDEN (widen the starting contact and crashed nets to this many hidden units first).
set -euo pipefail
cd "$(dirname "$0")/.."
CLI=${CLI:-target/release/cubeful-cli}
DATA=${DATA:-training/label2p}
THREADS=${THREADS:-1}
NICE=${NICE:-15}
ALPHA=${ALPHA:-0.003}
BATCH=${BATCH:-64}
GAMES=${GAMES:-2000}
REFERENCE=${REFERENCE:-training/adam2}
OUT=${1:?usage: training/stage3.sh OUT [START] [EPOCHS]}
START=${2:-training/sup3}
EPOCHS=${3:-40}
run() { nice -n "$NICE" "$CLI" "$@"; }
mkdir -p "$OUT"
echo "== decision benchmark of $START ($(date -u +%H:%M:%S))"
run bench decisions --nets "$START" --reference-nets "$REFERENCE" --threads "$THREADS"
echo "== adam on $DATA from $START ($(date -u +%H:%M:%S))"
DATA_ARGS=()
for dir in $DATA; do DATA_ARGS+=(--data-dir "$dir"); done
[ -n "${HIDDEN:-}" ] && DATA_ARGS+=(--hidden "$HIDDEN")
run train supervised --optimizer adam --loss ce --nets "$START" "${DATA_ARGS[@]}" --out "$OUT" \
    --epochs "$EPOCHS" --batch "$BATCH" --alpha "$ALPHA" --schedule cosine --select loss \
    --seed 1 --threads "$THREADS"
echo "== decision benchmark of $OUT ($(date -u +%H:%M:%S))"
run bench decisions --nets "$OUT" --reference-nets "$REFERENCE" --threads "$THREADS"
echo "== duel against $START ($(date -u +%H:%M:%S))"
run duel --a "cubeful:nets=$OUT" --b "cubeful:nets=$START" --games "$GAMES" --threads "$THREADS"
echo "== done ($(date -u +%H:%M:%S))"
