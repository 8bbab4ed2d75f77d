#!/bin/sh
# Round adam26 (docs/TRAINING.md, round adam25's "what is left"): race positions of adam25a's
# self-play that its race net misjudges, labelled precisely: each position gets a 72-game probe
# rollout, and those whose probe is 0.03 or more from the 0-ply equity are rolled out again with
# 576 games (cubeless, variance reduction, bearoff databases at the end) into
# training/rollout-racehard-a25a. GAMMONISH=1 takes the races whose gammon is in doubt instead
# (training/rollout-racehard-gammonish-a25a). A 72-game label is about 0.017 from a 1,296-game
# one in equity outside pure bearoffs, as far as adam25a's 0-ply is (0.013): these labels are
# three times as precise where the net is wrong. Resumable (chunks written are skipped).
# Usage: training/rollout-racehard-a25a.sh   (THREADS, default 1; CHUNKS, default 100; GAMMONISH; CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
if [ "${GAMMONISH:-0}" = 1 ]; then
    DIR=training/rollout-racehard-gammonish-a25a SEED=29 PICK=--gammonish
else
    DIR=training/rollout-racehard-a25a SEED=28 PICK=
fi
mkdir -p "$DIR"
exec "$CLI" train label --nets training/adam25a --source self-play --class race $PICK \
    --rollout 576 --probe 72 --threshold 0.03 --chunks "${CHUNKS:-100}" --chunk-positions 2000 \
    --seed "$SEED" --threads "${THREADS:-1}" --dir "$DIR"
