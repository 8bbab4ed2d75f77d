#!/usr/bin/env bash
# The decision benchmark's 2,000 decisions (seeds 1 and 2, as docs/BENCHMARKS.md measures them)
# judged again, by 144-game variance-reduced rollouts of adam46p instead of adam6: a judge whose
# own play is as strong as the players it measures (round adam53 in docs/TRAINING.md says why).
# About 6.5 s a decision on one thread, some 3.6 hours of one core in all; resumable (bench
# decisions keeps a checkpoint, training/bench/*.partial, beside the set it builds, and starts
# from it), so run it niced and commit training/bench as it goes:
#
#   setsid nohup nice -n 19 training/judge-a46p.sh > /tmp/judge.log 2>&1 &
#
# At the end it prints the embedded nets' figures at 0 and 2 plies against the new judge.
set -euo pipefail
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
THREADS=${THREADS:-2}
bench() {
    "$CLI" bench decisions --positions 1000 --seed 1,2 --reference-rollout 144 \
        --reference-nets training/adam46p --bearoff --threads "$THREADS" "$@"
}
bench --plies 0
bench --plies 2
