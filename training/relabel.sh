#!/bin/sh
# Every 2-ply set of training/adam9.sh labelled again by TEACHER's pruned PLIES-ply, into OUT/SET
# (the folder layout adam9.sh's BLEND_DIR and training/adam20.sh's RELABEL look for).
# Usage: training/relabel.sh TEACHER OUT   (THREADS, default 1: labelling threads; CLI;
#   PLIES, default 2; SETS, default all thirteen sets below, the contact ones first).
# The sets that teach the contact net come first (so that a round can make its contact net
# before the crashed and race sets are done); deterministic and resumable (chunks already
# written are skipped). About 210 positions a second per thread.
# Rounds: adam20 (training/relabel-a18bx.sh, TEACHER adam18bx), adam21 (relabel-a20x.sh),
# adam35 (training/relabel1-a35a.sh: the contact sets at adam35a's pruned 1-ply).
set -e
cd "$(dirname "$0")/.."
TEACHER=$1
OUT=$2
[ -n "$TEACHER" ] && [ -n "$OUT" ] || { echo "usage: training/relabel.sh TEACHER OUT" >&2; exit 2; }
CLI=${CLI:-training/bin/cubeful-cli}
SETS=${SETS:-"label2p-r3 label2p-r2 label2p label2p-candidates-a6 label2p-candidates-a10
    label2p-contactcand-a11k label2p-contactcand-a12x label2p-early-a13x
    label2p-crashed-a6 label2p-crashed-a10 label2p-crashcand-a11c label2p-crashcand-a12x
    label2p-racecand-a10r"}
for set in $SETS; do
    mkdir -p "$OUT/$set"
    "$CLI" train label --nets "$TEACHER" --from "training/$set" --dir "$OUT/$set" \
        --plies "${PLIES:-2}" --prune --chunks 100000 --threads "${THREADS:-1}"
done
