#!/bin/sh
# The long job since 2026-12-06 (docs/TRAINING.md, round adam47): 3-ply labels where the 0-ply
# and the 2-ply disagree most. From every chunk of the long job's contact sets at adam41w's pruned
# 2-ply (training/relabel2-a41w), the examples that adam46w's 0-ply judges at least MIN_ERROR
# (default 0.05, about 2% of them, some 115,000 positions) from their 2-ply target are picked
# (`train hard`, into training/hard2-a46w/SET, one file per chunk, same name), then labelled again
# by adam46w's pruned 3-ply (into training/label3-hard-a46w/SET, the layout training/adam20.sh's
# RELABEL and training/relabel-mix.sh read). The 3-ply is 0.0124 from the contact rollouts where
# the 2-ply is 0.0145 (round adam42), and it is where the two disagree that the 2-ply is least to
# be trusted. About 13 of these positions a second on two threads, so some two and a half hours
# on two idle threads; resumable (chunks written are skipped) and committed as it goes.
# Usage: training/label3-hard-a46w.sh   (THREADS, default 1; CLI; MIN_ERROR)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
NETS=training/adam46w
SETS="label2p-r3 label2p-r2 label2p label2p-candidates-a6 label2p-candidates-a10
    label2p-contactcand-a11k label2p-contactcand-a12x label2p-early-a13x"
for set in $SETS; do
    mkdir -p "training/hard2-a46w/$set" "training/label3-hard-a46w/$set"
    for chunk in training/relabel2-a41w/$set/chunk-*.bin; do
        hard=training/hard2-a46w/$set/$(basename "$chunk")
        [ -e "$hard" ] && continue
        "$CLI" train hard --nets "$NETS" --data "$chunk" --min-error "${MIN_ERROR:-0.05}" \
            --out "$hard.tmp" --threads "${THREADS:-1}" >/dev/null
        mv "$hard.tmp" "$hard"
    done
    "$CLI" train label --nets "$NETS" --from "training/hard2-a46w/$set" \
        --dir "training/label3-hard-a46w/$set" --plies 3 --prune --chunks 100000 \
        --threads "${THREADS:-1}"
done
