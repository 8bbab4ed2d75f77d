#!/usr/bin/env bash
# Measures Cubeful and GNU Backgammon side by side on this machine, in one run, for
# docs/BENCHMARKS.md:
#   1. static evaluations per second, one thread, no cache (gnubg's `calibrate`, our `bench eval`);
#   2. checker-play decisions for the 15 opening rolls at 2-ply and 3-ply, one thread
#      (gnubg's `hint` from the command line, our `bench hint`), ours with the pruning nets
#      (as World Class plays) and without them (the same full nets in a folder without
#      prune-*.net files);
#   3. the temperature map of the starting position at 0, 1 and 2 plies (ours: `temperature`;
#      gnubg has no temperature map on its command line, so: its `hint` for each of the 21 rolls,
#      the work its GTK temperature map does).
# Needs Debian's gnubg (apt-get install gnubg) and a release build of cubeful-cli.
#   tools/bench-vs-gnubg.sh [path/to/cubeful-cli]
set -euo pipefail
CLI=${1:-target/release/cubeful-cli}
GNUBG=${GNUBG:-$(command -v gnubg || echo /usr/games/gnubg)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. Evaluations per second.
printf 'set threads 1\ncalibrate 20\nquit\n' > "$tmp/cal.txt"
script -q -c "$GNUBG -t -q < $tmp/cal.txt" "$tmp/cal.log" > /dev/null 2>&1 || true
gnubg_evals=$(grep -a -o 'Calibration result: [0-9]*' "$tmp/cal.log" | grep -o '[0-9]*$' || echo 0)
ours_evals=$("$CLI" bench eval --seconds 5 --json | grep evals_per_second | grep -o '[0-9.]*' | cut -d. -f1)
echo "evals/s, one thread: gnubg $gnubg_evals, cubeful $ours_evals, ratio $(echo "scale=2; $ours_evals / $gnubg_evals" | bc)"

# 2. Opening decisions.
DATA_NETS=${DATA_NETS:-$(dirname "$0")/../data/nets}
mkdir -p "$tmp/full"
cp "$DATA_NETS/contact.net" "$DATA_NETS/crashed.net" "$DATA_NETS/race.net" "$tmp/full/"
gnubg_time() { # plies, with_hint [rolls] [reps]: a gnubg run of `hint` for each roll, or without
    "$(dirname "$0")/gnubg-hint-script.sh" "$1" "$2" "${3:-opening}" "${4:-1}" > "$tmp/h.txt"
    local s e
    s=$(date +%s.%N)
    "$GNUBG" -t -q < "$tmp/h.txt" > /dev/null 2>&1 || true
    e=$(date +%s.%N)
    echo "$e - $s" | bc
}
for plies in 2 3; do
    base=$(gnubg_time "$plies" no)
    full=$(gnubg_time "$plies" yes)
    gnubg_per=$(echo "scale=4; ($full - $base) / 15" | bc)
    ours_per=$("$CLI" bench hint --plies "$plies" --passes 1 --json | grep seconds_per_decision | grep -o '[0-9.]*')
    full_per=$("$CLI" bench hint --plies "$plies" --passes 1 --nets "$tmp/full" --json | grep seconds_per_decision | grep -o '[0-9.]*')
    echo "${plies}-ply opening decision: gnubg ${gnubg_per} s, cubeful ${ours_per} s (without pruning nets ${full_per} s), cubeful/gnubg time $(echo "scale=2; $ours_per / $gnubg_per" | bc) (without pruning $(echo "scale=2; $full_per / $gnubg_per" | bc))"
done

# 3. Temperature map of the starting position: the best play of each of the 21 rolls. The
# maps are repeated (REPS) so that the shallow ones rise above the start-up time; each side's
# time is that of a run with the maps minus the same run without them (gnubg: the same
# commands without `hint`; ours: `eval` of the position in place of `temperature`, the same
# start-up).
all_rolls="1 1|2 1|2 2|3 1|3 2|3 3|4 1|4 2|4 3|4 4|5 1|5 2|5 3|5 4|5 5|6 1|6 2|6 3|6 4|6 5|6 6"
ours_map_time() { # plies, reps, command
    local s e
    s=$(date +%s.%N)
    for ((k = 0; k < $2; k++)); do
        if [ "$3" = temperature ]; then
            "$CLI" temperature --plies "$1" 4HPwATDgc/ABMA > /dev/null
        else
            "$CLI" eval 4HPwATDgc/ABMA > /dev/null
        fi
    done
    e=$(date +%s.%N)
    echo "$e - $s" | bc
}
for plies in 0 1 2; do
    reps=20
    [ "$plies" = 2 ] && reps=2
    gnubg_map=$(echo "scale=4; ($(gnubg_time "$plies" yes "$all_rolls" $reps) - $(gnubg_time "$plies" no "$all_rolls" $reps)) / $reps" | bc)
    ours_map=$(echo "scale=4; ($(ours_map_time "$plies" $reps temperature) - $(ours_map_time "$plies" $reps eval)) / $reps" | bc)
    echo "temperature map at ${plies}-ply: gnubg ${gnubg_map} s (21 hints), cubeful ${ours_map} s, cubeful/gnubg time $(echo "scale=2; $ours_map / $gnubg_map" | bc)"
done
