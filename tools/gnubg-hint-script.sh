#!/bin/bash
# The gnubg commands that time its opening decisions, for tools/bench-vs-gnubg.sh and
# tools/bench-ab-vs-gnubg.sh: one thread, PLIES-ply checker play, then REPS times, for each roll
# of ROLLS (`|`-separated, as "2 1|3 1"; `opening` or empty: the 15 non-doubles), a new game at the opening position with those dice and,
# if WITH_HINT is `yes`, a `hint`; then quit. Timing the run with hints less the run without
# gives gnubg's time for the hints alone.
# Usage: tools/gnubg-hint-script.sh PLIES WITH_HINT [ROLLS (opening)] [REPS (1)] > FILE
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,7p' "$0" >&2; exit 2; }
rolls=${3:-opening}
if [ "$rolls" = opening ]; then rolls="2 1|3 1|3 2|4 1|4 2|4 3|5 1|5 2|5 3|5 4|6 1|6 2|6 3|6 4|6 5"; fi
echo "set threads 1"
echo "set evaluation chequerplay evaluation plies $1"
for ((k = 0; k < ${4:-1}; k++)); do
    IFS='|'
    for r in $rolls; do
        echo "new game"
        echo "set board 4HPwATDgc/ABMA"
        echo "set dice $r"
        [ "$2" = yes ] && echo "hint"
    done
    unset IFS
done
echo "quit"
echo "y"
