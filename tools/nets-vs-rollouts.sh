#!/bin/sh
# How far a set of nets' 0-ply (or n-ply) cubeless equity is from the rollout labels of one or
# more `train label --rollout` sets: each set's positions are labelled again with the nets
# (`train label --from SET --plies P`) into a temporary folder, and `train compare` prints the
# RMSE and mean difference by the net that judges each position. The temporary labels are
# deleted at the end. GNU Backgammon's figure on the same sets: tools/gnubg-vs-rollouts.py.
# BY_LEAD=1 adds the races by the pip lead of the side on roll (`train compare --races-by-lead`).
# SECOND=DIR adds the RMSE with the rollouts' noise taken out, DIR being a second rollout of
# the (one) set's positions (`train compare --second-reference`).
# PRUNE=1 searches with the pruning nets inside the n-ply search, as the program plays (`train
# label --prune`; the nets' folder must hold prune-*.net): the yardstick's figures since round
# adam33.
# Usage: tools/nets-vs-rollouts.sh NETS_DIR SET...   (PLIES, default 0; THREADS, default 1;
#   BY_LEAD; SECOND; PRUNE; CLI)
#   e.g. tools/nets-vs-rollouts.sh training/adam22c training/rollout-crashed-test training/rollout-r1
set -e
[ $# -ge 2 ] || { sed -n '2,16p' "$0" >&2; exit 2; }
CLI=${CLI:-training/bin/cubeful-cli}
NETS=$1
shift
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for set in "$@"; do
    name=$(basename "$set")
    mkdir "$WORK/$name"
    "$CLI" train label --nets "$NETS" --from "$set" --dir "$WORK/$name" --plies "${PLIES:-0}" \
        --chunks 100000 --threads "${THREADS:-1}" ${PRUNE:+--prune} > "$WORK/$name.log" 2>&1
    echo "== $set ($NETS, ${PLIES:-0}-ply)"
    "$CLI" train compare --reference "$set" --data-dir "$WORK/$name" \
        ${BY_LEAD:+--races-by-lead} ${SECOND:+--second-reference "$SECOND"}
done
