#!/bin/sh
# Round adam24 (docs/TRAINING.md): race positions of adam22c's self-play (10% exploring plays;
# the race net's class, pure bearoffs included), each labelled by a cubeless 72-game
# quasi-random-dice rollout with adam22c (0-ply play, bearoff databases at the end), every
# position kept: targets for the race net as round adam22's crashed rollouts were for the
# crashed net. Why: GNU Backgammon's 2-ply analysis of the external runs charges our race
# plays 1.2 mEMG a move against 0.3 for gnubg's 0-ply (adam22c's run, 800 games), much of it in
# gammon-saving races, and the race net was trained on 2-ply targets alone. Races are cheap to
# roll out (a few hundred positions a second a thread). Resumable (chunks written are skipped).
# Usage: training/rollout-race-a22c.sh   (THREADS, default 1; CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/rollout-race-a22c
exec "$CLI" train label --nets training/adam22c --source self-play --class race \
    --rollout 72 --probe 1 --threshold 0 --chunks 200 --chunk-positions 2000 --seed 25 \
    --threads "${THREADS:-1}" --dir training/rollout-race-a22c
