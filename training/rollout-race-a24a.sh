#!/bin/sh
# Round adam25 (docs/TRAINING.md): race positions whose gammon is in doubt (the nets' 0-ply
# gammon chance, for either side, from 2% to 98%; `train label --gammonish`), from adam24a's
# self-play (10% exploring plays), each labelled by a cubeless 72-game quasi-random-dice rollout
# with adam24a (0-ply play, bearoff databases at the end). SOURCE=candidates takes instead the
# positions after the five best plays of a random roll in any race of adam24a's self-play (the
# rejected plays included: what a choice weighs) into training/rollout-racecand-a24a. Why: the
# race plays of round adam24's race set cost us three times what gnubg's 0-ply plays cost there,
# a gammon race's decision (2% to 98%) 1.34 mppd against 0.56, the others' 0.80 against 0.26.
# Resumable (chunks written are skipped).
# Usage: training/rollout-race-a24a.sh   (THREADS, default 1; CHUNKS, default 100; SOURCE; CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
SOURCE=${SOURCE:-self-play}
case $SOURCE in
    self-play) DIR=training/rollout-gammonish-a24a SEED=26 PICK=--gammonish ;;
    candidates) DIR=training/rollout-racecand-a24a SEED=27 PICK= ;;
    *) echo "SOURCE is self-play or candidates"; exit 2 ;;
esac
mkdir -p "$DIR"
exec "$CLI" train label --nets training/adam24a --source "$SOURCE" --class race $PICK \
    --rollout 72 --probe 1 --threshold 0 --chunks "${CHUNKS:-100}" --chunk-positions 2000 \
    --seed "$SEED" --threads "${THREADS:-1}" --dir "$DIR"
