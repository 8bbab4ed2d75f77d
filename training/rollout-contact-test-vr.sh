#!/bin/sh
# The contact yardstick's 1,000 positions (training/rollout-contact-test) rolled out again, twice,
# by 72-game cubeless variance-reduced rollouts of adam46p (seeds 5 and 6) into
# training/rollout-contact-test-vr/s5 and s6 (docs/TRAINING.md, "Where gnubg's judge still
# prefers gnubg"): one rollout is 0.0122 from the truth (the two seeds' spread), where one of
# the 1,296-game plain rollouts of the yardstick is 0.029, so `train compare --reference
# training/rollout-contact-test-vr/s5 --second-reference training/rollout-contact-test-vr/s6`
# reads an evaluator's distance from our rollouts with far less noise to take out. A yardstick:
# never train on it. About 8 minutes a seed on two threads. Resumable (chunks written are skipped).
# Usage: training/rollout-contact-test-vr.sh   (THREADS, default 2; CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
for seed in 5 6; do
    mkdir -p training/rollout-contact-test-vr/s$seed
    "$CLI" train label --nets training/adam46p --from training/rollout-contact-test \
        --rollout 72 --vr --probe 1 --threshold 0 --chunks 4 --seed $seed \
        --threads "${THREADS:-2}" --dir training/rollout-contact-test-vr/s$seed
done
