#!/bin/bash
# The long job from 2026-12-07 00:05 to 09:10 UTC, stopped in round adam52 (docs/TRAINING.md:
# fine-tunes on such labels do not carry beyond their games; "The next long job"): gnubg's
# rollouts find our 2-ply no better than gnubg's in the early game (280 pips or more) though
# ahead everywhere else, so the early game is where our 2-ply teacher is weakest and rollouts
# should teach instead. Positions of the first ten plays of each side of adam46p's self-play
# (20% exploring plays, seed 461) into training/rollout-early-vr-a46p, and the positions after
# the five best plays of a random roll in such positions (seed 462) into
# training/rollout-earlycand-vr-a46p, a chunk of each in turn, labelled with 72-game cubeless
# variance-reduced rollouts by adam46p (`--vr`: about 0.011 of equity from the truth; every
# position kept: --threshold 0). For the contact net's training as rollout data (adam20.sh's
# MORE_ROLLOUTS), or the fine-tune's SETS. About 15 minutes a chunk of 1,000 positions per
# thread. Resumable (chunks written are skipped). Its first run (2026-12-06, 5 + 2 chunks in
# training/rollout-early-a46p and rollout-earlycand-a46p) played plain games, 0.12–0.13 from
# the truth: PLAIN=1 makes more of those.
# Usage: training/rollout-early-a46p.sh   (CHUNKS, default 200 of each; THREADS, default 1; CLI)
set -euo pipefail
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
for n in $(seq 1 "${CHUNKS:-200}"); do
    for source in self-play candidates; do
        if [ $source = self-play ]; then dir=rollout-early seed=461; else dir=rollout-earlycand seed=462; fi
        if [ "${PLAIN:-0}" = 1 ]; then dir=$dir-a46p vr=; else dir=$dir-vr-a46p vr=--vr; fi
        mkdir -p training/$dir
        "$CLI" train label --nets training/adam46p --source $source --first-plays 10 --explore 0.2 \
            --rollout 72 --probe 1 --threshold 0 --chunks "$n" --chunk-positions 1000 \
            --seed $seed --threads "${THREADS:-1}" --dir training/$dir $vr
    done
done
