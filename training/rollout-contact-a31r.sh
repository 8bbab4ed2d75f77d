#!/bin/bash
# Round adam32 (docs/TRAINING.md): more contact rollouts, by the committed nets. Round adam23's
# two sets (training/rollout-contact-a22c, rollout-contactcand-a22c: 72-game quasi-random-dice
# cubeless rollouts, 1,000 positions a chunk) played by adam22c; these are played by adam31r
# (adam23a's contact net): contact positions of its self-play (10% exploring plays, seed 32)
# into training/rollout-contact-a31r, and the positions after the five best plays of a random
# roll in such positions (seed 33) into training/rollout-contactcand-a31r, a chunk of each in
# turn so that both grow together. Why: on training/rollout-contact-test, round adam23's
# fine-tune on all 271 chunks of the old sets is nearer the rollouts at 0, 1 and 2 plies than on
# the first 120 (0.0458 / 0.0392 / 0.0351 against 0.0467 / 0.0399 / 0.0358), while longer
# training on them overfits their noise: the contact net wants more rollouts. About 13 positions
# a second on one thread. Resumable (chunks written are skipped).
# Usage: training/rollout-contact-a31r.sh   (CHUNKS, default 1000 of each; THREADS, default 1; CLI)
set -euo pipefail
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
for n in $(seq 1 "${CHUNKS:-1000}"); do
    for source in self-play candidates; do
        if [ $source = self-play ]; then dir=rollout-contact-a31r seed=32; else dir=rollout-contactcand-a31r seed=33; fi
        mkdir -p training/$dir
        "$CLI" train label --nets training/adam31r --source $source --class contact \
            --rollout 72 --probe 1 --threshold 0 --chunks "$n" --chunk-positions 1000 \
            --seed $seed --threads "${THREADS:-1}" --dir training/$dir
    done
done
