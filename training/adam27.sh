#!/bin/bash
# Round adam27 (docs/TRAINING.md): one net of BASE (default training/adam26a, whose contact and
# crashed nets are adam23a's) trained on BASE's own pruned 2-ply with the rollouts beside it, as
# round adam26 did for the race net. The 2-ply targets are training/relabel-contact-a26a (made by
# training/relabel-contact-a26a.sh).
# CLASS=contact (default): the positions of the first CONTACT chunks (default 166, of 1,000) of
#   rollout-contact-a22c and CAND (default 90) of rollout-contactcand-a22c, the chunks after
#   them held out; the first R3 chunks (default 0, of 5,000) of label2p-r3 and CC (default 0,
#   of 5,000) of label2p-contactcand-a12x.
# CLASS=crashed: the first CRASHED chunks (default 400, of 1,000; the ones round adam22 trained
#   on, 400 on held out) of rollout-crashed-a20x and CC (default 0) of label2p-crashcand-a12x.
# Unless ROLLOUTS=0, the 72-game rollout labels of the same rollout chunks beside them. EPOCHS
# (default 10) of Adam at α ALPHA (default 0.0003), cosine, squared error (training/fine-tune.sh;
# ARGS adds arguments to train supervised), then the pruning nets unless PRUNE=0 (BASE's are
# kept then); BASE's other nets.
# Usage: training/adam27.sh [OUT]  (default training/adam27; CLASS; BASE; CONTACT; CAND; CRASHED;
# R3; CC; ROLLOUTS; EPOCHS; ALPHA; ARGS; PRUNE; THREADS; CLI)
set -e
cd "$(dirname "$0")/.."
OUT=${1:-training/adam27}
CLASS=${CLASS:-contact}
BASE=${BASE:-training/adam26a}
WORK=$(mktemp -d training/.adam27.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir "$WORK/data" "$WORK/nets"
. training/round.sh
R=training/relabel-contact-a26a
case $CLASS in
contact)
    CONTACT=${CONTACT:-166} CAND=${CAND:-90}
    take $R/rollout-contact-a22c "$CONTACT" 2p-contact
    take $R/rollout-contactcand-a22c "$CAND" 2p-contactcand
    take $R/label2p-r3 "${R3:-0}" 2p-r3
    take $R/label2p-contactcand-a12x "${CC:-0}" 2p-contactcand-a12x
    if [ "${ROLLOUTS:-1}" = 1 ]; then
        take training/rollout-contact-a22c "$CONTACT" ro-contact
        take training/rollout-contactcand-a22c "$CAND" ro-contactcand
    fi ;;
crashed)
    CRASHED=${CRASHED:-400}
    take $R/rollout-crashed-a20x "$CRASHED" 2p-crashed
    take $R/label2p-crashcand-a12x "${CC:-0}" 2p-crashcand-a12x
    if [ "${ROLLOUTS:-1}" = 1 ]; then
        take training/rollout-crashed-a20x "$CRASHED" ro-crashed
    fi ;;
*) echo "adam27.sh: CLASS is contact or crashed" >&2; exit 2 ;;
esac
EPOCHS=${EPOCHS:-10} ALPHA=${ALPHA:-0.0003} training/fine-tune.sh "$CLASS" "$BASE" "$WORK/data" \
    "$WORK/nets"
mkdir -p "$OUT"
for n in contact crashed race; do
    if [ $n = "$CLASS" ]; then
        keep_trained $n
    else
        cp "$BASE/$n.net" "$BASE/prune-$n.net" "$OUT/"
    fi
done
