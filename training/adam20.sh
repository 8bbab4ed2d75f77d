#!/bin/bash
# Round adam20 (docs/TRAINING.md): adam19's recipe with the 2-ply targets from adam18bx's
# pruned 2-ply (training/relabel-a18bx.sh) instead of the old teachers' 2-ply mixed with
# adam17wx's 1-ply: squared error, the candidates ×4, the 2-ply examples adam5's 0-ply misjudges
# by 0.03 or more ×3, the rollout labels where adam16ex misjudges ×6, a 256-unit contact net.
# Takes each set's new labels only once the set is labelled again in full (adam9.sh would take
# a half-done folder as it stands); a set not yet done keeps its old labels, and the run says so.
# The sets that teach the contact net must be done (the crashed and race sets may not be: then
# only the contact net is adam20's, to be used with adam18bx's others).
# Usage: training/adam20.sh [OUT]   (default training/adam20); THREADS as adam9.sh; CLASSES
# (e.g. crashed,race) trains only those nets (train supervised --classes): the crashed and race
# nets once their sets are labelled again, to go with adam20's contact net. HIDDEN (default 256)
# is the contact net's width; SECOND gives it a second hidden layer of that many units (train
# supervised --second-layer: the first layer kept, the layers above it new), or widens a
# narrower second layer to that many (round adam51: SECOND=128); SECOND_CRASHED the
# same for the crashed net (--second-layer-crashed); HIDDEN_CRASHED (default 192) the crashed
# net's first layer, widened to it (--hidden-crashed, with or without a second layer; with
# CLASSES=crashed, a START whose crashed net is wider, as adam41w's 256, needs it set); RELABEL
# (default training/relabel-a18bx) the relabelled sets' folder (training/relabel.sh);
# MORE_ROLLOUTS more rollout-labelled sets (each ROLLOUT_REPEAT times, default 6, as the
# rollout-miss labels). START (default training/adam5), EPOCHS (16) and ALPHA
# (0.0007) are the nets trained on and the schedule (round adam35: START=training/adam34d, whose
# contact net already has its second layer, kept as it is, EPOCHS=8 ALPHA=0.0004).
set -e
cd "$(dirname "$0")/.."
CONTACT_SETS="label2p-r3 label2p-r2 label2p label2p-candidates-a6 label2p-candidates-a10
    label2p-contactcand-a11k label2p-contactcand-a12x label2p-early-a13x"
BLEND=$(mktemp -d training/.relabelled.XXXXXX)
trap 'rm -rf "$BLEND"' EXIT
done_sets=0
for source in training/label2p*; do
    [ -d "$source" ] || continue  # the labelling scripts beside the sets (label2p-*.sh)
    set=$(basename "$source")
    case $set in *-a6) [ "$set" = label2p-candidates-a6 ] || [ "$set" = label2p-crashed-a6 ] || continue ;; esac
    new=${RELABEL:-training/relabel-a18bx}/$set
    have=$(ls "$new" 2>/dev/null | grep -c '^chunk-.*\.bin$' || true)
    want=$(ls "$source" | grep -c '^chunk-.*\.bin$')
    if [ "$have" = "$want" ]; then
        ln -s "$PWD/$new" "$BLEND/$set"
        done_sets=$((done_sets + 1))
    else
        case " $(echo $CONTACT_SETS) " in
            *" $set "*) echo "adam20: $set: $have of $want chunks labelled again; run training/relabel.sh first"; exit 1 ;;
        esac
        echo "adam20: $set: $have of $want chunks labelled again: its old labels are used (crashed and race nets not adam20's)"
    fi
done
echo "adam20: $done_sets sets from ${RELABEL:-training/relabel-a18bx}"
LOSS=mse HARD=0.03 HARD_REPEAT=3 CANDIDATES=4 BLEND_DIR=$BLEND \
MORE_DATA=training/label2p-crashed-a10 \
MORE_CANDIDATES="training/label2p-candidates-a10 training/label2p-racecand-a10r training/label2p-crashcand-a11c training/label2p-contactcand-a11k training/label2p-crashcand-a12x training/label2p-contactcand-a12x training/label2p-early-a13x training/rollout-early-t10-a16ex" \
ROLLOUT_DATA="training/rollout-miss-a16ex ${MORE_ROLLOUTS:-}" \
EXTRA="--race-loss ce --hidden ${HIDDEN:-256} --hidden-crashed ${HIDDEN_CRASHED:-192}${SECOND:+ --second-layer $SECOND}${SECOND_CRASHED:+ --second-layer-crashed $SECOND_CRASHED}${CLASSES:+ --classes $CLASSES}" \
    training/adam9.sh "${1:-training/adam20}" "${START:-training/adam5}" "${EPOCHS:-16}" "${ALPHA:-0.0007}"
