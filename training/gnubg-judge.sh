#!/bin/sh
# The long job since 2026-12-06 (docs/TRAINING.md, round adam48): GNU Backgammon's own cubeless
# rollouts of the 1,000 positions of the contact yardstick (training/rollout-contact-test), 144
# variance-reduced games each, twice (seeds 1 and 2, so that tools/crossed-by-group.py and
# `train compare --second-reference` can take their noise out), into
# training/gnubg-judge/rollout-contact-test-s1 and -s2: a judge that does not share our nets'
# view. A yardstick only: never train on these files. One gnubg thread per seed, about 5 s a
# position, so some 85 minutes of two threads; resumable (tools/gnubg-rollout-set.py keeps each
# chunk's finished positions) and committed as it goes.
# Usage: training/gnubg-judge.sh   (nice it; GNUBG)
cd "$(dirname "$0")/.."
for seed in 1 2; do
    SEED=$seed python3 tools/gnubg-rollout-set.py training/rollout-contact-test \
        training/gnubg-judge/rollout-contact-test-s$seed > training/gnubg-judge-s$seed.log 2>&1 &
done
wait
