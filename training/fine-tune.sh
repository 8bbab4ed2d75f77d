#!/bin/bash
# The rollout fine-tune of rounds adam22–adam24 (docs/TRAINING.md): one net class of BASE's nets
# trained on the examples of that class in DATA (a folder of labelled chunks) with Adam, squared
# error, EPOCHS (default 3) epochs at α ALPHA (default 0.0003) on a cosine schedule, batch 64,
# seed 1; then, unless PRUNE=0, the pruning nets distilled from the result (train prune on
# training/label2p). The nets go to NETS (all three, and the pruning nets when made); the
# calling round picks the ones it keeps.
# ARGS adds arguments to train supervised (round adam26: "--hidden-race 128").
# Usage: training/fine-tune.sh CLASS BASE DATA NETS   (EPOCHS; ALPHA; ARGS; PRUNE; THREADS; CLI)
set -e
[ $# -eq 4 ] || { sed -n '2,9p' "$0" >&2; exit 2; }
CLASS=$1 BASE=$2 DATA=$3 NETS=$4
CLI=${CLI:-training/bin/cubeful-cli}
"$CLI" train supervised --optimizer adam --loss mse --nets "$BASE" --data-dir "$DATA" \
    --classes "$CLASS" --out "$NETS" --epochs "${EPOCHS:-3}" --batch 64 \
    --alpha "${ALPHA:-0.0003}" --schedule cosine --select loss --seed 1 \
    --threads "${THREADS:-1}" ${ARGS:-}
if [ "${PRUNE:-1}" = 1 ]; then
    "$CLI" train prune --nets "$NETS" --data-dir training/label2p --out "$NETS" \
        --threads "${THREADS:-1}"
fi
