#!/bin/sh
# Rollout labels where adam16ex is wrong (docs/TRAINING.md, round adam17): positions of
# adam16ex's self-play (exploration 0.1), each probed by a cubeless rollout of 72 games; those
# whose probe is at least 0.08 from the 0-ply equity are rolled out to 648 games and kept.
# Why: in the take and pass decisions our bot got wrong against GNU Backgammon, our own rollouts
# agree with gnubg's 2-ply and our 0-ply is off by 0.12 of equity (RMSE). Resumable: chunks
# already written are skipped.
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/rollout-miss-a16ex
$CLI train label --nets training/adam16ex --source self-play --explore 0.1 \
    --dir training/rollout-miss-a16ex --chunks 1000 --chunk-positions 200 --rollout 648 \
    --probe 72 --threshold 0.08 --seed 141 --threads "${THREADS:-1}"
