#!/bin/sh
# Round adam29 (docs/TRAINING.md): crashed positions of adam28a's self-play (10% exploring
# plays) where a side has at least three checkers back (on the bar or in the other side's home
# board: back games and ace-point games), each labelled by a cubeless 72-game quasi-random-dice
# rollout with adam28a (0-ply play, bearoff databases at the end). Why: in the games against GNU
# Backgammon the whole crashed gap is in such positions (about 90 moves of 800 games with three
# or four of the mover's checkers back), plain crashed self-play holds few of them, and on
# crashed positions rollouts moved the net where its own 2-ply did not (rounds adam22, adam27).
# Resumable (chunks written are skipped).
# Usage: training/rollout-backgame-a28a.sh   (THREADS, default 1; CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/rollout-backgame-a28a
exec "$CLI" train label --nets training/adam28a --source self-play --class crashed \
    --back-checkers 3 --rollout 72 --probe 1 --threshold 0 --chunks 1000 \
    --chunk-positions 1000 --seed 29 --threads "${THREADS:-1}" --dir training/rollout-backgame-a28a
