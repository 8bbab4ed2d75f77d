#!/bin/sh
# Rounds adam35 on (docs/TRAINING.md): the eight sets that teach the contact net (training/adam20.sh's
# CONTACT_SETS, 5.8 million positions) labelled again by TEACHER's pruned PLIES-ply, into OUT
# (default training/relabel1-a36a for TEACHER adam36a at 1 ply, relabel2-a37a for adam37a at 2,
# and so on), for training/adam20.sh's RELABEL. Why: on the contact yardstick (beyond the
# rollouts' noise) adam18bx's 2-ply, the targets of the base nets since round adam20, is 0.0459
# from the rollouts, adam35a's 1-ply 0.0243 at ten times the speed, adam36a's 0.0222, adam37a's
# 2-ply 0.0161. About 2,000 positions a second per thread at 1 ply, 200 at 2; deterministic and
# resumable (chunks already written are skipped), the same bit for bit when made again: the quick
# 1-ply labels are gitignored, the long job's 2-ply ones (training/relabel2-a37a.sh) committed.
# Usage: training/relabel-contact.sh TEACHER [OUT]   (e.g. adam36a; PLIES, default 1; THREADS; CLI)
cd "$(dirname "$0")/.." || exit 1
[ -n "$1" ] || { echo "usage: training/relabel-contact.sh TEACHER [OUT]" >&2; exit 2; }
PLIES=${PLIES:-1}
OUT=${2:-training/relabel$PLIES-a${1#adam}}
PLIES=$PLIES SETS="label2p-r3 label2p-r2 label2p label2p-candidates-a6 label2p-candidates-a10
    label2p-contactcand-a11k label2p-contactcand-a12x label2p-early-a13x" \
    exec training/relabel.sh "training/$1" "$OUT"
