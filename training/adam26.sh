#!/bin/bash
# Round adam26 (docs/TRAINING.md): BASE's race net (default training/adam25a) widened to 128
# hidden units and trained on 2-ply targets with the rollouts beside them: every race rollout
# set labelled again by adam25a's 2-ply (training/relabel-race-a25a, made by
# training/relabel-race-a25a.sh), the first L2P chunks (default 40, of 10,000) of new race
# positions of adam25a's self-play at 2-ply (training/label2p-race-a25a), and the rollout labels
# of the same sets as rounds adam24 and adam25 took them (190 chunks of rollout-race-a22c, the
# stacked races, 100 gammonish, 60 candidate chunks). EPOCHS (default 30) of Adam at α ALPHA
# (default 0.001), cosine, squared error (training/fine-tune.sh), then the pruning race net;
# BASE's other nets. ARGS adds arguments to train supervised (e.g. "--race-loss mse-equity").
# CLOSE (default 0; round adam28) adds the first CLOSE chunks of close races at adam27a's 2-ply
# (training/label2p-closerace-a27a). HIDDEN (default 128; round adam29) is the race net's width
# (BASE's is widened to it). CLOSE28 (default 0; round adam30) adds the first CLOSE28 chunks of
# close races at adam28a's 2-ply (training/label2p-closerace-a28a).
# Usage: training/adam26.sh [OUT]  (default training/adam26; BASE; L2P; CLOSE; CLOSE28; HIDDEN; EPOCHS; ALPHA;
# ARGS; PRUNE; THREADS; CLI)
set -e
cd "$(dirname "$0")/.."
OUT=${1:-training/adam26}
BASE=${BASE:-training/adam25a}
L2P=${L2P:-40}
WORK=$(mktemp -d training/.adam26.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir "$WORK/data" "$WORK/nets"
. training/round.sh
R=training/relabel-race-a25a
take $R/race-a22c 190 2p-race-a22c
take $R/gammonish-a24a 100 2p-gammonish
take $R/racecand-a24a 60 2p-racecand
take $R/races-r1 57 2p-races-r1
take $R/racehard-a25a 100 2p-racehard
take $R/racehard-gammonish-a25a 66 2p-racehard-gammonish
take training/label2p-race-a25a "$L2P" 2p-selfplay
take training/label2p-closerace-a27a "${CLOSE:-0}" 2p-closerace
take training/label2p-closerace-a28a "${CLOSE28:-0}" 2p-closerace28
take training/rollout-race-a22c 190 ro-race-a22c
take training/rollout-gammonish-a24a 100 ro-gammonish
take training/rollout-racecand-a24a 60 ro-racecand
take training/rollout-races-r1 57 ro-races-r1
EPOCHS=${EPOCHS:-30} ALPHA=${ALPHA:-0.001} ARGS="--hidden-race ${HIDDEN:-128} ${ARGS:-}" \
    training/fine-tune.sh race "$BASE" "$WORK/data" "$WORK/nets"
mkdir -p "$OUT"
for n in contact crashed prune-contact prune-crashed; do cp "$BASE/$n.net" "$OUT/"; done
keep_trained race
