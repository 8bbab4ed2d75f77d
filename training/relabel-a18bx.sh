#!/bin/sh
# Round adam20 (docs/TRAINING.md): every 2-ply set of training/adam9.sh labelled again by
# adam18bx's pruned 2-ply, into training/relabel-a18bx/SET (the name adam9.sh's BLEND_DIR
# looks for). Why: 60% of the contact targets still come from adam6's 2-ply, and on the
# rollout-labelled self-play positions (rollout-selfplay-u1, 16,800) adam18bx's 2-ply is 0.0666
# of equity from the rollouts (RMSE, mean -0.001) where the targets trained on today (adam6's
# 2-ply mixed half and half with adam17wx's 1-ply) are 0.0719 (+0.002) and adam6's 2-ply alone
# 0.0761 (-0.006). Sets in order of their teacher's weakness; deterministic and resumable
# (chunks already written are skipped). About 230 positions a second per thread.
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
OUT=training/relabel-a18bx
SETS="label2p-r3 label2p-r2 label2p label2p-candidates-a6 label2p-crashed-a6
    label2p-candidates-a10 label2p-crashed-a10 label2p-contactcand-a11k label2p-crashcand-a11c
    label2p-contactcand-a12x label2p-crashcand-a12x label2p-early-a13x label2p-racecand-a10r"
for set in $SETS; do
    mkdir -p "$OUT/$set"
    "$CLI" train label --nets training/adam18bx --from "training/$set" --dir "$OUT/$set" \
        --plies 2 --prune --chunks 100000 --threads "${THREADS:-1}"
done
