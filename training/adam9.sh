#!/bin/bash
# Round adam9 (docs/TRAINING.md): adam8's recipe with the 2-ply labels relabelled by adam6's
# pruned 2-ply (training/relabel-a6.sh), plus crashed and candidate positions labelled by it.
# Usage: training/adam9.sh OUT [START] [EPOCHS] [ALPHA]
# Environment: CANDIDATES (default 1) repeats the candidate positions; PRUNE=0 skips the
# pruning nets (for quick comparisons at 0-ply); LOSS (default ce) is the loss; HARD=E adds
# the 2-ply examples whose 0-ply equity by START (or by HARD_NETS) is at least E off
# (train hard), HARD_REPEAT times (default 2); AVERAGE=D writes weight averages (train
# supervised --average D); SEED (default 1) seeds the training run; EXTRA holds more options
# of train supervised (e.g. --hidden-race 128); THREADS (default 1) is the worker threads of
# every step (the results do not depend on them);
# MORE_DATA and MORE_CANDIDATES name more 2-ply and candidate sets (folders, space-separated);
# ROLLOUT_DATA names more rollout-labelled sets, each repeated ROLLOUT_REPEAT times (default 6,
# the weight of the holding games). BLEND_DIR (e.g. training/blend-a17wx) takes each 2-ply
# and candidate set from BLEND_DIR/NAME instead where that folder exists.
set -e
cd "$(dirname "$0")/.."
OUT=$1 START=${2:-training/adam5} EPOCHS=${3:-8} ALPHA=${4:-0.0007}
CLI=${CLI:-training/bin/cubeful-cli}
# The 2-ply sets with adam6's labels where they exist (hard links: the data reader skips
# symlinks); chunks not yet relabelled keep their first teacher's.
MERGED=$(mktemp -d training/.merged.XXXXXX)
trap 'rm -rf "$MERGED"' EXIT
D=()
# A set's blended version (BLEND_DIR) where there is one.
blended() { if [ -n "${BLEND_DIR:-}" ] && [ -d "$BLEND_DIR/$(basename "$1")" ]; then echo "$BLEND_DIR/$(basename "$1")"; else echo "$1"; fi; }
for set in label2p label2p-r2 label2p-r3; do
    mkdir "$MERGED/$set"
    if [ "$(blended "$set")" != "$set" ]; then
        ln "$(blended "$set")"/chunk-*.bin "$MERGED/$set/"
        echo "adam9: $set: $(ls "$MERGED/$set" | wc -l) chunks from $BLEND_DIR"
        D+=(--data-dir "$MERGED/$set")
        continue
    fi
    for f in training/$set/chunk-*.bin; do
        n=$(basename "$f")
        if [ -f "training/$set-a6/$n" ]; then ln "training/$set-a6/$n" "$MERGED/$set/$n"; else ln "$f" "$MERGED/$set/$n"; fi
    done
    echo "adam9: $set: $(ls training/$set-a6 2>/dev/null | wc -l) of $(ls training/$set | wc -l) chunks relabelled by adam6"
    D+=(--data-dir "$MERGED/$set")
done
D+=(--data-dir "$(blended training/label2p-crashed-a6)")
# More 2-ply sets (MORE_DATA) and candidate sets (MORE_CANDIDATES, repeated as the candidates
# are), as they stand when the run starts (hard links: labelling may still be adding chunks).
C=(--data-dir "$(blended training/label2p-candidates-a6)")
for set in ${MORE_DATA:-} ${MORE_CANDIDATES:-} ${ROLLOUT_DATA:-}; do
    name=$(basename "$set")
    mkdir "$MERGED/$name"
    ln "$(blended "$set")"/chunk-*.bin "$MERGED/$name/"
    echo "adam9: $name: $(ls "$MERGED/$name" | wc -l) chunks"
done
for set in ${MORE_DATA:-}; do D+=(--data-dir "$MERGED/$(basename "$set")"); done
for set in ${MORE_CANDIDATES:-}; do C+=(--data-dir "$MERGED/$(basename "$set")"); done
if [ -n "${HARD:-}" ]; then
    mkdir "$MERGED/hard"
    "$CLI" train hard --nets "${HARD_NETS:-$START}" "${D[@]}" "${C[@]}" \
        --min-error "$HARD" --out "$MERGED/hard/hard.bin" --threads "${THREADS:-1}"
    for i in $(seq "${HARD_REPEAT:-2}"); do D+=(--data-dir "$MERGED/hard"); done
fi
for i in $(seq "${CANDIDATES:-1}"); do D+=("${C[@]}"); done
for i in 1 2 3 4 5; do D+=(--data-dir training/rollout-r1); done
for i in 1 2 3; do D+=(--data-dir training/rollout-races-r1); done
for i in 1 2 3 4 5 6; do D+=(--data-dir training/rollout-holding-r1 --data-dir training/rollout-holding-r2); done
for i in 1 2 3; do D+=(--data-dir training/rollout-selfplay-u1); done
for set in ${ROLLOUT_DATA:-}; do
    for i in $(seq "${ROLLOUT_REPEAT:-6}"); do D+=(--data-dir "$MERGED/$(basename "$set")"); done
done
mkdir -p "$OUT"
"$CLI" train supervised --optimizer adam --loss "${LOSS:-ce}" --nets "$START" "${D[@]}" \
    --out "$OUT" --epochs "$EPOCHS" --batch 64 --alpha "$ALPHA" --schedule cosine --select loss \
    --seed "${SEED:-1}" --threads "${THREADS:-1}" ${AVERAGE:+--average "$AVERAGE"} ${EXTRA:-}
[ "${PRUNE:-1}" = 0 ] || "$CLI" train prune --nets "$OUT" --data-dir training/label2p --out "$OUT" --threads "${THREADS:-1}"
