#!/bin/sh
# Round adam27 (docs/TRAINING.md): contact and crashed positions labelled again by adam26a's
# pruned 2-ply with the bearoff databases (its contact and crashed nets are adam23a's), into
# training/relabel-contact-a26a/SET. Why: on the rollout-labelled self-play positions
# (rollout-selfplay-u1, 144-game rollouts) that 2-ply is 0.0629 of equity from the rollouts in
# contact positions (RMSE) where its 0-ply is 0.0701, and 0.0587 in crashed ones where its 0-ply
# is 0.0682 (`PLIES=2 tools/nets-vs-rollouts.sh training/adam26a training/rollout-selfplay-u1`):
# a teacher well ahead of its student, as adam25a's 2-ply was of the race net in round adam26.
# First the positions of the contact and crashed rollout sets (so that the rollouts can sit
# beside the 2-ply targets), then round adam20's crashed candidates, then its self-play and
# contact candidate sets (the first trials found little to gain in contact, where the 2-ply is
# only 0.025 from the 0-ply; in crashed positions it is 0.0377 from 1,296-game rollouts against
# the 0-ply's 0.0460 on training/rollout-crashed-test). Deterministic and resumable (chunks already written are skipped). About 200
# contact positions a second a thread.
# Usage: training/relabel-contact-a26a.sh   (THREADS, default 1; CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
OUT=training/relabel-contact-a26a
for set in rollout-contact-a22c rollout-contactcand-a22c rollout-crashed-a20x \
    label2p-crashcand-a12x label2p-r3 label2p-contactcand-a12x; do
    mkdir -p "$OUT/$set"
    "$CLI" train label --nets training/adam26a --from "training/$set" --dir "$OUT/$set" \
        --plies 2 --prune --bearoff-leaves --chunks 100000 --threads "${THREADS:-1}"
done
