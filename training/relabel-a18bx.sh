#!/bin/sh
# Round adam20 (docs/TRAINING.md): every 2-ply set of training/adam9.sh labelled again by
# adam18bx's pruned 2-ply, into training/relabel-a18bx/SET (the name adam9.sh's BLEND_DIR
# looks for). Why: 2.5 million of the contact targets are still the 2-ply of adam6, adam2 and
# adam4, and on the rollout-labelled self-play positions (rollout-selfplay-u1, 16,800)
# adam18bx's 2-ply is 0.0666 of equity from the rollouts (RMSE, mean -0.001) where the targets
# trained on today (the old 2-ply mixed half and half with adam17wx's 1-ply) are 0.0719.
# The sets that teach the contact net come first (so that training/adam20.sh can make its
# contact net before the crashed and race sets are done); deterministic and resumable (chunks
# already written are skipped). About 210 positions a second per thread.
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
OUT=training/relabel-a18bx
SETS="label2p-r3 label2p-r2 label2p label2p-candidates-a6 label2p-candidates-a10
    label2p-contactcand-a11k label2p-contactcand-a12x label2p-early-a13x
    label2p-crashed-a6 label2p-crashed-a10 label2p-crashcand-a11c label2p-crashcand-a12x
    label2p-racecand-a10r"
for set in $SETS; do
    mkdir -p "$OUT/$set"
    "$CLI" train label --nets training/adam18bx --from "training/$set" --dir "$OUT/$set" \
        --plies 2 --prune --chunks 100000 --threads "${THREADS:-1}"
done
