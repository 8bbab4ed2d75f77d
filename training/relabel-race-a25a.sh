#!/bin/sh
# Round adam26 (docs/TRAINING.md): the race rollout sets labelled again by adam25a's cubeless
# 2-ply, the bearoff databases judging pure bearoffs at the root and at the leaves
# (`train label --from SET --plies 2 --bearoff-leaves`). On training/rollout-race-precise (1,296
# games) that teacher is 0.0066 from the rollouts in equity outside pure bearoffs, where a 72-game
# rollout label is 0.0169 and adam25a's 0-ply 0.0134 (gnubg's 0-ply 0.0085): less noise for the
# race net to learn from, and as cheap (about 250 positions a second a thread). The first 190
# chunks of rollout-race-a22c only (198 and 199 are the precise set's positions).
# Resumable (chunks written are skipped). Usage: training/relabel-race-a25a.sh  (THREADS, CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
OUT=training/relabel-race-a25a
for spec in race-a22c:190 gammonish-a24a:100 racecand-a24a:60 races-r1:1000 \
    racehard-a25a:100 racehard-gammonish-a25a:1000; do
    set=${spec%:*} n=${spec##*:}
    mkdir -p "$OUT/$set"
    "$CLI" train label --nets training/adam25a --from "training/rollout-$set" --chunks "$n" \
        --plies 2 --bearoff-leaves --threads "${THREADS:-1}" --dir "$OUT/$set"
done
